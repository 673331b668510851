"""Self-checks of the plain-Python reference engine (tests/reference_engine.py)."""

from __future__ import annotations

import importlib
import os
import sys
from collections import Counter

import pytest

# the reference engine lives next to this file; import it whether or not tests/
# is a package
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ref = importlib.import_module("reference_engine")

CONFIGS = [
    {"players": 2},
    {"players": 4},
    {"players": 10},
    {"players": 4, "stacking": "progressive"},
    {"players": 2, "stacking": "progressive"},
    {"players": 4, "first_card": "number_only"},
    {"players": 4, "draw_rule": "draw_until_playable"},
    {"players": 4, "draw_rule": "draw_one_pass"},
    {"players": 6, "draw_rule": "draw_one_pass", "stacking": "progressive"},
    {"players": 4, "scoring": "losers_score"},
]


def _played(seed: int, **kw) -> ref.Round:
    return ref.Round(seed=seed, **kw).play()


def _setup(players: int = 4, **kw) -> ref.Round:
    """A round with an empty table, ready for hand-crafted positions."""
    game = ref.Round(players=players, **kw)
    game.hands = [[] for _ in range(players)]
    game.draw_pile = []
    game.discard = []
    return game


def test_deck_composition():
    deck = ref.classic_deck()
    assert len(deck) == 108
    counts = Counter(deck)
    assert counts[("red", "0")] == 1
    assert counts[("blue", "7")] == 2
    assert counts[("green", "draw2")] == 2
    assert counts[(None, "wild")] == 4
    assert counts[(None, "wild4")] == 4
    assert ref.hand_points(deck) == 4 * (45 * 2 + 6 * 20) + 8 * 50


@pytest.mark.parametrize("kw", CONFIGS)
def test_conservation_and_outcome(kw):
    full = Counter(ref.classic_deck())
    for seed in range(60):
        game = _played(seed, **kw)
        assert Counter(game.all_cards()) == full
        res = game.result()
        assert res["capped"] != (res["winner"] >= 0)
        assert res["points"] == [ref.hand_points(h) for h in game.hands]
        if res["capped"]:
            assert res["turns"] == game.turn_cap and res["winner_points"] == 0
            continue
        w = res["winner"]
        assert game.hands[w] == [] and res["points"][w] == 0
        if kw.get("scoring") == "losers_score":
            assert res["winner_points"] == 0
        else:
            assert res["winner_points"] == sum(res["points"])
        # every card played came out of a hand: dealt + drawn - in hands
        in_hands = sum(len(h) for h in game.hands)
        dealt = game.players * game.hand_size
        drawn = res["drawn_no_play"] + res["penalty_drawn"]
        assert res["cards_played"] == dealt + drawn - in_hands
        assert res["turns"] <= res["cards_played"] + res["drawn_no_play"] + res["penalty_drawn"]
        assert game.pending == 0


def test_cap():
    res = ref.play_round(players=4, seed=3, turn_cap=5)
    assert res["capped"] and res["winner"] == -1 and res["winner_points"] == 0
    assert res["turns"] == 5


def test_determinism():
    a = ref.run_many(30, seed=7, players=4, stacking="progressive")
    b = ref.run_many(30, seed=7, players=4, stacking="progressive")
    c = ref.run_many(30, seed=8, players=4, stacking="progressive")
    assert a == b
    assert a != c


def test_points_on_crafted_hand():
    hand = [
        ("red", "0"),
        ("red", "7"),
        ("blue", "9"),
        ("green", "skip"),
        ("yellow", "reverse"),
        ("blue", "draw2"),
        (None, "wild"),
        (None, "wild4"),
    ]
    assert ref.hand_points(hand) == 0 + 7 + 9 + 20 + 20 + 20 + 50 + 50
    game = _setup(3)
    game.hands = [[], hand, [("green", "3")]]
    game.winner = 0
    res = game.result()
    assert res["points"] == [0, 176, 3]
    assert res["winner_points"] == 179
    game.scoring = "losers_score"
    assert game.result()["winner_points"] == 0


