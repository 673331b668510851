"""Scenario tests of ``skip_deflect`` and ``reverse_deflect`` (docs/rules.md#rule-skip_deflect,
docs/rules.md#rule-reverse_deflect, docs/rules.md#rule-stacking,
docs/rules.md#rule-two_player_reverse_skips).

Skip deflect: the player about to be skipped may play a Skip of the same colour;
then the next player is skipped (and may deflect again). It is a turn; accepting
is not. A two-player Reverse acts as a Skip but cannot be skip-deflected.

Reverse deflect: the victim of a pending Draw Two or Wild Draw Four may play a
Reverse of the current colour: direction flips and the same penalty goes back to
the seat it came from, which may deflect again. It is a turn. Without stacking,
taking the penalty is not a turn.
"""

from __future__ import annotations

import pytest
from scenario import counters, craft, hand, rules

from unosim.runs.game import Game, IllegalMove

SKIP = rules("skip-deflect")
REV = rules("reverse-deflect")


# ======================================================================= skip deflect


def test_skipped_player_holding_a_skip_of_the_colour_is_asked():
    g = craft(SKIP, hands={0: ["rskip", "g5"], 1: ["rskip", "y1"]})
    g.apply("rskip")
    assert (g.actor, g.phase, g.top, g.colour, g.direction) == (1, "skip", "rskip", "red", 1)
    assert sorted(g.legal_moves()) == ["accept", "rskip"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_skip_deflect_passes_the_skip_on_and_is_a_turn():
    g = craft(SKIP, hands={0: ["rskip", "g5"], 1: ["rskip", "y1"]})
    g.apply("rskip")
    g.apply("rskip")
    # seat 2 holds no red Skip: it is skipped, seat 3 plays
    assert (g.actor, g.phase, g.top, g.colour) == (3, "turn", "rskip", "red")
    assert hand(g, 1) == ["y1"]
    assert hand(g, 2) == ["b7", "y6"]
    assert g.stat("deflects") == 1
    assert g.counters() == counters(turns=2, cards_played=2)


def test_skip_deflect_chains():
    g = craft(SKIP, hands={0: ["rskip", "g5"], 1: ["rskip", "y1"], 2: ["rskip", "b2"]})
    g.apply("rskip")
    g.apply("rskip")
    assert (g.actor, g.phase) == (2, "skip")
    g.apply("rskip")
    assert (g.actor, g.phase) == (0, "turn")  # seat 3 skipped
    assert g.stat("deflects") == 2
    assert g.counters() == counters(turns=3, cards_played=3)


def test_accepting_the_skip_is_no_turn_and_keeps_the_card():
    g = craft(SKIP, hands={0: ["rskip", "g5"], 1: ["rskip", "y1"]})
    g.apply("rskip")
    g.apply("accept")
    assert (g.actor, g.phase) == (2, "turn")
    assert hand(g, 1) == ["rskip", "y1"]
    assert g.stat("deflects") == 0
    assert g.counters() == counters(turns=1, cards_played=1)


def test_skip_of_another_colour_cannot_deflect():
    g = craft(SKIP, hands={0: ["rskip", "g5"], 1: ["bskip", "gskip"]})
    g.apply("rskip")
    assert (g.actor, g.phase) == (2, "turn")


def test_only_the_skip_of_the_colour_is_offered_in_the_skip_phase():
    g = craft(SKIP, hands={0: ["rskip", "g5"], 1: ["rskip", "bskip", "r4", "wild"]})
    g.apply("rskip")
    assert sorted(g.legal_moves()) == ["accept", "rskip"]
    for move in ("bskip", "r4", "wild:red", "draw"):
        with pytest.raises(IllegalMove):
            g.apply(move)


def test_skip_deflect_counter_clockwise():
    g = craft(SKIP, hands={0: ["gskip", "g5"], 3: ["gskip", "y1"]}, discard=["g3"], direction=-1)
    g.apply("gskip")
    assert (g.actor, g.phase) == (3, "skip")
    g.apply("gskip")
    assert (g.actor, g.phase, g.direction) == (1, "turn", -1)  # seat 2 skipped


def test_without_the_rule_a_skip_of_the_colour_does_not_deflect():
    g = craft(rules(), hands={0: ["rskip", "g5"], 1: ["rskip", "y1"]})
    g.apply("rskip")
    assert (g.actor, g.phase) == (2, "turn")


def test_two_players_skip_deflect_goes_back():
    g = craft(rules("skip-deflect", players=2), hands={0: ["rskip", "g5"], 1: ["rskip", "y1"]})
    g.apply("rskip")
    assert (g.actor, g.phase) == (1, "skip")
    g.apply("rskip")
    # seat 0 holds no red Skip: skipped, seat 1 plays again
    assert (g.actor, g.phase) == (1, "turn")
    assert g.counters() == counters(turns=2, cards_played=2)


def test_two_players_reverse_cannot_be_skip_deflected():
    g = craft(
        rules("skip-deflect", players=2),
        hands={0: ["rreverse", "g5"], 1: ["rreverse", "rskip", "y1"]},
    )
    g.apply("rreverse")
    assert (g.actor, g.phase, g.direction) == (0, "turn", 1)
    assert g.hand_size(1) == 3


def test_first_flipped_skip_cannot_be_deflected():
    hits = 0
    for seed in range(300):
        g = Game(SKIP, seed=seed)
        if not g.top.endswith("skip"):
            continue
        hits += 1
        assert (g.actor, g.phase) == (1, "turn")
    assert hits > 0


# ==================================================================== reverse deflect


def draw_two_pending(rules_=REV, hands=None, **kw):
    """Seat 0 just played a red Draw Two; seat 1 faces it."""
    return craft(
        rules_, hands=hands, discard=["r3", "rdraw2"], actor=1, phase="penalty", pending=2,
        pending_kind=2, last=0, stack_len=1, max_stack=1, **kw,
    )


def test_draw_two_victim_is_asked_under_reverse_deflect():
    g = craft(REV, hands={0: ["rdraw2", "g5"], 1: ["rreverse", "y1"]})
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.pending) == (1, "penalty", 2)
    assert sorted(g.legal_moves()) == ["rreverse", "take"]
    assert g.hand_size(1) == 2
    assert g.counters() == counters(turns=1, cards_played=1)


