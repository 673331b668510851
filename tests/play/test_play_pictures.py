"""The pictures of the table in docs/play.md are what the app shows now: each table
pictured is rendered again (Textual, headless, the same options, keys and size) and
its text compared, line by line, with the picture's (the SVG's text, and for the
served screenshot the text the page showed, kept beside it in served.txt). Ids,
styles and timestamps are not compared; a changed word, line or layout is. When this
fails, ``python bench/play_screenshot.py`` makes the pictures again."""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("textual")
ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "play"
sys.path.insert(0, str(ROOT / "bench"))

import play_screenshot as shots  # noqa: E402


def _same(name: str, want: list[str], got: list[str]) -> None:
    if got != want:
        diff = "\n".join(difflib.unified_diff(want, got, f"docs/play/{name}", "the app now",
                                              lineterm="", n=1))
        pytest.fail(f"docs/play/{name} is not what the app shows now: run "
                    f"`{shots.REGENERATE}` to make the pictures again\n{diff}")


@pytest.mark.parametrize("name,argv,keys,size", shots.SVGS, ids=[s[0] for s in shots.SVGS])
def test_the_terminal_pictures_are_the_app_now(capsys, name, argv, keys, size):
    want = shots.svg_lines((DOCS / name).read_text())
    assert any("your hand" in line for line in want), "the picture shows no table"
    _same(name, want, shots.svg_lines(shots.render(argv, keys, size)))


def test_the_served_picture_is_the_app_now(capsys):
    name, argv, keys = shots.SERVED
    assert (DOCS / name).is_file()
    size, shown_keys, want = shots.read_served_text((DOCS / "served.txt").read_text())
    assert shown_keys == keys, "served.txt was made with other keys"
    assert any("your hand" in line for line in want), "the page showed no table"
    _same("served.txt", want, shots.svg_lines(shots.render(argv, keys, size)))


def test_every_picture_of_the_table_in_the_docs_is_checked():
    """A picture added to the docs of play is one this test renders."""
    pictured = set(re.findall(r"\]\(play/([\w.-]+)\)", (ROOT / "docs" / "play.md").read_text()))
    checked = {s[0] for s in shots.SVGS} | {shots.SERVED[0]}
    assert pictured == checked
    assert {p.name for p in DOCS.iterdir()} == checked | {"served.txt"}


def test_the_svg_reader_reads_columns_and_lines():
    """svg_lines puts each run of text at its column of its line (Rich's export)."""
    svg = ('<text class="t-r1" x="0" y="20" textLength="24.4" '
           'clip-path="url(#t-line-0)">ab</text>'
           '<text class="t-r2" x="48.8" y="20" textLength="24.4" '
           'clip-path="url(#t-line-0)">&#160;c</text>'
           '<text class="t-r1" x="12.2" y="44" textLength="12.2" '
           'clip-path="url(#t-line-2)">&lt;</text>')
    assert shots.svg_lines(svg) == ["ab   c", "", " <"]
