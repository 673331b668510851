"""A stop (Ctrl-C, SIGTERM) at the awkward moments: after the last task, before the
first one, while a study's one long task plays, and what the lines and the counts then
say. In this process (``cli.main``), the signal sent by a patched step of the command
at the moment in question, so each test lands exactly where it means to."""

from __future__ import annotations

import json
import os
import signal

import pytest
from cli_helpers import invoke

from unosim.runs.backend import LocalBackend
from unosim.studies import checkpoints as ck


def _signal_in(monkeypatch, owner, name: str, sig: int = signal.SIGINT, times: int = 1) -> None:
    """``owner.name`` sends ``sig`` to this process on its first ``times`` calls, then
    does what it did."""
    original = getattr(owner, name)
    left = [times]

    def sending(*args, **kwargs):
        if left[0] > 0:
            left[0] -= 1
            os.kill(os.getpid(), sig)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, sending)


# ---------------------------------------------------------------- after the last task


def test_a_stop_while_the_backend_closes_keeps_the_finished_run(capsys, monkeypatch,
                                                                   tmp_path):
    """A Python seat's worker processes end after the last task (the backend's close):
    a Ctrl-C then used to raise there and throw the whole report away, leaving a
    checkpoint seconds behind. Every game is played by then, so the run is reported
    whole, its checkpoint is done with, and the last line says the stop came as it
    ended (exit 130)."""
    _signal_in(monkeypatch, LocalBackend, "close")
    out_dir = tmp_path / "out"
    code, out, err = invoke(capsys, ["run", "--games", "4000", "--seed", "3", "--workers", "1",
                                     "--out", str(out_dir), "--format", "json"])
    assert code == 130, err
    assert json.loads(out)["games"] == 4000
    assert "interrupted as the command ended" in err and "Traceback" not in err
    assert not (out_dir / ck.FILE_NAME).exists()


def test_a_stopped_run_keeps_its_play_time_beside_its_games(capsys, monkeypatch, tmp_path):
    """The checkpoint holds the play time of the games it holds (written with them, so
    a checkpoint of a crash has it too), and the resumed run's speed counts the play
    time of both sessions: before, a stop that skipped the report left no time, and
    the resumed run divided every game by its own few seconds."""
    import unosim.runs.checkpoint as checkpoint

    out_dir = tmp_path / "out"
    monkeypatch.setenv("UNOSIM_BATCH", "500")
    written: list[dict] = []
    save = checkpoint.save

    def recording(folder, command, params, stages):
        written.append(dict(stages))
        return save(folder, command, params, stages)

    monkeypatch.setattr(checkpoint, "save", recording)
    _signal_in(monkeypatch, checkpoint, "save")  # a stop as the first task is kept
    code, out, err = invoke(capsys, ["run", "--games", "20000", "--seed", "3", "--workers",
                                     "1", "--out", str(out_dir), "--format", "json"])
    assert code == 130, err
    first = json.loads(out)
    # the checkpoint written while it played (all a crash leaves) has the time too
    assert written[0]["run.elapsed_s"] > 0 and written[0]["run"].totals.games > 0
    _, stages = ck.load(out_dir, "run")
    assert stages["run"].totals.games == first["games"] < 20000
    assert stages["run.elapsed_s"] > 0
    saved = stages["run.elapsed_s"]
    code, out, err = invoke(capsys, ["run", "--resume", str(out_dir), "--format", "json"])
    assert code == 0, err
    whole = json.loads(out)
    assert whole["games"] == 20000 and whole["elapsed_s"] > saved


# ---------------------------------------------------------------- before the first task


def _stop_as_play_starts(monkeypatch) -> None:
    """The stop request is set as the first task is handed out (a signal sent while a
    Python seat's first batch, seconds long, still plays)."""
    from unosim.runs import backend, stopping

    real = backend.LocalBackend.map

    def map(self, fn, tasks, stop=None):  # noqa: ANN001, ANN202
        stopping.current().set(signal.SIGINT)
        yield from real(self, fn, tasks, stop)

    monkeypatch.setattr(backend.LocalBackend, "map", map)


