"""The question a design answers, as data: objectives to raise or lower and
requirements to meet, on the metrics ``compare`` and ``skill`` measure (the round
metrics of the reports' declaration and ``skill_edge``), and each requirement's
verdict by settle's rule.

``--require "turns<=30"`` reads as the claim "turns is at most 30": TRUE only when
the whole 95% interval lies beyond the value by more than the metric's margin (the
smallest difference that matters, ``stats.verdicts.default_margin``), FALSE when it
lies beyond it the other way, NOT SHOWN otherwise (settle's words). The search
itself reads the point estimates (Optuna's constraints: feasible when at or below 0);
only the re-measured front gets verdicts.

A question may also be a TOML file, written like a claim::

    question = "Shorter rounds and more comebacks, still a game of skill"
    minimize = ["turns"]
    maximize = ["comeback"]
    require = ["skill_edge>=0.02"]
    players = 4
    base = ["official"]
    keys = ["hand_size=5..9", "jump_in,seven_o,stacking"]
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from unosim.common import read_toml
from unosim.errors import UnosimError, did_you_mean

SKILL = "skill_edge"
TRUE, FALSE, NOT_SHOWN = "TRUE", "FALSE", "NOT SHOWN"
_REQ = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=)\s*([-+]?[0-9.]+(?:[eE][-+]?\d+)?)"
                  r"\s*(%?)\s*")


@dataclass(frozen=True)
class Goal:
    """An objective: raise (``maximize``) or lower (``minimize``) a metric."""

    metric: str
    sense: str  # "maximize" or "minimize"

    @property
    def text(self) -> str:
        return f"{'raise' if self.sense == 'maximize' else 'lower'} {self.metric}"


@dataclass(frozen=True)
class Requirement:
    """``metric <= value`` or ``metric >= value``, with the margin that matters."""

    metric: str
    op: str
    value: float
    margin: float

    @property
    def text(self) -> str:
        return f"{self.metric}{self.op}{self.value:g}"

    def violation(self, estimate: float) -> float:
        """Optuna's constraint value: at or below 0 when the estimate meets it."""
        if not math.isfinite(estimate):
            return math.inf
        return estimate - self.value if self.op == "<=" else self.value - estimate

    def verdict(self, lo: float, hi: float) -> str:
        """settle's verdict on the 95% interval [lo, hi] of the metric: TRUE only
        beyond the value by more than the margin."""
        from unosim.stats.verdicts import TRUE as T
        from unosim.stats.verdicts import decide

        direction = "lower" if self.op == "<=" else "higher"
        v = decide(direction, lo - self.value, hi - self.value, self.margin)
        return TRUE if v == T else FALSE if v == "FALSE" else NOT_SHOWN


@dataclass(frozen=True)
class Question:
    goals: tuple[Goal, ...]
    requirements: tuple[Requirement, ...]
    text: str = ""

    @property
    def metrics(self) -> list[str]:
        """Every metric the question reads, each once, goals first."""
        return list(dict.fromkeys([*(g.metric for g in self.goals),
                                   *(r.metric for r in self.requirements)]))

    @property
    def needs_skill(self) -> bool:
        return SKILL in self.metrics

    def to_dict(self) -> dict[str, Any]:
        return {"question": self.text,
                "maximize": [g.metric for g in self.goals if g.sense == "maximize"],
                "minimize": [g.metric for g in self.goals if g.sense == "minimize"],
                "objectives": [{"metric": g.metric, "sense": g.sense} for g in self.goals],
                "require": [{"metric": r.metric, "op": r.op, "value": r.value,
                             "margin": r.margin} for r in self.requirements]}


def metric_names(players: int) -> list[str]:
    """The metrics a design may name: the round metrics compare measures, then the skill
    edge."""
    from unosim.reports import metrics as MX

    return [m.name for m in MX.round_metrics(players)] + [SKILL]


def _check_metric(name: str, players: int, option: str) -> str:
    names = metric_names(players)
    if name not in names:
        raise UnosimError(f"{option} {name}: unknown metric"
                          + (did_you_mean(name, names) or f"; metrics: {', '.join(names)}"))
    return name


