"""MixBot2 as published (chausner/UnoAI), written on the Python API: the example
strategies/examples/mixbot2.py.

Without its bluff it is ``card-counter`` move for move; with it (the default) it plays
legal games and plays Wild Draw Fours while holding the colour to follow, at the rate
measured below.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.plugins import load_plugins, plugin
from unosim.strategies.registry import parse_strategy

MIXBOT2 = Path(__file__).resolve().parents[2] / "strategies" / "examples" / "mixbot2.py"


def _records(names, variants=(), players=2, games=200, seed=5):
    rules = resolve(list(variants), [("players", players)])
    return play_records(rules, [parse_strategy(n) for n in names], seed, 0, games)


def test_without_its_bluff_it_is_the_card_counter_move_for_move():
    """``bluffs=0`` plays the very games ``card-counter`` plays in its seat (the same
    moves and the same random draws), heads-up under the official rules and at 4
    players under UnoAI's, where a Wild Draw Four is free to play for both; with the
    bluff, the official games differ (a bluff changes about 7 games in 100)."""
    load_plugins([f"{MIXBOT2}:MixBot2"])
    for variants, players in (((), 2), (("unoai",), 4)):
        field = ["random"] * (players - 1)
        py = _records(["MixBot2:bluffs=0", *field], variants, players)
        nb = _records(["card-counter", *field], variants, players)
        assert np.array_equal(py, nb), variants
    bluffing = _records(["MixBot2", "random"])
    assert not np.array_equal(bluffing, _records(["card-counter", "random"]))


def test_it_plays_legal_games_and_bluffs_wild_draw_fours():
    """500 heads-up games against ``card-counter``, official rules: every game ends with
    a winner (an illegal move would stop the run), and of its Wild Draw Fours a share
    in 0.06..0.26 is played while it holds the colour to follow. The share is 14.9%
    (1,603 of 10,764 in 20,000 games, seed 11); here some 270 plays, standard error 2.2
    points, so the bounds lie 4 and 5 standard errors away. With ``bluffs=0`` it never
    bluffs (none of its Wild Draw Fours in the same games)."""
    spec = importlib.util.spec_from_file_location("mixbot2_under_test", MIXBOT2)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    seen: list[bool] = []

    class Recording(module.MixBot2):
        def choose(self, view):
            move = super().choose(view)
            if move.startswith("wild4"):
                seen.append(self.colours[module.COLOURS.index(view.colour)] > 0)
            return move

    plugin(Recording, name="mixbot2_recording")
    rec = _records(["mixbot2_recording", "card-counter"], games=500, seed=11)
    assert rec[:, L.G_CAPPED].sum() == 0
    assert set(rec[:, L.G_WINNER].tolist()) <= {0, 1}
    share = sum(seen) / len(seen)
    assert len(seen) > 150, len(seen)
    assert 0.06 < share < 0.26, (share, len(seen))
    seen.clear()
    _records(["mixbot2_recording:bluffs=0", "card-counter"], games=500, seed=11)
    assert len(seen) > 150 and not any(seen)
