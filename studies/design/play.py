"""The design's play: candidates measured on fixed game indices, the multi-objective
search on Optuna, the second pass near the front and the front re-measured on fresh
deals.

Every candidate (a set of rule values on top of the base) plays game indices
0 .. g-1 of the seed, as the base does: the same deals (common random numbers, as
``compare`` pairs its variants), so two candidates differ by their rules, not by
luck. The round metrics come from the comparison study, the skill edge (only when
the question names it) from the skill study, on the same indices.

The search: Optuna's NSGA-II sampler proposes candidates (the base first), each
scored by its point estimates, the requirements as Optuna constraints. The sampler
is seeded afresh for each trial from the seed and the number of trials before it,
so a study stopped and continued proposes what an uninterrupted one would. A
candidate the rules refuse is told FAIL (``refused``), one already played is not
played again (``repeat``: the same deals give the same figures).

The first generation is the base and every single change from it (``starts``).
Each front member loses the changes that change nothing the question reads
(``simplify``: the same figures on the same deals without it), so the variants a
table is offered hold only the rules that matter.

Then the second pass (successive halving's next rung): the best third of the
distinct candidates (at most ``RUNG_KEEP``), ranked feasible first and by
non-dominated layer, play 4 g games, all in one comparison with the base; the front
of that pass (at most ``MAX_FRONT``) is the design's answer. It is re-measured with
the base on fresh game indices from ``REMEASURE_START`` (deals the search never
saw), paired with the base, because the best of many noisy candidates looks better
than it is: the report shows both.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unosim.errors import UnosimError
from unosim.runs import modes
from unosim.runs.backend import Backend
from unosim.runs.driver import drive
from unosim.runs.match import DEFAULT_MAX_ROUNDS
from unosim.runs.stopping import Stopped
from unosim.strategies.registry import SeatStrategy
from unosim.studies.compare.play import CompareStudy
from unosim.studies.design.objectives import SKILL, Question
from unosim.studies.design.plan import (
    MAX_FRONT,
    REMEASURE_START,
    RUNG_KEEP,
    SECOND,
    STUDY,
    population,
)
from unosim.studies.design.space import Space
from unosim.studies.lineups.skill import SkillStudy
from unosim.studies.lineups.skill_edge import diff_stats, skill_stats
from unosim.studies.tune.study import require_optuna

# ---------------------------------------------------------------- measuring


class _RangeCompare(CompareStudy):
    """The comparison study on game indices ``start .. start + games``."""

    def __init__(self, variants: list[Any], games: int, seed: int, start: int) -> None:
        super().__init__(variants, games, seed, modes.of("round"), DEFAULT_MAX_ROUNDS,
                         None, None, "design")
        self.start = start

    def tasks(self, step: int) -> Any:
        for key, args in super().tasks(step):
            a = list(args)
            a[3] += self.start  # play_range's first game index
            yield key, tuple(a)


class _RangeSkill(SkillStudy):
    """The skill study on deals ``start .. start + deals``."""

    def __init__(self, variants: list[Any], strategy: SeatStrategy, games: int, seed: int,
                 start: int) -> None:
        super().__init__(variants, strategy, games, seed, None, "design")
        self.start = start

    def tasks(self, step: int) -> Any:
        for key, args in super().tasks(step):
            a = list(args)
            a[2] += self.start  # skill_range's lo and hi
            a[3] += self.start
            yield key, tuple(a)


def _stat(mean: float, se: float, lo: float, hi: float, n: int) -> dict[str, Any]:
    return {"mean": mean, "se": se, "ci95": [lo, hi], "n": int(n)}


def measure(specs: list[Any], metrics: list[str], seed: int, start: int, games: int,
            strategy: SeatStrategy, backend: Backend | None) -> list[dict[str, Any]] | None:
    """Each variant's figures on game indices ``start .. start + games``: per metric its
    mean, standard error, 95% interval and sample, and after the first variant its
    paired difference from the first (``diff``); None when a stop cut the play."""
    out: list[dict[str, Any]] = [{} for _ in specs]
    plain = [m for m in metrics if m != SKILL]
    try:
        if plain:
            cmp = drive(_RangeCompare(specs, games, seed, start), backend)
            if cmp.partial:
                return None
            for vi in range(len(specs)):
                for m in plain:
                    s = cmp.stat(vi, m)
                    out[vi][m] = _stat(s["mean"], s["se"], s["ci_low"], s["ci_high"], s["n"])
                    if vi:
                        d = cmp.diff(vi, m)
                        out[vi][m]["diff"] = {"mean": d["diff"], "se": d["se"],
                                              "ci95": [d["ci_low"], d["ci_high"]]}
        if SKILL in metrics:
            res = drive(_RangeSkill(specs, strategy, games, seed, start), backend)
            if res.partial:
                return None
            for vi, t in enumerate(res.totals):
                s = skill_stats(t)
                lo, hi = s["skill_edge_ci95"]
                out[vi][SKILL] = _stat(s["skill_edge"], s["skill_edge_se"], lo, hi, t.deals)
                if vi:
                    d = diff_stats(t)
                    out[vi][SKILL]["diff"] = {"mean": d["diff"], "se": d["se"],
                                              "ci95": list(d["ci95"])}
    except Stopped:
        return None
    return out


# ---------------------------------------------------------------- the search


@dataclass
class DesignSetup:
    """What a design plays: its space and question, the games of the first pass, the
    seed, the strategy whose skill edge it reads, and the backend."""

    space: Space
    question: Question
    games: int
    seed: int
    strategy: SeatStrategy
    backend: Backend | None = None
    #: told after every trial (progress): (trials so far, trials in all, the study)
    on_trial: Callable[[int, int, Any], None] | None = None
    #: the command that reproduces the design (the recommendation quotes it)
    command_line: str = ""

    def fingerprint(self) -> dict[str, Any]:
        return {"space": self.space.fingerprint(), "question": self.question.to_dict(),
                "games": self.games, "seed": self.seed, "strategy": self.strategy.label()}


def passes(question: Question) -> int:
    """The studies a measurement plays: the comparison, the skill study, or both."""
    return int(any(m != SKILL for m in question.metrics)) + int(question.needs_skill)


def _sampler(optuna: Any, setup: DesignSetup, trials: int, n: int) -> Any:
    """The sampler of trial ``n`` (counting the trials a stop did not cut), seeded from
    the seed and n."""
    reqs = setup.question.requirements
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constraints_func: deprecated in Optuna 5
        return optuna.samplers.NSGAIISampler(
            population_size=population(trials), seed=(setup.seed * 1_000_003 + n) % 2**32,
            constraints_func=(lambda t: t.user_attrs.get("constraints", [1e9] * len(reqs)))
            if reqs else None)


def open_design(setup: DesignSetup, storage: Any) -> Any:
    """Create the study in ``storage`` (an Optuna storage or URL), or load the one a
    stopped design left there: one made with another setup is refused."""
    optuna = require_optuna()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    directions = [g.sense for g in setup.question.goals]
    try:
        study = optuna.create_study(study_name=STUDY, storage=storage, directions=directions,
                                    load_if_exists=True)
    except Exception as e:  # noqa: BLE001 - a storage that fails is one line
        raise UnosimError(f"the design's study cannot be opened ({e})") from None
    old = study.user_attrs.get("setup")
    if old is None:
        study.set_user_attr("setup", setup.fingerprint())
    elif old != _jsonable(setup.fingerprint()):
        raise UnosimError("the design's study was made with other options; start a new "
                          "one in another --out folder")
    return study


def _jsonable(x: Any) -> Any:
    import json

    return json.loads(json.dumps(x))


def distributions(space: Space) -> dict[str, Any]:
    optuna = require_optuna()
    return {k: optuna.distributions.CategoricalDistribution(list(v))
            for k, v in space.keys.items()}


def counted(study: Any) -> list[Any]:
    """The trials that count towards ``--trials``: every finished one but the one a
    stop cut (told FAIL as ``interrupted``)."""
    optuna = require_optuna()
    S = optuna.trial.TrialState
    return [t for t in study.get_trials(deepcopy=False)
            if t.state in (S.COMPLETE, S.FAIL) and "interrupted" not in t.user_attrs]


def _key(params: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, str(v)) for k, v in params.items()))


def search(setup: DesignSetup, study: Any, trials: int) -> bool:
    """Ask, play and tell trials until ``trials`` count; True if a stop cut them short.
    A stop is read by the backend between two tasks; the trial it cut is told FAIL
    with the user attribute ``interrupted``."""
    optuna = require_optuna()
    S = optuna.trial.TrialState
    q, space = setup.question, setup.space
    dists = distributions(space)
    played: dict[Any, Any] = {}
    for t in study.get_trials(deepcopy=False, states=(S.COMPLETE,)):
        played.setdefault(_key(t.params), t)
    done = len(counted(study))
    first = starts(space, trials)
    while done < trials:
        study.sampler = _sampler(optuna, setup, trials, done)
        if done < len(first):  # queued only now: a trial a stop cut is asked again
            study.enqueue_trial(first[done])
        trial = study.ask(dists)
        values = {k: str(trial.params[k]) for k in space.keys}
        try:
            spec = space.spec(f"trial {trial.number}", values)
        except UnosimError as e:
            trial.set_user_attr("refused", str(e))
            study.tell(trial, state=S.FAIL)
            done += 1
            _tell(setup, done, trials, study)
            continue
        earlier = played.get(_key(values))
        if earlier is not None:
            figures = earlier.user_attrs["figures"]
            trial.set_user_attr("repeat", earlier.number)
        else:
            got = measure([spec], q.metrics, setup.seed, 0, setup.games, setup.strategy,
                          setup.backend)
            if got is None:
                trial.set_user_attr("interrupted", True)
                study.tell(trial, state=S.FAIL)
                return True
            figures = {m: [f["mean"], f["se"]] for m, f in got[0].items()}
        trial.set_user_attr("figures", figures)
        trial.set_user_attr("changes", space.changes(values))
        point = [figures[g.metric][0] for g in q.goals]
        if q.requirements:
            trial.set_user_attr("constraints", [r.violation(figures[r.metric][0])
                                                for r in q.requirements])
        if not all(math.isfinite(x) for x in point):
            trial.set_user_attr("undefined", True)  # no round with a winner, say
            study.tell(trial, state=S.FAIL)
        else:
            study.tell(trial, point)
            if earlier is None:
                played[_key(values)] = study.trials[trial.number]
        done += 1
        _tell(setup, done, trials, study)
    return False


def starts(space: Space, trials: int) -> list[dict[str, str]]:
    """The first trials: the base (the front is read against it), then each value of
    each key changed alone (as many as the trials allow, in key order). The sampler's
    first generation holds them, so its offspring combine the changes that each help
    alone, the few-change answers a table can adopt, instead of random sets of
    changes to half the keys."""
    base = {k: v[0] for k, v in space.keys.items()}
    out = [base]
    for k, values in space.keys.items():
        out += [{**base, k: v} for v in values[1:]]
    return out[:max(1, trials)]


def _tell(setup: DesignSetup, done: int, trials: int, study: Any) -> None:
    if setup.on_trial is not None:
        setup.on_trial(done, trials, study)


# ---------------------------------------------------------------- fronts


def dominates(a: list[float], b: list[float]) -> bool:
    """``a`` is at least as good as ``b`` everywhere and better somewhere (both as
    values to lower)."""
    return all(x <= y for x, y in zip(a, b, strict=True)) and any(
        x < y for x, y in zip(a, b, strict=True))


def layers(points: list[list[float]], violations: list[float],
           sizes: list[int] | None = None) -> list[int]:
    """Each point's non-dominated layer (0: the front), the feasible ones (violation
    0) before the others, which rank by their violation (Deb's constrained
    domination); of two points with the same figures, the one with fewer changes
    (``sizes``) dominates: a rule that changes nothing at this table (the same
    records, so the same figures) never stands beside the base."""
    n = len(points)
    sizes = sizes if sizes is not None else [0] * n
    rank = [-1] * n
    left = set(range(n))
    level = 0
    while left:
        def beats(i: int, j: int) -> bool:
            vi, vj = violations[i], violations[j]
            if vi == 0 and vj > 0:
                return True
            if vi > 0 or vj > 0:
                return vi < vj
            return dominates(points[i], points[j]) or (points[i] == points[j]
                                                       and sizes[i] < sizes[j])
        now = [i for i in left if not any(beats(j, i) for j in left if j != i)]
        for i in now:
            rank[i] = level
        left -= set(now)
        level += 1
    return rank


def as_lower(question: Question, figures: dict[str, Any]) -> list[float]:
    """The objectives of a candidate's figures, each as a value to lower."""
    return [(-1 if g.sense == "maximize" else 1) * figures[g.metric]["mean"]
            for g in question.goals]


