"""Scenario tests of the table house rules: ``color_rotation``, ``draw_ten``,
``downpour``, ``wd4_challenge_takeback``, ``uno_in_center`` and ``silent_twos``
(docs/rules.md#rule-color_rotation, docs/rules.md#rule-draw_ten,
docs/rules.md#rule-downpour, docs/rules.md#rule-wd4_challenge_takeback,
docs/rules.md#rule-uno_in_center, docs/rules.md#rule-silent_twos).

Colour rotation: a Wild or Wild Draw Four from a hand sets the next colour of
red -> blue -> green -> yellow -> red clockwise, the previous one counter-clockwise;
the colour the move names is ignored; a first flipped Wild still has its colour
chosen. Draw ten: a 0 (``zeros``) or a blank wild (``blanks``) makes the next
player draw 10 and lose the turn; a first flipped 0 acts like a first Draw Two.
Downpour: every other player draws 1 (or 2), the player names a colour and the
next player plays normally. Takeback: a caught bluffer draws, takes the Wild Draw
Four back (top and colour revert) and misses its next turn.
"""

from __future__ import annotations

from functools import partial

import pytest
import scenario
from scenario import counters, hand, rules

from unosim.runs.game import Game

CYCLE = ["red", "blue", "green", "yellow"]  # clockwise order of colour rotation
craft = partial(scenario.craft, draw=("b1",) * 40)  # a longer draw pile than the default 24


ROT = rules("color-rotation")


# ================================================================== colour rotation


@pytest.mark.parametrize("i", range(4))
def test_rotation_clockwise_wild_takes_the_next_colour(i):
    here, nxt = CYCLE[i], CYCLE[(i + 1) % 4]
    g = craft(ROT, hands={0: ["wild", "y9"]}, discard=["r3", "wild"], colour=here)
    # whatever colour the move names is ignored
    named = next(c for c in CYCLE if c not in (here, nxt))
    g.apply(f"wild:{named}")
    assert (g.actor, g.phase, g.top, g.colour) == (1, "turn", "wild", nxt)


@pytest.mark.parametrize("i", range(4))
def test_rotation_counter_clockwise_wild_takes_the_previous_colour(i):
    here, prev = CYCLE[i], CYCLE[(i - 1) % 4]
    g = craft(ROT, hands={0: ["wild", "y9"]}, discard=["r3", "wild"], colour=here, direction=-1)
    g.apply(f"wild:{here}")
    assert (g.actor, g.phase, g.colour) == (3, "turn", prev)


def test_rotation_examples_of_the_source():
    # 000: clockwise red -> blue; counter-clockwise yellow -> green
    g = craft(ROT, hands={0: ["wild", "y9"]}, colour="red")
    g.apply("wild:red")
    assert g.colour == "blue"
    g = craft(ROT, hands={0: ["wild", "b9"]}, colour="yellow", discard=["y3"], direction=-1)
    g.apply("wild:yellow")
    assert g.colour == "green"


def test_rotation_wild_draw_four():
    g = craft(ROT, hands={0: ["wild4", "g9"]}, colour="red")
    g.apply("wild4:yellow")
    assert (g.actor, g.phase, g.colour, g.pending) == (1, "challenge", "blue", 4)
    g.apply("accept")
    assert (g.actor, g.phase, g.colour) == (2, "turn", "blue")
    assert g.hand_size(1) == 6


def test_rotation_wild_draw_four_counter_clockwise():
    g = craft(ROT, hands={0: ["wild4", "g9"]}, colour="red", direction=-1)
    g.apply("wild4:red")
    assert (g.actor, g.phase, g.colour) == (3, "challenge", "yellow")


def test_rotation_legality_of_wd4_reads_the_colour_before_the_card():
    # holding green: not a bluff on red even though the rotation will make it blue
    g = craft(ROT, hands={0: ["wild4", "g9"]}, colour="red")
    g.apply("wild4:red")
    assert g.stat("bluff") == 0


def test_rotation_two_players_stays_clockwise_after_a_reverse():
    g = craft(rules("color-rotation", players=2), hands={0: ["rreverse", "wild", "g1"]})
    g.apply("rreverse")
    assert (g.actor, g.direction) == (0, 1)
    g.apply("wild:green")
    assert g.colour == "blue"


