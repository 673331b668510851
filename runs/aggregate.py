"""Mergeable run totals: counts, sums, sums of squares and integer histograms.

A run keeps these instead of per-game rows, so memory does not grow with the
number of games, and two totals merge by adding them (threads, processes or
machines alike). All totals are integers, so any split gives identical results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate.fold_nb import fold_feel, fold_records
from unosim.simulate.round_metrics import TOTALLED

if TYPE_CHECKING:
    from unosim.simulate.rules import Rules
    from unosim.strategies.registry import SeatStrategy

#: metric name -> column of the per-game record: the fields declared totalled in
#: simulate/round_metrics.py, in record order
METRICS = {f.name: L.GAME_RECORD.column(f.name) for f in TOTALLED}
_COLS = np.array(list(METRICS.values()), np.int64)
_WON_ONLY = np.array([f.won_only for f in TOTALLED], np.bool_)
#: game-feel metrics (docs/metrics.md#game-feel), record columns G_FEEL + k; fixed point
#: as recorded
FEEL_METRICS = L.FEEL_METRICS
#: histogram bins hold the values 0 .. HIST_BINS-2 exactly; the last bin holds the rest
HIST_BINS = 8192


def per_seat() -> np.ndarray:
    """A dataclass field: one int64 total per seat."""
    return field(default_factory=lambda: np.zeros(L.MAX_PLAYERS, np.int64))


def per_metric(names: Any, bins: int = 0) -> Any:
    """A dataclass field: a 0 per metric name, or with ``bins`` a histogram each."""
    if bins:
        return field(default_factory=lambda: {m: np.zeros(bins, np.int64) for m in names})
    return field(default_factory=lambda: dict.fromkeys(names, 0))


@dataclass
class Aggregate:
    """Totals over a set of games (``winner_points`` over the games that have a winner)."""

    players: int
    games: int = 0
    capped: int = 0
    wins: np.ndarray = per_seat()
    seat_points: np.ndarray = per_seat()
    # place_counts[seat, k]: rounds the seat finished in place k (elimination; 0 unused)
    place_counts: np.ndarray = field(
        default_factory=lambda: np.zeros((L.MAX_PLAYERS, L.MAX_PLAYERS + 1), np.int64)
    )
    # stage_sums[seat]: sum of the stage each seat ended the round at (seven_rounds)
    stage_sums: np.ndarray = per_seat()
    count: dict[str, int] = per_metric(METRICS)
    sums: dict[str, int] = per_metric(METRICS)
    sumsq: dict[str, int] = per_metric(METRICS)
    hist: dict[str, np.ndarray] = per_metric(METRICS, HIST_BINS)
    # game feel (docs/metrics.md#game-feel) over the rounds with a winner: how many, and
    # per metric the sum and sum of squares of the recorded (fixed-point) values
    feel_rounds: int = 0
    feel_sums: dict[str, int] = per_metric(FEEL_METRICS)
    feel_sumsq: dict[str, int] = per_metric(FEEL_METRICS)
    # winner_max_deficit: 0 .. 15, the last bin 16 and more
    feel_hist: np.ndarray = field(default_factory=lambda: np.zeros(L.FEEL_HIST_BINS, np.int64))

    def add_records(self, rec: np.ndarray) -> None:
        """Fold per-game records (rows of ``layout.GAME_FIELDS``) into the totals."""
        stats = np.zeros((len(METRICS), 3), np.int64)
        hist = np.zeros((len(METRICS), HIST_BINS), np.int64)
        seats = np.zeros((3, L.MAX_PLAYERS), np.int64)
        places = np.zeros((L.MAX_PLAYERS, L.MAX_PLAYERS + 1), np.int64)
        capped = fold_records(np.ascontiguousarray(rec, dtype=np.int32), self.players,
                              _COLS, _WON_ONLY, stats, hist, seats, places)
        self.games += rec.shape[0]
        self.capped += int(capped)
        self.wins += seats[0]
        self.seat_points += seats[1]
        self.stage_sums += seats[2]
        self.place_counts += places
        for k, m in enumerate(METRICS):
            self.count[m] += int(stats[k, 0])
            self.sums[m] += int(stats[k, 1])
            self.sumsq[m] += int(stats[k, 2])
            self.hist[m] += hist[k]
        fs = np.zeros((len(FEEL_METRICS), 2), np.int64)
        fh = np.zeros(L.FEEL_HIST_BINS, np.int64)
        self.feel_rounds += int(fold_feel(np.ascontiguousarray(rec, dtype=np.int32), fs, fh))
        for k, m in enumerate(FEEL_METRICS):
            self.feel_sums[m] += int(fs[k, 0])
            self.feel_sumsq[m] += int(fs[k, 1])
        self.feel_hist += fh

    def merge(self, other: Aggregate) -> Aggregate:
        """Add ``other`` into this aggregate (and return it)."""
        self.games += other.games
        self.capped += other.capped
        self.wins += other.wins
        self.seat_points += other.seat_points
        self.place_counts += other.place_counts
        self.stage_sums += other.stage_sums
        for m in METRICS:
            self.count[m] += other.count[m]
            self.sums[m] += other.sums[m]
            self.sumsq[m] += other.sumsq[m]
            self.hist[m] += other.hist[m]
        self.feel_rounds += other.feel_rounds
        for m in FEEL_METRICS:
            self.feel_sums[m] += other.feel_sums[m]
            self.feel_sumsq[m] += other.feel_sumsq[m]
        self.feel_hist += other.feel_hist
        return self

    def same_as(self, other: Aggregate) -> bool:
        """Exact equality of every total (used for determinism checks)."""
        return (
            self.games == other.games
            and self.capped == other.capped
            and np.array_equal(self.wins, other.wins)
            and np.array_equal(self.seat_points, other.seat_points)
            and np.array_equal(self.place_counts, other.place_counts)
            and np.array_equal(self.stage_sums, other.stage_sums)
            and self.sums == other.sums
            and self.sumsq == other.sumsq
            and all(np.array_equal(self.hist[m], other.hist[m]) for m in METRICS)
            and self.feel_rounds == other.feel_rounds
            and self.feel_sums == other.feel_sums
            and self.feel_sumsq == other.feel_sumsq
            and np.array_equal(self.feel_hist, other.feel_hist)
        )


@dataclass
class RunResult:
    """What a run of rounds produced: totals, timing, and whether it was cut short."""

    rules: Rules
    seats: list[SeatStrategy]
    seed: int
    requested: int
    agg: Aggregate
    elapsed_s: float
    workers: int
    partial: bool = False
    compile_s: float = 0.0  # JIT compile or cache load before the timed run
    #: the compile paths this run compiled (none: Numba's cache held them)
    compiled: tuple[str, ...] = ()
    precision_reached: bool = False  # stopped early by ``precision``
