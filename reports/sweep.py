"""A rule designer's sweep: one or two rule keys (or the player count) over a grid of
values, every point run on the same seed and game indices (common random numbers
where the deal allows), every metric with its 95% interval.

A point the rule validation refuses (a hand size too large for the deck at 10
players, say) is kept in the result with the reason and not played; the others run
interleaved, batch by batch, through the comparison engine (``run_compare``), so a
sweep is a comparison whose variants are the points of a grid.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unosim.errors import UnosimError
from unosim.reports.compare import Comparison, VariantSpec, run_compare
from unosim.reports.numbers import decimals_for

#: (metric, label, kind): "rate" in percent, "pp" a difference of rates in percentage
#: points, "share" 0..1 without a unit, else a mean
SWEEP_METRICS: tuple[tuple[str, str, str], ...] = (
    ("turns", "round length (turns)", "mean"),
    ("seat_win_0", "seat 0 win rate", "rate"),
    ("seat_0_edge", "seat 0 edge (win rate - 1/P)", "pp"),
    ("seat_balance", "seat balance", "share"),
    ("winner_points", "winner points", "mean"),
    ("cards_drawn", "cards drawn per round", "mean"),
    ("comeback", "comeback rate", "rate"),
    ("lead_changes", "lead changes per round", "mean"),
    ("first_uno_wins", "first to UNO wins", "rate"),
    ("capped", "capped rounds", "rate"),
)
LABELS = {m: label for m, label, _ in SWEEP_METRICS}
KINDS = {m: kind for m, _, kind in SWEEP_METRICS}


@dataclass(frozen=True)
class Dim:
    """One swept dimension: a rule key, or ``players`` for the player count."""

    key: str
    values: tuple[Any, ...]


@dataclass
class Point:
    coords: dict[str, Any]
    spec: VariantSpec | None = None
    refused: str | None = None

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={_show(v)}" for k, v in self.coords.items())


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def grid(dims: list[Dim], make: Callable[[dict[str, Any]], VariantSpec]) -> list[Point]:
    """Every point of the grid, in order (the first dimension varies slowest); a point
    whose rules ``make`` refuses keeps the reason instead of a spec."""
    if not 1 <= len(dims) <= 2:
        raise UnosimError(f"a sweep takes one or two swept dimensions, got {len(dims)}")
    points = []
    for values in itertools.product(*(d.values for d in dims)):
        coords = dict(zip((d.key for d in dims), values, strict=True))
        try:
            points.append(Point(coords, spec=make(coords)))
        except UnosimError as e:
            points.append(Point(coords, refused=str(e)))
    if all(p.refused for p in points):
        raise UnosimError("every point of the sweep is refused by the rules, e.g. "
                          f"{points[0].label}: {points[0].refused}")
    return points


@dataclass
class SweepResult:
    dims: list[Dim]
    points: list[Point]
    cmp: Comparison
    seed: int
    games: int
    stats: list[dict[str, dict[str, float]] | None] = field(default_factory=list)

    @property
    def played(self) -> list[Point]:
        return [p for p in self.points if p.refused is None]

    @property
    def refused(self) -> list[Point]:
        return [p for p in self.points if p.refused is not None]


def play_variants(specs: list[VariantSpec], games: int, seed: int, workers: int | None,
                  on_batch: Callable[[int], None] | None, runner: Any = None) -> Comparison:
    """The comparison of ``specs`` on this machine, or on a cluster through ``runner``
    (``grid_dask.DaskRunner``): the same totals either way."""
    if runner is not None:
        return runner.compare(specs, games, seed, on_batch=on_batch)
    return run_compare(specs, games, seed, workers, "round", on_batch=on_batch, limit=None)


def run_sweep(points: list[Point], dims: list[Dim], games: int, seed: int,
              workers: int | None = None, on_batch: Callable[[int], None] | None = None,
              runner: Any = None) -> SweepResult:
    """Play every point that was not refused, ``games`` rounds each, on one seed."""
    specs = [p.spec for p in points if p.spec is not None]
    cmp = play_variants(specs, games, seed, workers, on_batch, runner)
    r = SweepResult(dims, points, cmp, seed, games)
    it = iter(range(len(specs)))
    r.stats = [_order(point_stats(cmp, next(it))) if p.spec is not None else None
               for p in points]
    return r


def point_stats(cmp: Comparison, vi: int) -> dict[str, dict[str, float]]:
    """Every sweep metric of variant ``vi``: n, mean, se and 95% interval (rates by
    Wilson); a metric the engine does not report is left out."""
    out = {}
    names = {m.name for m in cmp.metrics}
    for name, _, _ in SWEEP_METRICS:
        if name in names and not cmp.absent(name) and cmp.stat(vi, name)["n"] > 0:
            out[name] = cmp.stat(vi, name)
    if "seat_win_0" in out:
        # the first seat's edge over its fair share: where does it vanish?
        fair = 1 / int(cmp.variants[vi].rules["players"])
        w = out["seat_win_0"]
        out["seat_0_edge"] = {"n": w["n"], "mean": w["mean"] - fair, "se": w["se"],
                              "ci_low": w["ci_low"] - fair, "ci_high": w["ci_high"] - fair}
    return out


def shown_metrics(r: SweepResult) -> list[str]:
    return [m for m, _, _ in SWEEP_METRICS if any(s and m in s for s in r.stats)]


def _order(st: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    return {m: st[m] for m, _, _ in SWEEP_METRICS if m in st}


def rows(r: SweepResult) -> list[dict[str, Any]]:
    """One row per point and metric: the swept keys as columns (``players`` for the
    player count), then the metric's figures; refused points have a reason and no
    figures."""
    out = []
    for p, st in zip(r.points, r.stats, strict=True):
        base = {d.key: p.coords[d.key] for d in r.dims}
        if st is None:
            out.append({**base, "metric": "", "n": 0, "mean": None, "se": None,
                        "ci_low": None, "ci_high": None, "refused": p.refused})
            continue
        for m in shown_metrics(r):
            s = st.get(m)
            if s is None:
                continue
            out.append({**base, "metric": m, "n": s["n"], "mean": s["mean"], "se": s["se"],
                        "ci_low": s["ci_low"], "ci_high": s["ci_high"], "refused": ""})
    return out


def to_dict(r: SweepResult) -> dict[str, Any]:
    return {
        "command": "sweep",
        "dims": [{"key": d.key, "values": list(d.values)} for d in r.dims],
        "seed": r.seed,
        "games_per_point": r.games,
        "games": r.cmp.games,
        "partial": r.cmp.partial,
        "points_played": len(r.played),
        "points_refused": [{"point": p.coords, "reason": p.refused} for p in r.refused],
        "metrics": {m: LABELS[m] for m in shown_metrics(r)},
        "rows": rows(r),
    }


def cell(s: dict[str, float] | None, metric: str) -> str:
    """``mean ± half-width`` of the 95% interval, in the metric's unit."""
    if s is None or s["n"] == 0 or not math.isfinite(s["mean"]):
        return "n/a"
    half = (s["ci_high"] - s["ci_low"]) / 2
    if KINDS[metric] in ("rate", "pp"):
        dec = max(1, decimals_for(100 * half))
        if KINDS[metric] == "pp":
            return f"{100 * s['mean']:+.{dec}f} pp ±{100 * half:.{dec}f}"
        return f"{100 * s['mean']:.{dec}f}% ±{100 * half:.{dec}f}"
    dec = decimals_for(half)
    return f"{s['mean']:.{dec}f} ±{half:.{dec}f}"


