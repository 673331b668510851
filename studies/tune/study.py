"""The tuning study (``unosim tune``): the Optuna study and its objective, racing and
the final re-evaluation (the search space is ``space.py``, a trial's play
``trials.py``, the study's storage ``storage.py``).

A trial is a parameter string. It plays the tuned strategy in every seat of the
table in turn (the lineup rotated, the field in the other seats) on game indices
0 .. m-1 of the seed: every trial plays the same deals (common random numbers),
so two trials differ by strategy, not by luck. Trials are raced: each is scored
on m/9, then m/3, then m games per lineup, and Optuna's successive-halving
pruner stops the ones behind the best third of the trials that reached the same
rung. A parameter string already played in the study is not played again (same
deals, same result): the trial is counted as skipped and keeps the earlier value.

At the end the best few trials (and the strategy's defaults, for reference) are
played again on a disjoint range of game indices (from ``REEVAL_START``), so the
reported best is the best on fresh deals, with its 95% Wilson interval, not the
luckiest trial of the search.

Optuna is an optional extra: ``require_optuna`` says how to install it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unosim import ENGINE, __version__, provenance
from unosim.common import wilson
from unosim.errors import UnosimError
from unosim.strategies.registry import Param, parse_strategy
from unosim.studies.tune.space import strategy_string
from unosim.studies.tune.storage import check_storage, sqlite_file, storage_errors, storage_failure
from unosim.studies.tune.trials import REDUCTION, TrialTable, rung_sizes

INSTALL_HINT = 'unosim tune needs optuna: pip install "unosim[tune]" (or pip install optuna)'
#: the re-evaluation plays game indices from here on (the search uses 0 .. m-1)
REEVAL_START = 1 << 40
#: trials re-evaluated at the end (the defaults are played too, for reference)
REEVAL_TOP = 5
SAMPLERS = ("tpe", "cmaes")


def require_optuna() -> Any:
    """The optuna module, or a one-line UnosimError saying how to install it."""
    try:
        import optuna
    except ImportError:
        raise UnosimError(INSTALL_HINT) from None
    return optuna


# ------------------------------------------------------------------ the study


@dataclass
class TuneSetup:
    strategy: str
    space: dict[str, tuple[float, float, Param]]
    table: TrialTable
    games_per_trial: int
    sampler: str = "tpe"
    field_text: str = "random"
    variant: str = "official"

    def fingerprint(self) -> dict[str, Any]:
        """What must not change when a study is continued (common random numbers)."""
        return {
            "strategy": self.strategy,
            "field": self.field_text,
            "players": self.table.players,
            "rules_changed": {k: str(v) for k, v in self.table.rules.changed().items()},
            "mode": self.table.mode,
            "games_per_trial": self.games_per_trial,
            "seed": self.table.seed,
            "space": {k: [lo, hi] for k, (lo, hi, _) in self.space.items()},
            # the same deals give the same results only on the same engine
            "unosim_version": __version__,
            "engine": ENGINE,
        }


def _sampler(optuna: Any, name: str, seed: int) -> Any:
    if name == "cmaes":
        try:
            return optuna.samplers.CmaEsSampler(seed=seed, warn_independent_sampling=False)
        except Exception as e:  # noqa: BLE001 - the cmaes package is missing
            raise UnosimError(f"--sampler cmaes: {e}".splitlines()[0]) from None
    return optuna.samplers.TPESampler(seed=seed, multivariate=True, n_startup_trials=10)


def open_study(setup: TuneSetup, storage: str, study_name: str,
               draw_seed: Callable[[], int] | None = None) -> Any:
    """Create or load the study (an unreadable storage is a one-line error; a study
    of that name made with another setup is refused: its trials would not share
    the deals). Without a seed (``setup.table.seed`` None) a study continues with
    its own seed, and a new one takes ``draw_seed()``."""
    optuna = require_optuna()
    check_storage(storage, study_name)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    new_file = sqlite_file(storage)
    if new_file is not None and new_file.exists():
        new_file = None  # an existing database is never removed
    for attempt in range(6):
        try:
            store = optuna.storages.RDBStorage(storage)
            study = optuna.create_study(study_name=study_name, storage=store,
                                        direction="maximize", load_if_exists=True)
            break
        except Exception as e:  # noqa: BLE001 - any storage failure is bad input here
            racing = ("already exists", "UNIQUE constraint", "database is locked")
            if attempt < 5 and any(w in str(e) for w in racing):
                # two processes made the tables of a new database at once: the other
                # one won, open it again
                time.sleep(0.2 * (attempt + 1))
                continue
            if new_file is not None and new_file.is_file() and new_file.stat().st_size == 0:
                new_file.unlink()  # the empty file a full disk left: not a database
            raise UnosimError(f"--storage {storage}: cannot open it ({storage_failure(e)})"
                              ) from None
    old = study.user_attrs.get("setup")
    if setup.table.seed is None:
        if old is not None:
            setup.table.seed = int(old["seed"])
        else:
            setup.table.seed = draw_seed() if draw_seed is not None else 0
    rungs = rung_sizes(setup.games_per_trial, setup.table.players)
    # seeded by the trials so far too: a continued study does not replay the random
    # start-up points of the session before it
    study.sampler = _sampler(optuna, setup.sampler, setup.table.seed + len(study.trials))
    study.pruner = optuna.pruners.SuccessiveHalvingPruner(
        min_resource=rungs[0] * setup.table.players, reduction_factor=REDUCTION)
    fp = setup.fingerprint()
    if old is None:
        study.set_user_attr("setup", fp)
    elif (old.get("unosim_version"), old.get("engine")) != (__version__, ENGINE):
        made = (f"unosim {old['unosim_version']}, engine {old.get('engine')}"
                if "unosim_version" in old else "unosim 0.1.0 or earlier")
        raise UnosimError(f"study {study_name!r} in {storage} was made by another engine "
                          f"({made}; this is unosim {__version__}, engine {ENGINE}), so its "
                          "trials would not compare with new ones; use another --study name")
    elif old != fp:
        diff = sorted(k for k in fp if old.get(k) != fp[k])
        raise UnosimError(f"study {study_name!r} in {storage} was made with another setup "
                          f"({', '.join(diff)} differ); use another --study name")
    return study


def make_objective(setup: TuneSetup, study: Any,
                   on_trial: Callable[[], None] | None = None
                   ) -> Callable[[Any], float | None]:
    optuna = require_optuna()
    rungs = rung_sizes(setup.games_per_trial, setup.table.players)
    n = setup.table.players

    def objective(trial: Any) -> float | None:
        """The trial's win rate; None when a stop cut its play short."""
        values: dict[str, float] = {}
        for key, (lo, hi, p) in setup.space.items():
            if lo == hi:
                values[key] = lo
            elif p.integer:
                values[key] = trial.suggest_int(key, int(lo), int(hi))
            else:
                values[key] = trial.suggest_float(key, lo, hi, step=0.001 if hi - lo >= 0.002
                                                  else None)
        text = strategy_string(setup.strategy, values)
        trial.set_user_attr("strategy", text)
        for old in study.get_trials(deepcopy=False,
                                    states=(optuna.trial.TrialState.COMPLETE,)):
            if old.user_attrs.get("strategy") == text and old.number != trial.number:
                trial.set_user_attr("skipped", old.number)  # same deals, same result
                return float(old.value)
        cand = parse_strategy(text)
        won = 0
        done = 0
        for step, m in enumerate(rungs):
            part = setup.table.wins(cand, done, m - done)
            if part is None:
                return None
            won += part
            done = m
            rate = won / (done * n)
            if step < len(rungs) - 1:
                trial.report(rate, done * n)
                if trial.should_prune():
                    trial.set_user_attr("games", done * n)
                    raise optuna.TrialPruned()
        trial.set_user_attr("games", done * n)
        if on_trial is not None:
            on_trial()
        return rate

    return objective


