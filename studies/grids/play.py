"""The plays of the grids, from typed values: :func:`plan_sweep` and
:func:`play_sweep`, :func:`plan_atlas` and :func:`play_atlas`. A plan checks the
values and knows how many games it plays (for the progress bar) before anything runs;
its play runs it on a backend and returns the report.

The sweep: one or two rule keys (or the player count) over a grid of values, every
point run on the same seed and game indices (common random numbers where the deal
allows). A point the rule validation refuses (a hand size too large for the deck at
10 players, say) is kept in the result with the reason and not played; the others
run through the comparison study, so a sweep is a comparison whose variants are the
points of a grid.

The atlas: every preset against official at each player count, on the same deals
(one comparison of all of them, common random numbers), and with a strategy its
skill edge on the same deals too. A preset the rules refuse at a player count is
listed with the reason and skipped there. Only the figures are kept per player
count, so memory does not grow with the number of player counts.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from unosim.errors import UnosimError
from unosim.runs import inputs
from unosim.runs.backend import Backend
from unosim.runs.modes import ROUND
from unosim.runs.stopping import Stopped
from unosim.runs.variants import VariantSpec, variant_label
from unosim.studies.compare.play import run_compare
from unosim.studies.grids.atlas import Atlas, AtlasPlayers, effects_of
from unosim.studies.grids.dimensions import Dim
from unosim.studies.grids.report import AtlasReport, SweepReport
from unosim.studies.grids.sweep import Point, SweepResult
from unosim.studies.lineups.skill import run_skill

# ---------------------------------------------------------------- the sweep


@dataclass
class SweepPlan:
    """A sweep ready to play: its dimensions, every point (a refused one with the
    reason), the games per point and the variant it sweeps on."""

    dims: list[Dim]
    points: list[Point]
    games: int
    variant: str

    @property
    def total(self) -> int:
        """The games it plays: ``games`` at every point the rules did not refuse."""
        return self.games * sum(p.refused is None for p in self.points)


def plan_sweep(dims: list[Dim], fixed: dict[str, Any], games: int, *,
               variant: tuple[str, ...] = (), strategy: str = "random",
               seat: tuple[str, ...] = ()) -> SweepPlan:
    """The sweep of ``dims`` (``dimensions.sweep_dims`` reads them from text) on top of
    the presets ``variant``, ``fixed`` overriding rules at every point, ``strategy``
    in every seat but those ``seat`` names (``"N=NAME"``). An unknown variant is its
    own error, not every point's."""
    inputs.resolve_rules(variant, [], None)

    def make(coords: dict[str, Any]) -> VariantSpec:
        values = {**fixed, **coords}
        n = values.pop("players", None)
        rules = inputs.resolve_rules(variant, [f"{k}={_text(v)}" for k, v in values.items()],
                                     n)
        seats = inputs.seats_for(rules["players"], strategy, seat)
        label = ", ".join(f"{k}={_text(v)}" for k, v in coords.items())
        return VariantSpec(label, rules, seats)

    return SweepPlan(dims, grid(dims, make), games, variant_label(variant))


def play_sweep(plan: SweepPlan, seed: int, *, workers: int | None = None,
               backend: Backend | None = None, on_batch: Callable[[int], None] | None = None,
               keep: Any = None) -> SweepReport:
    """Play ``plan`` on ``seed``: its :class:`~unosim.studies.grids.report.SweepReport`
    (partial after a stop; ``keep``: see ``run_compare``)."""
    result = run_sweep(plan.points, plan.dims, plan.games, seed, workers, on_batch=on_batch,
                       backend=backend, keep=keep)
    return SweepReport(result, plan.variant)


def _text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


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


# ---------------------------------------------------------------- the atlas


