"""``unosim play`` on the command line: bad options and a missing extra are one line and
exit code 2, before any screen opens."""

from __future__ import annotations

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
    monkeypatch.chdir(tmp_path)
    assert save_path(None, 7).name == "unosim-play-7.json"
    (tmp_path / "unosim-play-7.json").write_text("{}")
    assert save_path(None, 7).name == "unosim-play-7-2.json"


def test_serve_starts_the_same_command_for_each_page(capsys, monkeypatch):
    pytest.importorskip("textual")
    import shlex

    import unosim.play.serve as serve

    served: list[tuple[str, int]] = []
    monkeypatch.setattr(serve, "serve", lambda command, port: served.append((command, port)))
    argv = ["play", "--variant", "stacking", "--seat", "1=random", "--seat", "2=search",
            "--match", "--seed", "3", "--save", "t.json", "--serve", "--port", "8123"]
    code, _, err = invoke(capsys, argv)
    assert code == 0, err
    [(command, port)] = served
    assert port == 8123
    words = shlex.split(command)
    assert words[1:4] == ["-m", "unosim", "play"]
    assert sorted(" ".join(words[4:]).split(" --")) == sorted(
        "--variant stacking --seat 1=random --seat 2=search --match --seed 3 --save t.json"
        .split(" --"))
