"""Scenario tests of how a round may end: ``finish_on_action``, ``final_draw`` and
``stack_cards=wd4_on_d2`` (docs/rules.md#rule-finish_on_action,
#rule-final_draw, #rule-stack_cards).

``finish_on_action=false``: the card that would take a player out may not be an
action card (Skip, Reverse, Draw Two, a Draw Ten 0) or any wild, in every phase: on
the turn, as a stacking or Reverse answer, as a Skip passed on, as a jump-in. A
player whose last card is so barred draws (or takes the penalty, or lets the Skip
stand, or is not asked to jump in). Under seven_rounds only the last stage is going
out; under elimination every player leaving the table is.

``final_draw=false``: a Draw card (or a stack) that ends the round makes nobody draw,
so those cards never reach the score; under elimination a player who leaves while
others play on still makes the next draw.

``stack_cards=wd4_on_d2``: under progressive stacking a Wild Draw Four may go on a
Draw Two (colour rule as usual), never a Draw Two on a Wild Draw Four.
"""

from __future__ import annotations

import pytest
from scenario import counters, craft, hand, rules

from unosim.errors import UnosimError
from unosim.runs.game import Game, IllegalMove
from unosim.simulate.moves import parse_move
from unosim.simulate.step_nb import move_is_legal, nth_playable
from unosim.strategies.api import count_playable
from unosim.strategies.registry import parse_strategy

WILDS = ("blue", "green", "red", "yellow")
NO_ACTION = rules(finish_on_action=False)
# the move that plays each lone card (a wild names blue)
ACTION_PLAYS = {"rskip": "rskip", "rreverse": "rreverse", "rdraw2": "rdraw2",
                "wild": "wild:blue", "wild4": "wild4:blue"}


def facing(rules_, hands, top, pending, kind, actor=1, colour=None, **kw):
    """``actor`` faces a pending penalty of ``pending`` cards, ``top`` on the pile."""
    return craft(
        rules_, hands=hands, discard=["r3", top], actor=actor, colour=colour, phase="penalty",
        pending=pending, pending_kind=kind, last=(actor - 1) % 4, stack_len=1, max_stack=1, **kw,
    )


# ================================================================ finish_on_action


@pytest.mark.parametrize("card", sorted(ACTION_PLAYS))
def test_official_a_lone_action_card_goes_out(card):
    g = craft(rules(), hands={0: [card]})
    assert ACTION_PLAYS[card].split(":")[0] in [m.split(":")[0] for m in g.legal_moves()]
    g.apply(ACTION_PLAYS[card])
    assert g.over and g.winner == 0


@pytest.mark.parametrize("card", sorted(ACTION_PLAYS))
def test_a_lone_action_card_is_barred_and_the_player_draws(card):
    g = craft(NO_ACTION, hands={0: [card]})
    assert g.legal_moves() == ["draw"]
    with pytest.raises(IllegalMove):
        g.apply(ACTION_PLAYS[card])
    assert not move_is_legal(g.G, parse_move(ACTION_PLAYS[card]))
    assert count_playable(g.G, 0, True) == 0 and count_playable(g.G, 0, False) == 0
    assert nth_playable(g.G, 0, True, 0) == -1
    g.apply("draw")
    # the b1 drawn does not fit red: the turn passes, the card is kept
    assert (g.actor, g.phase, g.over) == (1, "turn", False)
    assert hand(g, 0) == sorted(["b1", card])
    assert g.counters() == counters(turns=1, drawn_no_play=1)


def test_a_barred_player_may_play_the_playable_card_it_draws():
    g = craft(NO_ACTION, hands={0: ["rskip"]}, draw=["r7"] * 4)
    g.apply("draw")
    assert (g.actor, g.phase) == (0, "drawn")
    assert sorted(g.legal_moves()) == ["pass", "r7"]
    g.apply("r7")
    # the Skip stays in hand: one card, UNO
    assert (g.actor, g.phase, g.over, g.top) == (1, "turn", False, "r7")
    assert hand(g, 0) == ["rskip"]
    assert g.counters() == counters(turns=1, cards_played=1, drawn_no_play=1)


def test_a_lone_number_card_still_goes_out():
    g = craft(NO_ACTION, hands={0: ["r5"]})
    assert sorted(g.legal_moves()) == ["draw", "r5"]
    g.apply("r5")
    assert g.over and g.winner == 0


def test_an_action_card_that_leaves_a_card_in_hand_may_be_played():
    g = craft(NO_ACTION, hands={0: ["rskip", "g5"]})
    assert "rskip" in g.legal_moves()
    g.apply("rskip")
    assert (g.actor, g.phase) == (2, "turn")
    assert hand(g, 0) == ["g5"]


def test_a_draw_ten_zero_is_an_action_card():
    g = craft(rules(finish_on_action=False, draw_ten="zeros"), hands={0: ["r0"]})
    assert g.legal_moves() == ["draw"]
    g2 = craft(NO_ACTION, hands={0: ["r0"]})
    assert sorted(g2.legal_moves()) == ["draw", "r0"]


