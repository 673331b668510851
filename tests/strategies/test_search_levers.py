"""The search's levers: the opponent model in the rollouts, rollouts cut after
``depth`` turns and valued by the cards left, sequential halving at the root, the
tree over the seat's own decisions. Each is pinned on a crafted case, and the
no-peeking twin test runs with all on."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_search import PHASE_TABLES, _fill_hand, _play_twinned, deal_table, hx

from unosim.errors import UnosimError
from unosim.runs.runner import game_template
from unosim.simulate import layout as L
from unosim.simulate.cards import N_RANKS
from unosim.simulate.rules import resolve
from unosim.strategies import builtin_nb as B
from unosim.strategies import search_nb as S
from unosim.strategies.registry import STRATEGY_PARAMS, parse_strategy, tuned_weights

ALL_ON = "search:rollouts=8,model=tuned,depth=6,halving=1"
TREE_ON = "search:rollouts=12,model=tuned,depth=6,tree=1,value=learned"


def _dealt(spec: str, players: int, game: int = 0, variants=()):
    rules = resolve(list(variants), [("players", players)])
    seats = [parse_strategy(spec)] + [parse_strategy("random")] * (players - 1)
    return deal_table(rules, seats, 21, game)


def test_a_cut_rollout_is_worth_the_share_of_one_over_distance_squared():
    """Seat 0 has 1 card to play, seat 1 (to act, so half a card closer) 3: the value
    is 1 / (1 + 1 / 2.5**2) of a win."""
    G, _ = _dealt("search", 2)
    _fill_hand(G, 0, [3])
    _fill_hand(G, 1, [20, 21, 22])
    G[L.S_ACTOR] = 1
    want = int(S.VALUE_UNIT * 1.0 / (1.0 + 2.5 ** -2))
    assert S._value(G, 0) == want
    assert S._value(G, 1) == int(S.VALUE_UNIT * 2.5 ** -2 / (1.0 + 2.5 ** -2))
    # a seat already out (elimination) does not count
    G3, _ = _dealt("search", 3)
    _fill_hand(G3, 0, [3, 4])
    _fill_hand(G3, 1, [20])
    _fill_hand(G3, 2, [30, 31])
    G3[hx(1, L.HC_PLACE)] = 1
    G3[L.S_ACTOR] = 2
    assert S._value(G3, 0) == int(S.VALUE_UNIT * 0.25 / (0.25 + 1.5 ** -2))


def test_the_learned_value_is_the_share_of_exp_of_each_seat_s_weighted_features():
    """Heads-up, seat 1 to act, red the colour. Seat 0: 2 cards to play, a Wild and
    a blue Skip (no red; the Wild counts in no colour, so 1 colour held).
    Seat 1: 4 cards, red 3, red Draw Two, green Reverse, yellow 9 (red held, 3
    colours), to act, so 3.5 to play. Each score is the dot product of the weights
    for 2 players with (log cards, to act, wilds, Draw Twos, Skips and Reverses,
    holds the colour, colours held, acts next)."""
    G, _ = _dealt("search", 2)
    blue_skip = 3 * N_RANKS + 10
    _fill_hand(G, 0, [52, blue_skip])
    _fill_hand(G, 1, [3, N_RANKS - 1, 2 * N_RANKS + 11, N_RANKS + 9])
    G[L.S_ACTOR] = 1
    G[L.S_COLOUR] = 0
    G[L.S_DIR] = 1
    w = S.LEARNED_WEIGHTS[0]
    f0 = np.array([np.log(2.0), 0, 1, 0, 1, 0, 1, 1])  # seat 0 acts next
    f1 = np.array([np.log(3.5), 1, 0, 1, 1, 1, 3, 0])
    e0, e1 = np.exp(w @ f0), np.exp(w @ f1)
    assert S._value_learned(G, 0) == int(S.VALUE_UNIT * e0 / (e0 + e1))
    assert S._value_learned(G, 1) == int(S.VALUE_UNIT * e1 / (e0 + e1))


def test_value_learned_values_the_cut_rollouts_and_nothing_else():
    """The same rollout cut after 5 turns is worth ``_value_learned`` of where it
    stopped with value=learned and ``_value`` without, from the same generators."""
    G, RNG = _dealt("search", 2, game=4)
    move = int(S.choose_move(G.copy(), RNG.copy()))
    CW = np.zeros(L.CW_RESHUFFLES + 1, np.int64)
    got = {}
    for learned in (False, True):
        W, R = G.copy(), RNG.copy()
        got[learned] = S._rollout(W, CW, R, move, 0, False, 5, learned, 0, False)
        if W[L.S_WINNER] < 0:
            assert got[learned] == (S._value_learned(W, 0) if learned else S._value(W, 0))
    assert got[True] != got[False]


def test_a_rollout_stops_exactly_depth_turns_after_the_decision():
    """The cut rollout's value is _value of the world `depth` turns after the searched
    move, played with the same generators."""
    for depth in (1, 3, 7):
        G, RNG = _dealt("search", 4, game=3)
        W = G.copy()
        R = RNG.copy()
        move = int(S.choose_move(G.copy(), RNG.copy()))
        CW = np.zeros(L.CW_RESHUFFLES + 1, np.int64)  # no card counter: unused
        got = S._rollout(W, CW, R, move, 0, False, depth, False, 0, False)
        V = G.copy()
        Q = RNG.copy()
        S.apply_called(V, Q, move)
        start = int(V[L.S_TURNS])
        while V[L.S_WINNER] < 0 and V[L.S_TURNS] < start + depth:
            S.apply_called(V, Q, B._choose(V[L.OFF_STRAT + V[L.S_ACTOR]], V, Q))
        want = S._value(V, 0) if V[L.S_WINNER] < 0 else (S.VALUE_UNIT if V[L.S_WINNER] == 0
                                                         else 0)
        assert got == want and list(R) == list(Q), depth
        assert 0 <= got <= S.VALUE_UNIT


def test_halving_drops_the_lowest_scores_and_the_later_of_ties():
    G, _ = _dealt("search", 2)
    scores = [5, 3, 3, 9, 1]
    for i, v in enumerate(scores):
        G[L.OFF_SCORE + i] = v
        G[L.OFF_ALIVE + i] = 1
    S._drop_worst(G, 5, 5, 3)
    assert list(G[L.OFF_ALIVE: L.OFF_ALIVE + 5]) == [1, 1, 0, 1, 0]
    S._drop_worst(G, 5, 3, 2)
    assert list(G[L.OFF_ALIVE: L.OFF_ALIVE + 5]) == [1, 0, 0, 1, 0]


@pytest.mark.parametrize("k", [3, 4, 5, 8])
def test_halving_spends_the_budget_over_log2_rounds(k):
    """With k candidates: ceil(log2 k) rounds, each round's rollouts // rounds over the
    candidates still in, the better half kept."""
    G, RNG = _dealt("search:rollouts=240,halving=1", 2)
    # k playable candidates: coloured cards of the top card's colour
    top = int(G[L.S_TOP])
    colour = int(G[L.S_COLOUR])
    cards = [colour * 13 + r for r in range(13) if colour * 13 + r != top][:k]
    _fill_hand(G, 0, cards)
    G[L.S_ACTOR] = 0
    G[L.S_PHASE] = L.PH_TURN
    assert S.candidates(G.copy(), RNG.copy()) == k
    before = int(G[L.OFF_SCOUNT + 1])
    S.search_move(G, RNG)
    rounds = (k - 1).bit_length()
    want, left = 0, k
    for _ in range(rounds):
        want += max(1, 240 // (rounds * left)) * left
        left = (left + 1) // 2
    assert int(G[L.OFF_SCOUNT + 1]) - before == want
    assert int(G[L.OFF_ALIVE: L.OFF_ALIVE + k].sum()) == 2


def test_the_model_plays_the_other_seats_and_the_policy_the_seat_itself():
    """model=tuned: in the rollout worlds every other seat plays tuned with the
    table size's weights in its own slot; the search seat plays its policy."""
    players = 4
    G, RNG = _dealt("search:model=tuned,policy=offensive", players)
    w = tuned_weights(players)
    assert G[L.OFF_SP + L.SP_MODEL] == B.TUNED  # template slot 0
    for q in STRATEGY_PARAMS["tuned"]:
        assert G[L.OFF_MPARAM + q.slot] == int(round(w[q.name] * L.SPARAM_SCALE))
    W0 = G[L.OFF_W0: L.OFF_W]
    W = G[L.OFF_W: L.OFF_WRNG]
    S._seat_rollout_policies(G, W0, W, 0, players)
    assert W0[L.OFF_STRAT] == B.OFFENSIVE
    for q in range(1, players):
        assert W0[L.OFF_STRAT + q] == B.TUNED + B.SLOT_STRIDE * q
        for par in STRATEGY_PARAMS["tuned"]:
            got = W[L.OFF_SPARAM + q * L.N_SPARAM + par.slot]
            assert got == int(round(w[par.name] * L.SPARAM_SCALE))


