"""The game loop and the parallel batch, compiled.

``play_round`` is nothing but the step contract in a loop (``step_nb.play_loop``):
ask the strategy of the seat to act for one of the legal moves, apply it, until the
round is over or hits the turn cap. ``play_chunks`` is the one parallel batch, for
rounds (``play_batch``) and matches (match_nb): game ``g`` is seeded from (seed, g)
alone, so results are bit-identical for any number of threads.

``play_games_with`` is the same for tables with user plug-ins: the chooser (built
from the plug-ins, strategies/plugins.py) is an argument, so each set of plug-ins
compiles its own specialisation of the same loop in each process; ``play_batch``,
for built-ins only, stays cached and untouched. The loops take their chooser (and
the round's apply) as arguments and are inlined, so each caller gets a copy
specialised to its own, with no call or check that the built-in path does not need.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from unosim.simulate import layout as L
from unosim.simulate.feel_nb import feel_finish, feel_record
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.step_nb import (  # noqa: F401 - move_is_legal: tests import it here
    apply_move,
    hand_value,
    hx,
    move_is_legal,
    play_loop,
    score_hands,
)
from unosim.strategies.search_nb import choose_move  # every built-in, the search too


@kernel
def play_round(G, RNG):
    """Deal and play one round to its end; return the winner's points."""
    play_loop(choose_move, apply_move, G, RNG, False)
    return score_hands(G)


@kernel_inline
def play_builtin_round(choose, G, RNG, checked):
    """``play_round`` in the form ``play_round_with`` has, for loops that take either
    (match_nb.match_loop): built-ins play legal moves only, so ``choose`` and
    ``checked`` are unused."""
    play_round(G, RNG)
    return False, 0


@kernel
def record_round(G, winner_points, out, row):
    """Write one round's metrics (RULES.md 9 and 9b) into row ``row`` of ``out``."""
    out[row, L.G_TURNS] = G[L.S_TURNS]
    out[row, L.G_PLAYED] = G[L.S_PLAYED]
    out[row, L.G_DRAWN_NO_PLAY] = G[L.S_DRAWN_NO_PLAY]
    out[row, L.G_PEN_DRAWN] = G[L.S_PEN_DRAWN]
    out[row, L.G_WINNER] = G[L.S_WINNER]
    out[row, L.G_WINNER_POINTS] = winner_points
    out[row, L.G_RESHUFFLES] = G[L.S_RESHUFFLES]
    out[row, L.G_CAPPED] = G[L.S_CAPPED]
    out[row, L.G_MAX_STACK] = G[L.S_MAX_STACK]
    out[row, L.G_UNO_CAUGHT] = G[L.S_UNO_CAUGHT]
    out[row, L.G_CHALLENGES] = G[L.S_CHALLENGES]
    out[row, L.G_JUMP_INS] = G[L.S_JUMP_INS]
    out[row, L.G_SWAPS] = G[L.S_SWAPS]
    out[row, L.G_DEFLECTS] = G[L.S_DEFLECTS]
    out[row, L.G_REFILL] = G[L.S_REFILL]
    out[row, L.G_UNO_CENTER] = G[L.S_UNO_CENTER]
    out[row, L.G_SILENT] = G[L.S_SILENT]
    n = G[L.R_PLAYERS]
    for q in range(L.MAX_PLAYERS):
        seated = q < n
        out[row, L.G_POINTS + q] = hand_value(G, q) if seated else 0
        out[row, L.G_PLACES + q] = G[hx(q, L.HC_PLACE)] if seated else 0
        out[row, L.G_STAGES + q] = G[hx(q, L.HC_STAGE)] if seated else 0
    feel_finish(G)
    feel_record(G, out, row, L.G_FEEL)


@kernel_inline
def _round_into(G, T, RNG, max_rounds, out, row):
    """Play one round and write its record into ``out[row]`` (the shape of
    match_nb.play_match, which ``play_chunks`` also runs)."""
    record_round(G, play_round(G, RNG), out, row)


@njit(cache=True, inline="always")
def play_chunks(play_one, template, base_seed, start, max_rounds, out, n_chunks):
    """The parallel batch: rows ``0 .. len(out)`` in ``n_chunks`` chunks, each on
    its own copy of ``template``; row ``i`` is game ``start + i``, seeded from
    (``base_seed``, game) alone and played by ``play_one(G, template, RNG,
    max_rounds, out, i)``. It allocates the chunks' arrays (once per chunk)."""
    n = out.shape[0]
    for c in prange(n_chunks):
        lo = c * n // n_chunks
        hi = (c + 1) * n // n_chunks
        G = np.empty(L.G_SIZE, np.int64)
        G[:] = template
        RNG = np.zeros(8, np.uint64)
        for i in range(lo, hi):
            seed_game(base_seed, start + i, RNG)
            play_one(G, template, RNG, max_rounds, out, i)


@njit(cache=True, parallel=True)
def play_batch(template, base_seed, start, out, n_chunks):
    """Play games ``start .. start + len(out)`` into ``out`` (one row each).

    ``template`` is a game array holding the rules, seats and deck (see
    ``rules.lower``); each chunk of games works on its own copy of it.
    """
    play_chunks(_round_into, template, base_seed, start, 0, out, n_chunks)


@kernel
def apply_move_call(G, RNG, move):
    """``apply_move`` behind a call (compiled and cached once), so that a plug-in
    table's game loop compiles in a moment instead of inlining the whole pipeline."""
    apply_move(G, RNG, move)


@njit(_nrt=False)
def play_round_with(choose, G, RNG, checked):
    """``play_round`` with the strategies of ``choose(G, RNG) -> move``. With
    ``checked`` every move is first checked with ``move_is_legal``: an illegal one
    stops the round unplayed. Returns (illegal, move)."""
    return play_loop(choose, apply_move_call, G, RNG, checked)


@njit(nogil=True, _nrt=False)
def play_games_with(choose, template, base_seed, start, out, lo, hi, checked, bad, G, RNG):
    """Rows ``lo .. hi`` of ``play_batch`` with the chooser ``choose``: game
    ``start + i`` into ``out[i]``, played on the buffers ``G`` (int64[G_SIZE])
    and ``RNG`` (uint64[8]). It releases the GIL, so threads run chunks side by
    side (a parallel loop here would cost seconds of compiling per set of
    plug-ins). In checked mode it stops at the first illegal move and writes
    (game, move, phase, seat) into ``bad`` (int64[4])."""
    for k in range(L.G_SIZE):
        G[k] = template[k]
    for i in range(lo, hi):
        g = start + i
        seed_game(base_seed, g, RNG)
        illegal, m = play_round_with(choose, G, RNG, checked)
        if illegal:
            bad[0] = g
            bad[1] = m
            bad[2] = G[L.S_PHASE]
            bad[3] = G[L.S_ACTOR]
            return
        record_round(G, score_hands(G), out, i)
