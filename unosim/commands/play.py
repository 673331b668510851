"""``unosim play``: sit at a table in the terminal, seat 0, against built-in or Python
strategies, under any preset and rule values (Textual, the extra ``play``); single
rounds or a match, each finished round saved for ``unosim replay``; ``--serve`` serves
the same table in a browser (textual-serve)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from unosim import options as opt
from unosim.errors import UnosimError

#: the strategy of every opponent seat --seat does not name
DEFAULT_OPPONENT = "offensive"
EXTRA = "unosim play needs the extra 'play': pip install 'unosim[play]'"
#: --match without POINTS: the target of the rules (target_score)
RULES_TARGET = "target_score"


class _Points(click.ParamType):
    """``--match``'s POINTS: 1 to the highest target, or none (the rules' target)."""

    name = "points"

    def convert(self, value: Any, param: Any, ctx: Any) -> int | str:
        if value == RULES_TARGET:
            return value
        try:
            points = int(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a whole number of points", param, ctx)
        if not 1 <= points <= opt.MAX_TARGET:
            self.fail(f"{points} is not within 1..{opt.MAX_TARGET}", param, ctx)
        return points

#: the options --serve passes on to each table it serves, not to itself
_SERVE_ONLY = ("serve", "port")


@click.command(short_help="Play rounds or a match in the terminal against the strategies.")
@opt.players
@opt.variant
@opt.rule
@opt.seat
@opt.seed
@opt.hint_rollouts
@opt.training
@opt.strategy_file
@click.option("--match", "match", type=_Points(), is_flag=False, flag_value=RULES_TARGET,
              default=None, metavar="[POINTS]",
              help="Play a match: rounds until the rules' scoring ends it at POINTS "
                   "(default: the rule target_score, 500 in the official rules).")
@click.option("--save", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Save each finished round in FILE, for `unosim replay FILE` (default: "
                   "unosim-play-SEED.json in this folder, never overwriting another).")
@click.option("--call-uno", "call_uno", is_flag=True,
              help="Call UNO yourself: press c (or !) before the move that leaves you one "
                   "card; without the call it counts as forgotten, and the rules "
                   "uno_catch_prob and uno_penalty decide whether you are caught and "
                   "what it costs.")
@click.option("--serve", is_flag=True,
              help="Serve the table in a browser on localhost instead (each page opened "
                   "is a new table with these options).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="With --serve: the port.")
@click.pass_context
def play(ctx: click.Context, players: int | None, variant: tuple[str, ...],
         rule: tuple[str, ...], seat: tuple[str, ...], seed: int | None,
         hint_rollouts: int | None, training: bool, match: int | str | None,
         save: str | None, call_uno: bool, serve: bool, port: int) -> None:
    """Play UNO at a table in the terminal: you sit in seat 0, the opponents are
    strategies (offensive in every seat that --seat N=NAME, N from 1, does not name).
    Your hand, the top card and colour, the direction, every seat's card count (and
    score, in a match) and the last moves are shown; the legal moves are numbered
    from 1: press a digit (or the arrows and Enter) to play one. After a round, n deals
    the next one (the same seed deals the same rounds) and q quits. Each finished
    round is saved; `unosim replay FILE` shows it move by move. h shows the search
    player's estimate beside each move, r reviews a round played, and with --training
    u takes your last decision back (within the round, in a match); with --call-uno
    c calls UNO with your next move."""
    try:
        import textual  # noqa: F401
    except ImportError:
        raise UnosimError(EXTRA) from None
    if ctx.get_parameter_source("port") is click.core.ParameterSource.COMMANDLINE \
            and not serve:
        raise UnosimError("--port goes with --serve")
    if serve:
        serve_table(ctx, port)
        return
    rules_target = match_rule(match, rule)
    table, labels, title = make_table(players, variant, (*rule, *rules_target), seat, seed,
                                      match is not None, call_uno)
    path = save_path(save, table.seed)
    table.saver = saver_for(path, variant, ctx)
    from unosim.play.app import PlayApp

    if hint_rollouts is not None:
        table.hint_rollouts = hint_rollouts
    app = PlayApp(table, labels, title, training=training, saved_to=str(path))
    failure = app.run()
    if app.return_code == 2:
        raise UnosimError(str(failure))
    done = [r.index for r in table.played]
    if done:
        click.echo(f"{len(done)} round{'s' if len(done) != 1 else ''} saved in {path}: "
                   f"unosim replay {path} --game {done[-1]}")
    if not table.over and table.moves:
        click.echo(f"round {table.round} was left unfinished: it is not saved")


def match_rule(match: int | str | None, rule: tuple[str, ...]) -> tuple[str, ...]:
    """``--match POINTS`` as a ``--rule`` (refused beside a --rule target_score)."""
    if match is None or match == RULES_TARGET:
        return ()
    if any(r.partition("=")[0].strip() == "target_score" for r in rule):
        raise UnosimError("--match POINTS and --rule target_score both set the target: "
                          "give it once")
    return (f"target_score={match}",)


def make_table(players: int | None, variant: tuple[str, ...], rule: tuple[str, ...],
               seat: tuple[str, ...], seed: int | None, match: bool = False,
               call_uno: bool = False) -> tuple:
    """The table the options describe, its seats' labels and a title line."""
    from unosim.play.table import Table
    from unosim.runs.variants import variant_label

    rules = opt.resolve_rules(variant, rule, players)
    n = int(rules["players"])
    seats = opt.seats_for(n, DEFAULT_OPPONENT, seat)
    if any(item.partition("=")[0].strip() == "0" for item in seat):
        raise UnosimError("--seat 0: seat 0 is yours; give the opponents seats 1.."
                          f"{n - 1}")
    seed = opt.pick_seed(seed, announce=False)
    labels = ["you", *(s.label() for s in seats[1:])]
    kind = " · a match" if match else ""
    return (Table(rules, seats[1:], seed, match, call_uno=call_uno), labels,
            f"{variant_label(variant)} · {n} players{kind}")


