"""Scenario tests of the stacking house rules (docs/rules.md#rule-stacking,
docs/rules.md#rule-stack_cards, docs/rules.md#rule-draw_ten).

``stacking=deflect``: a Draw Two may be answered with any Draw Two, the next
player then faces 2, never more. ``stack_cards=mixed``: under ``progressive`` a
Wild Draw Four may go on a Draw Two (colour rule) and a Draw Two of the named
colour on a Wild Draw Four, the amounts add up; under ``deflect`` a Draw Two of
the named colour saves from a Wild Draw Four and the chain goes on as a Draw Two
chain. A Draw Ten stacks only on a Draw Ten. Each test crafts a state, applies
one move and checks the exact result.
"""

from __future__ import annotations

import pytest
from scenario import counters, craft, hand, rules

from unosim.runs.game import Game, IllegalMove

WILDS = ("blue", "green", "red", "yellow")


def facing(rules_, hands, top, pending, kind, actor=1, colour=None, **kw) -> Game:
    """``actor`` faces a pending penalty of ``pending`` cards, ``top`` on the pile."""
    return craft(
        rules_, hands=hands, discard=["r3", top], actor=actor, colour=colour, phase="penalty",
        pending=pending, pending_kind=kind, last=(actor - 1) % 4, stack_len=1, max_stack=1, **kw,
    )


DEFLECT = rules("deflect")
DEFLECT_MIXED = rules(stacking="deflect", stack_cards="mixed")
MIXED = rules("stacking-mixed")


def test_presets_name_the_modes():
    assert (DEFLECT["stacking"], DEFLECT["stack_cards"]) == ("deflect", "same")
    assert (MIXED["stacking"], MIXED["stack_cards"]) == ("progressive", "mixed")
    ultra = rules("ultra")
    assert (ultra["stacking"], ultra["stack_cards"], ultra["skip_deflect"]) == (
        "deflect", "mixed", True)


# ================================================================ deflect (non-summing)


def test_deflect_draw_two_played_leaves_two_pending_for_the_victim():
    g = craft(DEFLECT, hands={0: ["rdraw2", "g5"], 1: ["bdraw2", "y1"]})
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.pending, g.top) == (1, "penalty", 2, "rdraw2")
    assert sorted(g.legal_moves()) == ["bdraw2", "take"]
    assert g.hand_size(1) == 2
    assert g.counters() == counters(turns=1, cards_played=1)


