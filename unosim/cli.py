"""The ``unosim`` command line: the click group, which loads each command from its
module in unosim/commands/ when it is called, and ``main``, the one guarded entry of
every command.

No command shows a traceback: bad input is one line ``unosim: error: ...`` with exit
code 2; an unexpected failure is one line too (``unosim: error: internal error: ...``,
exit code 1; ``UNOSIM_DEBUG=1`` prints the traceback first); Ctrl-C is one line with
what was kept, exit code 130 (143 after SIGTERM). docs/reliability.md lists them.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from typing import Any

import click

from unosim import __version__
from unosim.common import WriteFailed, forget_written
from unosim.errors import UnosimError, did_you_mean
from unosim.interrupt import StopNow
from unosim.runs.stopping import Stopped

#: the commands whose module holds several of them (or is not named after its command):
#: command name -> "module:function" under unosim/commands/
EXTRA = {
    "variants": "info:variants",
    "rules": "info:rules",
    "strategies": "info:strategies",
}


def _find_commands() -> dict[str, str]:
    """Every command, found without importing one: each module ``NAME.py`` of
    unosim/commands/ holds the command ``NAME``, the function of that name (its module
    loads on first use, so `unosim variants` never imports the engine), except the
    modules of :data:`EXTRA` and the helpers named ``_NAME.py``. A new command is one
    new module there."""
    import pkgutil

    from unosim import commands

    extra_modules = {target.partition(":")[0] for target in EXTRA.values()}
    found = {mod.name: f"{mod.name}:{mod.name}" for mod in pkgutil.iter_modules(commands.__path__)
             if not mod.ispkg and not mod.name.startswith("_") and mod.name not in extra_modules}
    return dict(sorted({**found, **EXTRA}.items()))


#: command name -> "module:function" under unosim/commands/
COMMANDS = _find_commands()


#: what the machine, not unosim, refused: a full disk or quota, a read-only mount, no
#: permission, a failing device (one line, exit code 2, as bad input)
ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM,
                      errno.EIO, errno.EFBIG}


class UnosimGroup(click.Group):
    """The command group: ``run`` is the default subcommand (``unosim --games 1e6``
    works), commands load lazily, and a mistyped command gets a "did you mean"."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        cmd = getattr(importlib.import_module(f"unosim.commands.{module}"), attr)
        cmd.name = name
        return cmd

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list:
        """Command names, and at the start of the line also the options of ``run``
        (``unosim --var<TAB>``), since ``unosim --variant ...`` is ``unosim run``."""
        items = super().shell_complete(ctx, incomplete)
        if incomplete.startswith("-"):
            run = self.get_command(ctx, "run")
            sub = run.make_context("run", [], parent=ctx, resilient_parsing=True)
            seen = {i.value for i in items}
            items += [i for i in run.shell_complete(sub, incomplete) if i.value not in seen]
        return items

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        top_level = ("--help", "-h", "--version")
        if args and args[0] not in COMMANDS and args[0] not in top_level:
            if not args[0].startswith("-"):
                raise UnosimError(f"no such command {args[0]!r}"
                                  + (did_you_mean(args[0], COMMANDS)
                                     or f"; commands: {', '.join(sorted(COMMANDS))}"))
            args = ["run", *args]
        elif not args and not ctx.resilient_parsing:
            # a bare `unosim` runs; while the shell completes (resilient parsing) an
            # empty line stays empty, so `unosim com<TAB>` completes command names
            args = ["run"]
        return super().parse_args(ctx, args)


@click.group(cls=UnosimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="unosim")
def cli() -> None:
    """Monte Carlo simulator for UNO and its house rules.

    Without a subcommand, runs a simulation (`unosim run`), e.g.
    `unosim --variant stacking --games 1e6`.

    Documentation (every rule, metric and command):
    https://unosim.github.io/unosim/; the rule keys: `unosim rules --keys`.
    """


#: exit status of bad input (a usage error, a rule, a file, the machine refusing a file)
EXIT_BAD_INPUT = 2
#: exit status of an unexpected failure inside unosim: a bug, said in one line too
EXIT_INTERNAL = 1


def main(argv: list[str] | None = None) -> None:
    """Entry point, the one guarded entry of every command: bad input is one line
    ``unosim: error: ...`` and exit code 2; any other exception is one line too
    (exit code 1, ``UNOSIM_DEBUG=1`` adds the traceback); Ctrl-C anywhere is one line
    saying what is kept and how to resume, exit code 130 (143 after SIGTERM)."""
    import signal
    import threading

    from unosim import interrupt
    from unosim.resuming import locked_out_dirs

    interrupt.reset()
    interrupt.watch_compiles()
    forget_written()
    locked_out_dirs(forget=True)
    old: dict[int, object] = {}
    if threading.current_thread() is threading.main_thread():
        # outside a run's batches (start-up, compiling, writing) a stop raises
        # KeyboardInterrupt, as Python's Ctrl-C does, and is noted (see below)
        for sig in (signal.SIGINT, signal.SIGTERM):
            old[sig] = signal.signal(sig, interrupt.terminate_as_interrupt)
    hook = sys.unraisablehook
    sys.unraisablehook = _unraisable
    try:
        code = _guarded(argv)
    finally:
        from unosim.resuming import release_out_locks

        release_out_locks()
        sys.unraisablehook = hook
        for sig, handler in old.items():
            if argv is None and sig == signal.SIGINT:
                # the process is about to exit: a Ctrl-C now would raise inside
                # Python's shutdown (a traceback, then the command's own status)
                handler = signal.SIG_IGN
            signal.signal(sig, handler)  # type: ignore[arg-type]
    sys.exit(code)


