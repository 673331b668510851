"""The sweep study: one or two rule keys (or the player count) over a grid of values,
every point run on the same seed and game indices (common random numbers where the
deal allows).

A point the rule validation refuses (a hand size too large for the deck at 10
players, say) is kept in the result with the reason and not played; the others run
through the comparison study, so a sweep is a comparison whose variants are the
points of a grid.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from unosim.errors import UnosimError
from unosim.reports.sweep import Dim, Point, SweepResult
from unosim.runs.backend import Backend
from unosim.runs.modes import ROUND
from unosim.runs.variants import VariantSpec
from unosim.studies.compare import run_compare


def grid(dims: list[Dim], make: Callable[[dict[str, Any]], VariantSpec]) -> list[Point]:
    """Every point of the grid, in order (the first dimension varies slowest); a point
    whose rules ``make`` refuses keeps the reason instead of a spec."""
    if not 1 <= len(dims) <= 2:
        raise UnosimError(f"a sweep takes one or two swept dimensions, got {len(dims)}")
    points = []
    for values in itertools.product(*(d.values for d in dims)):
        coords = dict(zip((d.key for d in dims), values, strict=True))
        try:
            points.append(Point(coords, spec=make(coords)))
        except UnosimError as e:
            points.append(Point(coords, refused=str(e)))
    if all(p.refused for p in points):
        raise UnosimError("every point of the sweep is refused by the rules, e.g. "
                          f"{points[0].label}: {points[0].refused}")
    return points


def run_sweep(points: list[Point], dims: list[Dim], games: int, seed: int,
              workers: int | None = None, on_batch: Callable[[int], None] | None = None,
              backend: Backend | None = None, keep: Any = None,
              stage: str = "compare") -> SweepResult:
    """Play every point that was not refused, ``games`` rounds each, on one seed (a
    stop keeps the same games at every point; ``keep``: see ``run_compare``)."""
    specs = [p.spec for p in points if p.spec is not None]
    cmp = run_compare(specs, games, seed, workers, ROUND, on_batch=on_batch, limit=None,
                      backend=backend, keep=keep, stage=stage)
    return SweepResult(dims, points, cmp, seed, games)