def test_the_policy_and_the_model_keep_their_own_slots_in_a_match_seat_change():
    """A search player of template slot 2 now in seat 0, with policy=tuned and
    model=weighted:  its policy's slot 2 and the model's slot 2 both reach the world's
    slots of the seats that play them."""
    players = 3
    rules = resolve([], [("players", players)])
    seats = [parse_strategy("random")] * 2 + [parse_strategy("search:policy=tuned,"
                                                             "model=weighted")]
    G = game_template(rules, seats)
    sp = L.OFF_SP + 2 * L.N_SP
    # move the search player to seat 0, as match_nb.seat_players does
    for k in range(L.N_SP):
        G[L.OFF_SP + k] = G[sp + k]
    W0 = G[L.OFF_W0: L.OFF_W]
    W = G[L.OFF_W: L.OFF_WRNG]
    S._seat_rollout_policies(G, W0, W, 0, players)
    tw = tuned_weights(players)
    for par in STRATEGY_PARAMS["tuned"]:
        assert W[L.OFF_SPARAM + par.slot] == int(round(tw[par.name] * L.SPARAM_SCALE))
    for q in (1, 2):
        assert W0[L.OFF_STRAT + q] == B.WEIGHTED + B.SLOT_STRIDE * q
        for par in STRATEGY_PARAMS["weighted"]:
            got = W[L.OFF_SPARAM + q * L.N_SPARAM + par.slot]
            assert got == int(round(par.default * L.SPARAM_SCALE))


