"""The game loop's rows and records, compiled, for any chooser.

A round is the step contract in a loop (``step_nb.play_loop``): ask the strategy
of the seat to act for one of the legal moves, apply it, until the round is over
or hits the turn cap. Game ``g`` is seeded from (seed, g) alone, so results are
bit-identical however the rows are split over threads.

The engine knows no strategy: the loops here take their chooser (and the round's
apply) as arguments and are inlined, so each caller gets a copy specialised to
its own. The cached entry points of the built-in strategies, one per tier and
mode, bind them to the built-ins' dispatch in the run layer (runs/entries_nb.py,
the one place that imports both the engine and the strategies); ``rows_loop`` is
the rows loop they run, ``record_round`` writes a round's record.

``play_games_with`` is the same for tables with user plug-ins: the chooser (built
from the plug-ins, strategies/plugins.py) is an argument, so each set of plug-ins
compiles its own specialisation of the same loop (``games_with``, which the cached
loops of runs/plugin_loops.py inline too), with ``apply_move`` behind a call
(``step_nb.apply_called``, compiled and cached once).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unosim.simulate import layout as L
from unosim.simulate.feel_nb import feel_finish, feel_record
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.rng_nb import seed_game, seed_game_inline
from unosim.simulate.step_nb import (  # noqa: F401 - move_is_legal: tests import it here
    apply_called,
    at,
    deal,
    hand_value,
    hu,
    hx,
    move_is_legal,
    play_loop,
    play_until,
    score_hands,
)

#: the record's scalar fields' state slots (layout.RECORD_SLOTS) as a constant array
_RECORD_SLOTS = np.array(L.RECORD_SLOTS, np.int64)


@kernel(share="record", kinds="GiOi")
def record_round(G, winner_points, out, row):
    """Write one round's metrics (docs/metrics.md#per-round and
    docs/metrics.md#game-feel) into row ``row`` of ``out``: the scalar fields from
    their state slots (declared in simulate/round_metrics.py), ``winner_points`` as
    the round was scored."""
    # the slots from a constant array, not the tuple: a tuple indexed by the loop
    # variable compiled to a jump table, a jump a field. Columns are unsigned
    # indices (never negative): no wraparound test a store.
    for k in range(len(_RECORD_SLOTS)):
        out[row, np.uint64(k)] = G[at(_RECORD_SLOTS[k])]
    out[row, L.G_WINNER_POINTS] = winner_points
    n = G[L.R_PLAYERS]
    for q in range(n):
        out[row, np.uint64(L.G_POINTS + q)] = hand_value(G, q)
        out[row, np.uint64(L.G_PLACES + q)] = G[hu(q, L.HC_PLACE)]
        out[row, np.uint64(L.G_STAGES + q)] = G[hu(q, L.HC_STAGE)]
    for q in range(n, L.MAX_PLAYERS):
        out[row, np.uint64(L.G_POINTS + q)] = 0
        out[row, np.uint64(L.G_PLACES + q)] = 0
        out[row, np.uint64(L.G_STAGES + q)] = 0
    feel_finish(G)
    feel_record(G, out, row, L.G_FEEL)


@kernel_inline
def rows_loop(play_one, template, base_seed, start, max_rounds, out, lo, hi, G, RNG):
    """Rows ``lo .. hi`` of a batch on the buffers ``G`` (int64[G_SIZE], filled from
    ``template`` once) and ``RNG`` (uint64[8]): row ``i`` is game ``start + i``,
    seeded from (``base_seed``, game) alone and played by ``play_one(G, template,
    RNG, max_rounds, out, i)``."""
    for k in range(L.G_SIZE):
        G[k] = template[k]
    for i in range(lo, hi):
        seed_game_inline(base_seed, start + i, RNG)
        play_one(G, template, RNG, max_rounds, out, i)


@njit(_nrt=False)
def play_round_with(choose, G, RNG, checked):
    """``play_round`` with the strategies of ``choose(G, RNG) -> move``. With
    ``checked`` every move is first checked with ``move_is_legal``: an illegal one
    stops the round unplayed. Returns (illegal, move)."""
    return play_loop(choose, apply_called, G, RNG, checked)


@njit(nogil=True, _nrt=False)
def play_games_with(choose, template, base_seed, start, out, lo, hi, checked, bad, G, RNG):
    """Rows ``lo .. hi`` of ``play_batch`` with the chooser ``choose``: game
    ``start + i`` into ``out[i]``, played on the buffers ``G`` (int64[G_SIZE])
    and ``RNG`` (uint64[8]). It releases the GIL, so threads run chunks side by
    side (a parallel loop here would cost seconds of compiling per set of
    plug-ins). In checked mode it stops at the first illegal move and writes
    (game, move, phase, seat) into ``bad`` (int64[4])."""
    games_with(choose, template, base_seed, start, out, lo, hi, checked, bad, G, RNG)


@kernel_inline
def games_with(choose, template, base_seed, start, out, lo, hi, checked, bad, G, RNG):
    """The body of ``play_games_with``, inlined where it is called: the cached loop
    of a set of plug-ins (runs/plugin_loops.py) calls it too, and a call to a compiled
    function would make LLVM optimise the whole loop again inside its caller, some
    4 s of every first compile."""
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


#: ``advance_with``'s ``move`` that deals a new round first
NEW_ROUND = -2


@kernel_inline
def advance_with(choose, G, RNG, move, seats, read, checked):
    """Play on from Python for a table with Python seats (the bits of ``seats``):
    deal first when ``move`` is NEW_ROUND, apply ``move`` when it is one, then
    ``play_until`` a Python seat is to act, ``choose`` playing every other seat,
    compiled. Returns what ``play_until`` does: (n, 0) with its n legal moves in
    G[OFF_MOVES ..], (OVER, 0), (READ_EVENTS, 0) when the events not yet read by
    Python (from ``read`` on) fill the ring but for one decision's worth, or
    (ILLEGAL, move) in checked mode."""
    if move == NEW_ROUND:
        deal(G, RNG)
    elif move >= 0:
        apply_called(G, RNG, move)
    return play_until(choose, apply_called, G, RNG, seats, read, checked)
