"""Plug-ins on a shared Dask cluster: a worker keeps each plug-in by its path and
content, never by its name alone.

A real external cluster (``dask scheduler`` and two ``dask worker`` processes,
started here as subprocesses, as a cluster is started by hand) serves one run after
another: two files that define the same strategy name, then one of them edited.
Each run must play its own file's code, with exactly the figures of the same run
on this machine, or be refused in one line. (A worker used to keep the first ``s``
it loaded and play it for every later run naming ``s``: a strategy that raised on
every move exited 0 with another file's figures.) Python plug-ins keep it cheap;
the compiled path is checked in-process in test_plugin_reload.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from unosim.errors import UnosimError  # noqa: E402
from unosim.runs.backend import DaskBackend  # noqa: E402
from unosim.simulate.rules import resolve  # noqa: E402
from unosim.strategies.plugins import PluginError, load_plugins  # noqa: E402
from unosim.strategies.registry import parse_strategy  # noqa: E402
from unosim.studies.run.play import run  # noqa: E402

pytestmark = [pytest.mark.cluster, pytest.mark.subprocess]

FIRST = '''
def s(view):
    """The first legal move."""
    return view.legal[0]
'''
LAST = '''
def s(view):
    """The last legal move."""
    return view.legal[-1]
'''
COLOURED = '''
def s(view):
    """A coloured card when one fits, else the first legal move."""
    plays = [m for m in view.legal if m[0] in "rygb"]
    return plays[-1] if plays else view.legal[0]
'''
RAISES = '''
def s(view):
    raise RuntimeError("s raises on every move")
'''

GAMES = 240
TASK = 60  # four tasks a run, so both workers play


def _start(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    with log.open("wb") as f:
        return subprocess.Popen([sys.executable, "-m", "dask", *argv], stdout=f,
                                stderr=subprocess.STDOUT, env=env)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """A scheduler on a free port and two single-threaded workers, each its own
    process, as on a cluster started by hand; a client of this process."""
    d = tmp_path_factory.mktemp("cluster")
    info = d / "scheduler.json"
    procs = [_start(["scheduler", "--port", "0", "--no-dashboard", "--scheduler-file",
                     str(info)], d / "scheduler.log")]
    try:
        t0 = time.monotonic()
        while not info.exists() or not info.read_text().strip():
            assert procs[0].poll() is None, (d / "scheduler.log").read_text()[-2000:]
            assert time.monotonic() - t0 < 120, "the scheduler did not start"
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        for i in range(2):
            procs.append(_start(["worker", address, "--nworkers", "1", "--nthreads", "1",
                                 "--no-nanny", "--no-dashboard", "--death-timeout", "60"],
                                d / f"worker{i}.log"))
        c = distributed.Client(address, timeout="60s")
        try:
            c.wait_for_workers(2, timeout=180)
            yield c
        finally:
            c.shutdown()  # the scheduler and its workers end
            c.close()
    finally:
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _seats():
    return [parse_strategy("s"), parse_strategy("random"), parse_strategy("offensive")]


def _here_and_there(client, path: Path):
    """Load ``path:s`` here as the command does, then play the same games on this
    machine and on the cluster."""
    load_plugins([f"{path}:s"])
    rules = resolve([], [("players", 3)])
    seats = _seats()
    here = run(rules, seats, GAMES, 4)
    there = run(rules, seats, GAMES, 4, backend=DaskBackend(client, TASK))
    return here.agg, there.agg


def _held(client) -> set[str]:
    """What plays ``s`` on each worker: its file and SHA-256."""
    def held() -> str:
        from unosim.strategies.registry import PLUGINS

        p = PLUGINS.get("s")
        return "" if p is None else f"{p.source} {getattr(p, 'sha256', '')}"

    return set(client.run(held).values())


def test_each_run_plays_its_own_files_strategy(client, tmp_path):
    a, b = tmp_path / "a" / "mine.py", tmp_path / "b" / "mine.py"
    for f, code in ((a, FIRST), (b, LAST)):
        f.parent.mkdir()
        f.write_text(code)

    here_a, there_a = _here_and_there(client, a)
    assert there_a.games == GAMES and there_a.same_as(here_a)
    # every worker now holds a's s (a worker no task reached is given it, as an
    # earlier run would have)
    def load(spec: str) -> None:
        load_plugins([spec])

    client.run(load, f"{a}:s")
    assert len(_held(client)) == 1 and str(a) in _held(client).pop()

    # another file, the same name: b's figures, not a's
    here_b, there_b = _here_and_there(client, b)
    assert not here_b.same_as(here_a)  # the two strategies play differently
    assert there_b.same_as(here_b)

    # b edited in place: the new code, on whichever worker takes the tasks
    b.write_text(COLOURED)
    here_c, there_c = _here_and_there(client, b)
    assert not here_c.same_as(here_b)
    assert there_c.same_as(here_c)

    # b edited to a strategy that raises on every move: the run fails in one line
    b.write_text(RAISES)
    load_plugins([f"{b}:s"])
    with pytest.raises(PluginError, match="raises on every move") as e:
        run(resolve([], [("players", 3)]), _seats(), GAMES, 4,
            backend=DaskBackend(client, TASK))
    assert "\n" not in str(e.value)


def test_a_file_changed_after_the_run_loaded_it_is_refused(client, tmp_path):
    """The run loaded one version; the file then changed before the workers read it:
    they refuse it in one line rather than play other code."""
    f = tmp_path / "mine.py"
    f.write_text(FIRST)
    load_plugins([f"{f}:s"])
    seats = _seats()
    f.write_text(LAST)
    with pytest.raises(UnosimError, match="changed on this worker") as e:
        run(resolve([], [("players", 3)]), seats, GAMES, 4, backend=DaskBackend(client, TASK))
    assert "\n" not in str(e.value)
