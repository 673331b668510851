"""Built-in strategies, compiled, dispatched on an integer id.

An integer id with if/elif is what measured fastest and caches across processes
(DESIGN.md). Every strategy sees the same thing: the game ``G`` (its legal moves
via ``legal_moves``, or the O(1) ``count_playable``/``nth_playable`` for plays),
its seat parameters and stream 1 of the game's generators ``rng``. It returns
a legal move; for a wild it adds the colour (t + 64 * c).
"""

from __future__ import annotations

from unosim.simulate.cards import N_TYPES, POINTS, WILD, WILD_DRAW_FOUR
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.layout import (
    HC_COLOUR,
    HC_PLACE,
    HC_SIZE,
    MV_ACCEPT,
    MV_CHALLENGE,
    MV_COLOUR,
    MV_DRAW,
    MV_GIVE,
    MV_PASS,
    MV_PLAY_END,
    MV_TAKE,
    MV_TARGET,
    OFF_MOVES,
    OFF_STRAT,
    OFF_WEIGHTS,
    PH_CHALLENGE,
    PH_COLOUR,
    PH_DRAWN,
    PH_GIVE,
    PH_JUMP,
    PH_PENALTY,
    PH_SKIP,
    PH_TARGET,
    PH_TURN,
    R_PLAYERS,
    S_ACTOR,
    S_DRAWN,
    S_PHASE,
    SF_BLUFF,
    SF_CHALLENGE,
)
from unosim.simulate.rng_nb import chance, rand_below
from unosim.simulate.step_nb import (
    count_playable,
    hx,
    legal_moves,
    nth_playable,
    seat_param,
    wd4_is_legal,
)

RANDOM = 0
FIRST = 1
DEFENSIVE = 2
OFFENSIVE = 3

_POINTS = POINTS


@kernel
def most_held_colour(G, p, rng):
    """The colour ``p`` holds most cards of; ties (and an empty hand) at random."""
    best = -1
    ties = 0
    for c in range(4):
        k = G[hx(p, HC_COLOUR + c)]
        if k > best:
            best = k
            ties = 1
        elif k == best:
            ties += 1
    pick = rand_below(rng, 1, ties) if ties > 1 else 0
    for c in range(4):
        if G[hx(p, HC_COLOUR + c)] == best:
            if pick == 0:
                return c
            pick -= 1
    return 0


@kernel
def _first_most_held_colour(G, p):
    best = 0
    for c in range(1, 4):
        if G[hx(p, HC_COLOUR + c)] > G[hx(p, HC_COLOUR + best)]:
            best = c
    return best


@kernel_inline
def _allowed(G, p, t, bluff_ok):
    """A play the strategy will consider: never a bluff unless it decided to bluff."""
    return t != WILD_DRAW_FOUR or bluff_ok or wd4_is_legal(G, p)


@kernel
def _with_colour(sid, G, p, t, rng):
    if t < WILD:
        return t
    if sid == FIRST:
        return t + 64 * _first_most_held_colour(G, p)
    return t + 64 * most_held_colour(G, p, rng)


@kernel_inline
def _score(sid, t):
    """Preference of a play for strategy ``sid`` (higher is played first)."""
    if sid == DEFENSIVE:
        return _POINTS[t]
    if sid == OFFENSIVE:
        return 0 if t >= WILD else 1
    if sid == FIRST:
        return -t
    return 0


@kernel
def _pick_play(sid, G, p, n, bluff_ok, rng):
    """Among the ``n`` listed plays, the best by ``_score``, uniform over the
    physical cards that tie; -1 if there is none."""
    best = -(1 << 30)
    total = 0
    for i in range(n):
        t = G[OFF_MOVES + i]
        if t >= MV_PLAY_END or not _allowed(G, p, t, bluff_ok):
            continue
        s = _score(sid, t)
        if s > best:
            best = s
            total = G[OFF_WEIGHTS + i]
        elif s == best:
            total += G[OFF_WEIGHTS + i]
    if total == 0:
        return -1
    r = rand_below(rng, 1, total) if sid != FIRST else 0
    for i in range(n):
        t = G[OFF_MOVES + i]
        if t >= MV_PLAY_END or not _allowed(G, p, t, bluff_ok):
            continue
        if _score(sid, t) == best:
            if r < G[OFF_WEIGHTS + i]:
                return t
            r -= G[OFF_WEIGHTS + i]
    return -1