def test_the_lever_parameters_are_checked_and_labelled():
    s = parse_strategy("search:depth=12,halving=1,model=tuned")
    assert s.label() == "search:depth=12,halving=1,model=tuned"
    assert parse_strategy("search:depth=0").params["depth"] == 0
    assert parse_strategy("search:value=learned").params["value"] == "learned"
    for bad in ("search:depth=-1", "search:depth=x", "search:depth=2.5", "search:halving=2",
                "search:tree=2", "search:value=x", "search:model=search", "search:model=nobody",
                "random:depth=3"):
        with pytest.raises(UnosimError):
            parse_strategy(bad)


@pytest.mark.parametrize("spec", [ALL_ON, TREE_ON])
def test_search_never_peeks_with_every_lever_on(spec):
    rnd = random.Random(17)
    seen: dict[int, int] = {}
    came: set[int] = set()
    searched = sum(_play_twinned(spec, v, n, 3, rnd, seen, came) for v, n in PHASE_TABLES)
    assert searched > 80 and sum(seen.values()) > 30


def _tree(nodes):
    """A tree of (parent, move, visits, value in wins, availability) nodes after
    the root (node 0)."""
    T = np.zeros(L.TREE_NODES * L.TREE_W, np.int64)
    T[L.TN_CHILD] = -1
    T[L.TN_NEXT] = -1
    for n, (parent, move, visits, wins, avail) in enumerate(nodes, start=1):
        S._tnew(T, parent, n, move)
        T[n * L.TREE_W + L.TN_N] = visits
        T[n * L.TREE_W + L.TN_V] = int(wins * S.VALUE_UNIT)
        T[n * L.TREE_W + L.TN_A] = avail
    return T


