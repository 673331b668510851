"""The batch of a table: the rows kernels' chunks on threads.

The rows kernels (round_nb.play_rows, match_nb.play_match_rows and their search
versions) release the GIL, so ``chunks`` slices of a batch run side by side on
Numba's number of threads, each slice on its own game buffers. Each game is
seeded from (seed, game index) alone, so the results do not depend on the
threads or the slicing.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba
import numpy as np

from unosim.compiler.compiling import first_use, path_of
from unosim.simulate import layout as L


def run_rows(play: Callable[[int, int, int, np.ndarray, np.ndarray], None], n: int,
             chunks: int) -> int:
    """Run ``play(lo, hi, c, G, RNG)`` over ``chunks`` slices ``c`` of ``n`` rows, on
    at most Numba's number of threads; returns the number of slices."""
    chunks = max(1, min(int(chunks), n))

    def work(c: int) -> None:
        play(c * n // chunks, (c + 1) * n // chunks, c, np.empty(L.G_SIZE, np.int64),
             np.zeros(8, np.uint64))

    threads = max(1, min(numba.get_num_threads(), chunks))
    if threads == 1:
        for c in range(chunks):
            work(c)
    else:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(work, range(chunks)))
    return chunks


#: the kernel families, each compiled on first use: built-ins without parameters,
#: with a parametric strategy, with a search seat
TIERS = ("plain", "param", "search")


def tier_of(seats: list[Any]) -> str:
    """The kernel family a table of built-ins needs: the least that plays it."""
    from unosim.strategies.builtin_nb import PARAM_SID

    if any(s.plugin is None and s.name == "search" for s in seats):
        return "search"
    if any(s.plugin is None and s.sid >= PARAM_SID for s in seats):
        return "param"
    return "plain"


def rows_kernel(mode: str, tier: str) -> Callable[..., None]:
    """The rows kernel of a mode (round, match) and tier."""
    if mode == "round":
        from unosim.simulate import round_nb as R

        return {"plain": R.play_rows, "param": R.play_rows_param,
                "search": R.play_rows_search}[tier]
    from unosim.simulate import match_nb as M

    return {"plain": M.play_match_rows, "param": M.play_match_rows_param,
            "search": M.play_match_rows_search}[tier]


def builtin_batch(mode: str, tier: str) -> Callable[..., None]:
    """The batch of a table of built-ins: ``(template, key, start, out, chunks)`` for
    rounds, ``(template, key, start, max_rounds, out, chunks)`` for matches."""
    rows = rows_kernel(mode, tier)
    path = path_of(mode, tier)
    if mode == "round":
        def rounds(template: np.ndarray, key: Any, start: int, out: np.ndarray,
                   chunks: int) -> None:
            with first_use(path):
                run_rows(lambda lo, hi, c, G, RNG: rows(template, key, start, out, lo, hi, G,
                                                        RNG), len(out), chunks)

        return rounds

    def matches(template: np.ndarray, key: Any, start: int, max_rounds: int, out: np.ndarray,
                chunks: int) -> None:
        with first_use(path):
            run_rows(lambda lo, hi, c, G, RNG: rows(template, key, start, max_rounds, out, lo,
                                                    hi, G, RNG), len(out), chunks)

    return matches
