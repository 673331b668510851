"""``unosim compile``: build every kernel ahead of time (for images, CI, clusters),
so that no later command waits for the compiler."""

from __future__ import annotations

import time

import click

from unosim.errors import UnosimError


@click.command("compile")
@click.argument("paths", nargs=-1, metavar="[PATH]...")
def compile_command(paths: tuple[str, ...]) -> None:
    """Compile the engine for this machine ahead of time: every path, or the PATHs
    named (rounds, rounds/param, rounds/search, matches, matches/param,
    matches/search, plug-ins). A path already compiled is left as it is."""
    from unosim.simulate.compiling import PATHS
    from unosim.simulate.prebuild import compile_paths

    unknown = [p for p in paths if p not in PATHS]
    if unknown:
        raise UnosimError(f"unknown path {unknown[0]!r}; the paths are: {', '.join(PATHS)}")
    todo = list(paths) or list(PATHS)
    t0 = time.perf_counter()

    def report(path: str, event: str, seconds: float | None) -> None:
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

    n = compile_paths(todo, report)
    click.echo(f"unosim compile: {n} of {len(todo)} paths compiled in "
               f"{time.perf_counter() - t0:.0f} s; the rest were compiled already")