def violation(question: Question, figures: dict[str, Any]) -> float:
    """How far a candidate's point estimates miss the requirements, in all (0: none)."""
    return sum(max(0.0, r.violation(figures[r.metric]["mean"])) for r in question.requirements)


def spread(ids: list[int], points: list[list[float]], most: int) -> list[int]:
    """At most ``most`` of ``ids``, spread over the first objective (its ends kept)."""
    ids = sorted(ids, key=lambda i: (points[i], i))
    if len(ids) <= most:
        return ids
    step = (len(ids) - 1) / (most - 1)
    return [ids[round(k * step)] for k in range(most)]


# ---------------------------------------------------------------- the whole design


@dataclass
class Candidate:
    """One distinct candidate: its trial, rule values, changes from the base and its
    figures at each pass (``search``: the first, ``second``, ``remeasured``)."""

    trial: int
    values: dict[str, str]
    changes: dict[str, str]
    search: dict[str, Any]
    second: dict[str, Any] = field(default_factory=dict)
    remeasured: dict[str, Any] = field(default_factory=dict)


@dataclass
class DesignResult:
    setup: DesignSetup
    trials: int
    counts: dict[str, int]
    refused: dict[str, int]
    history: list[dict[str, Any]]
    base: dict[str, dict[str, Any]]
    second: list[Candidate]
    front: list[Candidate]
    interrupted: bool
    elapsed_s: float = 0.0
    games_played: int = 0