@kernel_inline
def choose_move(G, rng):
    """The built-in strategy of the seat to act picks a legal move."""
    ph = G[S_PHASE]
    p = G[S_ACTOR]
    sid = G[OFF_STRAT + p]
    if sid == RANDOM and ph == PH_TURN:
        # the hot path: pick a physical card in O(1), no move list needed
        bluff_ok = chance(rng, 1, seat_param(G, p, SF_BLUFF))
        total = count_playable(G, p, bluff_ok)
        if total == 0:
            return MV_DRAW
        t = nth_playable(G, p, bluff_ok, rand_below(rng, 1, total))
        return _with_colour(sid, G, p, t, rng)
    if ph == PH_TURN or ph == PH_PENALTY:
        n = legal_moves(G)
        bluff_ok = chance(rng, 1, seat_param(G, p, SF_BLUFF))
        t = _pick_play(sid, G, p, n, bluff_ok, rng)
        if t >= 0:
            return _with_colour(sid, G, p, t, rng)
        return MV_DRAW if ph == PH_TURN else MV_TAKE
    if ph == PH_DRAWN:
        t = G[S_DRAWN]
        if _allowed(G, p, t, chance(rng, 1, seat_param(G, p, SF_BLUFF))):
            return _with_colour(sid, G, p, t, rng)
        return MV_PASS
    if ph == PH_CHALLENGE:
        return MV_CHALLENGE if chance(rng, 1, seat_param(G, p, SF_CHALLENGE)) else MV_ACCEPT
    if ph == PH_COLOUR:
        if sid == FIRST:
            return MV_COLOUR + _first_most_held_colour(G, p)
        return MV_COLOUR + most_held_colour(G, p, rng)
    if ph == PH_SKIP or ph == PH_JUMP:
        # optional actions are always taken: deflect the Skip, jump in
        legal_moves(G)
        t = G[OFF_MOVES]
        if t < MV_PLAY_END:
            return _with_colour(sid, G, p, t, rng)
        return G[OFF_MOVES]
    if ph == PH_TARGET:
        return MV_TARGET + fewest_cards_opponent(G, p, rng, sid == FIRST)
    if ph == PH_GIVE:
        return MV_GIVE + highest_value_card(G, p, rng, sid == FIRST)
    legal_moves(G)
    return G[OFF_MOVES]


@kernel
def fewest_cards_opponent(G, p, rng, first):
    """The opponent still playing with the fewest cards; ties at random (or the
    lowest seat when ``first``)."""
    best = 1 << 30
    ties = 0
    for q in range(G[R_PLAYERS]):
        if q == p or G[hx(q, HC_PLACE)] != 0:
            continue
        k = G[hx(q, HC_SIZE)]
        if k < best:
            best = k
            ties = 1
        elif k == best:
            ties += 1
    pick = 0 if first or ties == 1 else rand_below(rng, 1, ties)
    for q in range(G[R_PLAYERS]):
        if q != p and G[hx(q, HC_PLACE)] == 0 and G[hx(q, HC_SIZE)] == best:
            if pick == 0:
                return q
            pick -= 1
    return -1


@kernel
def highest_value_card(G, p, rng, first):
    """The type of ``p``'s highest-value card; ties uniform over physical cards
    (or the first type in hand order when ``first``)."""
    best = -1
    total = 0
    for t in range(N_TYPES):
        k = G[hx(p, t)]
        if k > 0:
            v = _POINTS[t]
            if v > best:
                best = v
                total = k
            elif v == best:
                total += k
    pick = 0 if first else rand_below(rng, 1, total)
    for t in range(N_TYPES):
        k = G[hx(p, t)]
        if k > 0 and _POINTS[t] == best:
            if pick < k:
                return t
            pick -= k
    return -1
