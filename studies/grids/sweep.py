"""A sweep's result: every point of the grid with every metric and its 95% interval,
the refused points with their reasons, as a table, rows and JSON (``play.py`` plays
it)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from unosim import provenance
from unosim.runs.variants import VariantSpec
from unosim.stats.numbers import decimals_for
from unosim.studies.compare.result import Comparison
from unosim.studies.grids.dimensions import Dim

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


@dataclass
class SweepResult:
    dims: list[Dim]
    points: list[Point]
    cmp: Comparison
    seed: int
    games: int
    stats: list[dict[str, dict[str, float]] | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Every played point's metrics (the comparison's variants, in order)."""
        if not self.stats:
            it = iter(range(len(self.played)))
            self.stats = [_order(point_stats(self.cmp, next(it))) if p.spec is not None
                          else None for p in self.points]

    @property
    def played(self) -> list[Point]:
        return [p for p in self.points if p.refused is None]

    @property
    def refused(self) -> list[Point]:
        return [p for p in self.points if p.refused is not None]


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
        "provenance": provenance(),
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
