"""Interruption never loses or corrupts a result.

Real signals to real processes: ``python -m unosim run ... --out DIR`` is started,
the test waits for its first checkpoint, sends SIGINT or SIGTERM (or SIGKILL),
checks the exit status, the partial report (printed and written) and the
checkpoint, then ``--resume DIR`` finishes the run, and the final statistics
must equal those of an uninterrupted run with the same seed (timings aside).
Only the stopped runs need a process of their own: the resume and the
uninterrupted run read and play the same in this one (``cli.main``), where a
plug-in's loop is compiled once for both. Small batches (``UNOSIM_BATCH``) give
a stopped run about a second of play at full speed after its first checkpoint:
200 batches of 500 games (about 5 ms each), 500 of 20 matches (about 1.5 ms
each). The test polls for the checkpoint every 10 ms, so the stop lands a few
batches after it and well over a hundred are left even on a loaded machine;
the totals are compared exactly, so a smaller run checks the same thing.

Below them, faster in-process tests of the pieces: the checkpoint file (exact
round trip, damage detection), resuming from it, the stop-between-batches
handler, and atomic output files.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import invoke
from test_cli import TIMING_KEYS

from unosim.runs.backend import Progress
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy
from unosim.studies import checkpoints as ck
from unosim.studies.run.play import run

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_PLUGINS = REPO / "strategies" / "examples" / "plugins.py"
BATCH = 500
GAMES = 100_000  # 200 batches of BATCH
MATCH_BATCH = 20
MATCHES = 10_000  # 500 batches of MATCH_BATCH


def stats(summary: dict) -> dict:
    """A summary without its timings (``matches_per_sec`` in match mode)."""
    return {k: v for k, v in summary.items() if k not in (*TIMING_KEYS, "matches_per_sec")}


def next_game(folder: Path) -> int:
    """The next game of the run whose checkpoint is in ``folder``."""
    _, stages = ck.load(folder, "run")
    return stages["run"].totals.games


def run_params(games: int, seed: int, variant: tuple[str, ...] = (), players: int | None = None,
               mode: str = "round", **extra) -> dict:
    """The options of `unosim run` as its checkpoint keeps them."""
    return {"games_text": str(games), "players": players, "variant": list(variant),
            "rule": [], "strategy": "random", "seat": [], "seed": seed, "out": None,
            "mode": mode, "target_score": None, "max_rounds": None, "save_games": None,
            "report": False, "precision": None, **extra}


def save_run(folder: Path, params: dict, agg, step: int) -> None:
    """A checkpoint of a run of ``params`` that finished the tasks ``agg`` holds."""
    ck.save(folder, "run", params,
            {"run": Progress(step, agg, set(range(0, agg.games, step)))})


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    env.update(extra)
    return env


def start_run(args: list[str], batch: int = BATCH) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "unosim", "run", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(UNOSIM_BATCH=str(batch)), cwd=REPO)


def wait_for(path: Path, proc: subprocess.Popen[str], timeout: float = 300) -> None:
    """Until ``path`` exists (the first checkpoint); the engine may compile first."""
    t0 = time.monotonic()
    while not path.exists():
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the run ended (exit {proc.returncode}) before its first checkpoint; "
                        f"stderr: {err[-2000:]}")
        if time.monotonic() - t0 > timeout:
            proc.kill()
            pytest.fail("no checkpoint within the time limit")
        time.sleep(0.01)


def resume(capsys: pytest.CaptureFixture[str], out_dir: Path, *more: str) -> dict:
    """``run --resume DIR --format json`` in this process, to its end."""
    code, out, err = invoke(capsys, ["run", "--resume", str(out_dir), "--format", "json",
                                     *more])
    assert code == 0, err
    assert "Traceback" not in out + err
    return json.loads(out)


_WHOLE: dict[tuple[str, ...], dict] = {}


def uninterrupted(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    """The summary of the run never stopped (played once per argv in this process)."""
    key = tuple(argv)
    if key not in _WHOLE:
        code, out, err = invoke(capsys, ["run", *argv, "--format", "json", "--workers", "2"])
        assert code == 0, err
        _WHOLE[key] = json.loads(out)
    return _WHOLE[key]


def interrupt_and_resume(capsys, tmp_path: Path, sig: int, expect: int, argv: list[str],
                         batch: int = BATCH) -> tuple[dict, dict]:
    """Start, stop with ``sig`` after the first checkpoint, check the partial
    result, resume; return (partial summary, final summary)."""
    out_dir = tmp_path / "out"
    proc = start_run([*argv, "--out", str(out_dir), "--format", "json", "--workers", "1",
                      "--no-progress"], batch)
    wait_for(out_dir / ck.FILE_NAME, proc)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == expect, (proc.returncode, err[-3000:])
    assert "Traceback" not in out + err
    partial = json.loads(out)
    unit = "matches" if partial.get("mode") == "match" else "games"
    assert partial["partial"] is True
    assert 0 < partial[unit] < partial[f"{unit}_requested"]
    assert partial[unit] % batch == 0  # whole batches only
    assert "interrupted after" in err and f"--resume {out_dir}" in err
    written = json.loads((out_dir / "summary.json").read_text())
    assert stats(written) == stats(partial)
    assert next_game(out_dir) == partial[unit]
    assert not [p for p in out_dir.iterdir() if p.name.endswith(".tmp")]

    final = resume(capsys, out_dir, "--workers", "2")
    assert final["partial"] is False
    assert not (out_dir / ck.FILE_NAME).exists()  # a finished run leaves no checkpoint
    assert stats(json.loads((out_dir / "summary.json").read_text())) == stats(final)
    return partial, final


# ---------------------------------------------------------------- real signals


@pytest.mark.subprocess
@pytest.mark.parametrize(("sig", "expect"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)],
                         ids=["SIGINT", "SIGTERM"])
def test_signal_keeps_finished_batches_and_resume_equals_uninterrupted(capsys, tmp_path, sig,
                                                                      expect):
    argv = ["--games", str(GAMES), "--seed", "11", "--variant", "stacking"]
    partial, final = interrupt_and_resume(capsys, tmp_path, sig, expect, argv)
    whole = uninterrupted(capsys, argv)
    assert stats(final) == stats(whole)
    assert final["games"] == GAMES


@pytest.fixture(scope="module")
def stopped_table_run(tmp_path_factory):
    """A run with the table output stopped by SIGINT after its first checkpoint: its
    exit status, stdout, stderr and folder (one process for the two tests below)."""
    out_dir = tmp_path_factory.mktemp("table") / "out"
    proc = start_run(["--games", str(GAMES), "--seed", "8", "--out", str(out_dir),
                      "--workers", "1", "--no-progress"])
    wait_for(out_dir / ck.FILE_NAME, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err, out_dir


@pytest.mark.subprocess
def test_table_output_is_marked_partial(stopped_table_run):
    code, out, err, _ = stopped_table_run
    assert code == 130, err
    assert "PARTIAL RESULT: interrupted after" in out
    assert "Seat win rate" in out
    assert "Traceback" not in out + err


@pytest.mark.subprocess
def test_kill_9_loses_at_most_the_games_since_the_last_checkpoint(capsys, tmp_path):
    """No handler runs on SIGKILL: the last checkpoint on disk must still be whole."""
    out_dir = tmp_path / "out"
    argv = ["--games", str(GAMES), "--seed", "5"]
    proc = start_run([*argv, "--out", str(out_dir), "--workers", "1", "--no-progress"])
    wait_for(out_dir / ck.FILE_NAME, proc)
    time.sleep(0.2)
    proc.kill()
    proc.communicate(timeout=60)
    assert next_game(out_dir) > 0
    assert stats(resume(capsys, out_dir, "--workers", "2")) == stats(
        uninterrupted(capsys, argv))


@pytest.mark.subprocess
@pytest.mark.parametrize("plugin", [False, True], ids=["builtins", "plugin"])
def test_matches_interrupt_and_resume(capsys, monkeypatch, tmp_path, plugin):
    argv = ["--mode", "match", "--variant", "losers-score", "--games", str(MATCHES),
            "--seed", "4", "--seat", "1=defensive"]
    if plugin:  # the resume loads the plug-in again, from the checkpoint
        argv += ["--strategy-file", f"{EXAMPLE_PLUGINS}:hybrid", "--seat", "2=hybrid"]
        # its loop compiles in the stopped process and in this one: at NUMBA_OPT=0
        # (read at each compile; the engine comes from the cache as usual) in about 3 s
        # instead of 15 each; the play at half speed leaves the stop more batches
        monkeypatch.setenv("NUMBA_OPT", "0")
    partial, final = interrupt_and_resume(capsys, tmp_path, signal.SIGTERM, 143, argv,
                                          batch=MATCH_BATCH)
    assert stats(final) == stats(uninterrupted(capsys, argv))


@pytest.mark.subprocess
def test_resume_twice_and_resume_of_a_finished_run(capsys, stopped_table_run):
    """Interrupt the resumed run again: the second resume still ends exactly."""
    code, _, err, out_dir = stopped_table_run
    assert code == 130, err
    argv = ["--games", str(GAMES), "--seed", "8"]
    first = next_game(out_dir)
    proc = subprocess.Popen([sys.executable, "-m", "unosim", "run", "--resume", str(out_dir),
                             "--workers", "1", "--no-progress"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO,
                            env=_env(UNOSIM_BATCH=str(BATCH)))
    t0 = time.monotonic()
    while next_game(out_dir) == first and proc.poll() is None:
        assert time.monotonic() - t0 < 300, "the resumed run wrote no checkpoint"
        time.sleep(0.01)  # until the resumed run's own first checkpoint
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 130), err
    if proc.returncode == 130:
        assert next_game(out_dir) > first
    assert stats(resume(capsys, out_dir)) == stats(uninterrupted(capsys, argv))
    code, out, err = invoke(capsys, ["run", "--resume", str(out_dir)])
    assert code == 2 and "no checkpoint.json" in err


# ---------------------------------------------------------------- the checkpoint file


RANDOM4 = [parse_strategy("random")] * 4


def test_checkpoint_round_trip_is_exact(tmp_path):
    rules = resolve(["elimination"], [("players", 5)])
    seats = [parse_strategy(s) for s in
             ("random", "first:bluff=0.123456789", "defensive:challenge=informed",
              "offensive:forget=0.3", "random")]
    res = run(rules, seats, 3000, seed=9, workers=1, batch=1000)
    params = run_params(10_000, 9, ("elimination",), 5,
                        seat=["1=first:bluff=0.123456789", "2=defensive:challenge=informed",
                              "3=offensive:forget=0.3"])
    save_run(tmp_path, params, res.agg, 1000)
    doc = json.loads((tmp_path / ck.FILE_NAME).read_text())
    assert (doc["format"], doc["format_version"]) == ("unosim-checkpoint", 3)
    back_params, stages = ck.load(tmp_path, "run")
    back = stages["run"].totals
    assert back.same_as(res.agg)
    assert np.array_equal(back.place_counts, res.agg.place_counts)
    assert stages["run"].done == {0, 1000, 2000} and stages["run"].step == 1000
    # the options as given survive exactly (a label's %g would round 0.123456789)
    assert back_params == params


def test_resume_from_a_checkpoint_equals_one_run(tmp_path):
    rules = resolve(["stacking"])
    whole = run(rules, RANDOM4, 20_000, seed=3, workers=1, batch=4096)
    head = run(rules, RANDOM4, 7_000, seed=3, workers=1, batch=1000)
    save_run(tmp_path, run_params(20_000, 3, ("stacking",)), head.agg, 1000)
    params, stages = ck.load(tmp_path, "run")
    rest = run(rules, RANDOM4, 20_000, seed=3, workers=2,
               keep=ck.Keeper(None, "run", params, stages))
    assert rest.agg.same_as(whole.agg)
    head = run(rules, RANDOM4, 7_000, seed=3, workers=1, batch=1000)
    rest = run(rules, RANDOM4, 20_000, seed=3, workers=2, resume_from=head.agg)
    assert rest.agg.same_as(whole.agg)


def test_match_checkpoint_round_trip(tmp_path):
    from unosim.studies.run.play import run_matches

    rules = resolve(["game-101"])
    res = run_matches(rules, RANDOM4, 300, seed=2, workers=1)
    save_run(tmp_path, run_params(1000, 2, ("game-101",), mode="match"), res.agg, 100)
    back = ck.load(tmp_path, "run")[1]["run"].totals
    assert json.dumps(ck.encode(back)) == json.dumps(ck.encode(res.agg))


def _saved(tmp_path: Path) -> dict:
    rules = resolve()
    res = run(rules, RANDOM4, 500, seed=1, workers=1)
    save_run(tmp_path, run_params(900, 1), res.agg, 100)
    return json.loads((tmp_path / ck.FILE_NAME).read_text())


def _rewrite(tmp_path: Path, doc: dict, fix_checksum: bool = True) -> None:
    if fix_checksum:
        doc["sha256"] = ck.digest(doc["checkpoint"])
    (tmp_path / ck.FILE_NAME).write_text(json.dumps(doc))


def _totals(c: dict) -> dict:
    return c["stages"]["run"]["totals"]


def _array(c: dict, name: str, change) -> None:
    """Rewrite the kept array ``name`` of the run's totals through ``change``."""
    a = ck.decode(_totals(c)[name])
    change(a)
    _totals(c)[name] = ck.encode(a)


