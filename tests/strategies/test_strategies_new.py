"""The parametric strategies of issue 14 (weighted, tuned, adaptive, gang-up), their
decisions pinned on crafted states (the patterns of test_strategies_builtin.py), and
their parameters: declared once, parsed with their domains, shown by `unosim
strategies`, carried with a player in matches."""

from __future__ import annotations

import numpy as np
import pytest
from test_strategies_builtin import choices, craft

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies import builtin_nb as B
from unosim.strategies.registry import (
    STRATEGY_PARAMS,
    TUNED_WEIGHTS,
    parse_strategy,
    seat_template,
    strategy_ids,
    tuned_label,
    tuned_weights,
)

LACKS_GREEN = 1 << 2


def lacks(g, p: int, bits: int) -> None:
    g.G[L.OFF_H + p * L.HW + L.HC_LACKS] = bits


# ----------------------------------------------------------------- weighted


def test_weighted_defaults_play_a_coloured_card_before_a_wild():
    assert choices(craft("weighted", ["r5", "g3", "wild"])) == {"r5"}


def test_weighted_wild_weight_and_the_colour_it_names():
    # a positive wild weight plays the wild; col_held names the colour held most
    assert choices(craft("weighted:wild=8", ["r5", "b1", "b2", "wild"])) == {"wild:blue"}
    # col_lack above col_held names the colour the next player (seat 1) lacks
    g = craft("weighted:wild=8,col_lack=10", ["r5", "b1", "b2", "wild"])
    lacks(g, 1, LACKS_GREEN)
    assert choices(g) == {"wild:green"}


def test_weighted_keep_against_by_number():
    hand = ["r5", "g3", "g4"]  # top r3: r5 keeps red, g3 changes by number
    assert choices(craft("weighted:keep=5,points=0", hand)) == {"r5"}
    assert choices(craft("weighted:by_number=5,points=0", hand)) == {"g3"}


def test_weighted_attack_and_points():
    hand = ["r5", "rskip"]
    small = {1: ["g7", "g8"]}  # the next player holds 2 cards
    assert choices(craft("weighted:points=0,action=-1,attack=5", hand, hands=small)) == {
        "rskip"}
    assert choices(craft("weighted:points=0,action=-1,attack=5", hand)) == {"r5"}
    assert choices(craft("weighted:points=-0.5,action=0", hand)) == {"r5"}


def test_weighted_mobility_and_next_lacks():
    # r9 leaves g9 to follow it (same number); r5 leaves nothing
    hand = ["r5", "r9", "g9"]
    assert choices(craft("weighted:points=0,colour=0,mobility=3,keep=0", hand)) == {"r9"}
    g = craft("weighted:points=0,colour=0,mobility=0,next_lacks=5,by_number=0", ["g3", "r5"])
    lacks(g, 1, LACKS_GREEN)
    assert choices(g) == {"g3"}


def test_weighted_draw_weight_decides_voluntary_draws_and_drawn_cards():
    assert choices(craft("weighted:draw=20", ["r5", "g3"])) == {"draw"}
    no_voluntary = resolve([], [("voluntary_draw", False)])
    assert choices(craft("weighted:draw=20", ["r5", "g3"], rules=no_voluntary)) == {"r5"}
    g = craft("weighted:draw=20", ["g1", "r0"], phase="drawn", drawn=0)
    assert choices(g) == {"pass"}
    g = craft("weighted:draw=-20", ["g1", "r0"], phase="drawn", drawn=0)
    assert choices(g) == {"r0"}


def test_weighted_names_a_colour_for_a_first_wild_and_never_bluffs_by_default():
    assert choices(craft("weighted", ["b1", "b2", "g1"], phase="colour")) == {"colour:blue"}
    # holding red, the Wild Draw Four would be a bluff: only with bluff=1
    assert choices(craft("weighted:wild=9,wd4=9", ["r5", "wild4"])) == {"r5"}
    assert choices(craft("weighted:wild=9,wd4=9,bluff=1", ["r5", "wild4"])) == {"wild4:red"}


# ----------------------------------------------------------------- tuned


def test_tuned_is_weighted_with_the_shipped_weights_of_the_table_size():
    for players in (2, 4):
        w = tuned_weights(players)
        assert set(w) == {p.name for p in STRATEGY_PARAMS["weighted"]}
        assert tuned_label(players) == "weighted:" + ",".join(
            f"{k}={w[k]:g}" for k in sorted(w))
        rules = resolve([], [("players", players)])
        from unosim.simulate.rules import lower

        a = seat_template(lower(rules), [parse_strategy("tuned")] * players, 0.0)
        b = seat_template(lower(rules), [parse_strategy(tuned_label(players))] * players, 0.0)
        sl = slice(L.OFF_SPARAM, L.OFF_SPARAM + players * L.N_SPARAM)
        assert np.array_equal(a[sl], b[sl])
    assert set(TUNED_WEIGHTS) == {2, 3}


