"""Every study from Python, as result objects for notebooks.

>>> from unosim import api
>>> r = api.compare(["official", "stacking"], games=100_000, seed=1)
>>> r                       # in a notebook: a table of every figure with its interval
>>> r.to_frame()            # tidy: one row per variant, metric and statistic
>>> r.plot()                # the command's chart, a matplotlib Figure
>>> print(r.summary())      # the command's text report
>>> r.to_json()             # the command's --format json output

One function per command, named as the command (``simulate`` is ``unosim run``),
taking the command's options as keyword arguments: ``--target-score`` is
``target_score=``. ``variant`` is a preset name, ``"a+b"`` or a list; ``rule`` is
``{"stacking": "progressive"}`` (or ``["stacking=progressive"]``); ``seat`` is
``{1: "defensive"}`` (or ``["1=defensive"]``); ``games`` a number or text such as
``"1e6"``. Bad input raises :class:`~unosim.errors.UnosimError` with the command's
one-line message. The seed defaults to 0 (the commands draw one); ``None`` draws
one, which the result shows.

Ctrl-C (a notebook's "interrupt") stops a study between batches, as it stops the
command: the function returns the partial result (``.partial`` is True, and a
warning says so) with the same games in every variant, lineup or point. A second
Ctrl-C, or one before any batch finished, raises :class:`Interrupted` (nothing to
keep).
"""

from __future__ import annotations

import math
import numbers
import os
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from unosim.errors import UnosimError, is_whole
from unosim.runs import inputs, modes
from unosim.runs.variants import build_variants, split_variant, variant_label
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules
from unosim.studies.compare.files import write_compare_outputs, write_report_files
from unosim.studies.compare.play import run_compare
from unosim.studies.compare.report import CompareReport
from unosim.studies.compare.result import Comparison
from unosim.studies.design.files import write_design_files
from unosim.studies.design.plan import DesignPlan, plan_design
from unosim.studies.design.report import DesignReport
from unosim.studies.grids.dimensions import parse_values, sweep_dims
from unosim.studies.grids.files import write_atlas_files, write_sweep_files
from unosim.studies.grids.play import plan_atlas, plan_sweep, play_atlas, play_sweep
from unosim.studies.grids.report import AtlasReport, SweepReport
from unosim.studies.ladder.play import entrants as ladder_entrants
from unosim.studies.ladder.play import plan as ladder_plan
from unosim.studies.ladder.play import play_ladder
from unosim.studies.ladder.report import LadderReport, write_ladder_files
from unosim.studies.lineups.play import (
    check_request,
    play_skill,
    play_tournament,
    skill_games,
    tournament_games,
)
from unosim.studies.lineups.report import SkillReport, TournamentReport
from unosim.studies.lineups.skill import players_of
from unosim.studies.replay.files import OtherVersionWarning, check_file, replay_file
from unosim.studies.replay.play import play as play_replay
from unosim.studies.replay.report import ReplayReport
from unosim.studies.run.play import run as play_run
from unosim.studies.run.report import run_report
from unosim.studies.run.result import SimulateReport
from unosim.studies.settle.claims import catalogue
from unosim.studies.settle.error_rate import REPLICATIONS as ERROR_RATE_REPLICATIONS
from unosim.studies.settle.error_rate import SEEDS as ERROR_RATE_SEEDS
from unosim.studies.settle.error_rate import known_claims
from unosim.studies.settle.error_rate import measure as measure_error_rate
from unosim.studies.settle.files import write_error_rates, write_verdicts
from unosim.studies.settle.play import ALPHA as SETTLE_ALPHA
from unosim.studies.settle.play import ask as ask_claims
from unosim.studies.settle.play import error_share, parse_alpha
from unosim.studies.settle.play import play as play_settle
from unosim.studies.settle.report import SettleReport
from unosim.studies.settle.stages import planned_units
from unosim.studies.settle.verdicts import render_catalogue, verdict_line
from unosim.studies.tune.files import write_files as write_tune_files
from unosim.studies.tune.play import default_study_name, play_tune, tune_target
from unosim.studies.tune.report import TuneReport
from unosim.studies.tune.storage import sqlite_file, storage_failure

Words = str | Iterable[str] | None
Assignments = Mapping[Any, Any] | Iterable[str] | str | None

__all__ = ["Interrupted", "OtherVersionWarning", "atlas", "compare", "comparison", "replay",
           "rules_for", "settle", "simulate", "skill", "sweep", "tournament", "tune"]
__all__ += ["ladder"]
__all__ += ["design"]