@pytest.mark.parametrize(("change", "words"), [
    (lambda c: _totals(c).update(games=_totals(c)["games"] + 1), "inconsistent"),
    (lambda c: _totals(c)["sums"].update(turns="many"), "expected an integer"),
    (lambda c: _totals(c)["hist"]["turns"].update(shape=[3]), "shape"),
    (lambda c: _array(c, "wins", lambda a: a.__setitem__(0, a[0] + 10**6)), "wins"),
    (lambda c: c["stages"]["run"]["done"]["__set__"].append(500), "next game"),
    (lambda c: c["params"].update(games_text="10"), "next game"),
    (lambda c: c["params"].update(mode="tournament"), "mode"),
    (lambda c: c.update(unosim_version="0.0.1"), "written by unosim 0.0.1"),
    (lambda c: c["params"].update(players=3), "players"),
    (lambda c: c["params"].update(seed=-1), "seed"),
    (lambda c: _totals(c).pop("capped"), "capped"),
])
def test_a_damaged_or_impossible_checkpoint_is_refused(capsys, tmp_path, change, words):
    doc = _saved(tmp_path)
    change(doc["checkpoint"])
    _rewrite(tmp_path, doc)
    code, out, err = invoke(capsys, ["run", "--resume", str(tmp_path)])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"unosim: error: --resume {tmp_path}: ") and words in err, err


