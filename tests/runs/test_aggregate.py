"""The compiled fold of per-game records equals a plain numpy fold, and merging
is the same as folding everything at once."""

from __future__ import annotations

import numpy as np
import pytest

from unosim.runs.aggregate import HIST_BINS, METRICS, Aggregate
from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy

CASES = [
    (["official"], [("players", 4)]),
    (["stacking"], [("players", 3)]),
    # elimination: places; seven_rounds: stages; a low cap: capped games
    ([], [("players", 5), ("elimination", True), ("turn_cap", 60)]),
    ([], [("players", 3), ("seven_rounds", True), ("turn_cap", 200)]),
    ([], [("players", 4), ("scoring", "losers_score"), ("downpour", True)]),
]


def numpy_fold(rec: np.ndarray, players: int) -> dict:
    """The totals written out one numpy call at a time (the obvious way)."""
    capped = rec[:, L.G_CAPPED] != 0
    won = ~capped
    out = {
        "games": len(rec),
        "capped": int(capped.sum()),
        "wins": np.bincount(rec[won, L.G_WINNER], minlength=L.MAX_PLAYERS),
        "seat_points": rec[:, L.G_POINTS : L.G_POINTS + L.MAX_PLAYERS].sum(0, dtype=np.int64),
        "stage_sums": rec[:, L.G_STAGES : L.G_STAGES + L.MAX_PLAYERS].sum(0, dtype=np.int64),
        "place_counts": np.zeros((L.MAX_PLAYERS, L.MAX_PLAYERS + 1), np.int64),
    }
    for seat in range(players):
        placed = rec[:, L.G_PLACES + seat]
        out["place_counts"][seat] = np.bincount(placed[placed > 0], minlength=L.MAX_PLAYERS + 1)
    for m, col in METRICS.items():
        v = (rec[won, col] if m == "winner_points" else rec[:, col]).astype(np.int64)
        out[m] = (len(v), int(v.sum()), int((v * v).sum()),
                  np.bincount(np.clip(v, 0, HIST_BINS - 1), minlength=HIST_BINS))
    return out


@pytest.mark.parametrize("variants,overrides", CASES)
def test_compiled_fold_equals_numpy(variants, overrides):
    rules = resolve(variants, overrides)
    players = rules["players"]
    rec = play_records(rules, [parse_strategy("random")] * players, seed=3, start=0, n=3000)
    agg = Aggregate(players=players)
    agg.add_records(rec)
    want = numpy_fold(rec, players)
    assert agg.games == want["games"]
    assert agg.capped == want["capped"]
    for name in ("wins", "seat_points", "stage_sums", "place_counts"):
        assert np.array_equal(getattr(agg, name), want[name]), name
    for m in METRICS:
        count, total, squares, hist = want[m]
        assert (agg.count[m], agg.sums[m], agg.sumsq[m]) == (count, total, squares), m
        assert np.array_equal(agg.hist[m], hist), m


def test_fold_covers_what_the_cases_are_for():
    """The cases above really hold capped games, places and stages."""
    elim = play_records(resolve([], CASES[2][1]), [parse_strategy("random")] * 5, 3, 0, 3000)
    assert (elim[:, L.G_CAPPED] != 0).any() and (elim[:, L.G_PLACES] > 0).any()
    rounds = play_records(resolve([], CASES[3][1]), [parse_strategy("random")] * 3, 3, 0, 3000)
    assert (rounds[:, L.G_STAGES] > 0).any()


def test_merge_equals_one_fold():
    rules = resolve(["jump-in"], [("players", 4)])
    rec = play_records(rules, [parse_strategy("random")] * 4, seed=5, start=0, n=2000)
    whole = Aggregate(players=4)
    whole.add_records(rec)
    a, b = Aggregate(players=4), Aggregate(players=4)
    a.add_records(rec[:700])
    b.add_records(rec[700:])
    assert a.merge(b).same_as(whole)
