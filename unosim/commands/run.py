"""``unosim run`` (the default command): rounds or matches under one variant, on this
machine with checkpoints, with per-game records or charts, or on a Dask cluster."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from unosim import dry_run
from unosim import options as opt
from unosim.errors import UnosimError
from unosim.progress import with_progress
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(epilog=opt.METRICS_HELP)
@opt.games
@opt.table_options()
@opt.play_options()
@opt.match_options
@opt.save_games
@click.option("--report", is_flag=True,
              help="With --out: also write the charts (PNG, SVG) and a self-contained "
                   "report.html.")
@click.option("--precision", type=float, default=None, metavar="X",
              help="Stop once seat 0's win-rate 95% CI half-width is at most X (e.g. 0.001); "
                   "--games is then the most to play.")
@resume_option("run")
@click.pass_context
def run(ctx: click.Context, **params: Any) -> None:
    """Simulate rounds (or whole matches, --mode match) under a variant and report the
    statistics. Ctrl-C or SIGTERM stops between batches with the partial report; with
    --out DIR a checkpoint is kept there, and --resume DIR finishes the run."""
    start(ctx, "run", params, _run)


def _run(games_text: str, players: int | None, variant: tuple[str, ...],
         rule: tuple[str, ...], strategy: str, seat: tuple[str, ...], seed: int | None,
         workers: int | None, fmt: str, out: str | None, progress: bool | None,
         mode: str, target_score: int | None, max_rounds: int | None,
         save_games: str | None, report: bool, backend: str, scheduler: str | None,
         precision: float | None, saved: dict[str, Any], stages: dict[str, Any] | None
         ) -> None:
    from unosim.runs import modes
    from unosim.runs.variants import variant_label

    mode = modes.of(mode)  # the --mode word, as the object the run layer reads
    show = opt.show_progress(progress)
    games = inputs.parse_games(games_text)
    rules = inputs.resolve_rules(variant, (*rule, *inputs.target_override(target_score, mode)),
                              players)
    inputs.check_mode_options(mode, max_rounds)
    seats = inputs.seats_for(rules["players"], strategy, seat)
    out_dir = opt.prepare_out(out)
    save_path = opt.check_save_games(save_games)
    asked_seed = seed
    seed = inputs.pick_seed(seed)  # the report shows it
    if precision is not None and not 0 < precision < 0.5:
        raise UnosimError(f"--precision must be between 0 and 0.5, got {precision}")
    if mode.by_rounds and precision is not None:
        raise UnosimError("--precision applies to rounds (--mode round)")
    if precision is not None and (save_path is not None or report):
        raise UnosimError("--precision cannot be combined with --save-games or --report")
    inputs.check_scheduler(scheduler, backend)
    name = variant_label(variant)
    keep = keeper("run", out_dir, saved, seed, stages)
    if backend == "dask" and (mode.by_rounds or save_path is not None or report):
        raise UnosimError("--backend dask plays rounds and writes the summary; --mode match, "
                          "--save-games and --report run with --backend local")
    if report and out_dir is None:
        raise UnosimError("--report writes charts and report.html into --out DIR: add --out")
    if precision is not None and backend != "local":
        raise UnosimError("--precision works with --backend local only")
    if dry_run.requested():
        inputs.check_backend(backend, workers, scheduler)
        plan = (dry_run.Plan("run")
                .add("variant", dry_run.rules_text(name, rules))
                .add("seats", dry_run.seats_text(seats))
                .add("games", f"{games:,} {mode.unit}" + (
                    f" at most, until seat 0's win rate is within ±{precision:g}"
                    if precision is not None else ""))
                .add("seed", dry_run.seed_text(asked_seed)))
        for what, value in (("out", out_dir), ("save games", save_path)):
            if value is not None:
                plan.add(what, value)
        dry_run.show(plan.timed([dry_run.Work(games, seats, int(rules["players"]),
                                              "round" if not mode.by_rounds else "match")],
                                workers, backend))
        return
    if save_path is not None or report:
        run_extended(name=name, rules=rules, seats=seats, games=games, seed=seed,
                     workers=workers, fmt=fmt, out_dir=out_dir, mode=mode,
                     max_rounds=max_rounds, save_games=save_path, report=report,
                     show_progress=show, keep=keep)
        return
    run_plain(name=name, rules=rules, seats=seats, games=games, seed=seed, workers=workers,
              backend=backend, scheduler=scheduler, fmt=fmt, out_dir=out_dir, mode=mode,
              max_rounds=max_rounds, precision=precision, show_progress=show, keep=keep)


def run_plain(*, name: str, rules: Any, seats: list[Any], games: int, seed: int,
              workers: int | None, backend: str, scheduler: str | None, fmt: str,
              out_dir: Path | None, mode: Any, max_rounds: int | None,
              precision: float | None, show_progress: bool, keep: Any) -> None:
    """Rounds or matches on this machine or a Dask cluster, kept in ``--out`` for
    ``--resume``; the report, then the epilogue of a stopped run."""
    from unosim.api import play_run as run_games
    from unosim.interrupt import StopSignals

    where = inputs.open_backend(backend, workers, scheduler)

    def job(progress: Any, totals: Any = None) -> Any:
        try:
            return run_games(rules, seats, games, seed, on_batch=progress, on_totals=totals,
                             precision=precision, mode=mode, max_rounds=max_rounds,
                             backend=where, keep=keep)
        finally:
            # under the run's signal handling: a stop while the worker processes of a
            # Python seat end is a stop after the last task, which keeps them all
            where.close()

    # from the last task to the last line a stop is noted, not raised: it cannot
    # throw away games that finished (the report and the checkpoint say what it kept)
    with StopSignals(notice=False):
        _report_run(job, name=name, games=games, fmt=fmt, out_dir=out_dir,
                    mode=mode, precision=precision, show_progress=show_progress, keep=keep,
                    where=where)


def _report_run(job: Any, *, name: str, games: int, fmt: str,
                out_dir: Path | None, mode: Any, precision: float | None,
                show_progress: bool, keep: Any, where: Any) -> None:
    from unosim.api import run_report
    from unosim.output import print_summary

    try:
        result = with_progress(show_progress, games, job,  # a resumed bar starts at its games
                               with_totals=not mode.by_rounds and where.local,
                               unit=mode.unit)
    except UnosimError as e:
        # bad input found in play (a plug-in that raised or moved illegally): the same
        # games would fail again, so a checkpoint this run started is of no use; the
        # games finished before it are reported, and the error says so
        if not keep.resumed:
            keep.remove()
        partial = getattr(e, "partial", None)
        if partial is None:
            raise
        print_summary(*run_report(partial, name, mode, where.name, precision), fmt, out_dir)
        raise UnosimError(f"{e}; the report above covers the {partial.agg.games:,} "
                          f"{mode.unit} finished before it") from None
    # the play time of every session (the driver keeps it beside the progress)
    keep.stages["run.elapsed_s"] = result.elapsed_s
    print_summary(*run_report(result, name, mode, where.name, precision), fmt, out_dir,
                  keep)
    finish(keep, result.partial, "run", f"{result.agg.games:,} of {games:,} {mode.unit}")


def run_extended(
    *, name: str, rules: Any, seats: list[Any], games: int, seed: int, workers: int | None,
    fmt: str, out_dir: Path | None, mode: Any, max_rounds: int | None,
    save_games: Path | None, report: bool, show_progress: bool, keep: Any,
) -> None:
    """``unosim run`` with --save-games or --report (this machine): the run keeps its
    per-game totals, which the charts need, as a comparison of one variant."""
    from unosim.api import play_run as run_games
    from unosim.api import run_report, write_report_files
    from unosim.output import play_keeping_records, print_summary, records_lost, report_files
    from unosim.reports.export import write_summary_files
    from unosim.reports.saved_games import RecordSaver
    from unosim.runs.game_files import records_header
    from unosim.runs.variants import VariantSpec

    spec = VariantSpec(name, rules, seats)
    header = (records_header([spec], seed, mode, max_rounds, games, "run")
              if save_games is not None else None)
    saver = RecordSaver(save_games, mode, header, resumed=keep.stage("compare") is not None)
    hook = saver.records_hook
    cmp, lost = play_keeping_records(saver, keep, lambda: with_progress(
        show_progress, games,
        lambda cb: run_games(rules, seats, games, seed, workers, on_batch=cb,
                             on_records=None if hook is None else (
                                 lambda first, rec: hook(0, first, rec)),
                             mode=mode, max_rounds=max_rounds, keep=keep, per_game=True,
                             name=name),
        unit=mode.unit))
    result = cmp.results[0]
    summary, text = run_report(result, name, mode, "local")
    print_summary(summary, text, fmt, None)
    if lost is not None:
        raise records_lost(lost, keep, result.partial,
                           f"the {result.agg.games:,} of {games:,} {mode.unit} played")
    if out_dir is not None:
        with report_files(out_dir, keep, "run", result.partial):  # the summary and charts
            write_summary_files(out_dir, summary)
            if report:
                write_report_files(cmp, out_dir, text)
    finish(keep, result.partial, "run", f"{result.agg.games:,} of {games:,} {mode.unit}")
