"""``unosim tournament``: strategies head to head, every seat played equally often."""

from __future__ import annotations

from typing import Any

import click

from unosim import dry_run
from unosim import options as opt
from unosim.errors import UnosimError
from unosim.progress import on_backend
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(short_help="Strategies head to head, every seat played equally often.")
@click.argument("names", nargs=-1, metavar="STRATEGY...",
                shell_complete=opt.complete_strategy)
@opt.lineup_options()
@click.option("--seating", type=click.Choice(["rotations", "permutations"]),
              default="rotations", show_default=True,
              help="Lineups: cyclic rotations of each table, or every seat order (not with "
                   "--field).")
@opt.play_options(out_dir="tournament.json and tournament.csv")
@resume_option("tournament")
@click.pass_context
def tournament(ctx: click.Context, **params: Any) -> None:
    """Play STRATEGY... (built-ins, NAME:params, or plug-ins) against each other with the
    seats rotated so that every strategy plays every seat equally often; report win
    rate with its 95% interval, points per round, mean place or rank, head to head,
    and a ranking.

    A strategy may be listed more than once: each entry is its own entrant
    (random, random#2, ...). With --field F each STRATEGY instead plays one seat
    against F in all the others (e.g. `tournament attacker --field random
    --players 6`: one against five), its seat rotated through every seat, every
    strategy on the same deals; F's own figures are the row 'field: F'.

    Win rate: the share of the rounds an entrant played that it won (that one of
    its seats won); its fair share is the share of the seats it holds, 1/players
    for a strategy against a field. --format json lists the entrants in the order
    given (the field last), each with its rank; the table sorts them by rank.
    Ctrl-C or SIGTERM stops between blocks of games with the partial result (the same
    deals in every lineup); with --out DIR a checkpoint is kept there, and --resume
    DIR finishes it."""
    start(ctx, "tournament", params, _tournament)


def _tournament(names: tuple[str, ...], field: str | None, players: int | None,
                games_text: str, variant: tuple[str, ...], rule: tuple[str, ...],
                seating: str, seed: int | None, workers: int | None, fmt: str,
                out: str | None, progress: bool | None, backend: str, scheduler: str | None,
                saved: dict[str, Any], stages: dict[str, Any] | None) -> None:
    from unosim.api import play_tournament, tournament_games
    from unosim.common import write_text_atomic
    from unosim.runs.variants import variant_label
    from unosim.strategies.registry import parse_strategy

    if not names:  # not required by click: --resume takes them from its checkpoint
        raise UnosimError("tournament needs at least one STRATEGY, e.g. `unosim tournament "
                          "offensive defensive random`")
    games = inputs.parse_games(games_text)
    rules = inputs.resolve_rules(variant, rule, players)
    strats = [parse_strategy(x) for x in names]
    against = inputs.parse_field(field) if field is not None else None
    inputs.check_scheduler(scheduler, backend)
    total = tournament_games(len(strats), rules, seating, games, against is not None)
    name = variant_label(variant)
    out_dir = opt.prepare_out(out)
    if dry_run.requested():
        inputs.check_backend(backend, workers, scheduler)
        p = int(rules["players"])
        works = ([dry_run.Work(total // len(strats), [s, *[against] * (p - 1)], p)
                  for s in strats] if against is not None else [dry_run.Work(total, strats, p)])
        dry_run.show(dry_run.Plan("tournament")
                     .add("variant", dry_run.rules_text(name, rules))
                     .add("entrants", ", ".join(s.label() for s in strats)
                          + (f"; each against {against.label()} in the other seats"
                             if against is not None else ""))
                     .add("seating", seating)
                     .add("games", f"{total:,} rounds in all")
                     .add("seed", dry_run.seed_text(seed))
                     .add("out", out_dir or "none (no --out)")
                     .timed(works, workers, backend))
        return
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None else None)
    keep = keeper("tournament", out_dir, saved, seed, stages)
    report = on_backend(
        backend, workers, scheduler, opt.show_progress(progress), total,
        lambda cb, where: play_tournament(rules, strats, games, seed, seating=seating,
                                          field=against, variant=name,
                                          backend=where, workers=workers, on_batch=cb,
                                          keep=keep))
    s = report.to_dict()
    click.echo(report.to_json() if fmt == "json" else report.summary())
    if out_dir is not None:
        from unosim.output import report_files

        with report_files(out_dir, keep, "tournament", report.partial):
            write_text_atomic(out_dir / "tournament.json", report.to_json() + "\n")
            write_text_atomic(out_dir / "tournament.csv", report.to_frame().to_csv(index=False))
    finish(keep, report.partial, "tournament",
           f"{s['games_per_lineup']:,} of {report.result.games_per_lineup:,} games per lineup "
           "(the same deals in every lineup)")