def test_rotation_first_flipped_wild_still_has_its_colour_chosen():
    hits = 0
    for seed in range(400):
        g = Game(ROT, seed=seed)
        if g.top != "wild":
            continue
        hits += 1
        assert (g.phase, g.actor) == ("colour", 0)
        g.apply("colour:green")
        assert (g.phase, g.actor, g.colour) == ("turn", 0, "green")
    assert hits > 0


def test_without_rotation_the_named_colour_stands():
    g = craft(rules(), hands={0: ["wild", "y9"]}, colour="red")
    g.apply("wild:green")
    assert g.colour == "green"


# ======================================================================== draw ten


ZEROS = rules(draw_ten="zeros")
BLANKS = rules(draw_ten="blanks", deck__blanks=4)


def test_zero_is_a_draw_ten_of_its_colour():
    g = craft(ZEROS, hands={0: ["r0", "g1"], 1: ["y1", "r4"]})
    g.apply("r0")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (2, "turn", 0, "r0", "red")
    assert hand(g, 1) == ["b1"] * 10 + ["r4", "y1"]
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=10)


def test_zero_matches_by_colour_or_number_like_any_coloured_card():
    g = craft(ZEROS, hands={0: ["b0", "g1"]}, discard=["r0"])
    assert sorted(g.legal_moves()) == ["b0", "draw"]
    g = craft(ZEROS, hands={0: ["b0", "g1"]})
    assert g.legal_moves() == ["draw"]


def test_zero_without_draw_ten_is_a_plain_number():
    g = craft(rules(), hands={0: ["r0", "g1"]})
    g.apply("r0")
    assert (g.actor, g.phase) == (1, "turn")
    assert g.hand_size(1) == 2


def test_last_card_zero_still_makes_the_next_player_draw_ten():
    g = craft(ZEROS, hands={0: ["r0"], 1: ["y1"], 2: ["b2"], 3: ["g3"]}, draw=["b7"] * 12)
    g.apply("r0")
    assert g.over and g.winner == 0
    assert hand(g, 1) == ["b7"] * 10 + ["y1"]
    assert g.winner_points() == 1 + 70 + 2 + 3


@pytest.mark.parametrize("stacking", ["none", "progressive", "deflect"])
def test_first_flipped_zero_acts_like_a_first_draw_two(stacking):
    r = rules(draw_ten="zeros", stacking=stacking)
    hits = 0
    for seed in range(600):
        g = Game(r, seed=seed)
        if g.top[1:] != "0":
            continue
        hits += 1
        assert (g.actor, g.phase, g.pending, g.direction) == (1, "turn", 0, 1)
        assert [g.hand_size(p) for p in range(4)] == [17, 7, 7, 7]
        assert g.counters() == counters(penalty_drawn=10)
    assert hits > 0


def test_blank_is_a_wild_draw_ten():
    g = craft(BLANKS, hands={0: ["blank", "r5", "g1"], 1: ["y1", "r4"]})
    moves = g.legal_moves()
    assert {"blank:red", "blank:yellow", "blank:green", "blank:blue", "r5"} <= set(moves)
    g.apply("blank:green")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (2, "turn", 0, "blank", "green")
    assert hand(g, 1) == ["b1"] * 10 + ["r4", "y1"]
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=10)


def test_blank_without_draw_ten_is_a_plain_wild():
    g = craft(rules("edition112"), hands={0: ["blank", "g1"]})
    g.apply("blank:green")
    assert (g.actor, g.phase, g.colour) == (1, "turn", "green")
    assert g.hand_size(1) == 2


def test_first_flipped_blank_is_put_back():
    r = rules(draw_ten="blanks", deck__blanks=8)
    for seed in range(200):
        assert Game(r, seed=seed).top != "blank"


# ========================================================================= downpour


H2O = rules("uno-h2o")


@pytest.mark.parametrize(("card", "k"), [("downpour1", 1), ("downpour2", 2)])
def test_downpour_every_other_player_draws_and_the_next_plays_normally(card, k):
    g = craft(H2O, hands={0: [card, "g1"], 1: ["y1"], 2: ["y2"], 3: ["y3"]})
    moves = g.legal_moves()
    assert {f"{card}:{c}" for c in CYCLE} <= set(moves)
    g.apply(f"{card}:blue")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (1, "turn", 0, card, "blue")
    for q in (1, 2, 3):
        assert g.hand_size(q) == 1 + k
    assert hand(g, 0) == ["g1"]
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=3 * k)


def test_downpour_counter_clockwise_next_player_plays():
    g = craft(H2O, hands={0: ["downpour2", "g1"]}, direction=-1)
    g.apply("downpour2:yellow")
    assert (g.actor, g.phase, g.colour) == (3, "turn", "yellow")
    assert [g.hand_size(q) for q in range(4)] == [1, 4, 4, 4]


