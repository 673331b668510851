"""Plug-ins for tests/strategies/test_strategies_plugins.py: well-behaved and broken ones."""

import numba
import numpy as np

from unosim.strategies import api


def plain(G, rng):
    return api.MV_DRAW


@numba.njit
def three_args(G, rng, extra):
    return api.MV_DRAW


@numba.njit
def returns_float(G, rng):
    return 0.5


@numba.njit
def bad_types(G, rng):
    return G.no_such_attribute


@numba.njit
def raises(G, rng):
    if G[api.S_TURNS] >= 10:
        raise ValueError("boom")
    return api.builtin_move(api.RANDOM, G, rng)


@numba.njit
def illegal(G, rng):
    """Passes on its turn from turn 6 on: an illegal move."""
    if G[api.S_PHASE] == api.PH_TURN and G[api.S_TURNS] >= 6:
        return api.MV_PASS
    return api.builtin_move(api.RANDOM, G, rng)


@numba.njit
def always_draw(G, rng):
    """Draws on every turn; plays the drawn card; otherwise as random."""
    if G[api.S_PHASE] == api.PH_TURN:
        return api.MV_DRAW
    return api.builtin_move(api.RANDOM, G, rng)


@numba.njit
def allocates(G, rng):
    """Uses a scratch array (needs Numba's memory manager), plays like first."""
    buf = np.zeros(4, np.int64)
    buf[0] = api.builtin_move(api.FIRST, G, rng)
    return buf[0]
