"""The composition root: the cached entry points of the built-in strategies, where
the engine and the strategies meet. Compiled.

The engine (simulate/) knows no strategy: its loops (``step_nb.play_loop``,
``round_nb.rows_loop``, ``match_nb.match_loop``) take their chooser or round player
as an argument. This module binds them to the built-ins' dispatch, once per tier
(runs/tiers.py declares the tiers, and which entry point here each mode of a tier
runs):

* plain: tables of the built-ins without parameters (``choose_plain``);
* param: tables with a parametric strategy, no search (``builtin_nb._choose``);
* search: tables with a search seat or a built-in that observes the table's events,
  the card counter (``search_nb.choose_move``, the dispatch of every built-in, which
  hands the recorded events to the observers before a decision; stepping with
  ``step_nb.apply_called``, which the rollouts compile anyway, instead of inlining
  the rule pipeline again: a search seat's first use compiles some fifteen seconds
  less, and the call costs nothing next to the searched decisions).

What compiles when (Numba compiles everything an entry point can reach, on its
first call): ``play_rows`` plays tables of the built-ins without parameters and
reaches neither the parametric strategies, nor the search, nor match mode; each
other entry point is the same loop with those in the dispatch, compiled the first
time a table needs it. The rows kernels release the GIL and the batch
(runs/batches.py) runs their chunks on threads: a ``prange`` loop would add some
twenty seconds of compiling to each entry point for the same speed.
"""

from __future__ import annotations

import functools
from typing import Any

from numba import njit

from unosim.compiler.lean import lean
from unosim.simulate import layout as L
from unosim.simulate import standins_nb as step_standins
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.match_nb import match_loop
from unosim.simulate.round_nb import advance_with, record_round, rows_loop
from unosim.simulate.step_nb import apply_called, apply_move, at, play_loop, score_hands
from unosim.strategies import standins_nb as choice_standins
from unosim.strategies.builtin_nb import _choose, choose_plain
from unosim.strategies.search_nb import choose_move

# ---------------------------------------------------------------- the choosers


@kernel_inline
def plain_choose(G, rng):
    """The dispatch of tables of built-ins without parameters (an unsigned index:
    no wraparound test a turn)."""
    return choose_plain(G[at(L.OFF_STRAT + G[L.S_ACTOR])], G, rng)


@kernel_inline
def builtin_choose(G, rng):
    """The dispatch of tables of non-search built-ins."""
    return _choose(G[at(L.OFF_STRAT + G[L.S_ACTOR])], G, rng)


# ---------------------------------------------------------------- one round


@kernel
def play_round(G, RNG):
    """Deal and play one round of built-ins without parameters to its end; return
    the winner's points."""
    play_loop(plain_choose, apply_move, G, RNG, False)
    return score_hands(G)


@kernel_inline
def play_round_called(G, RNG):
    """``play_round`` stepping with ``apply_called``: what the quick kernel
    (runs/quick.py) plays, so that its first compile puts the rule pipeline in the
    helper process instead of inlining it into the round after the helper is done."""
    play_loop(plain_choose, apply_called, G, RNG, False)
    return score_hands(G)


@kernel
def play_round_param(G, RNG):
    """``play_round`` for a table with a parametric strategy (no search)."""
    play_loop(builtin_choose, apply_move, G, RNG, False)
    return score_hands(G)


@kernel
def play_round_search(G, RNG):
    """``play_round`` for a table with a search seat or the card counter (steps with
    ``apply_called``)."""
    play_loop(choose_move, apply_called, G, RNG, False)
    return score_hands(G)


@kernel_inline
def play_plain_round(choose, G, RNG, checked):
    """``play_round`` in the form ``round_nb.play_round_with`` has, for the loops that
    take either (match_nb.match_loop): built-ins play legal moves only, so
    ``choose`` and ``checked`` are unused."""
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


# ---------------------------------------------------------------- rows of rounds


@kernel_inline
def _round_into(G, T, RNG, max_rounds, out, row):
    """Play one round and write its record into ``out[row]`` (the shape of
    ``play_match``, which ``rows_loop`` also runs)."""
    record_round(G, play_round(G, RNG), out, row)


@kernel_inline
def _called_round_into(G, T, RNG, max_rounds, out, row):
    record_round(G, play_round_called(G, RNG), out, row)


@kernel_inline
def _param_round_into(G, T, RNG, max_rounds, out, row):
    record_round(G, play_round_param(G, RNG), out, row)


@kernel_inline
def _search_round_into(G, T, RNG, max_rounds, out, row):
    record_round(G, play_round_search(G, RNG), out, row)