def save_path(save: str | None, seed: int) -> Path:
    """``--save FILE`` (its folder must exist), or a new file here named after the seed."""
    if save is not None:
        path = Path(save)
        if not path.parent.is_dir():
            raise UnosimError(f"--save {save}: no folder {path.parent}")
        from unosim.runs.played_file import is_played_file

        if path.exists() and not is_played_file(path):
            raise UnosimError(f"--save {save}: the file exists and is not a file of "
                              "unosim play; give another name")
        return path
    path = Path(f"unosim-play-{seed}.json")
    k = 2
    while path.exists():
        path = Path(f"unosim-play-{seed}-{k}.json")
        k += 1
    return path


def saver_for(path: Path, variant: tuple[str, ...], ctx: click.Context
              ) -> Callable[[Any], None]:
    """What saves the table's rounds in ``path`` as each one ends."""
    import shlex

    from unosim.runs import played_file
    from unosim.runs.variants import variant_label

    command = shlex.join(["unosim", "play", *served_args(ctx)])
    label = variant_label(variant)
    return lambda sitting: played_file.save(path, sitting, label, command)


def served_args(ctx: click.Context) -> list[str]:
    """The options given on the command line, as arguments again (without --serve
    and --port): what each served table is started with."""
    out: list[str] = []
    for p in ctx.command.params:
        if p.name in _SERVE_ONLY or not isinstance(p, click.Option) or \
                ctx.get_parameter_source(p.name) is not click.core.ParameterSource.COMMANDLINE:
            continue
        flag = max(p.opts, key=len)
        value = ctx.params[p.name]
        if p.name == "match" and value == RULES_TARGET:
            out.append(flag)
        elif p.is_flag:
            out.extend([flag] if value else [])
        elif p.multiple:
            for v in value:
                out.extend([flag, str(v)])
        else:
            out.extend([flag, str(value)])
    return out


def serve_table(ctx: click.Context, port: int) -> None:
    """Serve ``unosim play`` with the same options on localhost (textual-serve)."""
    import shlex
    import sys

    from unosim.play.serve import serve

    command = shlex.join([sys.executable, "-m", "unosim", "play", *served_args(ctx)])
    serve(command, port)
