"""Scenario tests of progressive stacking (docs/rules.md#rule-stacking,
docs/rules.md#rule-stack_cards, docs/rules.md#presets, docs/metrics.md#per-round).

``resolve(["stacking"])`` is progressive stacking with ``stack_cards=same``: a Draw
Two goes on a Draw Two of any colour, a Wild Draw Four on a Wild Draw Four (legal
only under the colour rule, otherwise a bluff), the amounts add up, and the first
player who cannot or will not stack takes the whole total, which is that player's
turn. Each test crafts a state, applies one move and checks the exact result.
"""

from __future__ import annotations

from collections import Counter

import pytest
import scenario
from scenario import assert_unchanged, counters, deck_counter, hand, snapshot

from unosim.runs.game import Game, IllegalMove
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy

WILDS = ("blue", "green", "red", "yellow")


def stacking(**overrides):
    return resolve(["stacking"], list(overrides.items()))


def craft(rules_=None, **kw) -> Game:
    """``scenario.craft`` under ``stacking()`` by default, the draw pile empty unless given."""
    kw.setdefault("draw", ())
    return scenario.craft(rules_ or stacking(), **kw)


def facing_draw_two(hands, pending=2, actor=1, top="rdraw2", **kw) -> Game:
    """``actor`` faces a pending Draw Two stack of ``pending`` cards."""
    kw.setdefault("draw", ["b1"] * 12)
    return craft(
        hands=hands,
        discard=["r3", top],
        actor=actor,
        phase="penalty",
        pending=pending,
        pending_kind=2,
        last=(actor - 1) % 4,
        stack_len=pending // 2,
        max_stack=pending // 2,
        **kw,
    )


def facing_wd4(hands, pending=4, actor=1, colour="green", rules_=None, **kw) -> Game:
    """``actor`` faces a pending Wild Draw Four stack (challenge already declined)."""
    kw.setdefault("draw", ["b1"] * 12)
    return craft(
        rules_,
        hands=hands,
        discard=["r3", "wild4"],
        actor=actor,
        colour=colour,
        phase="penalty",
        pending=pending,
        pending_kind=4,
        last=(actor - 1) % 4,
        stack_len=pending // 4,
        max_stack=pending // 4,
        **kw,
    )


def test_stacking_preset_is_progressive_same():
    r = stacking()
    assert (r["stacking"], r["stack_cards"]) == ("progressive", "same")


# ================================================================= Draw Two stacks


def test_draw_two_played_leaves_the_penalty_pending_for_the_victim():
    g = craft(hands={0: ["rdraw2", "g5"], 1: ["y1", "y2"]}, draw=["b1"] * 6)
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (1, "penalty", 2, "rdraw2", "red")
    assert g.stat("pend_kind") == 2
    assert g.hand_size(1) == 2  # nothing drawn yet
    assert g.legal_moves() == ["take"]
    assert g.counters() == counters(turns=1, cards_played=1)


@pytest.mark.parametrize("card", ["bdraw2", "rdraw2"])
def test_draw_two_on_draw_two_of_any_colour_adds_up_and_passes_on(card):
    g = facing_draw_two({1: [card, "r5", "rskip"]})
    assert sorted(g.legal_moves()) == [card, "take"]
    g.apply(card)
    assert (g.actor, g.phase, g.pending, g.top) == (2, "penalty", 4, card)
    assert g.colour == {"b": "blue", "r": "red"}[card[0]]
    assert g.stat("pend_kind") == 2
    assert hand(g, 1) == ["r5", "rskip"]
    assert g.hand_size(2) == 2
    assert g.stat("last") == 1
    assert g.stat("max_stack") == 2
    # stacking is a turn and a card played; nobody drew
    assert g.counters() == counters(turns=1, cards_played=1)


def test_third_draw_two_makes_six():
    g = facing_draw_two({2: ["gdraw2", "g1"]}, pending=4, actor=2, top="bdraw2")
    g.apply("gdraw2")
    assert (g.actor, g.phase, g.pending, g.colour) == (3, "penalty", 6, "green")
    assert g.stat("max_stack") == 3


def test_taking_the_total_is_a_turn_and_the_taker_loses_it():
    g = facing_draw_two({2: ["gdraw2", "g1"]}, pending=4, actor=2, top="bdraw2")
    g.apply("take")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (3, "turn", 0, "bdraw2", "blue")
    assert g.stat("pend_kind") == 0
    assert hand(g, 2) == ["b1"] * 4 + ["g1", "gdraw2"]
    assert g.counters() == counters(turns=1, penalty_drawn=4)
    # the next player plays normally on the Draw Two (no pending penalty)
    assert "take" not in g.legal_moves()


def test_taking_counter_clockwise_passes_to_the_previous_seat():
    g = facing_draw_two({1: ["g1"]}, pending=2, actor=1, direction=-1)
    g.apply("take")
    assert (g.actor, g.phase, g.direction) == (0, "turn", -1)
    assert g.hand_size(1) == 3


