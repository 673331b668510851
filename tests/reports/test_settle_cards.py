"""The chart on a settle card: the effect with its interval on an axis that holds 0
and both edges of ±margin, however far the effect lies, with a caption that says what
the dot, bar, line and band are."""

from __future__ import annotations

import pytest

from unosim.studies.settle.cards import card_figure, chart_caption, settle_html
from unosim.studies.settle.verdicts import Cell, Verdict, settle_summary


def verdict(cells: list[Cell], margin: float, verdict: str = "TRUE", study: str = "compare",
            about: str = "turns per round, stacking vs official, 4 players, random in every "
                         "seat", unit: str = "turns", scale: float = 1.0) -> Verdict:
    return Verdict("x", "Stacking makes rounds longer", "src", study, "turns",
                   "turns per round", unit, scale, "higher", margin, verdict, cells, 1, 1000,
                   3, "95% over 3 looks (O'Brien-Fleming: z = 4.33, 2.96, 1.97)",
                   "unosim settle x --seed 1", about)


@pytest.mark.parametrize("low,high", [(28.0, 32.0), (-32.0, -28.0), (0.2, 0.4),
                                      (-0.5, 3.0)])
def test_the_axis_holds_zero_the_margin_and_the_interval(low, high):
    v = verdict([Cell("", (low + high) / 2, low, high, 1000, 1, "TRUE")], margin=1.0)
    ax = card_figure(v).axes[0]
    lo, hi = ax.get_xlim()
    assert lo < min(0.0, -1.0, low) and hi > max(0.0, 1.0, high), (lo, hi)
    zero = [ln for ln in ax.lines if (ln.get_gid() or "").startswith("zero-")]
    assert len(zero) == 1 and list(zero[0].get_xdata()) == [0, 0]
    band = [p for p in ax.patches if (p.get_gid() or "").startswith("margin-")]
    assert len(band) == 1
    x0 = band[0].get_x()
    assert (x0, x0 + band[0].get_width()) == pytest.approx((-1.0, 1.0))
    bar = [ln for ln in ax.lines if ln.get_linewidth() == 4]
    assert len(bar) == 1 and list(bar[0].get_xdata()) == [low, high]


def test_places_share_one_axis_that_holds_zero():
    """A claim at several player counts: one axis for all of them, holding 0 and every
    interval (rates in percentage points)."""
    cells = [Cell("3 players", 0.02, 0.015, 0.025, 1000, 1, "TRUE"),
             Cell("5 players", -0.001, -0.004, 0.002, 1000, 1, "NO REAL DIFFERENCE")]
    v = verdict(cells, margin=0.005, verdict="DEPENDS", unit="pp", scale=100.0)
    ax = card_figure(v).axes[0]
    lo, hi = ax.get_xlim()
    assert lo < -0.5 and hi > 2.5
    rows = dict(zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels()),
                    strict=True))
    assert rows == {1: "3 players", 0: "5 players"}  # the first place on top


def test_the_caption_says_what_the_bar_is():
    v = verdict([Cell("", 3.0, 2.5, 3.6, 1000, 1, "TRUE")], margin=1.0)
    cap = chart_caption(v)
    assert cap == ("dot: the effect, stacking − official, paired on the same deals (filled: "
                   "the interval excludes 0) · bar: its interval, 95% over 3 looks · line: 0 · "
                   "shaded: ±margin, too small to matter")
    shown = [t.get_text() for t in card_figure(v).texts if t.get_gid() == "caption"]
    assert [" ".join(s.split("\n")) for s in shown] == [cap]  # on two lines, all of it
    stated = verdict([Cell("", 0.03, 0.02, 0.04, 1000, 1, "TRUE")], margin=0.0,
                     about="seat 0 win rate, official, against the fair share, 4 players, "
                           "random in every seat")
    assert chart_caption(stated) == ("dot: the effect, the figure − the fair share (filled: the "
                                     "interval excludes 0) · bar: its interval, 95% over 3 "
                                     "looks · line: 0")


def test_the_page_inlines_the_card_with_its_caption():
    v = verdict([Cell("", 3.0, 2.5, 3.6, 1000, 1, "TRUE")], margin=1.0)
    page = settle_html([v], settle_summary([v], 1, False, 0.0, "paired intervals"))
    assert "data:image/png;base64," in page
    assert "bar: its interval, 95% over 3 looks" in page


@pytest.mark.parametrize("low,high,filled", [(2.5, 3.6, True), (-3.6, -2.5, True),
                                             (-0.5, 3.0, False), (0.0, 3.0, False)])
def test_a_filled_dot_means_the_interval_excludes_zero(low, high, filled):
    """As on the compare chart of differences (filled: the interval excludes 0), whatever
    the verdict: a dot is filled with its colour, or hollow (white) when 0 is inside."""
    from matplotlib.colors import to_hex

    from unosim.studies.compare.differences import WHAT

    v = verdict([Cell("", (low + high) / 2, low, high, 1000, 1, "TRUE")], margin=1.0)
    ax = card_figure(v).axes[0]
    dots = [ln for ln in ax.lines if (ln.get_gid() or "").startswith("dot-")]
    assert len(dots) == 1 and dots[0].get_marker() == "o"
    edge = to_hex(dots[0].get_markeredgecolor())
    face = to_hex(dots[0].get_markerfacecolor())
    assert edge != "#ffffff"
    assert face == (edge if filled else "#ffffff")
    assert "filled: the interval excludes 0" in chart_caption(v)
    assert "filled: the interval excludes 0" in WHAT