def test_stacking_a_lone_draw_card_is_barred_the_victim_takes():
    r = rules("stacking", finish_on_action=False)
    g = facing(r, {1: ["bdraw2"]}, "rdraw2", 2, 2)
    assert g.legal_moves() == ["take"]
    with pytest.raises(IllegalMove):
        g.apply("bdraw2")
    g.apply("take")
    assert (g.actor, g.phase, g.pending) == (2, "turn", 0)
    assert hand(g, 1) == ["b1", "b1", "bdraw2"]
    assert g.counters() == counters(turns=1, penalty_drawn=2)


def test_stacking_a_draw_card_that_is_not_the_last_is_allowed():
    r = rules("stacking", finish_on_action=False)
    g = facing(r, {1: ["bdraw2", "y4"]}, "rdraw2", 2, 2)
    assert sorted(g.legal_moves()) == ["bdraw2", "take"]


def test_a_lone_reverse_cannot_send_a_penalty_back():
    r = rules("reverse-deflect", finish_on_action=False)
    g = facing(r, {1: ["rreverse"]}, "rdraw2", 2, 2)
    assert g.legal_moves() == ["take"]
    official = facing(rules("reverse-deflect"), {1: ["rreverse"]}, "rdraw2", 2, 2)
    assert sorted(official.legal_moves()) == ["rreverse", "take"]


def test_a_lone_skip_cannot_pass_a_skip_on():
    r = rules("skip-deflect", finish_on_action=False)
    g = craft(r, hands={0: ["rskip", "g5"], 1: ["rskip"]})
    g.apply("rskip")
    # seat 1 is not asked: the Skip stands and seat 2 plays
    assert (g.actor, g.phase) == (2, "turn")
    assert hand(g, 1) == ["rskip"]
    assert g.stat("deflects") == 0
    official = craft(rules("skip-deflect"), hands={0: ["rskip", "g5"], 1: ["rskip"]})
    official.apply("rskip")
    assert (official.actor, official.phase) == (1, "skip")


def test_a_lone_identical_action_card_cannot_jump_in():
    r = rules("jump-in", jump_in_order="nearest", finish_on_action=False)
    g = craft(r, hands={0: ["rskip", "g1"], 2: ["rskip"], 3: ["rskip", "b2"]})
    g.apply("rskip")
    # seat 2 holds only the Skip: barred; seat 3 holds two cards and is asked
    assert (g.actor, g.phase) == (3, "jump")
    g.apply("pass")
    assert (g.actor, g.phase) == (2, "turn")


def test_a_lone_identical_number_card_may_jump_in_and_go_out():
    r = rules("jump-in", jump_in_order="nearest", finish_on_action=False)
    g = craft(r, hands={0: ["r5", "g1"], 2: ["r5"]})
    g.apply("r5")
    assert (g.actor, g.phase) == (2, "jump")
    g.apply("r5")
    assert g.over and g.winner == 2


def test_seven_rounds_an_action_card_may_empty_the_hand_before_the_last_stage():
    r = rules("seven-rounds", finish_on_action=False)
    g = craft(r, hands={0: ["rskip"]}, stages={0: 2})
    assert "rskip" in g.legal_moves()
    g.apply("rskip")
    assert hand(g, 0) == ["b1"]
    assert (g.actor, g.phase) == (2, "turn")
    last = craft(r, hands={0: ["rskip"]}, stages={0: 1})
    assert last.legal_moves() == ["draw"]


def test_elimination_every_player_leaving_is_barred_too():
    r = rules("elimination", finish_on_action=False)
    g = craft(r, hands={0: ["r5", "g1"], 1: ["rdraw2"]}, places={2: 1})
    g.apply("r5")
    assert (g.actor, g.legal_moves()) == (1, ["draw"])


@pytest.mark.parametrize("strategy", ["random", "first", "offensive", "defensive",
                                      "colour-keeper", "attacker", "weighted", "gang-up",
                                      "adaptive", "tuned", "card-counter", "random-colour"])
def test_every_builtin_strategy_draws_when_its_last_card_is_barred(strategy):
    seats = [parse_strategy(strategy)] * 4
    g = craft(NO_ACTION, hands={0: ["wild4"], 1: ["g1", "g2"]}, seats=seats)
    assert isinstance(g, Game)
    assert g.choose() == "draw"


# ===================================================================== final_draw


def test_official_a_last_draw_two_is_drawn_and_scores():
    g = craft(rules(), hands={0: ["rdraw2"], 1: ["y1"], 2: ["b2"], 3: ["g3"]})
    g.apply("rdraw2")
    assert g.over and g.winner == 0
    assert hand(g, 1) == ["b1", "b1", "y1"]
    assert g.winner_points() == 1 + 1 + 1 + 2 + 3
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2)


