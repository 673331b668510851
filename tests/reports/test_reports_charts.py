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

from unosim.reports.charts import figures, save_figures, svg_text
from unosim.reports.compare import PALETTE
from unosim.reports.html import comparison_html, inline_svg

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


def test_the_round_charts_are_there(figs):
    assert set(figs) == {"seat_win_rates", "round_length", "winner_points", "cards_drawn"}


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


def test_files_are_written_png_and_svg(tmp_path, cmp):
    svgs = save_figures(figures(cmp), tmp_path)
    for name in svgs:
        png = (tmp_path / f"{name}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
        ET.fromstring((tmp_path / f"{name}.svg").read_text(encoding="utf-8"))
    assert not list(tmp_path.glob(".*tmp"))  # no temporary file left behind


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
