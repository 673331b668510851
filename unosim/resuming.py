"""``--out DIR`` and ``--resume DIR`` for every command that plays games (run,
compare, sweep, atlas, skill, tournament, settle): one keeper, one resume path,
one list of options a resume takes and one epilogue.

A command run with ``--out DIR`` keeps ``DIR/checkpoint.json`` up to date while it
plays (``runs/checkpoint.py``; after the first task, then at most every
``UNOSIM_CHECKPOINT_SECONDS``, default 5 s, and always when it is stopped): its
options as given, with the seed made explicit, and what each stage finished.
Ctrl-C or SIGTERM stops it between tasks: the partial result is printed and
written (marked PARTIAL), the checkpoint is written, and the exit status is 130
(SIGINT) or 143 (SIGTERM). The same command with ``--resume DIR`` plays only the
rest; since every game is seeded from (seed, index) and the totals are integer
sums, the result equals an uninterrupted run's.
A finished study removes its checkpoint; a crash or ``kill -9`` loses at most the
games played since the last checkpoint.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from unosim import interrupt
from unosim.common import WriteFailed
from unosim.errors import UnosimError

#: what a resumed command still takes from its command line; the rest comes from the
#: checkpoint
KEPT = ("resume_dir", "workers", "fmt", "progress", "backend", "scheduler")
CHECKPOINT_SECONDS = 5.0


def checkpoint_seconds() -> float:
    """How often a checkpoint is written while a command plays (UNOSIM_CHECKPOINT_SECONDS)."""
    from unosim.runs.runner import env_number

    return env_number("UNOSIM_CHECKPOINT_SECONDS", CHECKPOINT_SECONDS)


def resume_option(command: str) -> Callable[[Any], Any]:
    return click.option(
        "--resume", "resume_dir", type=click.Path(file_okay=False), default=None,
        metavar="DIR",
        help=f"Finish the interrupted {command} whose checkpoint is in DIR (kept there by "
             "--out DIR): same options and seed; takes only --workers, --format, "
             "--progress, --backend and --scheduler.")


def refuse_with_resume(ctx: click.Context, kept: tuple[str, ...] = KEPT) -> None:
    """``--resume`` takes the settings from the checkpoint: an option given with it is
    an error, not silently ignored."""
    from click.core import ParameterSource

    for param in ctx.command.params:
        if param.name in kept or param.name == "dry_run":  # a dry run of the resume
            continue
        if ctx.get_parameter_source(param.name) == ParameterSource.COMMANDLINE:
            name = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
            allowed = ", ".join(f"--{k}" for k in ("workers", "format", "progress", "backend",
                                                   "scheduler") if f"--{k}" in _opts(ctx, kept))
            raise UnosimError(f"--resume takes the settings from its checkpoint; drop {name} "
                              f"(only {allowed} go with --resume)")


def _opts(ctx: click.Context, kept: tuple[str, ...]) -> set[str]:
    return {o for p in ctx.command.params if p.name in kept for o in p.opts}


# ---------------------------------------------------------------- one command per folder

#: the --out folders this process holds: resolved path -> (the path given, descriptor)
_locks: dict[Path, tuple[Path, int]] = {}
#: every --out folder this command held, as given (kept after release, for the last line)
_held: list[Path] = []


def lock_out(folder: Path, option: str = "--out") -> None:
    """Hold ``folder`` for this command until it ends (:func:`release_out_locks`): an
    exclusive ``flock`` on the folder itself, so two commands started at the same
    instant into one ``--out`` cannot both write there (the second is refused in one
    line, before it plays). The lock goes with the process: a crash or ``kill -9``
    leaves nothing to clean up. A file system without locks is not refused."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock
        return
    key = folder.resolve()
    if key in _locks:
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # not a folder (yet): the command's own checks say what is wrong
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise UnosimError(f"{option} {folder}: another unosim command is using this folder "
                          "right now; wait for it to end, or give another folder") from None
    except OSError:
        os.close(fd)  # locks not supported there (some network file systems)
        return
    _locks[key] = (folder, fd)
    _held.append(folder)
    ctx = click.get_current_context(silent=True)
    if ctx is not None:  # also when the command runs without main (click's test runner)
        ctx.find_root().call_on_close(release_out_locks)


def locked_out_dirs(forget: bool = False) -> list[Path]:
    """The ``--out`` folders this command held, as given (``forget``: start afresh)."""
    held = list(_held)
    if forget:
        _held.clear()
    return held


def release_out_locks() -> None:
    """Let other commands use the folders again (the CLI calls this when a command ends)."""
    while _locks:
        _, (_, fd) = _locks.popitem()
        try:
            os.close(fd)
        except OSError:
            pass


