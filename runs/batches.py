"""The batch of a table: the rows kernels' chunks on threads.

The rows kernels (runs/entries_nb.py: one per tier and mode, runs/tiers.py)
release the GIL, so ``chunks`` slices of a batch run side by side on
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

from unosim.runs import quick, tiers
from unosim.runs.compile_notice import first_use, is_compiled
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


def tier_of(seats: list[Any]) -> str:
    """The tier (runs/tiers.py) a table of built-ins needs: the least that plays it."""
    return tiers.tier_of(seats).name


def rows_kernel(mode: str, tier: str) -> Callable[..., None]:
    """The rows kernel of a mode (round, match) and tier."""
    return tiers.rows_kernel(mode, tiers.BY_NAME[tier])


def builtin_batch(mode: str, tier: str) -> Callable[..., None]:
    """The batch of a table of built-ins: ``(template, key, start, out, chunks)`` for
    rounds, ``(template, key, start, max_rounds, out, chunks)`` for matches: the
    arguments of the mode's rows kernel between ``start`` and ``out`` (a match's
    ``max_rounds``) pass through. Rounds of plain built-ins play on the quick kernel
    (runs/quick.py) while the plain round path is not compiled."""
    t = tiers.BY_NAME[tier]
    rows = tiers.rows_kernel(mode, t)
    path = t.entries[mode].path.name
    quick_path = t.entries[mode] is tiers.QUICK_FOR

    def batch(template: np.ndarray, key: Any, start: int, *rest: Any) -> None:
        *extra, out, chunks = rest
        if quick_path and quick.plays(template, len(out), is_compiled(path)):
            lean_rows = quick.rows_kernel()
            with first_use(tiers.QUICK.name):
                run_rows(lambda lo, hi, c, G, RNG: lean_rows(template, key, start, out, lo, hi,
                                                             G, RNG), len(out), chunks)
            quick.check(out)
            return
        with first_use(path):
            run_rows(lambda lo, hi, c, G, RNG: rows(template, key, start, *extra, out, lo, hi,
                                                    G, RNG), len(out), chunks)

    return batch
