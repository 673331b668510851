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
