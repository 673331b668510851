"""The Dask backend: the same totals as the local backend, even when a worker dies.

A local cluster of two single-threaded worker processes (spawned, as the
distributed scheduler does) plays the games in ranges; the merged totals must
equal the local run's exactly.
"""

from __future__ import annotations

import os
import signal

import pytest

distributed = pytest.importorskip("distributed")

from unosim.simulate.distributed import run_dask  # noqa: E402
from unosim.simulate.rules import resolve  # noqa: E402
from unosim.simulate.runner import run  # noqa: E402
from unosim.strategies.registry import parse_strategy  # noqa: E402


@pytest.fixture(scope="module")
def client():
    # the workers run Numba single-threaded; this process's own setting is untouched
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, env={"NUMBA_NUM_THREADS": "1"})
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_dask_equals_local(client):
    rules = resolve(["stacking"], [("players", 3)])
    seats = [parse_strategy(s) for s in ("random", "offensive", "defensive")]
    d = run_dask(rules, seats, 120_000, seed=11, client=client, task_games=25_000)
    loc = run(rules, seats, 120_000, seed=11)
    assert d.agg.games == 120_000
    assert d.agg.same_as(loc.agg)


def test_killed_worker_does_not_change_the_result(client):
    rules = resolve()
    seats = [parse_strategy("random")] * 4
    expected = run(rules, seats, 600_000, seed=3).agg
    pids = client.run(os.getpid)  # worker address -> process id
    done = []

    def kill_after_first_task(n):
        # mid-run: 29 of 30 tasks are still queued or running
        if not done:
            os.kill(next(iter(pids.values())), signal.SIGKILL)
        done.append(n)

    got = run_dask(rules, seats, 600_000, seed=3, client=client, task_games=20_000,
                   on_batch=kill_after_first_task)
    assert len(done) == 30
    assert client.run(os.getpid) != pids  # the nanny restarted the killed worker
    assert got.agg.same_as(expected)
