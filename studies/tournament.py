"""The tournament study: every lineup of the strategies plays the same games of the
seed (duplicate format); see reports/tournament.py for the seating and the figures.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from unosim.errors import UnosimError
from unosim.reports.tournament import Totals, TournamentResult, add_records
from unosim.runs.backend import Backend, LocalBackend, Progress, run_tasks
from unosim.runs.runner import batch_size, default_batch, play_batch_into
from unosim.runs.tables import Table
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules
from unosim.strategies.registry import SeatStrategy

SEATINGS = ("rotations", "permutations")
MAX_LINEUPS = 100_000


def lineups(k: int, n: int, seating: str = "rotations") -> list[tuple[int, ...]]:
    """Seat assignments: entry s of a lineup is the index of the strategy in seat s."""
    if seating not in SEATINGS:
        raise UnosimError(f"--seating must be one of {', '.join(SEATINGS)}, got {seating!r}")
    if k < 2:
        raise UnosimError("a tournament needs at least two strategies")

    def orders(base: tuple[int, ...]) -> list[tuple[int, ...]]:
        if seating == "permutations":
            if math.factorial(len(base)) > 40_320:
                raise UnosimError(f"--seating permutations: {len(base)}! seat orders are too "
                                  "many; use rotations")
            return sorted(set(itertools.permutations(base)))
        return [base[i:] + base[:i] for i in range(len(base))]

    if k <= n:
        return orders(tuple(i % k for i in range(n)))
    count = math.comb(k, n) * (math.factorial(n) if seating == "permutations" else n)
    if count > MAX_LINEUPS:
        raise UnosimError(f"{k} strategies at {n}-player tables make {count:,} lineups "
                          f"(at most {MAX_LINEUPS:,}); use fewer strategies")
    out: list[tuple[int, ...]] = []
    for combo in itertools.combinations(range(k), n):
        out.extend(orders(combo))
    return out


def planned_games(k: int, n: int, seating: str, games: int) -> int:
    """Games a tournament will play: ``games`` rounded up to whole lineups."""
    table = len(lineups(k, n, seating))
    return max(1, -(-games // table)) * table


def tournament_range(tables: list[Table], table: list[tuple[int, ...]], k: int, seed: int,
                     start: int, n: int, batch: int, chunks: int) -> Totals:
    """The task of a tournament: games ``start .. start + n`` in every lineup
    (``tables[i]`` holds the seats of ``table[i]``; ``table[i][s]`` is the index of
    the strategy in seat s), so a stop keeps the same games in every lineup."""
    totals = Totals(k, tables[0].players)
    for t, lineup in zip(tables, table, strict=True):
        for first in range(start, start + n, batch):
            rec = np.zeros((min(batch, start + n - first), L.N_G), np.int32)
            play_batch_into(t, "round", seed, first, rec, chunks)
            add_records(totals, lineup, rec, t.rules)
    return totals


def run_tournament(
    rules: Rules,
    strategies: list[SeatStrategy],
    games: int,
    seed: int,
    seating: str = "rotations",
    workers: int | None = None,
    on_batch: Callable[[int], None] | None = None,
    variant: str = "official",
    backend: Backend | None = None,
    keep: Any = None,
    stage: str = "tournament",
) -> TournamentResult:
    """Play every lineup for the same ``ceil(games / lineups)`` games of ``seed``, lineup
    by lineup (a stop keeps the finished tasks and marks the result partial; ``keep``,
    a ``checkpoints.Keeper``, holds what an interrupted run finished under ``stage``)."""
    labels = [s.label() for s in strategies]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        raise UnosimError(f"each strategy once in a tournament; repeated: {', '.join(dup)}")
    n = int(rules["players"])
    table = lineups(len(strategies), n, seating)
    per = max(1, -(-games // len(table)))
    backend = backend if backend is not None else LocalBackend(workers)
    k = len(strategies)
    progress = keep.stage(stage) if keep is not None else None
    if progress is None:  # small batches for a search, so progress shows
        batch = min(batch_size([strategies[i] for i in lineup], default_batch("round"),
                               backend.workers)
                    for lineup in table)
        progress = Progress(backend.task_games(batch), Totals(k, n))
    totals, step = progress.totals, progress.step
    tables = [Table(rules, [strategies[i] for i in lineup]) for lineup in table]
    inner = min(default_batch("round"), step)
    tasks = ((s, (tables, table, k, seed, s, min(step, per - s), inner, backend.chunks))
             for s in range(0, per, step))

    def merge(part: Totals) -> None:
        totals.merge(part)

    def tick(part: Totals) -> None:
        if on_batch is not None:
            on_batch(int(part.seat_counts.sum()) // n)

    t0 = time.perf_counter()
    partial = run_tasks(backend, tournament_range, tasks, merge, tick, progress,
                        None if keep is None else lambda p: keep.note(stage, p))
    if partial and totals.games.max() == 0:
        raise KeyboardInterrupt
    return TournamentResult(rules, strategies, seating, table, per, games, seed, totals,
                            time.perf_counter() - t0, backend.workers, variant, partial)
