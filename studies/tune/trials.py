"""What a trial plays: the tuned strategy in every seat of the table in turn (the
lineup rotated, the field in the other seats) on fixed game indices of the seed, so
every trial plays the same deals (common random numbers), through the backend; and
the racing's rungs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from unosim.runs import modes
from unosim.runs.backend import Backend
from unosim.runs.driver import Outcome, Study, drive
from unosim.runs.modes import ROUND
from unosim.runs.runner import batch_size, default_batch, play_batch_into
from unosim.runs.tables import Table
from unosim.simulate.rules import Rules
from unosim.strategies.registry import SeatStrategy

#: racing: rungs at m/9, m/3, m games per lineup; the pruner keeps the best third
REDUCTION = 3
RUNGS = 3


@dataclass
class TrialTable:
    """What a trial plays: the rules, the field and how (rounds or matches), on
    ``backend`` (this machine's threads by default)."""

    rules: Rules
    field: list[SeatStrategy]
    mode: str = "round"
    seed: int | None = 0  # None: the study's own seed, or a new one (open_study)
    backend: Backend | None = None
    max_rounds: int = 1000
    #: told of every finished task (games): the command's stop check
    tick: Callable[[int], None] | None = None

    @property
    def players(self) -> int:
        return int(self.rules["players"])

    def lineups(self, cand: SeatStrategy) -> list[tuple[int, list[SeatStrategy]]]:
        """(seat of the candidate, seats) for each rotation of [cand, field...]."""
        n = self.players
        base = [cand] + [self.field[i % len(self.field)] for i in range(n - 1)]
        return [(r, base[n - r:] + base[:n - r]) for r in range(n)]

    def wins(self, cand: SeatStrategy, start: int, per_lineup: int) -> int | None:
        """Wins of ``cand`` over ``per_lineup`` games (from index ``start``) in each
        rotation; None when a stop cut them short (a trial is whole or not played)."""
        return drive(TrialWins(self, cand, start, per_lineup), self.backend)


def seat_wins(table: Table, seat: int, mode: str, seed: int, start: int, n: int,
              batch: int, chunks: int, max_rounds: int) -> int:
    """The task of a trial: rounds (or matches) ``start .. start + n`` of one rotation
    that seat ``seat`` won."""
    won = 0
    for first in range(start, start + n, batch):
        rec = np.zeros((min(batch, start + n - first), modes.of(mode).width), np.int32)
        play_batch_into(table, mode, seed, first, rec, chunks, max_rounds)
        won += modes.of(mode).seat_wins(rec, seat)
    return won


class TrialWins(Study):
    """One trial's play: ``per_lineup`` games from ``start`` in every rotation of the
    candidate, counted as the candidate's wins; None when a stop cut it short."""

    task = staticmethod(seat_wins)

    def __init__(self, table: TrialTable, cand: SeatStrategy, start: int,
                 per_lineup: int) -> None:
        self.table, self.cand, self.start, self.per = table, cand, start, per_lineup
        self.workers, self.chunks = 1, 1

    def prepare(self, backend: Backend) -> None:
        self.backend = backend

    def step(self, backend: Backend) -> int:
        return 1  # each rotation sizes its own tasks (tasks below)

    def fresh(self) -> list[int]:
        return [0]

    def tasks(self, step: int) -> Any:
        t, backend = self.table, self.backend
        seed = 0 if t.seed is None else int(t.seed)
        end = self.start + self.per
        for r, seats in t.lineups(self.cand):
            batch = batch_size(seats, default_batch(ROUND), backend.workers)
            size = backend.task_games(batch)
            table = Table(t.rules, seats)
            for s in range(self.start, end, size):  # keyed apart per rotation
                yield s * t.players + r, (table, r, t.mode, seed, s, min(size, end - s),
                                          batch, backend.chunks, t.max_rounds)

    def merge(self, totals: list[int], part: int) -> None:
        totals[0] += part

    def units(self, part: int) -> int:
        if self.table.tick is not None:
            self.table.tick(1)
        return 1

    def played(self, totals: list[int]) -> bool:
        return True  # a cut trial is reported as None, not as an empty result

    def result(self, totals: list[int], outcome: Outcome) -> int | None:
        return None if outcome.stopped else totals[0]


def rung_sizes(games_per_trial: int, players: int) -> list[int]:
    """Cumulative games per lineup at each rung: m/9, m/3, m (m rounded up so
    that the rungs are whole)."""
    m = max(1, -(-games_per_trial // players))
    first = max(1, -(-m // REDUCTION ** (RUNGS - 1)))
    return [first * REDUCTION ** k for k in range(RUNGS)]
