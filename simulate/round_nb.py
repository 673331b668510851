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
    G_DRAWN_NO_PLAY,
    G_MAX_STACK,
    G_PEN_DRAWN,
    G_PLAYED,
    G_POINTS,
    G_RESHUFFLES,
    G_TURNS,
    G_UNO_CAUGHT,
    G_WINNER,
    G_WINNER_POINTS,
    HC_POINTS,
    HW,
    MAX_MOVES,
    MAX_PLAYERS,
    N_STATE,
    PH_OVER,
    R_PLAYERS,
    R_TURN_CAP,
    S_ACTOR,
    S_CAPPED,
    S_CHALLENGES,
    S_DRAWN_NO_PLAY,
    S_MAX_STACK,
    S_PEN_DRAWN,
    S_PHASE,
    S_PLAYED,
    S_RESHUFFLES,
    S_TURNS,
    S_UNO_CAUGHT,
    S_WINNER,
)
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.step_nb import apply_move, cap_round, deal, score_hands
from unosim.strategies.builtin_nb import choose_move


@kernel
def play_round(S, H, PILES, RNG, R, RF, SEATF, deck, strat, moves, weights):
    """Deal and play one round to its end; return the winner's points."""
    deal(S, H, PILES, RNG, R, deck)
    cap = R[R_TURN_CAP]
    while S[S_PHASE] != PH_OVER:
        if S[S_TURNS] >= cap:
            cap_round(S)
            break
        mv = choose_move(strat[S[S_ACTOR]], S, H, R, SEATF, moves, weights, RNG)
        apply_move(S, H, PILES, RNG, R, RF, SEATF, mv)
    return score_hands(S, H, R)


@kernel
def record_round(S, H, R, winner_points, out, row):
    """Write one round's metrics (RULES.md 9) into row ``row`` of ``out``."""
    out[row, G_TURNS] = S[S_TURNS]
    out[row, G_PLAYED] = S[S_PLAYED]
    out[row, G_DRAWN_NO_PLAY] = S[S_DRAWN_NO_PLAY]
    out[row, G_PEN_DRAWN] = S[S_PEN_DRAWN]
    out[row, G_WINNER] = S[S_WINNER]
    out[row, G_WINNER_POINTS] = winner_points
    out[row, G_RESHUFFLES] = S[S_RESHUFFLES]
    out[row, G_CAPPED] = S[S_CAPPED]
    out[row, G_MAX_STACK] = S[S_MAX_STACK]
    out[row, G_UNO_CAUGHT] = S[S_UNO_CAUGHT]
    out[row, G_CHALLENGES] = S[S_CHALLENGES]
    for q in range(MAX_PLAYERS):
        out[row, G_POINTS + q] = H[q, HC_POINTS] if q < R[R_PLAYERS] else 0


@njit(cache=True, parallel=True)
def play_batch(R, RF, SEATF, deck, strat, base_seed, start, out, n_chunks):
    """Play games ``start .. start + len(out)`` into ``out`` (one row each)."""
    n = out.shape[0]
    deck_size = deck.shape[0]
    for c in prange(n_chunks):
        lo = c * n // n_chunks
        hi = (c + 1) * n // n_chunks
        S = np.zeros(N_STATE, np.int64)
        H = np.zeros((MAX_PLAYERS, HW), np.int32)
        PILES = np.zeros((2, deck_size), np.int32)
        RNG = np.zeros((2, 4), np.uint64)
        moves = np.zeros(MAX_MOVES, np.int64)
        weights = np.zeros(MAX_MOVES, np.int64)
        for i in range(lo, hi):
            g = start + i
            seed_game(base_seed, g, 0, RNG)
            seed_game(base_seed, g, 1, RNG)
            wp = play_round(S, H, PILES, RNG, R, RF, SEATF, deck, strat, moves, weights)
            record_round(S, H, R, wp, out, i)
