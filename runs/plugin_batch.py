"""The batch of a table: the cached built-in batch (runs/batches.py) when every
seat is a built-in (the card counter too: its tier hears the events), the Python
driver (runs/python_batch.py) when a Python strategy plays a seat, else the chunks
of ``play_games_with`` (matches: ``play_matches_with``) on threads with the
plug-ins' chooser, an illegal move or an exception turned into a one-line
``PluginError`` that says what replays it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from unosim.runs import tiers
from unosim.runs.batches import builtin_batch, run_rows, tier_of
from unosim.runs.compile_notice import first_use
from unosim.runs.failures import illegal_message
from unosim.runs.plugin_loops import cached_loops
from unosim.simulate import layout as L
from unosim.strategies.plugins import PluginError, chooser_for, first_line
from unosim.strategies.registry import PLUGIN, PYTHON, SeatStrategy


def _entries(loop: Any, choose: Any, loops: Any, mode: str) -> Callable[[], list[Any]]:
    """The plug-in path's entry points for this table: the cached steps, and its loop:
    the cached one of ``loops`` (runs/plugin_loops.py: ``play_rows`` or
    ``play_match_rows`` by ``mode``), or, for plug-ins that cannot be cached, ``loop``
    until this process has specialised it to ``choose`` (which it does in every
    process, so every process that plays those plug-ins says so)."""
    def entries() -> list[Any]:
        from numba import typeof

        if loops is not None:
            return [*tiers.entry_points(tiers.PLUGINS.name), getattr(loops, f"play_{mode}")]
        mine = typeof(choose)
        done = any(sig and sig[0] == mine for sig in loop.signatures)
        return [*tiers.entry_points(tiers.PLUGINS.name), *([] if done else [loop])]

    return entries


def table_path(seats: list[SeatStrategy]) -> str:
    """Where a table plays: ``PYTHON`` (a Python strategy plays a seat), ``PLUGIN``
    (a compiled plug-in does), else the name of its tier of cached built-in entry
    points (runs/tiers.py), read from the kinds of its seats."""
    kinds = {s.kind for s in seats}
    for kind in (PYTHON, PLUGIN):
        if kind in kinds:
            return kind
    return tier_of(seats)


def batch_for(seats: list[SeatStrategy], seed: int | None = None,
              checked: bool = True) -> Callable[..., None]:
    """The batch for a table: ``batches.builtin_batch`` for built-ins only,
    else a function with the same arguments ``(template, key, start, out,
    chunks)`` that runs the chunks of ``play_games_with`` on Numba's number of
    threads and turns an illegal move or an exception into a one-line
    ``PluginError``. Results do not depend on the threads: each game is seeded
    from (seed, game index) alone."""
    from unosim.simulate.round_nb import play_games_with

    path = table_path(seats)
    if path == PYTHON:
        from unosim.runs.python_batch import python_batch

        return python_batch(seats, seed, checked)
    if path != PLUGIN:
        return builtin_batch("round", path)
    choose = chooser_for(seats)
    loops = cached_loops(seats)

    def run_batch(template: np.ndarray, key: Any, start: int, out: np.ndarray,
                  chunks: int) -> None:
        def play(lo: int, hi: int, bad: np.ndarray, G: np.ndarray, RNG: np.ndarray) -> None:
            if loops is not None:
                loops.play_rows(template, key, start, out, lo, hi, checked, bad, G, RNG)
            else:
                play_games_with(choose, template, key, start, out, lo, hi, checked, bad, G,
                                RNG)

        with first_use(tiers.PLUGINS.name, _entries(play_games_with, choose, loops, "rows")):
            hit = _run_chunks(seats, seed, start, len(out), chunks, 4, play, "game")
        if hit is not None:
            g, move, phase, seat = (int(x) for x in hit)
            raise PluginError(illegal_message(seats, g, move, phase, seat, seed))

    return run_batch


def match_batch_for(seats: list[SeatStrategy], seed: int | None = None,
                    checked: bool = True) -> Callable[..., None]:
    """``batch_for`` for matches: ``batches.builtin_batch`` for built-ins
    only, else the chunks of ``play_matches_with`` on threads, with the same
    arguments ``(template, key, start, max_rounds, out, chunks)``."""
    from unosim.simulate.match_nb import play_matches_with

    path = table_path(seats)
    if path == PYTHON:
        from unosim.runs.python_batch import python_batch

        return python_batch(seats, seed, checked, match=True)
    if path != PLUGIN:
        return builtin_batch("match", path)
    choose = chooser_for(seats)
    loops = cached_loops(seats)

    def run_batch(template: np.ndarray, key: Any, start: int, max_rounds: int,
                  out: np.ndarray, chunks: int) -> None:
        def play(lo: int, hi: int, bad: np.ndarray, G: np.ndarray, RNG: np.ndarray) -> None:
            if loops is not None:
                loops.play_match_rows(template, key, start, max_rounds, out, lo, hi, checked,
                                      bad, G, RNG)
            else:
                play_matches_with(choose, template, key, start, max_rounds, out, lo, hi,
                                  checked, bad, G, RNG)

        with first_use(tiers.PLUGINS.name,
                       _entries(play_matches_with, choose, loops, "match_rows")):
            hit = _run_chunks(seats, seed, start, len(out), chunks, 6, play, "match")
        if hit is not None:
            m, move, phase, seat, rnd, player = (int(x) for x in hit)
            raise PluginError(illegal_message(seats, m, move, phase, seat, seed,
                                              match_round=rnd, player=player))

    return run_batch


def _run_chunks(seats: list[SeatStrategy], seed: int | None, start: int, n: int,
                chunks: int, width: int, play: Callable[..., None],
                unit: str) -> np.ndarray | None:
    """Run ``play(lo, hi, bad, G, RNG)`` over ``chunks`` slices of ``n`` rows on
    Numba's number of threads (the kernels release the GIL), each slice on its
    own buffers. Returns the first illegal move's ``bad`` row (its first column
    the game or match index), or None; an exception raised in a plug-in becomes
    a one-line ``PluginError`` naming the first ``unit`` (game or match) that
    raises it."""
    chunks = max(1, min(int(chunks), n))
    bad = np.full((chunks, width), -1, np.int64)
    try:
        run_rows(lambda lo, hi, c, G, RNG: play(lo, hi, bad[c], G, RNG), n, chunks)
    except Exception as e:  # noqa: BLE001 - raised inside a plug-in
        g = _first_raising(play, start, n, width)
        names = ", ".join(sorted({s.name for s in seats if not s.builtin}))
        where = f"{unit} {g}" if g is not None else f"{unit}s {start}..{start + n - 1}"
        of = f" of seed {seed}" if seed is not None else ""
        replay = (f"; replay: Game(rules, seats, seed={seed}, game_index={g})"
                  if seed is not None and g is not None and unit == "game" else "")
        raise PluginError(f"plug-in strategy ({names}) raised {first_line(e)} in "
                          f"{where}{of}{replay}") from None
    hit = bad[bad[:, 0] >= 0]
    return hit[np.argmin(hit[:, 0])] if len(hit) else None


def _first_raising(play: Callable[..., None], start: int, n: int, width: int) -> int | None:
    """Play the rows again one at a time to find the first that raises."""
    G = np.empty(L.G_SIZE, np.int64)
    RNG = np.zeros(8, np.uint64)
    bad = np.full(width, -1, np.int64)
    for i in range(n):
        try:
            play(i, i + 1, bad, G, RNG)
        except Exception:  # noqa: BLE001
            return start + i
    return None
