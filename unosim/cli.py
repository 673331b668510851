"""The ``unosim`` command line: the click group, which loads each command from its
module in unosim/commands/ when it is called, and ``main``, which turns bad input into
one line and exit code 2.

Bad input never shows a traceback: every usage or rule error is printed as one
line, ``unosim: error: ...``, with exit code 2.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys

import click

from unosim import __version__
from unosim.common import WriteFailed, forget_written
from unosim.errors import UnosimError, did_you_mean
from unosim.runs.stopping import Stopped

#: command name -> "module:function" under unosim/commands/ (loaded on first use, so
#: `unosim variants` never imports the engine); a new command adds one line here
COMMANDS = {
    "run": "run:run",
    "compare": "compare:compare",
    "tournament": "tournament:tournament",
    "skill": "skill:skill",
    "sweep": "sweep:sweep",
    "atlas": "atlas:atlas",
    "variants": "info:variants",
    "rules": "info:rules",
    "strategies": "info:strategies",
    "bench": "bench:bench",
    "compile": "compile:compile_command",
    "replay": "replay:replay_command",
    "selfcheck": "selfcheck:selfcheck",
    "tune": "tune:tune",
    "settle": "settle:settle",
    "play": "play:play",
}


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


def main(argv: list[str] | None = None) -> None:
    """Entry point: one-line errors with exit code 2, never a traceback for bad input;
    130 after Ctrl-C, 143 after SIGTERM (a run prints its partial report first)."""
    import signal
    import threading

    from unosim import interrupt

    interrupt.reset()
    interrupt.watch_compiles()
    forget_written()
    old: dict[int, object] = {}
    if threading.current_thread() is threading.main_thread():
        # outside a run's batches (start-up, compiling, writing) a stop raises
        # KeyboardInterrupt, as Python's Ctrl-C does, and is noted (see below)
        for sig in (signal.SIGINT, signal.SIGTERM):
            old[sig] = signal.signal(sig, interrupt.terminate_as_interrupt)
    try:
        rv = cli.main(args=argv, prog_name="unosim", standalone_mode=False)
    except SystemExit as e:
        if e.code == interrupt.EXIT_INTERRUPTED:
            sys.exit(interrupt.exit_code())  # a partial result: 130, or 143 after SIGTERM
        raise
    except interrupt.StopNow:
        click.echo("unosim: stopped at once by a second signal; the report of this run is "
                   "lost, but a checkpoint kept in --out stays (finish it with --resume)",
                   err=True)
        sys.exit(interrupt.exit_code())
    except click.exceptions.Abort:
        click.echo("unosim: aborted", err=True)
        sys.exit(interrupt.exit_code())
    except click.ClickException as e:
        click.echo(f"unosim: error: {e.format_message()}".replace("\n", " "), err=True)
        sys.exit(2)
    except UnosimError as e:
        click.echo(f"unosim: error: {e}".replace("\n", " "), err=True)
        sys.exit(2)
    except WriteFailed as e:  # a file no command step explained further
        from unosim.output import cannot_write

        click.echo(f"unosim: error: {cannot_write(e)}".replace("\n", " "), err=True)
        sys.exit(2)
    except OSError as e:
        # the machine refused (a full disk, a read-only mount, no permission): one line
        if e.errno not in ENVIRONMENT_ERRNOS:
            raise
        where = f"{e.filename}: " if e.filename else ""
        click.echo(f"unosim: error: {where}{os.strerror(e.errno)}", err=True)
        sys.exit(2)
    except (KeyboardInterrupt, Stopped):  # a signal outside a run, or a run stopped empty
        click.echo("unosim: interrupted", err=True)
        sys.exit(interrupt.exit_code())
    except Exception:
        # a stop that lands inside Numba's compiler (in a callback from LLVM, where the
        # KeyboardInterrupt is swallowed) surfaces as the compiler's own error
        if interrupt.last_signal is None:
            raise
        click.echo("unosim: interrupted", err=True)
        sys.exit(interrupt.exit_code())
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]
    sys.exit(rv if isinstance(rv, int) else 0)