@pytest.mark.parametrize("card,move", [("rdraw2", "rdraw2"), ("wild4", "wild4:green")])
def test_without_final_draw_a_last_draw_card_makes_nobody_draw(card, move):
    g = craft(rules(final_draw=False), hands={0: [card], 1: ["y1"], 2: ["b2"], 3: ["g3"]},
              colour="yellow" if card == "wild4" else None)
    g.apply(move)
    assert g.over and g.winner == 0
    assert hand(g, 1) == ["y1"]
    assert g.pending == 0
    assert g.winner_points() == 1 + 2 + 3
    assert g.counters() == counters(turns=1, cards_played=1)


def test_without_final_draw_a_stack_that_ends_the_round_is_not_drawn():
    r = rules("stacking", final_draw=False)
    g = facing(r, {1: ["bdraw2"], 2: ["y5"], 3: ["g3"], 0: ["r1"]}, "rdraw2", 2, 2)
    g.apply("bdraw2")
    assert g.over and g.winner == 1
    assert (g.pending, g.stat("pend_kind")) == (0, 0)
    assert hand(g, 2) == ["y5"]
    assert g.winner_points() == 1 + 5 + 3
    assert g.counters() == counters(turns=1, cards_played=1)


def test_without_final_draw_a_reverse_that_ends_the_round_sends_nothing_back():
    r = rules("reverse-deflect", final_draw=False)
    g = facing(r, {1: ["rreverse"], 0: ["y1"], 2: ["y2"], 3: ["y3"]}, "rdraw2", 2, 2)
    g.apply("rreverse")
    assert g.over and g.winner == 1
    assert hand(g, 0) == ["y1"]
    assert g.counters() == counters(turns=1, cards_played=1)
    official = facing(rules("reverse-deflect"), {1: ["rreverse"], 0: ["y1"]}, "rdraw2", 2, 2)
    official.apply("rreverse")
    assert hand(official, 0) == ["b1", "b1", "y1"]


def test_without_final_draw_elimination_a_player_leaving_still_makes_the_next_draw():
    r = rules("elimination", final_draw=False)
    g = craft(r, hands={0: ["rdraw2"], 1: ["y1"], 2: ["b2"], 3: ["g3"]})
    g.apply("rdraw2")
    assert not g.over and g.winner == 0
    assert hand(g, 1) == ["b1", "b1", "y1"]
    assert g.winner_points() == 1 + 2 + 2 + 3
    # the last but one going out on a Draw Two ends the round: nothing is drawn
    end = craft(r, hands={0: ["rdraw2"], 1: ["y1"]}, places={2: 1, 3: 2})
    end.apply("rdraw2")
    assert end.over
    assert hand(end, 1) == ["y1"]
    assert [end.place(p) for p in range(4)] == [3, 4, 1, 2]


# ============================================================= stack_cards=wd4_on_d2


FOUR_ON_TWO = rules("stacking", stack_cards="wd4_on_d2")


def test_wd4_on_d2_a_wild_draw_four_goes_on_a_draw_two_and_adds_up():
    g = facing(FOUR_ON_TWO, {1: ["wild4", "bdraw2", "g5"]}, "rdraw2", 2, 2)
    assert sorted(g.legal_moves()) == ["bdraw2", "take"] + [f"wild4:{c}" for c in WILDS]
    g.apply("wild4:blue")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (2, "challenge", 6, "wild4", "blue")
    assert g.stat("pend_kind") == 4
    assert (g.stat("bluff"), g.stat("max_stack")) == (0, 2)
    assert hand(g, 1) == ["bdraw2", "g5"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_wd4_on_d2_no_draw_two_on_a_wild_draw_four():
    g = facing(FOUR_ON_TWO, {1: ["gdraw2", "rdraw2", "b1"]}, "wild4", 4, 4, colour="green")
    assert g.legal_moves() == ["take"]
    with pytest.raises(IllegalMove):
        g.apply("gdraw2")
    g.apply("take")
    assert (g.actor, g.phase, g.pending) == (2, "turn", 0)
    assert g.counters() == counters(turns=1, penalty_drawn=4)


def test_wd4_on_d2_a_wild_draw_four_still_goes_on_a_wild_draw_four():
    g = facing(FOUR_ON_TWO, {1: ["wild4", "b1"]}, "wild4", 4, 4, colour="green")
    assert sorted(g.legal_moves()) == ["take"] + [f"wild4:{c}" for c in WILDS]
    g.apply("wild4:red")
    assert (g.actor, g.phase, g.pending) == (2, "challenge", 8)


def test_wd4_on_d2_without_bluffing_needs_the_colour_rule():
    r = rules("stacking", stack_cards="wd4_on_d2", wd4_bluff=False)
    g = facing(r, {1: ["wild4", "r5"]}, "rdraw2", 2, 2)
    assert g.legal_moves() == ["take"]


@pytest.mark.parametrize("stacking", ["none", "deflect"])
def test_wd4_on_d2_needs_progressive_stacking(stacking):
    with pytest.raises(UnosimError, match="stack_cards=wd4_on_d2 needs stacking=progressive"):
        rules(stacking=stacking, stack_cards="wd4_on_d2")
