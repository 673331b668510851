"""The study driver: what every study does around its own play, written once.

A study is its tasks, how a finished task merges into its totals and how a result
is made of them (:class:`Study`). :func:`drive` owns the rest, as pgx's
``Env.step`` owns terminal and illegal states before calling ``_step``: the
backend (this machine's threads by default), the keep (a checkpoint's finished
tasks are skipped, each newly finished one noted), the progress callback and the
stop request. A stop leaves the finished tasks merged and the study makes its
partial result from them; a stop before anything finished has nothing to show
and raises :class:`~unosim.runs.stopping.Stopped` (the command says
"interrupted").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from unosim.runs import clock, stopping
from unosim.runs.backend import Backend, LocalBackend, Progress, Task, run_tasks
from unosim.runs.stopping import Stopped, StopRequest
from unosim.strategies.plugins import PluginError


@dataclass
class Outcome:
    """How a study's play ended: cut short by a stop, the seconds it played here,
    and the workers of the backend it played on."""

    stopped: bool
    elapsed_s: float
    workers: int


class Study:
    """One study as the driver plays it; subclasses fill in the parts below.

    ``task`` is a module-level function (Dask ships it to its workers by name);
    ``stage`` names the study's part of a checkpoint.
    """

    stage = "study"
    task: Callable[..., Any]
    #: the study's play time goes into the checkpoint beside its progress (under
    #: ``<stage>.elapsed_s``), and a resumed study's ``Outcome.elapsed_s`` counts the
    #: play time of every session, so its speed is that of the games it reports
    keeps_time = False

    def prepare(self, backend: Backend) -> None:
        """Checks and compiles before play, knowing the backend (batch sizes)."""

    def check(self, progress: Progress) -> None:
        """A kept progress that does not fit this study's options: ValueError."""

    def step(self, backend: Backend) -> int:
        """Games (deals, matches) a task holds; kept with the progress on resuming."""
        raise NotImplementedError

    def fresh(self) -> Any:
        """Empty totals."""
        raise NotImplementedError

    def tasks(self, step: int) -> Iterable[Task]:
        """The keyed tasks, every one of them (the finished ones are skipped)."""
        raise NotImplementedError

    def merge(self, totals: Any, part: Any) -> bool | None:
        """Fold a finished task into ``totals``; True ends the study there."""
        totals.merge(part)
        return None

    def units(self, part: Any) -> int:
        """What a finished task adds to the progress bar."""
        return 0

    def units_done(self, progress: Progress) -> int:
        """What the finished tasks of a kept progress add to the progress bar (a
        resumed study's bar starts there)."""
        return 0

    def played(self, totals: Any) -> bool:
        """Whether ``totals`` hold anything to report."""
        return bool(totals.games)

    def result(self, totals: Any, outcome: Outcome) -> Any:
        raise NotImplementedError


class StopOnFailure:
    """The stop request a study's tasks read: the command's (Ctrl-C, SIGTERM), or a
    file of the play that could not be written (the checkpoint or the per-game
    records on a full disk: ``keep.failed``), which stops the play the same way,
    keeping what finished, and leaves the command's own request as it was."""

    def __init__(self, outer: StopRequest, keep: Any) -> None:
        self.outer = outer
        self.keep = keep

    @property
    def requested(self) -> bool:
        return self.outer.requested or getattr(self.keep, "failed", None) is not None

    @property
    def merged(self) -> int:  # tasks merged in this process, counted on the command's
        return self.outer.merged

    @merged.setter
    def merged(self, n: int) -> None:
        self.outer.merged = n


def drive(study: Study, backend: Backend | None = None, workers: int | None = None,
          on_batch: Callable[[int], None] | None = None, keep: Any = None,
          stop: StopRequest | None = None) -> Any:
    """Play ``study`` on ``backend`` and return its result (see the module's text).
    ``keep`` (a ``checkpoints.Keeper``) holds what an interrupted run finished under
    ``study.stage`` and is told of every finished task; ``stop`` defaults to the
    current stop request."""
    backend = backend if backend is not None else LocalBackend(workers)
    study.prepare(backend)
    progress = keep.stage(study.stage) if keep is not None else None
    clock_key = f"{study.stage}.elapsed_s"
    before = (float(keep.stages.get(clock_key, 0.0))
              if study.keeps_time and progress is not None else 0.0)
    if progress is not None:
        try:
            study.check(progress)
        except (ValueError, TypeError, AttributeError) as e:
            raise keep.refuse(str(e)) from None
        if on_batch is not None:  # the bar of a resumed study starts where it stopped
            on_batch(study.units_done(progress))
    else:
        progress = Progress(study.step(backend), study.fresh())
    totals = progress.totals

    def merge(part: Any) -> bool | None:
        return study.merge(totals, part)

    def tick(part: Any) -> None:
        if on_batch is not None:
            on_batch(study.units(part))

    def note(p: Progress) -> None:
        if study.keeps_time:  # the play time of the games the progress holds
            keep.stages[clock_key] = before + clock.now() - t0
        keep.note(study.stage, p)

    t0 = clock.now()  # play time: the time suspended by Ctrl-Z left out
    try:
        stopped = run_tasks(backend, study.task, study.tasks(progress.step), merge, tick,
                            progress, None if keep is None else note,
                            StopOnFailure(stop if stop is not None else stopping.current(),
                                          keep))
    except PluginError as e:
        # a strategy failed in play: the tasks finished before it still make a
        # (partial) result, which the command may show beside the error
        if study.played(totals):
            e.partial = study.result(totals, Outcome(True, clock.now() - t0,
                                                     backend.workers))
        raise
    if stopped and not study.played(totals):
        raise Stopped
    return study.result(totals, Outcome(stopped, before + clock.now() - t0,
                                        backend.workers))
