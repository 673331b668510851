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

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from unosim.errors import UnosimError
from unosim.reports import metrics as MX
from unosim.reports.compare import Comparison, summary_of
from unosim.runs import modes
from unosim.runs.backend import Backend
from unosim.runs.driver import Outcome, Study, drive
from unosim.runs.match import DEFAULT_MAX_ROUNDS
from unosim.runs.modes import Mode
from unosim.runs.runner import batch_size, default_batch, new_totals, play_batch_into, warm
from unosim.runs.tables import Table
from unosim.runs.variants import MAX_VARIANTS, VariantSpec
from unosim.simulate import layout as L


def winners(rec: np.ndarray) -> np.ndarray:
    """Each round's winning seat plus one (0: capped), the index into a joint table."""
    return np.where(rec[:, L.G_CAPPED] == 0, rec[:, L.G_WINNER], -1) + 1


@dataclass
class CompareTotals:
    """Per variant: the run's totals, the per-game metric totals (``Moments``), the
    paired differences from the baseline (``Paired``, None for the baseline), the
    joint table of winners (round mode: ``joint[vi][i + 1, j + 1]`` games the
    baseline's winner was seat i and variant vi's seat j, -1 capped) and the seconds
    each played. Integer sums, so merging tasks in any order gives the same."""

    aggs: list[Any]
    moments: list[MX.Moments]
    paired: list[MX.Paired | None]
    joint: list[np.ndarray | None]
    elapsed: list[float]
    records: list[tuple[int, int, np.ndarray]] = field(default_factory=list)

    @classmethod
    def empty(cls, tables: list[Table], mode: Mode) -> CompareTotals:
        side = L.MAX_PLAYERS + 1
        k = len(tables)
        return cls([new_totals(mode, t.players) for t in tables],
                   [MX.Moments() for _ in tables],
                   [None] + [MX.Paired() for _ in tables[1:]],
                   [None] + [np.zeros((side, side), np.int64) for _ in tables[1:]],
                   [0.0] * k)

    @property
    def games(self) -> int:
        return min(a.games for a in self.aggs)

    def add(self, vals: list[Any], wins: list[np.ndarray | None]) -> None:
        """Fold one batch of every variant (their metric values and winners)."""
        for vi, v in enumerate(vals):
            self.moments[vi].add(v)
            if vi:
                self.paired[vi].add(vals[0], v)  # type: ignore[union-attr]
                if wins[0] is not None:  # rounds: who won which game
                    _add_joint(self.joint[vi], wins[0], wins[vi])  # type: ignore[arg-type]

    def merge(self, other: CompareTotals) -> CompareTotals:
        for vi in range(len(self.aggs)):
            self.aggs[vi].merge(other.aggs[vi])
            MX.merge_moments(self.moments[vi], other.moments[vi])
            if vi:
                MX.merge_paired(self.paired[vi], other.paired[vi])  # type: ignore[arg-type]
                self.joint[vi] += other.joint[vi]  # type: ignore[operator]
            self.elapsed[vi] += other.elapsed[vi]
        return self


def _add_joint(joint: np.ndarray, base: np.ndarray, other: np.ndarray) -> None:
    """Count the pairs (baseline's winner, variant's winner) of the same games."""
    side = joint.shape[0]
    joint += np.bincount(base * side + other, minlength=side * side).reshape(side, side)


def compare_range(tables: list[Table], mode: Mode, max_rounds: int, seed: int, start: int,
                  n: int, batch: int, chunks: int, keep: bool = False) -> CompareTotals:
    """The task of a comparison: games ``start .. start + n`` of every variant, batch
    by batch (the records too, as (variant, first game, rows), when ``keep``)."""
    totals = CompareTotals.empty(tables, mode)
    extract = MX.extractor(mode.name)
    for first in range(start, start + n, batch):
        k = min(batch, start + n - first)
        vals, wins = [], []
        for vi, t in enumerate(tables):
            t0 = time.perf_counter()
            rec = np.zeros((k, mode.width), np.int32)
            play_batch_into(t, mode, seed, first, rec, chunks, max_rounds)
            totals.aggs[vi].add_records(rec)
            totals.elapsed[vi] += time.perf_counter() - t0
            vals.append(extract(rec, t.players))
            wins.append(None if mode.by_rounds else winners(rec))
            if keep:
                totals.records.append((vi, first, rec))
        totals.add(vals, wins)
    return totals


class CompareStudy(Study):
    """Every variant over the same game indices (see the module's text)."""

    task = staticmethod(compare_range)

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
            self.compile_s = [warm(t, self.mode, self.seed) for t in self.tables]

    def step(self, backend: Backend) -> int:
        return backend.task_games(self.batch)

    def fresh(self) -> CompareTotals:
        return CompareTotals.empty(self.tables, self.mode)

    def tasks(self, step: int) -> Any:
        return ((s, (self.tables, self.mode, self.max_rounds, self.seed, s,
                     min(step, self.games - s), min(self.batch, step), self.chunks,
                     self.on_records is not None))
                for s in range(0, self.games, step))

    def merge(self, totals: CompareTotals, part: CompareTotals) -> None:
        if self.on_records is not None:
            for vi, first, rec in part.records:
                self.on_records(vi, first, rec)
        totals.merge(part)

    def units(self, part: CompareTotals) -> int:
        return part.games * len(self.variants)

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
