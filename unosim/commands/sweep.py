"""``unosim sweep``: one or two rule keys (or the player count) over a grid of values,
every metric per point with its 95% interval, charts and sweep.html."""

from __future__ import annotations

from typing import Any

import click

from unosim import dry_run
from unosim import options as opt
from unosim.progress import on_backend
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(short_help="Rule values and player counts on a grid, every metric per point.")
@opt.variant
@click.option("--rule", multiple=True, metavar="KEY=VALUES",
              help="A rule key to sweep over VALUES: 5..10, 5,7,9, true,false or a list of "
                   "choices; with one value it is a fixed override (repeatable; at most two "
                   "swept dimensions, --players counting as one).")
@click.option("--players", default=None, metavar="VALUES",
              help="Player counts to sweep (2..8, 2,4,6) or one fixed count.")
@opt.strategy
@opt.seat
@opt.games
@opt.play_options(out_dir="sweep.json, sweep.csv (a row per point and metric), the charts as "
                  "PNG and SVG and a self-contained sweep.html")
@resume_option("sweep")
@click.pass_context
def sweep(ctx: click.Context, **params: Any) -> None:
    """Sweep one or two rule keys (or the player count) over VALUES on top of --variant:
    every point plays the same seed and game indices; per point, round length, seat 0's
    win rate, seat balance, winner points, cards drawn, comeback, lead changes, first to
    UNO and capped rounds, each with its 95% interval. A point the rules refuse is listed
    with the reason and skipped. Ctrl-C or SIGTERM stops between batches with the
    partial sweep (the same games at every point); with --out DIR a checkpoint is kept
    there, and --resume DIR finishes it."""
    start(ctx, "sweep", params, _sweep)


def _sweep(variant: tuple[str, ...], rule: tuple[str, ...], players: str | None,
           strategy: str, seat: tuple[str, ...], games_text: str, seed: int | None,
           workers: int | None, backend: str, scheduler: str | None, fmt: str,
           out: str | None, progress: bool | None, saved: dict[str, Any],
           stages: dict[str, Any] | None) -> None:
    from unosim.api import plan_sweep, play_sweep, sweep_dims

    games = inputs.parse_games(games_text)
    dims, fixed = sweep_dims(rule, players)
    inputs.check_backend(backend, workers, scheduler)
    plan = plan_sweep(dims, fixed, games, variant=variant, strategy=strategy, seat=seat)
    out_dir = opt.prepare_out(out)
    if dry_run.requested():
        played = [pt for pt in plan.points if pt.refused is None]
        shown = dry_run.Plan("sweep").add("variant", plan.variant)
        for d in dims:
            shown.add(d.key, ", ".join(str(v) for v in d.values))
        if played:
            shown.add("seats", dry_run.seats_text(played[0].spec.seats))
        shown.add("points", f"{len(plan.points)}"
                  + (f", {len(plan.points) - len(played)} refused by the rules"
                     if len(played) < len(plan.points) else ""))
        shown.add("games", f"{games:,} per point, {plan.total:,} in all")
        shown.add("seed", dry_run.seed_text(seed))
        if out_dir is not None:
            shown.add("out", out_dir)
        dry_run.show(shown.timed([dry_run.Work(games, pt.spec.seats,
                                               int(pt.spec.rules["players"]))
                                  for pt in played], workers, backend))
        return
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None else None)
    keep = keeper("sweep", out_dir, saved, seed, stages)
    report = on_backend(backend, workers, scheduler, opt.show_progress(progress), plan.total,
                        lambda cb, where: play_sweep(plan, seed, workers=workers, backend=where,
                                                     on_batch=cb, keep=keep))
    text = report.summary()
    summary = report.to_dict()
    click.echo(report.to_json() if fmt == "json" else text)
    if out_dir is not None:
        from unosim.api import write_sweep_files
        from unosim.output import report_files

        with report_files(out_dir, keep, "sweep", report.partial):
            written = write_sweep_files(report.result, summary, text, out_dir)
        click.echo(f"wrote {len(written)} files to {out_dir}: {', '.join(written)}", err=True)
    finish(keep, report.partial, "sweep", f"{report.result.cmp.games:,} of "
           f"{report.result.games:,} games per point")
