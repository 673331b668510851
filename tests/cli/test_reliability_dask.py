"""``--backend dask`` on the local cluster the command starts: its own log lines (a
failed task's "Compute Failed" block, heartbeats and ports at shutdown) stay off
stderr, where the command's one line is all the user sees."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")

TESTS = Path(__file__).resolve().parents[1]
PLUGINS = TESTS / "plugins_for_tests.py"


def _unosim(*args: str, timeout: float = 600, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "unosim", *args], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **env})


@pytest.mark.cluster
@pytest.mark.subprocess
def test_a_failing_plugin_on_dask_is_the_one_line(tmp_path):
    r = _unosim("--backend", "dask", "--games", "3000", "--seed", "1", "--strategy-file",
                f"{PLUGINS}:raises", "--seat", "0=raises", "--format", "json")
    # (not NUMBA_OPT=0 for a faster plug-in compile: the workers print Numba's "cannot
    # cache" warning for the plug-in's functions then, which this test forbids)
    assert r.returncode == 2, r.stderr
    assert r.stdout == ""
    assert "Traceback" not in r.stderr and "distributed" not in r.stderr, r.stderr
    # the plug-in's compile notice aside (its own line, before the games)
    lines = [ln for ln in r.stderr.splitlines() if not ln.startswith("unosim: compil")]
    assert len(lines) == 1 and lines[0].startswith("unosim: error:"), r.stderr
    assert "raises" in lines[0]


@pytest.mark.cluster
@pytest.mark.subprocess
def test_a_dask_run_leaves_stderr_quiet():
    r = _unosim("--backend", "dask", "--games", "3000", "--seed", "1", "--format", "json")
    assert r.returncode == 0, r.stderr
    assert "distributed" not in r.stderr and "WARNING" not in r.stderr, r.stderr


def test_the_local_cluster_is_started_quiet(monkeypatch):
    """What keeps it quiet: the cluster's loggers at CRITICAL in the workers and here."""
    from dask import distributed

    from unosim.runs import backend

    seen = {}

    class Cluster:
        def __init__(self, **kwargs):
            seen.update(kwargs)

    class Client:
        def __init__(self, cluster):
            pass

    monkeypatch.setattr(distributed, "LocalCluster", Cluster)
    monkeypatch.setattr(distributed, "Client", Client)
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    level = logging.getLogger("distributed").level
    try:
        backend.connect(None)
        assert seen["silence_logs"] == logging.CRITICAL
        assert logging.getLogger("distributed").level == logging.CRITICAL
    finally:
        logging.getLogger("distributed").setLevel(level)
