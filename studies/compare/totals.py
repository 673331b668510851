"""A comparison's totals: per variant the run's totals, the per-game metric totals
(``Moments``), the paired differences from the baseline (``Paired``) and the joint
table of winners, folded batch by batch and merged task by task."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from unosim.reports import metrics as MX
from unosim.runs import modes
from unosim.runs.aggregate import HIST_BINS
from unosim.runs.modes import Mode
from unosim.runs.runner import new_totals
from unosim.runs.tables import Table
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
    moments: list[Moments]
    paired: list[Paired | None]
    joint: list[np.ndarray | None]
    elapsed: list[float]
    #: kept for the checkpoint's format: a task's records travel in its ``Played``
    records: list[tuple[int, int, np.ndarray]] = field(default_factory=list)

    @classmethod
    def empty(cls, tables: list[Table], mode: Mode) -> CompareTotals:
        side = L.MAX_PLAYERS + 1
        k = len(tables)
        return cls([new_totals(mode, t.players) for t in tables],
                   [Moments() for _ in tables],
                   [None] + [Paired() for _ in tables[1:]],
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
            merge_moments(self.moments[vi], other.moments[vi])
            if vi:
                merge_paired(self.paired[vi], other.paired[vi])  # type: ignore[arg-type]
                self.joint[vi] += other.joint[vi]  # type: ignore[operator]
            self.elapsed[vi] += other.elapsed[vi]
        return self


def fold_batch(mode: str, totals: CompareTotals, recs: list[np.ndarray]) -> None:
    """Fold one batch of every variant (its records, one array per variant, of the
    same game indices) into ``totals``: the fold of a comparison's task
    (``runs.runner.play_range``, as ``partial(fold_batch, mode)``)."""
    extract = MX.extractor(mode)
    by_rounds = modes.of(mode).by_rounds
    vals, wins = [], []
    for vi, rec in enumerate(recs):
        agg = totals.aggs[vi]
        agg.add_records(rec)
        vals.append(extract(rec, agg.players))
        wins.append(None if by_rounds else winners(rec))
    totals.add(vals, wins)


def _add_joint(joint: np.ndarray, base: np.ndarray, other: np.ndarray) -> None:
    """Count the pairs (baseline's winner, variant's winner) of the same games."""
    side = joint.shape[0]
    joint += np.bincount(base * side + other, minlength=side * side).reshape(side, side)


@dataclass
class Moments:
    """Count, sum, sum of squares and histogram of each metric (exact integers)."""

    n: dict[str, int] = field(default_factory=dict)
    s: dict[str, int] = field(default_factory=dict)
    ss: dict[str, int] = field(default_factory=dict)
    hist: dict[str, np.ndarray] = field(default_factory=dict)

    def add(self, vals: MX.Values) -> None:
        for name, (v, mask) in vals.items():
            if mask is not None:
                v = v[mask]
            if name not in self.n:
                self.n[name], self.s[name], self.ss[name] = 0, 0, 0
                self.hist[name] = np.zeros(HIST_BINS, np.int64)
            self.n[name] += int(v.shape[0])
            self.s[name] += int(v.sum())
            self.ss[name] += int((v * v).sum())
            self.hist[name] += np.bincount(np.clip(v, 0, HIST_BINS - 1), minlength=HIST_BINS)


@dataclass
class Paired:
    """Totals of the per-game difference (variant - baseline) of each metric."""

    n: dict[str, int] = field(default_factory=dict)
    s: dict[str, int] = field(default_factory=dict)
    ss: dict[str, int] = field(default_factory=dict)

    def add(self, base: MX.Values, other: MX.Values) -> None:
        for name, (b, bmask) in base.items():
            if name not in other:
                continue
            v, vmask = other[name]
            d = v - b
            if bmask is not None or vmask is not None:
                keep = np.ones(d.shape[0], bool)
                if bmask is not None:
                    keep &= bmask
                if vmask is not None:
                    keep &= vmask
                d = d[keep]
            self.n[name] = self.n.get(name, 0) + int(d.shape[0])
            self.s[name] = self.s.get(name, 0) + int(d.sum())
            self.ss[name] = self.ss.get(name, 0) + int((d * d).sum())


def merge_moments(a: Moments, b: Moments) -> Moments:
    """``a`` plus ``b`` (in place in ``a``): totals of two ranges of games."""
    for name in b.n:
        if name not in a.n:
            a.n[name], a.s[name], a.ss[name] = 0, 0, 0
            a.hist[name] = np.zeros(HIST_BINS, np.int64)
        a.n[name] += b.n[name]
        a.s[name] += b.s[name]
        a.ss[name] += b.ss[name]
        a.hist[name] += b.hist[name]
    return a


def merge_paired(a: Paired, b: Paired) -> Paired:
    """``a`` plus ``b`` (in place in ``a``)."""
    for name in b.n:
        a.n[name] = a.n.get(name, 0) + b.n[name]
        a.s[name] = a.s.get(name, 0) + b.s[name]
        a.ss[name] = a.ss.get(name, 0) + b.ss[name]
    return a
