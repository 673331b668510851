"""``unosim tune``: search a parametric strategy's parameters on Optuna (the study, its
report and its files are studies/tune/)."""

from __future__ import annotations

import sys
from typing import Any

import click

from unosim import dry_run, interrupt
from unosim import options as opt
from unosim.errors import UnosimError
from unosim.interrupt import StopSignals
from unosim.runs import inputs


@click.command(short_help="Tune a parametric strategy's parameters (Optuna).")
@click.argument("strategy", metavar="STRATEGY", shell_complete=opt.complete_strategy)
@click.option("--param", "param", multiple=True, metavar="NAME=LO..HI",
              help="Search NAME over LO..HI (repeatable); the others keep their defaults. "
                   "Default: every parameter over its documented range (unosim strategies).")
@click.option("--against", default="random", show_default=True, metavar="FIELD",
              help="The strategies in the other seats, cycled: offensive,random fills "
                   "them offensive, random, offensive ...")
@opt.players
@opt.variant
@opt.rule
@click.option("--mode", type=click.Choice(["round", "match"]), default="round",
              show_default=True, help="Maximise the share of rounds won, or of matches.")
@click.option("--trials", type=click.IntRange(0, 1_000_000), default=100, show_default=True,
              help="Trials to add to the study; 0 adds none and reports the study as it "
                   "stands (the same report again, e.g. to write --out files that failed).")
@click.option("--games-per-trial", "games_text", default="2e5", show_default=True,
              help="Games a trial plays if it is not pruned (over all seat rotations; "
                   "rounded up to whole rungs); the re-evaluation plays as many per "
                   "candidate.")
@click.option("--sampler", type=click.Choice(["tpe", "cmaes"]), default="tpe",
              show_default=True, help="Optuna sampler: TPE, or CMA-ES (pip install cmaes).")
@click.option("--storage", default="sqlite:///unosim-tune.db", show_default=True,
              help="Where the study lives: an SQLite file (the default, nothing to start) or "
                   "any SQLAlchemy URL (postgresql://... lets several machines run trials "
                   "of one study).")
@click.option("--study", "study_name", default=None,
              help="Study name; the same name and storage continue the study. Default: "
                   "from the strategy, players, field and mode.")
@opt.play_options(out_dir="summary.json and summary.csv (the result), trials.csv, and the "
                  "optimisation history and parameter importances as charts (PNG and "
                  "SVG)", progress_bar=False)
def tune(strategy: str, param: tuple[str, ...], against: str, players: int | None,
         variant: tuple[str, ...], rule: tuple[str, ...], mode: str, trials: int,
         games_text: str, sampler: str, storage: str, study_name: str | None, seed: int | None,
         workers: int | None, fmt: str, out: str | None, backend: str,
         scheduler: str | None) -> None:
    """Search the parameters of STRATEGY (weighted, adaptive, gang-up, tuned) that
    maximise its win rate against the field, its seat rotated. Every trial plays the
    same deals (common random numbers); trials are raced on growing game counts and
    the laggards pruned; the best few are re-evaluated on fresh deals with 95%
    intervals, and the best parameter string is printed for --strategy, --seat and
    tournament. Ctrl-C keeps every finished trial; the same command continues the
    study (without --seed, with the study's own seed). With --out: summary.json and
    summary.csv (the result), trials.csv, and the optimisation history and parameter
    importances as charts (PNG and SVG)."""
    from unosim.api import default_study_name, play_tune, tune_target
    from unosim.runs import modes
    from unosim.runs.variants import variant_label

    name, space, field = tune_target(strategy, param, against, storage, study_name)
    games = inputs.parse_games(games_text, "--games-per-trial")
    rules = inputs.resolve_rules(variant, rule, players)
    modes.of(mode).check_rules(rules, 1000)
    inputs.check_backend(backend, workers, scheduler)
    if seed is not None:
        seed = inputs.pick_seed(seed)  # checked
    out_dir = opt.prepare_out(out)
    label = variant_label(variant)
    if study_name is None:
        study_name = default_study_name(name, int(rules["players"]), against, mode, label)
    if dry_run.requested():
        _plan(name, space, field, rules, games, label, mode, trials, sampler, storage,
              study_name, seed, workers, backend, out_dir)
        return
    where = inputs.open_backend(backend, workers, scheduler)
    try:
        with StopSignals():  # a stop lands between two tasks of a trial
            report = play_tune(name, space, field, rules, games, against=against,
                               variant=label, mode=mode, trials=trials, sampler=sampler,
                               storage=storage, study=study_name, seed=seed, backend=where,
                               draw_seed=lambda: inputs.pick_seed(None, opt.announce_seed))
    finally:
        where.close()
    click.echo(report.to_json() if fmt == "json" else report.summary())
    if out_dir is not None:
        from unosim.api import write_tune_files
        from unosim.output import report_files

        with report_files(out_dir, None, "tune", report.partial, again=(
                "the same command with --trials 0 writes them from the study without "
                "adding a trial")):
            write_tune_files(report.history, report.to_dict(), out_dir)
    if report.partial:
        click.echo("unosim: interrupted; the finished trials are kept in the study (the "
                   "trial that was playing is marked interrupted); run the same command "
                   "again to continue it", err=True)
        sys.exit(interrupt.exit_code())



def _plan(name: str, space: dict, field: list, rules: Any, games: int, label: str,
          mode: str, trials: int, sampler: str, storage: str, study_name: str,
          seed: int | None, workers: int | None, backend: str, out_dir: Any) -> None:
    """--dry-run: the study, its search space and its games at most (every trial played
    to its end, none pruned, and the re-evaluation)."""
    from unosim.runs.modes import MATCH
    from unosim.runs.modes import of as of_mode
    from unosim.strategies.registry import parse_strategy

    _probe_storage(storage)
    p = int(rules["players"])
    seats = [parse_strategy(name), *(field[i % len(field)] for i in range(p - 1))]
    plan = (dry_run.Plan("tune")
            .add("strategy", f"{name} against {', '.join(s.label() for s in field)}")
            .add("space", ", ".join(f"{k}={lo:g}..{hi:g}" for k, (lo, hi, _) in space.items()))
            .add("variant", dry_run.rules_text(label, rules))
            .add("trials", f"{trials:,} ({sampler}), {games:,} "
                           f"{'matches' if of_mode(mode) is MATCH else 'rounds'} each at most")
            .add("study", f"{study_name} in {storage}")
            .add("seed", dry_run.seed_text(seed) if seed is not None
                 else "the study's own, or drawn at random for a new study"))
    if out_dir is not None:
        plan.add("out", out_dir)
    dry_run.show(plan.timed([dry_run.Work(games * trials, seats, p, mode)], workers, backend))


def _probe_storage(storage: str) -> None:
    """--dry-run: the storage opens as the study would open it, and nothing is made
    there: a database server is connected to; an SQLite file that is not there yet is
    not made, its folder must be there (the same line as the study's when not)."""
    from sqlalchemy import create_engine

    from unosim.api import sqlite_file, storage_failure

    file = sqlite_file(storage)
    if file is not None and (file.exists() or file.parent.is_dir()):
        return
    try:
        engine = create_engine(storage)
        engine.connect().close()
        engine.dispose()
    except Exception as e:  # noqa: BLE001 - any storage failure is bad input here
        raise UnosimError(f"--storage {storage}: cannot open it ({storage_failure(e)})"
                          ) from None
