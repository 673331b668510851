"""Python strategies on every core: a table with a Python seat plays its tasks on
worker processes (runs/pool.py) when ``--workers`` allows, with the figures, records
and checkpoints of one process, a stop that keeps the finished tasks, and no process
left behind."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from tests.cli_helpers import invoke
from unosim.runs import pool
from unosim.runs.backend import LocalBackend
from unosim.runs.tables import Table
from unosim.simulate.rules import resolve
from unosim.strategies.plugins import load_plugins
from unosim.strategies.registry import parse_strategy

REPO = Path(__file__).resolve().parents[2]
FIRST = REPO / "strategies" / "examples" / "first.py"
PLUGINS = REPO / "strategies" / "examples" / "plugins.py"
BAD = Path(__file__).resolve().parents[1] / "strategies" / "python_strategies_bad.py"


@pytest.fixture
def pools(monkeypatch):
    """The sizes of the worker pools started in this test."""
    started: list[int] = []
    real = pool.ProcessPool.__init__

    def init(self, workers):
        started.append(workers)
        real(self, workers)

    monkeypatch.setattr(pool.ProcessPool, "__init__", init)
    return started


def _run(capsys, monkeypatch, workers: int, *extra: str) -> dict:
    monkeypatch.setenv("UNOSIM_BATCH", "60")  # tasks of 60 games: several per process
    code, out, err = invoke(capsys, ["run", "--strategy-file", f"{FIRST}:keep_wilds",
                                     "--seat", "0=keep_wilds", "--games", "600", "--seed",
                                     "9", "--workers", str(workers), "--format", "json",
                                     "--no-progress", *extra])
    assert code == 0, err
    return json.loads(out)


def _figures(summary: dict) -> dict:
    timing = ("elapsed_s", "compile_s", "games_per_sec", "matches_per_sec", "workers")
    return {k: v for k, v in summary.items() if k not in timing}


@pytest.mark.subprocess
def test_two_workers_play_the_figures_and_records_of_one(capsys, monkeypatch, tmp_path,
                                                         pools):
    one = _run(capsys, monkeypatch, 1, "--save-games", str(tmp_path / "one.csv"))
    assert pools == []  # one worker: no pool
    two = _run(capsys, monkeypatch, 2, "--save-games", str(tmp_path / "two.csv"))
    assert pools == [2]
    assert _figures(two) == _figures(one)
    assert (tmp_path / "two.csv").read_bytes() == (tmp_path / "one.csv").read_bytes()
    assert multiprocessing.active_children() == []  # the workers ended with the run


def _tables(*names: str) -> list[Table]:
    return [Table(resolve([]), [parse_strategy(n) for n in names])]


def test_only_tables_with_a_python_seat_and_no_compiled_plugin_use_processes():
    load_plugins([f"{FIRST}:keep_wilds", f"{PLUGINS}:hybrid"])
    assert pool.poolable(_tables("keep_wilds", "random", "random", "random"))
    assert not pool.poolable(_tables("random", "random", "random", "random"))
    assert not pool.poolable(_tables("search", "random"))  # the threads serve it
    # a compiled plug-in's loop would compile again in every process
    assert not pool.poolable(_tables("keep_wilds", "hybrid", "random", "random"))


def test_a_strategy_registered_from_python_plays_here():
    """A worker cannot load a function defined in a notebook: it plays in this process."""
    from unosim.strategies.plugins import plugin

    def lazy(view):
        return view.legal[0]

    plugin(lazy, name="lazy_here")
    assert not pool.poolable(_tables("lazy_here", "random"))


@pytest.mark.parametrize(("workers", "tasks", "size"), [
    (2, 1, 1), (2, 3, 1), (2, 4, 2), (2, 100, 2), (1, 100, 1)])
def test_a_pool_starts_only_when_each_process_gets_two_tasks(workers, tasks, size):
    assert pool.pool_size(workers, tasks) == min(size, multiprocessing.cpu_count())


def _square(x: int) -> int:
    return x * x


class _StopAfter:
    """A stop request that comes once ``n`` results were taken."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.taken = 0
        self.merged = 0

    @property
    def requested(self) -> bool:
        return self.taken >= self.n


@pytest.mark.subprocess
def test_a_stop_keeps_the_finished_tasks_in_order_and_ends_the_workers():
    workers = pool.ProcessPool(2)
    stop = _StopAfter(3)
    got = []
    try:
        for key, value in workers.map(_square, [(k, (k,)) for k in range(40)], stop):
            got.append((key, value))
            stop.taken += 1
    finally:
        workers.close()
    assert got == [(k, k * k) for k in range(3)]
    assert multiprocessing.active_children() == []


@pytest.mark.subprocess
def test_the_backend_says_a_stopped_map_was_cut(monkeypatch):
    monkeypatch.setattr(pool, "poolable", lambda tables: True)
    backend = LocalBackend(2)
    stop = _StopAfter(2)
    got = []
    for key, _ in backend.map(_square, [(k, (k,)) for k in range(12)], stop):
        got.append(key)
        stop.taken += 1
    assert got == [0, 1] and backend.cut
    backend.cut = False
    assert [k for k, _ in backend.map(_square, [(k, (k,)) for k in range(8)], None)] == \
        list(range(8))
    assert not backend.cut
    started = backend._pool
    assert [k for k, _ in backend.map(_square, [(k, (k,)) for k in range(6)], None)] == \
        list(range(6))
    assert backend._pool is started  # the next map (a tuning's next trial) reuses them
    backend.close()
    assert multiprocessing.active_children() == []


@pytest.mark.subprocess
def test_a_failing_strategy_on_a_worker_is_the_same_one_line(capsys, monkeypatch, pools):
    monkeypatch.setenv("UNOSIM_BATCH", "20")
    lines = []
    for workers in (1, 2):
        code, out, err = invoke(capsys, ["run", "--strategy-file", f"{BAD}:raises",
                                         "--seat", "0=raises", "--games", "200",
                                         "--seed", "4", "--workers", str(workers),
                                         "--no-progress"])
        assert code == 2
        lines.append(err.strip().splitlines()[-1])
    assert pools == [2]  # the second run played on two processes
    assert lines[0] == lines[1] and "raises" in lines[0] and "no idea" in lines[0], lines