def _counts(study: Any) -> tuple[dict[str, int], dict[str, int], list[dict[str, Any]]]:
    """The trials by kind, the refusals by reason and every played trial's figures."""
    optuna = require_optuna()
    S = optuna.trial.TrialState
    c = {"trials": 0, "played": 0, "repeat": 0, "refused": 0, "undefined": 0,
         "interrupted": 0}
    refused: dict[str, int] = {}
    hist = []
    for t in study.get_trials(deepcopy=False):
        if "interrupted" in t.user_attrs:
            c["interrupted"] += 1
            continue
        if not t.state.is_finished():
            continue
        c["trials"] += 1
        if "refused" in t.user_attrs:
            c["refused"] += 1
            why = t.user_attrs["refused"]
            refused[why] = refused.get(why, 0) + 1
        elif "undefined" in t.user_attrs:
            c["undefined"] += 1
        elif t.state == S.COMPLETE:
            c["repeat" if "repeat" in t.user_attrs else "played"] += 1
            hist.append({"trial": t.number, "changes": t.user_attrs["changes"],
                         "figures": t.user_attrs["figures"]})
    return c, refused, hist


def run_design(setup: DesignSetup, storage: Any, trials: int) -> tuple[Any, DesignResult]:
    """Add trials until ``trials`` count, then the second pass and the re-measurement;
    a stop keeps the trials (in ``storage``) and returns what was played."""
    t0 = time.perf_counter()
    study = open_design(setup, storage)
    interrupted = search(setup, study, trials)
    counts, refused, hist = _counts(study)
    result = DesignResult(setup, trials, counts, refused, hist, {}, [], [], interrupted)
    result.games_played = counts["played"] * setup.games * passes(setup.question)
    if not interrupted:
        finish(setup, study, result)
    result.elapsed_s = time.perf_counter() - t0
    return study, result


