"""Marks that must read alike in every chart: the tournament's fair share is a line with
its label on it (no lone legend tick), and a sweep heatmap shows every cell at one
precision, chosen from the intervals."""

from __future__ import annotations

import re

import pytest

from unosim.studies.grids.charts import _heatmap, heatmap_decimals
from unosim.studies.grids.dimensions import Dim
from unosim.studies.grids.sweep import Point, SweepResult
from unosim.studies.lineups.charts import tournament_figure


def tournament(fairs: list[float]) -> dict:
    rows = [{"strategy": name, "rank": i + 1, "win_rate": w,
             "win_rate_ci95": [w - 0.012, w + 0.012], "fair_share": f}
            for i, (name, w, f) in enumerate(zip(["greedy", "hold_wilds", "random"],
                                                  [0.31, 0.27, 0.17], fairs, strict=True))]
    return {"results": rows, "players": 4, "variant": "official", "games": 12000,
            "seed": 7}


def test_one_fair_share_is_one_labelled_line_through_every_row():
    ax = tournament_figure(tournament([0.25, 0.25, 0.25])).axes[0]
    lines = [ln for ln in ax.lines if ln.get_gid() == "fair-share"]
    assert len(lines) == 1 and list(lines[0].get_xdata()) == [25.0, 25.0]
    lo, hi = ax.get_ylim()
    assert list(lines[0].get_ydata()) == [0, 1]  # axes coordinates: the full height
    labels = [t for t in ax.texts if t.get_gid() == "fair-share-label"]
    assert [t.get_text().strip() for t in labels] == ["fair share 25%"]
    x, y = labels[0].get_position()
    assert x == 25.0 and lo < y < hi  # on the line, inside the axes
    assert ax.get_legend() is None  # no lone tick in a legend box
    xlo, xhi = ax.get_xlim()
    assert xlo < 25.0 < xhi


def test_unequal_fair_shares_get_a_labelled_stroke_on_each_row():
    ax = tournament_figure(tournament([0.5, 0.25, 0.25])).axes[0]
    strokes = [ln for ln in ax.lines if ln.get_gid() == "fair-share"]
    assert sorted(ln.get_xdata()[0] for ln in strokes) == [25.0, 25.0, 50.0]
    labels = [t for t in ax.texts if t.get_gid() == "fair-share-label"]
    assert sorted(t.get_text().strip() for t in labels) == [
        "fair share 25%", "fair share 25%", "fair share 50%"]
    for ln in strokes:  # each label sits on its own stroke
        x, (y0, y1) = ln.get_xdata()[0], ln.get_ydata()
        assert any(t.get_position()[0] == x and y0 <= t.get_position()[1] <= y1
                   for t in labels)


def sweep(metric: str, cells: list[tuple[float, float]]) -> SweepResult:
    """A 2 x 2 sweep whose ``metric`` has these (mean, half-width) at its four points."""
    a, b = Dim("hand_size", (5, 7)), Dim("players", (2, 4))
    points = [Point({"hand_size": h, "players": p}) for h in a.values for p in b.values]
    stats = [{metric: {"n": 1000, "mean": m, "se": w / 1.96, "ci_low": m - w,
                       "ci_high": m + w}} for m, w in cells]
    return SweepResult([a, b], points, None, 7, 1000, stats)  # type: ignore[arg-type]


def cell_texts(fig) -> list[str]:
    return [t.get_text() for t in fig.axes[0].texts]


def test_a_heatmap_shows_every_cell_at_one_precision():
    """Half-widths 1.2 and 0.96 would read "40 ±1" beside "42.4 ±1.0" one cell at a
    time; the chart takes the narrowest interval's decimals for all."""
    fig = _heatmap(sweep("turns", [(40.04, 1.2), (42.43, 0.96), (44.5, 1.3), (47.0, 1.1)]),
                   "turns")
    texts = cell_texts(fig)
    assert sorted(texts) == sorted(["40.0\n±1.2", "42.4\n±1.0", "44.5\n±1.3", "47.0\n±1.1"])
    decimals = {len(part.split(".")[1]) for t in texts for part in re.findall(r"\d+\.\d+", t)}
    assert decimals == {1}


def test_a_rate_heatmap_keeps_one_precision_and_its_unit():
    """One narrow interval (±0.02 pp) sets two decimals for every cell."""
    fig = _heatmap(sweep("seat_win_0", [(0.5301, 0.0221), (0.27, 0.00019), (0.175, 0.017),
                                        (0.2, 0.02)]), "seat_win_0")
    texts = cell_texts(fig)
    assert sorted(texts) == sorted(["53.01%\n±2.21", "27.00%\n±0.02", "17.50%\n±1.70",
                                    "20.00%\n±2.00"])
    wide = _heatmap(sweep("seat_win_0", [(0.5301, 0.0221), (0.27, 0.019), (0.175, 0.017),
                                         (0.2, 0.02)]), "seat_win_0")
    assert sorted(cell_texts(wide)) == sorted(["53.0%\n±2.2", "27.0%\n±1.9", "17.5%\n±1.7",
                                               "20.0%\n±2.0"])


def test_refused_and_missing_points_say_so():
    r = sweep("turns", [(40.0, 1.0), (41.0, 1.0), (42.0, 1.0), (43.0, 1.0)])
    r.stats[1] = None
    r.stats[2] = {}
    texts = cell_texts(_heatmap(r, "turns"))
    assert sorted(texts) == sorted(["40\n±1", "n/a", "refused", "43\n±1"])


@pytest.mark.parametrize("halves,metric,dec", [([1.2, 0.96], "turns", 1),
                                               ([0.0, 3.0], "turns", 0),
                                               ([], "turns", 2),
                                               ([5.0], "seat_win_0", 1),
                                               ([0.04, 0.3], "seat_0_edge", 2)])
def test_the_precision_is_the_narrowest_intervals(halves, metric, dec):
    assert heatmap_decimals(halves, metric) == dec