# The commands' door: the commands parse their text and reach the studies through
# these names only (the architecture test holds it). They are each study's typed
# plan, play, report and files, as its room defines them: a play takes the open
# backend, the checkpoint keeper, the progress callback and the records hook, returns
# a partial result as it is and lets a stop before any batch out as ``Stopped``. The
# notebook functions above call the same plays, and add what a notebook needs: no
# files, a warning on a partial result, :class:`Interrupted` for a stop with nothing
# to keep.
__all__ += [
    # run
    "play_run", "run_report", "write_report_files",
    # compare
    "run_compare", "CompareReport", "write_compare_outputs",
    # the grids: sweep and atlas
    "sweep_dims", "plan_sweep", "play_sweep", "write_sweep_files",
    "parse_values", "plan_atlas", "play_atlas", "write_atlas_files",
    # the lineups: tournament and skill
    "tournament_games", "play_tournament",
    "check_request", "players_of", "skill_games", "play_skill",
    # the ladder
    "ladder_entrants", "ladder_plan", "play_ladder", "write_ladder_files",
    # design
    "plan_design", "play_design_plan", "write_design_files", "DesignReport",
    # tune
    "tune_target", "default_study_name", "play_tune", "write_tune_files", "sqlite_file",
    "storage_failure",
    # settle, and its error rate
    "catalogue", "render_catalogue", "ask_claims", "error_share", "parse_alpha",
    "SETTLE_ALPHA", "planned_units", "play_settle", "verdict_line", "write_verdicts",
    "known_claims", "ERROR_RATE_SEEDS", "ERROR_RATE_REPLICATIONS", "measure_error_rate",
    "write_error_rates",
    # replay
    "check_file", "play_replay", "replay_file",
]


# ---------------------------------------------------------------- the options


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, list | tuple | range):
        return ",".join(_text(x) for x in v)
    return str(v)


def _assign(items: Assignments) -> tuple[str, ...]:
    """``{"k": v}``, ``["k=v"]`` or ``"k=v"`` as the command's repeated ``K=V``."""
    if items is None:
        return ()
    if isinstance(items, str):
        return (items,)
    if isinstance(items, Mapping):
        return tuple(f"{k}={_text(v)}" for k, v in items.items())
    return tuple(str(x) for x in items)


def _variant(variant: Words) -> tuple[str, ...]:
    """``"stacking+no-bluff"`` or ``["stacking", "no-bluff"]``: the presets in order."""
    if variant is None:
        return ()
    if isinstance(variant, str):
        return tuple(split_variant(variant))
    return tuple(variant)


def _names(names: Words) -> tuple[str, ...]:
    if names is None:
        return ()
    return (names,) if isinstance(names, str) else tuple(names)


# ---------------------------------------------------------------- argument checks
# Every function checks its arguments first, by name, so a wrong type is one
# UnosimError naming the argument, not a TypeError from deep inside the study.


def _int(lo: int | None = None, hi: int | None = None, none: bool = True
         ) -> Callable[[str, Any], None]:
    def check(name: str, v: Any) -> None:
        if v is None and none:
            return
        span = ("" if lo is None else f" within {lo}..{hi}" if hi is not None
                else f" of {lo} or more")
        if not is_whole(v) or (lo is not None and v < lo) or (hi is not None and v > hi):
            raise UnosimError(f"{name} must be a whole number{span}"
                              f"{' or None' if none else ''}, got {v!r}")
    return check


def _str(none: bool = False) -> Callable[[str, Any], None]:
    def check(name: str, v: Any) -> None:
        if v is None and none:
            return
        if not isinstance(v, str):
            raise UnosimError(f"{name} must be a string{' or None' if none else ''}, "
                              f"got {v!r}")
    return check


def _choice(*choices: str) -> Callable[[str, Any], None]:
    def check(name: str, v: Any) -> None:
        if not isinstance(v, str) or v not in choices:
            raise UnosimError(f"{name} must be one of {', '.join(choices)}, got {v!r}")
    return check


def _flag(name: str, v: Any) -> None:
    if not isinstance(v, bool | np.bool_):
        raise UnosimError(f"{name} must be True or False, got {v!r}")


def _words(name: str, v: Any) -> None:
    """A name, or a list of names (None: none)."""
    if v is None or isinstance(v, str):
        return
    if isinstance(v, Iterable) and not isinstance(v, bytes | Mapping):
        bad = [x for x in v if not isinstance(x, str)]
        if not bad:
            return
        raise UnosimError(f"{name} must be a name or a list of names, got {bad[0]!r} in it")
    raise UnosimError(f"{name} must be a name or a list of names, got {v!r}")


