"""The Dask backend: the same totals as the local backend, even when a worker dies.

A local cluster of two single-threaded worker processes (spawned, as the
distributed scheduler does) plays the games in ranges; the merged totals must
equal the local run's exactly.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from unosim.runs.backend import DaskBackend  # noqa: E402
from unosim.simulate.rules import resolve  # noqa: E402
from unosim.strategies.registry import parse_strategy  # noqa: E402
from unosim.studies.run.play import run  # noqa: E402


def run_dask(rules, seats, games, seed, client, task_games=1 << 18, on_batch=None):
    """A run of rounds on the cluster of ``client`` (tasks of ``task_games``)."""
    return run(rules, seats, games, seed, on_batch=on_batch,
               backend=DaskBackend(client, task_games))


@pytest.fixture(scope="module")
def client():
    # the workers run Numba single-threaded; this process's own setting is untouched.
    # (Not NUMBA_OPT=0 for a faster plug-in compile: a worker prints Numba's "cannot
    # cache" warning for the plug-in's functions then, on a cold cache)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0",
                                       env={"NUMBA_NUM_THREADS": "1"})
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.mark.cluster
def test_dask_equals_local(client):
    rules = resolve(["stacking"], [("players", 3)])
    seats = [parse_strategy(s) for s in ("random", "offensive", "defensive")]
    d = run_dask(rules, seats, 120_000, seed=11, client=client, task_games=25_000)
    loc = run(rules, seats, 120_000, seed=11)
    assert d.agg.games == 120_000
    assert d.agg.same_as(loc.agg)


@pytest.mark.cluster
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


EXAMPLES = str(Path(__file__).resolve().parents[2] / "strategies" / "examples" / "plugins.py")


@pytest.mark.cluster
def test_plugins_are_loaded_on_the_workers(client):
    """random_copy (the built-in random as a plug-in) plays the same games there: three
    tasks of 2,000 games, so that both workers load it (the count only keeps them busy;
    the totals are compared exactly)."""
    from unosim.strategies.plugins import load_plugins

    load_plugins([f"{EXAMPLES}:random_copy"])
    rules = resolve()
    seats = [parse_strategy(s) for s in ("random_copy", "random", "random_copy", "random")]
    d = run_dask(rules, seats, 6_000, seed=5, client=client, task_games=2_000)
    assert d.agg.same_as(run(rules, [parse_strategy("random")] * 4, 6_000, seed=5).agg)


@pytest.mark.cluster
def test_a_plugin_without_a_file_is_refused(client):
    import numba

    from unosim.errors import UnosimError
    from unosim.strategies import api
    from unosim.strategies.plugins import plugin

    @numba.njit
    def notebook_strategy(G, rng):
        return api.builtin_move(api.RANDOM, G, rng)

    plugin(notebook_strategy)
    seats = [parse_strategy("notebook_strategy")] + [parse_strategy("random")] * 3
    with pytest.raises(UnosimError, match="registered from Python"):
        run_dask(resolve(), seats, 1000, seed=1, client=client)


def test_a_worker_refuses_a_different_plugin_file(tmp_path):
    """A worker whose copy of the plug-in file differs would play other games."""
    from unosim.errors import UnosimError
    from unosim.runs.tables import Table

    f = tmp_path / "mine.py"
    f.write_text(open(EXAMPLES).read())
    seat = {"name": "mine_copy", "params": {},
            "plugin": {"spec": f"{f}:random_copy", "sha256": "00" * 32}}
    shipped = {"rules": resolve().as_dict(), "seats": [seat] + [{"name": "random",
                                                                   "params": {}}] * 3}
    table = Table.__new__(Table)
    table.__setstate__(shipped)  # what unpickling does on the scheduler and a worker
    assert table.payload() == shipped  # passed on as it came: the scheduler's part
    with pytest.raises(UnosimError, match="changed on this worker"):
        table.seats  # noqa: B018 - the worker's part: first use loads the plug-ins


@pytest.mark.cluster
def test_run_json_has_one_schema_on_both_backends(client, capsys):
    """`run --format json` gives the same keys, with the same kinds of value, on this
    machine and on a cluster (precision_target was missing on Dask)."""
    import json

    from unosim.cli import main

    args = ["run", "--games", "3000", "--seed", "5", "--format", "json", "--no-progress"]
    with pytest.raises(SystemExit) as e:
        main(args)
    assert e.value.code == 0
    local = json.loads(capsys.readouterr().out)
    with pytest.raises(SystemExit) as e:
        main([*args, "--backend", "dask", "--scheduler", client.scheduler.address])
    assert e.value.code == 0
    dask = json.loads(capsys.readouterr().out)
    assert list(dask) == list(local)
    assert (dask["backend"], local["backend"]) == ("dask", "local")
    assert dask["precision_target"] is None and local["precision_target"] is None
    assert dask["precision_reached"] is False and local["precision_reached"] is False
    assert dask["seat_wins"] == local["seat_wins"]


@pytest.mark.cluster
def test_grids_on_dask_equal_this_machine(client):
    """A sweep or atlas comparison and the skill edge give the same totals on a cluster."""
    from unosim.runs.variants import VariantSpec
    from unosim.studies.compare.play import run_compare
    from unosim.studies.lineups.skill import run_skill

    specs = [VariantSpec(n, resolve([n], [("players", 3)]), [parse_strategy("random")] * 3)
             for n in ("official", "stacking", "seven-o")]
    backend = DaskBackend(client, task_games=7_000)
    d = run_compare(specs, 20_000, 5, limit=None, backend=backend)
    loc = run_compare(specs, 20_000, 5, limit=None)
    for vi in range(3):
        assert d.results[vi].agg.same_as(loc.results[vi].agg)
        assert d.moments[vi].n == loc.moments[vi].n and d.moments[vi].s == loc.moments[vi].s
        assert d.moments[vi].ss == loc.moments[vi].ss
        if vi:
            assert (d.paired[vi].s, d.paired[vi].ss) == (loc.paired[vi].s, loc.paired[vi].ss)
    strat = parse_strategy("offensive")
    a = run_skill(specs, strat, 9_000, seed=2, backend=backend)
    b = run_skill(specs, strat, 9_000, seed=2)
    for ta, tb in zip(a.totals, b.totals, strict=True):
        assert (ta.deals, ta.wins, ta.wins_sq, ta.diff, ta.diff_sq) == (
            tb.deals, tb.wins, tb.wins_sq, tb.diff, tb.diff_sq)


@pytest.mark.cluster
def test_dask_search_equals_local(client):
    """The search seat's worlds come from the game's own generator: the same
    totals on Dask workers as in one local thread."""
    rules = resolve([], [("players", 3)])
    seats = [parse_strategy(s) for s in ("search:rollouts=6", "random", "offensive")]
    d = run_dask(rules, seats, 300, seed=5, client=client, task_games=70)
    loc = run(rules, seats, 300, seed=5, workers=1)
    assert d.agg.games == 300
    assert d.agg.same_as(loc.agg)


#: what may differ between two backends: timing, and where the games ran
_WHERE = ("elapsed_s", "compile_s", "games_per_sec", "matches_per_sec", "workers", "backend")


def _same_but_where(x):
    if isinstance(x, dict):
        return {k: _same_but_where(v) for k, v in x.items() if k not in _WHERE}
    if isinstance(x, list):
        return [_same_but_where(v) for v in x]
    return x


@pytest.mark.cluster
@pytest.mark.parametrize("args", [
    ["compare", "official", "stacking", "--games", "6000"],
    ["compare", "official", "losers-score", "--mode", "match", "--games", "300"],
    ["tournament", "random", "offensive", "defensive", "--players", "3", "--games", "6000"],
    ["skill", "official", "seven-o", "--strategy", "offensive", "--games", "4000"],
    ["sweep", "--rule", "hand_size=5,7", "--players", "2,3", "--games", "3000"],
    ["atlas", "--players", "3", "--games", "500"],
])
def test_every_study_gives_the_same_json_on_dask(client, capsys, args):
    """Each command that plays games runs on a cluster through the one backend
    interface, with the same figures as on this machine."""
    import json

    from unosim.cli import main

    base = [*args, "--seed", "6", "--format", "json", "--no-progress"]
    outs = []
    for extra in ([], ["--backend", "dask", "--scheduler", client.scheduler.address]):
        with pytest.raises(SystemExit) as e:
            main([*base, *extra])
        assert e.value.code == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert _same_but_where(outs[1]) == _same_but_where(outs[0])


@pytest.mark.cluster
def test_a_tuning_trial_plays_the_same_games_on_dask(client):
    from unosim.studies.tune.trials import TrialTable

    rules = resolve([], [("players", 3)])
    field = [parse_strategy("random"), parse_strategy("defensive")]
    cand = parse_strategy("weighted:wild=2")
    here = TrialTable(rules, field, seed=3).wins(cand, 100, 2_000)
    there = TrialTable(rules, field, seed=3, backend=DaskBackend(client, 500)).wins(
        cand, 100, 2_000)
    assert here == there > 0


@pytest.mark.cluster
@pytest.mark.subprocess
@pytest.mark.parametrize(("sig", "expect"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)],
                         ids=["SIGINT", "SIGTERM"])
def test_a_stopped_dask_run_exits_like_a_local_one(tmp_path, sig, expect):
    """`run --backend dask` stopped by a signal: the finished tasks' partial report,
    the checkpoint kept in --out, exit 130 after SIGINT and 143 after SIGTERM (it was
    130 for both). 300,000 games keep the cluster busy: the stop lands after about
    16,000, with over 500 batches left (3,000,000 took 4 s more and sent the scheduler
    a 350 MiB task graph)."""
    import json
    import subprocess
    import sys
    import time
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "UNOSIM_BATCH": "500", "UNOSIM_CHECKPOINT_SECONDS": "0.001"}
    env.pop("COLUMNS", None)
    out = tmp_path / "out"
    argv = ["--games", "300000", "--seed", "3", "--backend", "dask", "--format", "json"]
    proc = subprocess.Popen([sys.executable, "-m", "unosim", "run", *argv, "--out", str(out),
                             "--no-progress"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=repo)
    t0 = time.monotonic()
    while not (out / "checkpoint.json").exists():
        assert proc.poll() is None, proc.communicate()[1][-2000:]
        assert time.monotonic() - t0 < 300, "no checkpoint"
        time.sleep(0.01)
    proc.send_signal(sig)
    stdout, err = proc.communicate(timeout=300)
    assert proc.returncode == expect, err[-2000:]
    assert "Traceback" not in stdout + err and "interrupted after" in err
    partial = json.loads(stdout)
    assert partial["partial"] is True and 0 < partial["games"] < 300_000


@pytest.mark.cluster
def test_a_python_strategy_plays_on_dask_as_here(client):
    """The file ships to the workers by path and digest, as a compiled plug-in's."""
    from pathlib import Path

    from unosim.strategies.plugins import load_plugins

    first = Path(__file__).resolve().parents[2] / "strategies" / "examples" / "first.py"
    load_plugins([f"{first}:keep_wilds"])
    rules = resolve([], [("players", 3)])
    seats = [parse_strategy("keep_wilds"), parse_strategy("random"),
             parse_strategy("attacker")]
    here = run(rules, seats, 3000, 8)
    there = run_dask(rules, seats, 3000, seed=8, client=client, task_games=1000)
    assert there.agg.same_as(here.agg)
