"""The progress bar on stderr, shared by every long command: games done, ETA and,
for plain runs, the running estimate of seat 0's win rate. Ctrl-C and SIGTERM set
the run's stop request, which the backend reads between tasks (unosim/interrupt.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def with_progress(show: bool, total: int, job: Callable[..., Any],
                  with_totals: bool = False, unit: str = "games") -> Any:
    """Run ``job(on_batch)`` (``job(on_batch, on_totals)`` with ``with_totals``) with a
    progress bar on stderr when ``show``, counting ``unit`` (games or matches)."""
    from unosim.interrupt import StopSignals

    with StopSignals():
        return _with_progress_bar(show, total, job, with_totals, unit)


def on_backend(name: str, workers: int | None, scheduler: str | None, show: bool,
               total: int, job: Callable[[Any, Any], Any], unit: str = "games") -> Any:
    """Open the backend the options name, run ``job(on_batch, backend)`` under the
    progress bar, and close the backend however the job ends."""
    from unosim.runs.inputs import open_backend

    where = open_backend(name, workers, scheduler)

    def closing(cb: Any) -> Any:
        try:
            return job(cb, where)
        finally:
            where.close()  # still under the run's signal handling: a stop is noted

    return with_progress(show, total, closing, unit=unit)


def _ignore(n: int) -> None:
    """The batch callback without a bar."""


def _with_progress_bar(show: bool, total: int, job: Callable[..., Any], with_totals: bool,
                       unit: str) -> Any:
    if not show:
        return job(_ignore, None) if with_totals else job(_ignore)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from unosim.compiler.compiling import listening
    from unosim.interrupt import saying
    from unosim.runs.compile_notice import compiled, notice
    from unosim.studies.run.play import seat0_half_width

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(unit, total=total)

        def compiling(path: str, event: str, seconds: float | None) -> None:
            """The compile phase shows on the bar instead of a frozen 0/N."""
            if event == "start":
                bar.console.print(notice(path), markup=False, highlight=False)
                bar.update(task, description=f"compiling the engine ({path})")
            else:
                bar.console.print(compiled(seconds or 0.0, path), markup=False, highlight=False)
                bar.update(task, description=unit)

        def totals(agg: Any) -> None:
            rate = agg.wins[0] / agg.games
            half = seat0_half_width(agg)
            bar.update(task, description=f"seat 0 wins {100 * rate:.2f}% ± {100 * half:.2f}")

        def advance(n: int) -> None:
            bar.advance(task, n)

        def say(line: str) -> None:
            bar.console.print(line, markup=False, highlight=False)

        with listening(compiling), saying(say):
            return job(advance, totals) if with_totals else job(advance)
