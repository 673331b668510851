"""Scenario tests of ``jump_in`` (docs/rules.md#rule-jump_in,
docs/rules.md#rule-jump_in_order).

The window opens after every card put on the discard pile (a jump-in too) and
closes when the next turn starts; never after the first flipped card. Identical
means same colour and same number or symbol; a plain Wild matches a plain Wild; a
Wild Draw Four neither jumps in nor is jumped upon. Anyone holding an identical
card is eligible, the player who just played and the one whose turn is next
included. ``nearest`` asks in turn order from the player whose turn would be
next, ``random`` in a uniformly random order. The card acts from the jumper's
seat, play continues from the jumper, a pending penalty moves to the new victim
(summed under progressive stacking, replaced otherwise), and a jump-in is a turn.
"""

from __future__ import annotations

import pytest
from scenario import counters, craft, hand, rules

from unosim.runs.game import Game, IllegalMove

WILDS = ("red", "yellow", "green", "blue")


NEAREST = rules("jump-in", jump_in_order="nearest")
RANDOM = rules("jump-in")


def test_preset():
    assert (RANDOM["jump_in"], RANDOM["jump_in_order"]) == (True, "random")


# ================================================================ who may jump in


def test_identical_card_holder_is_asked_with_jump_or_pass():
    g = craft(NEAREST, hands={0: ["r5", "g1"], 1: ["g5", "r6"], 2: ["r5", "b2"]})
    g.apply("r5")
    # seat 1 holds a 5 and a red card, but nothing identical: only seat 2 is asked
    assert (g.actor, g.phase, g.top, g.colour) == (2, "jump", "r5", "red")
    assert sorted(g.legal_moves()) == ["pass", "r5"]
    for move in ("b2", "draw", "take", "accept"):
        with pytest.raises(IllegalMove):
            g.apply(move)
    assert g.counters() == counters(turns=1, cards_played=1)


def test_no_identical_card_no_window():
    g = craft(NEAREST, hands={0: ["r5", "g1"], 1: ["g5", "r6"], 2: ["y5", "r4"]})
    g.apply("r5")
    assert (g.actor, g.phase) == (1, "turn")


def test_jump_in_plays_on_from_the_jumper_and_is_a_turn():
    g = craft(NEAREST, hands={0: ["r5", "g1"], 1: ["g5", "r6"], 2: ["r5", "b2"]})
    g.apply("r5")
    g.apply("r5")
    # seat 1 lost its turn; play goes on from seat 2
    assert (g.actor, g.phase, g.top, g.colour, g.direction) == (3, "turn", "r5", "red", 1)
    assert hand(g, 2) == ["b2"]
    assert hand(g, 1) == ["g5", "r6"]
    assert g.stat("jump_ins") == 1
    assert g.counters() == counters(turns=2, cards_played=2)


def test_declining_is_not_a_turn_and_play_goes_on_normally():
    g = craft(NEAREST, hands={0: ["r5", "g1"], 2: ["r5", "b2"]})
    g.apply("r5")
    g.apply("pass")
    assert (g.actor, g.phase) == (1, "turn")
    assert hand(g, 2) == ["b2", "r5"]
    assert g.stat("jump_ins") == 0
    assert g.counters() == counters(turns=1, cards_played=1)


def test_the_player_who_just_played_may_jump_in_a_double_play():
    g = craft(NEAREST, hands={0: ["r5", "r5", "g1"]})
    g.apply("r5")
    assert (g.actor, g.phase) == (0, "jump")
    assert sorted(g.legal_moves()) == ["pass", "r5"]
    g.apply("r5")
    assert (g.actor, g.phase) == (1, "turn")
    assert hand(g, 0) == ["g1"]
    assert g.stat("jump_ins") == 1
    assert g.counters() == counters(turns=2, cards_played=2)


def test_the_next_player_may_jump_in():
    g = craft(NEAREST, hands={0: ["r5", "g1"], 1: ["r5", "y1"]})
    g.apply("r5")
    assert (g.actor, g.phase) == (1, "jump")
    g.apply("r5")
    assert (g.actor, g.phase) == (2, "turn")
    assert g.counters() == counters(turns=2, cards_played=2)