def test_a_run_stopped_before_its_first_batch_says_nothing_was_kept(capsys, monkeypatch,
                                                                    tmp_path):
    """Not a bare "interrupted": the line says that nothing was kept, in the words of
    ``api.Interrupted``."""
    out_dir = tmp_path / "out"
    _stop_as_play_starts(monkeypatch)
    code, out, err = invoke(capsys, ["run", "--games", "4000", "--seed", "3", "--workers", "1",
                                     "--out", str(out_dir)])
    assert (code, out) == (130, "")
    assert err == "unosim: interrupted: stopped before a batch finished: nothing to keep\n"
    assert not out_dir.exists() or not (out_dir / ck.FILE_NAME).exists()


# ---------------------------------------------------------------- a long task


def _stopped_atlas(capsys, monkeypatch, tmp_path):
    """``atlas`` at 4 players, 4 tasks of 1,000 games, Ctrl-C as the first one is kept."""
    import unosim.runs.checkpoint as checkpoint

    monkeypatch.setenv("UNOSIM_BATCH", "1000")
    _signal_in(monkeypatch, checkpoint, "save")
    return invoke(capsys, ["atlas", "--players", "4", "--games", "4000", "--strategy", "none",
                           "--seed", "7", "--workers", "1", "--out", str(tmp_path / "at")])


def test_the_first_stop_says_at_once_that_the_current_task_finishes_first(capsys, monkeypatch,
                                                                          tmp_path):
    """An atlas task plays every preset, seconds long: the first signal prints at once
    that the current task is finished first and that a second signal drops the report,
    so the bar that keeps moving is not taken for a stop unheard."""
    from unosim.interrupt import STOPPING

    code, out, err = _stopped_atlas(capsys, monkeypatch, tmp_path)
    assert code == 130, err
    assert STOPPING.startswith("unosim: stopping after the current task")
    assert err.count(STOPPING) == 1 and err.index(STOPPING) < err.index("interrupted after")


# ---------------------------------------------------------------- what a stopped study says


def test_a_claim_cut_short_is_not_counted_as_settled(capsys, monkeypatch, tmp_path):
    """A stop inside a claim leaves it undecided where its games had got to: its
    verdict line says PARTIAL, and the closing line and the JSON counts put it under
    CUT SHORT, not under NOT SHOWN and not among the claims settled."""
    import unosim.runs.checkpoint as checkpoint

    monkeypatch.setenv("UNOSIM_BATCH", "1000")
    _signal_in(monkeypatch, checkpoint, "save")  # as the first task of the first claim is kept
    code, out, err = invoke(capsys, ["settle", "stacking-longer", "first-uno-wins", "--seed",
                                     "7", "--games", "20000", "--workers", "1", "--out",
                                     str(tmp_path / "st")])
    assert code == 130, err
    closing = next(line for line in out.splitlines() if "claims settled" in line)
    assert closing.startswith("0 of 2 claims settled in ") and "(1 cut short)" in closing
    doc = json.loads((tmp_path / "st" / "verdicts.json").read_text())
    assert doc["partial"] and doc["counts"]["CUT SHORT"] == 1
    assert sum(doc["counts"].values()) == 1 and doc["counts"]["NOT SHOWN"] == 0


def test_a_stopped_atlas_says_what_its_partial_block_holds(capsys, monkeypatch, tmp_path):
    """The atlas stopped inside its one player count shows that count's block, PARTIAL
    after 1,000 games: the last line says so, not "0 of 1 player counts ... the report
    above covers the finished ones" under a block it just showed."""
    code, out, err = _stopped_atlas(capsys, monkeypatch, tmp_path)
    assert code == 130, err
    assert "PARTIAL: stopped after 1,000 games" in out
    last = err.strip().splitlines()[-1]
    assert last.startswith("unosim: interrupted after 1,000 of 4,000 games per preset at 4 "
                           "players; the report above covers the finished ones"), last


def test_a_stopped_atlas_counts_whole_player_counts_and_the_cut_one_apart():
    from unosim.commands.atlas import stopped_after
    from unosim.studies.grids.atlas import Atlas, AtlasPlayers

    def block(n: int, games: int, partial: bool) -> AtlasPlayers:
        return AtlasPlayers(n, [], {}, {}, {}, games, partial)

    atlas = Atlas(7, 4000, None, [block(2, 4000, False), block(3, 1000, True)], [2, 3, 4])
    assert stopped_after(atlas) == ("1 of 3 player counts and 1,000 of 4,000 games per "
                                    "preset at 3 players")
    atlas.by_players.pop()
    assert stopped_after(atlas) == "1 of 3 player counts"


