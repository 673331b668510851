"""Comparisons, sweeps and the atlas on a Dask cluster: the same totals as on this
machine, by map and merge.

A task plays one range of game indices in every variant and returns, per variant,
the run's integer totals (``Aggregate``), the per-game metric totals (``Moments``)
and the paired differences from the first variant (``Paired``); all are integer
sums, so merging the tasks in any order gives exactly what the local comparison
engine gives for the same seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from unosim.reports import metrics as MX
from unosim.reports.compare import (
    Comparison,
    VariantSpec,
    add_joint,
    new_joint,
    summary_of,
    winners,
)

TASK_GAMES = 1 << 18


def compare_range(payloads: list[tuple[dict[str, Any], list[str], list[dict[str, Any]]]],
                  seed: int, start: int, n: int, batch: int = 1 << 16) -> list[Any]:
    """On a worker: games ``start .. start + n`` of every variant (rule values, seat
    labels, plug-in files); per variant (Aggregate, Moments, Paired or None)."""
    from unosim.simulate.aggregate import Aggregate
    from unosim.simulate.checkpoint import load_plugin_seats
    from unosim.simulate.rules import resolve
    from unosim.simulate.runner import play_records
    from unosim.strategies.registry import parse_strategy

    tables = []
    for values, labels, plugins in payloads:
        if plugins:
            load_plugin_seats(plugins, "on this worker: every worker needs the same file "
                              "at the same path")
        tables.append((resolve([], list(values.items())), [parse_strategy(x) for x in labels]))
    aggs = [Aggregate(players=r["players"]) for r, _ in tables]
    moments = [MX.Moments() for _ in tables]
    paired: list[MX.Paired | None] = [None] + [MX.Paired() for _ in tables[1:]]
    joint: list[Any] = [None] + [new_joint() for _ in tables[1:]]
    for first in range(start, start + n, batch):
        count = min(batch, start + n - first)
        base: Any = None
        for vi, (rules, seats) in enumerate(tables):
            rec = play_records(rules, seats, seed, first, count, chunks=8)
            aggs[vi].add_records(rec)
            vals = MX.extract_round(rec, rules["players"])
            moments[vi].add(vals)
            if vi == 0:
                base = (vals, winners(rec))
            else:
                paired[vi].add(base[0], vals)  # type: ignore[union-attr]
                add_joint(joint[vi], base[1], winners(rec))
    return [aggs, moments, paired, joint]


def skill_range(rule_values: list[dict[str, Any]], strategy: str,
                plugins: list[dict[str, Any]], seed: int, lo: int, hi: int) -> list[Any]:
    """On a worker: deals ``lo .. hi`` of ``unosim skill`` in every variant (its totals)."""
    from unosim.reports.skill import play_here
    from unosim.simulate.checkpoint import load_plugin_seats
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    if plugins:
        load_plugin_seats(plugins, "on this worker: every worker needs the same file at the "
                          "same path")
    variants = [VariantSpec("", resolve([], list(v.items())), []) for v in rule_values]
    return play_here(variants, parse_strategy(strategy), lo, hi, seed, None)[0]


@dataclass
class DaskRunner:
    """Plays a comparison of rounds on the cluster of ``client``."""

    client: Any
    task_games: int = TASK_GAMES

    def compare(self, variants: list[VariantSpec], games: int, seed: int,
                on_batch: Callable[[int], None] | None = None) -> Comparison:
        from dask.distributed import as_completed

        from unosim.simulate.distributed import plugin_seats_of
        from unosim.simulate.match import DEFAULT_MAX_ROUNDS
        from unosim.simulate.runner import RunResult

        payloads = [(v.rules.as_dict(), [s.label() for s in v.seats], plugin_seats_of(v.seats))
                    for v in variants]
        starts = list(range(0, games, self.task_games))
        sizes = [min(self.task_games, games - s) for s in starts]
        t0 = time.perf_counter()
        futures = self.client.map(compare_range, [payloads] * len(starts),
                                  [seed] * len(starts), starts, sizes, pure=False)
        merged: list[Any] | None = None
        partial = False
        try:
            for fut in as_completed(futures):
                part = fut.result()
                if merged is None:
                    merged = part
                else:
                    for vi in range(len(variants)):
                        merged[0][vi].merge(part[0][vi])
                        MX.merge_moments(merged[1][vi], part[1][vi])
                        if vi:
                            MX.merge_paired(merged[2][vi], part[2][vi])
                            merged[3][vi] += part[3][vi]
                n = part[0][0].games
                if on_batch is not None:
                    on_batch(n * len(variants))
        except KeyboardInterrupt:
            partial = True
            self.client.cancel(futures)
        if merged is None:
            raise KeyboardInterrupt
        elapsed = time.perf_counter() - t0
        workers = len(self.client.scheduler_info().get("workers", {}))
        aggs, moments, paired, joint = merged
        results = [RunResult(v.rules, v.seats, seed, games, aggs[vi], elapsed, workers,
                             partial) for vi, v in enumerate(variants)]
        cmp = Comparison(variants, "round", seed, games, workers, DEFAULT_MAX_ROUNDS, results,
                         moments, paired, elapsed, partial, joint=joint)
        cmp.summaries = [summary_of("round", r, v.name) for r, v in zip(results, variants,
                                                                         strict=True)]
        return cmp

    def skill(self, variants: list[VariantSpec], strategy: Any, deals: int, seed: int,
              on_batch: Callable[[int], None] | None = None) -> tuple[list[Any], bool, int,
                                                                       float]:
        """``unosim skill`` totals of ``deals`` deals: (totals, partial, workers, s)."""
        from dask.distributed import as_completed

        from unosim.reports.skill import SkillTotals, merge_totals
        from unosim.simulate.distributed import plugin_seats_of

        p = int(variants[0].rules["players"])
        step = max(1, self.task_games // p)
        starts = list(range(0, deals, step))
        values = [v.rules.as_dict() for v in variants]
        plugins = plugin_seats_of([strategy])
        t0 = time.perf_counter()
        futures = self.client.map(skill_range, [values] * len(starts),
                                  [strategy.label()] * len(starts), [plugins] * len(starts),
                                  [seed] * len(starts), starts,
                                  [min(deals, s + step) for s in starts], pure=False)
        totals = [SkillTotals(p) for _ in variants]
        partial = False
        try:
            for fut in as_completed(futures):
                part = fut.result()
                merge_totals(totals, part)
                if on_batch is not None:
                    on_batch(part[0].deals * p * len(variants))
        except KeyboardInterrupt:
            partial = True
            self.client.cancel(futures)
        if totals[0].deals == 0:
            raise KeyboardInterrupt
        workers = len(self.client.scheduler_info().get("workers", {}))
        return totals, partial, workers, time.perf_counter() - t0
