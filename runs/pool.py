"""Python strategies on every core: the tasks of a table with a Python seat, played
by worker processes of this machine.

A Python strategy runs in the interpreter, so a table with one plays its games one
after another on one thread, whatever ``--workers`` says; the compiled seats' threads
cannot help. Here the study's tasks go to ``workers`` processes instead (spawned, each
with one Numba thread; the engine comes from the cache, the strategy file is loaded
again as on a Dask worker: runs/tables.py). Every game is seeded from (seed, game
index) alone and the results come back in task order, so the figures, the records and
a checkpoint are those of one process. A stop (Ctrl-C, SIGTERM) is the parent's: the
workers ignore SIGINT, no new task starts, and the tasks running are dropped (their
workers ended), as a Dask task is.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from unosim.runs.stopping import StopRequest

#: a pool pays for its start (a second or two a process, the engine loaded from the
#: cache) only when each process gets at least this many tasks
TASKS_PER_WORKER = 2
#: how often a wait for a task looks at the stop request, in seconds
POLL_S = 0.1


def _start_worker() -> None:
    """A worker's set-up: the stop signals are the parent's to act on, and Numba
    plays on one thread (the pool already uses every core)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from unosim.runs import clock

    clock.handle_suspend()  # its tasks' seconds leave out the time suspended by Ctrl-Z
    import numba

    import unosim  # noqa: F401 - sets Numba's cache folder

    numba.set_num_threads(1)


def poolable(tables: list[Any]) -> bool:
    """Whether the tables' games may go to worker processes: a Python strategy plays a
    seat (else the compiled threads already use every core), no compiled plug-in does
    (its loop would compile again in every process) and every seat can be rebuilt
    there (a strategy from a file, not one registered from Python)."""
    from unosim.runs.tables import check_portable
    from unosim.strategies.registry import PLUGIN, PYTHON

    kinds = {s.kind for t in tables for s in t.seats}
    if PYTHON not in kinds or PLUGIN in kinds:
        return False
    try:
        for t in tables:
            check_portable(t.seats)
    except Exception:  # noqa: BLE001 - not portable: play here
        return False
    return True


class ProcessPool:
    """Worker processes for ``map``: started on first use, kept for the backend's next
    map (a tuning's trials), ended by ``close`` (the backend's close, or when the
    backend is gone, so nothing stays running after the play, in a notebook either)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing

            # spawned, never forked: a fork after Numba's threads started can hang
            self._pool = ProcessPoolExecutor(self.workers,
                                             multiprocessing.get_context("spawn"),
                                             initializer=_start_worker)
        return self._pool

    def map(self, fn: Callable[..., Any], tasks: list[tuple[int, tuple[Any, ...]]],
            stop: StopRequest | None) -> Iterator[tuple[int, Any]]:
        """(key, result) of each task in the order given, at most two tasks a process
        queued ahead; returns early (the caller's ``cut``) once ``stop`` is requested,
        dropping the tasks not finished (``close(at_once=True)`` ends their workers)."""
        pool = self._executor()
        ahead: deque[tuple[int, Future[Any]]] = deque()
        todo = iter(tasks)

        def stopped() -> bool:
            return stop is not None and stop.requested

        try:
            while True:
                while len(ahead) < 2 * self.workers and not stopped():
                    nxt = next(todo, None)
                    if nxt is None:
                        break
                    ahead.append((nxt[0], pool.submit(fn, *nxt[1])))
                if not ahead:
                    return
                key, head = ahead[0]
                while True:
                    if stopped():
                        return
                    try:
                        result = head.result(timeout=POLL_S)
                        break
                    except FutureTimeout:
                        continue
                ahead.popleft()
                yield key, result
        finally:
            for _, f in ahead:
                f.cancel()

    def close(self, at_once: bool = False) -> None:
        """End the workers: once their tasks are done, or ``at_once`` (a stop: the
        tasks still running would be dropped anyway, so they are not waited for)."""
        if self._pool is None:
            return
        if at_once:
            # ProcessPoolExecutor has no public way to end busy workers before 3.14
            for proc in list(getattr(self._pool, "_processes", {}).values()):
                proc.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None


def pool_size(workers: int, tasks: int) -> int:
    """The processes worth starting for ``tasks`` tasks on ``workers`` cores (1: none)."""
    return max(1, min(workers, tasks // TASKS_PER_WORKER, os.cpu_count() or 1))