@pytest.mark.parametrize("card", ["bdraw2", "rdraw2", "gdraw2"])
def test_deflect_any_draw_two_passes_on_a_penalty_of_two(card):
    g = facing(DEFLECT, {1: [card, "r5", "rskip"]}, "rdraw2", 2, 2)
    assert sorted(g.legal_moves()) == [card, "take"]
    g.apply(card)
    assert (g.actor, g.phase, g.pending, g.top) == (2, "penalty", 2, card)
    assert g.colour == {"b": "blue", "r": "red", "g": "green"}[card[0]]
    assert g.stat("pend_kind") == 2
    assert g.stat("last") == 1
    assert g.stat("deflects") == 1
    assert hand(g, 1) == ["r5", "rskip"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_deflect_penalty_never_grows_along_a_chain():
    g = craft(
        DEFLECT,
        hands={0: ["rdraw2", "g5"], 1: ["gdraw2", "y1"], 2: ["bdraw2", "y2"], 3: ["y3", "g4"]},
    )
    g.apply("rdraw2")
    g.apply("gdraw2")
    assert (g.actor, g.pending) == (2, 2)
    g.apply("bdraw2")
    assert (g.actor, g.phase, g.pending) == (3, "penalty", 2)
    assert g.legal_moves() == ["take"]
    g.apply("take")
    # the end of the chain draws just 2, and taking is that player's turn
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (0, "turn", 0, "bdraw2", "blue")
    assert hand(g, 3) == ["b1", "b1", "g4", "y3"]
    assert g.stat("deflects") == 2
    assert g.stat("max_stack") == 3
    assert g.counters() == counters(turns=4, cards_played=3, penalty_drawn=2)


def test_deflect_no_other_card_and_no_draw_while_facing_a_draw_two():
    g = facing(DEFLECT, {1: ["rskip", "rreverse", "r5", "wild", "wild4", "r0"]}, "rdraw2", 2, 2)
    assert g.legal_moves() == ["take"]
    for move in ("draw", "rskip", "r5", "wild:red", "wild4:red"):
        with pytest.raises(IllegalMove):
            g.apply(move)


def test_deflect_same_no_wd4_on_wd4_and_no_draw_two_on_wd4():
    g = facing(DEFLECT, {1: ["wild4", "gdraw2", "b1"]}, "wild4", 4, 4, colour="green")
    assert g.legal_moves() == ["take"]
    g.apply("take")
    assert (g.actor, g.phase, g.pending, g.colour) == (2, "turn", 0, "green")
    assert hand(g, 1) == ["b1"] * 5 + ["gdraw2", "wild4"]
    assert g.counters() == counters(turns=1, penalty_drawn=4)


def test_deflect_mixed_draw_two_of_the_named_colour_saves_from_wd4():
    g = facing(DEFLECT_MIXED, {1: ["gdraw2", "rdraw2", "b1"]}, "wild4", 4, 4, colour="green")
    # only the Draw Two of the named colour (green); never a +4 on a +4 under deflect
    assert sorted(g.legal_moves()) == ["gdraw2", "take"]
    g.apply("gdraw2")
    # the chain goes on as a Draw Two chain: penalty 2, not 4 and not 6
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (2, "penalty", 2, "gdraw2", "green")
    assert g.stat("pend_kind") == 2
    assert g.stat("deflects") == 1
    assert hand(g, 1) == ["b1", "rdraw2"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_deflect_mixed_after_the_save_any_draw_two_continues():
    g = facing(
        DEFLECT_MIXED, {1: ["gdraw2", "y5"], 2: ["rdraw2", "y1"]}, "wild4", 4, 4, colour="green"
    )
    g.apply("gdraw2")
    assert sorted(g.legal_moves()) == ["rdraw2", "take"]
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.pending, g.colour) == (3, "penalty", 2, "red")


def test_deflect_mixed_no_wd4_on_a_draw_two():
    g = facing(DEFLECT_MIXED, {1: ["wild4", "b5"]}, "rdraw2", 2, 2)
    assert g.legal_moves() == ["take"]


def test_deflect_mixed_draw_two_of_another_colour_not_on_wd4():
    g = facing(DEFLECT_MIXED, {1: ["rdraw2", "bdraw2"]}, "wild4", 4, 4, colour="green")
    assert g.legal_moves() == ["take"]


# ============================================================ mixed progressive stacking


def test_mixed_wd4_on_a_draw_two_under_the_colour_rule_adds_up():
    g = facing(MIXED, {1: ["wild4", "g5"]}, "rdraw2", 2, 2)
    assert sorted(g.legal_moves()) == ["take"] + [f"wild4:{c}" for c in WILDS]
    g.apply("wild4:blue")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (2, "challenge", 6, "wild4", "blue")
    assert g.stat("pend_kind") == 4
    assert g.stat("bluff") == 0
    assert g.stat("last") == 1
    assert g.stat("max_stack") == 2
    assert hand(g, 1) == ["g5"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_mixed_wd4_on_a_draw_two_holding_its_colour_is_a_bluff():
    g = facing(MIXED, {1: ["wild4", "r5"]}, "rdraw2", 2, 2)
    assert sorted(g.legal_moves()) == ["take"] + [f"wild4:{c}" for c in WILDS]
    g.apply("wild4:green")
    assert g.stat("bluff") == 1
    assert (g.actor, g.phase, g.pending) == (2, "challenge", 6)


def test_mixed_wd4_bluff_on_a_draw_two_not_offered_without_bluffing():
    g = facing(rules("stacking-mixed", wd4_bluff=False), {1: ["wild4", "r5"]}, "rdraw2", 2, 2)
    assert g.legal_moves() == ["take"]


def test_mixed_caught_bluff_on_a_draw_two_costs_the_offender_the_whole_total():
    g = facing(MIXED, {1: ["wild4", "r5"], 2: ["y1", "b2"]}, "rdraw2", 2, 2)
    g.apply("wild4:green")
    g.apply("challenge")
    assert (g.actor, g.phase, g.pending, g.colour) == (2, "turn", 0, "green")
    assert hand(g, 1) == ["b1"] * 6 + ["r5"]
    assert hand(g, 2) == ["b2", "y1"]
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=6, challenges=1)


def test_mixed_draw_two_of_the_named_colour_on_a_wd4_adds_up():
    g = facing(MIXED, {1: ["gdraw2", "rdraw2", "b1"]}, "wild4", 4, 4, colour="green")
    assert sorted(g.legal_moves()) == ["gdraw2", "take"]
    g.apply("gdraw2")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (2, "penalty", 6, "gdraw2", "green")
    assert g.stat("pend_kind") == 2
    assert hand(g, 1) == ["b1", "rdraw2"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_mixed_chain_two_four_two_then_take():
    g = craft(
        MIXED,
        hands={0: ["rdraw2", "g5"], 1: ["wild4", "g1"], 2: ["bdraw2", "y1"], 3: ["y3", "g4"]},
    )
    g.apply("rdraw2")
    g.apply("wild4:blue")
    g.apply("accept")
    assert (g.actor, g.phase, g.pending) == (2, "penalty", 6)
    g.apply("bdraw2")
    assert (g.actor, g.phase, g.pending) == (3, "penalty", 8)
    g.apply("take")
    assert (g.actor, g.phase, g.pending, g.colour) == (0, "turn", 0, "blue")
    assert g.hand_size(3) == 10
    assert g.stat("max_stack") == 3
    assert g.counters() == counters(turns=4, cards_played=3, penalty_drawn=8)


def test_same_cards_progressive_does_not_mix():
    g = facing(rules("stacking"), {1: ["wild4", "g5"]}, "rdraw2", 2, 2)
    assert g.legal_moves() == ["take"]
    g2 = facing(rules("stacking"), {1: ["gdraw2"]}, "wild4", 4, 4, colour="green")
    assert g2.legal_moves() == ["take"]


# ============================================================ draw ten under stacking


def test_draw_ten_zero_stacks_on_a_draw_ten_of_any_colour():
    r = rules("stacking", draw_ten="zeros")
    g = facing(r, {1: ["b0", "rdraw2", "wild4", "r5"]}, "r0", 10, 10)
    assert sorted(g.legal_moves()) == ["b0", "take"]
    g.apply("b0")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (2, "penalty", 20, "b0", "blue")
    assert g.stat("pend_kind") == 10
    assert g.counters() == counters(turns=1, cards_played=1)


def test_draw_ten_zero_does_not_stack_on_a_draw_two_nor_a_draw_two_on_it():
    r = rules("stacking", draw_ten="zeros")
    g = facing(r, {1: ["r0", "b0"]}, "rdraw2", 2, 2)
    assert g.legal_moves() == ["take"]
    g2 = facing(r, {1: ["rdraw2", "wild4"]}, "r0", 10, 10)
    assert g2.legal_moves() == ["take"]
    g2.apply("take")
    assert (g2.actor, g2.phase, g2.pending) == (2, "turn", 0)
    assert g2.hand_size(1) == 12
    assert g2.counters() == counters(turns=1, penalty_drawn=10)


def test_draw_ten_blank_stacks_on_a_blank_and_names_the_colour():
    r = rules("stacking", draw_ten="blanks", deck__blanks=4)
    g = facing(r, {1: ["blank", "wild4", "rdraw2"]}, "blank", 10, 10, colour="red")
    assert sorted(g.legal_moves()) == [f"blank:{c}" for c in WILDS] + ["take"]
    g.apply("blank:yellow")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (2, "penalty", 20, "blank", "yellow")


def test_draw_ten_under_deflect_stays_ten():
    r = rules("deflect", draw_ten="zeros")
    g = facing(r, {1: ["g0", "y4"]}, "r0", 10, 10)
    assert sorted(g.legal_moves()) == ["g0", "take"]
    g.apply("g0")
    assert (g.actor, g.phase, g.pending, g.colour) == (2, "penalty", 10, "green")


# ============================================================ penalties and turns


def test_without_stacking_a_penalised_player_takes_no_turn():
    g = craft(rules(), hands={0: ["rdraw2", "g5"], 1: ["bdraw2", "y1"]})
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.pending) == (2, "turn", 0)
    assert hand(g, 1) == ["b1", "b1", "bdraw2", "y1"]
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2)


