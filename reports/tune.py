"""A tuning study's result as a table, JSON, CSV and charts (the study itself, on
Optuna, is ``studies/tune.py``)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from unosim import provenance


def summarize(r: Any) -> dict[str, Any]:
    """The result of a tuning study (``studies.tune.TuneResult``) as one dict."""
    s = r.setup
    return {
        "provenance": provenance(),
        "strategy": s.strategy,
        "study": r.study_name,
        "storage": r.storage,
        "players": s.table.players,
        "variant": s.variant,
        "rules_changed": {k: str(v) for k, v in s.table.rules.changed().items()},
        "field": s.field_text,
        "mode": s.table.mode,
        "sampler": s.sampler,
        "pruner": f"successive halving (reduction {r.reduction}), rungs "
                  + ", ".join(str(g) for g in r.rungs) + " games",
        "games_per_trial": r.rungs[-1],
        "seed": s.table.seed,
        "space": {k: [lo, hi] for k, (lo, hi, _) in s.space.items()},
        "counts": r.counts,
        "interrupted": r.interrupted,
        "reevaluation": r.reeval,
        "reevaluation_games_from": r.reeval_from,
        "best": r.best,
        "elapsed_s": r.elapsed_s,
        "games_played": r.games_played,
    }


def render(s: dict[str, Any]) -> str:
    from unosim.runs import modes

    c = s["counts"]
    lines = [
        f"unosim tune {s['strategy']} · {s['players']} players · field {s['field']} · "
        f"{'matches' if modes.of(s['mode']).by_rounds else 'rounds'} · variant {s['variant']} · "
        f"seed {s['seed']}",
        f"study {s['study']} in {s['storage']} · sampler {s['sampler']} · pruner {s['pruner']}",
        f"trials: {c['trials']} in the study: {c['complete']} complete, {c['pruned']} pruned, "
        f"{c['skipped']} skipped (parameters already played), {c['failed']} failed"
        + (f", {c['interrupted']} interrupted" if c.get("interrupted") else "")
        + (f", {c['running']} running or left unfinished" if c["running"] else ""),
    ]
    if s["interrupted"]:
        lines.append("interrupted: the finished trials are kept in the study; run the same "
                     "command again to continue it")
    if s["reevaluation"]:
        r0 = s["reevaluation"][0]
        lines.append("")
        lines.append(f"Re-evaluated on fresh deals ({r0['games']:,} games each, game indices "
                     f"from {s['reevaluation_games_from']:,}; fair share "
                     f"{100 * r0['fair_share']:.2f}%):")
        lines.append(f"  {'trial':>8}  {'search':>7}  {'win rate':>8}  {'95% CI':<18} strategy")
        for r in s["reevaluation"]:
            lo, hi = r["win_rate_ci95"]
            sw = "" if r["search_win_rate"] is None else f"{100 * r['search_win_rate']:.2f}%"
            lines.append(f"  {r['trial']!s:>8}  {sw:>7}  {100 * r['win_rate']:7.2f}%  "
                         f"[{100 * lo:.2f}, {100 * hi:.2f}]    {r['strategy']}")
    if s["best"]:
        lines.append("")
        lines.append(f"best: {s['best']}")
    if s["elapsed_s"]:
        lines.append(f"time: {s['elapsed_s']:.1f} s, {s['games_played']:,} games played")
    return "\n".join(lines)


# ------------------------------------------------------------------ files


def flat_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """One CSV key per figure: counts, ranges and the re-evaluated candidates."""
    flat = {k: v for k, v in summary.items()
            if k not in ("counts", "space", "reevaluation", "rules_changed")}
    flat.update({f"trials.{k}": v for k, v in summary["counts"].items()})
    for k, (lo, hi) in summary["space"].items():
        flat[f"range.{k}.low"], flat[f"range.{k}.high"] = lo, hi
    for i, row in enumerate(summary["reevaluation"]):
        for k, v in row.items():
            if k == "win_rate_ci95":
                flat[f"candidate_{i}.win_rate_low"], flat[f"candidate_{i}.win_rate_high"] = v
            else:
                flat[f"candidate_{i}.{k}"] = v
    return flat


def history_figure(hist: Any, summary: dict[str, Any]) -> Any:
    """Every finished trial's win rate and the best so far (pruned trials at their
    last rung)."""
    fig, ax = _figure()
    if hist.finished:
        xs = [n for n, _ in hist.finished]
        ys = [100 * v for _, v in hist.finished]
        ax.plot(xs, ys, ".", label="trial (finished)")
        ax.plot(xs, np.maximum.accumulate(ys), "-", label="best so far")
    if hist.pruned:
        ax.plot([n for n, _ in hist.pruned], [100 * v for _, v in hist.pruned],
                "x", alpha=0.5, label="pruned (last rung)")
    ax.set_xlabel("trial")
    ax.set_ylabel("win rate, %")
    ax.set_title(f"Optimisation history: {summary['strategy']} ({summary['study']})")
    ax.legend()
    fig.tight_layout()
    return fig


def importance_figure(hist: Any) -> Any:
    """The parameters' importances (fANOVA), when there are enough finished trials."""
    fig, ax = _figure()
    imp = hist.importances
    if imp:
        names = list(imp)[::-1]
        ax.barh(names, [imp[k] for k in names])
        ax.set_xlabel("importance (fANOVA, share of the variance of the win rate)")
    else:
        ax.text(0.5, 0.5, "too few finished trials for importances", ha="center")
    ax.set_title("Parameter importances")
    fig.tight_layout()
    return fig


def tune_figures(hist: Any, summary: dict[str, Any]) -> dict[str, Any]:
    """The study's charts by file stem: ``history`` and ``importances``."""
    return {"history": history_figure(hist, summary), "importances": importance_figure(hist)}


def _figure() -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4.5))
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def write_files(hist: Any, summary: dict[str, Any], out: Any) -> list[str]:
    """summary.json (the result), summary.csv (the same, one key a row), trials.csv,
    and the history and importance charts (PNG and SVG) of a study's ``history``."""
    from unosim.common import save_figure_atomic, write_text_atomic
    from unosim.reports.export import summary_csv

    written = []
    write_text_atomic(out / "trials.csv", hist.trials_csv)
    write_text_atomic(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    write_text_atomic(out / "summary.csv", summary_csv(flat_summary(summary)))
    written += ["trials.csv", "summary.json", "summary.csv"]
    for name, fig in tune_figures(hist, summary).items():
        for ext in ("png", "svg"):
            save_figure_atomic(fig, out / f"{name}.{ext}")
            written.append(f"{name}.{ext}")
    return written
