"""Play a table's games: seeding, batch sizes, warming the kernels, and the one task
loop of every study that plays tables over ranges of game indices.

A study is a sequence of tasks (``play_range``), each a range of game indices played
in every table of the study, batch by batch, and folded into its totals where it is
played, so memory stays flat whatever ``games`` is, and the same task function runs
on this machine and on a Dask worker.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from unosim.errors import UnosimError
from unosim.runs import clock, modes
from unosim.runs.aggregate import Aggregate
from unosim.runs.backend import (  # noqa: F401 - the run layer's names, kept here too
    Backend,
    LocalBackend,
    Progress,
    check_workers,
    max_workers,
    run_tasks,
    use_workers,
)
from unosim.runs.match import (
    DEFAULT_MAX_ROUNDS,
    MatchAggregate,
)
from unosim.runs.modes import MATCH, ROUND, Mode, record_width  # noqa: F401
from unosim.runs.tables import Table, base_seed, game_template  # noqa: F401
from unosim.simulate.rules import Rules
from unosim.strategies.registry import SeatStrategy

DEFAULT_BATCH = ROUND.batch
MODES = tuple(modes.MODES)
#: rollouts one batch holds per worker: about a second of ``search`` on one core
SEARCH_BATCH_ROLLOUTS = 250_000
#: decisions a search seat searches per round (measured 6 to 8 at 2 to 4 players)
SEARCHED_PER_ROUND = 8


def batch_size(seats: list[SeatStrategy], batch: int, workers: int, rounds: int = 1) -> int:
    """``batch``, cut for tables that search so that a batch takes about a second:
    the progress bar moves and its ETA means something, and Ctrl-C (which keeps
    the finished batches) loses little. ``rounds``: rounds per game (matches).
    Results never depend on the batch size."""
    cost = sum(s.cost for s in seats) * SEARCHED_PER_ROUND * rounds
    if cost == 0:
        return batch
    return max(workers, min(batch, workers * SEARCH_BATCH_ROLLOUTS // cost))


def env_number(name: str, default: Any, kind: type = float) -> Any:
    """A positive number from the environment variable ``name``, or ``default``."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        v = kind(raw)
    except ValueError:
        raise UnosimError(f"environment variable {name} must be a positive number, "
                          f"got {raw!r}") from None
    if not v > 0 or v != v:
        raise UnosimError(f"environment variable {name} must be a positive number, got {raw!r}")
    return v


def default_batch(mode: str | Mode) -> int:
    """Games (or matches) per batch: the granularity of stopping, progress and
    checkpoints, never of the results; ``UNOSIM_BATCH`` sets it."""
    return env_number("UNOSIM_BATCH", modes.of(mode).batch, int)


def check_mode(mode: str | Mode) -> None:
    modes.of(mode)


def new_totals(mode: str | Mode, players: int) -> Aggregate | MatchAggregate:
    return modes.of(mode).new_totals(players)


@dataclass
class Played:
    """What one task returns: the totals its games were folded into, their per-game
    records when asked for (table index, first game, rows), and the seconds each
    table played."""

    start: int
    totals: Any
    records: list[tuple[int, int, np.ndarray]] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


def play_batch_into(table: Table, mode: str | Mode, seed: int, first: int, rec: np.ndarray,
                    chunks: int, max_rounds: int = DEFAULT_MAX_ROUNDS) -> None:
    """Fill ``rec`` with the records of games (or matches) ``first ..``."""
    m = modes.of(mode)
    m.play(table.kernel(m, seed), table.template, base_seed(seed), first, rec, chunks,
           max_rounds)


def add_rows(totals: Any, recs: list[np.ndarray]) -> None:
    """Fold a batch of one table into its totals (an ``Aggregate``, a
    ``MatchAggregate``): the fold of a study of one table."""
    totals.add_records(recs[0])


def play_range(tables: list[Table], mode: str | Mode, seed: int, start: int, n: int,
               batch: int, chunks: int, max_rounds: int, totals: Any,
               fold: Callable[[Any, list[np.ndarray]], None] = add_rows, keep: bool = False
               ) -> Played:
    """The task of a study: games ``start .. start + n`` of every table, in batches of
    at most ``batch`` (the same game indices in each table), each batch's records (one
    array per table) folded into ``totals`` by ``fold(totals, records)``; the records
    are kept too, as (table index, first game, rows), when ``keep``. ``fold`` is a
    module-level function (Dask ships it by name)."""
    m = modes.of(mode)
    out = Played(start, totals, seconds=[0.0] * len(tables))
    for first in range(start, start + n, batch):
        k = min(batch, start + n - first)
        recs = []
        for ti, table in enumerate(tables):
            t0 = clock.now()  # less any time suspended by Ctrl-Z
            rec = np.zeros((k, m.width), np.int32)
            play_batch_into(table, m, seed, first, rec, chunks, max_rounds)
            out.seconds[ti] += clock.now() - t0
            recs.append(rec)
            if keep:
                out.records.append((ti, first, rec))
        fold(totals, recs)
    return out


def play_records(rules: Rules, seats: list[SeatStrategy], seed: int, start: int, n: int,
                 chunks: int = 1) -> np.ndarray:
    """Per-game records for games ``start .. start + n`` (columns: layout.GAME_FIELDS)."""
    rec = np.zeros((n, ROUND.width), dtype=np.int32)
    play_batch_into(Table(rules, seats), ROUND, seed, start, rec, max(1, chunks))
    return rec


def warm(table: Table, mode: str | Mode, seed: int, games: int = 0) -> float:
    """Compile (or load from cache) the table's kernel; the seconds it took. A table
    with a Python seat compiles without playing a game: a strategy with side effects
    sees each game of the run once. ``games``: all the run will play; one of at least
    ``quick.QUICK_GAMES`` compiles the plain round path now, where a shorter one may
    start on the quick kernel (runs/quick.py)."""
    from unosim.runs import quick
    from unosim.strategies.plugins import python_seats

    rows = 0 if python_seats(table.seats) else 1
    t0 = time.perf_counter()
    with quick.suspended() if games >= quick.QUICK_GAMES else nullcontext():
        play_batch_into(table, mode, seed, 0,
                        np.zeros((rows, modes.of(mode).width), np.int32), 1, 1)
    return time.perf_counter() - t0


def warm_up() -> float:
    """Compile (or load from cache) the engine; return the seconds it took."""
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    t0 = time.perf_counter()
    rules = resolve()
    play_records(rules, [parse_strategy("random")] * rules["players"], 0, 0, 1)
    return time.perf_counter() - t0