def _assignments(name: str, v: Any) -> None:
    """``{"k": v}``, ``["k=v"]`` or ``"k=v"`` (None: none)."""
    if v is None or isinstance(v, str):
        return
    if isinstance(v, Mapping):
        for k, x in v.items():
            if not isinstance(k, str) and not is_whole(k):
                raise UnosimError(f"{name} keys must be names or seat numbers, got {k!r}")
            if not isinstance(x, str | numbers.Number | bool | list | tuple | range):
                raise UnosimError(f"{name}[{k!r}] must be a value such as 5 or 'true', "
                                  f"got {x!r}")
        return
    if isinstance(v, Iterable) and not isinstance(v, bytes):
        bad = [x for x in v if not isinstance(x, str)]
        if not bad:
            return
        raise UnosimError(f"{name} must be a dict or a list of 'KEY=VALUE' strings, got "
                          f"{bad[0]!r} in it")
    raise UnosimError(f"{name} must be a dict or a list of 'KEY=VALUE' strings, got {v!r}")


def _count(name: str, v: Any) -> None:
    """Games: a whole number, or text such as ``"1e6"``."""
    if isinstance(v, str) or is_whole(v):
        return
    if isinstance(v, float) and math.isfinite(v) and v == int(v):
        return
    raise UnosimError(f"{name} must be a whole number or text such as '1e6', got {v!r}")


def _number(name: str, v: Any) -> None:
    if v is None or isinstance(v, str) or (
            isinstance(v, numbers.Real) and not isinstance(v, bool | np.bool_)):
        return
    raise UnosimError(f"{name} must be a number, got {v!r}")


def _counts(name: str, v: Any) -> None:
    """Player counts: ``"2..6"``, ``"2,4"``, a count or a list of counts."""
    if v is None or isinstance(v, str) or is_whole(v):
        return
    if isinstance(v, Iterable) and not isinstance(v, bytes | Mapping):
        bad = [x for x in v if not is_whole(x)]
        if not bad:
            return
        raise UnosimError(f"{name} must be player counts such as '2..6' or [2, 4], got "
                          f"{bad[0]!r} in it")
    raise UnosimError(f"{name} must be player counts such as '2..6' or [2, 4], got {v!r}")


#: the check of every argument, by name (a function's own checks may follow)
_CHECKS: dict[str, Callable[[str, Any], None]] = {
    "variant": _words, "variants": _words, "claims": _words, "strategies": _words,
    "strategy_file": _words, "rule": _assignments, "seat": _assignments,
    "param": _assignments, "games": _count, "games_per_trial": _count,
    "players": _int(2, 10), "seed": _int(0), "workers": _int(1), "game": _int(0, none=False),
    "target_score": _int(1, inputs.MAX_TARGET), "max_rounds": _int(1, 1_000_000),
    "trials": _int(0, 1_000_000, none=False), "strategy": _str(), "field": _str(none=True),
    "scheduler": _str(none=True), "storage": _str(), "study": _str(none=True),
    "against": _str(),
    "mode": _choice("round", "match"), "backend": _choice("local", "dask"),
    "seating": _choice("rotations", "permutations"), "sampler": _choice("tpe", "cmaes"),
    "keep_games": _flag, "progress": _flag, "all": _flag, "alpha": _number,
}


def _check(args: dict[str, Any], **own: Callable[[str, Any], None]) -> None:
    """Check the arguments a function was given (``own``: checks that differ)."""
    for name, value in args.items():
        check = own.get(name) or _CHECKS.get(name)
        if check is not None:
            check(name, value)


def _prepare(seed: int | None, strategy_file: Words, legacy: dict[str, Any] | None = None
             ) -> int:
    """Load the strategy files, refuse unknown keywords, and fix the seed."""
    if legacy:
        raise TypeError(f"unexpected keyword argument {next(iter(legacy))!r}")
    files = _names(strategy_file)
    if files:
        from unosim.strategies.plugins import load_plugins

        load_plugins(files)
    return inputs.pick_seed(seed)


class Interrupted(UnosimError):
    """A study stopped (Ctrl-C or SIGTERM) before any batch finished: nothing to keep.
    Not a ``KeyboardInterrupt``: only the signal handler raises that, so a stop never
    travels through the run layer as one."""


