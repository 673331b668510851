"""Every command that plays games keeps its work when stopped.

Real signals to real processes, as for ``unosim run --out`` in
test_reliability_interrupt.py: each command is started with small batches
(``UNOSIM_BATCH``), stopped with SIGINT or SIGTERM once it has written its first
checkpoint (or, without ``--out``, once its first task of games has merged), and must
exit 130 or 143 with the partial result marked PARTIAL, no traceback, whole files, and
the same games in every variant, point or lineup; then ``--resume DIR`` must give
exactly the uninterrupted result (timings aside).

Only the stopped run needs a process of its own (a real signal to a command that is
playing). Its resume reads nothing but the checkpoint the stopped process left, so it
runs here, through the command line's ``main``, as does the uninterrupted run: the
engine is loaded in this process already.

One signal per study: SIGINT and SIGTERM reach the same handler (``unosim.interrupt``:
both set the run's stop request; only the exit status, 130 or 143, tells them apart),
and both are sent to ``unosim run`` in test_reliability_interrupt.py. Here they
alternate between the studies, so that each signal still reaches at least two
studies with ``--out`` (SIGINT: compare, skill, a tournament and ``run --report``;
SIGTERM: sweep, atlas, a searching compare and ``run --save-games``) and one without
(SIGTERM: a searching tournament; SIGINT: tune).

The game counts only keep a process busy until the signal: each leaves about 30 tasks
or more to play after the first checkpoint (the signal lands within 10 ms of it on an
idle machine, within a few tasks under load), and since the resumed result must equal
the uninterrupted one exactly, a smaller count checks the same thing.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from cli_helpers import invoke

REPO = Path(__file__).resolve().parents[2]
TIMING = ("elapsed_s", "compile_s", "games_per_sec", "matches_per_sec")
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


def _env(batch: int) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    env.update(UNOSIM_BATCH=str(batch), UNOSIM_CHECKPOINT_SECONDS="0.001")
    return env


#: ``python -c`` this, then a marker file, then the command line: the command as
#: ``python -m unosim`` runs it, with the local backend's map wrapped so that it touches
#: the marker once the first task of games has merged (a command without --out writes
#: nothing while it plays, and a fixed wait raced the start under load)
PLAYING = "\n".join([
    "import sys",
    "from pathlib import Path",
    "from unosim.runs import backend",
    "marker = Path(sys.argv.pop(1))",
    "real = backend.LocalBackend.map",
    "def map(self, fn, tasks, stop=None):",
    "    for item in real(self, fn, tasks, stop):",
    "        yield item",
    "        marker.touch()",
    "backend.LocalBackend.map = map",
    "from unosim.cli import main",
    "main()",
])


class Stopped(NamedTuple):
    code: int
    out: str
    err: str
    answer_s: float  #: from the signal to the process's end


def stop_midway(args: list[str], sig: int, ready: Path | Callable[[], bool], batch: int,
                playing: Path | None = None) -> Stopped:
    """Start ``unosim ARGS``, send ``sig`` once the file ``ready`` exists (a first
    checkpoint) or ``ready()`` is true, and return what the process left. With
    ``playing``, the command runs under :data:`PLAYING`, which touches that file once
    its first task has merged (pass it as ``ready`` too)."""
    cmd = (["-c", PLAYING, str(playing)] if playing is not None else ["-m", "unosim"])
    proc = subprocess.Popen([sys.executable, *cmd, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(batch), cwd=REPO)
    is_ready = ready.exists if isinstance(ready, Path) else ready
    t0 = time.monotonic()
    while not is_ready():
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"ended (exit {proc.returncode}) before it could be stopped: "
                        f"{err[-2000:]}")
        if time.monotonic() - t0 > 600:
            proc.kill()
            pytest.fail("never got far enough to be stopped")
        time.sleep(0.01)
    proc.send_signal(sig)
    t1 = time.monotonic()
    out, err = proc.communicate(timeout=300)
    return Stopped(proc.returncode, out, err, time.monotonic() - t1)


def in_process(capsys, monkeypatch, argv: list[str], batch: int) -> tuple[int, str, str]:
    """``unosim ARGV`` here, with ``batch`` games per batch: (exit code, stdout, stderr)."""
    monkeypatch.setenv("UNOSIM_BATCH", str(batch))
    capsys.readouterr()
    return invoke(capsys, argv)


def whole_in_process(capsys, monkeypatch, argv: list[str], batch: int) -> dict:
    """The uninterrupted JSON result of ``unosim ARGV``, played here with ``batch``."""
    code, out, err = in_process(capsys, monkeypatch, argv, batch)
    assert code == 0, err[-2000:]
    return json.loads(out)


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


def _games_tournament(s: dict) -> set[int]:
    return {s["games_per_lineup"]}  # one count: every lineup on the same deals


def _games_atlas(s: dict) -> set[int]:
    return {1}  # one comparison per player count: see the atlas's own "partial" checks


#: (command line, batch, what the games per arm are, the signal): the tasks each has
#: left after its first: compare and sweep 31, skill 29, atlas 33 (over its two player
#: counts' comparisons and skill edges), the searching compare 49, the tournament 33
STUDIES = {
    "compare": (["compare", "official", "stacking", "--games", "32000"], 1000,
                _games_compare, signal.SIGINT),
    "compare-search": (["compare", "official", "seven-o", "--games", "400", "--players", "2",
                        "--seat", "0=search:rollouts=3"], 8, _games_compare, signal.SIGTERM),
    "sweep": (["sweep", "--rule", "hand_size=5,7", "--players", "2,4", "--games", "32000"],
              1000, _games_sweep, signal.SIGTERM),
    "skill": (["skill", "official", "stacking", "--strategy", "offensive", "--games",
               "120000"], 1000, _games_skill, signal.SIGINT),
    "atlas": (["atlas", "--players", "2,3", "--games", "3000"], 250, _games_atlas,
              signal.SIGTERM),
    "tournament": (["tournament", "offensive", "defensive", "random", "--games", "102000"],
                   1000, _games_tournament, signal.SIGINT),
}


@pytest.mark.subprocess
@pytest.mark.parametrize("name", list(STUDIES))
def test_a_stopped_study_resumes_to_the_uninterrupted_result(tmp_path, name, capsys,
                                                             monkeypatch):
    args, batch, games_of, sig = STUDIES[name]
    out = tmp_path / "out"
    argv = [*args, "--seed", "5", "--format", "json", "--no-progress"]
    code, stdout, err, _ = stop_midway([*argv, "--out", str(out)], sig,
                                       out / "checkpoint.json", batch)
    assert code == EXIT[sig], err[-3000:]
    assert "Traceback" not in stdout + err
    partial = json.loads(stdout)
    assert partial["partial"] is True
    assert len(games_of(partial)) == 1  # the same games in every arm
    assert "interrupted after" in err and f"--resume {out}" in err
    files_whole(out)
    code, done, err = in_process(capsys, monkeypatch, [args[0], "--resume", str(out),
                                                       "--format", "json", "--no-progress"],
                                 batch * 3 + 1)  # another batch size: the same result
    assert code == 0, err[-3000:]
    assert "Traceback" not in done + err
    assert not (out / "checkpoint.json").exists()
    whole = whole_in_process(capsys, monkeypatch, argv, batch)
    assert same(json.loads(done), whole)


@pytest.mark.subprocess
@pytest.mark.parametrize("extra, sig", [
    (["--report"], signal.SIGINT),
    (["--save-games", "{out}/games.parquet"], signal.SIGTERM),
    (["--mode", "match", "--save-games", "{out}/matches.parquet", "--games", "3000"],
     signal.SIGINT),
], ids=["report", "save-games", "match-save-games"])
def test_run_with_report_or_records_keeps_a_checkpoint(tmp_path, extra, sig, capsys,
                                                      monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    extra = [x.replace("{out}", str(out)) for x in extra]
    argv = ["run", "--games", "60000", "--seed", "3", *extra, "--format", "json",
            "--no-progress"]
    code, stdout, err, _ = stop_midway([*argv, "--out", str(out)], sig,
                                       out / "checkpoint.json", 200)
    assert code == EXIT[sig], err[-3000:]
    assert "Traceback" not in stdout + err
    assert json.loads(stdout)["partial"] is True
    files_whole(out)
    code, done, err = in_process(capsys, monkeypatch, ["run", "--resume", str(out), "--format",
                                                       "json", "--no-progress"], 1000)
    assert code == 0, err[-3000:]
    whole_dir = tmp_path / "whole"
    whole_dir.mkdir()
    # without --report: its charts and page are files, not figures of the result (the
    # stopped and the resumed run write them, and the page's charts cost seconds)
    whole = whole_in_process(capsys, monkeypatch, [*(x.replace(str(out), str(whole_dir))
                                                      for x in argv if x != "--report"),
                                                   "--out", str(whole_dir)], 1000)
    assert same(json.loads(done), whole)
    records = [x for x in extra if x.endswith(".parquet")]
    if records:
        import pandas as pd

        got = pd.read_parquet(records[0])
        want = pd.read_parquet(records[0].replace(str(out), str(whole_dir)))
        assert got.equals(want)


@pytest.mark.subprocess
def test_a_stopped_tournament_is_partial_on_the_same_deals(tmp_path):
    """A searching table, stopped once its first task of games has merged; the stop
    must answer within seconds."""
    args = ["tournament", "search:rollouts=8", "random", "--players", "2", "--games",
            "100000", "--seed", "2", "--format", "json", "--no-progress"]
    playing = tmp_path / "playing"
    code, stdout, err, answer_s = stop_midway(args, signal.SIGTERM, playing, 50,
                                              playing=playing)
    assert answer_s < 60
    assert code == EXIT[signal.SIGTERM], err[-3000:]
    assert "Traceback" not in stdout + err
    s = json.loads(stdout)
    assert s["partial"] is True and 0 < s["games_per_lineup"] < 50_000
    assert s["seat_rotation_exact"]  # every lineup played the same deals
    assert "interrupted after" in err


def test_a_tournament_stopped_before_its_first_game_says_so_and_prints_no_report(
        capsys, monkeypatch):
    """A stop that lands before any task has merged (as a signal sent too early does)
    leaves nothing to report: no JSON on stdout, one line on stderr saying that nothing
    was kept, and the exit status of a stop. In process: the stop request is set as
    the first task is handed out."""
    from unosim.runs import backend, stopping

    real = backend.LocalBackend.map

    def map(self, fn, tasks, stop=None):  # noqa: ANN001, ANN202
        stopping.current().set(signal.SIGINT)
        yield from real(self, fn, tasks, stop)

    monkeypatch.setattr(backend.LocalBackend, "map", map)
    code, out, err = invoke(capsys, ["tournament", "search:rollouts=8", "random", "--players",
                                     "2", "--games", "100", "--seed", "2", "--format", "json",
                                     "--no-progress"])
    assert (code, out, err) == (EXIT[signal.SIGINT], "", "unosim: interrupted: stopped before "
                                "a batch finished: nothing to keep\n")


def _trial_states(db: Path) -> list[str]:
    """The states of the study's trials so far (none while the file or table is not
    there yet, or while the command holds the database)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True,
                                                timeout=0.1)) as c:
            return [s for (s,) in c.execute("SELECT state FROM trials ORDER BY number")]
    except sqlite3.OperationalError:
        return []


