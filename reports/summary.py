"""Turn a run's totals into the figures users read (each with its uncertainty)."""

from __future__ import annotations

from typing import Any

import numpy as np

from unosim.reports.feel import feel_figures, seat_balance, seat_balance_se
from unosim.runs.aggregate import Aggregate, RunResult
from unosim.simulate.round_metrics import TOTALLED
from unosim.stats.intervals import hist_quantile, mean_se, wilson


def metric_summary(agg: Aggregate, m: str) -> dict[str, float]:
    mean, se = mean_se(agg.sums[m], agg.sumsq[m], agg.count[m])
    h = agg.hist[m]
    return {
        "mean": mean,
        "se": se,
        "median": hist_quantile(h, 0.5),
        "p90": hist_quantile(h, 0.9),
        "n": agg.count[m],
    }


def summarize(res: RunResult, variant: str) -> dict[str, Any]:
    """The JSON-able summary of one run (the keys of ``--format json``)."""
    agg = res.agg
    n = agg.games
    players = agg.players
    rates = [agg.wins[i] / n if n else float("nan") for i in range(players)]
    cis = [list(wilson(int(agg.wins[i]), n)) for i in range(players)]
    return {
        "variant": variant,
        "rules": res.rules.as_dict(),
        "rules_changed": res.rules.changed(),
        "players": players,
        "games": n,
        "games_requested": res.requested,
        "partial": res.partial,
        "seed": res.seed,
        "strategies": [s.label() for s in res.seats],
        "seat_wins": [int(w) for w in agg.wins[:players]],
        "seat_win_rate": rates,
        "seat_win_rate_ci95": cis,
        "seat_balance": seat_balance([int(w) for w in agg.wins[:players]], n),
        "seat_balance_se": seat_balance_se([int(w) for w in agg.wins[:players]], n),
        "seat_points_mean": [agg.seat_points[i] / n if n else float("nan") for i in range(players)],
        **metric_figures(agg),
        **_house_rule_figures(res, agg),
        **feel_figures(agg),
        "capped": agg.capped,
        "workers": res.workers,
        "games_per_sec": n / res.elapsed_s if res.elapsed_s > 0 else float("nan"),
        "elapsed_s": res.elapsed_s,
        "compile_s": res.compile_s,
        "compiled": bool(res.compiled),
    }


def metric_figures(agg: Aggregate) -> dict[str, Any]:
    """The figures of every per-round metric, ``NAME_FIGURE`` (``turns_mean``), as
    simulate/round_metrics.py declares them, in its order."""
    out: dict[str, Any] = {}
    for f in TOTALLED:
        ms = metric_summary(agg, f.name)
        for fig in f.figures:
            out[f"{f.name}_{fig}"] = ms[fig]
    return out


def _house_rule_figures(res: RunResult, agg: Aggregate) -> dict[str, Any]:
    """Figures only some rules produce: the longest draw chain, finishing places
    (elimination), stages (seven_rounds)."""
    out: dict[str, Any] = {}
    h = agg.hist["max_stack"]
    top = int(np.nonzero(h)[0].max()) if h.any() else 0
    out["max_stack_distribution"] = [int(x) for x in h[: top + 1]]
    players = agg.players
    rules = res.rules
    if rules["elimination"]:
        done = agg.place_counts[:players, 1 : players + 1]
        n = done.sum(1)
        places = np.arange(1, players + 1)
        out["seat_mean_place"] = [
            float((done[i] * places).sum() / n[i]) if n[i] else float("nan") for i in range(players)
        ]
        out["seat_place_counts"] = done.tolist()
    if rules["seven_rounds"]:
        n = agg.games
        out["seat_mean_stage"] = [
            agg.stage_sums[i] / n if n else float("nan") for i in range(players)
        ]
    return out


def run_summary(res: RunResult, variant: str, backend: str,
                precision: float | None = None) -> dict[str, Any]:
    """``unosim run``'s summary: the same keys on every backend and every path (with
    or without ``--save-games``, ``--report`` or ``--precision``)."""
    out = summarize(res, variant)
    out["backend"] = backend
    out["precision_target"] = precision
    out["precision_reached"] = res.precision_reached
    return out
