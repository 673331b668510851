"""The typed entry of tuning: what is tuned checked before any game (Optuna installed,
the storage, the strategy's name, its search space, the field), then the study run on
an open backend and returned as its report object. The command and ``unosim.api``
parse their own input, open the backend under their stop signals and call these."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from unosim.errors import UnosimError
from unosim.runs.backend import Backend
from unosim.simulate.rules import Rules
from unosim.strategies.registry import Param, SeatStrategy, parse_strategy
from unosim.studies.tune.report import TuneReport
from unosim.studies.tune.space import search_space
from unosim.studies.tune.storage import check_storage
from unosim.studies.tune.study import TuneSetup, history, require_optuna, run_study
from unosim.studies.tune.trials import TrialTable

Space = dict[str, tuple[float, float, Param]]


def tune_target(strategy: str, params: Sequence[str], against: str, storage: str,
                study: str | None) -> tuple[str, Space, list[SeatStrategy]]:
    """The strategy's name, its search space (``params``: ``NAME=LO..HI`` items, none:
    every parameter over its documented range) and the field (``against``: names
    separated by commas, cycled over the other seats), each checked; Optuna and the
    storage are checked first, so a study that would be lost is refused before any
    game."""
    require_optuna()
    check_storage(storage, study)  # before any game: a study lost at exit, no name
    name = strategy.strip()
    if ":" in name:
        raise UnosimError(f"tune takes a strategy name without parameters, got {strategy!r}; "
                          "fix a parameter with --param NAME=V..V")
    parse_strategy(name)  # unknown names: the registry's message
    space = search_space(name, list(params))
    field = [parse_strategy(x) for x in against.split(",") if x.strip()]
    if not field:
        raise UnosimError("--against needs at least one strategy")
    return name, space, field


def default_study_name(name: str, players: int, against: str, mode: str, variant: str) -> str:
    """The study's default name: from the strategy, players, field, mode and variant."""
    return f"{name}-{players}p-vs-{against.replace(',', '+')}-{mode}-{variant}"


def play_tune(name: str, space: Space, field: Sequence[SeatStrategy], rules: Rules,
              games_per_trial: int, *, against: str = "random", variant: str = "official",
              mode: str = "round", trials: int = 100, sampler: str = "tpe",
              storage: str = "sqlite:///unosim-tune.db", study: str,
              seed: int | None = None, backend: Backend | None = None,
              draw_seed: Callable[[], int] | None = None) -> TuneReport:
    """Add ``trials`` trials to the study (Ctrl-C keeps the finished ones), then
    re-evaluate the best on fresh deals: the report, partial after a stop. Without a
    seed a continued study keeps its own and a new one takes ``draw_seed()``."""
    table = TrialTable(rules, list(field), mode, seed, backend)
    setup = TuneSetup(name, space, table, games_per_trial, sampler, against, variant)
    optuna_study, result = run_study(setup, storage, study, trials, draw_seed=draw_seed)
    return TuneReport(result, lambda: history(optuna_study), optuna_study)
