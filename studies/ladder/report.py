"""The ladder's report: the fitted ratings ranked, with their 95% intervals, the games
behind each, the text table, the JSON, the tidy frame, the chart and the files of
``--out`` (ladder.json, ladder.csv, ladder.png, ladder.svg and ladder.html)."""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from unosim import provenance
from unosim.reports.render import render_json
from unosim.reports.report_base import SummaryReport, tidy_row
from unosim.studies.ladder import fit as F

if TYPE_CHECKING:
    from matplotlib.figure import Figure

ANCHOR = "random"


def anchor_of(labels: list[str], field: str | None) -> int | None:
    """The entrant held at 0: the field, else ``random``, else none (mean 0)."""
    if field is not None:
        return len(labels) - 1
    return labels.index(ANCHOR) if ANCHOR in labels else None


def _elo(x: float) -> float:
    return F.ELO * x


def summarize(r: Any) -> dict[str, Any]:
    """The JSON-able summary of a ladder (``--format json``)."""
    k = len(r.labels)
    anchor = anchor_of(r.labels, r.field)
    wins = r.wins.sum(0)  # [lineup, entrant]
    rounds = r.rounds.sum(0)
    model = F.fit(r.seats, wins, rounds, anchor)
    reps = F.bootstrap(r.seats, r.wins, r.rounds, anchor, r.seed)
    ci = F.intervals(model.theta, reps)
    played = (r.seats > 0).astype(np.int64)  # [lineup, entrant]
    games = played.sum(0) * r.deals  # r.deals: the deals each lineup played
    won = wins.sum(0)
    rows = []
    for j in range(k):
        lo, hi = ci[j]
        rows.append({
            "strategy": r.labels[j],
            "role": "field" if r.field is not None and j == k - 1 else "strategy",
            "rating": _elo(model.theta[j]),
            "rating_ci95": [_elo(lo), _elo(hi)],
            "strength": float(model.theta[j]),
            "strength_ci95": [float(lo), float(hi)],
            "strength_se_model": float(model.se_model[j]),
            "games": int(games[j]),
            "wins": int(won[j]),
            "win_rate": float(won[j] / games[j]) if games[j] else math.nan,
        })
    order = sorted(range(k), key=lambda j: (-rows[j]["rating"], rows[j]["strategy"]))
    for rank, j in enumerate(order, 1):
        rows[j]["rank"] = rank
    pairs = []
    if r.field is None and r.players == 2:
        for a in range(k):
            for b in range(a + 1, k):
                both = (r.seats[:, a] > 0) & (r.seats[:, b] > 0)
                n = int(rounds[both].sum())
                if n == 0:
                    continue
                share = float(wins[both, a].sum() / n)
                pred = 1 / (1 + math.exp(model.theta[b] - model.theta[a]))
                pairs.append({"a": r.labels[a], "b": r.labels[b], "games": n,
                              "a_wins": share, "predicted": pred})
    design = ("round robin: every pair in both seat orders" if r.field is None
              else f"each strategy in one seat against {r.players - 1} x {r.field}, its "
                   "seat rotated")
    return {
        "provenance": provenance(),
        "variant": r.variant,
        "rules_changed": r.rules.changed(),
        "players": r.players,
        "seed": r.seed,
        "design": design,
        "field": r.field,
        "anchor": r.labels[anchor] if anchor is not None else None,
        "model": "Bradley-Terry" if r.players == 2 else "Luce's choice rule on the winner",
        "lineups": len(r.lineups),
        "deals_per_lineup": r.deals,
        "deals_requested": r.per,
        "games": r.deals * len(r.lineups),
        "games_requested": r.games,
        "blocks": int(r.wins.shape[0]),
        "bootstrap_replicates": int(reps.shape[0]),
        "partial": r.partial,
        "workers": r.workers,
        "elapsed_s": r.elapsed_s,
        "ladder": [rows[j] for j in order],
        "pairs": pairs,
    }


def _signed(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:+.0f}"


def render(s: dict[str, Any]) -> str:
    """The human report of ``unosim ladder``."""
    per = s["deals_per_lineup"] * s["players"]
    what = ("games a pair" if s["field"] is None else "games a strategy")
    lines = [
        f"unosim ladder · {s['variant']} · {s['players']} players · {s['design']} · "
        f"{s['games']:,} games ({per:,} {what}) · seed {s['seed']}",
        "",
    ]
    anchor = f"{s['anchor']} = 0" if s["anchor"] else "mean 0"
    lines.append(f"Ratings ({s['model']}, Elo scale: 400 x log10 odds; {anchor}; 95% "
                 f"intervals by bootstrap over {s['blocks']} blocks of deals)")
    w = max(len(r["strategy"]) for r in s["ladder"]) + 2
    lines.append(f"  {'rank':<5} {'strategy':<{w}} {'rating':>7}  {'95% interval':<14} "
                 f"{'games':>8}  {'win rate':>8}")
    for r in s["ladder"]:
        lo, hi = r["rating_ci95"]
        span = f"[{_signed(lo)}, {_signed(hi)}]" if math.isfinite(lo) else "-"
        if r["strategy"] == s["anchor"]:
            span = "(anchor)"
        lines.append(f"  {r['rank']:<5} {r['strategy']:<{w}} {_signed(r['rating']):>7}  "
                     f"{span:<14} {r['games']:>8,}  {100 * r['win_rate']:>7.1f}%")
    lines.append("")
    if s["players"] == 2:
        lines.append("Heads-up, a gap of 100 rating points is 64% to 36%; 191 is 75% to 25%.")
    else:
        p = s["players"]
        lines.append(f"A strategy level with the field wins {100 / p:.0f}%; one rated +191 "
                     f"(3 to 1 against each field seat) wins {300 / (p + 2):.0f}%.")
    lines.append("method: every lineup plays the same deals (duplicate format), every seat "
                 "in turn; ratings fitted by maximum likelihood from the wins of every "
                 "lineup")
    if s["partial"]:
        lines.append(f"PARTIAL: stopped after {s['deals_per_lineup']:,} of "
                     f"{s['deals_requested']:,} deals per lineup")
    return "\n".join(lines)