def test_parameters_live_in_the_slot_the_strategy_id_names():
    seats = [parse_strategy(x) for x in ("random", "weighted:wild=2", "adaptive", "tuned")]
    ids = strategy_ids(seats)
    assert ids == [B.RANDOM, B.WEIGHTED + B.SLOT_STRIDE, B.ADAPTIVE + 2 * B.SLOT_STRIDE,
                   B.TUNED + 3 * B.SLOT_STRIDE]
    from unosim.simulate.rules import lower

    G = seat_template(lower(resolve()), seats, 0.0)
    assert G[L.OFF_SPARAM + L.N_SPARAM + B.W_WILD] == 2 * L.SPARAM_SCALE
    assert G[L.OFF_SPARAM + 2 * L.N_SPARAM + B.A_CARDS] == 2 * L.SPARAM_SCALE


# ----------------------------------------------------------------- adaptive


def test_adaptive_switches_from_offensive_to_defensive_on_either_trigger():
    hand = ["r5", "wild"]
    assert choices(craft("adaptive:cards=2,points=500", hand)) == {"r5"}  # offensive
    one_card = {2: ["g7"]}
    assert choices(craft("adaptive:cards=2,points=500", hand, hands=one_card)) == {
        "wild:red"}  # an opponent at 1 card: defensive dumps the wild (50 points)
    assert choices(craft("adaptive:cards=0,points=55", hand)) == {"wild:red"}  # hand 55
    assert choices(craft("adaptive:cards=0,points=56", hand)) == {"r5"}


# ----------------------------------------------------------------- gang-up


def test_gang_up_hits_the_leader_when_it_is_next():
    leader_next = {1: ["g7"]}
    g = craft("gang-up", ["r5", "rskip", "rdraw2"], hands=leader_next)
    assert choices(g) == {"rdraw2"}
    assert choices(craft("gang-up", ["r5", "rskip"], hands=leader_next)) == {"rskip"}
    assert choices(craft("gang-up", ["r5", "rreverse"], hands=leader_next)) == {"rreverse"}


def test_gang_up_keeps_action_cards_and_never_reverses_towards_the_leader():
    leader_prev = {3: ["g7"]}  # seat 3 plays before seat 0: a Reverse would make it next
    assert choices(craft("gang-up", ["r5", "rreverse"], hands=leader_prev)) == {"r5"}
    leader_far = {2: ["g7"]}
    assert choices(craft("gang-up", ["r5", "rskip"], hands=leader_far)) == {"r5"}


def test_gang_up_names_a_colour_the_leader_lacks_and_plays_offensive_without_a_leader():
    g = craft("gang-up", ["wild", "b1", "b2"], hands={2: ["y7"]})
    lacks(g, 2, LACKS_GREEN)
    assert choices(g) == {"wild:green"}
    assert choices(craft("gang-up", ["r5", "wild"])) == {"r5"}  # nobody at 2 cards
    assert choices(craft("gang-up:cards=3", ["r5", "rdraw2"])) == {"rdraw2"}  # all at 3


def test_every_gang_up_seat_picks_the_same_leader_from_public_sizes():
    hands = {1: ["g7", "y8"], 3: ["b7", "y6"]}  # two opponents at 2 cards
    for actor in (0, 2):
        g = craft("gang-up", ["r1"], actor=actor, hands=hands)
        assert B.gang_leader(g.G, actor, 2) == 1  # the lowest seat, for both


# ----------------------------------------------------------------- parameters


@pytest.mark.parametrize("text", ["weighted:points=2", "weighted:wild=x", "adaptive:cards=1.5",
                                  "gang-up:cards=0", "weighted:nope=1", "random:points=1"])
def test_bad_parameters_are_one_line_errors(text):
    with pytest.raises(UnosimError) as e:
        parse_strategy(text)
    assert "\n" not in str(e.value)


def test_labels_round_trip():
    s = parse_strategy("weighted:wild=-2.5,points=0.125,bluff=0.3")
    assert s.label() == "weighted:bluff=0.3,points=0.125,wild=-2.5"
    assert parse_strategy(s.label()) == s
    assert parse_strategy("adaptive:cards=3").params == {"cards": 3}


def test_strategies_lists_parameters_and_the_tuned_string(capsys):
    from unosim.cli import main

    with pytest.raises(SystemExit):
        main(["strategies"])
    out = capsys.readouterr().out
    for name in ("weighted", "adaptive", "gang-up", "tuned"):
        assert f"\n{name}\n" in out
    assert tuned_label(2) in out and tuned_label(4) in out
    assert "mobility=" in out and "col_lack=" in out


def test_weighted_in_matches_keeps_its_parameters_across_seats():
    from unosim.studies.run.play import run_matches

    rules = resolve([], [("players", 3), ("target_score", 100)])
    seats = [parse_strategy(x) for x in ("weighted:draw=-20", "random", "gang-up")]
    r = run_matches(rules, seats, 200, seed=5, workers=1)
    assert r.agg.games == 200