def test_downpour_is_not_a_bluff_and_needs_no_colour_rule():
    g = craft(H2O, hands={0: ["downpour2", "r9"]})
    assert "downpour2:red" in g.legal_moves()
    g.apply("downpour2:red")
    assert (g.actor, g.phase) == (1, "turn")


# =========================================================== challenge with takeback


TAKEBACK = rules(wd4_challenge_takeback=True)


def bluff_pending(rules_=TAKEBACK, hands=None):
    """Seat 0 played a Wild Draw Four on a red 3 holding red (a bluff), naming green."""
    hands = hands or {0: ["r9", "g1"], 1: ["r1", "y1", "b2"], 2: ["r2", "y2"], 3: ["r4", "y4"]}
    return craft(rules_, hands=hands, discard=["b3", "r3", "wild4"], actor=1, colour="green",
                 phase="challenge", pending=4, pending_kind=4, last=0, bluff=1, stack_len=1,
                 max_stack=1, prev_colour=0, played=1, turns=1)


def test_takeback_guilty_offender_draws_takes_the_card_back_top_and_colour_revert():
    g = bluff_pending()
    g.apply("challenge")
    assert (g.actor, g.phase, g.pending, g.top, g.colour) == (1, "turn", 0, "r3", "red")
    assert hand(g, 0) == ["b1"] * 4 + ["g1", "r9", "wild4"]
    assert g.discard_pile() == ["b3", "r3"]
    assert hand(g, 1) == ["b2", "r1", "y1"]
    assert g.counters() == counters(turns=1, cards_played=0, penalty_drawn=4, challenges=1)
    assert sorted(g.legal_moves()) == ["draw", "r1"]


def test_takeback_after_a_reshuffle_still_reverts_to_the_card_below():
    # the draw pile holds 2 cards: the offender's draw of 4 reshuffles the discard pile
    g = bluff_pending()
    g.set_piles(draw=["b1", "b1"], discard=["b3", "r3", "wild4"])
    total = g.total_cards()
    g.apply("challenge")
    assert "wild4" in hand(g, 0)
    assert g.total_cards() == total
    # the card below the Wild Draw Four is on top again, and really on the pile
    assert (g.top, g.colour) == ("r3", "red")
    assert g.discard_pile()[-1:] == ["r3"]


def test_takeback_offender_misses_its_next_turn():
    g = bluff_pending(hands={0: ["r9", "g1"], 1: ["r1", "r6", "b2"], 2: ["r2", "r7", "y2"],
                             3: ["r4", "r8", "y4"]})
    g.apply("challenge")
    g.apply("r1")
    g.apply("r2")
    assert g.actor == 3
    g.apply("r4")
    # seat 0 would be next: it misses that turn
    assert (g.actor, g.phase) == (1, "turn")
    assert g.hand_size(0) == 7
    g.apply("r6")
    g.apply("r7")
    g.apply("r8")
    # the miss is used up
    assert (g.actor, g.phase) == (0, "turn")


def test_without_takeback_the_offender_keeps_its_turns_and_the_colour_stands():
    g = bluff_pending(rules())
    g.apply("challenge")
    assert (g.actor, g.phase, g.top, g.colour) == (1, "turn", "wild4", "green")
    assert hand(g, 0) == ["b1"] * 4 + ["g1", "r9"]
    assert g.discard_pile() == ["b3", "r3", "wild4"]
    assert g.legal_moves() == ["draw"]  # seat 1 holds no green card


def test_takeback_innocent_challenger_draws_six():
    g = bluff_pending()
    g.set_turn(1, colour="green", phase="challenge", pending=4, pending_kind=4, last=0, bluff=0)
    g.apply("challenge")
    assert (g.actor, g.phase, g.top, g.colour) == (2, "turn", "wild4", "green")
    assert g.hand_size(1) == 9
    assert hand(g, 0) == ["g1", "r9"]


def test_takeback_two_players():
    r = rules(wd4_challenge_takeback=True, players=2)
    g = craft(r, hands={0: ["r9", "wild4", "g1"], 1: ["r1", "r2", "b2"]})
    g.apply("wild4:green")
    g.apply("challenge")
    assert (g.actor, g.phase, g.top, g.colour) == (1, "turn", "r3", "red")
    g.apply("r1")
    # seat 0 misses its turn: seat 1 plays again
    assert (g.actor, g.phase) == (1, "turn")
    g.apply("r2")
    assert (g.actor, g.phase) == (0, "turn")


