"""The typed entries of the lineups: a tournament and a skill study from resolved
values (rules, seat strategies, game counts, a seed, an open backend), each played
through the backend and returned as its report object. The commands and
``unosim.api`` parse their own input into these values, open the backend under
their progress bar and call these."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from unosim.errors import UnosimError
from unosim.runs.backend import Backend
from unosim.runs.variants import VariantSpec
from unosim.simulate.rules import Rules
from unosim.strategies.registry import SeatStrategy
from unosim.studies.lineups.report import SkillReport, TournamentReport
from unosim.studies.lineups.skill import run_skill
from unosim.studies.lineups.tournament import planned_games, run_tournament


def tournament_games(strategies: int, rules: Rules, seating: str, games: int,
                     field: bool = False) -> int:
    """Games a tournament of ``strategies`` entrants will play (its progress total):
    ``games`` rounded up to whole lineups (bad seatings are refused here, before any
    game)."""
    return planned_games(strategies, int(rules["players"]), seating, games, field)


def play_tournament(rules: Rules, strategies: Sequence[SeatStrategy], games: int, seed: int,
                    *, seating: str = "rotations", field: SeatStrategy | None = None,
                    variant: str = "official", backend: Backend | None = None,
                    workers: int | None = None,
                    on_batch: Callable[[int], None] | None = None,
                    keep: Any = None) -> TournamentReport:
    """The strategies head to head, every seat played equally often (``field``: each
    in one seat against it in the others): the report, partial after a stop (``keep``,
    a ``checkpoints.Keeper``, holds what finished, and what a resume starts from)."""
    return TournamentReport(run_tournament(rules, list(strategies), games, seed, seating,
                                           workers, on_batch=on_batch, variant=variant,
                                           backend=backend, field=field, keep=keep))


def check_request(variants: Sequence[str], strategy: str | None) -> None:
    """A skill study needs variants and the strategy to measure (checked first)."""
    if not variants:
        raise UnosimError("skill needs at least one VARIANT, e.g. `unosim skill official "
                          "stacking --strategy offensive`")
    if strategy is None:
        raise UnosimError("skill needs --strategy NAME: the strategy whose skill edge is "
                          "measured")


def skill_games(variants: Sequence[VariantSpec], games: int) -> int:
    """Games a skill study will play (its progress total): ``games`` rounded up to whole
    deals of every seat rotation, in every variant."""
    p = int(variants[0].rules["players"])
    return max(1, -(-games // p)) * p * len(variants)


def play_skill(variants: Sequence[VariantSpec], strategy: SeatStrategy, games: int, seed: int,
               *, field: SeatStrategy | None = None, backend: Backend | None = None,
               workers: int | None = None, on_batch: Callable[[int], None] | None = None,
               keep: Any = None) -> SkillReport:
    """The skill edge of ``strategy`` against ``field`` (``random`` by default) under each
    variant (the first is the baseline), on the same deals: the report, partial after a
    stop (``keep``, a ``checkpoints.Keeper``, holds what a stopped run finished)."""
    return SkillReport(run_skill(list(variants), strategy, games, seed, workers,
                                 on_batch=on_batch, backend=backend, keep=keep, field=field))