def render_sweep(r: SweepResult) -> str:
    """The sweep as a table: a row per point, a column per metric (± is the 95%
    interval's half-width)."""
    dims = " × ".join(f"{d.key} {', '.join(_show(v) for v in d.values)}" for d in r.dims)
    lines = [f"unosim sweep · {dims} · {r.games:,} games per point · seed {r.seed}", ""]
    metrics = shown_metrics(r)
    keys = [d.key for d in r.dims]
    head = [*keys, *(LABELS[m] for m in metrics)]
    body = []
    for p, st in zip(r.points, r.stats, strict=True):
        if st is None:
            continue
        body.append([_show(p.coords[k]) for k in keys] + [cell(st.get(m), m) for m in metrics])
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(head)]
    lines.append("  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)))
    for b in body:
        lines.append("  ".join(c.rjust(w) for c, w in zip(b, widths, strict=True)))
    lines.append("")
    lines.append("± is the half-width of the 95% interval (Wilson for rates; seat balance "
                 "= 1 - (largest - smallest seat win rate))")
    if r.refused:
        lines.append(f"refused by the rules and not played: {len(r.refused)} of "
                     f"{len(r.points)} points")
        lines += [f"  {p.label}: {p.refused}" for p in r.refused]
    capped = sum(int(round(st["capped"]["mean"] * st["capped"]["n"]))
                 for st in r.stats if st and "capped" in st)
    lines.append(f"capped rounds (no winner, left out of the round metrics): {capped:,}")
    if r.cmp.partial:
        lines.append(f"PARTIAL: stopped after {r.cmp.games:,} of {r.games:,} games per point")
    return "\n".join(lines)