def _play(job: Callable[[], Any]) -> Any:
    """Run a study, its Ctrl-C kept as the commands keep it (see the module's text)."""
    from unosim.interrupt import StopNow
    from unosim.runs.stopping import Stopped

    try:
        report = job()
    except (Stopped, StopNow):
        raise Interrupted("stopped before a batch finished: nothing to keep") from None
    if getattr(report, "partial", False):
        what = f" ({report.title()})" if hasattr(report, "title") else ""
        warnings.warn(f"interrupted: a partial result, what finished before the stop{what}",
                      stacklevel=3)
    return report


def _legacy(rule: Assignments, seat: Assignments, kwargs: dict[str, Any]
            ) -> tuple[Assignments, Assignments]:
    """The earlier spellings ``rules=`` and ``seats=`` (simulate, compare)."""
    if "rules" in kwargs:
        rule = kwargs.pop("rules") if rule is None else rule
    if "seats" in kwargs:
        seat = kwargs.pop("seats") if seat is None else seat
    return rule, seat


def rules_for(variant: Words = "official", rule: Assignments = None,
              players: int | None = None) -> Rules:
    """The resolved rule set of a variant with overrides (as ``unosim rules`` shows it)."""
    _check(locals())
    return inputs.resolve_rules(_variant(variant), _assign(rule), players)


# ---------------------------------------------------------------- run and compare


def simulate(variant: Words = "official", games: int | str = 10_000, *,
             players: int | None = None, rule: Assignments = None, strategy: str = "random",
             seat: Assignments = None, seed: int | None = 0, workers: int | None = None,
             mode: str = "round", target_score: int | None = None,
             max_rounds: int | None = None, keep_games: bool = True,
             strategy_file: Words = None, progress: bool = False,
             **kwargs: Any) -> SimulateReport:
    """``unosim run``: rounds (or matches, ``mode="match"``) under one variant.
    ``.games`` holds one row per game (columns ``game`` and the record's fields, for
    the seats at the table) unless ``keep_games=False``: rows are kept in memory, so
    for very many games use the command's ``--save-games`` instead."""
    _check(locals())
    rule, seat = _legacy(rule, seat, kwargs)
    _check({"rule": rule, "seat": seat})
    seed = _prepare(seed, strategy_file, kwargs)
    variants = _variant(variant)
    count = inputs.parse_games(str(games))
    rules = inputs.resolve_rules(variants, (*_assign(rule), *inputs.target_override(target_score,
                                                                               mode)), players)
    inputs.check_mode_options(mode, max_rounds)
    seats = inputs.seats_for(rules["players"], strategy, _assign(seat))
    name = variant_label(variants)
    return _play(lambda: _simulate(name, rules, seats, count, seed, workers, mode, max_rounds,
                                   keep_games, progress))


def _simulate(name: str, rules: Rules, seats: list[Any], games: int, seed: int,
              workers: int | None, mode: str, max_rounds: int | None, keep: bool,
              progress: bool) -> SimulateReport:
    from unosim.progress import with_progress

    chunks: list[np.ndarray] = []

    def kept(first: int, rec: np.ndarray) -> None:
        chunks.append(rec.copy())

    cmp = with_progress(progress, games, lambda cb: play_run(
        rules, seats, games, seed, workers, on_batch=cb, on_records=kept if keep else None,
        mode=mode, max_rounds=max_rounds, per_game=True, name=name),
        unit=modes.of(mode).unit)
    summary, text = run_report(cmp.results[0], name, mode, "local")
    return SimulateReport(summary, text, cmp,
                          _game_rows(chunks, mode, rules["players"], summary) if keep else None)


def _game_rows(chunks: list[np.ndarray], mode: str, n: int, summary: dict[str, Any]
               ) -> pd.DataFrame:
    rec = np.concatenate(chunks) if chunks else np.zeros((0, 1), np.int32)
    fields = modes.of(mode).fields
    df = pd.DataFrame(rec[:, : len(fields)], columns=list(fields))
    for c in fields:
        if c in L.FIXED_POINT_FIELDS:  # game-feel fractions, recorded in fixed point
            df[c] = df[c] / L.FEEL_SCALE
    # only the seat columns the table has (a match's histogram bins end in digits too)
    df = df.iloc[:, list(modes.of(mode).columns_at(n))]
    df.insert(0, "game", np.arange(len(df), dtype=np.int64))
    df.attrs["summary"] = summary
    return df


