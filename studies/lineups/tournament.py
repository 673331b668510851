"""The tournament study: every lineup of the entrants plays the same games of the
seed (duplicate format); see tournament_summary.py for the seating and the figures.

The entrants are the strategies as listed (the same one may be listed several times:
each entry is its own entrant) and, with a field, the field strategy last.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from unosim.errors import UnosimError
from unosim.runs.backend import Backend
from unosim.runs.driver import Outcome, Study, drive
from unosim.runs.modes import ROUND
from unosim.runs.runner import batch_size, default_batch, play_batch_into
from unosim.runs.tables import Table
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules
from unosim.strategies.registry import SeatStrategy
from unosim.studies.lineups.tournament_summary import TournamentResult
from unosim.studies.lineups.tournament_totals import Totals, add_records

SEATINGS = ("rotations", "permutations")
MAX_LINEUPS = 100_000


def lineups(k: int, n: int, seating: str = "rotations", field: bool = False
            ) -> list[tuple[int, ...]]:
    """Seat assignments: entry s of a lineup is the index of the strategy in seat s.

    With ``field``, index ``k`` is the field: listed strategy i sits at seat s and the
    field in every other seat, for every i (in order) and every seat s (in order),
    ``k * n`` lineups."""
    if seating not in SEATINGS:
        raise UnosimError(f"--seating must be one of {', '.join(SEATINGS)}, got {seating!r}")
    if field:
        if k < 1:
            raise UnosimError("a tournament with --field needs at least one strategy")
        if seating != "rotations":
            raise UnosimError(f"--seating {seating} does not apply with --field: the field's "
                              "seats are alike, so rotating the strategy's seat already "
                              "plays every seat order")
        if k * n > MAX_LINEUPS:
            raise UnosimError(f"{k} strategies against a field at {n}-player tables make "
                              f"{k * n:,} lineups (at most {MAX_LINEUPS:,}); list fewer")
        return [tuple(i if seat == s else k for seat in range(n))
                for i in range(k) for s in range(n)]
    if k < 2:
        raise UnosimError("a tournament needs at least two strategies (or one against a "
                          "field: --field STRATEGY)")

    def orders(base: tuple[int, ...]) -> list[tuple[int, ...]]:
        if seating == "permutations":
            if math.factorial(len(base)) > 40_320:
                raise UnosimError(f"--seating permutations: {len(base)}! seat orders are too "
                                  "many; use rotations")
            return sorted(set(itertools.permutations(base)))
        return [base[i:] + base[:i] for i in range(len(base))]

    if k <= n:
        table = [lu for base in fewer_bases(k, n) for lu in orders(base)]
        if len(table) > MAX_LINEUPS:
            raise UnosimError(f"--seating {seating}: {k} strategies at {n}-player tables make "
                              f"{len(table):,} lineups (at most {MAX_LINEUPS:,}); use "
                              "rotations")
        return table
    count = math.comb(k, n) * (math.factorial(n) if seating == "permutations" else n)
    if count > MAX_LINEUPS:
        raise UnosimError(f"{k} strategies at {n}-player tables make {count:,} lineups "
                          f"(at most {MAX_LINEUPS:,}); use fewer strategies")
    out: list[tuple[int, ...]] = []
    for combo in itertools.combinations(range(k), n):
        out.extend(orders(combo))
    return out


def fewer_bases(k: int, n: int) -> list[tuple[int, ...]]:
    """The tables that seat ``k <= n`` strategies at ``n`` seats, before rotation: the
    strategies cycled from the first (A B C A), and, when ``n`` is not a multiple of
    ``k``, cycled from each strategy in turn (B C A B, C A B C), so that each takes its
    turn at the extra seats and every strategy fills the same number of seat-games.
    With ``k == n`` or ``n`` a multiple of ``k`` one table is already fair, and the
    lineups (so the games a seed gives) are those of a single cycle."""
    if n % k == 0:
        return [tuple(i % k for i in range(n))]
    return [tuple((j + i) % k for i in range(n)) for j in range(k)]


def planned_games(k: int, n: int, seating: str, games: int, field: bool = False) -> int:
    """Games a tournament will play: ``games`` rounded up to whole lineups."""
    table = len(lineups(k, n, seating, field))
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
            play_batch_into(t, ROUND, seed, first, rec, chunks)
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
    field: SeatStrategy | None = None,
) -> TournamentResult:
    """Play every lineup for the same ``ceil(games / lineups)`` games of ``seed``, lineup
    by lineup (a stop keeps the finished tasks and marks the result partial; ``keep``,
    a ``checkpoints.Keeper``, holds what an interrupted run finished under ``stage``).

    ``strategies`` may list one strategy several times (each entry its own entrant).
    With ``field``, each of them plays one seat against ``field`` in all the others, its
    seat rotated through every seat; the field is then an entrant too (the last), and
    a strategy's win rate is the share of its rounds it won, fair share 1/players."""
    study = TournamentStudy(rules, strategies, games, seed, seating, variant, stage, field)
    return drive(study, backend, workers, on_batch, keep)


class TournamentStudy(Study):
    """Every lineup over the same games, lineup by lineup."""

    task = staticmethod(tournament_range)

    def __init__(self, rules: Rules, strategies: list[SeatStrategy], games: int, seed: int,
                 seating: str, variant: str, stage: str,
                 field: SeatStrategy | None = None) -> None:
        self.n = int(rules["players"])
        self.table = lineups(len(strategies), self.n, seating, field is not None)
        # the entrants: the strategies as listed, then the field
        strategies = [*strategies, *([field] if field is not None else [])]
        self.rules, self.strategies, self.games, self.seed = rules, strategies, games, seed
        self.seating, self.variant, self.stage, self.field = seating, variant, stage, field
        self.per = max(1, -(-games // len(self.table)))
        self.tables = [Table(rules, [strategies[i] for i in lineup]) for lineup in self.table]
        self.chunks = 1

    def prepare(self, backend: Backend) -> None:
        self.chunks = backend.chunks

    def step(self, backend: Backend) -> int:
        # small batches for a search, so progress shows
        batch = min(batch_size([self.strategies[i] for i in lineup], default_batch(ROUND),
                               backend.workers)
                    for lineup in self.table)
        return backend.task_games(batch)

    def fresh(self) -> Totals:
        return Totals(len(self.strategies), self.n)

    def tasks(self, step: int) -> Any:
        inner = min(default_batch(ROUND), step)
        return ((s, (self.tables, self.table, len(self.strategies), self.seed, s,
                     min(step, self.per - s), inner, self.chunks))
                for s in range(0, self.per, step))

    def units(self, part: Totals) -> int:
        return int(part.seat_counts.sum()) // self.n

    def played(self, totals: Totals) -> bool:
        return bool(totals.games.max() > 0)

    def result(self, totals: Totals, outcome: Outcome) -> TournamentResult:
        return TournamentResult(self.rules, self.strategies, self.seating, self.table,
                                self.per, self.games, self.seed, totals, outcome.elapsed_s,
                                outcome.workers, self.variant, outcome.stopped, self.field)