@pytest.mark.parametrize(("fmt", "version"), [("unosim-checkpoint", 2),
                                              ("unosim-study-checkpoint", 1)])
def test_a_checkpoint_of_an_older_format_is_refused(capsys, tmp_path, fmt, version):
    """The two formats before the one: one line naming the format and its version."""
    (tmp_path / ck.FILE_NAME).write_text(json.dumps(
        {"format": fmt, "format_version": version, "sha256": "0", "checkpoint": {}}))
    for argv in (["run", "--resume", str(tmp_path)], ["compare", "--resume", str(tmp_path)]):
        code, out, err = invoke(capsys, argv)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert err.startswith(f"unosim: error: --resume {tmp_path}: ")
        assert f"format {fmt} version {version}" in err and "reads version 3" in err


def test_resume_refuses_a_checkpoint_whose_rules_are_no_longer_valid(capsys, tmp_path):
    doc = _saved(tmp_path)
    doc["checkpoint"]["params"]["rule"] = ["stacking=sideways"]
    _rewrite(tmp_path, doc)
    code, out, err = invoke(capsys, ["run", "--resume", str(tmp_path)])
    assert code == 2 and out == ""
    assert err.startswith("unosim: error: --resume") and "no longer valid" in err
    assert err.count("\n") == 1


