"""``unosim compare``: variants side by side on the same deals, paired differences
from the baseline, verdicts, charts."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from unosim import dry_run, interrupt
from unosim import options as opt
from unosim.errors import UnosimError
from unosim.progress import with_progress
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(epilog=opt.METRICS_HELP,
               short_help="Variants side by side on the same deals, with verdicts.")
@click.argument("variant_names", nargs=-1, metavar="VARIANT...",
                shell_complete=opt.complete_variant)
@opt.games
@opt.table_options(with_variant=False)
@opt.play_options(out_dir="summary.json and summary.csv, the charts as PNG and SVG and a "
                  "self-contained report.html")
@opt.match_options
@opt.save_games
@resume_option("comparison")
@click.pass_context
def compare(ctx: click.Context, **params: Any) -> None:
    """Compare variants side by side: VARIANT... are presets (NAME or NAME+NAME) or TOML
    files, the first is the baseline. Same seed for all (common random numbers), paired
    differences with 95% intervals, and a verdict per headline metric. Ctrl-C or
    SIGTERM stops between batches with the partial comparison (the same games in
    every variant); with --out DIR a checkpoint is kept there, and --resume DIR
    finishes it."""
    start(ctx, "compare", params, _compare)


def _compare(variant_names: tuple[str, ...], games_text: str, players: int | None,
             rule: tuple[str, ...], strategy: str, seat: tuple[str, ...], seed: int | None,
             workers: int | None, fmt: str, out: str | None, mode: str,
             target_score: int | None, max_rounds: int | None, save_games: str | None,
             progress: bool | None, backend: str, scheduler: str | None,
             saved: dict[str, Any], stages: dict[str, Any] | None) -> None:
    from unosim.runs.variants import build_variants

    games = inputs.parse_games(games_text)
    extra = (*rule, *inputs.target_override(target_score, mode))
    inputs.check_mode_options(mode, max_rounds)
    variants = build_variants(variant_names,
                              lambda presets: inputs.resolve_rules(presets, extra, players),
                              lambda n: inputs.seats_for(n, strategy, seat))
    out_dir = opt.prepare_out(out)
    save_path = opt.check_save_games(save_games)
    if len(variants) < 2:  # checked before the seed line is printed
        raise UnosimError("compare needs at least two variants, e.g. `unosim compare official "
                          "stacking`")
    inputs.check_backend(backend, workers, scheduler)
    if backend == "dask" and save_path is not None:
        raise UnosimError("--save-games keeps per-game records on this machine: drop "
                          "--backend dask")
    if dry_run.requested():
        from unosim.runs import modes

        unit = modes.of(mode).unit
        plan = (dry_run.Plan("compare")
                .add("variants", dry_run.variants_text(variants) + f"; {variants[0].name} "
                                 "is the baseline")
                .add("seats", dry_run.seats_text(variants[0].seats))
                .add("games", f"{games:,} {unit} per variant, {games * len(variants):,} in all")
                .add("seed", dry_run.seed_text(seed)))
        for what, value in (("out", out_dir), ("save games", save_path)):
            if value is not None:
                plan.add(what, value)
        dry_run.show(plan.timed([dry_run.Work(games, v.seats, int(v.rules["players"]), mode)
                                 for v in variants], workers, backend))
        return
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None else None)
    keep = keeper("compare", out_dir, saved, seed, stages)
    where = inputs.open_backend(backend, workers, scheduler)
    try:
        compare_variants(games=games, variants=variants, seed=seed, workers=workers, fmt=fmt,
                         out_dir=out_dir, mode=mode, max_rounds=max_rounds,
                         save_games=save_path, show_progress=opt.show_progress(progress),
                         backend=where, keep=keep)
    finally:
        where.close()


def compare_variants(
    *, games: int, variants: list, seed: int, workers: int | None, fmt: str,
    out_dir: Path | None, mode: str, max_rounds: int | None, save_games: Path | None,
    show_progress: bool, backend: Any = None, keep: Any = None,
) -> None:
    """Play the comparison, print it, write its files; when stopped early, keep the
    checkpoint and exit 130 (143 after SIGTERM)."""
    from unosim.api import CompareReport, run_compare, write_compare_outputs
    from unosim.output import play_keeping_records, records_lost, report_files
    from unosim.reports.saved_games import RecordSaver
    from unosim.runs import modes
    from unosim.runs.game_files import records_header

    mode = modes.of(mode)  # the --mode word, as the object the run layer reads
    header = (records_header(variants, seed, mode, max_rounds, games, "compare")
              if save_games is not None else None)
    saver = RecordSaver(save_games, mode, header,
                        resumed=keep is not None and keep.stage("compare") is not None)
    # a partial comparison keeps the records of its finished games
    cmp, lost = play_keeping_records(saver, keep, lambda: with_progress(
        show_progress, games * len(variants),
        lambda cb: run_compare(variants, games, seed, workers, mode, max_rounds,
                               on_batch=cb, on_records=saver.records_hook, backend=backend,
                               keep=keep),
        unit=mode.unit))
    report = CompareReport(cmp)
    text = report.summary()
    click.echo(report.to_json() if fmt == "json" else text)
    if lost is not None:
        raise records_lost(lost, keep, cmp.partial, f"the {cmp.games:,} of {games:,} "
                           f"{cmp.unit} per variant played")
    if out_dir is not None:
        with report_files(out_dir, keep, "compare", cmp.partial):
            written = write_compare_outputs(cmp, out_dir, text)
        click.echo(f"wrote {len(written)} files to {out_dir}: {', '.join(written)}",
                   err=True)
    if save_games is not None:
        click.echo(f"wrote per-{mode.one} records of every "
                   f"variant to {save_games}", err=True)
    if keep is not None:
        finish(keep, cmp.partial, "compare", f"{cmp.games:,} of {games:,} {cmp.unit} per "
               "variant")
    elif cmp.partial:
        sys.exit(interrupt.exit_code())
