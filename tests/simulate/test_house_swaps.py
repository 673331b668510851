"""Scenario tests of the hand-moving house rules: ``seven_o``, ``swap_on_five``
and ``swap_hands_wild`` (docs/rules.md#rule-seven_o, docs/rules.md#rule-swap_on_five,
docs/rules.md#rule-swap_hands_wild).

Seven-O: after a 7 the player swaps hands with a player of its choice; after a 0
every hand moves to the next player in the direction of play; a 7 or 0 that
empties the hand ends the round with no swap; received cards never trigger an UNO
penalty. Swap on five: after a 5 that does not end the round the player may trade
one card with a chosen player, each side choosing the card it gives. Swap Hands
wild: played any time like a Wild, names a colour and swaps hands with a chosen
player; 40 points.
"""

from __future__ import annotations

import pytest
from scenario import counters, craft, hand, rules

from unosim.runs.game import IllegalMove

WILDS = ("blue", "green", "red", "yellow")


SEVEN_O = rules("seven-o")
FIVE = rules("swap-on-five")
E112 = rules("edition112")
H = {1: ["y1", "y2", "y3"], 2: ["b4"], 3: ["g5", "g6"]}  # hands of seats 1..3


# ======================================================================== seven-O: 7


def test_seven_asks_for_a_target_among_the_others_no_pass():
    g = craft(SEVEN_O, hands={0: ["r7", "g1", "g2"], **H})
    g.apply("r7")
    assert (g.actor, g.phase, g.top, g.colour) == (0, "target", "r7", "red")
    assert sorted(g.legal_moves()) == ["target:1", "target:2", "target:3"]
    for move in ("pass", "target:0", "draw"):
        with pytest.raises(IllegalMove):
            g.apply(move)
    assert g.counters() == counters(turns=1, cards_played=1)


@pytest.mark.parametrize("target", [1, 2, 3])
def test_seven_swaps_hands_with_the_chosen_player(target):
    g = craft(SEVEN_O, hands={0: ["r7", "g1", "g2"], **H})
    g.apply("r7")
    g.apply(f"target:{target}")
    assert hand(g, 0) == sorted(H[target])
    assert hand(g, target) == ["g1", "g2"]
    for q in {1, 2, 3} - {target}:
        assert hand(g, q) == sorted(H[q])
    assert (g.actor, g.phase, g.direction, g.top) == (1, "turn", 1, "r7")
    assert g.stat("swaps") == 1
    # choosing the target is part of the 7's turn
    assert g.counters() == counters(turns=1, cards_played=1)


def test_seven_with_two_players_swaps_with_the_other():
    g = craft(rules("seven-o", players=2), hands={0: ["r7", "g1"], 1: ["y1", "y2", "y3"]})
    g.apply("r7")
    assert g.legal_moves() == ["target:1"]
    g.apply("target:1")
    assert hand(g, 0) == ["y1", "y2", "y3"]
    assert hand(g, 1) == ["g1"]
    assert (g.actor, g.phase) == (1, "turn")


def test_seven_without_the_rule_swaps_nothing():
    g = craft(rules(), hands={0: ["r7", "g1", "g2"], **H})
    g.apply("r7")
    assert (g.actor, g.phase) == (1, "turn")
    assert hand(g, 0) == ["g1", "g2"]


# ======================================================================== seven-O: 0


def test_zero_passes_every_hand_to_the_next_player_clockwise():
    g = craft(SEVEN_O, hands={0: ["r0", "g1", "g2"], **H})
    g.apply("r0")
    assert hand(g, 1) == ["g1", "g2"]  # seat 0's hand
    assert hand(g, 2) == sorted(H[1])
    assert hand(g, 3) == sorted(H[2])
    assert hand(g, 0) == sorted(H[3])
    assert (g.actor, g.phase, g.direction, g.top) == (1, "turn", 1, "r0")
    assert g.stat("swaps") == 1
    assert g.counters() == counters(turns=1, cards_played=1)


def test_zero_passes_every_hand_to_the_next_player_counter_clockwise():
    g = craft(SEVEN_O, hands={0: ["r0", "g1", "g2"], **H}, direction=-1)
    g.apply("r0")
    assert hand(g, 3) == ["g1", "g2"]  # seat 0's hand
    assert hand(g, 2) == sorted(H[3])
    assert hand(g, 1) == sorted(H[2])
    assert hand(g, 0) == sorted(H[1])
    assert (g.actor, g.phase, g.direction) == (3, "turn", -1)


def test_zero_from_another_seat_clockwise():
    g = craft(SEVEN_O, hands={0: ["y7", "y8"], 1: ["b1"], 2: ["r0", "g2", "g3"], 3: ["g9"]},
              actor=2)
    g.apply("r0")
    assert [hand(g, p) for p in range(4)] == [["g9"], ["y7", "y8"], ["b1"], ["g2", "g3"]]
    assert (g.actor, g.phase) == (3, "turn")


@pytest.mark.parametrize("card", ["r7", "r0"])
def test_seven_or_zero_that_empties_the_hand_ends_the_round_without_swap(card):
    g = craft(SEVEN_O, hands={0: [card], **H})
    g.apply(card)
    assert g.over and g.winner == 0 and g.phase == "over"
    assert hand(g, 0) == []
    for q in (1, 2, 3):
        assert hand(g, q) == sorted(H[q])
    assert g.stat("swaps") == 0
    assert g.winner_points() == 6 + 4 + 11


