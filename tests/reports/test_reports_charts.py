"""Charts, their files and the HTML report, checked for content (axes, labels, one
series per variant, sample size and uncertainty shown), not only for existence."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from matplotlib.collections import Collection
from matplotlib.colors import to_hex
from matplotlib.lines import Line2D
from test_reports_stats import synthetic_comparison

from unosim.reports.chart_kit import PALETTE, save_figures, svg_text
from unosim.reports.html import inline_svg
from unosim.studies.compare.charts import figures
from unosim.studies.compare.pages import comparison_html

SVG_NS = "{http://www.w3.org/2000/svg}"
NAMES = ("official", "stacking", "seven-o")


@pytest.fixture(scope="module")
def cmp():
    return synthetic_comparison(shift=2.0, names=NAMES)


@pytest.fixture(scope="module")
def figs(cmp):
    return figures(cmp)


def colour_of(artist):
    """The colour an artist is drawn in (line, filled area, patch or error bars)."""
    if isinstance(artist, Line2D):  # a marker-only line (caps, dots) shows its markers
        c = artist.get_markeredgecolor() if artist.get_linestyle() == "None" else (
            artist.get_color())
    elif isinstance(artist, Collection):
        fc = artist.get_facecolor()
        c = fc[0] if len(fc) else artist.get_edgecolor()[0]
    else:
        c = artist.get_facecolor() if artist.get_fill() else artist.get_edgecolor()
    return to_hex(c, keep_alpha=False)


def _series_ids(ax, vi):
    """Artists of variant ``vi`` in ``ax`` (every one carries gid series-<vi>-<k>)."""
    arts = list(ax.lines) + list(ax.collections) + list(ax.patches)
    return [a for a in arts if (a.get_gid() or "").startswith(f"series-{vi}-")]


def test_the_round_charts_are_there_the_differences_first(figs):
    assert list(figs)[0] == "differences"  # the main chart: what compare --out writes first
    assert set(figs) == {"differences", "seat_win_rates", "round_length", "winner_points",
                         "cards_drawn"}


def test_every_axis_is_labelled_with_units_and_titled_with_n(figs):
    for name, fig in figs.items():
        sup = fig.get_suptitle()
        assert sup, name
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel(), name
            assert "(" in ax.get_ylabel(), (name, ax.get_ylabel())  # a unit: (%), (mean) ...
        text = sup + " ".join(ax.get_title() for ax in fig.axes)
        assert "n = 4,000 games per variant" in text, name
        assert re.search(r"95%", text), name  # the uncertainty shown is named


def test_one_series_per_variant_in_one_colour(figs):
    for name, fig in figs.items():
        if name == "differences":  # no baseline series: test_differences_* check it
            continue
        for ax in fig.axes:
            legend = ax.get_legend()
            assert legend is not None, name
            labels = [t.get_text() for t in legend.get_texts()]
            assert len(labels) == len(NAMES), (name, labels)
            for vi, variant in enumerate(NAMES):
                assert labels[vi].startswith(variant), (name, labels)
                arts = _series_ids(ax, vi)
                assert arts, (name, variant)
                colours = {colour_of(a) for a in arts}
                assert colours <= {PALETTE[vi].lower(), "#222222"}, (name, variant, colours)


def test_win_rate_chart_has_wilson_error_bars_per_seat(figs, cmp):
    ax = figs["seat_win_rates"].axes[0]
    assert ax.get_ylabel() == "rounds won (%)"
    # an errorbar container per variant, four seats each
    conts = [c for c in ax.containers if c.lines[0] is not None]
    assert len(conts) == len(NAMES)
    for vi, cont in enumerate(conts):
        y = cont.lines[0].get_ydata()
        assert len(y) == 4
        seg = cont.lines[2][0].get_segments()
        for s, (x_y0, x_y1) in enumerate(seg):
            st = cmp.stat(vi, f"seat_win_{s}")
            assert x_y0[1] == pytest.approx(100 * st["ci_low"])
            assert x_y1[1] == pytest.approx(100 * st["ci_high"])


def test_round_length_is_an_ecdf_per_variant_ending_at_100(figs):
    ax = figs["round_length"].axes[0]
    assert ax.get_xlabel() == "turns per round (turns)"
    lines = [ln for ln in ax.lines if (ln.get_gid() or "").startswith("series-")]
    assert len(lines) == len(NAMES)
    for ln in lines:
        y = ln.get_ydata()
        assert all(y[i] <= y[i + 1] for i in range(len(y) - 1))
        assert y[-1] == pytest.approx(100, abs=1.0)


def test_svg_is_text_with_titles_labels_and_series(figs):
    svg = svg_text(figs["round_length"])
    root = ET.fromstring(svg)
    texts = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG_NS}text"))
    assert "Round length" in texts
    assert "turns per round (turns)" in texts
    for variant in NAMES:
        assert variant in texts
    ids = [el.get("id") for el in root.iter() if (el.get("id") or "").startswith("series-")]
    assert {i.split("-")[1] for i in ids} == {"0", "1", "2"}
    assert len(ids) == len(set(ids))  # unique ids


@pytest.mark.slow
def test_files_are_written_png_and_svg(tmp_path, cmp):
    svgs = save_figures(figures(cmp), tmp_path)
    for name in svgs:
        png = (tmp_path / f"{name}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
        ET.fromstring((tmp_path / f"{name}.svg").read_text(encoding="utf-8"))
    assert not list(tmp_path.glob(".*tmp"))  # no temporary file left behind


@pytest.mark.slow
def test_html_report_is_self_contained_with_unique_ids(cmp):
    svgs = {name: svg_text(fig) for name, fig in figures(cmp).items()}
    page = comparison_html(cmp, svgs, "text report")
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") == len(svgs)
    assert "<script" not in page and "src=" not in page
    for line in cmp.verdicts():
        assert line.replace("'", "&#x27;") in page
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    for ref in re.findall(r"url\(#([^)]+)\)", page):
        assert ref in ids


def test_inline_svg_strips_prolog_and_prefixes_references():
    svg = ('<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n'
           '<svg><clipPath id="p1"/><g clip-path="url(#p1)"/><use xlink:href="#m2"/></svg>')
    out = inline_svg(svg, "a-")
    assert out.startswith("<svg")
    assert 'id="a-p1"' in out and "url(#a-p1)" in out and 'href="#a-m2"' in out


# ---------------------------------------------------------------- the main chart


def _diff_errorbars(ax):
    """(variant index, x of the dot, low, high, face colour) of each row of a panel."""
    out = []
    for cont in ax.containers:
        data, _, (bars, *_) = cont.lines
        vi = int(data.get_gid().split("-")[1])
        (x0, _), (x1, _) = bars.get_segments()[0]
        out.append((vi, data.get_xdata()[0], x0, x1, to_hex(data.get_markerfacecolor())))
    return out


@pytest.mark.parametrize("shift", [0.0, 2.0, 40.0])
def test_differences_axis_holds_zero_the_margin_and_the_paired_interval(shift):
    """Whatever the size of the difference, every panel's axis holds 0 and both edges
    of ±margin, and each bar is the paired interval the verdicts read."""
    from unosim.studies.compare.differences import difference_metrics, margin_of

    cmp = synthetic_comparison(shift=shift, names=NAMES)
    fig = figures(cmp)["differences"]
    names = difference_metrics(cmp)
    assert names == ["turns", "cards_drawn", "winner_points", "seat_win_0"]
    assert len(fig.axes) == len(names)
    for ax, name in zip(fig.axes, names, strict=True):
        m = cmp.metric(name)
        sc = 100.0 if m.rate else 1.0
        margin = margin_of(cmp, name) * sc
        assert margin > 0, name
        lo, hi = ax.get_xlim()
        assert lo < -margin and hi > margin, (name, lo, hi, margin)
        rows = _diff_errorbars(ax)
        assert [r[0] for r in rows] == [1, 2], name
        for vi, x, a, b, face in rows:
            d = cmp.diff(vi, name)
            assert x == pytest.approx(d["diff"] * sc)
            assert (a, b) == pytest.approx((d["ci_low"] * sc, d["ci_high"] * sc))
            assert lo < a and b < hi  # the whole interval is in view
            assert (face == PALETTE[vi].lower()) == d["detected"]  # filled: excludes 0
        zero = [ln for ln in ax.lines if (ln.get_gid() or "").startswith("zero-")]
        assert len(zero) == 1 and list(zero[0].get_xdata()) == [0, 0]
        band = [p for p in ax.patches if (p.get_gid() or "").startswith("margin-")]
        assert len(band) == 1
        x0 = band[0].get_x()  # axvspan draws a Rectangle across the axis
        assert (x0, x0 + band[0].get_width()) == pytest.approx((-margin, margin))
        assert ax.get_xlabel().startswith("variant − official (")


def test_differences_say_what_the_bars_are_and_where_they_came_from(tmp_path):
    cmp = synthetic_comparison(shift=2.0, names=NAMES)
    fig = figures(cmp)["differences"]
    sup = fig.get_suptitle()
    assert "Difference from official, paired on the same deals" in sup
    assert "n = 4,000 games per variant" in sup
    assert "paired 95% interval" in sup and "±margin" in sup
    # the saved file holds the same picture: its text is in the SVG
    svgs = save_figures({"differences": fig}, tmp_path)
    assert "paired 95% interval" in svgs["differences"]
    assert (tmp_path / "differences.png").exists()
    page = comparison_html(cmp, {"differences": svgs["differences"]}, "text")
    assert "The main picture: each variant&#x27;s difference from official" in page


def test_a_single_run_has_no_difference_chart():
    cmp = synthetic_comparison(shift=0.0, names=("official",))
    assert "differences" not in figures(cmp)


def test_the_panels_of_levels_hold_zero(figs):
    """A chart of each variant's own level in several panels never zooms one of them
    in on a small gap: every panel's value axis holds 0 (the game feel's panels are
    checked on an engine run in tests/runs/test_feel_totals.py)."""
    for ax in figs["cards_drawn"].axes:
        lo, hi = ax.get_ylim()
        assert lo <= 0 <= hi
