"""The skill study: one seat of a strategy against ``random`` in the others, its seat
rotated through all P seats, every rotation (lineup) and every variant on the same
deals (see reports/skill.py for the skill edge and its interval). Every sum is an
integer, so the totals do not depend on the split into blocks or tasks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from unosim.errors import UnosimError
from unosim.reports.skill import SkillResult, SkillTotals
from unosim.runs.backend import Backend, LocalBackend, Progress, run_tasks
from unosim.runs.runner import batch_size, env_number, play_batch_into
from unosim.runs.tables import Table
from unosim.simulate import layout as L
from unosim.strategies.registry import SeatStrategy, parse_strategy

#: deals per block: every lineup of every variant plays a block before the next one
BLOCK = 1 << 14


def lineup(strategy: SeatStrategy, players: int, seat: int) -> list[SeatStrategy]:
    """``strategy`` at ``seat``, ``random`` everywhere else."""
    seats = [parse_strategy("random")] * players
    seats[seat] = strategy
    return seats


def players_of(variants: list[Any]) -> int:
    """The one player count of ``variants`` (skill compares variants at one count)."""
    players = {int(v.rules["players"]) for v in variants}
    if len(players) != 1:
        raise UnosimError("skill compares variants at one player count; these set "
                          f"{', '.join(str(p) for p in sorted(players))}: add --players N")
    return players.pop()


def skill_range(tables: list[list[Table]], seed: int, lo: int, hi: int, block: int,
                chunks: int) -> list[SkillTotals]:
    """The task of a skill study: deals ``lo .. hi`` in every lineup (``tables[vi][k]``:
    variant vi with the strategy at seat k) of every variant, block by block."""
    p = len(tables[0])
    totals = [SkillTotals(p) for _ in tables]
    rec = np.zeros((min(block, hi - lo), L.N_G), np.int32)
    for first in range(lo, hi, block):
        n = min(block, hi - first)
        w = np.zeros((len(tables), n), np.int64)
        for vi, row in enumerate(tables):
            for k, table in enumerate(row):
                play_batch_into(table, "round", seed, first, rec[:n], chunks)
                won = (rec[:n, L.G_WINNER] == k) & (rec[:n, L.G_CAPPED] == 0)
                w[vi] += won
                totals[vi].seat_wins[k] += int(won.sum())
                totals[vi].capped += int((rec[:n, L.G_CAPPED] != 0).sum())
        for vi, t in enumerate(totals):
            d = w[vi] - w[0]
            t.deals += n
            t.wins += int(w[vi].sum())
            t.wins_sq += int((w[vi] * w[vi]).sum())
            t.diff += int(d.sum())
            t.diff_sq += int((d * d).sum())
    return totals


def run_skill(
    variants: list[Any],
    strategy: SeatStrategy,
    games: int,
    seed: int,
    workers: int | None = None,
    on_batch: Callable[[int], None] | None = None,
    block: int | None = None,
    backend: Backend | None = None,
    keep: Any = None,
    stage: str = "skill",
) -> SkillResult:
    """Play ``ceil(games / P)`` deals in each of the P lineups of every variant
    (``variants``: objects with ``name`` and ``rules``), block by block, on
    ``backend``. A stop keeps every finished block (the same deals in every lineup
    and variant); ``keep`` (``checkpoints.Keeper``) holds what an interrupted run
    finished under ``stage`` and is told of every finished block."""
    p = players_of(variants)
    deals = max(1, -(-games // p))
    backend = backend if backend is not None else LocalBackend(workers)
    tables = [[Table(v.rules, lineup(strategy, p, k)) for k in range(p)] for v in variants]
    block = block or env_number("UNOSIM_BATCH", BLOCK, int)
    block = min(block, batch_size(lineup(strategy, p, 0), block, backend.workers))
    progress = keep.stage(stage) if keep is not None else None
    if progress is None:
        progress = Progress(max(block, backend.task_games(block * p) // p),
                            [SkillTotals(p) for _ in variants])
    totals, step = progress.totals, progress.step
    tasks = ((lo, (tables, seed, lo, min(deals, lo + step), min(block, step), backend.chunks))
             for lo in range(0, deals, step))

    def merge(part: list[SkillTotals]) -> None:
        for a, b in zip(totals, part, strict=True):
            a.merge(b)

    def tick(part: list[SkillTotals]) -> None:
        if on_batch is not None:
            on_batch(part[0].deals * p * len(variants))

    t0 = time.perf_counter()
    partial = run_tasks(backend, skill_range, tasks, merge, tick, progress,
                        None if keep is None else lambda pr: keep.note(stage, pr))
    if totals[0].deals == 0 and partial:
        raise KeyboardInterrupt
    return SkillResult([v.name for v in variants], [v.rules for v in variants], strategy,
                       seed, games, deals, totals, time.perf_counter() - t0, backend.workers,
                       partial)
