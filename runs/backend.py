"""Where games run: this machine's cores or a Dask cluster, behind one interface.

A study is a sequence of tasks; a task is a call ``fn(*args)`` of a module-level
function that plays a range of game indices and returns mergeable totals. Every game
is seeded from (seed, game index) alone and the totals are integer sums, so a task
gives the same result on any machine, thread count or worker, and merging in any
order gives the same totals: a task retried after a worker died changes nothing.
``run_tasks`` is the one map / merge / cancel loop every study uses, so a new study
runs on Dask with no code of its own for it. Dask is an optional extra
(``pip install 'unosim[dask]'``); nothing of it is imported on the local path.
"""

from __future__ import annotations

import itertools
import logging
import os
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numba

from unosim.errors import UnosimError
from unosim.runs import stopping
from unosim.runs.stopping import StopRequest

#: games one Dask task plays at most (a task of a searching table holds fewer)
DEFAULT_TASK_GAMES = 1 << 18
#: a Dask task holds at most this many local batches, so a searching table's tasks
#: stay short enough for progress and for a stop to answer quickly
TASK_BATCHES = 16


def max_workers() -> int:
    return int(numba.config.NUMBA_NUM_THREADS)


def check_workers(workers: int | None) -> int:
    """The threads a run uses: ``workers``, or every core when None; a one-line
    error outside 1..cores."""
    n = max_workers() if workers is None else workers
    if not 1 <= n <= max_workers():
        raise UnosimError(f"--workers must be within 1..{max_workers()}, got {workers}")
    return n


def use_workers(workers: int | None) -> int:
    """``check_workers``, and set Numba's thread count to it."""
    n = check_workers(workers)
    numba.set_num_threads(n)
    return n


class Backend:
    """The interface: ``map`` keyed tasks, ``cancel`` what is left, ``close``.

    ``workers``: threads (local) or worker processes (Dask), for reports;
    ``chunks``: the slices a task splits its games into (threads share them);
    ``task_games(batch)``: games per task for a study whose local batch is ``batch``.
    """

    name = "local"
    cut = False  # the last map ended on a stop request with tasks left
    workers = 1
    chunks = 8
    local = True

    def task_games(self, batch: int) -> int:
        return batch

    def map(self, fn: Callable[..., Any], tasks: Iterable[Task], stop: StopRequest | None = None
            ) -> Iterator[tuple[int, Any]]:
        """(key, result) of each task, as the results come; once ``stop`` is requested
        no task is started and the map ends, ``cut`` telling whether tasks were left."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Drop the tasks not merged yet."""

    def close(self) -> None:
        """Release the cluster (a local backend holds nothing)."""


#: a task: its key (where its games start, unique within a study) and the arguments
Task = tuple[int, tuple[Any, ...]]