# ==================================================================== UNO in centre


def test_uno_in_center_two_players_the_other_draws_two():
    g = craft(rules("uno-in-center", players=2), hands={0: ["r5", "g1"], 1: ["y1"]})
    g.apply("r5")
    assert (g.actor, g.phase) == (1, "turn")
    assert hand(g, 1) == ["b1", "b1", "y1"]
    assert g.hand_size(0) == 1
    assert g.stat("uno_center") == 2  # cards drawn for "UNO in the centre"
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2)


def test_uno_in_center_a_random_other_player_draws_two():
    hit = set()
    for seed in range(60):
        g = craft(rules("uno-in-center"), hands={0: ["r5", "g1"]}, seed=seed)
        g.apply("r5")
        sizes = [g.hand_size(q) for q in range(4)]
        assert sizes[0] == 1
        grown = [q for q in (1, 2, 3) if sizes[q] == 4]
        assert len(grown) == 1 and sum(sizes[1:]) == 8
        assert g.stat("uno_center") == 2  # cards drawn
        assert g.counters()["penalty_drawn"] == 2
        hit.add(grown[0])
    assert hit == {1, 2, 3}


def test_uno_in_center_only_on_the_call_not_on_more_cards():
    g = craft(rules("uno-in-center"), hands={0: ["r5", "g1", "g2"]})
    g.apply("r5")
    assert [g.hand_size(q) for q in range(4)] == [2, 2, 2, 2]
    assert g.stat("uno_center") == 0


def test_uno_in_center_forgotten_call_is_penalised_instead():
    r = rules("uno-in-center", uno_forget_prob=1.0, uno_catch_prob=1.0)
    g = craft(r, hands={0: ["r5", "g1"]})
    g.apply("r5")
    assert [g.hand_size(q) for q in range(4)] == [3, 2, 2, 2]
    assert g.stat("uno_center") == 0
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2, uno_caught=1)


def test_without_uno_in_center_the_call_costs_nobody():
    g = craft(rules(), hands={0: ["r5", "g1"]})
    g.apply("r5")
    assert [g.hand_size(q) for q in range(4)] == [1, 2, 2, 2]


# ====================================================================== silent twos


def test_silent_twos_certain_every_other_player_draws_two():
    g = craft(rules(silent_twos=1.0), hands={0: ["r2", "g1"]})
    g.apply("r2")
    assert (g.actor, g.phase) == (1, "turn")
    assert [g.hand_size(q) for q in range(4)] == [1, 4, 4, 4]
    assert g.stat("silent") == 3
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=6)


def test_silent_twos_never_nobody_draws():
    g = craft(rules(silent_twos=0.0), hands={0: ["r2", "g1"]})
    g.apply("r2")
    assert [g.hand_size(q) for q in range(4)] == [1, 2, 2, 2]
    assert g.stat("silent") == 0


def test_silent_twos_only_after_a_two_not_a_draw_two():
    g = craft(rules(silent_twos=1.0), hands={0: ["r5", "rdraw2", "g1"]})
    g.apply("r5")
    assert [g.hand_size(q) for q in range(4)] == [2, 2, 2, 2]
    g = craft(rules(silent_twos=1.0), hands={0: ["rdraw2", "g1"]})
    g.apply("rdraw2")
    assert [g.hand_size(q) for q in range(4)] == [1, 4, 2, 2]  # only the Draw Two's victim
    assert g.stat("silent") == 0


def test_silent_twos_half_breaks_vary_over_seeds():
    seen = set()
    for seed in range(60):
        g = craft(rules(silent_twos=0.5), hands={0: ["r2", "g1"]}, seed=seed)
        g.apply("r2")
        broken = g.stat("silent")
        sizes = [g.hand_size(q) for q in range(4)]
        assert sum(sizes[1:]) == 6 + 2 * broken
        assert all(s in (2, 4) for s in sizes[1:])
        assert g.counters()["penalty_drawn"] == 2 * broken
        seen.add(broken)
    assert seen == {0, 1, 2, 3}


def test_silent_twos_last_card_two_ends_the_round_without_silence():
    g = craft(rules(silent_twos=1.0), hands={0: ["r2"]})
    g.apply("r2")
    assert g.over and g.winner == 0
    assert g.stat("silent") == 0
    assert g.winner_points() == 17 + 13 + 14