def test_the_tree_tries_every_open_move_before_it_compares_them():
    """Move 7 has a node, move 9 none: 9 is grown (node 2), and 7's availability
    counts this pass."""
    T = _tree([(0, 7, 5, 4.0, 5)])
    R = np.arange(1, 9, dtype=np.uint64)
    move, node, new = S._tree_pick(T, 0, np.array([7, 9], np.int64), 2, 2, R)
    assert (move, node, new) == (9, 2, True)
    assert T[1 * L.TREE_W + L.TN_A] == 6
    assert T[2 * L.TREE_W + L.TN_MOVE] == 9 and T[2 * L.TREE_W + L.TN_A] == 1
    assert S._tchild(T, 0, 9) == 2 and S._tchild(T, 0, 7) == 1 and S._tchild(T, 0, 8) == -1


def test_the_tree_picks_the_highest_upper_confidence_bound():
    """Mean 0.5 after 100 visits against 0.4 after 4, both open 104 times: the bound
    is mean + 0.7 * sqrt(ln(availability) / visits), so the rarely tried move wins
    (0.4 + 0.7 * sqrt(ln 105 / 4) = 1.17 against 0.65); a move not open in this world
    is not picked, however good, and its availability stays."""
    T = _tree([(0, 3, 100, 50.0, 104), (0, 4, 4, 1.6, 104), (0, 5, 10, 10.0, 10)])
    R = np.arange(1, 9, dtype=np.uint64)
    move, node, new = S._tree_pick(T, 0, np.array([3, 4], np.int64), 2, 4, R)
    assert (move, node, new) == (4, 2, False)
    assert T[3 * L.TREE_W + L.TN_A] == 10
    # the tree full: an untried move is not grown
    full = _tree([(0, 3, 100, 50.0, 104)])
    move, node, new = S._tree_pick(full, 0, np.array([3, 6], np.int64), 2, L.TREE_NODES, R)
    assert (move, node, new) == (3, 1, False)


def test_the_tree_search_spends_its_budget_and_plays_its_most_tried_move():
    """Every rollout passes the root and one candidate: the candidates' rollouts add
    up to the budget, each was tried, and the move played is the most tried one.
    Heads-up on a red 3, the opponent on one card: the red Draw Two makes it draw and
    skips it, and the search goes out with its red 5 in every world; the red 5 first
    lets the opponent go out whenever its card fits."""
    G, RNG = _dealt("search:rollouts=300,tree=1", 2)
    draw_two, five = N_RANKS - 1, 5  # red (colour 0): type = colour * N_RANKS + rank
    _fill_hand(G, 0, [draw_two, five])
    _fill_hand(G, 1, [40])
    G[L.S_TOP] = 3
    G[L.S_COLOUR] = 0
    G[L.S_ACTOR] = 0
    G[L.S_PHASE] = L.PH_TURN
    k = S.candidates(G, RNG.copy())
    assert sorted(int(G[L.OFF_CAND + i]) for i in range(k)) == [five, draw_two]
    played = S._evaluate(G, RNG.copy(), 0, k)
    tried = [int(G[L.OFF_TRIED + i]) for i in range(k)]
    assert played == 300 and sum(tried) == 300 and min(tried) >= 1
    best = S._best(G, k)
    assert tried[best] == max(tried) and G[L.OFF_CAND + best] == draw_two
    # the bounds send most rollouts to the better move (the flat search splits 150/150)
    assert tried[best] > 2 * min(tried)
    assert G[L.OFF_SCORE + best] == tried[best] * S.VALUE_UNIT  # won every rollout
