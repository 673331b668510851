"""The comparison study: variants over the same game indices, their totals, per-game
metric totals and paired differences from the baseline.

Common random numbers: every variant plays game ``i`` from the same (seed, i), and
stream 0 of that game's generator deals, so variants with the same deck, players and
hand size start game ``i`` from the same hands. A task plays one range of game
indices in every variant, so a comparison stopped early holds the same games in
every variant and the pairing stays exact. Per batch, the per-game difference from
the baseline is folded into running sums of d and d^2 per metric
(``metrics.Paired``): the interval of a difference is the paired one, in memory
bounded by one batch.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from unosim.errors import UnosimError
from unosim.runs import modes
from unosim.runs.backend import Backend, Progress
from unosim.runs.driver import Outcome, Study, drive
from unosim.runs.match import DEFAULT_MAX_ROUNDS
from unosim.runs.modes import Mode
from unosim.runs.runner import Played, batch_size, default_batch, play_range, warm
from unosim.runs.tables import Table
from unosim.runs.variants import MAX_VARIANTS, VariantSpec
from unosim.studies.compare.result import Comparison
from unosim.studies.compare.totals import CompareTotals, fold_batch
from unosim.studies.run.report import summary_of


class CompareStudy(Study):
    """Every variant over the same game indices (see the module's text)."""

    task = staticmethod(play_range)

    def __init__(self, variants: list[VariantSpec], games: int, seed: int, mode: Mode,
                 max_rounds: int, batch: int | None,
                 on_records: Callable[[int, int, np.ndarray], None] | None,
                 stage: str) -> None:
        self.variants, self.games, self.seed, self.mode = variants, games, seed, mode
        self.max_rounds, self.batch, self.on_records = max_rounds, batch, on_records
        self.stage = stage
        self.tables = [Table(v.rules, v.seats) for v in variants]
        for v in variants:
            if len(v.seats) != v.rules["players"]:
                raise UnosimError(f"{len(v.seats)} strategies given for {v.rules['players']} "
                                  "players")
            mode.check_rules(v.rules, max_rounds)
        self.compile_s = [0.0] * len(variants)
        self.chunks = 1

    def prepare(self, backend: Backend) -> None:
        if self.on_records is not None and not backend.local:
            raise UnosimError("per-game records are kept on this machine only "
                              "(--backend local)")
        self.batch = min(batch_size(v.seats, self.batch or default_batch(self.mode),
                                    backend.workers, self.mode.rounds) for v in self.variants)
        self.chunks = backend.chunks
        if backend.local:
            games = self.games * len(self.tables)
            self.compile_s = [warm(t, self.mode, self.seed, games) for t in self.tables]

    def step(self, backend: Backend) -> int:
        return backend.task_games(self.batch)

    def fresh(self) -> CompareTotals:
        return CompareTotals.empty(self.tables, self.mode)

    def tasks(self, step: int) -> Any:
        fold = partial(fold_batch, self.mode.name)
        return ((s, (self.tables, self.mode, self.seed, s, min(step, self.games - s),
                     min(self.batch, step), self.chunks, self.max_rounds, self.fresh(), fold,
                     self.on_records is not None))
                for s in range(0, self.games, step))

    def merge(self, totals: CompareTotals, part: Played) -> None:
        if self.on_records is not None:
            for vi, first, rec in part.records:
                self.on_records(vi, first, rec)
        totals.merge(part.totals)
        for vi, seconds in enumerate(part.seconds):
            totals.elapsed[vi] += seconds

    def units(self, part: Played) -> int:
        return part.totals.games * len(self.variants)

    def units_done(self, progress: Progress) -> int:
        return sum(min(progress.step, self.games - k) for k in progress.done) * len(
            self.variants)

    def result(self, totals: CompareTotals, outcome: Outcome) -> Comparison:
        mode, partial = self.mode, outcome.stopped
        results = [mode.make_result(v.rules, v.seats, self.seed, self.games, totals.aggs[vi],
                                    totals.elapsed[vi], outcome.workers, self.max_rounds,
                                    partial, self.compile_s[vi])
                   for vi, v in enumerate(self.variants)]
        cmp = Comparison(self.variants, mode.name, self.seed, self.games, outcome.workers,
                         self.max_rounds, results, totals.moments, totals.paired,
                         outcome.elapsed_s, partial, joint=totals.joint)
        cmp.summaries = [summary_of(mode.name, r, v.name)
                         for r, v in zip(results, self.variants, strict=True)]
        return cmp


def run_compare(
    variants: list[VariantSpec],
    games: int,
    seed: int,
    workers: int | None = None,
    mode: str | Mode = "round",
    max_rounds: int | None = None,
    batch: int | None = None,
    on_batch: Callable[[int], None] | None = None,
    on_records: Callable[[int, int, np.ndarray], None] | None = None,
    limit: int | None = MAX_VARIANTS,
    backend: Backend | None = None,
    keep: Any = None,
    stage: str = "compare",
) -> Comparison:
    """Play every variant over the same game indices, on ``backend`` (this machine's
    threads by default).

    ``on_records(variant_index, first_game, records)`` sees each variant's batches
    (for ``--save-games``, this machine only); ``on_batch(n)`` is told of the games
    of every finished task over all variants (progress). ``limit`` caps the
    variants (the charts have a colour for eight); a sweep or the atlas lifts it
    with None. A stop keeps the finished tasks: every variant then holds the same
    games. ``keep`` (``checkpoints.Keeper``) holds what an earlier, interrupted run
    of this comparison finished under ``stage``, and is told of every finished task.
    """
    mode = modes.of(mode)
    if not 1 <= len(variants) <= (limit or len(variants)):
        raise UnosimError(f"compare takes 1..{limit} variants, got {len(variants)}")
    max_rounds = DEFAULT_MAX_ROUNDS if max_rounds is None else max_rounds
    study = CompareStudy(variants, games, seed, mode, max_rounds, batch, on_records, stage)
    return drive(study, backend, workers, on_batch, keep)
