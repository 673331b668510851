"""The charts of the lineups: a tournament's win rates against the fair share, and the
skill edge under each variant. Each states its sample and draws its 95% intervals."""

from __future__ import annotations

import math
from typing import Any

from matplotlib.figure import Figure

from unosim.reports.chart_kit import PALETTE, new_figure

GREY = "#555555"


def _interval_bars(ax: Any, labels: list[str], values: list[float],
                   intervals: list[list[float]], scale: float) -> None:
    """Horizontal dots with 95% error bars, the first label on top."""
    ys = list(range(len(labels)))[::-1]
    for y, v, (lo, hi), colour in zip(ys, values, intervals,
                                      [PALETTE[i % len(PALETTE)] for i in range(len(labels))],
                                      strict=True):
        if v is None or not math.isfinite(v):
            continue
        err = ([[scale * (v - lo)], [scale * (hi - v)]] if lo is not None and math.isfinite(lo)
               else None)
        ax.errorbar([scale * v], [y], xerr=err, fmt="o", color=colour, capsize=4)
    ax.set_yticks(ys, labels)


def tournament_figure(s: dict[str, Any]) -> Figure:
    """Each entrant's win rate with its 95% interval against its fair share (from the
    tournament's JSON summary), in rank order. The fair share is a reference line with
    its label on it: one line through every row when the entrants share one fair share,
    else a labelled stroke through each row."""
    rows = sorted(s["results"], key=lambda r: r["rank"])
    fig, (ax,) = new_figure(7.0, 1.6 + 0.45 * len(rows))
    _interval_bars(ax, [r["strategy"] for r in rows], [r["win_rate"] for r in rows],
                   [r["win_rate_ci95"] for r in rows], 100)
    ys = list(range(len(rows)))[::-1]
    fairs = [100 * r["fair_share"] for r in rows]
    if len(set(fairs)) == 1:
        ax.axvline(fairs[0], color=GREY, linestyle="--", linewidth=1, zorder=1,
                   gid="fair-share")
        ax.set_ylim(-0.6, len(rows) - 0.1)  # room above the top row for the label
        ax.text(fairs[0], len(rows) - 0.45, f" fair share {fairs[0]:.3g}%", color=GREY,
                fontsize=8, ha="left", va="center", gid="fair-share-label")
    else:
        for y, f in zip(ys, fairs, strict=True):
            ax.plot([f, f], [y - 0.35, y + 0.35], color=GREY, linestyle="--", linewidth=1,
                    zorder=1, gid="fair-share")
            ax.text(f, y + 0.3, f" fair share {f:.3g}%", color=GREY, fontsize=7,
                    ha="left", va="center", gid="fair-share-label")
    ax.set_xlabel("win rate (%), 95% interval; dashed: fair share")
    ax.set_title(f"Tournament: {s['players']} players, variant {s['variant']}")
    fig.text(0.01, 0.01, f"n = {s['games']:,} games, seed {s['seed']}", fontsize=8,
             color=GREY)
    return fig


def skill_figure(s: dict[str, Any]) -> Figure:
    """The skill edge under each variant with its 95% interval (0: chance), from the
    skill study's JSON summary."""
    rows = s["variants"]
    fig, (ax,) = new_figure(7.0, 1.6 + 0.45 * len(rows))
    _interval_bars(ax, [r["variant"] for r in rows], [r["skill_edge"] for r in rows],
                   [r["skill_edge_ci95"] for r in rows], 1)
    ax.axvline(0, color=GREY, linewidth=0.8)
    ax.set_xlabel("skill edge (0 = chance, 1 = always wins), 95% interval")
    ax.set_title(f"Skill edge of {s['strategy']} against {s['against']}, "
                 f"{s['players']} players")
    fig.text(0.01, 0.01, f"n = {s['deals']:,} deals x {s['players']} seats per variant, "
             f"seed {s['seed']}", fontsize=8, color=GREY)
    return fig
