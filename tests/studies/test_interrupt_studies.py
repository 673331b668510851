"""Every command that plays games keeps its work when stopped.

Real signals to real processes, as for ``unosim run --out`` in
test_reliability_interrupt.py: each command is started with small batches
(``UNOSIM_BATCH``), stopped with SIGINT or SIGTERM once it has written its first
checkpoint (or, without ``--out``, once it plays), and must exit 130 or 143 with the
partial result marked PARTIAL, no traceback, whole files, and the same games in
every variant, point or lineup; then ``--resume DIR`` must give exactly the
uninterrupted result (timings aside). The uninterrupted result is played in this process
(the engine is loaded here already), once for both signals: only the stopped run and its
resume need processes of their own.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TIMING = ("elapsed_s", "compile_s", "games_per_sec", "matches_per_sec")
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


def _env(batch: int) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    env.update(UNOSIM_BATCH=str(batch), UNOSIM_CHECKPOINT_SECONDS="0.001")
    return env


def unosim(args: list[str], batch: int = 1000) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unosim", *args], capture_output=True,
                          text=True, timeout=900, env=_env(batch), cwd=REPO)


def stop_midway(args: list[str], sig: int, ready: Path | None, batch: int,
                wait_s: float = 0.0) -> tuple[int, str, str]:
    """Start ``unosim ARGS``, send ``sig`` once ``ready`` exists (or ``wait_s`` after
    the start), and return (exit status, stdout, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "unosim", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(batch), cwd=REPO)
    t0 = time.monotonic()
    while (ready is not None and not ready.exists()) or time.monotonic() - t0 < wait_s:
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"ended (exit {proc.returncode}) before it could be stopped: "
                        f"{err[-2000:]}")
        if time.monotonic() - t0 > 600:
            proc.kill()
            pytest.fail("never got far enough to be stopped")
        time.sleep(0.01)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


#: the uninterrupted result of each command line, played once in this process for every
#: signal (the engine is loaded here already; the batch size never changes a result)
_WHOLE: dict[tuple[str, ...], dict] = {}


def whole_in_process(capsys, monkeypatch, argv: list[str], batch: int) -> dict:
    """The uninterrupted JSON result of ``unosim ARGV``, played here with ``batch``."""
    key = (*argv, str(batch))
    if key not in _WHOLE:
        from cli_helpers import invoke

        monkeypatch.setenv("UNOSIM_BATCH", str(batch))
        capsys.readouterr()
        code, out, err = invoke(capsys, argv)
        assert code == 0, err[-2000:]
        _WHOLE[key] = json.loads(out)
    return _WHOLE[key]


def same(a: object, b: object) -> bool:
    def strip(x: object) -> object:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in TIMING}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return strip(a) == strip(b)


def files_whole(folder: Path) -> None:
    """Every file a stopped command left parses; no temporary file is left."""
    for f in folder.iterdir():
        assert not f.name.endswith(".tmp"), f
        if f.suffix == ".json":
            json.loads(f.read_text())
        elif f.suffix == ".csv":
            rows = list(csv.reader(f.open()))
            assert rows and all(len(r) == len(rows[0]) for r in rows), f
        elif f.suffix == ".parquet":
            import pyarrow.parquet as pq

            assert pq.read_table(f).num_rows > 0


def _games_compare(s: dict) -> set[int]:
    return {v["games"] for v in s["summaries"]}


def _games_sweep(s: dict) -> set[int]:
    return {r["n"] for r in s["rows"] if r["metric"] == "turns"}


def _games_skill(s: dict) -> set[int]:
    return {v["deals"] for v in s["variants"]}


def _games_atlas(s: dict) -> set[int]:
    return {1}  # one comparison per player count: see the atlas's own "partial" checks


#: (command line, batch, what the games per arm are, a searching table?)
STUDIES = {
    "compare": (["compare", "official", "stacking", "--games", "60000"], 1000,
                _games_compare),
    "compare-search": (["compare", "official", "seven-o", "--games", "400", "--players", "2",
                        "--seat", "0=search:rollouts=3"], 8, _games_compare),
    "sweep": (["sweep", "--rule", "hand_size=5,7", "--players", "2,4", "--games", "40000"],
              1000, _games_sweep),
    "skill": (["skill", "official", "stacking", "--strategy", "offensive", "--games",
               "120000"], 1000, _games_skill),
    "atlas": (["atlas", "--players", "2,3", "--games", "6000"], 500, _games_atlas),
}


@pytest.mark.subprocess
@pytest.mark.parametrize("name, sig", [
    *((n, s) for n in ("compare", "sweep", "skill", "atlas")
      for s in (signal.SIGINT, signal.SIGTERM)),
    ("compare-search", signal.SIGTERM)])