def test_resume_of_a_finished_count_just_reports(capsys, tmp_path):
    """A checkpoint of a run that finished but crashed before removing it."""
    rules = resolve()
    res = run(rules, RANDOM4, 800, seed=6, workers=1)
    save_run(tmp_path, run_params(800, 6), res.agg, 400)
    code, out, err = invoke(capsys, ["run", "--resume", str(tmp_path), "--format", "json"])
    assert code == 0, err
    s = json.loads(out)
    code2, out2, _ = invoke(capsys, ["run", "--games", "800", "--seed", "6", "--format",
                                     "json"])
    assert stats(s) == stats(json.loads(out2))
    assert not (tmp_path / ck.FILE_NAME).exists()


# ---------------------------------------------------------------- stop between batches


def test_stop_signals_set_the_stop_request():
    from unosim.interrupt import StopNow, StopSignals
    from unosim.runs import stopping

    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with StopSignals() as stop:
        assert stopping.current() is stop.request and not stop.requested
        os.kill(os.getpid(), signal.SIGTERM)  # recorded, not raised here
        assert stop.requested and stop.request.signum == signal.SIGTERM
        with pytest.raises(StopNow):
            os.kill(os.getpid(), signal.SIGINT)  # a second signal: stop at once
            time.sleep(1)
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    assert not stopping.current().requested