@dataclass
class AtlasPlan:
    """An atlas ready to play: the presets, the player counts, the games per preset
    and player count, and the strategy whose skill edge it measures (None: none)."""

    presets: list[str]
    players: list[int]
    games: int
    strategy: Any

    def planned(self, n: int) -> int:
        """A preset's games at ``n`` players: the comparison's, then the skill deals in
        every seat."""
        return self.games + (-(-self.games // n) * n if self.strategy is not None else 0)

    @property
    def total(self) -> int:
        """The games it plays, over every preset and player count."""
        return sum(self.planned(n) * len(self.presets) for n in self.players)


def plan_atlas(players: list[int], games: int, strategy: str | None) -> AtlasPlan:
    """Every preset in configs/ against official at each of ``players``, with the skill
    edge of ``strategy`` (None or ``"none"`` leaves it out)."""
    from unosim.simulate.rules import preset_names
    from unosim.strategies.registry import parse_strategy

    none = strategy is None or strategy.strip().lower() == "none"
    strat = None if none else parse_strategy(strategy)
    if strat is not None:
        inputs.check_skill_games(games, max(players))
    elif games < 2:  # the paired differences' intervals need two deals
        raise UnosimError(f"--games {games}: the atlas needs at least 2 games per preset "
                          "and player count to give an interval")
    return AtlasPlan(preset_names(), list(players), games, strat)


def play_atlas(plan: AtlasPlan, seed: int, *, workers: int | None = None,
               backend: Backend | None = None, on_batch: Callable[[int], None] | None = None,
               keep: Any = None) -> AtlasReport:
    """Play ``plan`` on ``seed``: its :class:`~unosim.studies.grids.report.AtlasReport`
    (partial after a stop; ``keep``: see :func:`run_atlas`)."""

    def make(name: str, n: int) -> VariantSpec:
        rules = inputs.resolve_rules((name,), (), n)
        return VariantSpec(name, rules, inputs.seats_for(n, "random", ()))

    return AtlasReport(run_atlas(plan.presets, plan.players, plan.games, seed, make,
                                 plan.strategy, workers, on_batch, backend, keep))


def atlas_variants(presets: list[str], players: int,
                   make: Callable[[str, int], VariantSpec]) -> tuple[list[VariantSpec],
                                                                    dict[str, str]]:
    """official and every preset at ``players`` (official first); refused presets with
    their reasons."""
    specs, refused = [], {}
    for name in ["official", *[p for p in presets if p != "official"]]:
        try:
            specs.append(make(name, players))
        except UnosimError as e:
            if name == "official":
                raise
            refused[name] = str(e)
    return specs, refused


def run_atlas(presets: list[str], players: list[int], games: int, seed: int,
              make: Callable[[str, int], VariantSpec], strategy: Any = None,
              workers: int | None = None, on_batch: Callable[[int], None] | None = None,
              backend: Backend | None = None, keep: Any = None) -> Atlas:
    """Every preset against official at each player count (see the module's text).
    ``keep`` (``checkpoints.Keeper``) holds what an interrupted atlas finished: the
    figures of whole player counts, and the comparison and skill totals of the one
    it stopped in."""
    atlas = Atlas(seed, games, strategy.label() if strategy is not None else None,
                  requested=list(players))
    for n in players:
        done = keep.stage(f"atlas@{n}") if keep is not None else None
        if done is not None:
            atlas.by_players.append(done)
            if on_batch is not None:
                on_batch(0)
            continue
        specs, refused = atlas_variants(presets, n, make)
        try:
            cmp = run_compare(specs, games, seed, workers, ROUND, on_batch=on_batch,
                              limit=None, backend=backend, keep=keep, stage=f"compare@{n}")
            skill = None
            if strategy is not None and not cmp.partial:
                skill = run_skill(specs, strategy, games, seed, workers, on_batch,
                                  backend=backend, keep=keep, stage=f"skill@{n}")
        except Stopped:
            break
        values, effects = effects_of(cmp, skill)
        partial = cmp.partial or bool(skill is not None and skill.partial)
        figures = AtlasPlayers(n, [s.name for s in specs[1:]], values, effects, refused,
                               cmp.games, partial)
        atlas.by_players.append(figures)
        if partial:
            break
        if keep is not None:  # only the figures of a finished player count are kept
            keep.stages.pop(f"compare@{n}", None)
            keep.stages.pop(f"skill@{n}", None)
            keep.note(f"atlas@{n}", figures)
    if not atlas.by_players:
        raise Stopped
    return atlas
