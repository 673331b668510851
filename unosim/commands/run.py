"""``unosim run`` (the default command): rounds or matches under one variant, on this
machine with checkpoints, with per-game records or charts, or on a Dask cluster."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from unosim import options as opt
from unosim.errors import UnosimError
from unosim.progress import with_progress
from unosim.resuming import finish, keeper, refuse_with_resume, start

#: the options `run --resume DIR` takes; the others come from the checkpoint
_RESUME_OPTIONS = ("resume_dir", "workers", "fmt", "progress")


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
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR",
              help="Finish the interrupted run whose checkpoint is in DIR (kept there by "
                   "--out DIR): same seed, rules and games; takes only --workers, --format "
                   "and --progress.")
@click.pass_context
def run(ctx: click.Context, **params: Any) -> None:
    """Simulate rounds (or whole matches, --mode match) under a variant and report the
    statistics. Ctrl-C or SIGTERM stops between batches with the partial report; with
    --out DIR a checkpoint is kept there, and --resume DIR finishes the run."""
    from unosim.commands import resume as resumable
    from unosim.studies import checkpoints

    resume_dir = params.get("resume_dir")
    if resume_dir is not None and not checkpoints.exists(Path(resume_dir)):
        params.pop("resume_dir")
        refuse_with_resume(ctx, _RESUME_OPTIONS)
        resumable.resume(resume_dir, params["workers"], params["fmt"],
                         opt.show_progress(params["progress"]))
        return
    # --report and --save-games keep a study's checkpoint (the per-game totals of the
    # charts, and the records written so far)
    start(ctx, "run", params, _run)


def _run(games_text: str, players: int | None, variant: tuple[str, ...],
         rule: tuple[str, ...], strategy: str, seat: tuple[str, ...], seed: int | None,
         workers: int | None, fmt: str, out: str | None, progress: bool | None,
         mode: str, target_score: int | None, max_rounds: int | None,
         save_games: str | None, report: bool, backend: str, scheduler: str | None,
         precision: float | None, saved: dict[str, Any], stages: dict[str, Any] | None
         ) -> None:
    from unosim.commands import resume as resumable
    from unosim.runs.variants import variant_label

    show = opt.show_progress(progress)
    games = opt.parse_games(games_text)
    rules = opt.resolve_rules(variant, (*rule, *opt.target_override(target_score, mode)),
                              players)
    opt.check_mode_options(mode, max_rounds)
    seats = opt.seats_for(rules["players"], strategy, seat)
    out_dir = opt.prepare_out(out)
    if stages is None:
        resumable.refuse_unfinished(out_dir)
    save_path = opt.check_save_games(save_games)
    seed = opt.pick_seed(seed, announce=False)  # the report shows it
    if precision is not None and not 0 < precision < 0.5:
        raise UnosimError(f"--precision must be between 0 and 0.5, got {precision}")
    if mode == "match" and precision is not None:
        raise UnosimError("--precision applies to rounds (--mode round)")
    if precision is not None and (save_path is not None or report):
        raise UnosimError("--precision cannot be combined with --save-games or --report")
    opt.check_scheduler(scheduler, backend)
    name = variant_label(variant)
    if backend == "local" and save_path is None and not report:
        # on this machine: Ctrl-C/SIGTERM keep a checkpoint in --out for --resume
        resumable.run_checkpointed(
            name=name, mode=mode, rules=rules, seats=seats, games=games, seed=seed,
            workers=workers, fmt=fmt, out_dir=out_dir, max_rounds=max_rounds,
            precision=precision, show_progress=show)
        return
    if backend == "dask" and (mode == "match" or save_path is not None or report):
        raise UnosimError("--backend dask plays rounds and writes the summary; --mode match, "
                          "--save-games and --report run with --backend local")
    if save_path is not None or report:
        run_extended(name=name, rules=rules, seats=seats, games=games, seed=seed,
                     workers=workers, fmt=fmt, out_dir=out_dir, mode=mode,
                     max_rounds=max_rounds, save_games=save_path, report=report,
                     show_progress=show, keep=keeper("run", out_dir, saved, seed, stages))
        return
    if precision is not None:
        raise UnosimError("--precision works with --backend local only")
    run_on_dask(name=name, rules=rules, seats=seats, games=games, seed=seed,
                scheduler=scheduler, fmt=fmt, out_dir=out_dir, show_progress=show)


def run_on_dask(*, name: str, rules: Any, seats: list[Any], games: int, seed: int,
                scheduler: str | None, fmt: str, out_dir: Path | None,
                show_progress: bool) -> None:
    """``--backend dask``: rounds on a cluster, the same totals as on this machine."""
    from unosim.output import print_summary, run_report
    from unosim.runs.backend import connect
    from unosim.runs.runner import run as run_games

    where = connect(scheduler)
    try:
        result = with_progress(show_progress, games, lambda cb: run_games(
            rules, seats, games, seed, on_batch=cb, backend=where))
    finally:
        where.close()
    print_summary(*run_report(result, name, "round", "dask"), fmt, out_dir)
    if result.partial:
        sys.exit(130)


def run_extended(
    *, name: str, rules: Any, seats: list[Any], games: int, seed: int, workers: int | None,
    fmt: str, out_dir: Path | None, mode: str, max_rounds: int | None,
    save_games: Path | None, report: bool, show_progress: bool, keep: Any,
) -> None:
    """``unosim run`` with --save-games or --report (this machine): a one-variant
    comparison, which keeps the per-game totals the charts need."""
    from unosim.output import print_summary, run_report
    from unosim.reports.export import write_report_files
    from unosim.reports.parquet import RecordSaver
    from unosim.runs.variants import VariantSpec
    from unosim.studies.compare import run_compare

    if report and out_dir is None:
        raise UnosimError("--report writes charts and report.html into --out DIR: add --out")
    spec = VariantSpec(name, rules, seats)
    saver = RecordSaver(save_games, mode, resumed=keep.stage("compare") is not None)
    ok = False
    try:
        cmp = with_progress(
            show_progress, games,
            lambda cb: run_compare([spec], games, seed, workers, mode, max_rounds,
                                   on_batch=cb, on_records=saver.records_hook, keep=keep),
            unit="games" if mode == "round" else "matches")
        ok = True  # a stopped run keeps the records of its finished games
    finally:
        saver.close(ok)
    result = cmp.results[0]
    summary, text = run_report(result, name, mode, "local")
    print_summary(summary, text, fmt, out_dir)
    if report and out_dir is not None:
        write_report_files(cmp, out_dir, text)
    finish(keep, result.partial, "run", f"{result.agg.games:,} of {games:,} "
           f"{'games' if mode == 'round' else 'matches'}")
