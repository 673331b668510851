"""The card counter inside the search's rollouts (``policy=card-counter``,
``model=card-counter``): it keeps no memory there and plays from what the world
shows its seat (strategies/counter_nb.py ``counter_world_move``). Pinned three ways:
at the deal it plays as the counter itself does from its memory (both count every
unseen card as possible); it reads the table's public inference of a world as the
counter reads a draw it heard; and no peeking, by the twin test against card
counters (whose memories and private events the twin changes too), with its control:
the same rollouts handed the real game instead of a sampled world tell the twins
apart."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_counter import craft
from test_search import PHASE_TABLES, _play_twinned, deal_table, twin

from unosim.runs.runner import base_seed, game_template
from unosim.simulate import layout as L
from unosim.simulate.cards import N_TYPES, parse_card
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.rules import resolve
from unosim.simulate.step_nb import apply_move, cap_round, is_legal
from unosim.strategies import builtin_nb as B
from unosim.strategies import counter_nb as C
from unosim.strategies import search_nb as S
from unosim.strategies.registry import ROLLOUT_POLICIES, parse_strategy

CW_WORDS = L.CW_RESHUFFLES + 1
LEVERS = ("model=card-counter", "policy=card-counter", "model=card-counter,policy=card-counter",
          "model=card-counter,tree=1")


def _counts(G: np.ndarray, p: int) -> np.ndarray:
    """The counts a decision of ``p`` sets up for the rollouts' card counters."""
    S._unseen_pool(G, p)
    return G[L.OFF_CW: L.OFF_CW + CW_WORDS]


def test_the_card_counter_may_play_the_rollouts():
    assert "card-counter" in ROLLOUT_POLICIES and "search" not in ROLLOUT_POLICIES
    s = parse_strategy("search:model=card-counter,policy=card-counter")
    assert s.label() == "search:model=card-counter,policy=card-counter"
    rules = resolve([], [("players", 3)])
    G = game_template(rules, [s] + [parse_strategy("random")] * 2)
    W0 = G[L.OFF_W0: L.OFF_W]
    W = G[L.OFF_W: L.OFF_WRNG]
    S._seat_rollout_policies(G, W0, W, 0, 3)
    # the counter's id as it is: it has no parameters, so no slot
    assert [int(W0[L.OFF_STRAT + q]) for q in range(3)] == [B.COUNTER] * 3


@pytest.mark.parametrize("variants,players", [((), 2), ((), 4), (("unoai",), 3)])
def test_at_the_deal_it_plays_as_the_counter_does_from_its_memory(variants, players):
    """Before anyone has drawn, the counter's bounds are every card it has not seen,
    from its memory and from the world alike: the same move and the same draws."""
    rules = resolve(list(variants), [("players", players)])
    seats = [parse_strategy("card-counter")] * players
    for game in range(150):
        G, RNG = deal_table(rules, seats, 8, game)
        W, RW = G.copy(), RNG.copy()
        m = int(S.choose_move(G, RNG))  # hears the deal, then decides from its memory
        CW = _counts(W, 0)
        assert int(C.counter_world_move(W, RW, CW)) == m
        assert list(RW) == list(RNG)


def test_it_reads_the_public_inference_as_the_counter_reads_a_draw():
    """The counter's crafted case (test_counter: the opponent drew on r3 and kept
    the card, so r7 rather than the scarcer-looking g7), in a world: the draw is the
    table's public inference (OFF_PUB: no red, no 3, no wild for seat 1)."""
    def move(pub: int) -> set[str]:
        g = craft(["r7", "g7"], discard=("g1", "g2", "r3"), top="b7")
        g.G[L.OFF_PUB + 1] = pub
        CW = _counts(g.G, 0)
        out = set()
        for k in range(40):
            W = g.G.copy()
            R = np.zeros(8, np.uint64)
            seed_game(base_seed(3), k, R)
            out.add(int(C.counter_world_move(W, R, CW)))
        return out

    red = 1 << 0
    assert move(red | (1 << L.PUB_WILD) | (1 << (L.PUB_RANK + 3))) == {parse_card("r7")}
    assert move(0) == {parse_card("g7")}


