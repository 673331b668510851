"""The quick round kernel: a first answer in half the compile.

The plain round path (runs/entries_nb.py ``play_rows``) compiles every rule step
and every plain built-in's choices into one loop, with the rule pipeline inlined:
some thirty seconds on two cores before the first game of the quick start. Most
first tables need much less: the official rules or a stacking variant, ``random``
seats. For those, while the plain round path is not compiled, a table plays on a
copy of the round (compiler/lean.py) with the rule pipeline behind a call
(``play_rows_called``, so the helper process compiles it beside the command) and
stand-ins for the steps and choices the table cannot reach
(simulate/standins_nb.py, strategies/standins_nb.py). The games are the same
(each is seeded by its index alone and the kernel differs only in steps not
taken); it plays about half as many games a second, so a process switches to
the plain round path, compiling it then, once it has played ``QUICK_GAMES`` games
on this one, and ``unosim compile`` and ``unosim bench`` compile that path itself
(``suspended``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate import standins_nb as steps

#: games a process plays on the quick kernel before it compiles the plain round path
#: for the rest (and a run of as many compiles it first): on two cores the quick
#: kernel plays some 500,000 games a second against 800,000, so its extra time
#: matches the plain path's extra 20 s of compile at about 25 million games
QUICK_GAMES = 20_000_000
_played = [0]
#: set while the plain round path is being compiled on purpose (``suspended``)
_suspended = [0]


@contextmanager
def suspended() -> Iterator[None]:
    """Play no table on the quick kernel inside the block: ``unosim compile`` and
    ``unosim bench`` compile and time the plain round path itself."""
    _suspended[0] += 1
    try:
        yield
    finally:
        _suspended[0] -= 1


def copy_of(kernel: Any) -> Any:
    """``kernel`` as the quick kernel calls it (``entries_nb.quick_copy``)."""
    from unosim.runs import entries_nb

    return entries_nb.quick_copy(kernel)


def rows_kernel() -> Any:
    """The quick kernel's rows entry point (``play_rows``'s arguments)."""
    from unosim.runs import entries_nb

    return entries_nb.quick_copy(entries_nb.play_rows_called)


@functools.cache
def reached() -> set[Any]:
    """Every kernel the quick kernel reaches (the helper compiles only those)."""
    from unosim.compiler.lean import reaches

    return reaches(rows_kernel())


def serves(template: np.ndarray) -> bool:
    """Whether the quick kernel plays this table (its game array) as the plain
    round path does."""
    from unosim.strategies import standins_nb as choices

    ids = [int(template[L.OFF_STRAT + p]) for p in range(int(template[L.R_PLAYERS]))]
    return steps.leaves_out(template) and choices.leaves_out(ids)


def plays(template: np.ndarray, games: int, full_compiled: bool) -> bool:
    """Whether the next ``games`` rows of a plain round table play on the quick
    kernel: the plain round path is not compiled, the table is one it serves, and
    this process has not played its ``QUICK_GAMES`` yet (counted here)."""
    if full_compiled or _suspended[0] or _played[0] >= QUICK_GAMES or not serves(template):
        return False
    _played[0] += games
    return True


def check(out: np.ndarray) -> None:
    """Raise if a round of the batch reached a stand-in (a bug in ``serves``)."""
    if (out[:, L.G_CAPPED] == steps.REACHED).any():
        raise RuntimeError("the quick round kernel reached a step it leaves out")
