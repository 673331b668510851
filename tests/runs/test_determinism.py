"""The same seed gives the same numbers, whatever the threads, batches or driver."""

from __future__ import annotations

import numpy as np

from unosim.runs.game import Game
from unosim.runs.runner import play_records
from unosim.simulate.layout import GAME_FIELDS
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy
from unosim.studies.run.play import run

RANDOM4 = [parse_strategy("random")] * 4


def test_same_totals_for_any_workers_and_batch_size():
    rules = resolve(["stacking"])
    a = run(rules, RANDOM4, 30_000, seed=42, workers=1, batch=30_000)
    b = run(rules, RANDOM4, 30_000, seed=42, workers=2, batch=7_001)
    assert a.agg.games == b.agg.games == 30_000
    assert a.agg.same_as(b.agg)


def test_different_seeds_differ():
    rules = resolve()
    a = run(rules, RANDOM4, 5_000, seed=1, workers=1)
    b = run(rules, RANDOM4, 5_000, seed=2, workers=1)
    assert not a.agg.same_as(b.agg)


def test_records_do_not_depend_on_chunking_or_offset():
    rules = resolve()
    whole = play_records(rules, RANDOM4, seed=9, start=0, n=2_000, chunks=1)
    split = play_records(rules, RANDOM4, seed=9, start=0, n=2_000, chunks=13)
    tail = play_records(rules, RANDOM4, seed=9, start=1_500, n=500, chunks=3)
    assert np.array_equal(whole, split)
    assert np.array_equal(whole[1_500:], tail)


def test_python_driven_game_equals_compiled_loop():
    """Game (legal moves + apply from Python) plays exactly the batch's games."""
    seats = [parse_strategy(s) for s in ("random", "defensive", "offensive", "first")]
    for variant in ([], ["stacking"]):
        rules = resolve(variant)
        rec = play_records(rules, seats, seed=3, start=0, n=40)
        col = {name: i for i, name in enumerate(GAME_FIELDS)}
        for k in range(40):
            g = Game(rules, seats, seed=3, game_index=k).play_out()
            c = g.counters()
            assert rec[k, col["turns"]] == c["turns"]
            assert rec[k, col["cards_played"]] == c["cards_played"]
            assert rec[k, col["penalty_drawn"]] == c["penalty_drawn"]
            assert rec[k, col["winner"]] == g.winner
            assert rec[k, col["winner_points"]] == g.winner_points()
