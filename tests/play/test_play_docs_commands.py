"""Every ``unosim play`` command docs/play.md shows is a valid command line: its
options, presets, rule keys and values are accepted and a table is dealt (the screen
replaced by one that quits at once, the server by one that serves nothing). The
pages mark these blocks not-run, since they open a full-screen app or serve until
Ctrl+C, so nothing else would catch a rule key that does not exist. The rule values
the ``unosim.env`` docstring shows as an example are checked the same way."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from cli_helpers import invoke

pytest.importorskip("textual")
ROOT = Path(__file__).resolve().parents[2]
COMMANDS = [line[2:] for line in (ROOT / "docs" / "play.md").read_text().splitlines()
            if line.startswith("$ unosim play")]


def test_the_page_shows_commands():
    assert len(COMMANDS) >= 8 and any("--rule" in c for c in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_of_the_page_is_valid(capsys, tmp_path, monkeypatch, command):
    import unosim.play.serve as serve
    from unosim.play.app import PlayApp

    opened: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self, **kw: opened.append(self))
    monkeypatch.setattr(serve, "serve", lambda argv, port: opened.append(argv))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, _, err = invoke(capsys, shlex.split(command)[1:])
    assert code == 0 and len(opened) == 1, (command, err)


def test_the_env_docstring_names_rule_values_that_exist():
    from unosim.env.aec import aec_env
    from unosim.simulate.rules import resolve

    [example] = re.findall(r"rule values on\s+top \(\{(.*?), \.\.\.\}\)", aec_env.__doc__)
    key, _, value = example.partition(": ")
    rules = resolve([], [(key.strip('"'), value.strip('"'))])
    assert str(rules[key.strip('"')]) == value.strip('"')
