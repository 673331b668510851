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
from unosim.runs.aggregate import RunResult
from unosim.runs.backend import Backend, LocalBackend, Progress, run_tasks
from unosim.runs.match import DEFAULT_MAX_ROUNDS, MatchResult, check_match_rules
from unosim.runs.runner import (
    MATCH_ROUNDS_GUESS,
    batch_size,
    check_mode,
    default_batch,
    new_totals,
    play_batch_into,
    warm,
)
from unosim.runs.tables import Table, record_width
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
    def empty(cls, tables: list[Table], mode: str) -> CompareTotals:
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

    def add(self, mode: str, vals: list[Any], wins: list[np.ndarray | None]) -> None:
        """Fold one batch of every variant (their metric values and winners)."""
        for vi, v in enumerate(vals):
            self.moments[vi].add(v)
            if vi:
                self.paired[vi].add(vals[0], v)  # type: ignore[union-attr]
                if mode == "round":
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


def compare_range(tables: list[Table], mode: str, max_rounds: int, seed: int, start: int,
                  n: int, batch: int, chunks: int, keep: bool = False) -> CompareTotals:
    """The task of a comparison: games ``start .. start + n`` of every variant, batch
    by batch (the records too, as (variant, first game, rows), when ``keep``)."""
    totals = CompareTotals.empty(tables, mode)
    extract = MX.extractor(mode)
    for first in range(start, start + n, batch):
        k = min(batch, start + n - first)
        vals, wins = [], []
        for vi, t in enumerate(tables):
            t0 = time.perf_counter()
            rec = np.zeros((k, record_width(mode)), np.int32)
            play_batch_into(t, mode, seed, first, rec, chunks, max_rounds)
            totals.aggs[vi].add_records(rec)
            totals.elapsed[vi] += time.perf_counter() - t0
            vals.append(extract(rec, t.players))
            wins.append(winners(rec) if mode == "round" else None)
            if keep:
                totals.records.append((vi, first, rec))
        totals.add(mode, vals, wins)
    return totals


def run_compare(
    variants: list[VariantSpec],
    games: int,
    seed: int,
    workers: int | None = None,
    mode: str = "round",
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
    of every finished task over all variants (progress, and the stop check).
    ``limit`` caps the variants (the charts have a colour for eight); a sweep or the
    atlas lifts it with None. A stop keeps the finished tasks: every variant then
    holds the same games. ``keep`` (``checkpoints.Keeper``) holds what an earlier,
    interrupted run of this comparison finished under ``stage``, and is told of
    every finished task.
    """
    check_mode(mode)
    if not 1 <= len(variants) <= (limit or len(variants)):
        raise UnosimError(f"compare takes 1..{limit} variants, got {len(variants)}")
    max_rounds = DEFAULT_MAX_ROUNDS if max_rounds is None else max_rounds
    backend = backend if backend is not None else LocalBackend(workers)
    if on_records is not None and not backend.local:
        raise UnosimError("per-game records are kept on this machine only (--backend local)")
    tables = [Table(v.rules, v.seats) for v in variants]
    for v in variants:
        if len(v.seats) != v.rules["players"]:
            raise UnosimError(f"{len(v.seats)} strategies given for {v.rules['players']} "
                              "players")
        if mode == "match":
            check_match_rules(v.rules, max_rounds)
    rounds = 1 if mode == "round" else MATCH_ROUNDS_GUESS
    batch = min(batch_size(v.seats, batch or default_batch(mode), backend.workers, rounds)
                for v in variants)
    compile_s = [warm(t, mode, seed) if backend.local else 0.0 for t in tables]
    if on_batch is not None and backend.local:
        on_batch(0)  # a stop while the engine compiled ends the study before it plays
    progress = keep.stage(stage) if keep is not None else None
    if progress is None:
        progress = Progress(backend.task_games(batch), CompareTotals.empty(tables, mode))
    totals, step = progress.totals, progress.step
    tasks = ((s, (tables, mode, max_rounds, seed, s, min(step, games - s), min(batch, step),
                  backend.chunks, on_records is not None)) for s in range(0, games, step))

    def merge(part: CompareTotals) -> None:
        if on_records is not None:
            for vi, first, rec in part.records:
                on_records(vi, first, rec)
        totals.merge(part)

    def tick(part: CompareTotals) -> None:
        if on_batch is not None:
            on_batch(part.games * len(variants))

    t0 = time.perf_counter()
    partial = run_tasks(backend, compare_range, tasks, merge, tick, progress,
                        None if keep is None else lambda p: keep.note(stage, p))
    if totals.games == 0 and partial:
        raise KeyboardInterrupt
    total = time.perf_counter() - t0
    workers_used = backend.workers
    results: list[Any] = []
    for vi, v in enumerate(variants):
        if mode == "round":
            results.append(RunResult(v.rules, v.seats, seed, games, totals.aggs[vi],
                                     totals.elapsed[vi], workers_used, partial, compile_s[vi]))
        else:
            results.append(MatchResult(v.rules, v.seats, seed, games, totals.aggs[vi],
                                       totals.elapsed[vi], workers_used, max_rounds, partial,
                                       compile_s[vi]))
    cmp = Comparison(variants, mode, seed, games, workers_used, max_rounds, results,
                     totals.moments, totals.paired, total, partial, joint=totals.joint)
    cmp.summaries = [summary_of(mode, r, v.name) for r, v in zip(results, variants, strict=True)]
    return cmp
