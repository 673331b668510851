"""``unosim play`` on the command line: bad options and a missing extra are one line and
exit code 2, before any screen opens."""

from __future__ import annotations

import json
import sys

import pytest
from cli_helpers import assert_one_line_error, invoke


@pytest.mark.parametrize("argv,needle", [
    (["play", "--seat", "0=random"], "seat 0 is yours"),
    (["play", "--seat", "5=random"], "--seat"),
    (["play", "--seat", "1=nosuch"], "nosuch"),
    (["play", "--variant", "nosuch"], "nosuch"),
    (["play", "--rule", "stack_draw_two=maybe"], "stack_draw_two"),
    (["play", "--players", "11"], "players"),
    (["play", "--seed", "-1"], "--seed"),
])
def test_bad_options_are_one_line(capsys, argv, needle):
    pytest.importorskip("textual")
    assert_one_line_error(*invoke(capsys, argv), needle)


def test_without_textual_it_names_the_extra(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "textual", None)
    assert_one_line_error(*invoke(capsys, ["play"]), "unosim[play]")


def test_help_lists_the_command(capsys):
    code, out, _ = invoke(capsys, ["--help"])
    assert code == 0 and "play" in out
    code, out, _ = invoke(capsys, ["play", "--help"])
    assert code == 0 and "--seat" in out and "seat 0" in out


@pytest.mark.parametrize("argv,needle", [
    (["play", "--match", "0"], "--match"),
    (["play", "--match", "100001"], "--match"),
    (["play", "--match", "many"], "--match"),
    (["play", "--match", "50", "--rule", "target_score=100"], "give it once"),
    (["play", "--port", "9000"], "--port goes with --serve"),
    (["play", "--save", "no/such/folder/t.json"], "no folder"),
])
def test_bad_match_save_and_serve_options_are_one_line(capsys, argv, needle):
    pytest.importorskip("textual")
    assert_one_line_error(*invoke(capsys, argv), needle)


def test_save_never_overwrites_another_file(capsys, tmp_path, monkeypatch):
    pytest.importorskip("textual")
    from unosim.commands.play import save_path

    other = tmp_path / "notes.json"
    other.write_text("{}")
    assert_one_line_error(*invoke(capsys, ["play", "--save", str(other)]), "not a file of")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    first = save_path(None, 7)
    assert first == tmp_path / "data" / "unosim" / "play" / "unosim-play-7.json"
    # the name is taken as soon as it is chosen: a second table of the seed (another
    # page of --serve) takes the next one
    assert first.is_file() and save_path(None, 7).name == "unosim-play-7-2.json"
    assert save_path(None, 7).name == "unosim-play-7-3.json"


def test_serve_starts_the_same_command_for_each_page(capsys, monkeypatch):
    pytest.importorskip("textual")
    import os
    import shlex

    import unosim.play.serve as serve

    served: list[tuple[list[str], int]] = []
    monkeypatch.setattr(serve, "serve", lambda argv, port: served.append((argv, port)))
    argv = ["play", "--variant", "stacking", "--seat", "1=random", "--seat", "2=search",
            "--match", "--seed", "3", "--save", "t.json", "--serve", "--port", "8123"]
    code, _, err = invoke(capsys, argv)
    assert code == 0, err
    [(words, port)] = served
    assert port == 8123
    assert words[1:5] == ["-P", "-m", "unosim", "play"]  # -P: see common.module_command
    assert sorted(" ".join(words[5:]).split(" --")) == sorted(
        "--variant stacking --seat 1=random --seat 2=search --match --seed 3 --save t.json"
        .split(" --"))
    # the shell line textual-serve runs: the table itself (exec), told the server's id
    line = shlex.split(serve.table_command(words))
    assert line[:2] == [f"{serve.SERVER_ENV}={os.getpid()}", "exec"] and line[2:] == words


def test_the_command_saves_each_round_and_names_the_file(capsys, tmp_path, monkeypatch):
    """The app's screen replaced by a person who plays the first move of two rounds:
    the file the command names replays both."""
    pytest.importorskip("textual")
    from unosim.play.app import PlayApp

    def run(app: PlayApp) -> None:
        assert app.saved_to == str(path)
        assert not app.table.started  # the screen deals, once it is drawn
        app.table.deal()
        for k in range(2):
            while not app.table.over:
                app.table.pick(0)
            assert path.is_file() and len(json.loads(path.read_text())["rounds"]) == k + 1
            if k == 0:
                app.table.deal()

    path = tmp_path / "mine.json"
    monkeypatch.setattr(PlayApp, "run", run)
    code, out, err = invoke(capsys, ["play", "--players", "2", "--seed", "5", "--match", "--save",
                                     str(path)])
    assert code == 0, err
    assert out == f"2 rounds saved in {path}: unosim replay {path} --game 1\n"
    doc = json.loads(path.read_text())
    assert doc["match"] and doc["seed"] == 5 and doc["players"] == 2
    assert doc["command"] == f"unosim play --players 2 --seed 5 --match --save {path}"
    for k in (0, 1):
        code, out, err = invoke(capsys, ["replay", str(path), "--game", str(k)])
        assert code == 0 and f"the same round as round {k}" in out, err


def test_call_uno_reaches_the_table_and_the_file(capsys, tmp_path, monkeypatch):
    """--call-uno: the table waits for the person's call, and the file says so (and
    the command it was played with)."""
    pytest.importorskip("textual")
    from unosim.play.app import PlayApp

    def run(app: PlayApp) -> None:
        app.table.deal()  # as the screen does once it is drawn
        assert app.table.call_uno and app.table.call() and app.table.calling
        while not app.table.over:
            app.table.pick(0)

    path = tmp_path / "calls.json"
    monkeypatch.setattr(PlayApp, "run", run)
    code, _, err = invoke(capsys, ["play", "--call-uno", "--seed", "4", "--save", str(path)])
    assert code == 0, err
    doc = json.loads(path.read_text())
    assert doc["call_uno"] is True and "--call-uno" in doc["command"].split()
    code, out, err = invoke(capsys, ["replay", str(path)])
    assert code == 0 and "the same round as round 0" in out, err
