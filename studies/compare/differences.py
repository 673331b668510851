"""The main chart of a comparison: each variant's paired difference from the baseline.

The verdicts read paired intervals (the per-game difference on the same deals), so
the chart that stands for them draws exactly those: one panel per verdict metric, a
dot per variant with its paired 95% interval, the zero line, and the band of ±margin
(the smallest difference that matters, the margin ``settle`` reads claims against)
shaded around it. Every panel's axis holds zero and the band, so a difference the
verdict calls undetectable never looks large, and a detected one never hides behind
overlapping error bars of the variants' own levels.
"""

from __future__ import annotations

import math
from typing import Any

from matplotlib.figure import Figure

from unosim.errors import UnosimError
from unosim.reports import metrics as MX
from unosim.reports.chart_kit import (
    MARGIN_COLOUR,
    ZERO_COLOUR,
    grid_figure,
    mark_id,
    n_text,
    tag_errorbar,
)
from unosim.runs import modes
from unosim.stats.verdicts import default_margin

#: the words under every difference chart: what the dots, bars and band are
WHAT = ("dots: variant − {base}, paired on the same deals (filled: the interval excludes 0)\n"
        "bars: paired 95% interval · shaded: ±margin, the smallest difference that matters")


def difference_metrics(cmp: Any) -> list[str]:
    """The metrics the verdicts speak of: the headline metrics, then (round mode) the
    game feel, each where the results hold it."""
    mode = modes.of(cmp.mode)
    names = [m for m in MX.HEADLINES[mode.name]
             if all(m in mo.n for mo in cmp.moments)]
    if not mode.by_rounds:
        from unosim.studies.compare.result import FEEL_VERDICTS

        names += [m for m in FEEL_VERDICTS if not cmp.absent(m)]
    k = len(cmp.variants)
    return [m for m in names  # a metric with nothing to draw is left out
            if any(not cmp.comparable(vi, m) or math.isfinite(cmp.diff(vi, m)["ci_low"])
                   for vi in range(1, k))]


def margin_of(cmp: Any, name: str) -> float:
    """The metric's default margin (docs/settle.md), 0 where it has none."""
    try:
        return default_margin(name, modes.of(cmp.mode).name)
    except UnosimError:
        return 0.0


def _row_labels(cmp: Any) -> list[str]:
    ps = {v.rules["players"] for v in cmp.variants}
    if len(ps) == 1:
        return list(cmp.names)
    return [f"{nm} ({v.rules['players']} players)" for nm, v in zip(cmp.names, cmp.variants,
                                                                  strict=True)]


def _panel(ax: Any, cmp: Any, name: str) -> None:
    """One metric: each variant's paired difference against 0 and ±margin."""
    m = cmp.metric(name)
    sc = 100.0 if m.rate else 1.0
    k = len(cmp.variants)
    margin = margin_of(cmp, name) * sc
    ends = [0.0, -margin, margin]
    ys = list(range(k - 2, -1, -1))  # the first variant on top
    for vi, y in zip(range(1, k), ys, strict=True):
        d = cmp.diff(vi, name)
        why = ("not comparable" if not cmp.comparable(vi, name) else
               "no interval" if not math.isfinite(d["ci_low"]) else "")
        if why:
            ax.text(0.5, y, why, transform=ax.get_yaxis_transform(), ha="center",
                    va="center", fontsize=8, color="#555555")
            continue
        x, lo, hi = d["diff"] * sc, d["ci_low"] * sc, d["ci_high"] * sc
        colour = cmp.colours[vi]
        cont = ax.errorbar([x], [y], xerr=[[x - lo], [hi - x]], fmt="o", markersize=7,
                           capsize=4, elinewidth=1.8, color=colour, markeredgecolor=colour,
                           markerfacecolor=colour if d["detected"] else "white",
                           markeredgewidth=1.6, label=cmp.names[vi], zorder=3)
        tag_errorbar(cont, vi)
        ends += [lo, hi]
    ax.axvline(0.0, color=ZERO_COLOUR, linewidth=1, zorder=2, gid=mark_id("zero"))
    if margin > 0:
        ax.axvspan(-margin, margin, color=MARGIN_COLOUR, alpha=0.25, linewidth=0, zorder=0,
                   gid=mark_id("margin"))
    lo, hi = min(ends), max(ends)
    pad = 0.08 * (hi - lo) or 1.0
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_ylim(-0.6, k - 1.4)
    ax.set_yticks(ys)
    labels = _row_labels(cmp)[1:]
    ax.set_yticklabels(labels, fontsize=8)
    for tick, vi in zip(ax.get_yticklabels(), range(1, k), strict=True):
        tick.set_color(cmp.colours[vi])
    unit = "percentage points" if m.rate else (m.unit or "value")
    shown = f"{round(margin, 6) + 0.0:g}"
    short = "pp" if m.rate else m.unit
    if shown == "1" and short.endswith("s"):  # ±1 turn, ±1 card
        short = short[:-1]
    ax.set_title(f"{m.label}\n" + (f"margin ±{shown} {short}".rstrip() if margin > 0
                                   else "no margin"), fontsize=9)
    ax.set_xlabel(f"variant − {cmp.names[0]} ({unit})", fontsize=8)
    ax.set_ylabel(f"variant (vs {cmp.names[0]})", fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", alpha=0.3)


def fig_differences(cmp: Any) -> Figure:
    """Each variant's paired difference from the baseline, one panel per verdict metric,
    every axis holding 0 and the ±margin band."""
    names = difference_metrics(cmp)
    # two panels to a row: the picture stays readable in a page's text column
    ncols = min(2, max(1, len(names)))
    rows = len(cmp.variants) - 1
    fig, axes = grid_figure(len(names), ncols, 3.6, 0.9 + 0.45 * rows, extra_h=1.3)
    for ax, name in zip(axes, names, strict=True):
        _panel(ax, cmp, name)
    base = cmp.names[0]
    fig.suptitle(f"Difference from {base}, paired on the same deals ({n_text(cmp)})\n"
                 + WHAT.format(base=base), fontsize=10)
    return fig


def caption(cmp: Any) -> str:
    """The HTML caption of the difference chart."""
    base = cmp.names[0]
    return (f"The main picture: each variant's difference from {base}, paired on the same "
            f"deals, with its 95% interval (the one the verdicts read); the line is 0 and "
            "the shaded band ±margin, the smallest difference that matters. A filled dot's "
            "interval excludes 0.")
