"""The chart of a replayed game: the cards in every hand after each decision."""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure

from unosim.reports.chart_kit import PALETTE, new_figure


def replay_figure(r: dict[str, Any]) -> Figure:
    """Cards in each hand after every decision of one replayed game."""
    fig, (ax,) = new_figure(8.0, 4.0)
    n = r["players"]
    steps = [0] + [s["step"] for s in r["steps"]]
    sizes = [[len(h) for h in r["deal"]["hands"]]]
    sizes += [s["hand_sizes"] for s in r["steps"][1:]]
    sizes.append([len(h) for h in r["final_hands"]])
    for p in range(n):
        ax.step(steps, [row[p] for row in sizes[: len(steps)]], where="post",
                color=PALETTE[p % len(PALETTE)], label=f"seat {p} {r['strategies'][p]}")
    ax.set_xlabel("decision")
    ax.set_ylabel("cards in hand")
    ax.set_title(f"Replay of game {r['game']} (seed {r['seed']})")
    ax.legend(loc="best", fontsize=8, frameon=False)
    return fig
