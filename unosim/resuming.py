"""``--resume DIR`` for the study commands (compare, sweep, atlas, skill, tournament).

A study run with ``--out DIR`` keeps ``DIR/checkpoint.json`` up to date while it
plays (``studies/checkpoints.py``): its options as given, with the seed made
explicit, and what each stage finished. Ctrl-C or SIGTERM stops it between tasks:
the partial result is printed and written (marked PARTIAL), the checkpoint is
written, and the exit status is 130 (SIGINT) or 143 (SIGTERM). The same command
with ``--resume DIR`` plays only the rest; since every game is seeded from (seed,
index) and the totals are integer sums, the result equals an uninterrupted run's.
A finished study removes its checkpoint.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from unosim import interrupt
from unosim.errors import UnosimError

#: what a resumed command still takes from its command line; the rest comes from the
#: checkpoint
KEPT = ("resume_dir", "workers", "fmt", "progress", "backend", "scheduler")


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
        if param.name in kept:
            continue
        if ctx.get_parameter_source(param.name) == ParameterSource.COMMANDLINE:
            name = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
            allowed = ", ".join(f"--{k}" for k in ("workers", "format", "progress", "backend",
                                                   "scheduler") if f"--{k}" in _opts(ctx, kept))
            raise UnosimError(f"--resume takes the settings from its checkpoint; drop {name} "
                              f"(only {allowed} go with --resume)")


def _opts(ctx: click.Context, kept: tuple[str, ...]) -> set[str]:
    return {o for p in ctx.command.params if p.name in kept for o in p.opts}


def start(ctx: click.Context, command: str, params: dict[str, Any],
          body: Callable[..., Any]) -> Any:
    """Run ``body(**params, saved=..., stages=...)``: the options as given, or, with
    ``--resume DIR``, those of the checkpoint in DIR (with the stages it finished)."""
    from unosim.studies import checkpoints

    resume_dir = params.pop("resume_dir", None)
    if resume_dir is None:
        out = params.get("out")
        if out is not None and checkpoints.exists(Path(out)):
            raise UnosimError(f"--out {out} holds an unfinished {command}: finish it with "
                              f"`unosim {command} --resume {out}`, or delete "
                              f"{Path(out) / 'checkpoint.json'}")
        return body(**params, saved=dict(params), stages=None)
    refuse_with_resume(ctx)
    saved, stages = checkpoints.load(resume_dir, command)
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in saved.items()}
    for k in KEPT[1:]:
        if k in params:
            values[k] = params[k]
    values["out"] = str(resume_dir)
    return body(**values, saved=saved, stages=stages)


def keeper(command: str, out_dir: Path | None, saved: dict[str, Any], seed: int,
           stages: dict[str, Any] | None) -> Any:
    """The study's checkpoint keeper (writes nothing without --out)."""
    from unosim.commands.resume import checkpoint_seconds
    from unosim.studies.checkpoints import Keeper

    params = {k: list(v) if isinstance(v, tuple) else v for k, v in saved.items()
              if k not in KEPT}
    params["seed"] = seed
    return Keeper(out_dir, command, params, stages, checkpoint_seconds())


def finish(keep: Any, partial: bool, command: str, done: str) -> None:
    """After the report: a finished study drops its checkpoint; a stopped one writes
    it, says how to finish it and exits 130 (SIGINT) or 143 (SIGTERM)."""
    if not partial:
        keep.remove()
        return
    keep.save()
    if keep.folder is not None:
        where = (f"checkpoint in {keep.folder / 'checkpoint.json'}; finish it with "
                 f"`unosim {command} --resume {keep.folder}`")
    else:
        where = "run with --out DIR to keep a checkpoint that --resume can finish"
    click.echo(f"unosim: interrupted after {done}; the report above covers the finished "
               f"ones; {where}", err=True)
    sys.exit(interrupt.exit_code())