def test_nearest_order_starts_at_the_next_player_and_ends_with_the_player_who_played():
    g = craft(NEAREST, hands={0: ["r5", "r5", "g1"], 2: ["r5", "b2"], 3: ["r5", "b3"]})
    g.apply("r5")
    asked = []
    while g.phase == "jump":
        asked.append(g.actor)
        g.apply("pass")
    assert asked == [2, 3, 0]
    assert (g.actor, g.phase) == (1, "turn")


def test_nearest_order_counter_clockwise():
    g = craft(
        NEAREST, direction=-1, hands={0: ["r5", "r5", "g1"], 1: ["r5", "b2"], 2: ["r5", "b3"]}
    )
    g.apply("r5")
    asked = []
    while g.phase == "jump":
        asked.append(g.actor)
        g.apply("pass")
    assert asked == [2, 1, 0]
    assert (g.actor, g.phase) == (3, "turn")


def test_nearest_order_after_a_skip_starts_after_the_skipped_seat():
    g = craft(NEAREST, hands={0: ["rskip", "g1"], 1: ["rskip", "y1"], 2: ["rskip", "b2"],
                             3: ["rskip", "b3"]})
    g.apply("rskip")
    asked = []
    while g.phase == "jump":
        asked.append(g.actor)
        g.apply("pass")
    # the turn would be seat 2's; the skipped seat 1 is asked last
    assert asked == [2, 3, 1]
    assert (g.actor, g.phase) == (2, "turn")


def test_random_order_picks_each_holder_first_uniformly_and_never_a_non_holder():
    """150 seeds; each of the three holders must be asked first 30 to 70 times (50
    expected). A fair draw leaves that band for one holder with chance 3.7e-4, for any
    of the three 1.1e-3 (exact, multinomial); a holder picked first with probability
    0.17 or less, or 0.52 or more, instead of 1/3 fails with 80% power."""
    firsts = []
    for seed in range(150):
        g = craft(
            RANDOM, seed=seed,
            hands={0: ["r5", "r5", "g1"], 1: ["g5", "y1"], 2: ["r5", "b2"], 3: ["r5", "b3"]},
        )
        g.apply("r5")
        assert g.phase == "jump"
        firsts.append(g.actor)
        asked = [g.actor]
        while g.phase == "jump":
            g.apply("pass")
            if g.phase == "jump":
                asked.append(g.actor)
        assert sorted(asked) == [0, 2, 3]
    # 50 expected each; a binomial(150, 1/3) leaves 30..70 with chance 3.7e-4
    assert sorted(set(firsts)) == [0, 2, 3]
    assert all(30 <= firsts.count(q) <= 70 for q in (0, 2, 3))


def test_a_holder_who_already_jumped_is_not_asked_again_for_the_same_card():
    g = craft(NEAREST, hands={0: ["r5", "g1"], 2: ["r5", "b2"], 3: ["r5", "b3"]})
    g.apply("r5")
    g.apply("r5")  # seat 2
    # a new window opens after the jump-in: seat 3 is next in turn and holds r5
    assert (g.actor, g.phase) == (3, "jump")
    g.apply("r5")
    assert (g.actor, g.phase) == (0, "turn")
    assert g.stat("jump_ins") == 2
    assert g.counters() == counters(turns=3, cards_played=3)


def test_same_number_other_colour_and_same_colour_other_number_cannot_jump_in():
    g = craft(NEAREST, hands={0: ["r5", "g1"], 1: ["y5", "r4"], 2: ["b5", "r6"], 3: ["g5", "r7"]})
    g.apply("r5")
    assert (g.actor, g.phase) == (1, "turn")


def test_plain_wild_jumps_in_on_a_plain_wild_and_names_a_colour():
    g = craft(NEAREST, hands={0: ["wild", "g1"], 2: ["wild", "b2"]})
    g.apply("wild:blue")
    assert (g.actor, g.phase, g.colour) == (2, "jump", "blue")
    assert sorted(g.legal_moves()) == ["pass"] + sorted(f"wild:{c}" for c in WILDS)
    g.apply("wild:green")
    assert (g.actor, g.phase, g.top, g.colour) == (3, "turn", "wild", "green")
    assert g.stat("jump_ins") == 1


