"""``unosim replay``: one game of a run, move by move (the replay room,
studies/replay/, plays it again; this command reads the options and prints)."""

from __future__ import annotations

import warnings
from pathlib import Path

import click

from unosim import dry_run
from unosim import options as opt
from unosim.errors import UnosimError


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False), metavar="[FILE]")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="The run's seed (printed by `unosim run`); not with FILE, which holds it.")
@click.option("--game", type=click.IntRange(0, 10**12 - 1), default=None,
              help="The game's index in the run, 0-based (the `game` column of --save-games, "
                   "the round of a file of `unosim play`; there the last by default).")
@opt.players
@opt.variant
@opt.rule
@opt.strategy
@opt.seat
@opt.fmt
@opt.strategy_file
@opt.dry_run
@click.pass_context
def replay(ctx: click.Context, file: str | None, seed: int | None, game: int | None,
           players: int | None, variant: tuple[str, ...], rule: tuple[str, ...],
           strategy: str, seat: tuple[str, ...], fmt: str) -> None:
    """Print game K of the run with seed S turn by turn (hands, top card, colour, move,
    effect): exactly the game `unosim run` played, given the same rules and seats. Or
    replay game K of FILE, a file of --save-games, from what it holds alone (--variant
    NAME picks one of a comparison's variants) and check that it ends as its row; or
    round K of a file `unosim play` saved, with your moves as you played them."""
    from unosim import api

    if dry_run.requested():
        _plan(ctx, file, seed, game, players, variant, rule, strategy, seat)
        return
    if file is not None:
        _refuse_held(ctx, Path(file))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", api.OtherVersionWarning)
            try:
                report = api.replay(file, game=game, variant=variant)
            finally:
                _tell(caught)
    else:
        _need_game_and_seed(seed, game)
        report = api.replay(seed=seed, game=game, players=players, variant=variant,
                            rule=rule, strategy=strategy, seat=seat)
    click.echo(report.to_json() if fmt == "json" else report.summary())


def _need_game_and_seed(seed: int | None, game: int | None) -> None:
    if game is None:
        raise UnosimError("replay needs --game K, the game's index in the run (0-based)")
    if seed is None:
        raise UnosimError("replay needs --seed S (the run's seed), or a file of "
                          "--save-games: `unosim replay FILE --game K`")


def _plan(ctx: click.Context, file: str | None, seed: int | None, game: int | None,
          players: int | None, variant: tuple[str, ...], rule: tuple[str, ...],
          strategy: str, seat: tuple[str, ...]) -> None:
    """--dry-run: the game that would be replayed, its file or its seed and table
    checked as the replay checks them."""
    from unosim.runs import inputs, tiers
    from unosim.runs.variants import variant_label

    plan = dry_run.Plan("replay")
    if file is not None:
        from unosim.api import check_file
        from unosim.runs.played_file import is_played_file

        path = Path(file)
        _refuse_held(ctx, path)
        played = is_played_file(path)
        if not played:
            check_file(path)
            if game is None:
                raise UnosimError("replay FILE needs --game K, the game's index in the file")
        kind = "a file of unosim play" if played else "a file of --save-games"
        plan.add("file", f"{file} ({kind})")
        plan.add("game", "the last" if game is None else game)
    else:
        _need_game_and_seed(seed, game)
        rules = inputs.resolve_rules(variant, rule, players)
        seats = inputs.seats_for(rules["players"], strategy, seat)
        plan.add("variant", dry_run.rules_text(variant_label(variant), rules))
        plan.add("seats", dry_run.seats_text(seats))
        plan.add("game", f"{game} of the run with seed {seed}")
    from unosim.runs.compile_notice import is_compiled

    missing = [p for p in (tiers.GAME.name, tiers.GAME_STRATEGIES.name) if not is_compiled(p)]
    plan.time = "under a second" + dry_run.compile_note(missing)
    dry_run.show(plan)


def _tell(caught: list[warnings.WarningMessage]) -> None:
    """A file another version of unosim wrote is said on stderr, in unosim's words;
    any other warning is shown as Python shows it."""
    from unosim.api import OtherVersionWarning

    for w in caught:
        if issubclass(w.category, OtherVersionWarning):
            click.echo(f"unosim: warning: {w.message}", err=True)
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno, w.file, w.line)


#: the options a file of --save-games answers itself (with FILE they are refused)
_FILE_HOLDS = ("seed", "players", "rule", "strategy", "seat", "strategy_file")


def _refuse_held(ctx: click.Context, path: Path) -> None:
    given = [f"--{n.replace('_', '-')}" for n in _FILE_HOLDS
             if ctx.get_parameter_source(n) is click.core.ParameterSource.COMMANDLINE]
    if given:
        raise UnosimError(f"{path} holds the seed, rules and seats of its games: drop "
                          f"{', '.join(given)}")