def _unraisable(info: Any) -> None:
    """A stop that lands in a finalizer is swallowed there by Python, which prints its
    traceback; it is noted (``interrupt.last_signal``) and the command ends as
    interrupted, so the traceback says nothing the last line does not."""
    if isinstance(info.exc_value, KeyboardInterrupt | StopNow):
        return
    sys.__unraisablehook__(info)


def _invoke(argv: list[str] | None) -> Any:
    """Run the command line, as ``click``'s ``main`` does, but leaving every exception
    to :func:`_guarded` (click turns Ctrl-C into its own "Aborted!")."""
    args = sys.argv[1:] if argv is None else list(argv)
    cli._main_shell_completion({}, "unosim", None)  # exits when the shell completes
    try:
        with cli.make_context("unosim", args) as ctx:
            return cli.invoke(ctx)
    except click.exceptions.Exit as e:  # --help, --version
        return e.exit_code


def _line(text: str) -> str:
    """One line: the message's line breaks as spaces (its other spaces as they are,
    since a value such as ``'  '`` is quoted in it)."""
    return str(text).replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def _guarded(argv: list[str] | None) -> int:
    """The exit status of the command line, every failure said in one line."""
    from unosim import interrupt

    try:
        rv = _invoke(argv)
    except SystemExit as e:
        if e.code == interrupt.EXIT_INTERRUPTED:
            return interrupt.exit_code()  # a partial result: 130, or 143 after SIGTERM
        raise
    except interrupt.StopNow:
        click.echo("unosim: stopped at once by a second signal; the report of this run is "
                   "lost, but a checkpoint kept in --out stays (finish it with --resume)",
                   err=True)
        return interrupt.exit_code()
    except Stopped:
        # a run stopped before any task finished: the words of api.Interrupted
        kept = _kept()
        click.echo(f"unosim: interrupted: stopped before a batch finished: nothing "
                   f"{'new ' if kept else ''}to keep{kept}", err=True)
        return interrupt.exit_code()
    except (KeyboardInterrupt, click.exceptions.Abort):
        # a signal outside a run's batches (start-up, compiling, writing)
        click.echo(f"unosim: interrupted{_kept()}", err=True)
        return interrupt.exit_code()
    except click.ClickException as e:
        click.echo(f"unosim: error: {_line(e.format_message())}", err=True)
        return EXIT_BAD_INPUT
    except UnosimError as e:
        click.echo(f"unosim: error: {_line(str(e))}", err=True)
        return EXIT_BAD_INPUT
    except WriteFailed as e:  # a file no command step explained further
        from unosim.output import cannot_write

        click.echo(f"unosim: error: {_line(str(cannot_write(e)))}", err=True)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # the reader of stdout went away (`unosim rules | head`): nothing to say to it
        _quiet_stdout()
        return EXIT_INTERNAL
    except OSError as e:
        if e.errno not in ENVIRONMENT_ERRNOS:
            return _internal(e)
        # the machine refused (a full disk, a read-only mount, no permission): one line
        where = f"{e.filename}: " if e.filename else ""
        click.echo(f"unosim: error: {where}{os.strerror(e.errno)}", err=True)
        return EXIT_BAD_INPUT
    except Exception as e:  # noqa: BLE001 - the one guard: any failure is one line
        # a stop that lands inside Numba's compiler (in a callback from LLVM, where the
        # KeyboardInterrupt is swallowed) surfaces as the compiler's own error
        if interrupt.last_signal is not None:
            click.echo(f"unosim: interrupted{_kept()}", err=True)
            return interrupt.exit_code()
        return _internal(e)
    except BaseException as e:  # noqa: BLE001 - GeneratorExit and the like, raised by code
        return _internal(e)
    if interrupt.last_signal is not None:
        # a stop swallowed where Python cannot raise it (a finalizer): the command ran
        # to its end, so what it printed and wrote is complete
        click.echo("unosim: interrupted as the command ended; its output above and its "
                   "files are complete", err=True)
        return interrupt.exit_code()
    return rv if isinstance(rv, int) else 0


def _internal(e: BaseException) -> int:
    """An exception no check expected: one line naming it (the traceback with
    ``UNOSIM_DEBUG=1``), exit code 1."""
    if os.environ.get("UNOSIM_DEBUG", "") not in ("", "0"):
        import traceback

        traceback.print_exception(e)
    what = _line(f"{type(e).__name__}: {e}" if str(e) else type(e).__name__)
    if len(what) > 400:
        what = what[:400] + " ..."
    hint = ("" if os.environ.get("UNOSIM_DEBUG", "") not in ("", "0") else
            "; run it again with UNOSIM_DEBUG=1 for the traceback")
    click.echo(f"unosim: error: internal error: {what} (this is a bug in unosim: please "
               f"report it with the command line{hint})", err=True)
    return EXIT_INTERNAL


def _kept() -> str:
    """What a stop outside a run's batches leaves: the checkpoint of an ``--out`` this
    command was using, and the command that finishes it."""
    from unosim.resuming import locked_out_dirs

    try:
        from unosim.studies import checkpoints

        for folder in locked_out_dirs():
            held = checkpoints.unfinished(folder)
            if held is not None:
                held = held or "run"
                return (f"; the checkpoint in {folder / 'checkpoint.json'} stays: finish it "
                        f"with `unosim {held} --resume {folder}`")
    except Exception:  # noqa: BLE001 - the line must still be printed
        pass
    return ""


def _quiet_stdout() -> None:
    """After a closed pipe: stdout goes nowhere, so Python's exit flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