def finish(setup: DesignSetup, study: Any, result: DesignResult) -> None:
    """The second pass and the re-measured front (``result.interrupted`` after a stop)."""
    optuna = require_optuna()
    q, space = setup.question, setup.space
    S = optuna.trial.TrialState
    firsts: dict[Any, Candidate] = {}
    for t in study.get_trials(deepcopy=False, states=(S.COMPLETE,)):
        if "repeat" in t.user_attrs:
            continue
        values = {k: str(t.params[k]) for k in space.keys}
        figs = {m: {"mean": v[0], "se": v[1]} for m, v in t.user_attrs["figures"].items()}
        firsts.setdefault(_key(values), Candidate(t.number, values, space.changes(values),
                                                  figs))
    cands = list(firsts.values())
    if not cands:
        return
    ranks = layers([as_lower(q, c.search) for c in cands],
                   [violation(q, c.search) for c in cands], [len(c.changes) for c in cands])
    keep = max(min(len(cands), MAX_FRONT), min(RUNG_KEEP, -(-len(cands) // 3)))
    order = sorted(range(len(cands)), key=lambda i: (ranks[i], cands[i].trial))[:keep]
    second = [cands[i] for i in order]
    games2 = SECOND * setup.games
    specs = [space.base_spec(), *(space.spec(f"trial {c.trial}", c.values) for c in second)]
    got = measure(specs, q.metrics, setup.seed, 0, games2, setup.strategy, setup.backend)
    if got is None:
        result.interrupted = True
        return
    result.games_played += games2 * len(specs) * passes(q)
    result.base = {"second": got[0]}
    for c, figs in zip(second, got[1:], strict=True):
        c.second = figs
    result.second = second
    points = [as_lower(q, c.second) for c in second]
    ranks = layers(points, [violation(q, c.second) for c in second],
                   [len(c.changes) for c in second])
    best = min(ranks)
    front = [second[i] for i in spread([i for i, r in enumerate(ranks) if r == best],
                                       points, MAX_FRONT)]
    front = simplify(setup, front, result)
    if front is None:
        result.interrupted = True
        return
    specs = [space.base_spec(), *(space.spec(f"trial {c.trial}", c.values) for c in front)]
    got = measure(specs, q.metrics, setup.seed, REMEASURE_START, games2, setup.strategy,
                  setup.backend)
    if got is None:
        result.interrupted = True
        return
    result.games_played += games2 * len(specs) * passes(q)
    result.base["remeasured"] = got[0]
    for c, figs in zip(front, got[1:], strict=True):
        c.remeasured = figs
    result.front = front


def simplify(setup: DesignSetup, front: list[Candidate], result: DesignResult
             ) -> list[Candidate] | None:
    """Each front member without the changes that change nothing the question reads
    (a rule a random table never meets, or one another change makes moot): a change
    is dropped when the member without it gives the very same second-pass figures on
    the same deals, tried one change at a time; members that become the same are
    kept once. None when a stop cut the play."""
    q, space = setup.question, setup.space
    games2 = SECOND * setup.games
    out: list[Candidate] = []
    for c in front:
        for k in list(c.changes):
            values = {**c.values, k: space.keys[k][0]}
            try:
                spec = space.spec("simpler", values)
            except UnosimError:
                continue
            got = measure([spec], q.metrics, setup.seed, 0, games2, setup.strategy,
                          setup.backend)
            if got is None:
                return None
            result.games_played += games2 * passes(q)
            if all((got[0][m]["mean"], got[0][m]["se"]) == (c.second[m]["mean"],
                                                            c.second[m]["se"])
                   for m in q.metrics):
                c.values, c.changes = values, space.changes(values)
        if all(o.values != c.values for o in out):
            out.append(c)
    return out


def front_line(setup: DesignSetup, study: Any, done: int, trials: int) -> str:
    """The progress line of the front so far: its size on the first pass's figures and
    each objective's range over it."""
    from unosim.studies.design.report import show

    optuna = require_optuna()
    q = setup.question
    ts = [t for t in study.get_trials(deepcopy=False,
                                      states=(optuna.trial.TrialState.COMPLETE,))
          if "repeat" not in t.user_attrs]
    if not ts:
        return f"trial {done}/{trials}: no candidate played yet"
    figs = [{m: {"mean": v[0]} for m, v in t.user_attrs["figures"].items()} for t in ts]
    ranks = layers([as_lower(q, f) for f in figs], [violation(q, f) for f in figs],
                   [len(t.user_attrs["changes"]) for t in ts])
    front = [f for f, r in zip(figs, ranks, strict=True) if r == min(ranks)]
    p = setup.space.players
    spans = []
    for g in q.goals:
        xs = [f[g.metric]["mean"] for f in front]
        spans.append(f"{g.metric} {show(g.metric, min(xs), p)}..{show(g.metric, max(xs), p)}")
    return (f"trial {done}/{trials}: front so far {len(front)} variant"
            f"{'s' * (len(front) != 1)} (first pass), " + ", ".join(spans))


def play_design(setup: DesignSetup, storage: Any, trials: int) -> Any:
    """The design's report (partial after a stop: the trials so far)."""
    from unosim.studies.design.report import DesignReport

    study, result = run_design(setup, storage, trials)
    return DesignReport(result, study)


def design_storage(folder: Any, fresh: bool) -> Any:
    """Where the study lives: ``folder/design.db`` (SQLite; ``fresh``: an earlier
    design's file there is replaced, else continued), or memory without a folder."""
    optuna = require_optuna()
    if folder is None:
        return optuna.storages.InMemoryStorage()
    db = folder / "design.db"
    if fresh and db.exists():
        db.unlink()  # a finished design of an earlier run: this one starts afresh
    return f"sqlite:///{db}"
