"""The skill study: one seat of a strategy against the field (``random`` unless another
is named) in the others, its seat rotated through all P seats, every rotation (lineup)
and every variant on the same deals (see skill_edge.py for the skill edge and its
interval). Every sum is an integer, so the totals do not depend on the split into
blocks or tasks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from unosim.errors import UnosimError
from unosim.runs.backend import Backend, Progress
from unosim.runs.driver import Outcome, Study, drive
from unosim.runs.modes import ROUND
from unosim.runs.runner import batch_size, env_number, play_batch_into
from unosim.runs.tables import Table
from unosim.simulate import layout as L
from unosim.strategies.registry import SeatStrategy, parse_strategy
from unosim.studies.lineups.skill_edge import SkillResult, SkillTotals

#: deals per block: every lineup of every variant plays a block before the next one
BLOCK = 1 << 14


def lineup(strategy: SeatStrategy, players: int, seat: int,
           field: SeatStrategy | None = None) -> list[SeatStrategy]:
    """``strategy`` at ``seat``, ``field`` (default ``random``) everywhere else."""
    seats = [field if field is not None else parse_strategy("random")] * players
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
                play_batch_into(table, ROUND, seed, first, rec[:n], chunks)
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
    field: SeatStrategy | None = None,
) -> SkillResult:
    """Play ``ceil(games / P)`` deals in each of the P lineups of every variant
    (``variants``: objects with ``name`` and ``rules``), block by block, on
    ``backend``; ``field`` (default ``random``) holds every seat but the strategy's,
    so the skill edge is measured against it. A stop keeps every finished block (the
    same deals in every lineup and variant); ``keep`` (``checkpoints.Keeper``) holds
    what an interrupted run finished under ``stage`` and is told of every finished
    block."""
    study = SkillStudy(variants, strategy, games, seed, block, stage, field)
    return drive(study, backend, workers, on_batch, keep)


class SkillStudy(Study):
    """Every lineup of every variant over the same deals, block by block."""

    task = staticmethod(skill_range)

    def __init__(self, variants: list[Any], strategy: SeatStrategy, games: int, seed: int,
                 block: int | None, stage: str, field: SeatStrategy | None = None) -> None:
        self.p = p = players_of(variants)
        self.variants, self.strategy, self.games, self.seed = variants, strategy, games, seed
        self.field = field if field is not None else parse_strategy("random")
        self.deals = max(1, -(-games // p))
        self.tables = [[Table(v.rules, lineup(strategy, p, k, self.field)) for k in range(p)]
                       for v in variants]
        self.block = block or env_number("UNOSIM_BATCH", BLOCK, int)
        self.stage = stage
        self.chunks = 1

    def prepare(self, backend: Backend) -> None:
        self.block = min(self.block, batch_size(lineup(self.strategy, self.p, 0, self.field),
                                                self.block,
                                                backend.workers))
        self.chunks = backend.chunks

    def step(self, backend: Backend) -> int:
        return max(self.block, backend.task_games(self.block * self.p) // self.p)

    def fresh(self) -> list[SkillTotals]:
        return [SkillTotals(self.p) for _ in self.variants]

    def tasks(self, step: int) -> Any:
        return ((lo, (self.tables, self.seed, lo, min(self.deals, lo + step),
                      min(self.block, step), self.chunks))
                for lo in range(0, self.deals, step))

    def merge(self, totals: list[SkillTotals], part: list[SkillTotals]) -> None:
        for a, b in zip(totals, part, strict=True):
            a.merge(b)

    def units(self, part: list[SkillTotals]) -> int:
        return part[0].deals * self.p * len(self.variants)

    def units_done(self, progress: Progress) -> int:
        return sum(min(self.deals, lo + progress.step) - lo for lo in progress.done) * (
            self.p * len(self.variants))

    def played(self, totals: list[SkillTotals]) -> bool:
        return totals[0].deals > 0

    def result(self, totals: list[SkillTotals], outcome: Outcome) -> SkillResult:
        return SkillResult([v.name for v in self.variants], [v.rules for v in self.variants],
                           self.strategy, self.seed, self.games, self.deals, totals,
                           outcome.elapsed_s, outcome.workers, outcome.stopped, self.field)
