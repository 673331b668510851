"""The game loop and the batch rows, compiled.

``play_round`` is nothing but the step contract in a loop (``step_nb.play_loop``):
ask the strategy of the seat to act for one of the legal moves, apply it, until the
round is over or hits the turn cap. Game ``g`` is seeded from (seed, g) alone, so
results are bit-identical however the rows are split over threads.

What compiles when (Numba compiles everything an entry point can reach, on its
first call): ``play_rows`` plays tables of the built-ins without parameters and
reaches neither the parametric strategies, nor the search, nor match mode;
``play_rows_param`` and ``play_rows_search`` are the same loop with those in the
dispatch, compiled the first time a table seats one; match_nb holds the match
entry points. The rows kernels release the GIL and the batch
(runs/batches.py) runs their chunks on threads: a ``prange`` loop would add
some twenty seconds of compiling to each entry point for the same speed.

``play_games_with`` is the same for tables with user plug-ins: the chooser (built
from the plug-ins, strategies/plugins.py) is an argument, so each set of plug-ins
compiles its own specialisation of the same loop in each process, with
``apply_move`` behind a call (``search_nb.apply_called``, compiled and cached once).
The loops take their chooser (and the round's apply) as arguments and are inlined,
so each caller gets a copy specialised to its own.
"""

from __future__ import annotations

from numba import njit

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
from unosim.strategies.builtin_nb import _choose, choose_plain
from unosim.strategies.search_nb import apply_called, choose_move


@kernel_inline
def plain_choose(G, rng):
    """The dispatch of tables of built-ins without parameters."""
    return choose_plain(G[L.OFF_STRAT + G[L.S_ACTOR]], G, rng)


@kernel_inline
def builtin_choose(G, rng):
    """The dispatch of tables of non-search built-ins."""
    return _choose(G[L.OFF_STRAT + G[L.S_ACTOR]], G, rng)


@kernel
def play_round(G, RNG):
    """Deal and play one round of built-ins without parameters to its end; return
    the winner's points."""
    play_loop(plain_choose, apply_move, G, RNG, False)
    return score_hands(G)


@kernel
def play_round_param(G, RNG):
    """``play_round`` for a table with a parametric strategy (no search)."""
    play_loop(builtin_choose, apply_move, G, RNG, False)
    return score_hands(G)


@kernel
def play_round_search(G, RNG):
    """``play_round`` for a table with a search seat. It steps with ``apply_called``,
    which the rollouts compile anyway, instead of inlining the rule pipeline again:
    a search seat's first use compiles some fifteen seconds less, and the call costs
    nothing next to the searched decisions."""
    play_loop(choose_move, apply_called, G, RNG, False)
    return score_hands(G)


@kernel_inline
def play_plain_round(choose, G, RNG, checked):
    """``play_round`` in the form ``play_round_with`` has, for loops that take either
    (match_nb.match_loop): built-ins play legal moves only, so ``choose`` and
    ``checked`` are unused."""
    play_round(G, RNG)
    return False, 0


@kernel_inline
def play_param_round(choose, G, RNG, checked):
    play_round_param(G, RNG)
    return False, 0


@kernel_inline
def play_search_round(choose, G, RNG, checked):
    play_round_search(G, RNG)
    return False, 0


@kernel
def record_round(G, winner_points, out, row):
    """Write one round's metrics (docs/metrics.md#per-round and
    docs/metrics.md#game-feel) into row ``row`` of ``out``."""
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
    for q in range(n):
        out[row, L.G_POINTS + q] = hand_value(G, q)
        out[row, L.G_PLACES + q] = G[hx(q, L.HC_PLACE)]
        out[row, L.G_STAGES + q] = G[hx(q, L.HC_STAGE)]
    for q in range(n, L.MAX_PLAYERS):
        out[row, L.G_POINTS + q] = 0
        out[row, L.G_PLACES + q] = 0
        out[row, L.G_STAGES + q] = 0
    feel_finish(G)
    feel_record(G, out, row, L.G_FEEL)


@kernel_inline
def _round_into(G, T, RNG, max_rounds, out, row):
    """Play one round and write its record into ``out[row]`` (the shape of
    match_nb.play_match, which ``rows_loop`` also runs)."""
    record_round(G, play_round(G, RNG), out, row)


@kernel_inline
def _param_round_into(G, T, RNG, max_rounds, out, row):
    record_round(G, play_round_param(G, RNG), out, row)


@kernel_inline
def _search_round_into(G, T, RNG, max_rounds, out, row):
    record_round(G, play_round_search(G, RNG), out, row)


@kernel_inline
def rows_loop(play_one, template, base_seed, start, max_rounds, out, lo, hi, G, RNG):
    """Rows ``lo .. hi`` of a batch on the buffers ``G`` (int64[G_SIZE], filled from
    ``template`` once) and ``RNG`` (uint64[8]): row ``i`` is game ``start + i``,
    seeded from (``base_seed``, game) alone and played by ``play_one(G, template,
    RNG, max_rounds, out, i)``."""
    for k in range(L.G_SIZE):
        G[k] = template[k]
    for i in range(lo, hi):
        seed_game(base_seed, start + i, RNG)
        play_one(G, template, RNG, max_rounds, out, i)


@njit(cache=True, nogil=True, _nrt=False)
def play_rows(template, base_seed, start, out, lo, hi, G, RNG):
    """Games ``start + lo .. start + hi`` into ``out[lo:hi]`` (one row each) for a
    table of built-ins without parameters. ``template`` is a game array holding the
    rules, seats and deck (see ``rules.lower``)."""
    rows_loop(_round_into, template, base_seed, start, 0, out, lo, hi, G, RNG)


@njit(cache=True, nogil=True, _nrt=False)
def play_rows_param(template, base_seed, start, out, lo, hi, G, RNG):
    """``play_rows`` for a table with a parametric strategy (no search)."""
    rows_loop(_param_round_into, template, base_seed, start, 0, out, lo, hi, G, RNG)


@njit(cache=True, nogil=True, _nrt=False)
def play_rows_search(template, base_seed, start, out, lo, hi, G, RNG):
    """``play_rows`` for a table with a search seat."""
    rows_loop(_search_round_into, template, base_seed, start, 0, out, lo, hi, G, RNG)


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