def test_a_stopped_study_resumes_to_the_uninterrupted_result(tmp_path, name, sig, capsys,
                                                             monkeypatch):
    args, batch, games_of = STUDIES[name]
    out = tmp_path / "out"
    argv = [*args, "--seed", "5", "--format", "json", "--no-progress"]
    code, stdout, err = stop_midway([*argv, "--out", str(out)], sig, out / "checkpoint.json",
                                    batch)
    assert code == EXIT[sig], err[-3000:]
    assert "Traceback" not in stdout + err
    partial = json.loads(stdout)
    assert partial["partial"] is True
    assert len(games_of(partial)) == 1  # the same games in every arm
    assert "interrupted after" in err and f"--resume {out}" in err
    files_whole(out)
    done = unosim([args[0], "--resume", str(out), "--format", "json", "--no-progress"],
                  batch=batch * 3 + 1)  # another batch size: the same result
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stdout + done.stderr
    assert not (out / "checkpoint.json").exists()
    whole = whole_in_process(capsys, monkeypatch, argv, batch)
    assert same(json.loads(done.stdout), whole)


@pytest.mark.subprocess
@pytest.mark.parametrize("extra, sig", [
    (["--report"], signal.SIGINT),
    (["--save-games", "{out}/games.parquet"], signal.SIGTERM),
    (["--mode", "match", "--save-games", "{out}/matches.parquet", "--games", "3000"],
     signal.SIGINT),
])
def test_run_with_report_or_records_keeps_a_checkpoint(tmp_path, extra, sig, capsys,
                                                      monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    extra = [x.replace("{out}", str(out)) for x in extra]
    argv = ["run", "--games", "60000", "--seed", "3", *extra, "--format", "json",
            "--no-progress"]
    code, stdout, err = stop_midway([*argv, "--out", str(out)], sig, out / "checkpoint.json",
                                    200)
    assert code == EXIT[sig], err[-3000:]
    assert "Traceback" not in stdout + err
    assert json.loads(stdout)["partial"] is True
    files_whole(out)
    done = unosim(["run", "--resume", str(out), "--format", "json", "--no-progress"])
    assert done.returncode == 0, done.stderr[-3000:]
    whole_dir = tmp_path / "whole"
    whole_dir.mkdir()
    whole = whole_in_process(capsys, monkeypatch, [*(x.replace(str(out), str(whole_dir))
                                                      for x in argv), "--out", str(whole_dir)],
                             1000)
    assert same(json.loads(done.stdout), whole)
    records = [x for x in extra if x.endswith(".parquet")]
    if records:
        import pandas as pd

        got = pd.read_parquet(records[0])
        want = pd.read_parquet(records[0].replace(str(out), str(whole_dir)))
        assert got.equals(want)


@pytest.mark.subprocess
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_tournament_is_partial_on_the_same_deals(tmp_path, sig):
    """A searching table; the stop must answer within seconds."""
    args = ["tournament", "search:rollouts=8", "random", "--players", "2", "--games",
            "100000", "--seed", "2", "--format", "json", "--no-progress"]
    assert unosim([*args[:7], "--games", "2"]).returncode == 0  # the engine compiled
    t0 = time.monotonic()
    code, stdout, err = stop_midway(args, sig, None, 50, wait_s=3.0)
    assert time.monotonic() - t0 < 60
    assert code == EXIT[sig], err[-3000:]
    assert "Traceback" not in stdout + err
    s = json.loads(stdout)
    assert s["partial"] is True and 0 < s["games_per_lineup"] < 50_000
    assert s["seat_rotation_exact"]  # every lineup played the same deals
    assert "interrupted after" in err


@pytest.mark.subprocess
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_tune_leaves_no_running_trial_and_continues(tmp_path, sig):
    db = tmp_path / "t.db"
    args = ["tune", "weighted", "--players", "2", "--trials", "40", "--games-per-trial",
            "20000", "--seed", "4", "--storage", f"sqlite:///{db}"]
    warm = ["tune", "weighted", "--players", "2", "--trials", "1", "--games-per-trial", "90",
            "--seed", "4", "--storage", f"sqlite:///{tmp_path / 'warm.db'}"]
    assert unosim(warm).returncode == 0  # the engine compiled
    code, stdout, err = stop_midway(args, sig, None, 2000, wait_s=4.0)
    assert code == EXIT[sig], err[-3000:]
    assert "Traceback" not in stdout + err
    assert "interrupted" in stdout
    with sqlite3.connect(db) as c:
        states = [s for (s,) in c.execute("SELECT state FROM trials")]
    assert states and "RUNNING" not in states
    again = unosim(["tune", "weighted", "--players", "2", "--trials", "2", "--games-per-trial",
                    "20000", "--storage", f"sqlite:///{db}"])  # the study's own seed
    assert again.returncode == 0, again.stderr[-2000:]
    with sqlite3.connect(db) as c:
        (n,) = c.execute("SELECT count(*) FROM trials").fetchone()
    assert n == len(states) + 2