def trial_counts(study: Any) -> dict[str, int]:
    optuna = require_optuna()
    S = optuna.trial.TrialState
    trials = study.get_trials(deepcopy=False)
    skipped = sum(1 for t in trials if t.state == S.COMPLETE and "skipped" in t.user_attrs)
    return {
        "trials": len(trials),
        "complete": sum(1 for t in trials if t.state == S.COMPLETE) - skipped,
        "skipped": skipped,
        "pruned": sum(1 for t in trials if t.state == S.PRUNED),
        "failed": sum(1 for t in trials if t.state == S.FAIL
                      and "interrupted" not in t.user_attrs),
        "interrupted": sum(1 for t in trials if t.state == S.FAIL
                           and "interrupted" in t.user_attrs),
        "running": sum(1 for t in trials if t.state in (S.RUNNING, S.WAITING)),
    }


@dataclass
class TuneResult:
    study_name: str
    storage: str
    setup: TuneSetup
    counts: dict[str, int]
    reeval: list[dict[str, Any]] = field(default_factory=list)
    best: str = ""
    elapsed_s: float = 0.0
    interrupted: bool = False
    games_played: int = 0
    #: the racing and the re-evaluation, for the report
    reduction: int = REDUCTION
    reeval_from: int = REEVAL_START

    @property
    def rungs(self) -> list[int]:
        """Games a trial has played at each rung (over all seat rotations)."""
        n = self.setup.table.players
        return [g * n for g in rung_sizes(self.setup.games_per_trial, n)]


