"""The shareable side of ``unosim settle``: one PNG card per claim (the sentence, the
verdict large, the effect with its interval drawn against 0 and the margin band on an
axis that holds both, a caption that says what the dot, bar and band are, the
reproducing command in small print) and ``settle.html``, every verdict with its card
inlined, self-contained."""

from __future__ import annotations

import base64
import html
import io
import math
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from unosim.common import make_folder, write_bytes_atomic, write_text_atomic
from unosim.reports.chart_kit import MARGIN_COLOUR, ZERO_COLOUR, mark_id
from unosim.reports.html import page
from unosim.studies.settle.verdicts import (
    Verdict,
    cell_text,
    margin_text,
    needed_text,
    verdict_line,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: verdict -> colour (Okabe-Ito: colour-blind safe)
COLOURS = {"TRUE": "#009E73", "FALSE": "#D55E00", "NO REAL DIFFERENCE": "#0072B2",
           "NOT SHOWN": "#666666", "DEPENDS": "#E69F00"}
#: the studies whose effect is a paired difference on the same deals
PAIRED_STUDIES = ("compare", "tournament", "skill")
#: a card's size in inches at DPI: 1200 x 675 pixels
CARD_IN = (8.0, 4.5)
#: what a filled dot means, as on the compare chart of differences
FILLED = "filled: the interval excludes 0"
DPI = 150


def card_figure(v: Verdict) -> Figure:
    """The card of one verdict."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=CARD_IN, dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    colour = COLOURS.get(v.verdict, "#333333")
    fig.text(0.04, 0.93, "\n".join(textwrap.wrap(f"“{v.sentence}”", 62)[:2]),
             fontsize=15, fontweight="bold", va="top", color="#222222")
    head = v.verdict + (" (partial)" if v.partial else "")
    fig.text(0.04, 0.765, head, fontsize=34 if len(head) <= 10 else 22,
             fontweight="bold", va="top", color=colour)
    fig.text(0.96, 0.75, "\n".join(textwrap.wrap(v.about, 48)[:3]), fontsize=8,
             ha="right", va="top", color="#444444")
    ax = fig.add_axes((0.22, 0.30, 0.72, 0.25))
    _draw_effects(ax, v, colour)
    # two lines: what the dot and its fill are, then the bar, line and band
    caption = textwrap.wrap(textwrap.shorten(chart_caption(v), 230), 118)
    fig.text(0.04, 0.565, "\n".join(caption), fontsize=7.5, va="bottom", color="#333333",
             gid="caption", linespacing=1.3)
    detail = "; ".join(cell_text(v, c) for c in v.cells) if len(v.cells) == 1 else (
        f"{len(v.cells)} places")
    fig.text(0.04, 0.16, textwrap.shorten(
        f"{detail} · {margin_text(v)} · {v.games_played:,} {v.played} · seed {v.seed}",
        130), fontsize=7.5, color="#333333")
    fig.text(0.04, 0.12, textwrap.shorten(f"intervals {v.confidence}", 135), fontsize=7,
             color="#333333")
    if needed_text(v):
        fig.text(0.04, 0.08, textwrap.shorten(needed_text(v)[2:], 135), fontsize=7,
                 color="#333333")
    fig.text(0.04, 0.03, textwrap.shorten(v.command, 120), fontsize=7, family="monospace",
             color="#555555")
    return fig


def effect_words(v: Verdict) -> str:
    """What the effect is a difference of: ``stacking − official, paired on the same
    deals``, ``the figure − 0.25``."""
    parts = v.about.split(", ")
    for part in parts[1:]:
        if " vs " in part:
            a, b = part.split(" vs ", 1)
            paired = ", paired on the same deals" if v.study in PAIRED_STUDIES else ""
            return f"{a} − {b}{paired}"
        if part.startswith("against "):
            return f"the figure − {part[len('against '):]}"
    return "the claim's subject − its reference"


def chart_caption(v: Verdict) -> str:
    """The words above the card's chart: what the dot, bar, line and band are."""
    level = v.confidence.split(" (")[0]
    band = " · shaded: ±margin, too small to matter" if v.margin > 0 else ""
    return (f"dot: the effect, {effect_words(v)} ({FILLED}) · bar: its interval, {level} · "
            f"line: 0{band}")


def _draw_effects(ax: Any, v: Verdict, colour: str) -> None:
    """Each place's effect with its interval, against 0 and the margin band (the
    differences too small to matter), on an axis that holds 0 and the band."""
    cells = v.cells
    ys = list(range(len(cells)))[::-1]
    for y, c in zip(ys, cells, strict=True):
        col = COLOURS.get(c.verdict, colour)
        x, lo, hi = c.effect * v.scale, c.low * v.scale, c.high * v.scale
        if all(math.isfinite(t) for t in (x, lo, hi)):
            ax.plot([lo, hi], [y, y], color=col, linewidth=4, solid_capstyle="butt")
            # filled when the interval excludes 0, hollow when it holds 0 (FILLED)
            face = col if lo > 0 or hi < 0 else "white"
            ax.plot([x], [y], "o", color=col, markerfacecolor=face, markeredgecolor=col,
                    markersize=8, markeredgewidth=2, gid=mark_id("dot"))
    ax.axvline(0, color=ZERO_COLOUR, linewidth=1, gid=mark_id("zero"))
    if v.margin > 0:
        m = v.margin * v.scale
        ax.axvspan(-m, m, color=MARGIN_COLOUR, alpha=0.25, linewidth=0, gid=mark_id("margin"))
    ax.set_yticks(ys)
    ax.set_yticklabels([c.where or v.label[:28] for c in cells], fontsize=8)
    ax.set_ylim(-0.7, len(cells) - 0.3)
    unit = {"pp": "percentage points"}.get(v.unit, v.unit)
    shade = f"; shaded: {margin_text(v)}, too small to matter" if v.margin > 0 else ""
    ax.set_xlabel((f"effect ({unit})" if unit else "effect") + shade, fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    lows = [c.low * v.scale for c in cells if math.isfinite(c.low)]
    highs = [c.high * v.scale for c in cells if math.isfinite(c.high)]
    if lows and highs:
        lo, hi = min(0.0, *lows), max(0.0, *highs)
        lo, hi = min(lo, -v.margin * v.scale), max(hi, v.margin * v.scale)
        pad = (hi - lo) * 0.08 or 1.0
        ax.set_xlim(lo - pad, hi + pad)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def card_png(v: Verdict) -> bytes:
    buf = io.BytesIO()
    card_figure(v).savefig(buf, format="png", dpi=DPI, facecolor="white")
    return buf.getvalue()


def write_cards(verdicts: list[Verdict], folder: Path) -> list[Path]:
    """``folder/NAME.png`` for every verdict."""
    make_folder(folder)
    out = []
    for v in verdicts:
        path = folder / f"{v.name}.png"
        write_bytes_atomic(path, card_png(v))
        out.append(path)
    return out


def settle_html(verdicts: list[Verdict], summary: dict[str, Any]) -> str:
    """The page: counts, then every verdict with its card, source and command."""
    e = html.escape
    counts = ", ".join(f"{n} {k}" for k, n in summary["counts"].items() if n)
    body = ["<h1>unosim settle</h1>",
            f"<p>{len(verdicts)} claims · seed {summary['seed']} · {e(counts)}"
            f"{' · <b>PARTIAL</b>' if summary['partial'] else ''}</p>",
            f"<p class=\"note\">{e(summary.get('error', ''))}; {e(summary['method'])}</p>"]
    for v in verdicts:
        whose = "the claim's own" if v.own_margin else "the metric's default"
        img = base64.b64encode(card_png(v)).decode("ascii")
        body += [f"<h2 id=\"{e(v.name)}\">{e(v.verdict)}: {e(v.sentence)}</h2>",
                 f"<figure><img src=\"data:image/png;base64,{img}\" width=\"800\" "
                 f"alt=\"{e(v.verdict)}: {e(v.sentence)}\"><figcaption class=\"note\">"
                 f"{e(chart_caption(v))}</figcaption></figure>",
                 f"<p>{e(verdict_line(v))}</p>",
                 f"<p class=\"note\">Source: {e(v.source)}. Margin: "
                 f"{e(margin_text(v)[len('margin '):])} ({e(whose)}). Intervals: "
                 f"{e(v.confidence)}.</p>"]
    return page("unosim settle", body)


def write_page(verdicts: list[Verdict], summary: dict[str, Any], path: Path) -> None:
    write_text_atomic(path, settle_html(verdicts, summary))