def test_no_voluntary_draw_and_no_other_card_while_facing_a_penalty():
    g = facing_draw_two({1: ["rskip", "rreverse", "r5", "wild"]})
    assert g.legal_moves() == ["take"]
    snap = snapshot(g)
    for move in ("draw", "rskip", "rreverse", "r5", "wild:red", "pass", "accept"):
        with pytest.raises(IllegalMove):
            g.apply(move)
    assert_unchanged(g, snap)


def test_wd4_never_on_a_draw_two():
    # legal under the colour rule (no red held), but a +4 does not go on a +2
    g = facing_draw_two({1: ["wild4", "b5"]})
    assert g.legal_moves() == ["take"]
    snap = snapshot(g)
    with pytest.raises(IllegalMove):
        g.apply("wild4:blue")
    assert_unchanged(g, snap)


# ============================================================ Wild Draw Four stacks


def test_wd4_played_opens_challenge_then_accept_leaves_it_pending():
    g = craft(hands={0: ["g3", "wild4"], 1: ["wild4", "b2"]}, draw=["b1"] * 6)
    g.apply("wild4:green")
    assert (g.actor, g.phase, g.pending, g.colour) == (1, "challenge", 4, "green")
    g.apply("accept")
    # under stacking the victim now stacks or takes; nothing drawn, no turn yet
    assert (g.actor, g.phase, g.pending, g.colour) == (1, "penalty", 4, "green")
    assert g.hand_size(1) == 2
    assert sorted(g.legal_moves()) == ["take"] + [f"wild4:{c}" for c in WILDS]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_wd4_on_wd4_legal_under_the_colour_rule_adds_up():
    g = facing_wd4({1: ["r5", "wild4"]}, colour="green")
    assert sorted(g.legal_moves()) == ["take"] + [f"wild4:{c}" for c in WILDS]
    g.apply("wild4:blue")
    # the last player names the colour; the victim may challenge the new +4
    assert (g.actor, g.phase, g.pending, g.colour, g.top) == (2, "challenge", 8, "blue", "wild4")
    assert g.stat("bluff") == 0
    assert g.stat("last") == 1
    assert hand(g, 1) == ["r5"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_wd4_on_wd4_without_challenge_rule_goes_straight_to_the_next_victim():
    g = facing_wd4({1: ["r5", "wild4"]}, colour="green", rules_=stacking(wd4_challenge=False))
    g.apply("wild4:yellow")
    assert (g.actor, g.phase, g.pending, g.colour) == (2, "penalty", 8, "yellow")


def test_wd4_on_wd4_holding_the_named_colour_is_offered_as_a_bluff():
    g = facing_wd4({1: ["g5", "wild4"]}, colour="green")
    assert sorted(g.legal_moves()) == ["take"] + [f"wild4:{c}" for c in WILDS]
    g.apply("wild4:red")
    assert g.stat("bluff") == 1
    assert (g.actor, g.phase, g.pending) == (2, "challenge", 8)


def test_wd4_on_wd4_holding_the_named_colour_not_offered_without_bluffing():
    g = facing_wd4({1: ["g5", "wild4"]}, colour="green", rules_=stacking(wd4_bluff=False))
    assert g.legal_moves() == ["take"]
    snap = snapshot(g)
    with pytest.raises(IllegalMove):
        g.apply("wild4:red")
    assert_unchanged(g, snap)


def test_draw_two_never_on_a_wd4():
    # not even a Draw Two of the named colour (stack_cards=same)
    g = facing_wd4({1: ["gdraw2", "rdraw2"]}, colour="green")
    assert g.legal_moves() == ["take"]
    snap = snapshot(g)
    for move in ("gdraw2", "rdraw2"):
        with pytest.raises(IllegalMove):
            g.apply(move)
    assert_unchanged(g, snap)


def test_taking_a_wd4_stack():
    g = facing_wd4({2: ["g1"]}, pending=8, actor=2, colour="blue")
    g.apply("take")
    assert (g.actor, g.phase, g.pending, g.colour) == (3, "turn", 0, "blue")
    assert hand(g, 2) == ["b1"] * 8 + ["g1"]
    assert g.counters() == counters(turns=1, penalty_drawn=8)


def test_caught_illegal_wd4_in_a_stack_costs_the_offender_the_whole_total():
    g = craft(
        hands={1: ["g5"], 2: ["r1", "y1"]},
        draw=["b1"] * 12,
        discard=["r3", "wild4"],
        actor=2,
        colour="red",
        phase="challenge",
        pending=8,
        pending_kind=4,
        last=1,
        bluff=1,
        stack_len=2,
        max_stack=2,
    )
    g.apply("challenge")
    # the victim plays on in the named colour; the offender draws all 8
    assert (g.actor, g.phase, g.pending, g.colour, g.top) == (2, "turn", 0, "red", "wild4")
    assert hand(g, 1) == ["b1"] * 8 + ["g5"]
    assert hand(g, 2) == ["r1", "y1"]
    assert g.counters() == counters(penalty_drawn=8, challenges=1)
    assert sorted(g.legal_moves()) == ["draw", "r1"]


def test_stacked_bluff_caught_end_to_end():
    g = facing_wd4({1: ["g5", "wild4"], 2: ["r1", "y1"]}, colour="green")
    g.apply("wild4:red")
    g.apply("challenge")
    assert (g.actor, g.phase, g.colour) == (2, "turn", "red")
    assert hand(g, 1) == ["b1"] * 8 + ["g5"]
    assert g.hand_size(2) == 2
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=8, challenges=1)