def test_reverse_of_the_colour_sends_the_penalty_back_and_is_a_turn():
    g = draw_two_pending(hands={0: ["g5"], 1: ["rreverse", "y1"]})
    g.apply("rreverse")
    assert (g.actor, g.phase, g.pending, g.direction) == (0, "penalty", 2, -1)
    assert (g.top, g.colour) == ("rreverse", "red")
    assert g.stat("last") == 1
    assert g.stat("deflects") == 1
    assert hand(g, 1) == ["y1"]
    assert g.hand_size(0) == 1
    assert g.counters() == counters(turns=1, cards_played=1)


def test_reverse_of_another_colour_cannot_deflect():
    g = draw_two_pending(hands={1: ["greverse", "rskip", "y1"]})
    assert g.legal_moves() == ["take"]
    with pytest.raises(IllegalMove):
        g.apply("greverse")


def test_taking_without_stacking_is_not_a_turn():
    g = draw_two_pending(hands={1: ["greverse", "y1"]})
    g.apply("take")
    assert (g.actor, g.phase, g.pending, g.direction) == (2, "turn", 0, 1)
    assert hand(g, 1) == ["b1", "b1", "greverse", "y1"]
    assert g.counters() == counters(penalty_drawn=2)


def test_the_seat_sent_back_takes_and_play_goes_on_in_the_new_direction():
    g = draw_two_pending(hands={0: ["g5"], 1: ["rreverse", "y1"]})
    g.apply("rreverse")
    g.apply("take")
    # seat 0 drew and is skipped; play goes on counter-clockwise from seat 0
    assert (g.actor, g.phase, g.pending, g.direction) == (3, "turn", 0, -1)
    assert hand(g, 0) == ["b1", "b1", "g5"]
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2)


