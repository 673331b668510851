"""Scenario tests of the official rules (docs/rules.md#the-game-in-brief, the keys' entries
in docs/rules.md#every-key, and the counters of docs/metrics.md#per-round).

Each test crafts a state through the Python ``Game`` API, applies one move (a few
for the sequences) and checks the exact result: whose move it is, the phase, the
direction, the colour, the top card, the hands, the pending penalty and the round
counters. Each would fail if the rule it names were missing or wrong.

The draw pile has no order (a draw takes a uniformly random card of it), so a test
that needs to know what is drawn fills the pile with copies of one card.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

import pytest
import scenario
from scenario import FILLER, assert_unchanged, counters, deck_counter, hand, rules, snapshot

from unosim.runs.game import Game, IllegalMove
from unosim.simulate.cards import POINTS, parse_card
from unosim.strategies.registry import parse_strategy

COLOUR_OF = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
craft = partial(scenario.craft, draw=())  # the draw pile is empty unless a test fills it


def points_of(cards: list[str]) -> int:
    return int(sum(POINTS[parse_card(c)] for c in cards))


# ===================================================================== matching


def test_colour_match_plays_and_passes_on():
    g = craft(hands={0: ["r7", "g5"]})
    g.apply("r7")
    assert (g.actor, g.phase, g.direction) == (1, "turn", 1)
    assert (g.top, g.colour) == ("r7", "red")
    assert hand(g, 0) == ["g5"]
    assert g.discard_pile() == ["r3", "r7"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_number_match_changes_colour():
    g = craft(hands={0: ["g3", "g5"]})
    assert sorted(g.legal_moves()) == ["draw", "g3"]
    g.apply("g3")
    assert (g.actor, g.top, g.colour) == (1, "g3", "green")
    assert hand(g, 0) == ["g5"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_symbol_match_skip_on_skip():
    g = craft(hands={0: ["gskip", "g5"]}, discard=["r3", "rskip"])
    assert sorted(g.legal_moves()) == ["draw", "gskip"]
    g.apply("gskip")
    # a Skip of another colour matches by symbol and skips seat 1
    assert (g.actor, g.phase, g.top, g.colour) == (2, "turn", "gskip", "green")
    assert hand(g, 0) == ["g5"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_symbol_does_not_match_a_different_symbol():
    g = craft(hands={0: ["greverse", "gdraw2", "g5"]}, discard=["rskip"])
    assert g.legal_moves() == ["draw"]


def test_wild_is_playable_even_holding_a_match_and_names_any_colour():
    g = craft(hands={0: ["r5", "wild", "g1"]})
    moves = g.legal_moves()
    for c in ("red", "yellow", "green", "blue"):
        assert f"wild:{c}" in moves
    assert "r5" in moves
    g.apply("wild:blue")
    assert (g.actor, g.phase, g.top, g.colour) == (1, "turn", "wild", "blue")
    assert hand(g, 0) == ["g1", "r5"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_wild_may_name_the_current_colour():
    g = craft(hands={0: ["wild", "g1"]})
    g.apply("wild:red")
    assert (g.top, g.colour, g.actor) == ("wild", "red", 1)


def test_after_a_wild_only_the_named_colour_matches():
    g = craft(hands={1: ["b2", "r2", "g9"]}, discard=["r3", "wild"], actor=1, colour="blue")
    # nothing matches the Wild by number: r2 is not playable, b2 is
    assert sorted(g.legal_moves()) == ["b2", "draw"]
    with pytest.raises(IllegalMove):
        g.apply("r2")
    g.apply("b2")
    assert (g.actor, g.top, g.colour) == (2, "b2", "blue")


def test_unmatched_card_is_illegal_and_changes_nothing():
    g = craft(hands={0: ["g7", "b8"]})
    snap = snapshot(g)
    with pytest.raises(IllegalMove):
        g.apply("g7")
    assert_unchanged(g, snap)


def test_card_not_held_is_illegal():
    g = craft(hands={0: ["g7"]})
    snap = snapshot(g)
    with pytest.raises(IllegalMove):
        g.apply("r5")
    with pytest.raises(IllegalMove):
        g.apply("wild:red")
    assert_unchanged(g, snap)


@pytest.mark.parametrize("move", ["take", "challenge", "accept", "pass", "colour:red"])
def test_moves_of_other_phases_are_illegal_on_a_turn(move):
    g = craft(hands={0: ["r7"]})
    snap = snapshot(g)
    with pytest.raises(IllegalMove):
        g.apply(move)
    assert_unchanged(g, snap)


# ============================================================ Wild Draw Four legality


def test_wd4_legal_without_a_card_of_the_current_colour():
    # a matching number (g3) and a Wild do not forbid it
    g = craft(hands={0: ["g3", "wild", "wild4"]})
    moves = g.legal_moves()
    assert "wild4:green" in moves
    g.apply("wild4:green")
    assert g.stat("bluff") == 0
    assert (g.actor, g.phase, g.pending, g.colour, g.top) == (1, "challenge", 4, "green", "wild4")
    assert g.stat("last") == 0


def test_wd4_holding_the_colour_is_offered_as_a_bluff_by_default():
    g = craft(hands={0: ["r9", "wild4"]})
    assert "wild4:blue" in g.legal_moves()
    g.apply("wild4:blue")
    assert g.stat("bluff") == 1
    assert (g.actor, g.phase, g.pending, g.colour) == (1, "challenge", 4, "blue")


def test_wd4_holding_the_colour_is_not_offered_without_bluffing():
    g = craft(rules("no-bluff"), hands={0: ["r9", "wild4"]})
    assert sorted(g.legal_moves()) == ["draw", "r9"]
    snap = snapshot(g)
    with pytest.raises(IllegalMove):
        g.apply("wild4:blue")
    assert_unchanged(g, snap)


def test_wd4_colour_rule_reads_the_named_colour_after_a_wild():
    # top is a Wild naming yellow; holding red only, the Wild Draw Four is legal
    g = craft(
        rules(wd4_bluff=False), hands={0: ["r9", "wild4"]}, discard=["r3", "wild"], colour="yellow"
    )
    assert sorted(g.legal_moves()) == ["draw"] + [
        f"wild4:{c}" for c in ("blue", "green", "red", "yellow")
    ]
    g2 = craft(
        rules(wd4_bluff=False), hands={0: ["y9", "wild4"]}, discard=["r3", "wild"], colour="yellow"
    )
    assert sorted(g2.legal_moves()) == ["draw", "y9"]


# ========================================================================= draws


def test_draw_unplayable_card_passes_the_turn():
    g = craft(hands={0: ["g7"]}, draw=["b1"] * 5)
    g.apply("draw")
    assert (g.actor, g.phase, g.top, g.colour) == (1, "turn", "r3", "red")
    assert hand(g, 0) == ["b1", "g7"]
    assert g.draw_pile() == ["b1"] * 4
    assert g.counters() == counters(turns=1, drawn_no_play=1)


def test_draw_playable_card_may_be_played():
    g = craft(hands={0: ["g7"]}, draw=["r9"] * 5)
    g.apply("draw")
    assert (g.actor, g.phase) == (0, "drawn")
    assert sorted(g.legal_moves()) == ["pass", "r9"]
    assert hand(g, 0) == ["g7", "r9"]
    g.apply("r9")
    assert (g.actor, g.phase, g.top, g.colour) == (1, "turn", "r9", "red")
    assert hand(g, 0) == ["g7"]
    # drawing and then playing the drawn card is one turn
    assert g.counters() == counters(turns=1, cards_played=1, drawn_no_play=1)


def test_draw_playable_card_may_be_kept():
    g = craft(hands={0: ["g7"]}, draw=["r9"] * 5)
    g.apply("draw")
    g.apply("pass")
    assert (g.actor, g.phase, g.top) == (1, "turn", "r3")
    assert hand(g, 0) == ["g7", "r9"]
    assert g.counters() == counters(turns=1, drawn_no_play=1)


def test_drawn_wild_may_be_played_naming_a_colour():
    g = craft(hands={0: ["g7"]}, draw=["wild"] * 3)
    g.apply("draw")
    assert g.phase == "drawn"
    assert sorted(g.legal_moves()) == ["pass"] + [
        f"wild:{c}" for c in ("blue", "green", "red", "yellow")
    ]
    g.apply("wild:green")
    assert (g.actor, g.top, g.colour) == (1, "wild", "green")


@pytest.mark.parametrize(
    "top, colour, drawn",
    [
        ("r3", None, "g3"),
        ("rskip", None, "gskip"),
        ("rdraw2", None, "bdraw2"),
        ("wild", "blue", "b1"),
    ],
)
def test_drawn_card_matching_by_number_symbol_or_named_colour_is_playable(top, colour, drawn):
    g = craft(hands={0: ["y8"]}, draw=[drawn] * 3, discard=["r4", top], colour=colour)
    g.apply("draw")
    assert (g.actor, g.phase) == (0, "drawn")
    assert sorted(g.legal_moves()) == sorted([drawn, "pass"])
    g.apply(drawn)
    assert (g.top, g.colour) == (drawn, {"g": "green", "b": "blue"}[drawn[0]])


def test_drawn_card_not_matching_a_named_colour_passes():
    # after a Wild naming blue, a red card does not match (not even the Wild's "red" past)
    g = craft(hands={0: ["y8"]}, draw=["r1"] * 3, discard=["r4", "wild"], colour="blue")
    g.apply("draw")
    assert (g.actor, g.phase) == (1, "turn")
    assert hand(g, 0) == ["r1", "y8"]


def test_drawn_wd4_holding_the_colour_is_a_bluff_option_only_if_bluffing_is_allowed():
    g = craft(hands={0: ["r5"]}, draw=["wild4"] * 3)
    g.apply("draw")
    assert (g.actor, g.phase) == (0, "drawn")
    assert sorted(g.legal_moves()) == ["pass"] + [
        f"wild4:{c}" for c in ("blue", "green", "red", "yellow")
    ]
    g2 = craft(rules(wd4_bluff=False), hands={0: ["r5"]}, draw=["wild4"] * 3)
    g2.apply("draw")
    assert (g2.actor, g2.phase) == (1, "turn")
    assert hand(g2, 0) == ["r5", "wild4"]


def test_voluntary_draw_allowed_by_default_and_only_the_drawn_card_may_follow():
    g = craft(hands={0: ["r5", "r6"]}, draw=["r9"] * 5)
    assert "draw" in g.legal_moves()
    g.apply("draw")
    assert g.phase == "drawn"
    assert sorted(g.legal_moves()) == ["pass", "r9"]
    with pytest.raises(IllegalMove):
        g.apply("r5")


def test_voluntary_draw_of_unplayable_card_passes():
    g = craft(hands={0: ["r5"]}, draw=["b1"] * 5)
    g.apply("draw")
    assert (g.actor, g.phase) == (1, "turn")
    assert hand(g, 0) == ["b1", "r5"]
    assert g.counters() == counters(turns=1, drawn_no_play=1)


def test_voluntary_draw_false_forbids_drawing_with_a_play():
    g = craft(rules(voluntary_draw=False), hands={0: ["r5", "g7"]}, draw=["b1"] * 5)
    assert g.legal_moves() == ["r5"]
    snap = snapshot(g)
    with pytest.raises(IllegalMove):
        g.apply("draw")
    assert_unchanged(g, snap)


def test_voluntary_draw_false_still_draws_without_a_play():
    g = craft(rules(voluntary_draw=False), hands={0: ["g7"]}, draw=["b1"] * 5)
    assert g.legal_moves() == ["draw"]
    g.apply("draw")
    assert (g.actor, hand(g, 0)) == (1, ["b1", "g7"])


def test_draw_until_playable_stops_at_the_first_playable_card():
    multi = 0
    for seed in range(12):
        g = craft(
            rules("draw-until-playable"), hands={0: ["g7"]}, draw=["b1"] * 6 + ["r9"], seed=seed
        )
        g.apply("draw")
        k = g.counters()["drawn_no_play"]
        assert 1 <= k <= 7
        multi += k > 1
        assert (g.actor, g.phase) == (0, "drawn")
        assert sorted(g.legal_moves()) == ["pass", "r9"]
        assert hand(g, 0) == ["b1"] * (k - 1) + ["g7", "r9"]
        assert g.draw_pile() == ["b1"] * (7 - k)
        assert g.counters() == counters(turns=1, drawn_no_play=k)
        g.apply("r9")
        assert (g.actor, g.top) == (1, "r9")
    assert multi > 0  # the scenario really drew several cards at least once


def test_draw_until_playable_stops_when_both_piles_are_empty():
    g = craft(rules(draw_rule="draw_until_playable"), hands={0: ["g7"]}, draw=["b1"] * 3)
    g.apply("draw")
    assert (g.actor, g.phase) == (1, "turn")
    assert hand(g, 0) == ["b1", "b1", "b1", "g7"]
    assert g.draw_pile() == [] and g.discard_pile() == ["r3"]
    assert g.counters() == counters(turns=1, drawn_no_play=3)


def test_draw_one_draws_a_single_card_even_if_unplayable():
    g = craft(hands={0: ["g7"]}, draw=["b1"] * 6)
    g.apply("draw")
    assert g.counters()["drawn_no_play"] == 1
    assert hand(g, 0) == ["b1", "g7"]


def test_draw_one_pass_ends_the_turn_even_when_the_drawn_card_is_playable():
    g = craft(rules("draw-one-pass"), hands={0: ["g7"]}, draw=["r9"] * 5)
    g.apply("draw")
    assert (g.actor, g.phase, g.top) == (1, "turn", "r3")
    assert hand(g, 0) == ["g7", "r9"]
    assert g.counters() == counters(turns=1, drawn_no_play=1)


# ================================================================ action cards


def test_skip_skips_the_next_player():
    g = craft(hands={0: ["rskip", "g5"]})
    g.apply("rskip")
    assert (g.actor, g.phase, g.direction, g.top, g.colour) == (2, "turn", 1, "rskip", "red")
    assert g.counters() == counters(turns=1, cards_played=1)


def test_skip_counter_clockwise():
    g = craft(hands={1: ["rskip", "g5"]}, actor=1, direction=-1)
    g.apply("rskip")
    assert (g.actor, g.direction) == (3, -1)


def test_reverse_four_players_flips_direction():
    g = craft(hands={1: ["rreverse", "g5"]}, actor=1)
    g.apply("rreverse")
    assert (g.actor, g.phase, g.direction, g.top, g.colour) == (0, "turn", -1, "rreverse", "red")
    assert g.counters() == counters(turns=1, cards_played=1)


def test_reverse_on_reverse_of_other_colour_flips_back():
    g = craft(hands={0: ["breverse", "g5"]}, discard=["rreverse"], direction=-1)
    g.apply("breverse")
    assert (g.actor, g.direction, g.colour) == (1, 1, "blue")


def test_reverse_two_players_acts_as_skip():
    g = craft(rules(players=2), hands={0: ["rreverse", "g5"]})
    g.apply("rreverse")
    # the same player plays again and the direction does not flip
    assert (g.actor, g.phase, g.direction, g.top) == (0, "turn", 1, "rreverse")
    assert g.counters() == counters(turns=1, cards_played=1)


def test_reverse_two_players_without_the_skip_reading_flips():
    g = craft(rules(players=2, two_player_reverse_skips=False), hands={0: ["rreverse", "g5"]})
    g.apply("rreverse")
    assert (g.actor, g.direction) == (1, -1)


def test_skip_two_players_same_player_again():
    g = craft(rules(players=2), hands={0: ["rskip", "g5"]})
    g.apply("rskip")
    assert (g.actor, g.phase, g.direction) == (0, "turn", 1)


def test_draw_two_next_draws_two_and_is_skipped():
    g = craft(hands={0: ["rdraw2", "g5"]}, draw=["b1"] * 5)
    g.apply("rdraw2")
    assert (g.actor, g.phase, g.direction, g.top, g.colour) == (2, "turn", 1, "rdraw2", "red")
    assert g.pending == 0
    assert hand(g, 1) == sorted(FILLER[1] + ["b1", "b1"])
    assert hand(g, 0) == ["g5"]
    # the victim takes no turn
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2)


def test_draw_two_counter_clockwise_hits_the_previous_seat():
    g = craft(hands={0: ["rdraw2", "g5"]}, draw=["b1"] * 5, direction=-1)
    g.apply("rdraw2")
    assert g.actor == 2
    assert g.hand_size(3) == 4 and g.hand_size(1) == 2


def test_draw_two_two_players_same_player_again():
    g = craft(rules(players=2), hands={0: ["rdraw2", "g5"]}, draw=["b1"] * 5)
    g.apply("rdraw2")
    assert (g.actor, g.phase) == (0, "turn")
    assert g.hand_size(1) == 4


# ============================================================ Wild Draw Four + challenge


def test_wd4_accepted_victim_draws_four_and_is_skipped():
    g = craft(hands={0: ["g3", "wild4"]}, draw=["b1"] * 6)
    g.apply("wild4:yellow")
    assert (g.actor, g.phase, g.pending) == (1, "challenge", 4)
    assert sorted(g.legal_moves()) == ["accept", "challenge"]
    g.apply("accept")
    assert (g.actor, g.phase, g.pending, g.colour, g.top) == (2, "turn", 0, "yellow", "wild4")
    assert hand(g, 1) == sorted(FILLER[1] + ["b1"] * 4)
    assert hand(g, 0) == ["g3"]
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=4)


def test_challenge_phase_accept_single_move():
    g = craft(
        hands={0: ["g3"]},
        draw=["b1"] * 6,
        discard=["r3", "wild4"],
        actor=1,
        colour="yellow",
        phase="challenge",
        pending=4,
        pending_kind=4,
        last=0,
        bluff=0,
    )
    g.apply("accept")
    assert (g.actor, g.phase, g.pending, g.colour) == (2, "turn", 0, "yellow")
    assert g.hand_size(1) == 6 and g.hand_size(0) == 1
    assert g.counters() == counters(penalty_drawn=4)


def test_challenge_guilty_offender_draws_four_victim_plays_on():
    g = craft(
        hands={0: ["r9"], 1: ["y2", "g8"]},
        draw=["b1"] * 6,
        discard=["r3", "wild4"],
        actor=1,
        colour="yellow",
        phase="challenge",
        pending=4,
        pending_kind=4,
        last=0,
        bluff=1,
    )
    g.apply("challenge")
    assert (g.actor, g.phase, g.pending, g.colour, g.top) == (1, "turn", 0, "yellow", "wild4")
    assert hand(g, 0) == ["b1"] * 4 + ["r9"]
    assert hand(g, 1) == ["g8", "y2"]
    assert g.counters() == counters(penalty_drawn=4, challenges=1)
    # the victim plays on in the named colour
    assert sorted(g.legal_moves()) == ["draw", "y2"]


def test_challenge_innocent_challenger_draws_six_and_is_skipped():
    g = craft(
        hands={0: ["g9"]},
        draw=["b1"] * 8,
        discard=["r3", "wild4"],
        actor=1,
        colour="yellow",
        phase="challenge",
        pending=4,
        pending_kind=4,
        last=0,
        bluff=0,
    )
    g.apply("challenge")
    assert (g.actor, g.phase, g.pending, g.colour) == (2, "turn", 0, "yellow")
    assert hand(g, 1) == sorted(FILLER[1] + ["b1"] * 6)
    assert hand(g, 0) == ["g9"]
    assert g.counters() == counters(penalty_drawn=6, challenges=1)


def test_challenge_of_a_played_bluff_end_to_end():
    g = craft(hands={0: ["r9", "r1", "wild4"]}, draw=["b1"] * 6)
    g.apply("wild4:green")
    g.apply("challenge")
    assert (g.actor, g.phase, g.colour) == (1, "turn", "green")
    assert hand(g, 0) == ["b1"] * 4 + ["r1", "r9"]
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=4, challenges=1)


def test_challenge_of_a_legal_wd4_end_to_end_counter_clockwise():
    g = craft(hands={0: ["g3", "wild4"]}, draw=["b1"] * 8, direction=-1)
    g.apply("wild4:blue")
    assert g.actor == 3
    g.apply("challenge")
    assert (g.actor, g.phase, g.colour) == (2, "turn", "blue")
    assert g.hand_size(3) == 8


def test_wd4_without_challenge_rule_draws_at_once():
    g = craft(rules(wd4_challenge=False), hands={0: ["r9", "wild4"]}, draw=["b1"] * 6)
    g.apply("wild4:blue")
    assert (g.actor, g.phase, g.pending, g.colour, g.top) == (2, "turn", 0, "blue", "wild4")
    assert g.hand_size(1) == 6
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=4)


# ============================================================== piles run dry


def test_reshuffle_keeps_the_top_discard():
    g = craft(hands={0: ["g7"]}, draw=[], discard=["b1", "b1", "b1", "r4"])
    g.apply("draw")
    assert g.discard_pile() == ["r4"]
    assert (g.top, g.colour) == ("r4", "red")
    assert g.draw_pile() == ["b1", "b1"]
    assert hand(g, 0) == ["b1", "g7"]
    assert (g.actor, g.phase) == (1, "turn")
    assert g.counters() == counters(turns=1, drawn_no_play=1, reshuffles=1)


def test_reshuffle_in_the_middle_of_a_penalty():
    # 1 card left: the victim draws it, then the discards (but the top) come back
    g = craft(hands={0: ["rdraw2", "g5"]}, draw=["b1"], discard=["y1", "y2", "r4"])
    g.apply("rdraw2")
    assert g.discard_pile() == ["rdraw2"]
    assert g.hand_size(1) == 4
    assert "b1" in g.hand(1)
    assert sorted(g.draw_pile() + g.hand(1)) == sorted(["b1", "y1", "y2", "r4"] + FILLER[1])
    assert len(g.draw_pile()) == 2
    assert g.actor == 2
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2, reshuffles=1)


def test_both_piles_empty_draw_yields_nothing_and_the_turn_passes():
    g = craft(hands={0: ["g7"]}, draw=[], discard=["r4"])
    g.apply("draw")
    assert (g.actor, g.phase, g.top) == (1, "turn", "r4")
    assert hand(g, 0) == ["g7"]
    assert g.draw_pile() == [] and g.discard_pile() == ["r4"]
    # trying to draw was the player's turn (docs/metrics.md#per-round: a turn is acting
    # in order)
    assert g.counters() == counters(turns=1)


def test_penalty_partly_paid_when_piles_run_dry():
    # draw pile 1 card; after the Wild Draw Four the discard holds r4 + wild4: the victim
    # draws b1, the reshuffle brings r4, then nothing is left: 2 of 4 cards, still skipped
    g = craft(rules(wd4_challenge=False), hands={0: ["g3", "wild4"]}, draw=["b1"], discard=["r4"])
    g.apply("wild4:blue")
    assert (g.actor, g.phase, g.pending, g.colour) == (2, "turn", 0, "blue")
    assert hand(g, 1) == sorted(FILLER[1] + ["b1", "r4"])
    assert g.draw_pile() == [] and g.discard_pile() == ["wild4"]
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2, reshuffles=1)


def test_draw_two_with_nothing_to_draw_still_skips():
    g = craft(hands={0: ["rdraw2", "g5"]}, draw=[], discard=["r4"])
    g.apply("rdraw2")
    # the reshuffle gives r4 only: one of two cards
    assert hand(g, 1) == sorted(FILLER[1] + ["r4"])
    assert g.actor == 2
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=1, reshuffles=1)


# ============================================================ end of the round


END_HANDS = {1: ["b9", "wild"], 2: ["gskip"], 3: ["y0", "y3"]}  # 59 + 20 + 3 = 82


def test_last_card_ends_round_winner_takes_others_points():
    g = craft(hands={0: ["r5"], **END_HANDS})
    g.apply("r5")
    assert g.over and g.phase == "over"
    assert g.winner == 0
    assert g.hand_size(0) == 0
    assert [g.hand_points(p) for p in range(4)] == [0, 59, 20, 3]
    assert g.winner_points() == 82
    assert g.counters() == counters(turns=1, cards_played=1)
    assert g.legal_moves() == []
    with pytest.raises(IllegalMove):
        g.apply("draw")


def test_losers_score_awards_the_winner_nothing():
    g = craft(rules("losers-score"), hands={0: ["r5"], **END_HANDS})
    g.apply("r5")
    assert g.over and g.winner == 0
    assert g.winner_points() == 0
    assert [g.hand_points(p) for p in range(4)] == [0, 59, 20, 3]


def test_last_card_draw_two_next_player_still_draws_and_it_scores():
    g = craft(hands={0: ["rdraw2"], **END_HANDS}, draw=["b7"] * 5)
    g.apply("rdraw2")
    assert g.over and g.winner == 0
    assert hand(g, 1) == ["b7", "b7", "b9", "wild"]
    assert g.winner_points() == 82 + 14
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2)


def test_last_card_wd4_next_player_draws_four_no_challenge():
    g = craft(hands={0: ["wild4"], **END_HANDS}, draw=["b7"] * 5, direction=-1)
    g.apply("wild4:green")
    assert g.over and g.winner == 0 and g.phase == "over"
    # counter-clockwise: seat 3 is next
    assert hand(g, 3) == ["b7"] * 4 + ["y0", "y3"]
    assert g.hand_size(1) == 2
    assert g.winner_points() == 82 + 28
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=4)


def test_last_card_skip_ends_the_round_two_players():
    g = craft(rules(players=2), hands={0: ["rskip"], 1: ["b9", "wild4"]})
    g.apply("rskip")
    assert g.over and g.winner == 0 and g.winner_points() == 59


def test_last_card_played_after_drawing_ends_the_round():
    g = craft(hands={0: [], **END_HANDS}, draw=["r8"] * 2)
    g.apply("draw")
    g.apply("r8")
    assert g.over and g.winner == 0 and g.winner_points() == 82


# ==================================================================== UNO call


def test_uno_forgotten_and_caught_draws_the_penalty():
    g = craft(rules(uno_forget_prob=1.0), hands={0: ["r5", "r6"]}, draw=["b1"] * 5)
    g.apply("r5")
    assert hand(g, 0) == ["b1", "b1", "r6"]
    assert (g.actor, g.top) == (1, "r5")
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=2, uno_caught=1)


def test_uno_penalty_size_is_a_rule():
    g = craft(rules(uno_forget_prob=1.0, uno_penalty=4), hands={0: ["r5", "r6"]}, draw=["b1"] * 5)
    g.apply("r5")
    assert hand(g, 0) == ["b1"] * 4 + ["r6"]
    assert g.counters()["penalty_drawn"] == 4


def test_uno_forgotten_but_not_caught_costs_nothing():
    g = craft(
        rules(uno_forget_prob=1.0, uno_catch_prob=0.0), hands={0: ["r5", "r6"]}, draw=["b1"] * 5
    )
    g.apply("r5")
    assert hand(g, 0) == ["r6"]
    assert g.counters() == counters(turns=1, cards_played=1)


def test_uno_called_costs_nothing():
    g = craft(hands={0: ["r5", "r6"]}, draw=["b1"] * 5)
    g.apply("r5")
    assert hand(g, 0) == ["r6"]
    assert g.counters()["uno_caught"] == 0


def test_uno_forget_probability_of_a_seat_strategy():
    seats = [parse_strategy("random:forget=1")] + [parse_strategy("random")] * 3
    g = craft(hands={0: ["r5", "r6"], 1: ["r7", "r8"]}, draw=["b1"] * 5, seats=seats)
    g.apply("r5")
    assert g.hand_size(0) == 3
    g.apply("r7")
    assert g.hand_size(1) == 1  # seat 1 keeps the table's probability 0
    assert g.counters()["uno_caught"] == 1


def test_uno_penalty_and_draw_two_together():
    g = craft(rules(uno_forget_prob=1.0), hands={0: ["rdraw2", "r6"]}, draw=["b1"] * 6)
    g.apply("rdraw2")
    assert hand(g, 0) == ["b1", "b1", "r6"]
    assert g.hand_size(1) == 4
    assert g.actor == 2
    assert g.counters() == counters(turns=1, cards_played=1, penalty_drawn=4, uno_caught=1)


def test_no_uno_penalty_on_the_last_card():
    g = craft(rules(uno_forget_prob=1.0), hands={0: ["r5"], **END_HANDS}, draw=["b1"] * 5)
    g.apply("r5")
    assert g.over and g.hand_size(0) == 0 and g.counters()["uno_caught"] == 0


# ============================================================ turn counting (9)


def test_turn_counting_sequence():
    g = craft(
        hands={0: ["rskip", "g1", "g2"], 1: ["y1", "y2"], 2: ["y3", "y4"], 3: ["wild4", "b5"]},
        draw=["r8"] * 20,
    )
    g.apply("rskip")  # seat 0 plays; seat 1 skipped (no turn)
    assert (g.actor, g.stat("turns")) == (2, 1)
    g.apply("draw")  # seat 2 draws a playable r8 ...
    assert (g.actor, g.phase, g.stat("turns")) == (2, "drawn", 2)
    g.apply("r8")  # ... and plays it: still one turn
    assert (g.actor, g.stat("turns")) == (3, 2)
    g.apply("wild4:green")  # seat 3 (no red): legal
    assert (g.actor, g.phase, g.stat("turns")) == (0, "challenge", 3)
    g.apply("accept")  # seat 0 draws 4 and is skipped: no turn
    assert (g.actor, g.phase, g.stat("turns")) == (1, "turn", 3)
    g.apply("draw")  # seat 1 draws r8: not playable on green, the turn passes
    assert (g.actor, g.stat("turns")) == (2, 4)
    assert g.counters() == counters(turns=4, cards_played=3, drawn_no_play=2, penalty_drawn=4)


# ============================================================ first flipped card


def _kind(card: str) -> str:
    if card in ("wild", "wild4"):
        return card
    rank = card[1:]
    return rank if rank in ("skip", "reverse", "draw2") else "number"


@pytest.mark.parametrize("players", [4, 2])
def test_first_card_official_table(players):
    r = rules(players=players)
    seen: Counter[str] = Counter()
    for seed in range(400):
        g = Game(r, seed=seed)
        pile = g.discard_pile()
        assert len(pile) == 1
        first = pile[0]
        kind = _kind(first)
        seen[kind] += 1
        assert kind != "wild4"
        assert g.top == first
        assert g.total_cards() == 108
        c = g.counters()
        assert c["turns"] == 0 and c["cards_played"] == 0 and c["drawn_no_play"] == 0
        sizes = [g.hand_size(p) for p in range(players)]
        if kind == "draw2":
            assert (g.actor, g.direction, g.phase, g.pending) == (1, 1, "turn", 0)
            assert sizes == [9] + [7] * (players - 1)
            assert c["penalty_drawn"] == 2
            assert len(g.draw_pile()) == 108 - 7 * players - 3
        else:
            assert sizes == [7] * players
            assert c["penalty_drawn"] == 0
        if kind == "number":
            assert (g.actor, g.direction, g.phase) == (0, 1, "turn")
        elif kind == "skip":
            assert (g.actor, g.direction, g.phase) == (1, 1, "turn")
        elif kind == "reverse":
            if players == 2:  # acts as a Skip: the dealer (seat 1) starts, no flip
                assert (g.actor, g.direction, g.phase) == (1, 1, "turn")
            else:  # the dealer starts and play goes counter-clockwise
                assert (g.actor, g.direction, g.phase) == (players - 1, -1, "turn")
        elif kind == "wild":
            assert (g.actor, g.direction, g.phase) == (0, 1, "colour")
            assert sorted(g.legal_moves()) == [
                f"colour:{c}" for c in ("blue", "green", "red", "yellow")
            ]
            g.apply("colour:green")
            assert (g.actor, g.phase, g.colour, g.top) == (0, "turn", "green", "wild")
            assert g.counters()["turns"] == 0
        if kind != "wild":
            assert g.colour == COLOUR_OF[first[0]]
    assert set(seen) == {"number", "skip", "reverse", "draw2", "wild"}


def test_first_card_wd4_is_never_left_as_first_card():
    # a deck of 4 zeros and 16 Wild Draw Fours: most first flips are a Wild Draw Four
    r = rules(
        players=2,
        hand_size=1,
        **{
            "deck.numbers": 0,
            "deck.skips": 0,
            "deck.reverses": 0,
            "deck.draw_twos": 0,
            "deck.wilds": 0,
            "deck.wild_draw_fours": 16,
        },
    )
    for seed in range(60):
        g = Game(r, seed=seed)
        first = g.discard_pile()
        assert len(first) == 1 and first[0][1:] == "0"
        assert (g.actor, g.direction, g.phase) == (0, 1, "turn")
        assert g.total_cards() == 20
        assert (
            g.draw_pile().count("wild4") + g.hand(0).count("wild4") + g.hand(1).count("wild4") == 16
        )


@pytest.mark.parametrize("players", [4, 2])
def test_first_card_number_only(players):
    r = rules("number-only-start", players=players)
    for seed in range(200):
        g = Game(r, seed=seed)
        first = g.discard_pile()
        assert len(first) == 1 and _kind(first[0]) == "number"
        assert (g.actor, g.direction, g.phase, g.pending) == (0, 1, "turn", 0)
        assert [g.hand_size(p) for p in range(players)] == [7] * players
        assert g.counters()["penalty_drawn"] == 0
        assert g.total_cards() == 108


def test_first_card_number_only_with_an_action_heavy_deck():
    r = rules(
        "number-only-start",
        players=2,
        hand_size=1,
        **{
            "deck.numbers": 0,
            "deck.skips": 8,
            "deck.reverses": 8,
            "deck.draw_twos": 8,
            "deck.wilds": 16,
            "deck.wild_draw_fours": 16,
        },
    )
    for seed in range(60):
        g = Game(r, seed=seed)
        first = g.discard_pile()
        assert len(first) == 1 and first[0][1:] == "0"
        assert (g.actor, g.direction, g.phase) == (0, 1, "turn")
        assert g.hand_size(0) == 1 and g.hand_size(1) == 1


# ============================================================ conservation


def _all_cards(g: Game) -> Counter[str]:
    cards = g.draw_pile() + g.discard_pile()
    for p in range(g.players):
        cards += g.hand(p)
    return Counter(cards)


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"players": 2},
        {"players": 7},
        {"draw_rule": "draw_until_playable"},
        {"draw_rule": "draw_one_pass", "players": 3},
        {"uno_forget_prob": 0.5, "uno_penalty": 4},
        {"wd4_challenge": False, "scoring": "losers_score"},
    ],
)
def test_card_conservation_over_whole_rounds(overrides):
    deck = deck_counter()
    assert sum(deck.values()) == 108
    r = rules(**overrides)
    n = r["players"]
    seats = [parse_strategy("random:bluff=0.5,challenge=0.5")] * n
    for seed in range(8):
        g = Game(r, seats=seats, seed=seed)
        if g.phase == "colour":
            g.apply("colour:red")
        steps = 0
        while not g.over and steps < 3000:
            g.step()
            steps += 1
            assert g.total_cards() == 108
            assert (
                sum(g.hand_size(p) for p in range(n)) + len(g.draw_pile()) + len(g.discard_pile())
                == 108
            )
        assert _all_cards(g) == deck
        assert g.over and 0 <= g.winner < n and g.hand_size(g.winner) == 0
        for p in range(n):
            assert g.hand_points(p) == points_of(g.hand(p))
            assert g.hand_size(p) == len(g.hand(p))
        expected = 0 if r["scoring"] == "losers_score" else sum(g.hand_points(p) for p in range(n))
        assert g.winner_points() == expected
        c = g.counters()
        if c["reshuffles"] == 0:
            assert c["cards_played"] == len(g.discard_pile()) - 1
