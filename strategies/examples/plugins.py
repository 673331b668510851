"""Example plug-in strategies for ``--strategy-file`` (see ``unosim.strategies.api``).

    unosim --strategy-file strategies/examples/plugins.py:hybrid --seat 0=hybrid
    unosim tournament hybrid offensive defensive random \
        --strategy-file strategies/examples/plugins.py:hybrid

``random_copy`` is the reference ``random`` written as a plug-in: it plays the
same games as the built-in, move for move (the tests check it), and measures
what the plug-in path costs. ``hybrid`` shows the usual shape of a strategy:
handle the decisions you care about, hand the rest to a built-in.
"""

import numba

from unosim.strategies import api


@numba.njit
def random_copy(G, rng):
    """The built-in ``random`` (the reference baseline of the docs' Strategies page), as a
    plug-in."""
    phase = G[api.S_PHASE]
    p = G[api.S_ACTOR]
    if phase == api.PH_TURN:
        # a uniformly random playable card, each physical card counted once
        bluff = api.chance(rng, api.seat_param(G, p, api.SF_BLUFF))
        total = api.count_playable(G, p, bluff)
        if total == 0:
            return api.MV_DRAW
        t = api.nth_playable(G, p, bluff, api.randint(rng, total))
        if t >= api.WILD:
            return api.with_colour(t, api.most_held_colour(G, p, rng))
        return t
    if phase == api.PH_DRAWN:
        # play the drawn card (a Wild Draw Four only when legal, or as a bluff)
        t = G[api.S_DRAWN]
        bluff = api.chance(rng, api.seat_param(G, p, api.SF_BLUFF))
        if t != api.WILD_DRAW_FOUR or bluff or api.wd4_is_legal(G, p):
            if t >= api.WILD:
                return api.with_colour(t, api.most_held_colour(G, p, rng))
            return t
        return api.MV_PASS
    # challenges, stacking and the house rules' decisions: as the built-in
    return api.builtin_move(api.RANDOM, G, rng)


@numba.njit
def hybrid(G, rng):
    """Dump the highest-value coloured card, keep the wilds for the end."""
    if G[api.S_PHASE] != api.PH_TURN:
        return api.builtin_move(api.OFFENSIVE, G, rng)
    p = G[api.S_ACTOR]
    n = api.legal_moves(G)  # moves in G[OFF_MOVES + i], copies held in G[OFF_WEIGHTS + i]
    best, best_points, wild = -1, -1, -1
    for i in range(n):
        m = G[api.OFF_MOVES + i]
        if m >= api.MV_PLAY_END:
            continue  # MV_DRAW
        if m >= api.WILD:
            if m != api.WILD_DRAW_FOUR or api.wd4_is_legal(G, p):  # never bluff
                wild = m
        elif api.POINTS[m] > best_points:
            best, best_points = m, api.POINTS[m]
    if best >= 0:
        return best
    if wild >= 0:
        return api.with_colour(wild, api.most_held_colour(G, p, rng))
    return api.MV_DRAW