def test_wild_does_not_jump_in_on_a_coloured_card():
    g = craft(NEAREST, hands={0: ["r5", "g1"], 2: ["wild", "b2"]})
    g.apply("r5")
    assert (g.actor, g.phase) == (1, "turn")


def test_wild_draw_four_is_never_jumped_upon():
    g = craft(NEAREST, hands={0: ["wild4", "g1"], 2: ["wild4", "b2"], 3: ["wild", "b3"]})
    g.apply("wild4:green")
    assert (g.actor, g.phase) == (1, "challenge")


def test_wild_draw_four_never_jumps_in_on_a_wild():
    g = craft(NEAREST, hands={0: ["wild", "g1"], 2: ["wild4", "b2"]})
    g.apply("wild:green")
    assert (g.actor, g.phase) == (1, "turn")


def test_no_window_after_the_first_flipped_card():
    checked = 0
    for seed in range(200):
        g = Game(RANDOM, seed=seed)
        assert g.phase in ("turn", "colour")
        top = g.top
        if top not in ("wild", "wild4") and any(top in g.hand(p) for p in range(4)):
            checked += 1
    assert checked > 0  # someone held the identical card and still was not asked


def test_window_opens_after_a_drawn_card_is_played():
    g = craft(NEAREST, hands={0: ["g1"], 2: ["r5", "b2"]}, draw=["r5"] * 4)
    g.apply("draw")
    g.apply("r5")
    assert (g.actor, g.phase) == (2, "jump")


# ================================================================ the card's effect


def test_skip_jumped_in_skips_the_player_after_the_jumper():
    g = craft(NEAREST, hands={0: ["rskip", "g1"], 2: ["rskip", "b2"]})
    g.apply("rskip")
    assert (g.actor, g.phase) == (2, "jump")
    g.apply("rskip")
    # seat 3 (after the jumper) is skipped; seat 1, jumped over, is not involved
    assert (g.actor, g.phase, g.direction) == (0, "turn", 1)
    assert g.counters() == counters(turns=2, cards_played=2)


def test_reverses_add_up_when_one_is_jumped_upon():
    """The case docs/rules.md#rule-jump_in settles: clockwise, seat 0 plays a red Reverse and seat 2
    jumps in with the other: both act, so the direction is clockwise again and play
    goes on from the jumper, to seat 3 (this reading replaced "only the jumper's
    Reverse acts", which sent play counter-clockwise to seat 1)."""
    g = craft(NEAREST, hands={0: ["rreverse", "g1"], 2: ["rreverse", "b2"]})
    g.apply("rreverse")
    assert (g.actor, g.phase) == (2, "jump")
    g.apply("rreverse")
    assert (g.actor, g.phase, g.direction) == (3, "turn", 1)
    assert g.counters() == counters(turns=2, cards_played=2)


def test_three_reverses_reverse():
    """Counter-clockwise from the start: three Reverses in a row (the last a self
    jump-in) flip three times, so play goes on clockwise from the last jumper."""
    g = craft(NEAREST, hands={0: ["rreverse", "g1"], 3: ["rreverse", "rreverse", "b2"]},
              direction=-1)
    g.apply("rreverse")
    assert (g.actor, g.phase) == (3, "jump")
    g.apply("rreverse")
    assert (g.actor, g.phase) == (3, "jump")  # seat 3 holds the third one too
    g.apply("rreverse")
    assert (g.actor, g.phase, g.direction) == (0, "turn", 1)
    assert g.counters() == counters(turns=3, cards_played=3)


def test_at_two_players_a_jumped_reverse_flips_nothing_and_skips():
    """At two players a Reverse is a Skip: the one jumped upon flips nothing, and the
    jumper's skips the other player, so the jumper plays again."""
    two = rules("jump-in", jump_in_order="nearest", players=2)
    g = craft(two, hands={0: ["rreverse", "g1"], 1: ["rreverse", "b2"]})
    g.apply("rreverse")
    assert (g.actor, g.phase) == (1, "jump")
    g.apply("rreverse")
    assert (g.actor, g.phase, g.direction) == (1, "turn", 1)
    assert g.counters() == counters(turns=2, cards_played=2)


