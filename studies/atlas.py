"""The atlas study: every preset against official at each player count, on the same
deals (one comparison of all of them, common random numbers), and with a strategy
its skill edge on the same deals too. A preset the rules refuse at a player count is
listed with the reason and skipped there. Only the figures are kept per player
count, so memory does not grow with the number of player counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from unosim.errors import UnosimError
from unosim.reports.atlas import Atlas, AtlasPlayers, effects_of
from unosim.runs.backend import Backend
from unosim.runs.modes import ROUND
from unosim.runs.stopping import Stopped
from unosim.runs.variants import VariantSpec
from unosim.studies.compare import run_compare
from unosim.studies.skill import run_skill


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
