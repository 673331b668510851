"""``unosim play --strategy-file PATH.py:NAME``: a plug-in of each kind (a plain Python
function, a compiled ``@numba.njit`` one) sits at the table in the terminal, the app
run headless through the command itself, and in a page served by ``--serve``; the
saved file names the plug-in, and ``unosim replay`` plays the round again from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import invoke

pytest.importorskip("textual")
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "strategies" / "examples"
#: (the file, the strategy in it): one of each kind docs/strategies.md describes
PLUGINS = [(EXAMPLES / "first.py", "keep_wilds"), (EXAMPLES / "plugins.py", "hybrid")]


def headless(monkeypatch: pytest.MonkeyPatch, script) -> None:
    """``unosim play`` runs its real app, headless, with ``script(pilot)`` pressing keys."""
    from unosim.play.app import PlayApp

    run = PlayApp.run
    monkeypatch.setattr(PlayApp, "run", lambda self, **kw: run(
        self, headless=True, size=(110, 30), auto_pilot=script))


#: the compiled plug-in's table compiles its loop in this process (marked compile)
@pytest.mark.parametrize("path,name", [PLUGINS[0], pytest.param(*PLUGINS[1],
                                                                marks=pytest.mark.compile)],
                         ids=["python", "compiled"])
def test_a_plugin_plays_at_the_table_in_the_terminal(tmp_path, capsys, monkeypatch, path,
                                                     name):
    shown: list[str] = []

    async def script(pilot) -> None:
        app = pilot.app
        await pilot.pause()
        shown.append(str(app.query_one("#table").render()))
        while not app.table.over:
            await pilot.press("enter")  # the highlighted move: the first
            await pilot.pause()
        await pilot.press("q")

    headless(monkeypatch, script)
    save = tmp_path / "t.json"
    spec = f"{path}:{name}"
    code, out, err = invoke(capsys, ["play", "--strategy-file", spec, "--seat", f"1={name}",
                                     "--players", "2", "--seed", "3", "--save", str(save)])
    assert code == 0, err
    assert "Traceback" not in err
    assert f"seat 1 ({name})" in shown[0]
    assert out.startswith(f"1 round saved in {save}: unosim replay {save} --game 0")
    doc = json.loads(save.read_text())
    assert f"--strategy-file {spec}" in doc["command"]
    code, out, err = invoke(capsys, ["replay", str(save)])
    assert code == 0 and "the same round as round 0" in out and f"1 {name}" in out, err


@pytest.mark.parametrize("path,name", PLUGINS, ids=["python", "compiled"])
def test_serve_passes_the_plugin_to_each_table(capsys, monkeypatch, path, name):
    import unosim.play.serve as serve

    served: list[list[str]] = []
    monkeypatch.setattr(serve, "serve", lambda argv, port: served.append(argv))
    spec = f"{path}:{name}"
    code, _, err = invoke(capsys, ["play", "--strategy-file", spec, "--seat", f"1={name}",
                                   "--serve"])
    assert code == 0, err
    [argv] = served
    assert argv[argv.index("--strategy-file") + 1] == spec
    assert argv[argv.index("--seat") + 1] == f"1={name}"


@pytest.mark.subprocess
@pytest.mark.parametrize("path,name", PLUGINS, ids=["python", "compiled"])
def test_a_plugin_plays_at_a_served_table(tmp_path, path, name):
    """The server started for real; a page's socket opened (aiohttp's client, as the
    page's script does); the table shows the plug-in's seat and takes a move."""
    pytest.importorskip("textual_serve")
    from browser import serving, socket_screen

    argv = ["play", "--strategy-file", f"{path}:{name}", "--seat", f"1={name}",
            "--players", "2", "--seed", "3", "--serve"]
    before: list[str] = []
    with serving(argv, cwd=str(tmp_path), env={"XDG_DATA_HOME": str(tmp_path)}) as url:
        lines = socket_screen(url, (f"seat 1 ({name})", "your hand"), keys="1",
                              timeout=240, before=before)
    text = "\n".join(lines)
    assert lines != before, text  # the move was played
    assert f"seat 1 ({name})" in text and "Traceback" not in text, text
