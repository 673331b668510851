"""A design ready to play, checked before any game: its question, its space, the
trials and games, the strategy of the skill edge; and the sizes of its passes.

``plan_design`` reads the options as the command and ``unosim.api.design`` give
them, merged with a question file (``--question FILE.toml``: the options given
come first), and refuses bad input with one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unosim.errors import UnosimError
from unosim.runs import inputs
from unosim.strategies.registry import SeatStrategy, parse_strategy
from unosim.studies.design.objectives import Question, load_question, make_question
from unosim.studies.design.space import Space, make_space, parse_keys

#: the re-measurement plays game indices from here on (tune's re-evaluation start:
#: the search and its second pass use 0 .. SECOND x games - 1)
REMEASURE_START = 1 << 40
#: the second pass, and the re-measurement, play this many times the first pass's games
SECOND = 4
#: at most this many candidates go to the second pass, and to the front
RUNG_KEEP = 24
MAX_FRONT = 8
#: a candidate's round costs about this many official rounds: house rules lengthen
#: rounds (the default space's candidates average some 2 to 3 times the turns), and the
#: search plays many small batches (measured: the issue tracker's question, 19 million
#: rounds in about 2 minutes on 2 cores, against 370,000 official rounds a second a core)
ROUND_COST = 4
#: the study's name in its storage
STUDY = "design"
#: the games of a candidate's first pass, and the trials, by default
DEFAULT_GAMES = 20_000
DEFAULT_TRIALS = 200
MAX_TRIALS = 100_000


def population(trials: int) -> int:
    """NSGA-II's population: a quarter of the trials, 8 to 50 (Optuna's default)."""
    return max(8, min(50, trials // 4))


@dataclass
class DesignPlan:
    space: Space
    question: Question
    trials: int
    games: int
    strategy: SeatStrategy
    command_line: str

    @property
    def most_games(self) -> int:
        """About the games it plays at most: every trial played (none refused or
        repeated), the second pass, the check of the front's changes (a few a member)
        and the re-measurement (with the base), in each study."""
        from unosim.studies.design.objectives import SKILL

        kinds = int(any(m != SKILL for m in self.question.metrics)) + int(
            self.question.needs_skill)
        second = max(min(self.trials, MAX_FRONT), min(RUNG_KEEP, -(-self.trials // 3)))
        changes = min(len(self.space.keys), 4)
        return kinds * self.games * (self.trials + SECOND * (second + 1)
                                     + SECOND * MAX_FRONT * changes
                                     + SECOND * (MAX_FRONT + 1))

    @property
    def official_rounds(self) -> int:
        """:attr:`most_games` in rounds of official length (what ``--dry-run`` times)."""
        return self.most_games * ROUND_COST


def _words(items: Any) -> tuple[str, ...]:
    return tuple(items or ())


def plan_design(maximize: tuple[str, ...] = (), minimize: tuple[str, ...] = (),
                require: tuple[str, ...] = (), question_file: str | None = None,
                base: tuple[str, ...] = (), rule: tuple[str, ...] = (),
                keys: tuple[str, ...] = (), players: int | None = None,
                trials: int | None = None, games: str | int | None = None,
                strategy: str | None = None) -> DesignPlan:
    """The design the options ask for, every part checked (see the module's text)."""
    from unosim.studies.tune.study import require_optuna

    try:  # before any check of the rest: the one line saying how to install it
        require_optuna()
    except UnosimError:
        raise UnosimError('unosim design needs optuna: pip install "unosim[tune]" (or pip '
                          "install optuna)") from None
    asked = load_question(question_file) if question_file is not None else {}
    text = str(asked.get("question", ""))
    if not (maximize or minimize):
        maximize, minimize = _words(asked.get("maximize")), _words(asked.get("minimize"))
    require = require or _words(asked.get("require"))
    base = base or _words(asked.get("base"))
    rule = rule or _words(asked.get("base_rules"))
    keys = keys or _words(asked.get("keys"))
    players = players if players is not None else asked.get("players")
    if games is None:
        games = asked.get("games", DEFAULT_GAMES)
    trials = trials if trials is not None else int(asked.get("trials", DEFAULT_TRIALS))
    if not 1 <= trials <= MAX_TRIALS:
        raise UnosimError(f"trials: {trials} is not within 1..{MAX_TRIALS:,}")
    strategy = strategy if strategy is not None else str(asked.get("strategy", "offensive"))
    count = inputs.parse_games(str(games))
    players = int(inputs.resolve_rules(base, rule, players)["players"])
    question = make_question(maximize, minimize, require, players, text)
    if question.needs_skill:
        inputs.check_skill_games(count, players)
    elif count < 2:
        raise UnosimError(f"--games {count}: a candidate needs at least 2 games to give an "
                          "interval")
    strat = parse_strategy(strategy)
    space = make_space(base or ("official",), rule, players, parse_keys(keys))
    return DesignPlan(space, question, trials, count, strat,
                      command_line(question, base, rule, keys, players, trials, count,
                                   strategy))


def command_line(q: Question, base: tuple[str, ...], rule: tuple[str, ...],
                 keys: tuple[str, ...], players: int, trials: int, games: int,
                 strategy: str) -> str:
    """The ``unosim design`` line that asks the same (the seed is added when known)."""
    import shlex

    parts = ["unosim", "design"]
    for g in q.goals:
        parts += [f"--{g.sense}", g.metric]
    for r in q.requirements:
        parts += ["--require", r.text]
    for b in base:
        parts += ["--base", b]
    for r in rule:
        parts += ["--rule", r]
    for k in keys:
        parts += ["--keys", k]
    parts += ["--players", str(players), "--trials", str(trials), "--games", str(games)]
    if q.needs_skill and strategy != "offensive":
        parts += ["--strategy", strategy]
    return " ".join(shlex.quote(p) for p in parts)
