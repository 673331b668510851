"""``unosim ladder``: every strategy rated on one scale (Bradley-Terry heads-up, Luce's
rule at more players) from games on the same deals, with 95% intervals."""

from __future__ import annotations

from typing import Any

import click

from unosim import dry_run
from unosim import options as opt
from unosim.progress import on_backend
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(short_help="Every strategy rated on one scale, with 95% intervals.")
@click.argument("names", nargs=-1, metavar="[STRATEGY...]",
                shell_complete=opt.complete_strategy)
@opt.lineup_options()
@opt.play_options(out_dir="ladder.json, ladder.csv, the chart as PNG and SVG and "
                          "ladder.html")
@resume_option("ladder")
@click.pass_context
def ladder(ctx: click.Context, **params: Any) -> None:
    """Rate STRATEGY... (built-ins, NAME:params, or plug-ins loaded with
    --strategy-file; default: every built-in, the search and the card counter
    included, then every plug-in loaded) on one scale, with 95% intervals.

    Heads-up (the default; --players N for more) every pair plays both seat orders
    on the same deals and the ratings are a Bradley-Terry fit, random = 0 when it
    plays. At 3 or more players each strategy holds one seat against the field
    (--field, default random) in the others, its seat rotated, and the ratings are
    Luce's choice rule on who wins, the field = 0. Ratings are on the Elo scale (400
    x log10 odds); intervals by bootstrap over blocks of deals. --games is the games
    in all, split equally over the lineups. Ctrl-C or SIGTERM stops between blocks
    with the ladder so far; with --out DIR a checkpoint is kept there, and --resume
    DIR finishes it."""
    start(ctx, "ladder", params, _ladder)


def _ladder(names: tuple[str, ...], field: str | None, players: int | None,
            games_text: str, variant: tuple[str, ...], rule: tuple[str, ...],
            seed: int | None, workers: int | None, fmt: str, out: str | None,
            progress: bool | None, backend: str, scheduler: str | None,
            saved: dict[str, Any], stages: dict[str, Any] | None) -> None:
    from unosim.api import ladder_entrants, ladder_plan, play_ladder, write_ladder_files
    from unosim.runs.variants import variant_label

    games = inputs.parse_games(games_text)
    rules = inputs.resolve_rules(variant, rule, 2 if players is None else players)
    against = inputs.parse_field(field) if field is not None else None
    strats, against = ladder_entrants(names, int(rules["players"]), against)
    lineups, per, total = ladder_plan(rules, strats, games, against)
    out_dir = opt.prepare_out(out)
    inputs.check_backend(backend, workers, scheduler)
    name = variant_label(variant)
    if dry_run.requested():
        p = int(rules["players"])
        works = [dry_run.Work(per, seats, p) for seats in lineups]
        dry_run.show(dry_run.Plan("ladder")
                     .add("variant", dry_run.rules_text(name, rules))
                     .add("entrants", ", ".join(s.label() for s in strats)
                          + (f"; each against {against.label()} in the other seats"
                             if against is not None else "; every pair, both seat orders"))
                     .add("games", f"{total:,} in all ({len(lineups):,} lineups x {per:,} deals)")
                     .add("seed", dry_run.seed_text(seed))
                     .add("out", out_dir or "none (no --out)")
                     .timed(works, workers, backend))
        return
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None else None)
    keep = keeper("ladder", out_dir, saved, seed, stages)
    report = on_backend(backend, workers, scheduler, opt.show_progress(progress), total,
                        lambda cb, where: play_ladder(rules, strats, games, seed,
                                                      field=against, variant=name,
                                                      backend=where, workers=workers,
                                                      on_batch=cb, keep=keep))
    text = report.summary()
    click.echo(report.to_json() if fmt == "json" else text)
    if out_dir is not None:
        from unosim.output import report_files

        with report_files(out_dir, keep, "ladder", report.partial):
            write_ladder_files(report, out_dir, text)
    s = report.to_dict()
    finish(keep, report.partial, "ladder", f"{s['deals_per_lineup']:,} of "
           f"{s['deals_requested']:,} deals per lineup")