def comparison(variants: Words = ("official", "stacking"), games: int | str = 100_000, *,
               players: int | None = None, rule: Assignments = None, strategy: str = "random",
               seat: Assignments = None, seed: int | None = 0, workers: int | None = None,
               mode: str = "round", target_score: int | None = None,
               max_rounds: int | None = None, backend: str = "local",
               scheduler: str | None = None, strategy_file: Words = None,
               progress: bool = False, **kwargs: Any) -> Comparison:
    """The full :class:`~unosim.studies.compare.result.Comparison` behind :func:`compare`."""
    _check(locals())
    rule, seat = _legacy(rule, seat, kwargs)
    _check({"rule": rule, "seat": seat})
    seed = _prepare(seed, strategy_file, kwargs)
    count = inputs.parse_games(str(games))
    extra = (*_assign(rule), *inputs.target_override(target_score, mode))
    inputs.check_mode_options(mode, max_rounds)
    specs = build_variants(_names(variants),
                           lambda presets: inputs.resolve_rules(presets, extra, players),
                           lambda n: inputs.seats_for(n, strategy, _assign(seat)))
    if len(specs) < 2:
        raise UnosimError("compare needs at least two variants, e.g. "
                          "api.compare(['official', 'stacking'])")
    from unosim.progress import on_backend

    return _play(lambda: on_backend(
        backend, workers, scheduler, progress, count * len(specs),
        lambda cb, where: run_compare(specs, count, seed, workers, mode, max_rounds,
                                      on_batch=cb, backend=where),
        unit=modes.of(mode).unit))


def compare(variants: Words = ("official", "stacking"), games: int | str = 100_000,
            **options: Any) -> CompareReport:
    """``unosim compare``: variants on the same deals (the first is the baseline), paired
    differences with 95% intervals and verdicts. Options as :func:`comparison`;
    ``.table()`` is the wide table of ``summary.csv``."""
    return CompareReport(comparison(variants, games, **options))


# ---------------------------------------------------------------- the other studies


def _no_files() -> dict[str, Any]:
    """What a study from Python passes for ``--out`` and ``--resume``: nothing kept."""
    return {"out": None, "saved": {}, "stages": None}


def settle(claims: Words = (), *, all: bool = False, games: int | str | None = None,
           players: int | None = None, alpha: float | str | None = None,
           seed: int | None = 0, workers: int | None = None, backend: str = "local",
           scheduler: str | None = None, strategy_file: Words = None,
           progress: bool = False) -> SettleReport:
    """``unosim settle``: claims of the catalogue by name, claim files (``.toml``), or
    ``all=True`` for the whole catalogue; each gets its verdict. ``.verdicts`` holds
    them, ``.plot(NAME)`` a claim's card."""
    _check(locals())
    from unosim.progress import with_progress

    seed = _prepare(seed, strategy_file)
    asked = ask_claims(_names(claims), all,
                       None if games is None else inputs.parse_games(str(games)), players)
    share = None if alpha is None else error_share(alpha)
    inputs.check_backend(backend, workers, scheduler)

    def job() -> SettleReport:
        where = inputs.open_backend(backend, workers, scheduler)
        try:
            return play_settle(asked, seed, where, alpha=share,
                               progress=lambda total, run: with_progress(progress, total, run))
        finally:
            where.close()
    return _play(job)


def tournament(strategies: Words, *, field: str | None = None, players: int | None = None,
               games: int | str = 100_000, variant: Words = None, rule: Assignments = None,
               seating: str = "rotations", seed: int | None = 0, workers: int | None = None,
               backend: str = "local", scheduler: str | None = None,
               strategy_file: Words = None, progress: bool = False) -> TournamentReport:
    """``unosim tournament``: strategies head to head, every seat played equally often
    (``field=``: each against that strategy in every other seat)."""
    _check(locals())
    seed = _prepare(seed, strategy_file)
    if seating not in ("rotations", "permutations"):
        raise UnosimError(f"seating must be rotations or permutations, got {seating!r}")
    names = _names(strategies)
    if not names:
        raise UnosimError("tournament needs at least one strategy")
    return _play(lambda: _tournament(names, field, players, games, _variant(variant),
                                     _assign(rule), seating, seed, workers, backend,
                                     scheduler, progress))


def _tournament(names: tuple[str, ...], field: str | None, players: int | None,
                games: int | str, variant: tuple[str, ...], rule: tuple[str, ...],
                seating: str, seed: int, workers: int | None, backend: str,
                scheduler: str | None, progress: bool) -> TournamentReport:
    from unosim.progress import on_backend
    from unosim.strategies.registry import parse_strategy

    count = inputs.parse_games(games)
    rules = inputs.resolve_rules(variant, rule, players)
    strats = [parse_strategy(x) for x in names]
    against = inputs.parse_field(field) if field is not None else None
    inputs.check_scheduler(scheduler, backend)
    total = tournament_games(len(strats), rules, seating, count, against is not None)
    name = variant_label(variant)
    return on_backend(
        backend, workers, scheduler, progress, total,
        lambda cb, where: play_tournament(rules, strats, count, seed, seating=seating,
                                          field=against, variant=name, backend=where,
                                          workers=workers, on_batch=cb))