def start(ctx: click.Context, command: str, params: dict[str, Any],
          body: Callable[..., Any]) -> Any:
    """Run ``body(**params, saved=..., stages=...)``: the options as given, or, with
    ``--resume DIR``, those of the checkpoint in DIR (with the stages it finished).
    The folder is held first, so a command still playing into it is told from one
    that stopped."""
    from unosim.studies import checkpoints

    resume_dir = params.pop("resume_dir", None)
    if resume_dir is not None and Path(resume_dir).is_dir():
        lock_out(Path(resume_dir), "--resume")
    if resume_dir is None:
        out = params.get("out")
        if out is not None and Path(out).is_dir():
            lock_out(Path(out))
        held = checkpoints.unfinished(Path(out)) if out is not None else None
        if held is not None:
            held = held or command
            raise UnosimError(f"--out {out} holds an unfinished {held}: finish it with "
                              f"`unosim {held} --resume {out}`, or delete "
                              f"{Path(out) / 'checkpoint.json'}")
        return body(**params, saved=dict(params), stages=None)
    refuse_with_resume(ctx)
    saved, stages = checkpoints.load(resume_dir, command)
    label = f"--resume {resume_dir}"
    _load_plugins(saved, command, label)
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in saved.items()
              if k != "plugins"}
    for k in KEPT[1:]:
        if k in params:
            values[k] = params[k]
    values["out"] = str(resume_dir)
    try:
        return body(**values, saved=saved, stages=stages)
    except UnosimError as e:
        if str(e).startswith(label):
            raise
        raise UnosimError(f"{label}: the saved {command} is no longer valid ({e})") from None


def _plugin_files() -> list[dict[str, Any]]:
    """The plug-ins loaded from files (--strategy-file): name, ``PATH:NAME`` and the
    file's SHA-256, so a resumed command loads the same code or refuses."""
    from unosim.runs.tables import seats_of
    from unosim.strategies.registry import PLUGINS, parse_strategy

    files = [n for n, p in sorted(PLUGINS.items()) if not p.source.startswith("<python>")]
    return [{"name": n, **seats_of([parse_strategy(n)])[0]["plugin"]} for n in files]


def _load_plugins(saved: dict[str, Any], command: str, label: str) -> None:
    """Load the plug-ins a checkpoint names, refusing a changed or missing file."""
    from unosim.runs.tables import load_plugin_seats

    try:
        load_plugin_seats([{"name": p["name"], "plugin": p} for p in saved.get("plugins", [])],
                          f"since the {command} started, so it cannot be finished exactly")
    except (UnosimError, KeyError, TypeError) as e:
        raise UnosimError(f"{label}: the saved {command} is no longer valid ({e})") from None


def keeper(command: str, out_dir: Path | None, saved: dict[str, Any], seed: int,
           stages: dict[str, Any] | None) -> Any:
    """The study's checkpoint keeper (writes nothing without --out)."""
    from unosim.studies.checkpoints import Keeper

    params = {k: list(v) if isinstance(v, tuple) else v for k, v in saved.items()
              if k not in KEPT}
    params["seed"] = seed
    params["plugins"] = _plugin_files()
    return Keeper(out_dir, command, params, stages, checkpoint_seconds())


def finish(keep: Any, partial: bool, command: str, done: str) -> None:
    """After the report: a finished study drops its checkpoint; a stopped one writes
    it, says how to finish it and exits 130 (SIGINT) or 143 (SIGTERM); one stopped
    because its checkpoint could not be written ends with that error (exit 2)."""
    if not partial:
        keep.remove()
        return
    if keep.failed is not None:
        from unosim.output import cannot_write, checkpoint_note

        raise cannot_write(keep.failed, f"stopped there: the report above covers {done}",
                           checkpoint_note(keep, command, complete=False))
    try:
        keep.save()
    except WriteFailed as e:
        from unosim.output import cannot_write, checkpoint_note

        keep.failed = e
        raise cannot_write(e, f"interrupted after {done}; the report above covers the "
                           "finished ones", checkpoint_note(keep, command, complete=False)
                           ) from None
    if keep.folder is not None:
        where = (f"checkpoint in {keep.folder / 'checkpoint.json'}; finish it with "
                 f"`unosim {command} --resume {keep.folder}`")
    else:
        where = "run with --out DIR to keep a checkpoint that --resume can finish"
    click.echo(f"unosim: interrupted after {done}; the report above covers the finished "
               f"ones; {where}", err=True)
    sys.exit(interrupt.exit_code())
