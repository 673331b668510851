"""Make tests/ importable (the reference engine and the scenario helpers live here,
not in the package)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# scenario.assert_unchanged asserts: show pytest's detailed diff when it fails
pytest.register_assert_rewrite("scenario")


#: marks that make a test slow by themselves: a browser, worker processes or a new
#: Python process that loads the engine again start, or a plug-in's loop compiles
SLOW_BY_NATURE = ("browser", "cluster", "subprocess", "compile")


def pytest_collection_modifyitems(config, items):
    """A test that drives Chromium, starts Dask workers or a new process, or compiles a
    plug-in is slow too, so that the fast tier (``-m "not slow"``) leaves it out without
    a second mark."""
    for item in items:
        if any(item.get_closest_marker(m) for m in SLOW_BY_NATURE) and \
                not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)


def _compile_shared(paths: list[str], locks: Path) -> None:
    """Compile ``paths`` one at a time, each under a file lock in ``locks`` (a folder all
    the processes of a run share): a path another process is compiling is waited for
    and then loaded from Numba's cache, so no path compiles twice. With pytest-xdist
    each process starts at another place in the list, so a cold cache fills on every
    core instead of one."""
    import fcntl

    from unosim.runs.prebuild import compile_paths

    locks.mkdir(parents=True, exist_ok=True)
    for path in paths:
        with open(locks / (path.replace("/", "-") + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if path == QUICK:
                _compile_quick()
            elif path == VECTOR_ENV:
                _compile_vector_env()
            elif path == FAILING_PLUGIN:
                _compile_failing_plugin()
            else:
                compile_paths([path], lambda *a: None)


#: the quick round kernel (runs/quick.py): not a path of ``unosim compile``, yet what
#: a first run on an empty cache plays (tests/runs/test_quick.py, the first-run tests)
QUICK = "rounds/quick"


def _compile_quick() -> None:
    """Play one game on the quick kernel, which compiles (or loads) it."""
    import numpy as np

    from unosim.compiler.compiling import listening
    from unosim.runs import quick
    from unosim.runs.batches import run_rows
    from unosim.runs.compile_notice import first_use
    from unosim.runs.tables import Table
    from unosim.simulate import layout as L
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    template = Table(resolve([]), [parse_strategy("random")] * 4).template
    out = np.zeros((1, L.N_G), np.int32)
    rows = quick.rows_kernel()
    with listening(lambda *a: None), first_use(QUICK):  # with its helper, as a first run
        run_rows(lambda lo, hi, c, G, RNG: rows(template, np.uint64(1), 0, out, lo, hi, G,
                                                RNG), 1, 1)


#: the vector environment's cached kernels: not a path of ``unosim compile`` (the
#: environment compiles them on its first reset), yet about 20 s that a test would
#: otherwise spend, in every process that reached one before the cache held them
VECTOR_ENV = "vector-env"


#: the loop of a plug-in that raises (tests/plugins_for_tests.py), which two Dask
#: workers of a test would otherwise both compile at once (its loop is cached across
#: processes, runs/plugin_loops.py, so they load it)
FAILING_PLUGIN = "plug-in/raises"


def _compile_failing_plugin() -> None:
    """Play a few games of ``raises`` once, which compiles and caches its loop; a
    failure here only leaves the compile to the test. The plug-in is unregistered
    after, as ``unosim compile`` does with its example."""
    from unosim.runs.runner import play_records
    from unosim.simulate.rules import resolve
    from unosim.strategies.plugins import load_plugins
    from unosim.strategies.registry import PLUGINS, parse_strategy

    try:
        load_plugins([f"{Path(__file__).parent / 'plugins_for_tests.py'}:raises"])
        seats = [parse_strategy("raises")] + [parse_strategy("random")] * 3
        play_records(resolve([]), seats, 1, 0, 4, chunks=1)
    except Exception:  # noqa: BLE001 - it raises by design; nothing else may stop the run
        pass
    finally:
        PLUGINS.pop("raises", None)


def _compile_vector_env() -> None:
    """Reset a vector environment against built-ins once, which compiles (or loads)
    its cached reset and step kernels; skipped where the ``rl`` extra is missing."""
    try:
        from unosim.env import vector_env
    except ImportError:
        return
    vector_env(num_envs=1, seed=0).reset()


@pytest.fixture(scope="session", autouse=True)
def engine_compiled(tmp_path_factory):
    """Compile every path of the engine first (``unosim compile``), so that no test's
    output carries the one-time compile notice: it would appear in whichever test
    happened to use a path first (tests/compiler/test_compile_paths.py checks the notice).
    Every path then counts as compiled in this process, the plug-in loop too, which Numba
    specialises per process: the first in-process plug-in test would say so otherwise."""
    import os

    from unosim.compiler import compiling
    from unosim.runs.compile_notice import PATHS

    paths = [*PATHS, QUICK, VECTOR_ENV, FAILING_PLUGIN]
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1, ... under pytest-xdist
    shared = tmp_path_factory.getbasetemp()
    if worker:
        # the first path (the rule steps every other path calls) first, then each
        # process starts at its own place in the rest; the workers' temporary folders
        # share a parent, the run's folder, which holds the locks
        k, n = int(worker[2:]), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
        rest = paths[1:]
        start = len(rest) * k // max(n, 1)
        paths = paths[:1] + rest[start:] + rest[:start]
        shared = shared.parent
    _compile_shared(paths, shared / "compile-locks")
    compiling._done.update([*PATHS, QUICK])


class _Cached:
    """The compile paths a test's machine has in Numba's cache (see nothing_cached)."""

    def __init__(self) -> None:
        self.kernels: set = set()

    def add(self, path: str) -> None:
        from unosim.runs.tiers import entry_points

        self.kernels.update(entry_points(path))


@pytest.fixture
def nothing_cached(monkeypatch):
    """A machine whose Numba cache holds no compile path until the test adds it
    (``nothing_cached.add("rounds")``): the cache check reads only what the test
    added, while the kernels still load from the session's real cache, so nothing
    really compiles. The paths this process compiled are forgotten too."""
    from unosim.compiler import cache, compiling

    cached = _Cached()
    monkeypatch.setattr(cache, "all_cached", lambda entries: all(e in cached.kernels
                                                                 for e in entries))
    monkeypatch.setattr(compiling, "_seen", set())
    monkeypatch.setattr(compiling, "_done", set())
    return cached
