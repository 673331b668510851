"""Built-in strategies, compiled, dispatched on an integer id.

An integer id with if/elif is what measured fastest and caches across processes
(DESIGN.md). Every strategy sees the same thing: the state arrays, its legal moves
with their weights (copies held), its seat parameters and its own generator.
Its randomness comes from stream 1 of the game's generators ``rng``.
It returns one of the listed moves; for a wild it adds the colour (t + 64 * c).
"""

from __future__ import annotations

from unosim.simulate.cards import POINTS, WILD, WILD_DRAW_FOUR
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.layout import (
    HC_COLOUR,
    MV_ACCEPT,
    MV_CHALLENGE,
    MV_COLOUR,
    MV_DRAW,
    MV_PASS,
    MV_PLAY_END,
    MV_TAKE,
    PH_CHALLENGE,
    PH_COLOUR,
    PH_DRAWN,
    PH_PENALTY,
    PH_TURN,
    S_ACTOR,
    S_DRAWN,
    S_PHASE,
    SF_BLUFF,
    SF_CHALLENGE,
)
from unosim.simulate.rng_nb import chance, rand_below
from unosim.simulate.step_nb import count_playable, legal_moves, nth_playable, wd4_is_legal

RANDOM = 0
FIRST = 1
DEFENSIVE = 2
OFFENSIVE = 3

_POINTS = POINTS


@kernel
def most_held_colour(H, p, rng):
    """The colour ``p`` holds most cards of; ties (and an empty hand) at random."""
    best = -1
    ties = 0
    for c in range(4):
        k = H[p, HC_COLOUR + c]
        if k > best:
            best = k
            ties = 1
        elif k == best:
            ties += 1
    pick = rand_below(rng, 1, ties) if ties > 1 else 0
    for c in range(4):
        if H[p, HC_COLOUR + c] == best:
            if pick == 0:
                return c
            pick -= 1
    return 0


@kernel
def _first_most_held_colour(H, p):
    best = 0
    for c in range(1, 4):
        if H[p, HC_COLOUR + c] > H[p, HC_COLOUR + best]:
            best = c
    return best


@kernel_inline
def _allowed(S, H, p, t, bluff_ok):
    """A play the strategy will consider: never a bluff unless it decided to bluff."""
    return t != WILD_DRAW_FOUR or bluff_ok or wd4_is_legal(S, H, p)


@kernel
def _with_colour(sid, H, p, t, rng):
    if t < WILD:
        return t
    if sid == FIRST:
        return t + 64 * _first_most_held_colour(H, p)
    return t + 64 * most_held_colour(H, p, rng)


@kernel
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
def _pick_play(sid, S, H, p, moves, weights, n, bluff_ok, rng):
    """Among the plays in ``moves``, the best by ``_score``, uniform over the
    physical cards that tie; -1 if there is none."""
    best = -(1 << 30)
    total = 0
    for i in range(n):
        t = moves[i]
        if t >= MV_PLAY_END or not _allowed(S, H, p, t, bluff_ok):
            continue
        s = _score(sid, t)
        if s > best:
            best = s
            total = weights[i]
        elif s == best:
            total += weights[i]
    if total == 0:
        return -1
    r = rand_below(rng, 1, total) if sid != FIRST else 0
    for i in range(n):
        t = moves[i]
        if t >= MV_PLAY_END or not _allowed(S, H, p, t, bluff_ok):
            continue
        if _score(sid, t) == best:
            if r < weights[i]:
                return t
            r -= weights[i]
    return -1


@kernel
def choose_move(sid, S, H, R, SEATF, moves, weights, rng):
    """The built-in strategy ``sid`` picks a legal move for the seat to act.

    ``moves``/``weights`` are scratch space for ``legal_moves``.
    """
    ph = S[S_PHASE]
    p = S[S_ACTOR]
    if sid == RANDOM and ph == PH_TURN:
        # the hot path: pick a physical card in O(1), no move list needed
        bluff_ok = chance(rng, 1, SEATF[p, SF_BLUFF])
        total = count_playable(S, H, R, p, bluff_ok)
        if total == 0:
            return MV_DRAW
        t = nth_playable(S, H, R, p, bluff_ok, rand_below(rng, 1, total))
        return _with_colour(sid, H, p, t, rng)
    if ph == PH_TURN or ph == PH_PENALTY:
        n = legal_moves(S, H, R, moves, weights)
        bluff_ok = chance(rng, 1, SEATF[p, SF_BLUFF])
        t = _pick_play(sid, S, H, p, moves, weights, n, bluff_ok, rng)
        if t >= 0:
            return _with_colour(sid, H, p, t, rng)
        return MV_DRAW if ph == PH_TURN else MV_TAKE
    if ph == PH_DRAWN:
        t = S[S_DRAWN]
        if _allowed(S, H, p, t, chance(rng, 1, SEATF[p, SF_BLUFF])):
            return _with_colour(sid, H, p, t, rng)
        return MV_PASS
    if ph == PH_CHALLENGE:
        return MV_CHALLENGE if chance(rng, 1, SEATF[p, SF_CHALLENGE]) else MV_ACCEPT
    if ph == PH_COLOUR:
        if sid == FIRST:
            return MV_COLOUR + _first_most_held_colour(H, p)
        return MV_COLOUR + most_held_colour(H, p, rng)
    return moves[0]