def test_draw_two_jumped_in_hits_the_player_after_the_jumper_replaced_not_summed():
    g = craft(NEAREST, hands={0: ["rdraw2", "g1"], 3: ["rdraw2", "b3"]})
    g.apply("rdraw2")
    assert (g.actor, g.phase) == (3, "jump")
    g.apply("rdraw2")
    # seat 0 (after the jumper) draws 2, not 4; seat 1 is not affected
    assert (g.actor, g.phase, g.pending) == (1, "turn", 0)
    assert hand(g, 0) == ["b1", "b1", "g1"]
    assert hand(g, 1) == ["g8", "y9"]
    assert g.counters() == counters(turns=2, cards_played=2, penalty_drawn=2)


def test_the_victim_of_a_draw_two_may_jump_in_and_pass_it_on():
    g = craft(NEAREST, hands={0: ["rdraw2", "g1"], 1: ["rdraw2", "y1"]})
    g.apply("rdraw2")
    assert (g.actor, g.phase) == (1, "jump")
    g.apply("rdraw2")
    # the penalty moves to the seat after the jumper; the jumper draws nothing
    assert (g.actor, g.phase, g.pending) == (3, "turn", 0)
    assert hand(g, 1) == ["y1"]
    assert hand(g, 2) == ["b1", "b1", "b7", "y6"]
    assert g.counters() == counters(turns=2, cards_played=2, penalty_drawn=2)


def test_draw_two_jumped_in_under_progressive_stacking_sums_the_penalty():
    r = rules("stacking", jump_in=True, jump_in_order="nearest")
    g = craft(r, hands={0: ["rdraw2", "g1"], 3: ["rdraw2", "b3"]})
    g.apply("rdraw2")
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.pending) == (0, "penalty", 4)
    assert g.stat("last") == 3
    assert g.hand_size(1) == 2
    g.apply("take")
    assert (g.actor, g.phase) == (1, "turn")
    assert hand(g, 0) == ["b1"] * 4 + ["g1"]
    assert g.counters() == counters(turns=3, cards_played=2, penalty_drawn=4)


def test_draw_two_jumped_in_under_deflect_stays_two():
    r = rules("deflect", jump_in=True, jump_in_order="nearest")
    g = craft(r, hands={0: ["rdraw2", "g1"], 3: ["rdraw2", "b3"]})
    g.apply("rdraw2")
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.pending) == (0, "penalty", 2)


def test_stacked_draw_two_can_be_jumped_upon():
    r = rules("stacking", jump_in=True, jump_in_order="nearest")
    g = craft(r, hands={0: ["rdraw2", "g1"], 1: ["bdraw2", "y1"], 3: ["bdraw2", "b3"]})
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.pending) == (1, "penalty", 2)
    g.apply("bdraw2")
    assert (g.actor, g.phase) == (3, "jump")
    g.apply("bdraw2")
    assert (g.actor, g.phase, g.pending) == (0, "penalty", 6)


def test_jump_in_with_the_last_card_ends_the_round():
    g = craft(NEAREST, hands={0: ["r5", "g1"], 2: ["r5"]})
    g.apply("r5")
    g.apply("r5")
    assert g.over and g.winner == 2
    assert g.winner_points() == 1 + 8 + 9 + 8 + 6


def test_jump_in_after_a_seven_comes_after_the_swap():
    r = rules("seven-o", jump_in=True, jump_in_order="nearest")
    g = craft(r, hands={0: ["r7", "g1", "g2"], 2: ["r7", "b2"]})
    g.apply("r7")
    assert (g.actor, g.phase) == (0, "target")
    g.apply("target:2")
    # seat 0 now holds seat 2's hand, r7 included, and is the one asked
    assert hand(g, 0) == ["b2", "r7"]
    assert hand(g, 2) == ["g1", "g2"]
    assert (g.actor, g.phase) == (0, "jump")


def test_jump_in_after_a_five_comes_after_the_trade():
    r = rules("swap-on-five", jump_in=True, jump_in_order="nearest")
    g = craft(r, hands={0: ["r5", "g1"], 2: ["r5", "b2"]})
    g.apply("r5")
    g.apply("target:2")
    g.apply("give:g1")
    g.apply("give:r5")
    assert hand(g, 0) == ["r5"]
    assert hand(g, 2) == ["b2", "g1"]
    assert (g.actor, g.phase) == (0, "jump")