def skill(variants: Words, *, strategy: str, field: str | None = None,
          players: int | None = None, games: int | str = 100_000, rule: Assignments = None,
          seed: int | None = 0, workers: int | None = None, backend: str = "local",
          scheduler: str | None = None, strategy_file: Words = None,
          progress: bool = False) -> SkillReport:
    """``unosim skill``: the skill edge of ``strategy`` against ``field`` (random by
    default) under each variant, paired differences from the first."""
    _check(locals())
    seed = _prepare(seed, strategy_file)
    return _play(lambda: _skill(_names(variants), strategy, field, players, games,
                                _assign(rule), seed, workers, backend, scheduler, progress))


def _skill(names: tuple[str, ...], strategy: str, field: str | None, players: int | None,
           games: int | str, rule: tuple[str, ...], seed: int, workers: int | None,
           backend: str, scheduler: str | None, progress: bool) -> SkillReport:
    from unosim.progress import on_backend
    from unosim.strategies.registry import parse_strategy

    check_request(names, strategy)
    count = inputs.parse_games(games)
    strat = parse_strategy(strategy)
    against = inputs.parse_field(field if field is not None else "random")
    specs = build_variants(names, lambda presets: inputs.resolve_rules(presets, rule, players),
                           lambda n: [])
    inputs.check_skill_games(count, players_of(specs))
    inputs.check_backend(backend, workers, scheduler)
    return on_backend(
        backend, workers, scheduler, progress, skill_games(specs, count),
        lambda cb, where: play_skill(specs, strat, count, seed, field=against, backend=where,
                                     workers=workers, on_batch=cb))


def ladder(strategies: Words = None, *, players: int = 2, field: str | None = None,
           games: int | str = 100_000, variant: Words = None, rule: Assignments = None,
           seed: int | None = 0, workers: int | None = None, backend: str = "local",
           scheduler: str | None = None, strategy_file: Words = None,
           progress: bool = False) -> LadderReport:
    """``unosim ladder``: the strategies (default: every built-in, then every plug-in
    loaded) rated on one scale with 95% intervals: heads-up a Bradley-Terry fit of
    every pair on the same deals, at more players each against ``field`` (random by
    default); ``games`` in all."""
    _check(locals())
    seed = _prepare(seed, strategy_file)
    return _play(lambda: _ladder(_names(strategies), players, field, games,
                                 _variant(variant), _assign(rule), seed, workers, backend,
                                 scheduler, progress))


def _ladder(names: tuple[str, ...], players: int, field: str | None, games: int | str,
            variant: tuple[str, ...], rule: tuple[str, ...], seed: int,
            workers: int | None, backend: str, scheduler: str | None,
            progress: bool) -> LadderReport:
    from unosim.progress import on_backend

    count = inputs.parse_games(str(games))
    rules = inputs.resolve_rules(variant, rule, players)
    against = inputs.parse_field(field) if field is not None else None
    strats, against = ladder_entrants(names, int(rules["players"]), against)
    total = ladder_plan(rules, strats, count, against)[2]
    inputs.check_backend(backend, workers, scheduler)
    return on_backend(
        backend, workers, scheduler, progress, total,
        lambda cb, where: play_ladder(rules, strats, count, seed, field=against,
                                      variant=variant_label(variant), backend=where,
                                      workers=workers, on_batch=cb))


def sweep(*, variant: Words = None, rule: Assignments = None,
          players: int | str | Iterable[int] | None = None, strategy: str = "random",
          seat: Assignments = None, games: int | str = 100_000, seed: int | None = 0,
          workers: int | None = None, backend: str = "local", scheduler: str | None = None,
          strategy_file: Words = None, progress: bool = False) -> SweepReport:
    """``unosim sweep``: one or two rule keys (or the player count) over their values:
    ``rule={"hand_size": "5..9"}`` or ``{"hand_size": [5, 7, 9]}``, ``players="2..6"``."""
    _check(locals(), players=_counts)
    from unosim.progress import on_backend

    seed = _prepare(seed, strategy_file)
    count = inputs.parse_games(str(games))
    dims, fixed = sweep_dims(_assign(rule), None if players is None else _text(players))
    inputs.check_backend(backend, workers, scheduler)
    plan = plan_sweep(dims, fixed, count, variant=_variant(variant), strategy=strategy,
                      seat=_assign(seat))
    return _play(lambda: on_backend(
        backend, workers, scheduler, progress, plan.total,
        lambda cb, where: play_sweep(plan, seed, workers=workers, backend=where, on_batch=cb)))


