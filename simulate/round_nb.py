"""The game loop and the parallel batch, compiled.

``play_round`` is nothing but the step contract in a loop: ask the strategy of the
seat to act for one of the legal moves, apply it, until the round is over or hits
the turn cap. ``play_batch`` runs games in parallel; game ``g`` is seeded from
(seed, g) alone, so results are bit-identical for any number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from unosim.simulate.jit import kernel
from unosim.simulate.layout import (
    G_CAPPED,
    G_CHALLENGES,
    G_DEFLECTS,
    G_DRAWN_NO_PLAY,
    G_JUMP_INS,
    G_MAX_STACK,
    G_PEN_DRAWN,
    G_PLACES,
    G_PLAYED,
    G_POINTS,
    G_REFILL,
    G_RESHUFFLES,
    G_SILENT,
    G_SIZE,
    G_STAGES,
    G_SWAPS,
    G_TURNS,
    G_UNO_CAUGHT,
    G_UNO_CENTER,
    G_WINNER,
    G_WINNER_POINTS,
    HC_PLACE,
    HC_STAGE,
    MAX_PLAYERS,
    PH_OVER,
    R_PLAYERS,
    R_TURN_CAP,
    S_CAPPED,
    S_CHALLENGES,
    S_DEFLECTS,
    S_DRAWN_NO_PLAY,
    S_JUMP_INS,
    S_MAX_STACK,
    S_PEN_DRAWN,
    S_PHASE,
    S_PLAYED,
    S_REFILL,
    S_RESHUFFLES,
    S_SILENT,
    S_SWAPS,
    S_TURNS,
    S_UNO_CAUGHT,
    S_UNO_CENTER,
    S_WINNER,
)
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.step_nb import apply_move, cap_round, deal, hand_value, hx, score_hands
from unosim.strategies.builtin_nb import choose_move


@kernel
def play_round(G, RNG):
    """Deal and play one round to its end; return the winner's points."""
    deal(G, RNG)
    cap = G[R_TURN_CAP]
    while G[S_PHASE] != PH_OVER:
        if G[S_TURNS] >= cap:
            cap_round(G)
            break
        apply_move(G, RNG, choose_move(G, RNG))
    return score_hands(G)


@kernel
def record_round(G, winner_points, out, row):
    """Write one round's metrics (RULES.md 9) into row ``row`` of ``out``."""
    out[row, G_TURNS] = G[S_TURNS]
    out[row, G_PLAYED] = G[S_PLAYED]
    out[row, G_DRAWN_NO_PLAY] = G[S_DRAWN_NO_PLAY]
    out[row, G_PEN_DRAWN] = G[S_PEN_DRAWN]
    out[row, G_WINNER] = G[S_WINNER]
    out[row, G_WINNER_POINTS] = winner_points
    out[row, G_RESHUFFLES] = G[S_RESHUFFLES]
    out[row, G_CAPPED] = G[S_CAPPED]
    out[row, G_MAX_STACK] = G[S_MAX_STACK]
    out[row, G_UNO_CAUGHT] = G[S_UNO_CAUGHT]
    out[row, G_CHALLENGES] = G[S_CHALLENGES]
    out[row, G_JUMP_INS] = G[S_JUMP_INS]
    out[row, G_SWAPS] = G[S_SWAPS]
    out[row, G_DEFLECTS] = G[S_DEFLECTS]
    out[row, G_REFILL] = G[S_REFILL]
    out[row, G_UNO_CENTER] = G[S_UNO_CENTER]
    out[row, G_SILENT] = G[S_SILENT]
    n = G[R_PLAYERS]
    for q in range(MAX_PLAYERS):
        seated = q < n
        out[row, G_POINTS + q] = hand_value(G, q) if seated else 0
        out[row, G_PLACES + q] = G[hx(q, HC_PLACE)] if seated else 0
        out[row, G_STAGES + q] = G[hx(q, HC_STAGE)] if seated else 0


@njit(cache=True, parallel=True)
def play_batch(template, base_seed, start, out, n_chunks):
    """Play games ``start .. start + len(out)`` into ``out`` (one row each).

    ``template`` is a game array holding the rules, seats and deck (see
    ``rules.lower``); each chunk of games works on its own copy of it.
    """
    n = out.shape[0]
    for c in prange(n_chunks):
        lo = c * n // n_chunks
        hi = (c + 1) * n // n_chunks
        G = np.empty(G_SIZE, np.int64)
        G[:] = template
        RNG = np.zeros(8, np.uint64)
        for i in range(lo, hi):
            g = start + i
            seed_game(base_seed, g, 0, RNG)
            seed_game(base_seed, g, 1, RNG)
            wp = play_round(G, RNG)
            record_round(G, wp, out, i)
