"""The one guarded entry (``unosim.cli.main``): whatever goes wrong inside a command is
one line on stderr, never a traceback, and a stop anywhere is one line with exit code
130. docs/reliability.md states these; each test holds one of them.

- an unexpected exception: ``unosim: error: internal error: TYPE: MESSAGE (...)``,
  exit code 1, the traceback only with ``UNOSIM_DEBUG=1``;
- Ctrl-C outside a run's batches, and while the report's files are written: one line
  saying what was kept and how to resume, exit code 130;
- a stop that Python swallows in a finalizer: no "Exception ignored" traceback, exit
  code 130 and a line saying the output is complete;
- two commands into one ``--out`` at once: the second is refused in one line.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_helpers import assert_one_line_error, invoke
from test_cli import TIMING_KEYS

from unosim import common, interrupt

# ---------------------------------------------------------------- internal errors


def _failing_rules(monkeypatch, exc: BaseException) -> None:
    """``unosim rules`` raising ``exc`` from inside the command."""
    from unosim.simulate import rules

    def boom(*args, **kwargs):
        raise exc

    monkeypatch.setattr(rules, "resolve", boom)


@pytest.mark.parametrize("exc", [RuntimeError("boom"), KeyError("players"),
                                 TypeError("unsupported operand"), AssertionError(),
                                 ZeroDivisionError("division by zero"),
                                 RuntimeError("two\nlines"), GeneratorExit()])
def test_an_unexpected_exception_is_one_line_exit_1(capsys, monkeypatch, exc):
    monkeypatch.delenv("UNOSIM_DEBUG", raising=False)
    _failing_rules(monkeypatch, exc)
    code, out, err = invoke(capsys, ["rules"])
    assert code == 1, err
    assert "Traceback" not in out + err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    line = err.strip()
    assert line.startswith(f"unosim: error: internal error: {type(exc).__name__}"), line
    assert " ".join(str(exc).split()) in line
    assert "UNOSIM_DEBUG=1" in line and "report" in line


def test_unosim_debug_shows_the_traceback_then_the_line(capsys, monkeypatch):
    monkeypatch.setenv("UNOSIM_DEBUG", "1")
    _failing_rules(monkeypatch, RuntimeError("boom"))
    code, out, err = invoke(capsys, ["rules"])
    assert code == 1
    assert "Traceback (most recent call last)" in err
    assert err.splitlines()[-1].startswith("unosim: error: internal error: RuntimeError: boom")


def test_an_oserror_the_machine_raises_is_bad_input_and_others_are_internal(capsys,
                                                                           monkeypatch):
    _failing_rules(monkeypatch, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "/x/y"))
    code, out, err = invoke(capsys, ["rules"])
    assert_one_line_error(code, out, err, "/x/y", os.strerror(errno.ENOSPC))
    _failing_rules(monkeypatch, OSError(errno.ECONNRESET, "reset"))
    code, out, err = invoke(capsys, ["rules"])
    assert code == 1 and err.startswith("unosim: error: internal error: ConnectionResetError")


# ---------------------------------------------------------------- Ctrl-C


def test_ctrl_c_outside_a_run_is_one_line_exit_130(capsys, monkeypatch):
    _failing_rules(monkeypatch, KeyboardInterrupt())
    code, out, err = invoke(capsys, ["rules"])
    assert code == 130
    assert err == "unosim: interrupted\n"  # click's "Aborted!" and its blank line gone


def test_sigterm_outside_a_run_exits_143(capsys, monkeypatch):
    from unosim.simulate import rules

    def term(*args, **kwargs):
        interrupt.terminate_as_interrupt(signal.SIGTERM, None)

    monkeypatch.setattr(rules, "resolve", term)
    code, out, err = invoke(capsys, ["rules"])
    assert (code, err) == (143, "unosim: interrupted\n")


class CtrlCWhileWriting:
    """``_write_new`` that is interrupted (Ctrl-C) at the ``at``-th report file."""

    def __init__(self, at: int) -> None:
        self.at, self.seen, self.real = at, 0, common._write_new

    def __call__(self, tmp: Path, data: bytes) -> None:
        if not tmp.name.startswith(".checkpoint.json"):
            self.seen += 1
            if self.seen == self.at:
                interrupt._note(signal.SIGINT)
                raise KeyboardInterrupt
        self.real(tmp, data)


@pytest.mark.parametrize("at", [1, 2])
def test_ctrl_c_while_the_report_files_are_written_says_how_to_get_them(capsys, monkeypatch,
                                                                         tmp_path, at):
    """The report is printed, then its files: a Ctrl-C there writes none of them, keeps
    the checkpoint up to date and says that ``--resume`` writes them without playing."""
    out_dir = tmp_path / "o"
    argv = ["--games", "600", "--seed", "5", "--workers", "1", "--format", "json"]
    monkeypatch.setattr(common, "_write_new", CtrlCWhileWriting(at))
    code, out, err = invoke(capsys, [*argv, "--out", str(out_dir)])
    assert code == 130, err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert err.startswith(f"unosim: interrupted while writing the files of {out_dir}")
    assert "the report above is complete" in err
    assert f"`unosim run --resume {out_dir}` writes them without playing again" in err
    first = json.loads(out)
    assert sorted(p.name for p in out_dir.iterdir()) == ["checkpoint.json"]  # nothing half
    monkeypatch.undo()
    code, out, err = invoke(capsys, ["run", "--resume", str(out_dir), "--format", "json"])
    assert code == 0, err
    again = json.loads(out)
    for d in (first, again):
        for k in TIMING_KEYS:
            d.pop(k, None)
    assert again["games"] == first["games"] == 600
    assert again == first
    assert (out_dir / "summary.json").is_file() and not (out_dir / "checkpoint.json").exists()


def test_a_stop_swallowed_in_a_finalizer_leaves_no_traceback(capsys, monkeypatch):
    """Python cannot raise from a finalizer: it prints "Exception ignored" and a
    traceback, and the command goes on. The stop is noted, so the command ends with
    one line and 130 once it has finished."""
    from unosim.simulate import rules

    real = rules.resolve

    class Finalizer:
        def __del__(self):
            interrupt.terminate_as_interrupt(signal.SIGINT, None)

    def resolve(*args, **kwargs):
        Finalizer()  # dropped at once: its __del__ raises KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(rules, "resolve", resolve)
    code, out, err = invoke(capsys, ["rules"])
    assert code == 130
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert err == ("unosim: interrupted as the command ended; its output above and its "
                   "files are complete\n")
    assert "hand_size" in out  # the command ran to its end


# ---------------------------------------------------------------- one command per --out


HOLD = textwrap.dedent("""
    import fcntl, os, sys, time
    fd = os.open(sys.argv[1], os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    print("held", flush=True)
    time.sleep(60)
""")


@pytest.mark.subprocess
@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_an_out_folder_in_use_by_another_command_is_refused(capsys, tmp_path):
    out_dir = tmp_path / "o"
    out_dir.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out_dir)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        code, out, err = invoke(capsys, ["--games", "100", "--seed", "1", "--out",
                                         str(out_dir)])
        assert_one_line_error(code, out, err, f"--out {out_dir}", "another unosim command",
                              "another folder")
        code, out, err = invoke(capsys, ["compare", "official", "stacking", "--games",
                                         "100", "--out", str(out_dir)])
        assert_one_line_error(code, out, err, f"--out {out_dir}", "another unosim command")
        code, out, err = invoke(capsys, ["run", "--resume", str(out_dir)])
        assert_one_line_error(code, out, err, f"--resume {out_dir}", "another unosim command")
        assert list(out_dir.iterdir()) == []  # the second command wrote nothing
    finally:
        holder.kill()
        holder.wait()
    code, out, err = invoke(capsys, ["--games", "100", "--seed", "1", "--out", str(out_dir)])
    assert code == 0, err  # free again once the other command ended


def test_the_folder_is_free_again_after_each_command(capsys, tmp_path):
    """The lock goes with the command, in one process too (notebooks, tests)."""
    from unosim.resuming import _locks

    out_dir = tmp_path / "o"
    for _ in range(2):
        code, out, err = invoke(capsys, ["--games", "100", "--seed", "1", "--out",
                                         str(out_dir)])
        assert code == 0, err
        assert _locks == {}


@pytest.mark.subprocess
@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_two_runs_started_at_once_into_one_out(tmp_path):
    """Started at the same instant (before either wrote a checkpoint): one plays, the
    other is refused at once in one line with exit code 2, and the one playing is not
    disturbed (stopped here with Ctrl-C, it keeps its checkpoint as usual)."""
    import time

    out_dir = tmp_path / "o"
    cmd = [sys.executable, "-m", "unosim", "--games", "1e9", "--seed", "1", "--workers",
           "1", "--out", str(out_dir), "--format", "json"]
    # batches of 500 games: the first checkpoint comes after 500 games, not 65,536
    env = dict(os.environ, UNOSIM_BATCH="500")
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env) for _ in range(2)]
    try:
        deadline = time.monotonic() + 120
        while all(p.poll() is None for p in procs) and time.monotonic() < deadline:
            time.sleep(0.05)
        refused = next(p for p in procs if p.poll() is not None)
        out, err = refused.communicate()
        assert refused.returncode == 2, err
        assert out == ""
        assert err.startswith(f"unosim: error: --out {out_dir}: another unosim command"), err
        assert len(err.splitlines()) == 1
        winner = next(p for p in procs if p is not refused)
        assert winner.poll() is None  # still playing
        while not (out_dir / "checkpoint.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        winner.send_signal(signal.SIGINT)
        out, err = winner.communicate(timeout=120)
        assert winner.returncode == 130, err
        assert f"unosim run --resume {out_dir}" in err
        assert json.loads(out)["partial"] is True
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def test_a_real_ctrl_c_while_the_files_are_renamed_leaves_the_whole_set(capsys, monkeypatch,
                                                                         tmp_path):
    """The set is renamed into place in a moment in which a stop is noted, not raised:
    a real SIGINT there leaves every file of the set in place (none half renamed), and
    the command ends with 130 and one line saying its output is complete."""
    out_dir = tmp_path / "o"
    real = os.replace
    sent = []

    def replace(src, dst):
        # a file of the report's set: the checkpoint, renamed into the folder while
        # the games play, is a stop during play (which says it stops after the task)
        if not sent and str(dst).startswith(str(out_dir)) and \
                Path(dst).name.startswith("summary."):
            sent.append(1)
            os.kill(os.getpid(), signal.SIGINT)  # the handler runs before the next line
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    code, out, err = invoke(capsys, ["--games", "300", "--seed", "2", "--workers", "1",
                                     "--out", str(out_dir)])
    assert sent and code == 130, err
    assert err == ("unosim: interrupted as the command ended; its output above and its "
                   "files are complete\n")
    assert sorted(p.name for p in out_dir.iterdir()) == ["summary.csv", "summary.json"]


def test_a_closed_pipe_ends_quietly(capsys, monkeypatch):
    """`unosim rules | head -1`: the reader went away; nothing to tell it, no traceback."""
    _failing_rules(monkeypatch, BrokenPipeError(32, "Broken pipe"))
    code, out, err = invoke(capsys, ["rules"])
    assert (code, out, err) == (1, "", "")
