"""Scoring and deck house rules: ``zero_fifty``, the points of the special cards,
``downpour`` under ``losers_score``, ``deck=edition112``, ``downpour`` and custom
deck counts (docs/rules.md#rule-zero_fifty, docs/rules.md#rule-downpour,
docs/rules.md#rule-deck, docs/rules.md#rule-draw_ten, docs/rules.md#rule-swap_hands_wild).

Points: numbers face value, Skip/Reverse/Draw Two 20, Wild and Wild Draw Four 50,
Swap Hands and blanks 40. A lone 0 at scoring is worth 50 under ``zero_fifty``; a
0 stays worth 0 under ``draw_ten=zeros``. Going out on a Downpour Draw 1 / Draw 2
takes 20 / 40 off the winner's total under ``losers_score``.
"""

from __future__ import annotations

from collections import Counter

import pytest
from scenario import craft, rules

from unosim.runs.game import Game
from unosim.simulate.rules import deck_counts_for


def deck_of(r) -> Counter:
    g = Game(r, seed=0)
    cards = g.draw_pile() + g.discard_pile()
    for p in range(g.players):
        cards += g.hand(p)
    return Counter(cards)


# ======================================================================= zero fifty


def test_zero_fifty_lone_zero_scores_fifty():
    g = craft(rules("zero-fifty"), hands={0: ["r5"], 1: ["b0"], 2: ["y0", "y3"], 3: ["g0"]})
    assert [g.hand_value(p) for p in (1, 2, 3)] == [50, 3, 50]
    g.apply("r5")
    assert g.over and g.winner == 0
    assert g.winner_points() == 50 + 3 + 50


def test_without_zero_fifty_a_lone_zero_scores_nothing():
    g = craft(rules(), hands={0: ["r5"], 1: ["b0"], 2: ["y0", "y3"], 3: ["g0"]})
    assert [g.hand_value(p) for p in (1, 2, 3)] == [0, 3, 0]
    g.apply("r5")
    assert g.winner_points() == 3


def test_zero_fifty_two_zeros_are_not_a_lone_zero():
    g = craft(rules("zero-fifty"), hands={1: ["b0", "r0"], 2: ["y0", "wild"]})
    assert (g.hand_value(1), g.hand_value(2)) == (0, 50)


def test_zero_fifty_under_losers_score_counts_for_the_holder():
    g = craft(rules("zero-fifty", "losers-score"), hands={0: ["r5"], 1: ["b0"]})
    g.apply("r5")
    assert g.hand_value(1) == 50
    assert g.winner_points() == 0


# ===================================================================== card points


def test_draw_ten_zeros_still_score_zero():
    g = craft(rules(draw_ten="zeros"), hands={0: ["r5"], 1: ["b0", "r0"], 2: ["y0"], 3: ["g1"]})
    assert [g.hand_value(p) for p in (1, 2, 3)] == [0, 0, 1]
    g.apply("r5")
    assert g.winner_points() == 1


def test_blank_and_swap_hands_score_forty_action_cards_twenty_wilds_fifty():
    g = craft(rules("edition112", draw_ten="blanks"),
              hands={0: ["r5"], 1: ["blank", "swap"], 2: ["rskip", "greverse", "bdraw2"],
                     3: ["wild", "wild4"]})
    assert [g.hand_value(p) for p in (1, 2, 3)] == [80, 60, 100]
    g.apply("r5")
    assert g.winner_points() == 240


# ========================================================= downpour under losers_score


@pytest.mark.parametrize(("card", "value"), [("downpour1", -20), ("downpour2", -40)])
def test_going_out_on_a_downpour_takes_points_off_under_losers_score(card, value):
    g = craft(rules("uno-h2o", "losers-score"), hands={0: [card], 1: ["b4"], 2: ["y2"]})
    g.apply(f"{card}:blue")
    assert g.over and g.winner == 0
    assert g.hand_value(0) == value
    assert g.winner_points() == 0


@pytest.mark.parametrize("card", ["downpour1", "downpour2"])
def test_going_out_on_a_downpour_under_winner_takes_is_not_negative(card):
    g = craft(rules("uno-h2o"), hands={0: [card]})
    g.apply(f"{card}:blue")
    assert g.over and g.winner == 0
    assert g.hand_value(0) == 0


def test_going_out_on_a_plain_wild_under_losers_score_scores_zero():
    g = craft(rules("uno-h2o", "losers-score"), hands={0: ["wild"]})
    g.apply("wild:red")
    assert g.hand_value(0) == 0


# ============================================================================ decks


def test_classic108_deck():
    d = deck_of(rules())
    assert sum(d.values()) == 108
    assert d["r0"] == 1 and d["r5"] == 2 and d["bskip"] == 2 and d["gdraw2"] == 2
    assert (d["wild"], d["wild4"], d["swap"], d["blank"]) == (4, 4, 0, 0)


def test_edition112_deck_adds_one_swap_hands_and_three_blanks():
    for r in (rules(deck="edition112"), rules("edition112")):
        d = deck_of(r)
        assert sum(d.values()) == 112
        assert (d["wild"], d["wild4"], d["swap"], d["blank"]) == (4, 4, 1, 3)
        assert Game(r, seed=3).total_cards() == 112


def test_downpour_turns_two_wilds_and_two_wild_draw_fours():
    d = deck_of(rules("uno-h2o"))
    assert sum(d.values()) == 108
    assert (d["wild"], d["wild4"], d["downpour1"], d["downpour2"]) == (2, 2, 2, 2)


def test_custom_deck_counts():
    r = rules(deck__zeros=2, deck__numbers=1, deck__skips=0, deck__reverses=3, deck__draw_twos=1,
              deck__wilds=1, deck__wild_draw_fours=2, deck__swap_hands=2, deck__blanks=1)
    d = deck_of(r)
    assert sum(d.values()) == 4 * (2 + 9 + 0 + 3 + 1) + 1 + 2 + 2 + 1 == 66
    assert (d["y0"], d["y9"], d["yskip"], d["yreverse"], d["ydraw2"]) == (2, 1, 0, 3, 1)
    assert (d["wild"], d["wild4"], d["swap"], d["blank"]) == (1, 2, 2, 1)
    assert int(deck_counts_for(r).sum()) == 66


def test_edition112_plus_custom_blanks_add_up():
    d = deck_of(rules(deck="edition112", deck__blanks=2, deck__swap_hands=1))
    assert (d["swap"], d["blank"]) == (2, 5)
    assert sum(d.values()) == 115