# ---------------------------------------------------------------- a resumed progress bar


def test_a_resumed_study_starts_its_progress_where_it_stopped():
    """A resumed comparison (and so sweep, atlas and run) tells its progress bar first
    of the games its checkpoint holds: the bar, sized to the whole study, then ends
    full, and its time estimate counts only what is left to play."""
    from unosim.runs import stopping
    from unosim.runs.checkpoint import Keeper
    from unosim.runs.stopping import StopRequest
    from unosim.runs.variants import VariantSpec
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy
    from unosim.studies.compare.play import run_compare

    seats = [parse_strategy("random")] * 4
    specs = [VariantSpec("official", resolve(), seats),
             VariantSpec("stacking", resolve(["stacking"]), seats)]
    keep = Keeper(None, "compare", {})
    stop = StopRequest()
    with stopping.listening(stop):
        first = run_compare(specs, 4000, 5, workers=1, batch=1000, keep=keep,
                            on_batch=lambda n: stop.set())
    assert first.partial and first.games == 1000
    ticks: list[int] = []
    whole = run_compare(specs, 4000, 5, workers=1, batch=1000, keep=keep, on_batch=ticks.append)
    assert not whole.partial and whole.games == 4000
    assert ticks[0] == 2 * 1000 and sum(ticks) == 2 * 4000


# ---------------------------------------------------------------- the docs say what is shown


def test_the_tune_guide_calls_a_cut_trial_what_the_output_calls_it():
    """tune's summary counts a trial cut by Ctrl-C as "interrupted", apart from the
    failed ones; the guide said it is marked "failed"."""
    from pathlib import Path

    from unosim.studies.tune.summary import render

    guide = " ".join((Path(__file__).resolve().parents[2] / "docs" / "tune.md").read_text()
                     .split())
    said = guide.split("Ctrl-C keeps every finished trial", 1)[1].split(". ")[0]
    counts = {"trials": 2, "complete": 1, "pruned": 0, "skipped": 0, "failed": 0,
              "interrupted": 1, "running": 0}
    shown = render({"strategy": "weighted", "players": 4, "field": "random", "mode": "round",
                    "variant": "official", "seed": 1, "study": "s", "storage": "x",
                    "sampler": "tpe", "pruner": "median", "counts": counts,
                    "interrupted": True, "reevaluation": [], "best": None, "elapsed_s": 0})
    assert "0 failed, 1 interrupted" in shown
    assert "marks the cut one interrupted" in said and "0 failed, 1 interrupted" in said


# ---------------------------------------------------------------- Ctrl-Z


def _continue_after(seconds: float):
    """A shell that, once this process is stopped, waits ``seconds`` and sends it
    SIGCONT, as ``fg`` does (a suspended process cannot continue itself)."""
    import subprocess

    pid = os.getpid()
    return subprocess.Popen(["sh", "-c", f"until [ \"$(cut -d' ' -f3 /proc/{pid}/stat)\" = T ]; "
                             f"do sleep 0.02; done; sleep {seconds}; kill -CONT {pid}"])


@pytest.mark.subprocess
def test_a_run_suspended_with_ctrl_z_leaves_that_time_out_of_its_speed(capsys, monkeypatch):
    """Ctrl-Z (SIGTSTP) as a batch is kept, continued 1.5 s later as ``fg`` does: the
    process was stopped (the wall clock shows it), but the run's seconds, and so its
    speed line, leave that time out. Before, the speed counted it as play."""
    import time

    if not os.path.exists(f"/proc/{os.getpid()}/stat"):
        pytest.skip("the helper reads the process state from /proc")
    monkeypatch.setenv("UNOSIM_BATCH", "1000")
    helper = _continue_after(1.5)
    try:
        _signal_in(monkeypatch, LocalBackend, "map", signal.SIGTSTP)
        t0 = time.perf_counter()
        code, out, err = invoke(capsys, ["run", "--games", "4000", "--seed", "3",
                                         "--workers", "1", "--format", "json"])
        wall = time.perf_counter() - t0
    finally:
        try:
            helper.wait(timeout=10)
        finally:
            helper.kill()  # never stopped: nothing to continue
    assert code == 0, err
    # 4,000 games of random play take well under a second on one thread
    assert wall > 1.5 and json.loads(out)["elapsed_s"] < 1.0