@pytest.mark.subprocess
def test_a_stopped_tune_leaves_no_running_trial_and_continues(tmp_path, capsys):
    """Stopped while a trial plays, after one has finished."""
    db = tmp_path / "t.db"
    args = ["tune", "weighted", "--players", "2", "--trials", "40", "--games-per-trial",
            "20000", "--seed", "4", "--storage", f"sqlite:///{db}"]
    def second_trial_plays() -> bool:
        states = _trial_states(db)
        return "COMPLETE" in states and states[-1] == "RUNNING"

    code, stdout, err, _ = stop_midway(args, signal.SIGINT, second_trial_plays, 2000)
    assert code == EXIT[signal.SIGINT], err[-3000:]
    assert "Traceback" not in stdout + err
    assert "interrupted" in stdout
    with sqlite3.connect(db) as c:
        states = [s for (s,) in c.execute("SELECT state FROM trials")]
    assert "COMPLETE" in states and "RUNNING" not in states
    code, _, err = invoke(capsys, ["tune", "weighted", "--players", "2", "--trials", "2",
                                   "--games-per-trial", "20000", "--storage",
                                   f"sqlite:///{db}"])  # the study's own seed
    assert code == 0, err[-2000:]
    with sqlite3.connect(db) as c:
        (n,) = c.execute("SELECT count(*) FROM trials").fetchone()
    assert n == len(states) + 2