def atlas(*, players: str | Iterable[int] = "2,4,6", games: int | str = 100_000,
          strategy: str = "offensive", seed: int | None = 0, workers: int | None = None,
          backend: str = "local", scheduler: str | None = None,
          strategy_file: Words = None, progress: bool = False) -> AtlasReport:
    """``unosim atlas``: every preset against official at each player count
    (``strategy="none"`` leaves the skill edge out)."""
    _check(locals(), players=_counts)
    from unosim.progress import on_backend

    seed = _prepare(seed, strategy_file)
    count = inputs.parse_games(str(games))
    plan = plan_atlas(parse_values("players", _text(players)), count, strategy)
    inputs.check_backend(backend, workers, scheduler)
    return _play(lambda: on_backend(
        backend, workers, scheduler, progress, plan.total,
        lambda cb, where: play_atlas(plan, seed, workers=workers, backend=where, on_batch=cb)))


def design(maximize: Words = None, minimize: Words = None, *, require: Words = None,
           question: str | os.PathLike[str] | None = None, base: Words = None,
           rule: Assignments = None, keys: Words = None, players: int | None = None,
           trials: int | None = None, games: int | str | None = None,
           strategy: str | None = None,
           seed: int | None = 0, workers: int | None = None, backend: str = "local",
           scheduler: str | None = None, out: str | os.PathLike[str] | None = None,
           strategy_file: Words = None, progress: bool = False) -> DesignReport:
    """``unosim design``: the house rules (``keys``, on top of ``base``) that raise
    ``maximize`` and lower ``minimize`` while meeting ``require`` (``"turns<=30"``):
    the front re-measured on fresh deals; ``.study`` is the Optuna study (Optuna's
    ``plot_pareto_front``). With ``out`` the study is kept in ``out/design.db`` and the
    same call continues it after a stop; the files of the command are written there."""
    def path(name: str, v: Any) -> None:
        if v is not None and not isinstance(v, str | os.PathLike):
            raise UnosimError(f"{name} must be a path or None, got {v!r}")

    def count(name: str, v: Any) -> None:
        if v is not None:
            _count(name, v)

    _check(locals(), maximize=_words, minimize=_words, require=_words, keys=_words,
           base=_words, trials=_int(1, 100_000), question=path, out=path, games=count,
           strategy=_str(none=True))
    seed = _prepare(seed, strategy_file)
    plan = plan_design(_names(maximize), _names(minimize), _names(require),
                       None if question is None else os.fspath(question), _variant(base),
                       _assign(rule), _names(keys), players, trials, games, strategy)
    inputs.check_backend(backend, workers, scheduler)
    folder = None
    if out is not None:
        from pathlib import Path

        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
    report = _play(lambda: play_design_plan(plan, seed, out_dir=folder, resumed=True,
                                            workers=workers, backend=backend,
                                            scheduler=scheduler, progress=progress))
    if folder is not None and report.to_dict()["front"]:
        write_design_files(report, folder, report.summary())
    return report


def play_design_plan(plan: DesignPlan, seed: int, *, out_dir: Any = None,
                     resumed: bool = False, keep: Any = None, workers: int | None = None,
                     backend: str = "local", scheduler: str | None = None,
                     progress: bool = False) -> DesignReport:
    """Play a design on the backend the options name, under the stop signals and the
    progress bar (counting trials): its study in ``out_dir/design.db`` (a new one
    unless ``resumed``: then the study there is continued), else in memory; ``keep``
    (the command's checkpoint keeper) is told of every trial."""
    from unosim.progress import with_progress
    from unosim.studies.design.plan import population
    from unosim.studies.design.play import DesignSetup, design_storage, front_line, play_design

    storage = design_storage(out_dir, fresh=not resumed)
    where = inputs.open_backend(backend, workers, scheduler)

    def job(advance: Callable[[int], None]) -> DesignReport:
        shown = [0]

        def on_trial(done: int, trials: int, study: Any) -> None:
            advance(done - shown[0])  # a continued study's bar starts where it stopped
            shown[0] = done
            if progress and (done % population(trials) == 0 or done == trials):
                import sys  # above the bar, which takes what stderr is given

                print(front_line(setup, study, done, trials), file=sys.stderr)
            if keep is not None:
                keep.note("design", done)

        setup = DesignSetup(plan.space, plan.question, plan.games, seed, plan.strategy,
                            where, on_trial, f"{plan.command_line} --seed {seed}")
        try:
            return play_design(setup, storage, plan.trials)
        finally:
            where.close()

    return with_progress(progress, plan.trials, job, unit="trials")


