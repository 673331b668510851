"""``unosim atlas``: every preset against official at each player count, on one page."""

from __future__ import annotations

from typing import Any

import click

from unosim import dry_run
from unosim import options as opt
from unosim.progress import on_backend
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(short_help="Every preset against official at each player count, one page.")
@click.option("--players", default="2,4,6", show_default=True, metavar="VALUES",
              help="Player counts (2..10): 2,4,6 or 2..8.")
@opt.games
@click.option("--strategy", default="offensive", show_default=True, metavar="NAME",
              help="The strategy whose skill edge (one seat against random) is measured "
                   "under every preset; `none` leaves the skill edge out.")
@opt.play_options(out_dir="atlas.json, atlas.csv (a row per player count, preset and metric), "
                  "the charts as PNG and SVG and a self-contained atlas.html")
@resume_option("atlas")
@click.pass_context
def atlas(ctx: click.Context, **params: Any) -> None:
    """Every preset in configs/ against official at each player count, on the same deals:
    round length, seat balance, comeback, lead changes, first to UNO, winner points,
    cards drawn and the skill edge of --strategy, each as the paired difference from
    official with its 95% interval; ranked per metric with verdicts; atlas.html, CSV,
    JSON and the charts with --out. Ctrl-C or SIGTERM stops between batches with the
    player counts finished so far; with --out DIR a checkpoint is kept there, and
    --resume DIR finishes it."""
    start(ctx, "atlas", params, _atlas)


def _atlas(players: str, games_text: str, strategy: str, seed: int | None,
           workers: int | None, backend: str, scheduler: str | None, fmt: str,
           out: str | None, progress: bool | None, saved: dict[str, Any],
           stages: dict[str, Any] | None) -> None:
    from unosim.api import parse_values, plan_atlas, play_atlas

    games = inputs.parse_games(games_text)
    plan = plan_atlas(parse_values("players", players), games, strategy)
    inputs.check_backend(backend, workers, scheduler)
    out_dir = opt.prepare_out(out)
    if dry_run.requested():
        from unosim.strategies.registry import parse_strategy

        random = parse_strategy("random")
        works = [dry_run.Work(plan.planned(n) * len(plan.presets),
                              [plan.strategy or random, *[random] * (n - 1)], n)
                 for n in plan.players]
        shown = (dry_run.Plan("atlas")
                 .add("presets", f"{len(plan.presets)}, each against official")
                 .add("players", ", ".join(str(n) for n in plan.players))
                 .add("skill of", plan.strategy.label() if plan.strategy is not None
                      else "none (--strategy none)")
                 .add("games", f"{games:,} per preset and player count, {plan.total:,} "
                               "in all")
                 .add("seed", dry_run.seed_text(seed)))
        if out_dir is not None:
            shown.add("out", out_dir)
        dry_run.show(shown.timed(works, workers, backend))
        return
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None else None)
    keep = keeper("atlas", out_dir, saved, seed, stages)
    report = on_backend(backend, workers, scheduler, opt.show_progress(progress), plan.total,
                        lambda cb, where: play_atlas(plan, seed, workers=workers, backend=where,
                                                     on_batch=cb, keep=keep))
    text = report.summary()
    summary = report.to_dict()
    click.echo(report.to_json() if fmt == "json" else text)
    result = report.atlas
    if out_dir is not None:
        from unosim.api import write_atlas_files
        from unosim.output import report_files

        with report_files(out_dir, keep, "atlas", result.partial):
            written = write_atlas_files(result, summary, text, out_dir)
        click.echo(f"wrote {len(written)} files to {out_dir}: {', '.join(written)}", err=True)
    finish(keep, result.partial, "atlas", stopped_after(result))


def stopped_after(atlas: Any) -> str:
    """What a stopped atlas finished, as its report shows it: the whole player counts,
    and the games per preset of the one it stopped in."""
    whole = [a for a in atlas.by_players if not a.partial]
    cut = [a for a in atlas.by_players if a.partial]
    counts = f"{len(whole)} of {len(atlas.requested)} player counts"
    if not cut:
        return counts
    games = f"{cut[0].games:,} of {atlas.games:,} games per preset at {cut[0].players} players"
    return f"{counts} and {games}" if whole else games