@pytest.mark.parametrize("mode", ["progressive", "deflect"])
def test_under_any_stacking_taking_is_the_victims_turn(mode):
    g = facing(rules(stacking=mode), {1: ["y1"]}, "rdraw2", 2, 2)
    g.apply("take")
    assert (g.actor, g.phase) == (2, "turn")
    assert g.counters() == counters(turns=1, penalty_drawn=2)


@pytest.mark.parametrize("mode", ["progressive", "deflect"])
def test_first_flipped_draw_two_can_be_neither_stacked_nor_deflected(mode):
    r = rules(stacking=mode)
    hits = 0
    for seed in range(300):
        g = Game(r, seed=seed)
        if not g.top.endswith("draw2"):
            continue
        hits += 1
        assert (g.actor, g.phase, g.pending) == (1, "turn", 0)
        assert g.hand_size(0) == 9
        assert "take" not in g.legal_moves()
    assert hits > 0


def test_last_card_deflect_next_player_draws_two():
    ends = {0: ["b9"], 2: ["gskip"], 3: ["y0", "y3"]}
    g = facing(DEFLECT, {1: ["bdraw2"], **ends}, "rdraw2", 2, 2, draw=["b7"] * 8)
    g.apply("bdraw2")
    assert g.over and g.winner == 1
    assert hand(g, 2) == ["b7", "b7", "gskip"]
    assert g.winner_points() == 9 + 20 + 14 + 3
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2)