def test_several_deflections_always_go_back_to_the_seat_it_came_from():
    g = draw_two_pending(hands={0: ["rreverse", "g5"], 1: ["rreverse", "rreverse", "y1"]})
    g.apply("rreverse")
    assert (g.actor, g.direction, g.stat("last")) == (0, -1, 1)
    g.apply("rreverse")
    assert (g.actor, g.phase, g.pending, g.direction, g.stat("last")) == (1, "penalty", 2, 1, 0)
    g.apply("rreverse")
    assert (g.actor, g.phase, g.pending, g.direction) == (0, "penalty", 2, -1)
    assert g.legal_moves() == ["take"]
    g.apply("take")
    assert (g.actor, g.phase, g.direction) == (3, "turn", -1)
    assert hand(g, 0) == ["b1", "b1", "g5"]
    assert hand(g, 1) == ["y1"]
    assert g.stat("deflects") == 3
    assert g.counters() == counters(turns=3, cards_played=3, penalty_drawn=2)


def test_wd4_victim_deflects_with_a_reverse_of_the_named_colour():
    g = craft(
        REV, hands={0: ["wild4", "b5"], 1: ["greverse", "rreverse", "y1"]},
    )
    g.apply("wild4:green")
    assert (g.actor, g.phase) == (1, "challenge")
    g.apply("accept")
    assert (g.actor, g.phase, g.pending) == (1, "penalty", 4)
    assert sorted(g.legal_moves()) == ["greverse", "take"]
    g.apply("greverse")
    assert (g.actor, g.phase, g.pending, g.direction) == (0, "penalty", 4, -1)
    assert (g.top, g.colour) == ("greverse", "green")
    g.apply("take")
    assert (g.actor, g.phase, g.direction) == (3, "turn", -1)
    assert hand(g, 0) == ["b1"] * 4 + ["b5"]
    assert g.counters() == counters(turns=2, cards_played=2, penalty_drawn=4)


def test_reverse_deflect_counter_clockwise():
    g = craft(
        REV, hands={0: ["bdraw2", "g5"], 3: ["breverse", "y1"]}, discard=["b3"], direction=-1,
    )
    g.apply("bdraw2")
    assert (g.actor, g.phase) == (3, "penalty")
    g.apply("breverse")
    assert (g.actor, g.phase, g.pending, g.direction) == (0, "penalty", 2, 1)
    g.apply("take")
    assert (g.actor, g.phase) == (1, "turn")


def test_two_players_reverse_deflect_flips_direction():
    r = rules("reverse-deflect", players=2)
    g = draw_two_pending(r, hands={0: ["g5"], 1: ["rreverse", "y1"]})
    g.apply("rreverse")
    assert (g.actor, g.phase, g.pending, g.direction) == (0, "penalty", 2, -1)
    g.apply("take")
    assert (g.actor, g.phase) == (1, "turn")
    assert g.hand_size(0) == 3


def test_reverse_deflect_under_progressive_stacking_may_be_stacked_and_taking_is_a_turn():
    r = rules("stacking", reverse_deflect=True)
    g = draw_two_pending(r, hands={0: ["bdraw2", "g5"], 1: ["rreverse", "y1"]})
    assert sorted(g.legal_moves()) == ["rreverse", "take"]
    g.apply("rreverse")
    assert (g.actor, g.phase, g.pending) == (0, "penalty", 2)
    assert sorted(g.legal_moves()) == ["bdraw2", "take"]
    g.apply("bdraw2")
    # the stack goes on in the current (flipped) direction, summed
    assert (g.actor, g.phase, g.pending, g.direction) == (3, "penalty", 4, -1)
    g.apply("take")
    assert (g.actor, g.phase) == (2, "turn")
    assert g.counters() == counters(turns=3, cards_played=2, penalty_drawn=4)


def test_last_card_reverse_deflect_ends_the_round_and_the_sender_draws():
    g = draw_two_pending(
        hands={0: ["g5", "wild"], 1: ["rreverse"], 2: ["y2"], 3: ["b4"]}, draw=["b7"] * 4
    )
    g.apply("rreverse")
    assert g.over and g.winner == 1
    assert hand(g, 0) == ["b7", "b7", "g5", "wild"]
    assert g.winner_points() == 5 + 50 + 14 + 2 + 4
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2)


def test_without_the_rule_no_reverse_answer():
    g = craft(rules(), hands={0: ["rdraw2", "g5"], 1: ["rreverse", "y1"]})
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.direction) == (2, "turn", 1)
    assert g.hand_size(1) == 4