@dataclass
class TuneHistory:
    """What the report's files show of a study: its trials as CSV, the finished
    trials' values, the pruned ones' last values, and the parameter importances."""

    trials_csv: str
    finished: list[tuple[int, float]]
    pruned: list[tuple[int, float]]
    importances: dict[str, float]


def history(study: Any) -> TuneHistory:
    """The study's trials and importances (fANOVA; empty with fewer than two
    finished trials, or too few distinct ones to fit)."""
    optuna = require_optuna()
    S = optuna.trial.TrialState
    done = list(study.get_trials(deepcopy=False, states=(S.COMPLETE,)))
    pruned = [t for t in study.get_trials(deepcopy=False, states=(S.PRUNED,))
              if t.intermediate_values]
    try:
        imp = optuna.importance.get_param_importances(study) if len(done) >= 2 else {}
    except Exception:  # noqa: BLE001 - too few distinct trials to fit
        imp = {}
    # trials.csv ends in the provenance columns, as every CSV unosim writes
    return TuneHistory(study.trials_dataframe().assign(**provenance()).to_csv(index=False),
                       [(t.number, t.value) for t in done],
                       [(t.number, t.intermediate_values[max(t.intermediate_values)])
                        for t in pruned],
                       dict(imp))


def reevaluate(setup: TuneSetup, study: Any, top: int = REEVAL_TOP,
               games: int | None = None) -> list[dict[str, Any]] | None:
    """Play the best ``top`` finished trials and the defaults on game indices from
    REEVAL_START (deals no trial saw): win rate with its 95% interval; None when a
    stop cut the play short."""
    optuna = require_optuna()
    done = [t for t in study.get_trials(deepcopy=False,
                                        states=(optuna.trial.TrialState.COMPLETE,))
            if "skipped" not in t.user_attrs]
    done.sort(key=lambda t: -t.value)
    cands: list[tuple[str, Any, float | None]] = [
        (t.user_attrs["strategy"], t.number, t.value) for t in done[:top]]
    cands.append((setup.strategy, "defaults", None))
    n = setup.table.players
    per = max(1, -(-(games or setup.games_per_trial) // n))
    rows = []
    for text, number, value in cands:
        won = setup.table.wins(parse_strategy(text), REEVAL_START, per)
        if won is None:
            return None
        lo, hi = wilson(won, per * n)
        rows.append({"strategy": text, "trial": number, "search_win_rate": value,
                     "games": per * n, "wins": won, "win_rate": won / (per * n),
                     "win_rate_ci95": [lo, hi], "fair_share": 1 / n})
    rows.sort(key=lambda r: (r["trial"] == "defaults", -r["win_rate"]))
    return rows


def _optimize(study: Any, objective: Callable[[Any], float | None], trials: int) -> bool:
    """Ask, play and tell ``trials`` trials; True if a stop cut them short. A stop
    is read by the backend between two tasks, never inside Optuna's storage code, and
    the objective then returns None: the trial it cut is told FAIL with the user
    attribute ``interrupted``, so the study keeps no RUNNING trial."""
    optuna = require_optuna()
    S = optuna.trial.TrialState
    taken = optuna.exceptions.UpdateFinishedTrialError
    done = 0
    while done < trials:
        trial = study.ask()
        try:
            try:
                value = objective(trial)
            except optuna.TrialPruned:
                study.tell(trial, state=S.PRUNED)
                done += 1
                continue
            if value is None:
                trial.set_user_attr("interrupted", True)
                study.tell(trial, state=S.FAIL)
                return True
            study.tell(trial, value)
        except taken:
            # another process sharing the study took the same queued trial (SQLite
            # cannot lock the queue) and finished it first: it is theirs, ask again
            continue
        done += 1
    return False


def run_study(setup: TuneSetup, storage: str, study_name: str, trials: int,
              on_trial: Callable[[], None] | None = None,
              draw_seed: Callable[[], int] | None = None) -> tuple[Any, TuneResult]:
    """Run ``trials`` more trials (Ctrl-C keeps the finished ones), then re-evaluate;
    ``trials=0`` adds none and reports the study as it stands (the same deals, so the
    same report). A database that fails on the way is one line, the trials kept."""
    with storage_errors(storage):
        return _run_study(setup, storage, study_name, trials, on_trial, draw_seed)


def _run_study(setup: TuneSetup, storage: str, study_name: str, trials: int,
               on_trial: Callable[[], None] | None,
               draw_seed: Callable[[], int] | None) -> tuple[Any, TuneResult]:
    from unosim.strategies.registry import tuned_weights

    t0 = time.perf_counter()
    study = open_study(setup, storage, study_name, draw_seed)
    before = trial_counts(study)
    if trials == 0 and before["complete"] + before["skipped"] == 0:
        raise UnosimError(f"--trials 0 reports the study as it stands, and study "
                          f"{study_name!r} in {storage} has no finished trial yet; give "
                          "--trials N")
    if before["trials"] == 0:  # a new study starts from the strategy's own defaults
        start = (tuned_weights(setup.table.players) if setup.strategy == "tuned"
                 else {k: p.default for k, (_, _, p) in setup.space.items()})
        study.enqueue_trial({k: start[k] for k, (lo, hi, _) in setup.space.items()
                             if lo < hi and lo <= start[k] <= hi})
    interrupted = _optimize(study, make_objective(setup, study, on_trial), trials)
    counts = trial_counts(study)
    result = TuneResult(study_name, storage, setup, counts, interrupted=interrupted)
    if not interrupted and counts["complete"] > 0:
        rows = reevaluate(setup, study)
        if rows is None:  # stopped while re-evaluating: the trials stay
            result.interrupted = True
        else:
            result.reeval = rows
            result.best = rows[0]["strategy"]
    if not result.best and counts["complete"] > 0:
        result.best = study.best_trial.user_attrs["strategy"]
    result.elapsed_s = time.perf_counter() - t0
    played = 0
    S = require_optuna().trial.TrialState
    for t in study.get_trials(deepcopy=False, states=(S.COMPLETE, S.PRUNED)):
        if t.number >= before["trials"] and "skipped" not in t.user_attrs:
            played += int(t.user_attrs.get("games", 0))
    result.games_played = played + sum(r["games"] for r in result.reeval)
    return study, result