def test_the_last_batch_is_never_reported_partial():
    """A stop asked for after the last batch finds no task left: not partial."""
    from unosim.runs import stopping
    from unosim.runs.stopping import StopRequest

    stop = StopRequest()
    seen: list[int] = []

    def on_batch(n: int) -> None:
        seen.append(n)
        if sum(seen) == 2000:
            stop.set()

    with stopping.listening(stop):
        res = run(resolve(), RANDOM4, 2000, seed=1, workers=1, batch=1000, on_batch=on_batch)
    assert stop.requested and not res.partial and res.agg.games == 2000


def test_runner_keeps_whole_batches_when_stopped():
    """A stop asked for while batch 3 is folded in ends the run before batch 4:
    totals of whole batches only; nothing in the package raises to stop it."""
    from unosim.runs import stopping
    from unosim.runs.stopping import Stopped, StopRequest

    rules = resolve()
    calls = []
    stop = StopRequest()

    def on_batch(n: int) -> None:
        if n:
            calls.append(n)
        if len(calls) == 3:
            stop.set(signal.SIGINT)  # arrives while batch 3 is folded in

    with stopping.listening(stop):
        res = run(rules, RANDOM4, 10_000, seed=1, workers=1, batch=1000, on_batch=on_batch)
    assert res.partial and res.agg.games == 3000
    assert res.agg.same_as(run(rules, RANDOM4, 3000, seed=1, workers=1).agg)
    with stopping.listening(stop), pytest.raises(Stopped):  # stopped before it played
        run(rules, RANDOM4, 10_000, seed=1, workers=1, batch=1000)


# ---------------------------------------------------------------- atomic files


def test_atomic_write_leaves_the_old_file_when_it_fails(tmp_path, monkeypatch):
    from unosim import common as atomic

    target = tmp_path / "summary.json"
    target.write_text("old")

    def broken(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", broken)
    with pytest.raises(OSError):
        atomic.write_text_atomic(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]


def test_a_stop_swallowed_by_the_compiler_is_still_an_interruption(capsys, monkeypatch):
    """A stop that lands in a callback from LLVM is swallowed there and Numba fails with
    an error of its own ("no compiled object yet"); after a noted stop that error is
    the interruption (one line, 130 or 143; compile says PARTIAL and what it kept),
    without one it is a failure as before."""
    from unosim import interrupt
    from unosim.commands import bench
    from unosim.runs import prebuild

    def compiler_failing(stop: int | None):
        def fail(*args, **kwargs):
            if stop is not None:
                interrupt._note(stop)
            raise RuntimeError("no compiled object yet")
        return fail

    monkeypatch.setattr(prebuild, "compile_paths", compiler_failing(signal.SIGTERM))
    code, out, err = invoke(capsys, ["compile", "rounds"])
    assert code == 143 and "compile stopped (PARTIAL) before its first path: 0 of 1 paths" in err
    assert "Traceback" not in err
    monkeypatch.setattr(bench, "run_bench", compiler_failing(signal.SIGINT))
    code, out, err = invoke(capsys, ["bench", "--quick", "--skip-compile"])
    assert code == 130 and err.strip() == "unosim: interrupted"
    monkeypatch.setattr(bench, "run_bench", compiler_failing(None))
    code, out, err = invoke(capsys, ["bench", "--quick", "--skip-compile"])
    assert code == 1 and "Traceback" not in err  # a failure, said in one line (cli.main)
    assert err.startswith("unosim: error: internal error: RuntimeError: no compiled object")


@pytest.mark.subprocess
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_during_a_first_compile_ends_the_process_at_once(tmp_path, sig):
    """Nothing is played while the engine compiles, so a stop then has nothing to keep:
    the process ends at once (not when the compile ends, a minute away) with 143 or
    130, says so in one line, and leaves no helper process compiling behind it."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.Popen([sys.executable, "-m", "unosim", "--games", "1000", "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                            cwd=tmp_path)
    first = proc.stderr.readline()
    # the default table's first run compiles the quick kernel (runs/quick.py)
    assert "compiling the engine for this machine (rounds/quick)" in first
    time.sleep(2.0)  # well inside the compile, which takes tens of seconds
    t0 = time.perf_counter()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    waited = time.perf_counter() - t0
    assert proc.returncode == 128 + sig, err
    assert "stopped while compiling the engine (rounds/quick); no game was played yet" in err
    assert waited < 10, f"the stop took {waited:.1f} s"
    assert out == ""