def is_rate(name: str, players: int) -> bool:
    from unosim.reports import metrics as MX

    return any(m.name == name and m.rate for m in MX.round_metrics(players))


def parse_requirement(text: str, players: int) -> Requirement:
    """``METRIC<=X`` or ``METRIC>=X`` (a rate may be written in percent: ``comeback>=50%``)."""
    from unosim.stats.verdicts import default_margin

    m = _REQ.fullmatch(text)
    if m is None:
        raise UnosimError(f"--require {text!r}: write METRIC<=VALUE or METRIC>=VALUE, e.g. "
                          "\"turns<=30\" or \"skill_edge>=0.02\"")
    name = _check_metric(m.group(1), players, "--require")
    try:
        value = float(m.group(3))
    except ValueError:
        raise UnosimError(f"--require {text!r}: {m.group(3)!r} is not a number") from None
    if m.group(4):
        if not is_rate(name, players):
            raise UnosimError(f"--require {text!r}: {name} is not a rate; drop the %")
        value /= 100
    lo, hi = domain(name, players)
    if (m.group(2) == ">=" and value > hi) or (m.group(2) == "<=" and value < lo):
        raise UnosimError(f"--require {text!r}: no rules can meet it: {name} lies within "
                          f"{lo:g}..{hi:g}")
    return Requirement(name, m.group(2), value, default_margin(name))


def domain(name: str, players: int) -> tuple[float, float]:
    """The values a metric can take: rates, shares, the seat balance and the skill edge
    lie within 1 (the skill edge from -1), counts from 0 up."""
    from unosim.reports import metrics as MX

    if name == SKILL:
        return -1.0, 1.0
    m = next(x for x in MX.round_metrics(players) if x.name == name)
    if m.rate or m.unit in ("share", "balance"):
        return 0.0, 1.0
    return 0.0, math.inf


def make_question(maximize: tuple[str, ...] | list[str], minimize: tuple[str, ...] | list[str],
                  require: tuple[str, ...] | list[str], players: int, text: str = ""
                  ) -> Question:
    """The question, each metric checked (the objectives to lower first): at least one
    objective, none twice."""
    goals = [Goal(_check_metric(m.strip(), players, "--minimize"), "minimize")
             for m in minimize]
    goals += [Goal(_check_metric(m.strip(), players, "--maximize"), "maximize")
              for m in maximize]
    if not goals:
        raise UnosimError("a design needs an objective: --maximize METRIC or --minimize "
                          "METRIC (e.g. --minimize turns --maximize comeback)")
    seen = [g.metric for g in goals]
    twice = next((m for m in seen if seen.count(m) > 1), None)
    if twice:
        raise UnosimError(f"{twice} is an objective twice; raise it or lower it, once")
    reqs = tuple(parse_requirement(r, players) for r in require)
    return Question(tuple(goals), reqs, text)


QUESTION_FIELDS = {"question": str, "source": str, "maximize": list, "minimize": list,
                   "require": list, "players": int, "base": list, "base_rules": list,
                   "keys": list, "strategy": str, "games": int, "trials": int}


def load_question(path: str) -> dict[str, Any]:
    """A question file's fields (checked for their names and types; the command reads
    them as its options)."""
    data = read_toml(path)
    for k, v in data.items():
        if k not in QUESTION_FIELDS:
            raise UnosimError(f"{path}: field {k!r}: unknown field"
                              + (did_you_mean(k, QUESTION_FIELDS)
                                 or f"; fields: {', '.join(QUESTION_FIELDS)}"))
        if not isinstance(v, QUESTION_FIELDS[k]) or isinstance(v, bool):
            raise UnosimError(f"{path}: field {k!r}: has the wrong type ({type(v).__name__})")
        if isinstance(v, list) and not all(isinstance(x, str) and x.strip() for x in v):
            raise UnosimError(f"{path}: field {k!r}: must be a list of non-empty strings")
    return data