def test_playability_and_wd4_rule():
    game = _setup(4)
    game.discard = [("red", "5")]
    game.colour = "red"
    hand = [("red", "1"), ("blue", "5"), ("blue", "6"), (None, "wild"), (None, "wild4")]
    assert game.playable_cards(hand) == [("red", "1"), ("blue", "5"), (None, "wild")]
    hand = [("blue", "5"), ("blue", "5"), ("green", "6"), (None, "wild4")]
    assert game.playable_cards(hand) == [("blue", "5"), ("blue", "5"), (None, "wild4")]
    # after a wild only the named colour matches, not the symbol "wild"
    game.discard = [(None, "wild")]
    game.colour = "green"
    assert game.playable_cards([("green", "1"), ("red", "1")]) == [("green", "1")]


def test_colour_choice():
    game = _setup(4, seed=1)
    hand = [("red", "1"), ("blue", "2"), ("blue", "skip"), (None, "wild")]
    assert all(game.choose_colour(hand) == "blue" for _ in range(20))
    tied = {game.choose_colour([("red", "1"), ("green", "2")]) for _ in range(200)}
    assert tied == {"red", "green"}
    assert {game.choose_colour([(None, "wild")]) for _ in range(200)} == set(ref.COLOURS)


def test_progressive_stack_and_take():
    game = _setup(3, stacking="progressive", seed=2)
    game.discard = [("red", "4")]
    game.colour = "red"
    game.draw_pile = [("green", str(n)) for n in range(1, 10)]
    game.hands = [
        [("red", "draw2"), ("red", "1")],
        [("blue", "draw2"), ("blue", "3")],
        [("yellow", "8")],
    ]
    game.play_card(0, ("red", "draw2"))
    assert game.pending == 2 and game.current == 1
    game.face_pending(1)  # stacks its only Draw Two (any colour)
    assert game.pending == 4 and game.current == 2 and game.colour == "blue"
    game.face_pending(2)  # cannot stack: takes 4, play passes on
    assert game.pending == 0 and game.penalty_drawn == 4 and len(game.hands[2]) == 5
    assert game.current == 0


def test_wd4_stack_needs_colour_rule():
    game = _setup(2, stacking="progressive", seed=2)
    game.discard = [(None, "wild4")]
    game.colour = "red"
    assert game.stackable_cards([(None, "wild4"), ("red", "1")]) == []
    assert game.stackable_cards([(None, "wild4"), ("blue", "1")]) == [(None, "wild4")]
    assert game.stackable_cards([("blue", "draw2")]) == []


def test_last_card_penalty_is_drawn():
    for stacking in ("none", "progressive"):
        game = _setup(3, stacking=stacking)
        game.discard = [("red", "4")]
        game.colour = "red"
        game.draw_pile = [("green", str(n)) for n in range(1, 10)]
        game.hands = [[("red", "draw2")], [("blue", "3")], [("yellow", "8")]]
        game.play_card(0, ("red", "draw2"))
        assert game.finished and game.winner == 0
        assert len(game.hands[1]) == 3 and game.penalty_drawn == 2
        # the victim drew the top two cards of the pile (the end of the list)
        assert game.hands[1] == [("blue", "3"), ("green", "9"), ("green", "8")]
        assert game.result()["winner_points"] == (3 + 9 + 8) + 8


def test_reshuffle_and_empty_piles():
    game = _setup(2)
    game.discard = [("red", "1"), ("red", "2"), ("red", "3")]
    game.colour = "red"
    assert len(game.draw_cards(0, 5)) == 2  # reshuffles two, the top stays
    assert game.reshuffles == 1 and game.discard == [("red", "3")]
    assert game.draw_one_card() is None and game.reshuffles == 1


def test_first_card_effects():
    seen = set()
    for seed in range(400):
        game = ref.Round(players=4, seed=seed)
        game.setup()
        rank = game.discard[0][1]
        seen.add(rank)
        assert rank != "wild4"
        assert sum(len(h) for h in game.hands) == 28 + game.penalty_drawn
        if rank == "skip":
            assert game.current == 1 and game.direction == 1
        elif rank == "reverse":
            assert game.current == 3 and game.direction == -1
        elif rank == "draw2":
            assert game.current == 1 and len(game.hands[0]) == 9 and game.penalty_drawn == 2
        elif rank == "wild":
            assert game.current == 0 and game.colour in ref.COLOURS
        else:
            assert game.current == 0 and game.direction == 1
    assert {"skip", "reverse", "draw2", "wild", "5"} <= seen
    for seed in range(50):
        game = ref.Round(players=2, seed=seed, first_card="number_only")
        game.setup()
        assert ref.is_number(game.discard[0]) and game.current == 0
