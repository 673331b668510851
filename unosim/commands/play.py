"""``unosim play``: sit at a table in the terminal, seat 0, against built-in or Python
strategies, under any preset and rule values (Textual, the extra ``play``); single
rounds or a match, each finished round saved for ``unosim replay``; ``--serve`` serves
the same table in a browser (textual-serve)."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from unosim import dry_run
from unosim import options as opt
from unosim.common import module_command
from unosim.errors import UnosimError
from unosim.interrupt import terminate_as_interrupt
from unosim.runs import inputs

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
        if not 1 <= points <= inputs.MAX_TARGET:
            self.fail(POINTS_RANGE.format(points), param, ctx)
        return points


POINTS_RANGE = "{} points: the points must be 1.." + str(inputs.MAX_TARGET)


class _PlayCommand(click.Command):
    """``--match`` takes its POINTS optionally, so click reads ``--match -5`` (and
    ``--match=-5``) as the option ``-5``: a negative number is refused as points."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for k, arg in enumerate(args):
            flag, eq, value = arg.partition("=")
            if flag == "--match" and not eq and k + 1 < len(args):
                value = args[k + 1]
            if flag == "--match" and re.fullmatch(r"-\d+", value):
                raise UnosimError(f"--match: {POINTS_RANGE.format(value)}")
        return super().parse_args(ctx, args)


#: the options --serve passes on to each table it serves, not to itself
_SERVE_ONLY = ("serve", "port")


#: the values of the options that do not reach the command (--strategy-file, which
#: loads the plug-ins as it is read), kept for ``served_args``
_UNEXPOSED = "unosim.play.unexposed"