def test_accepting_a_stacked_wd4_then_stacking_again():
    g = craft(
        hands={2: ["g1", "wild4"]},
        draw=["b1"] * 12,
        discard=["r3", "wild4"],
        actor=2,
        colour="blue",
        phase="challenge",
        pending=8,
        pending_kind=4,
        last=1,
        bluff=0,
        stack_len=2,
        max_stack=2,
    )
    g.apply("accept")
    assert (g.actor, g.phase, g.pending) == (2, "penalty", 8)
    assert g.counters() == counters()  # accepting alone is not a turn
    g.apply("wild4:yellow")
    assert (g.actor, g.phase, g.pending, g.colour) == (3, "challenge", 12, "yellow")
    assert g.stat("max_stack") == 3
    assert g.counters() == counters(turns=1, cards_played=1)


# ============================================================ stacks ending a round


END_HANDS = {0: ["b9", "wild"], 2: ["gskip"], 3: ["y0", "y3"]}  # 59 + 20 + 3 = 82


def test_last_card_stacked_draw_two_next_player_draws_the_whole_total():
    g = facing_draw_two({1: ["bdraw2"], **END_HANDS}, pending=2, draw=["b7"] * 8)
    g.apply("bdraw2")
    assert g.over and g.phase == "over" and g.winner == 1
    assert hand(g, 2) == ["b7"] * 4 + ["gskip"]
    assert g.winner_points() == 82 + 28
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=4)


def test_last_card_stacked_wd4_next_player_draws_the_whole_total():
    g = facing_wd4({1: ["wild4"], **END_HANDS}, pending=8, draw=["b7"] * 16)
    g.apply("wild4:red")
    assert g.over and g.winner == 1 and g.phase == "over"
    assert hand(g, 2) == ["b7"] * 12 + ["gskip"]
    assert g.winner_points() == 82 + 12 * 7
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=12)


def test_last_card_draw_two_from_a_turn_under_stacking():
    g = craft(hands={1: ["rdraw2"], **END_HANDS}, draw=["b7"] * 8, actor=1)
    g.apply("rdraw2")
    assert g.over and g.winner == 1
    assert g.hand_size(2) == 3
    assert g.winner_points() == 82 + 14


# ============================================================ two players


def test_two_players_stack_goes_back_and_forth():
    g = craft(
        stacking(players=2), hands={0: ["rdraw2", "g1"], 1: ["bdraw2", "b4"]}, draw=["b1"] * 8
    )
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.pending) == (1, "penalty", 2)
    g.apply("bdraw2")
    assert (g.actor, g.phase, g.pending) == (0, "penalty", 4)
    g.apply("take")
    assert (g.actor, g.phase, g.pending) == (1, "turn", 0)
    assert hand(g, 0) == ["b1"] * 4 + ["g1"]
    assert g.counters() == counters(turns=3, cards_played=2, penalty_drawn=4)


# ============================================================ first flipped card


@pytest.mark.parametrize("players", [4, 2])
def test_first_flipped_draw_two_cannot_be_stacked_on(players):
    r = stacking(players=players)
    hits = 0
    for seed in range(400):
        g = Game(r, seed=seed)
        if g.top[1:] != "draw2":
            continue
        hits += 1
        assert (g.actor, g.phase, g.pending, g.direction) == (1, "turn", 0, 1)
        assert g.stat("pend_kind") == 0
        assert [g.hand_size(p) for p in range(players)] == [9] + [7] * (players - 1)
        assert "take" not in g.legal_moves()
        assert g.counters() == counters(penalty_drawn=2)
    assert hits > 0


# ============================================================ conservation


@pytest.mark.parametrize("players", [2, 4, 6])
def test_card_conservation_with_stacking(players):
    deck = deck_counter()
    r = stacking(players=players)
    seats = [parse_strategy("random:bluff=0.5,challenge=0.5")] * players
    longest = 0
    for seed in range(10):
        g = Game(r, seats=seats, seed=seed)
        if g.phase == "colour":
            g.apply("colour:blue")
        steps = 0
        while not g.over and steps < 3000:
            g.step()
            steps += 1
            assert g.total_cards() == 108
            if g.phase == "penalty":
                assert g.pending > 0 and g.pending % 2 == 0
        cards = g.draw_pile() + g.discard_pile()
        for p in range(players):
            cards += g.hand(p)
        assert Counter(cards) == deck
        assert g.over and g.hand_size(g.winner) == 0
        assert g.winner_points() == sum(g.hand_points(p) for p in range(players))
        longest = max(longest, g.stat("max_stack"))
    assert longest >= 2  # some stack really happened
