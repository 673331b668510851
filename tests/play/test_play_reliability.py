"""``unosim play`` when things go wrong: where the rounds are saved by default, a
folder it cannot write in, a full disk, a stop by a signal, points out of range, a
port another program holds, and ``unosim replay`` of a file of another layout or
version. Each is one line (exit code 2), or ends the way Ctrl-C does, naming the
file of the finished rounds."""

from __future__ import annotations

import json
import os
import signal
import socket
from pathlib import Path

import pytest
from cli_helpers import assert_one_line_error, invoke

pytest.importorskip("textual")


def headless(monkeypatch: pytest.MonkeyPatch, script) -> None:
    """``unosim play`` runs its real app, headless, with ``script(pilot)`` pressing keys."""
    from unosim.play.app import PlayApp

    run = PlayApp.run
    monkeypatch.setattr(PlayApp, "run", lambda self, **kw: run(
        self, headless=True, size=(110, 30), auto_pilot=script))


def no_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table must not open: the check comes first."""
    from unosim.play.app import PlayApp

    def run(self, **kw):
        raise AssertionError("the table opened before the options were checked")

    monkeypatch.setattr(PlayApp, "run", run)


async def finish_round(pilot) -> None:
    await pilot.pause()
    while not pilot.app.table.over:
        await pilot.press("enter")
        await pilot.pause()


@pytest.mark.parametrize("argv", [["--match", "-5"], ["--match=-5"], ["--match", "0"],
                                  ["--match", "100001"]])
def test_match_points_out_of_range_say_the_range(capsys, monkeypatch, argv):
    no_app(monkeypatch)
    assert_one_line_error(*invoke(capsys, ["play", *argv]), "--match",
                          "the points must be 1..100000")


def test_rounds_go_to_the_data_folder_not_the_current_one(capsys, tmp_path, monkeypatch):
    here = tmp_path / "clone"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))

    async def script(pilot) -> None:
        await finish_round(pilot)
        await pilot.press("q")

    headless(monkeypatch, script)
    code, out, err = invoke(capsys, ["play", "--players", "2", "--seed", "8"])
    assert code == 0, err
    path = tmp_path / "data" / "unosim" / "play" / "unosim-play-8.json"
    assert out == f"1 round saved in {path}: unosim replay {path} --game 0\n"
    assert list(here.iterdir()) == [] and json.loads(path.read_text())["seed"] == 8
    # without XDG_DATA_HOME: ~/.local/share
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    from unosim.commands.play import save_folder

    assert save_folder() == tmp_path / "home" / ".local" / "share" / "unosim" / "play"


def test_a_table_that_finished_no_round_leaves_no_file(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def script(pilot) -> None:
        await pilot.pause()
        await pilot.press("q")

    headless(monkeypatch, script)
    code, out, err = invoke(capsys, ["play", "--players", "2", "--seed", "8"])
    assert code == 0 and out == "", (out, err)
    assert list((tmp_path / "unosim" / "play").iterdir()) == []


def _unwritable(tmp_path: Path) -> Path:
    """A folder this process cannot create a file in: a read-only one, or for root
    (whom permissions do not stop) /sys, where nobody can."""
    if os.geteuid() != 0:
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o555)
        return folder
    folder = Path("/sys")
    try:
        (folder / "unosim-probe").touch()
    except OSError:
        return folder
    pytest.skip("no folder here refuses root a new file")


def test_save_into_a_folder_it_cannot_write_is_refused_up_front(capsys, tmp_path,
                                                                monkeypatch):
    no_app(monkeypatch)
    folder = _unwritable(tmp_path)
    assert_one_line_error(*invoke(capsys, ["play", "--save", str(folder / "t.json")]),
                          f"--save {folder / 't.json'}", "cannot write in")
    # --serve checks it too, before it serves anything
    import unosim.play.serve as serve

    monkeypatch.setattr(serve, "serve", lambda *a: pytest.fail("served"))
    assert_one_line_error(*invoke(capsys, ["play", "--save", str(folder / "t.json"),
                                           "--serve"]), "cannot write in")


def test_no_data_folder_is_one_line(capsys, tmp_path, monkeypatch):
    no_app(monkeypatch)
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))  # a file where the folder goes
    assert_one_line_error(*invoke(capsys, ["play", "--seed", "3"]), str(blocked),
                          "--save FILE")


def test_a_full_disk_leaves_no_temporary_file(capsys, tmp_path, monkeypatch):
    """The temporary file the save goes through is /dev/full: every write fails with
    ENOSPC, as on a full disk. The table stops with one line, and nothing is left."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    path = tmp_path / "p.json"
    tmp = tmp_path / "p.json.tmp"
    tmp.symlink_to("/dev/full")

    async def script(pilot) -> None:
        await finish_round(pilot)
        await pilot.press("q")

    headless(monkeypatch, script)
    assert_one_line_error(*invoke(capsys, ["play", "--players", "2", "--seed", "8",
                                           "--save", str(path)]),
                          f"cannot save the game in {path}", "No space left")
    assert not tmp.exists() and not tmp.is_symlink() and not path.exists()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_ends_the_table_as_q_does_and_names_the_file(capsys, tmp_path,
                                                              monkeypatch, sig):
    path = tmp_path / "t.json"

    async def script(pilot) -> None:
        await finish_round(pilot)
        await pilot.press("n")
        await pilot.press("enter")  # a second round begun, not finished
        await pilot.pause()
        os.kill(os.getpid(), sig)
        for _ in range(50):  # the app is told to end (it ends once this script does)
            await pilot.pause(0.1)
            if pilot.app.return_code is not None:
                return
        raise AssertionError("the signal did not end the table")

    headless(monkeypatch, script)
    code, out, err = invoke(capsys, ["play", "--players", "2", "--seed", "8",
                                     "--save", str(path)])
    assert code == 128 + sig, (code, out, err)
    assert out == (f"1 round saved in {path}: unosim replay {path} --game 0\n"
                   "round 1 was left unfinished: it is not saved\n")
    assert err == f"unosim: stopped by {signal.Signals(sig).name}\n"
    assert len(json.loads(path.read_text())["rounds"]) == 1