class LocalBackend(Backend):
    """This machine: tasks run one after another, each on every thread, in order, so
    a stop between two tasks keeps exactly the finished ones. A table with a Python
    seat plays on one thread, so its tasks go to worker processes instead
    (runs/pool.py), their results taken in the same order."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = use_workers(workers)
        self.chunks = self.workers * 8
        self._pool: Any = None  # runs/pool.ProcessPool, kept for the next map

    def map(self, fn: Callable[..., Any], tasks: Iterable[Task], stop: StopRequest | None = None
            ) -> Iterator[tuple[int, Any]]:
        self.cut = False
        todo = iter(tasks)
        first = next(todo, None)
        if first is None:
            return
        if self.workers > 1:
            from unosim.runs import pool
            from unosim.runs.tables import Table

            if pool.poolable(list(_tables_in(first[1], Table))):
                listed = [first, *todo]
                n = pool.pool_size(self.workers, len(listed))
                if n > 1:
                    yield from self._on_processes(self._processes(n), fn, listed, stop)
                    return
                todo = iter(listed[1:])
        for key, args in itertools.chain([first], todo):
            if stop is not None and stop.requested:
                self.cut = True
                return
            yield key, fn(*args)

    def _processes(self, n: int) -> Any:
        """The worker processes: the last map's when it had ``n`` (a study that plays
        in many maps, a tuning's trials, starts them once), else new ones."""
        from unosim.runs import pool

        if self._pool is None or self._pool.workers != n:
            self.close()
            self._pool = pool.ProcessPool(n)
            # an API caller that never closes the backend: the workers end with it
            weakref.finalize(self, self._pool.close)
        return self._pool

    def _on_processes(self, workers: Any, fn: Callable[..., Any], tasks: list[Task],
                      stop: StopRequest | None) -> Iterator[tuple[int, Any]]:
        done = 0
        try:
            for key, result in workers.map(fn, tasks, stop):
                done += 1
                yield key, result
        finally:
            if done < len(tasks):  # stopped, failed or left early: end the busy workers
                workers.close(at_once=True)
        self.cut = done < len(tasks)

    def close(self) -> None:
        """End the worker processes of a table with a Python seat, if any started."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None


class DaskBackend(Backend):
    """A Dask cluster: every task is submitted at once and merged as it completes."""

    name = "dask"
    local = False
    chunks = 8

    def __init__(self, client: Any, task_games: int = DEFAULT_TASK_GAMES) -> None:
        self.client = client
        self.size = task_games
        self._futures: list[Any] = []

    @property
    def workers(self) -> int:  # type: ignore[override]
        return len(self.client.scheduler_info().get("workers", {}))

    def task_games(self, batch: int) -> int:
        return max(1, min(self.size, batch * TASK_BATCHES))

    def map(self, fn: Callable[..., Any], tasks: Iterable[Task], stop: StopRequest | None = None
            ) -> Iterator[tuple[int, Any]]:
        from dask.distributed import as_completed

        from unosim.runs.tables import Table

        self.cut = False
        tasks = list(tasks)
        for _, args in tasks:  # a table a worker cannot rebuild: one line, before submitting
            for t in _tables_in(args, Table):
                t.payload()
        if not tasks:
            return
        if stop is not None and stop.requested:
            self.cut = True
            return
        keys = [k for k, _ in tasks]
        self._futures = self.client.map(fn, *zip(*(a for _, a in tasks), strict=True),
                                        pure=False)
        key_of = {f.key: k for f, k in zip(self._futures, keys, strict=True)}
        left = len(self._futures)
        for fut in as_completed(self._futures):
            left -= 1
            yield key_of[fut.key], fut.result()
            if left and stop is not None and stop.requested:
                self.cut = True
                return

    def cancel(self) -> None:
        if self._futures:
            self.client.cancel(self._futures)

    def close(self) -> None:
        self.client.close()


def _tables_in(obj: Any, kind: type) -> Iterator[Any]:
    if isinstance(obj, kind):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from _tables_in(x, kind)


@dataclass
class Progress:
    """What a study has finished: the keys of its finished tasks, their merged totals,
    and the games a task holds (the same on resuming, so the keys line up)."""

    step: int
    totals: Any
    done: set[int] = field(default_factory=set)


def run_tasks(backend: Backend, fn: Callable[..., Any], tasks: Iterable[Task],
              merge: Callable[[Any], bool | None], tick: Callable[[Any], None] | None = None,
              progress: Progress | None = None,
              on_progress: Callable[[Progress], None] | None = None,
              stop: StopRequest | None = None) -> bool:
    """Map ``tasks`` on ``backend`` and ``merge`` each result as it arrives; a merge
    that returns True ends the run there (a precision reached). With ``progress``,
    the tasks it holds as done are skipped and each merged one is noted there, then
    ``on_progress`` is told (a checkpoint). ``tick(result)`` comes last (the progress
    bar). ``stop`` (default: the current request, set by Ctrl-C or SIGTERM) is read
    between tasks. Returns True when a stop cut the run short; what was merged stays."""
    todo = tasks if progress is None else ((k, a) for k, a in tasks if k not in progress.done)
    stop = stop if stop is not None else stopping.current()
    for key, part in backend.map(fn, todo, stop):
        reached = merge(part)
        stop.merged += 1
        if progress is not None:
            progress.done.add(key)
            if on_progress is not None:
                on_progress(progress)
        if tick is not None:
            tick(part)
        if reached:
            break
    backend.cancel()
    return backend.cut


def connect(address: str | None, task_games: int = DEFAULT_TASK_GAMES) -> DaskBackend:
    """The Dask backend: the given scheduler, $DASK_SCHEDULER_ADDRESS, or a local
    cluster of one single-threaded worker process per core."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UnosimError(
            "--backend dask needs Dask: pip install 'unosim[dask]' (or dask[distributed])"
        ) from None
    address = address or os.environ.get("DASK_SCHEDULER_ADDRESS")
    if address:
        try:
            return DaskBackend(Client(address, timeout="10s"), task_games)
        except (OSError, TimeoutError) as e:
            raise UnosimError(f"--scheduler {address}: cannot connect ({e})") from None
    # worker processes run Numba single-threaded: Dask already uses every core; the
    # status page on a free port (None still tried 8787, and warned when two runs
    # overlapped); the cluster's own log lines (a failed task's block, heartbeats and
    # ports at shutdown) stay quiet, since every failure reaches the user as the
    # command's one line
    cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1,
                           processes=True, dashboard_address=":0",
                           env={"NUMBA_NUM_THREADS": "1"}, silence_logs=logging.CRITICAL)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # here too, at its close
    return DaskBackend(Client(cluster), task_games)


def backend_for(name: str, workers: int | None = None, scheduler: str | None = None
                ) -> Backend:
    """The backend a command's ``--backend`` / ``--workers`` / ``--scheduler`` name."""
    if name == "dask":
        return connect(scheduler)
    return LocalBackend(workers)