def _kept(decorator: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """An option of options.py whose value the command does not receive (it acts as
    it is read), with its value kept all the same: the command line a saved file
    records and --serve repeats must name it."""

    def apply(f: Any) -> Any:
        f = decorator(f)
        option = f.__click_params__[-1]
        act = option.callback

        def keep(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
            ctx.meta.setdefault(_UNEXPOSED, {})[param.name] = value
            return act(ctx, param, value) if act else value

        option.callback = keep
        return f

    return apply


@click.command(cls=_PlayCommand,
               short_help="Play rounds or a match in the terminal against the strategies.")
@opt.players
@opt.variant
@opt.rule
@opt.seat
@opt.seed
@opt.hint_rollouts
@opt.training
@opt.dry_run
@_kept(opt.strategy_file)
@click.option("--match", "match", type=_Points(), is_flag=False, flag_value=RULES_TARGET,
              default=None, metavar="[POINTS]",
              help="Play a match: rounds until the rules' scoring ends it at POINTS "
                   "(default: the rule target_score, 500 in the official rules).")
@click.option("--save", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Save each finished round in FILE, for `unosim replay FILE` (default: "
                   "unosim-play-SEED.json in the folder $XDG_DATA_HOME/unosim/play, or "
                   "~/.local/share/unosim/play, never overwriting another).")
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
    rules_target = match_rule(match, rule)
    if save is not None:
        check_save(save)
    if dry_run.requested():
        _plan(players, variant, (*rule, *rules_target), seat, seed, match, save, serve, port)
        return
    if serve:
        import time

        from unosim.play.serve import saved_since

        check_table(players, variant, (*rule, *rules_target), seat)
        start = time.time()
        stopped = serve_table(ctx, port)
        if stopped is not None:
            where = saved_since(start, save, save_folder())
            saved = ("no table finished a round: none is saved" if where is None else
                     f"the tables' finished rounds are saved in {where}" +
                     (", a file per table" if save is None else ""))
            click.echo(f"unosim: the server stopped ({signal.Signals(stopped).name}); "
                       f"{saved}", err=True)
            raise SystemExit(128 + stopped)
        return
    from unosim.play.serve import SERVER_ENV, end_quickly, watch_server

    server = os.environ.pop(SERVER_ENV, None)
    served = server is not None and server.isdigit()
    table, labels, title = make_table(players, variant, (*rule, *rules_target), seat, seed,
                                      match is not None, call_uno)
    path = save_path(save, table.seed)
    table.saver = saver_for(path, variant, ctx)
    from unosim.play.app import PlayApp

    if hint_rollouts is not None:
        table.hint_rollouts = hint_rollouts
    app = PlayApp(table, labels, title, training=training, saved_to=str(path))
    if served:
        assert server is not None
        watch_server(int(server), lambda: path.unlink(missing_ok=True)
                     if save is None and not table.played else None)
    try:
        failure, stopped = run_app(app)
    finally:
        if save is None and not table.played:
            path.unlink(missing_ok=True)  # the name reserved (save_path), never used
    if app.return_code == 2:
        raise UnosimError(str(failure))
    done = [r.index for r in table.played]
    if done:
        click.echo(f"{len(done)} round{'s' if len(done) != 1 else ''} saved in {path}: "
                   f"unosim replay {path} --game {done[-1]}")
    if not table.over and table.moves:
        click.echo(f"round {table.round} was left unfinished: it is not saved")
    if stopped is not None:
        click.echo(f"unosim: stopped by {signal.Signals(stopped).name}", err=True)
    if served:  # its page gone: no teardown to wait for (serve.end_quickly)
        end_quickly(0 if stopped is None else 128 + stopped)
    if stopped is not None:
        raise SystemExit(128 + stopped)


def _plan(players: int | None, variant: tuple[str, ...], rule: tuple[str, ...],
          seat: tuple[str, ...], seed: int | None, match: int | str | None,
          save: str | None, serve: bool, port: int) -> None:
    """--dry-run: the table the options give, checked, and where its rounds go."""
    from unosim.runs import tiers
    from unosim.runs.variants import variant_label

    rules, seats = check_table(players, variant, rule, seat)
    plan = (dry_run.Plan("play")
            .add("variant", dry_run.rules_text(variant_label(variant), rules))
            .add("seats", "you in seat 0; " + dry_run.seats_text(seats[1:], 1).replace(
                " in every seat", " in every other seat"))
            .add("play", f"a match to {int(rules['target_score'])} points" if match is not None
                 else "rounds, one after another until you quit")
            .add("seed", dry_run.seed_text(seed))
            .add("saved to", save if save is not None else f"a new file in {save_folder()}"))
    if serve:
        plan.add("served", f"in a browser at http://localhost:{port}")
    paths = [p for p in (tiers.GAME.name, tiers.GAME_STRATEGIES.name)
             if not _compiled(p)]
    plan.time = "as long as you play" + dry_run.compile_note(paths)
    dry_run.show(plan)


def _compiled(path: str) -> bool:
    from unosim.runs.compile_notice import is_compiled

    return is_compiled(path)


def run_app(app: Any) -> tuple[Any, int | None]:
    """Run the app until it ends: (what it returned, the stop signal that ended it or
    None). SIGTERM, SIGHUP (the terminal closed) and SIGINT end it as q does, so the
    command still names the file of the rounds it finished."""
    import asyncio

    got: list[int] = []

    def stop(signum: int, frame: Any) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not running yet or any more: a stop as anywhere else
            terminate_as_interrupt(signum, frame)
            return
        got.append(signum)
        loop.call_soon_threadsafe(app.exit)

    stops = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    old = {s: signal.signal(s, stop) for s in stops}
    try:
        out = app.run()
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    return out, (got[0] if got else None)


def match_rule(match: int | str | None, rule: tuple[str, ...]) -> tuple[str, ...]:
    """``--match POINTS`` as a ``--rule`` (refused beside a --rule target_score)."""
    if match is None or match == RULES_TARGET:
        return ()
    if any(r.partition("=")[0].strip() == "target_score" for r in rule):
        raise UnosimError("--match POINTS and --rule target_score both set the target: "
                          "give it once")
    return (f"target_score={match}",)


def check_table(players: int | None, variant: tuple[str, ...], rule: tuple[str, ...],
                seat: tuple[str, ...]) -> tuple[Any, list[Any]]:
    """The rules and seats the options give, checked (no table is dealt yet)."""
    rules = inputs.resolve_rules(variant, rule, players)
    n = int(rules["players"])
    seats = inputs.seats_for(n, DEFAULT_OPPONENT, seat)
    if any(item.partition("=")[0].strip() == "0" for item in seat):
        raise UnosimError("--seat 0: seat 0 is yours; give the opponents seats 1.."
                          f"{n - 1}")
    return rules, seats


def make_table(players: int | None, variant: tuple[str, ...], rule: tuple[str, ...],
               seat: tuple[str, ...], seed: int | None, match: bool = False,
               call_uno: bool = False) -> tuple:
    """The table the options describe, its seats' labels and a title line."""
    from unosim.play.table import Table
    from unosim.runs.variants import variant_label

    rules, seats = check_table(players, variant, rule, seat)
    n = int(rules["players"])
    seed = inputs.pick_seed(seed)
    labels = ["you", *(s.label() for s in seats[1:])]
    kind = " · a match" if match else ""
    # dealt by the screen once it is drawn (it compiles the engine meanwhile if needed)
    return (Table(rules, seats[1:], seed, match, call_uno=call_uno, deal=False), labels,
            f"{variant_label(variant)} · {n} players{kind}")


def save_folder() -> Path:
    """Where rounds are saved without --save: a folder of the user's data
    ($XDG_DATA_HOME/unosim/play, else ~/.local/share/unosim/play), never the folder the
    command runs in, which in a clone of unosim is the repository."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "unosim" / "play"


def check_save(save: str) -> None:
    """``--save FILE``, checked before any table opens: its folder exists and takes a
    new file, and FILE is new or a file of ``unosim play`` (which it replaces)."""
    path = Path(save)
    if not path.parent.is_dir():
        raise UnosimError(f"--save {save}: no folder {path.parent}")
    from unosim.runs.played_file import is_played_file

    if path.exists() and not is_played_file(path):
        raise UnosimError(f"--save {save}: the file exists and is not a file of "
                          "unosim play; give another name")
    _check_writable(path.parent, f"--save {save}")


def _check_writable(folder: Path, what: str) -> None:
    import tempfile

    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".unosim-play-", suffix=".tmp")
    except OSError as e:
        raise UnosimError(f"{what}: cannot write in {folder} ({e.strerror or e})") from None
    os.close(fd)
    os.unlink(name)


def save_path(save: str | None, seed: int) -> Path:
    """``--save FILE`` (checked by ``check_save``), or a new file in ``save_folder()``
    named after the seed, made empty now: another table of the same seed, served
    beside this one, takes the next name (the command removes it if no round ends)."""
    if save is not None:
        return Path(save)
    folder = save_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UnosimError(f"cannot make the folder {folder} for the rounds played "
                          f"({e.strerror or e}): name a file with --save FILE") from None
    k = 1
    while True:
        path = folder / (f"unosim-play-{seed}.json" if k == 1 else
                         f"unosim-play-{seed}-{k}.json")
        try:
            with path.open("x"):
                return path
        except FileExistsError:
            k += 1
        except OSError as e:
            raise UnosimError(f"cannot save the rounds played in {folder} "
                              f"({e.strerror or e}): name a file with --save FILE") from None


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
        value = ctx.params[p.name] if p.expose_value else \
            ctx.meta.get(_UNEXPOSED, {}).get(p.name, ())
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


def serve_table(ctx: click.Context, port: int) -> int | None:
    """Serve ``unosim play`` with the same options on localhost (textual-serve), until
    a signal, which it returns."""

    from unosim.play.serve import serve

    return serve(module_command("unosim", "play", *served_args(ctx)), port)