def test_its_counts_follow_the_world_s_discard_pile():
    """The copies not on the discard pile: those at the decision less the cards
    played since, or the deck less the whole pile after a reshuffle."""
    rules = resolve([], [("players", 2)])
    G, RNG = deal_table(rules, [parse_strategy("search:model=card-counter")] * 2, 4, 0)
    CW = _counts(G, 0).copy()
    W = G.copy()
    d = int(W[L.S_DISC_LEN])

    def want(A):
        left = CW[L.CW_DECK: L.CW_DECK + N_TYPES].copy()
        for t in A[L.OFF_DISC: L.OFF_DISC + int(A[L.S_DISC_LEN])]:
            left[t] -= 1
        return list(left)

    W[L.OFF_DISC + d: L.OFF_DISC + d + 3] = [parse_card(c) for c in ("r1", "r2", "wild")]
    W[L.S_DISC_LEN] = d + 3
    C.world_counts(W, CW)
    assert list(CW[L.CW_NOW: L.CW_NOW + N_TYPES]) == want(W)
    W[L.OFF_DISC: L.OFF_DISC + 2] = [parse_card("b5"), parse_card("b6")]
    W[L.S_DISC_LEN] = 2
    W[L.S_RESHUFFLES] += 1
    C.world_counts(W, CW)
    assert list(CW[L.CW_NOW: L.CW_NOW + N_TYPES]) == want(W)


def _peeking_values(G: np.ndarray, RNG: np.ndarray, spec_rollouts: int) -> list[int]:
    """Each candidate's summed values rolled out in the real game itself (the
    hidden cards as they are) by the seat's rollout seats, the same generators for
    each: what a search whose worlds peeked would add up."""
    G = G.copy()
    p = int(G[L.S_ACTOR])
    n = int(G[L.R_PLAYERS])
    k = int(S.candidates(G, RNG.copy()))
    CW = _counts(G, p).copy()
    W = G.copy()
    S._seat_rollout_policies(G, W, W, p, n)
    W[L.RF_EVENTS] = 0
    W[L.OFF_FEEL_MODE] = 0
    out = []
    for i in range(k):
        total = 0
        for r in range(spec_rollouts):
            V = W.copy()
            R = np.zeros(8, np.uint64)
            seed_game(base_seed(5), r, R)
            total += int(S._rollout(V, CW, R, int(G[L.OFF_CAND + i]), p, False, 16, False, 0,
                                        False))
        out.append(total)
    return out


@pytest.mark.parametrize("lever", LEVERS)
def test_search_with_the_counter_in_its_rollouts_never_peeks(lever):
    """Against card counters, at every decision of the search seat: a twin with the
    hidden cards, the other seats' private events and the counters' bounds changed
    gives the same move, generator state and figures (each candidate's summed
    values). The control: the same rollouts in the real game (a world that peeked)
    tell the twins apart at most searched decisions."""
    rnd = random.Random(31)
    spec = f"search:rollouts=6,{lever}"
    checked = searched = told = scrambled = 0
    for variants, players in (((), 2), ((), 4), (("stacking",), 3), (("seven-o",), 4)):
        rules = resolve(list(variants), [("players", players)])
        for game in range(3):
            seat = game % players
            seats = [parse_strategy("card-counter")] * players
            seats[seat] = parse_strategy(spec)
            G, RNG = deal_table(rules, seats, 6, game)
            assert G[L.RF_EVENTS] == 1
            while G[L.S_PHASE] != L.PH_OVER:
                if G[L.S_TURNS] >= rules["turn_cap"]:
                    cap_round(G)
                    break
                if G[L.S_ACTOR] != seat:
                    apply_move(G, RNG, S.choose_move(G, RNG))
                    continue
                G2, R2 = twin(G, RNG, rnd)
                mem = slice(L.OFF_MEM, L.OFF_MEM + players * L.MEM_WORDS)
                scrambled += int((G[mem] != G2[mem]).any())
                before = int(G[L.OFF_SCOUNT])
                peek = (_peeking_values(G, RNG, 4), _peeking_values(G2, R2, 4))
                m = int(S.choose_move(G, RNG))
                m2 = int(S.choose_move(G2, R2))
                assert m == m2 and list(RNG[4:]) == list(R2[4:]), (variants, game)
                if int(G[L.OFF_SCOUNT]) > before:
                    k = len(peek[0])
                    for block in (L.OFF_SCORE, L.OFF_TRIED):
                        assert list(G[block: block + k]) == list(G2[block: block + k])
                    searched += 1
                    told += int(peek[0] != peek[1])
                assert is_legal(G, m)
                checked += 1
                apply_move(G, RNG, m)
    assert checked > 60 and searched > 20 and scrambled == checked
    assert told > searched // 2, (told, searched)


def test_search_with_the_counter_in_its_rollouts_never_peeks_in_any_phase():
    """The phase tables of the search's own twin test, against random."""
    rnd = random.Random(19)
    seen: dict[int, int] = {}
    came: set[int] = set()
    searched = sum(_play_twinned("search:rollouts=6,model=card-counter,policy=card-counter",
                                 v, n, 2, rnd, seen, came) for v, n in PHASE_TABLES)
    assert searched > 50 and sum(seen.values()) > 20
