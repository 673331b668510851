"""``unosim run``, the simplest study: one table over ranges of game indices, on the
one task loop of every study (``runs.runner.play_range``).

A run is a comparison of one variant (``studies/compare``): the same tasks, the same
batches, the same games. Its plain form folds each batch into the run's own totals
alone (an ``Aggregate``, a ``MatchAggregate``), the fastest, and may stop once
seat 0's win rate is known to ``precision``; with ``per_game`` (charts, per-game
records, ``api.simulate``) it keeps the comparison's per-game metric totals too and
returns the comparison of one variant. The totals are integer sums, so a run
stopped and resumed ends with exactly the figures of one run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from unosim.compiler.compiling import compiled_here
from unosim.runs import modes
from unosim.runs.aggregate import Aggregate
from unosim.runs.backend import Backend, Progress
from unosim.runs.driver import Outcome, drive
from unosim.runs.match import DEFAULT_MAX_ROUNDS, MatchResult
from unosim.runs.modes import MATCH, Mode
from unosim.runs.runner import Played, add_rows, new_totals
from unosim.runs.variants import VariantSpec
from unosim.simulate.rules import Rules
from unosim.stats.intervals import wilson
from unosim.strategies.registry import SeatStrategy
from unosim.studies.compare.play import CompareStudy


class RunStudy(CompareStudy):
    """One table's game ranges folded into its totals (see the module's text)."""

    def __init__(self, rules: Rules, seats: list[SeatStrategy], games: int, seed: int,
                 batch: int | None, on_records: Callable[[int, np.ndarray], None] | None,
                 resume_from: Any, on_totals: Callable[[Any], None] | None,
                 precision: float | None, mode: str | Mode, max_rounds: int,
                 per_game: bool = False, name: str = "") -> None:
        mode = modes.of(mode)
        hook = None if on_records is None else (
            lambda vi, first, rec: on_records(first, rec))
        super().__init__([VariantSpec(name, rules, seats)], games, seed, mode, max_rounds,
                         batch, hook, "compare" if per_game else "run")
        self.per_game = per_game
        self.keeps_time = not per_game  # per-game totals keep each variant's seconds
        self.rules, self.seats, self.table = rules, seats, self.tables[0]
        self.on_totals, self.resume_from, self.precision = on_totals, resume_from, precision
        self.start = resume_from.games if resume_from is not None else 0
        self.reached = False
        self.compiled: tuple[str, ...] = ()

    def prepare(self, backend: Backend) -> None:
        before = compiled_here()
        super().prepare(backend)
        self.compiled = tuple(sorted(compiled_here() - before)) if backend.local else ()

    def check(self, progress: Progress) -> None:
        if self.per_game:
            return
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

    def fresh(self) -> Any:
        if self.per_game:
            return super().fresh()
        if self.resume_from is not None:
            return self.resume_from
        return new_totals(self.mode, self.table.players)

    def tasks(self, step: int) -> Any:
        if self.per_game:
            return super().tasks(step)
        return ((s, ([self.table], self.mode, self.seed, s, min(step, self.games - s),
                     min(self.batch, step), self.chunks, self.max_rounds,
                     new_totals(self.mode, self.table.players), add_rows,
                     self.on_records is not None))
                for s in range(self.start, self.games, step))

    def merge(self, totals: Any, part: Played) -> bool:
        if self.per_game:
            super().merge(totals, part)
            return False
        if self.on_records is not None:
            for vi, first, rec in part.records:
                self.on_records(vi, first, rec)
        totals.merge(part.totals)
        if self.on_totals is not None:
            self.on_totals(totals)
        self.reached = self.precision is not None and seat0_half_width(totals) <= self.precision
        return self.reached

    def played(self, totals: Any) -> bool:
        return totals.games > self.start

    def result(self, totals: Any, outcome: Outcome) -> Any:
        if self.per_game:
            return super().result(totals, outcome)
        return self.mode.make_result(self.rules, self.seats, self.seed, self.games, totals,
                                     outcome.elapsed_s, outcome.workers, self.max_rounds,
                                     outcome.stopped, self.compile_s[0], self.reached,
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
    max_rounds: int | None = DEFAULT_MAX_ROUNDS,
    backend: Backend | None = None,
    keep: Any = None,
    per_game: bool = False,
    name: str = "",
) -> Any:
    """Play ``games`` rounds (or matches, ``mode="match"``) and fold them into their
    totals; a ``RunResult`` (a ``MatchResult`` for matches), or with ``per_game`` the
    ``Comparison`` of this one variant (named ``name``), which holds the per-game
    metric totals the charts read and the run's result as ``results[0]``.

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
                     precision, mode,
                     DEFAULT_MAX_ROUNDS if max_rounds is None else max_rounds, per_game,
                     name)
    return drive(study, backend, workers, on_batch, keep)


def run_matches(rules: Rules, seats: list[SeatStrategy], games: int, seed: int,
                workers: int | None = None, **kw: Any) -> MatchResult:
    """``run`` of whole matches."""
    return run(rules, seats, games, seed, workers, mode=MATCH, **kw)


def seat0_half_width(agg: Aggregate) -> float:
    """Half-width of the 95% Wilson interval of seat 0's win rate."""
    lo, hi = wilson(int(agg.wins[0]), agg.games)
    return (hi - lo) / 2