@njit(cache=True, nogil=True, _nrt=False)
def play_rows(template, base_seed, start, out, lo, hi, G, RNG):
    """Games ``start + lo .. start + hi`` into ``out[lo:hi]`` (one row each) for a
    table of built-ins without parameters, on the buffers ``G`` (int64[G_SIZE])
    and ``RNG`` (uint64[8]). ``template`` is a game array holding the rules, seats
    and deck (see ``rules.lower``)."""
    rows_loop(_round_into, template, base_seed, start, 0, out, lo, hi, G, RNG)


@njit(cache=True, nogil=True, _nrt=False)
def play_rows_called(template, base_seed, start, out, lo, hi, G, RNG):
    """``play_rows`` with the rule pipeline behind a call (``play_round_called``)."""
    rows_loop(_called_round_into, template, base_seed, start, 0, out, lo, hi, G, RNG)


@njit(cache=True, nogil=True, _nrt=False)
def play_rows_param(template, base_seed, start, out, lo, hi, G, RNG):
    """``play_rows`` for a table with a parametric strategy (no search)."""
    rows_loop(_param_round_into, template, base_seed, start, 0, out, lo, hi, G, RNG)


@njit(cache=True, nogil=True, _nrt=False)
def play_rows_search(template, base_seed, start, out, lo, hi, G, RNG):
    """``play_rows`` for a table with a search seat or the card counter."""
    rows_loop(_search_round_into, template, base_seed, start, 0, out, lo, hi, G, RNG)


# ---------------------------------------------------------------- matches


@kernel
def play_match(G, T, RNG, max_rounds, out, row):
    """Play one match of built-ins without parameters on ``G`` (rules and seats from
    template ``T``) into ``out[row]``."""
    match_loop(play_plain_round, 0, G, T, RNG, max_rounds, out, row, False)


@kernel
def play_match_param(G, T, RNG, max_rounds, out, row):
    """``play_match`` for a table with a parametric strategy (no search)."""
    match_loop(play_param_round, 0, G, T, RNG, max_rounds, out, row, False)


@kernel
def play_match_search(G, T, RNG, max_rounds, out, row):
    """``play_match`` for a table with a search seat or the card counter."""
    match_loop(play_search_round, 0, G, T, RNG, max_rounds, out, row, False)


@njit(cache=True, nogil=True, _nrt=False)
def play_match_rows(template, base_seed, start, max_rounds, out, lo, hi, G, RNG):
    """Matches ``start + lo .. start + hi`` into ``out[lo:hi]`` (one row each), on the
    buffers ``G`` and ``RNG`` (as ``play_rows``). Match ``m`` is seeded from (seed, m)
    alone, exactly as game ``m`` of a run of rounds, so its first round is that
    game, and results do not depend on threads."""
    rows_loop(play_match, template, base_seed, start, max_rounds, out, lo, hi, G, RNG)


@njit(cache=True, nogil=True, _nrt=False)
def play_match_rows_param(template, base_seed, start, max_rounds, out, lo, hi, G, RNG):
    """``play_match_rows`` for a table with a parametric strategy (no search)."""
    rows_loop(play_match_param, template, base_seed, start, max_rounds, out, lo, hi, G, RNG)


@njit(cache=True, nogil=True, _nrt=False)
def play_match_rows_search(template, base_seed, start, max_rounds, out, lo, hi, G, RNG):
    """``play_match_rows`` for a table with a search seat or the card counter."""
    rows_loop(play_match_search, template, base_seed, start, max_rounds, out, lo, hi, G, RNG)


# ---------------------------------------------------------------- Python seats


@kernel
def advance_builtins(G, RNG, move, seats, read, checked):
    """``round_nb.advance_with`` for a table whose other seats are all built-ins
    (the card counter among them): cached, so a Python strategy's table compiles
    nothing of its own after the first run on a machine."""
    return advance_with(choose_move, G, RNG, move, seats, read, checked)


# ---------------------------------------------------------------- the quick kernel

#: the tag of the quick round kernel's copies (compiler/lean.py; runs/quick.py plays it)
QUICK = "quick"


@functools.cache
def _quick_standins() -> dict[Any, Any]:
    # the steps and choices its tables never reach, and the chooser behind a call
    # (the rule pipeline is behind one too: play_rows_called), so that the round
    # itself compiles in moments once the helper and the command have done the rest
    return {**step_standins.standins(), **choice_standins.standins(),
            plain_choose: choice_standins.choose_seat}


def quick_copy(kernel: Any) -> Any:
    """``kernel`` as the quick round kernel calls it: a copy with the stand-ins on its
    way, or itself. Defined here, in a module of the engine fingerprint, so that a
    change to what the copies swap changes the fingerprint (their cache entries are
    named after the originals' bytecode)."""
    return lean(kernel, _quick_standins(), QUICK)