def tune(strategy: str, *, param: Assignments = None, against: str = "random",
         players: int | None = None, variant: Words = None, rule: Assignments = None,
         mode: str = "round", trials: int = 100, games_per_trial: int | str = "2e5",
         sampler: str = "tpe", storage: str = "sqlite:///unosim-tune.db",
         study: str | None = None, seed: int | None = None, workers: int | None = None,
         backend: str = "local", scheduler: str | None = None,
         strategy_file: Words = None) -> TuneReport:
    """``unosim tune``: search a parametric strategy's parameters on Optuna
    (``param={"bluff": "0..1"}``); ``.study`` is the Optuna study. As the command, the
    study lives in ``storage`` and the same name continues it; without a seed, a new
    study draws one and a continued one keeps its own."""
    _check(locals())
    _prepare(0, strategy_file)
    return _play(lambda: _tune(strategy, _assign(param), against, players, _variant(variant),
                               _assign(rule), mode, int(trials), games_per_trial, sampler,
                               storage, study, seed, workers, backend, scheduler))


def _tune(strategy: str, param: tuple[str, ...], against: str, players: int | None,
          variant: tuple[str, ...], rule: tuple[str, ...], mode: str, trials: int,
          games_per_trial: int | str, sampler: str, storage: str, study: str | None,
          seed: int | None, workers: int | None, backend: str, scheduler: str | None
          ) -> TuneReport:
    from unosim.interrupt import StopSignals

    name, space, field = tune_target(strategy, param, against, storage, study)
    games = inputs.parse_games(games_per_trial, "--games-per-trial")
    rules = inputs.resolve_rules(variant, rule, players)
    modes.of(mode).check_rules(rules, 1000)
    inputs.check_backend(backend, workers, scheduler)
    if seed is not None:
        seed = inputs.pick_seed(seed)  # checked
    label = variant_label(variant)
    if study is None:
        study = default_study_name(name, int(rules["players"]), against, mode, label)
    where = inputs.open_backend(backend, workers, scheduler)
    try:
        with StopSignals():  # a stop lands between two tasks of a trial
            return play_tune(name, space, field, rules, games, against=against,
                             variant=label, mode=mode, trials=trials, sampler=sampler,
                             storage=storage, study=study, seed=seed, backend=where,
                             draw_seed=lambda: inputs.pick_seed(None))
    finally:
        where.close()


def replay(file: str | os.PathLike[str] | None = None, *, seed: int | None = None,
           game: int | None = None, players: int | None = None, variant: Words = None,
           rule: Assignments = None, strategy: str = "random", seat: Assignments = None,
           strategy_file: Words = None) -> ReplayReport:
    """``unosim replay``: game ``game`` of the run with ``seed``, move by move;
    ``.moves()`` has one row per decision. Or ``file``: game ``game`` of a file of
    ``--save-games``, rebuilt from what it holds alone and checked against its row
    (``variant`` names one of a comparison's variants), or round ``game`` (the last by
    default) of a file ``unosim play`` saved, with the person's moves; a file another
    version of unosim wrote with the same engine replays with an
    :class:`OtherVersionWarning`."""
    if file is not None:
        _check(locals(), game=_int(0))
        if not isinstance(file, str | os.PathLike):
            raise UnosimError(f"file must be a path, got {file!r}")
        given = [n for n, v in (("seed", seed), ("players", players), ("rule", rule),
                                ("seat", seat), ("strategy_file", strategy_file))
                 if v is not None] + (["strategy"] if strategy != "random" else [])
        if given:
            raise UnosimError(f"{os.fspath(file)} holds the seed, rules and seats of its "
                              f"games: drop {', '.join(given)}")
        if game is not None and game >= 10**12:
            raise UnosimError(f"game must be within 0..{10**12 - 1}, got {game}")
        return replay_file(file, game, _variant(variant))
    _check(locals(), seed=_int(0, none=False))
    _prepare(seed, strategy_file)
    if not 0 <= game < 10**12:
        raise UnosimError(f"game must be within 0..{10**12 - 1}, got {game}")
    presets = _variant(variant)
    rules = inputs.resolve_rules(presets, _assign(rule), players)
    seats = inputs.seats_for(rules["players"], strategy, _assign(seat))
    return play_replay(rules, seats, seed, game, variant_label(presets))
