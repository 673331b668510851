"""``unosim tournament``: strategies head to head, every seat played equally often."""

from __future__ import annotations

import sys

import click

from unosim import interrupt
from unosim import options as opt
from unosim.progress import on_backend


@click.command(short_help="Strategies head to head, every seat played equally often.")
@click.argument("names", nargs=-1, required=True, metavar="STRATEGY...",
                shell_complete=opt.complete_strategy)
@opt.players
@opt.games
@opt.variant
@opt.rule
@click.option("--seating", type=click.Choice(["rotations", "permutations"]),
              default="rotations", show_default=True,
              help="Lineups: cyclic rotations of each table, or every seat order.")
@opt.play_options(out_dir=False)
def tournament(names: tuple[str, ...], players: int | None, games_text: str,
               variant: tuple[str, ...], rule: tuple[str, ...], seating: str,
               seed: int | None, workers: int | None, fmt: str,
               progress: bool | None, backend: str, scheduler: str | None) -> None:
    """Play STRATEGY... (built-ins, NAME:params, or plug-ins) against each other with the
    seats rotated so that every strategy plays every seat equally often; report win
    rate with its 95% interval, points per round, mean place or rank, head to head,
    and a ranking.

    A strategy may be listed more than once: each entry is its own entrant
    (random, random#2, ...). --format json lists the entrants in the order given,
    each with its rank; the table sorts them by rank."""
    from unosim.reports.tournament import render_json, render_tournament
    from unosim.reports.tournament import summarize_tournament as summarize
    from unosim.runs.variants import variant_label
    from unosim.strategies.registry import parse_strategy
    from unosim.studies.tournament import planned_games, run_tournament

    games = opt.parse_games(games_text)
    rules = opt.resolve_rules(variant, rule, players)
    strats = [parse_strategy(x) for x in names]
    opt.check_scheduler(scheduler, backend)
    seed = opt.pick_seed(seed, announce=True)
    name = variant_label(variant)
    total = planned_games(len(strats), rules["players"], seating, games)
    result = on_backend(backend, workers, scheduler, opt.show_progress(progress), total,
                        lambda cb, where: run_tournament(rules, strats, games, seed, seating,
                                                         workers, on_batch=cb, variant=name,
                                                         backend=where))
    s = summarize(result)
    click.echo(render_json(s) if fmt == "json" else render_tournament(s))
    if result.partial:
        click.echo(f"unosim: interrupted after {s['games_per_lineup']:,} of "
                   f"{result.games_per_lineup:,} games per lineup; the report above covers "
                   "the finished ones (the same deals in every lineup)", err=True)
        sys.exit(interrupt.exit_code())
