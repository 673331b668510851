"""``unosim compile``: build every kernel ahead of time (for images, CI, clusters),
so that no later command waits for the compiler."""

from __future__ import annotations

import sys
import time

import click

from unosim import dry_run, interrupt
from unosim import options as opt
from unosim.errors import UnosimError


@click.command("compile")
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("--clean", is_flag=True,
              help="First remove the engines that other versions of unosim compiled into "
                   "the cache folder (an upgrade leaves its old one behind); this "
                   "version's is kept.")
@opt.dry_run
def compile(paths: tuple[str, ...], clean: bool) -> None:
    """Compile the engine for this machine ahead of time: every path, or the PATHs
    named (rounds, rounds/param, rounds/search, matches, matches/param,
    matches/search, plug-ins). A path already compiled is left as it is."""
    from unosim.runs.compile_notice import PATHS
    from unosim.runs.prebuild import compile_paths

    unknown = [p for p in paths if p not in PATHS]
    if unknown:
        raise UnosimError(f"unknown path {unknown[0]!r}; the paths are: {', '.join(PATHS)}")
    todo = list(paths) or list(PATHS)
    if clean:
        _clean(dry_run.requested())
    if dry_run.requested():
        _plan(todo)
        return
    t0 = time.perf_counter()
    ready: list[str] = []  # compiled now or before
    current: list[str] = []

    def report(path: str, event: str, seconds: float | None) -> None:
        if event == "start":
            current[:] = [path]
        elif event in ("cached", "done"):
            ready.append(path)
        i = todo.index(path) + 1 if path in todo else 0
        head = f"[{i}/{len(todo)}] {path:<15}"
        if event == "cached":
            click.echo(f"{head} already compiled")
        elif event == "skipped":
            click.echo(f"{head} skipped: the example plug-in file is not installed")
        elif event == "start":
            click.echo(f"{head} compiling ({PATHS[path]})...", nl=False)
        else:
            click.echo(f" {seconds:.0f} s")

    try:
        n = compile_paths(todo, report)
    except (KeyboardInterrupt, Exception):
        # a stop inside Numba's compiler may surface as its error (see cli.main)
        if interrupt.last_signal is None:
            raise
        # what Numba had cached stays (it writes each file whole); a path counts as
        # compiled only once its marker is written, after its last kernel
        click.echo("")
        when = f"during {current[-1]}" if current else "before its first path"
        click.echo(f"unosim: compile stopped (PARTIAL) {when}: {len(ready)} of {len(todo)} "
                   "paths are compiled and kept; `unosim compile` again compiles the rest",
                   err=True)
        sys.exit(interrupt.exit_code())
    click.echo(f"unosim compile: {n} of {len(todo)} paths compiled in "
               f"{time.perf_counter() - t0:.0f} s; the rest were compiled already")


def _clean(dry: bool) -> None:
    """--clean: remove (or, with --dry-run, list) the other engines' folders."""
    import os
    from pathlib import Path

    from unosim.compiler import old_engines

    old = old_engines.find(Path(os.environ["NUMBA_CACHE_DIR"]))
    if old is None:
        click.echo(f"unosim compile --clean: nothing removed: NUMBA_CACHE_DIR is set to "
                   f"{os.environ['NUMBA_CACHE_DIR']}, a folder unosim does not manage")
        return
    size = old_engines.megabytes(old.size)
    where = old.current.parent

    def engines(n: int) -> str:
        return f"{n} engine{'' if n == 1 else 's'} of other unosim versions ({size}) from {where}"

    if dry:
        click.echo(f"would remove {engines(len(old.folders))}")
        return
    click.echo(f"removed {engines(old_engines.remove(old))}")


def _plan(todo: list[str]) -> None:
    """--dry-run: the paths that would compile (those Numba's cache lacks), and how
    long that takes."""
    from unosim.runs.compile_notice import ESTIMATE_S, PATHS, is_compiled

    missing = [p for p in todo if not is_compiled(p)]
    plan = dry_run.Plan("compile")
    for p in todo:
        plan.add(p, ("to compile: " if p in missing else "already compiled: ") + PATHS[p])
    lo = sum(ESTIMATE_S[p][0] for p in missing)
    hi = sum(ESTIMATE_S[p][1] for p in missing)
    plan.time = f"about {lo} to {hi} s" if missing else "nothing to compile"
    dry_run.show(plan)