def test_received_cards_never_trigger_an_uno_penalty():
    r = rules("seven-o", uno_forget_prob=1.0, uno_catch_prob=1.0)
    g = craft(r, hands={0: ["r7", "g1", "g2", "g3"], **H})
    g.apply("r7")
    g.apply("target:2")
    assert hand(g, 0) == ["b4"]  # one card, received: no call was due
    assert g.stat("uno_caught") == 0
    assert g.counters() == counters(turns=1, cards_played=1)


def test_rotation_to_a_one_card_hand_never_triggers_an_uno_penalty():
    r = rules("seven-o", uno_forget_prob=1.0, uno_catch_prob=1.0)
    g = craft(r, hands={0: ["r0", "g1", "g2"], **H})
    g.apply("r0")
    assert hand(g, 3) == ["b4"]
    assert g.stat("uno_caught") == 0
    assert g.counters() == counters(turns=1, cards_played=1)


def test_playing_down_to_one_card_before_a_swap_still_needs_the_call():
    # the call is due for the seven itself (two cards -> one), before the swap
    r = rules("seven-o", uno_forget_prob=1.0, uno_catch_prob=1.0)
    g = craft(r, hands={0: ["r7", "g1"], **H})
    g.apply("r7")
    assert hand(g, 0) == ["b1", "b1", "g1"]
    assert g.stat("uno_caught") == 1
    g.apply("target:2")
    assert hand(g, 0) == ["b4"]
    assert hand(g, 2) == ["b1", "b1", "g1"]


# ==================================================================== swap on five


def test_five_asks_for_a_target_and_the_trade_is_optional():
    g = craft(FIVE, hands={0: ["r5", "g1", "wild"], **H})
    g.apply("r5")
    assert (g.actor, g.phase, g.top) == (0, "target", "r5")
    assert sorted(g.legal_moves()) == ["pass", "target:1", "target:2", "target:3"]


def test_five_declined_no_trade():
    g = craft(FIVE, hands={0: ["r5", "g1", "wild"], **H})
    g.apply("r5")
    g.apply("pass")
    assert (g.actor, g.phase) == (1, "turn")
    assert hand(g, 0) == ["g1", "wild"]
    assert g.stat("swaps") == 0
    assert g.counters() == counters(turns=1, cards_played=1)


def test_five_trade_each_side_chooses_the_card_it_gives():
    g = craft(FIVE, hands={0: ["r5", "g1", "wild"], **H})
    g.apply("r5")
    g.apply("target:3")
    assert (g.actor, g.phase) == (0, "give")
    assert sorted(g.legal_moves()) == ["give:g1", "give:wild"]
    g.apply("give:wild")
    assert (g.actor, g.phase) == (3, "give")
    assert sorted(g.legal_moves()) == ["give:g5", "give:g6"]
    g.apply("give:g6")
    assert hand(g, 0) == ["g1", "g6"]
    assert hand(g, 3) == ["g5", "wild"]
    assert hand(g, 1) == sorted(H[1]) and hand(g, 2) == sorted(H[2])
    assert g.hand_points(0) == 7 and g.hand_points(3) == 55
    assert (g.actor, g.phase, g.direction, g.top, g.colour) == (1, "turn", 1, "r5", "red")
    assert g.stat("swaps") == 1
    assert g.counters() == counters(turns=1, cards_played=1)


def test_five_that_ends_the_round_trades_nothing():
    g = craft(FIVE, hands={0: ["r5"], **H})
    g.apply("r5")
    assert g.over and g.winner == 0
    assert g.stat("swaps") == 0


def test_five_counter_clockwise_play_goes_on_after_the_trade():
    g = craft(FIVE, hands={0: ["r5", "g1"], **H}, direction=-1)
    g.apply("r5")
    g.apply("target:1")
    g.apply("give:g1")
    g.apply("give:y3")
    assert hand(g, 0) == ["y3"]
    assert hand(g, 1) == ["g1", "y1", "y2"]
    assert (g.actor, g.phase) == (3, "turn")


# =================================================================== Swap Hands wild


def test_edition112_swap_hands_is_playable_any_time_and_names_a_colour():
    g = craft(E112, hands={0: ["swap", "r1", "g2"], **H})
    moves = g.legal_moves()
    assert {f"swap:{c}" for c in WILDS} <= set(moves)
    g.apply("swap:blue")
    assert (g.actor, g.phase, g.top, g.colour) == (0, "target", "swap", "blue")
    assert sorted(g.legal_moves()) == ["target:1", "target:2", "target:3"]
    g.apply("target:3")
    assert hand(g, 0) == ["g5", "g6"]
    assert hand(g, 3) == ["g2", "r1"]
    assert (g.actor, g.phase, g.colour) == (1, "turn", "blue")
    assert g.stat("swaps") == 1
    assert g.counters() == counters(turns=1, cards_played=1)


def test_swap_hands_as_the_last_card_ends_the_round_without_swap():
    g = craft(E112, hands={0: ["swap"], **H})
    g.apply("swap:green")
    assert g.over and g.winner == 0
    assert hand(g, 3) == ["g5", "g6"]
    assert g.stat("swaps") == 0


def test_swap_hands_card_is_a_plain_wild_without_the_rule():
    g = craft(rules(deck="edition112"), hands={0: ["swap", "r1", "g2"], **H})
    g.apply("swap:yellow")
    assert (g.actor, g.phase, g.colour) == (1, "turn", "yellow")
    assert hand(g, 0) == ["g2", "r1"]


def test_swap_hands_is_worth_40_points():
    g = craft(E112, hands={0: ["r1"], 1: ["swap", "y2"], 2: ["b4"], 3: ["g5"]})
    assert g.hand_value(1) == 42
    g.apply("r1")
    assert g.over and g.winner_points() == 42 + 4 + 5