def ladder_figure(s: dict[str, Any]) -> Figure:
    """Each entrant's rating with its 95% interval, the best on top; the anchor's line
    at 0."""
    from unosim.reports.chart_kit import PALETTE, new_figure

    rows = s["ladder"]
    fig, (ax,) = new_figure(7.0, 1.6 + 0.4 * len(rows))
    ys = list(range(len(rows)))[::-1]
    for i, (y, r) in enumerate(zip(ys, rows, strict=True)):
        v = r["rating"]
        lo, hi = r["rating_ci95"]
        err = ([[v - lo], [hi - v]] if math.isfinite(lo) and math.isfinite(hi) else None)
        ax.errorbar([v], [y], xerr=err, fmt="o", color=PALETTE[i % len(PALETTE)], capsize=4)
    ax.set_yticks(ys, [r["strategy"] for r in rows])
    ax.axvline(0, color="#555555", linewidth=0.8, linestyle="--")
    anchor = f"{s['anchor']} = 0" if s["anchor"] else "mean 0"
    ax.set_xlabel(f"rating (Elo scale, {anchor}), 95% interval\n"
                  f"n = {s['games']:,} games ({s['deals_per_lineup']:,} deals per lineup), "
                  f"seed {s['seed']}")
    ax.set_title(f"Ladder: {s['players']} players, variant {s['variant']}")
    return fig


class LadderReport(SummaryReport):
    """``unosim ladder``: every entrant's rating (Elo scale) with its 95% interval,
    ranked. ``result`` is the :class:`~unosim.studies.ladder.play.LadderResult`."""

    command = "ladder"
    render = staticmethod(render)

    def __init__(self, result: Any) -> None:
        self.result = result
        self._summary = summarize(result)

    def rows(self) -> list[dict[str, Any]]:
        s = self._summary
        out = []
        for r in s["ladder"]:
            lo, hi = r["rating_ci95"]
            out.append(tidy_row(variant=s["variant"], players=s["players"],
                                strategy=r["strategy"], metric="rating", statistic="value",
                                estimate=r["rating"], ci_low=lo, ci_high=hi,
                                games=r["games"], rank=r["rank"], role=r["role"],
                                anchor=s["anchor"]))
        return out

    def figures(self) -> dict[str, Any]:
        return {"ladder": ladder_figure(self._summary)}

    @property
    def partial(self) -> bool:
        return self.result.partial


def ladder_html(s: dict[str, Any], svgs: dict[str, str], text: str) -> str:
    """The self-contained page of a ladder: the table, the chart and the text report."""
    from unosim.reports.html import figure_blocks, page, table_block

    e = html.escape
    body = [f"<h1>unosim ladder: {e(s['variant'])}, {s['players']} players</h1>",
            f"<p>{e(s['design'])} · {s['games']:,} games · seed {s['seed']}"
            f"{' · <b>PARTIAL RESULT</b>' if s['partial'] else ''}</p>"]
    rows = []
    for r in s["ladder"]:
        lo, hi = r["rating_ci95"]
        rows.append([str(r["rank"]), r["strategy"], _signed(r["rating"]),
                     f"[{_signed(lo)}, {_signed(hi)}]", f"{r['games']:,}",
                     f"{100 * r['win_rate']:.1f}%"])
    body.append(table_block(["rank", "strategy", "rating", "95% interval", "games",
                             "win rate"], rows))
    body += figure_blocks(svgs, {"ladder": "ratings with 95% intervals"})
    body.append(f"<h2>Text report</h2><pre>{e(text)}</pre>")
    return page(f"unosim ladder: {s['variant']}", body)


def write_ladder_files(report: LadderReport, out_dir: Path, text: str) -> list[str]:
    """ladder.json, ladder.csv, the chart as PNG and SVG and ladder.html."""
    from unosim.common import write_text_atomic
    from unosim.reports.chart_kit import save_figures
    from unosim.reports.export import csv_rows

    s = report.to_dict()
    write_text_atomic(out_dir / "ladder.json", render_json(s) + "\n")
    write_text_atomic(out_dir / "ladder.csv", csv_rows(report.rows()))
    svgs = save_figures(report.figures(), out_dir)
    write_text_atomic(out_dir / "ladder.html", ladder_html(s, svgs, text))
    return ["ladder.json", "ladder.csv", *(f"{n}.png" for n in svgs),
            *(f"{n}.svg" for n in svgs), "ladder.html"]
