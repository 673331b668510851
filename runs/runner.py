"""Run many games of one table: seeding, batches, the backend, progress and stops.

A run is a sequence of tasks (``play_range``), each a range of game indices folded
into an :class:`Aggregate` (rounds) or a ``MatchAggregate`` (matches) where it is
played, so memory stays flat whatever ``games`` is, and the same task function runs
on this machine and on a Dask worker.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from unosim.compiler.compiling import compiled_here
from unosim.errors import UnosimError
from unosim.runs import modes
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
from unosim.runs.driver import Outcome, Study, drive
from unosim.runs.match import (
    DEFAULT_MAX_ROUNDS,
    MatchAggregate,
    MatchResult,
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
    """What one task returns: the totals of its games, their per-game records when
    asked for (first game, rows), and the seconds it played."""

    start: int
    agg: Any
    records: list[tuple[int, np.ndarray]] = field(default_factory=list)
    elapsed_s: float = 0.0


def play_batch_into(table: Table, mode: str | Mode, seed: int, first: int, rec: np.ndarray,
                    chunks: int, max_rounds: int = DEFAULT_MAX_ROUNDS) -> None:
    """Fill ``rec`` with the records of games (or matches) ``first ..``."""
    m = modes.of(mode)
    m.play(table.kernel(m, seed), table.template, base_seed(seed), first, rec, chunks,
           max_rounds)


def play_range(table: Table, mode: str | Mode, seed: int, start: int, n: int, batch: int,
               chunks: int, max_rounds: int = DEFAULT_MAX_ROUNDS, keep: bool = False
               ) -> Played:
    """The task of a run: games ``start .. start + n`` in batches of at most ``batch``,
    folded into their totals (with the records when ``keep``)."""
    t0 = time.perf_counter()
    agg = new_totals(mode, table.players)
    out = Played(start, agg)
    for first in range(start, start + n, batch):
        rec = np.zeros((min(batch, start + n - first), modes.of(mode).width), np.int32)
        play_batch_into(table, mode, seed, first, rec, chunks, max_rounds)
        agg.add_records(rec)
        if keep:
            out.records.append((first, rec))
    out.elapsed_s = time.perf_counter() - t0
    return out


def play_records(rules: Rules, seats: list[SeatStrategy], seed: int, start: int, n: int,
                 chunks: int = 1) -> np.ndarray:
    """Per-game records for games ``start .. start + n`` (columns: layout.GAME_FIELDS)."""
    rec = np.zeros((n, ROUND.width), dtype=np.int32)
    play_batch_into(Table(rules, seats), ROUND, seed, start, rec, max(1, chunks))
    return rec


def warm(table: Table, mode: str | Mode, seed: int) -> float:
    """Compile (or load from cache) the table's kernel; the seconds it took. A table
    with a Python seat compiles without playing a game: a strategy with side effects
    sees each game of the run once."""
    from unosim.strategies.plugins import python_seats

    rows = 0 if python_seats(table.seats) else 1
    t0 = time.perf_counter()
    play_batch_into(table, mode, seed, 0, np.zeros((rows, modes.of(mode).width), np.int32),
                    1, 1)
    return time.perf_counter() - t0


class RunStudy(Study):
    """``unosim run``, the simplest study: one table, game ranges folded into its
    totals, stopped early when ``precision`` is reached."""

    stage = "run"
    task = staticmethod(play_range)

    def __init__(self, rules: Rules, seats: list[SeatStrategy], games: int, seed: int,
                 batch: int | None, on_records: Callable[[int, np.ndarray], None] | None,
                 resume_from: Any, on_totals: Callable[[Any], None] | None,
                 precision: float | None, mode: str | Mode, max_rounds: int) -> None:
        mode = modes.of(mode)
        if len(seats) != rules["players"]:
            raise UnosimError(f"{len(seats)} strategies given for {rules['players']} players")
        mode.check_rules(rules, max_rounds)
        self.rules, self.seats, self.games, self.seed = rules, seats, games, seed
        self.batch, self.on_records, self.on_totals = batch, on_records, on_totals
        self.resume_from, self.precision = resume_from, precision
        self.mode, self.max_rounds = mode, max_rounds
        self.table = Table(rules, seats)
        self.start = resume_from.games if resume_from is not None else 0
        self.reached = False
        self.compile_s = 0.0
        self.compiled: tuple[str, ...] = ()
        self.chunks = 1

    def prepare(self, backend: Backend) -> None:
        if self.on_records is not None and not backend.local:
            raise UnosimError("per-game records are kept on this machine only "
                              "(--backend local)")
        self.batch = batch_size(self.seats, self.batch or default_batch(self.mode),
                                backend.workers,
                                rounds=self.mode.rounds)
        self.chunks = backend.chunks
        if backend.local:
            before = compiled_here()
            self.compile_s = warm(self.table, self.mode, self.seed)
            self.compiled = tuple(sorted(compiled_here() - before))

    def check(self, progress: Progress) -> None:
        totals, step, done = progress.totals, progress.step, progress.done
        want = new_totals(self.mode, self.table.players)
        if type(totals) is not type(want) or totals.players != want.players:
            raise ValueError(f"totals of {type(totals).__name__} for {totals.players} "
                             f"players, but the run plays {self.mode.unit} at "
                             f"{want.players} players")
        if type(step) is not int or step < 1 or not isinstance(done, set):
            raise ValueError(f"bad task size {step!r}")
        covered = sum(min(step, self.games - k) for k in done)
        if not done <= set(range(0, self.games, step)) or covered != totals.games:
            raise ValueError(f"next game {totals.games} does not fit the finished tasks "
                             f"of {self.games} games")

    def step(self, backend: Backend) -> int:
        return backend.task_games(self.batch)

    def fresh(self) -> Any:
        if self.resume_from is not None:
            return self.resume_from
        return new_totals(self.mode, self.table.players)

    def tasks(self, step: int) -> Any:
        return ((s, (self.table, self.mode, self.seed, s, min(step, self.games - s),
                     min(self.batch, step), self.chunks, self.max_rounds,
                     self.on_records is not None))
                for s in range(self.start, self.games, step))

    def merge(self, totals: Any, part: Played) -> bool:
        if self.on_records is not None:
            for first, rec in part.records:
                self.on_records(first, rec)
        totals.merge(part.agg)
        if self.on_totals is not None:
            self.on_totals(totals)
        self.reached = self.precision is not None and seat0_half_width(totals) <= self.precision
        return self.reached

    def units(self, part: Played) -> int:
        return part.agg.games

    def played(self, totals: Any) -> bool:
        return totals.games > self.start

    def result(self, totals: Any, outcome: Outcome) -> Any:
        return self.mode.make_result(self.rules, self.seats, self.seed, self.games, totals,
                                     outcome.elapsed_s, outcome.workers, self.max_rounds,
                                     outcome.stopped, self.compile_s, self.reached,
                                     self.compiled)


def run(
    rules: Rules,
    seats: list[SeatStrategy],
    games: int,
    seed: int,
    workers: int | None = None,
    batch: int | None = None,
    on_batch: Callable[[int], None] | None = None,
    on_records: Callable[[int, np.ndarray], None] | None = None,
    resume_from: Any = None,
    on_totals: Callable[[Any], None] | None = None,
    precision: float | None = None,
    *,
    mode: str | Mode = "round",
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    backend: Backend | None = None,
    keep: Any = None,
) -> Any:
    """Play ``games`` rounds (or matches, ``mode="match"``) and fold them into their
    totals; a ``RunResult`` (a ``MatchResult`` for matches).

    ``on_records(first_game, records)`` sees each batch's per-game rows (for
    ``--save-games``, this machine only). ``resume_from`` continues an interrupted
    run: its games are kept and play goes on from game ``resume_from.games``; since
    the totals are integer sums, the final figures equal an uninterrupted run's.
    ``keep`` (a ``checkpoints.Keeper``) does the same from a checkpoint and keeps
    one. ``on_totals(agg)`` sees the running totals after each batch (progress
    estimates). With ``precision``, the run stops after the first batch at which
    the 95% Wilson interval of seat 0's win rate is at most ``precision`` wide on
    each side (``games`` is then an upper bound); the stopping rule looks only at
    the sample size and the interval's width. A stop (Ctrl-C, SIGTERM) between
    batches keeps the finished ones and marks the result ``partial``.
    """
    study = RunStudy(rules, seats, games, seed, batch, on_records, resume_from, on_totals,
                     precision, mode, max_rounds)
    return drive(study, backend, workers, on_batch, keep)


def run_matches(rules: Rules, seats: list[SeatStrategy], games: int, seed: int,
                workers: int | None = None, **kw: Any) -> MatchResult:
    """``run`` of whole matches."""
    return run(rules, seats, games, seed, workers, mode=MATCH, **kw)


def seat0_half_width(agg: Aggregate) -> float:
    """Half-width of the 95% Wilson interval of seat 0's win rate."""
    from unosim.common import wilson

    lo, hi = wilson(int(agg.wins[0]), agg.games)
    return (hi - lo) / 2


def warm_up() -> float:
    """Compile (or load from cache) the engine; return the seconds it took."""
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    t0 = time.perf_counter()
    rules = resolve()
    play_records(rules, [parse_strategy("random")] * rules["players"], 0, 0, 1)
    return time.perf_counter() - t0