def test_serve_on_a_port_in_use_is_one_line(capsys):
    pytest.importorskip("textual_serve")
    with socket.socket() as s:
        s.bind(("localhost", 0))
        s.listen()
        port = s.getsockname()[1]
        assert_one_line_error(*invoke(capsys, ["play", "--serve", "--port", str(port)]),
                              f"--port {port}", "another program")


def _saved(tmp_path: Path, capsys, monkeypatch) -> Path:
    path = tmp_path / "t.json"

    async def script(pilot) -> None:
        await finish_round(pilot)
        await pilot.press("q")

    headless(monkeypatch, script)
    code, _, err = invoke(capsys, ["play", "--players", "2", "--seed", "8", "--save",
                                   str(path)])
    assert code == 0, err
    return path


def test_replay_refuses_another_layout_and_says_another_version(capsys, tmp_path,
                                                                monkeypatch):
    from unosim import __version__

    path = _saved(tmp_path, capsys, monkeypatch)
    doc = json.loads(path.read_text())
    other = dict(doc, schema_version=doc["schema_version"] + 1)
    path.write_text(json.dumps(other))
    assert_one_line_error(*invoke(capsys, ["replay", str(path)]), "file layout",
                          str(doc["schema_version"] + 1))
    path.write_text(json.dumps(dict(doc, unosim_version="0.0.1")))
    code, out, err = invoke(capsys, ["replay", str(path)])
    assert code == 0 and "the same round as round 0" in out
    assert err == (f"unosim: warning: {path} was written by unosim 0.0.1, this is unosim "
                   f"{__version__} with the same engine\n")
    path.write_text(json.dumps(doc))
    code, out, err = invoke(capsys, ["replay", str(path)])
    assert code == 0 and err == ""


@pytest.mark.parametrize("argv,needle", [(["--seat", "1=nosuch"], "nosuch"),
                                         (["--rule", "stack_draw_two=true"], "stack_draw_two"),
                                         (["--seat", "0=random"], "seat 0 is yours")])
def test_serve_checks_the_table_before_it_serves(capsys, monkeypatch, argv, needle):
    """Bad options are one line at the server, not an error in every page opened."""
    import unosim.play.serve as serve

    monkeypatch.setattr(serve, "serve", lambda *a: pytest.fail("served"))
    assert_one_line_error(*invoke(capsys, ["play", *argv, "--serve"]), needle)
