"""The pictures of ``unosim play`` in docs/play.md, made from the app itself:

- docs/play/table.svg: the table in the terminal, rendered by Textual (headless, a
  fixed size) after the keys below, through the command's own code;
- docs/play/served.png: the same kind of table served with ``unosim play --serve``,
  opened in headless Chromium (tests/browser.py), the keys typed on the page, and a
  screenshot taken; docs/play/served.txt beside it holds the text that page showed,
  read from what the server sent it, with the terminal's size and the keys.

tests/play/test_play_pictures.py renders the same tables and checks the text of each
picture (never its ids, styles or timestamps) against the app as it is now.

Usage: python bench/play_screenshot.py [--svg-only]   (regenerates every picture)
"""

from __future__ import annotations

import html
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "play"
sys.path.insert(0, str(ROOT / "tests"))

#: the terminal pictures: file, the options of ``unosim play``, the keys pressed,
#: the terminal's size (columns, rows)
SVGS = [("table.svg", ["--variant", "seven-o", "--seed", "12"], "111", (110, 30))]
#: the served picture: file, the options served, the keys typed in the page
SERVED = ("served.png", ["--variant", "seven-o", "--seed", "12", "--match"], "11")
#: the command that regenerates them (said by the test when a picture is stale)
REGENERATE = "python bench/play_screenshot.py"


def render(argv: list[str], keys: str, size: tuple[int, int]) -> str:
    """The SVG screenshot of ``unosim play ARGV`` after ``keys``, the app run headless
    at ``size`` through the command itself (its rounds saved in a folder thrown away)."""
    from unosim.cli import main
    from unosim.play.app import PlayApp

    shots: list[str] = []

    async def press(pilot: Any) -> None:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        shots.append(pilot.app.export_screenshot())
        pilot.app.exit()

    run = PlayApp.run
    old = os.environ.get("XDG_DATA_HOME")
    with tempfile.TemporaryDirectory() as data:
        os.environ["XDG_DATA_HOME"] = data
        PlayApp.run = lambda self, **kw: run(self, headless=True, size=size,  # type: ignore
                                             auto_pilot=press)
        try:
            main(["play", *argv])
        except SystemExit as e:
            if e.code not in (0, None):
                raise RuntimeError(f"unosim play {' '.join(argv)} ended with {e.code}") \
                    from None
        finally:
            PlayApp.run = run  # type: ignore[method-assign]
            if old is None:
                os.environ.pop("XDG_DATA_HOME", None)
            else:
                os.environ["XDG_DATA_HOME"] = old
    [svg] = shots
    return svg


def svg_lines(svg: str) -> list[str]:
    """The text of an SVG screenshot (Rich's export), line by line: each ``<text>`` put
    at its column of its line; what a reader sees, without ids, styles or sizes."""
    rows: dict[int, dict[int, str]] = {}
    for attrs, body in re.findall(r"<text ([^>]*)>(.*?)</text>", svg, re.S):
        line = re.search(r'clip-path="url\(#[\w-]*-line-(\d+)\)"', attrs)
        x = re.search(r'\bx="([\d.]+)"', attrs)
        length = re.search(r'textLength="([\d.]+)"', attrs)
        if not (line and x and length):
            continue  # the title
        text = html.unescape(body).replace("\xa0", " ")
        col = round(float(x.group(1)) / (float(length.group(1)) / len(text)))
        rows.setdefault(int(line.group(1)), {})[col] = text
    out = []
    for k in range(max(rows, default=-1) + 1):
        cells: list[str] = []
        for col, text in sorted(rows.get(k, {}).items()):
            cells.extend(" " * (col - len(cells)))
            cells[col:col + len(text)] = text
        out.append("".join(cells).rstrip())
    return out


def served_text(lines: list[str], size: tuple[int, int], keys: str) -> str:
    """served.txt: the terminal's size and keys, then the lines the page showed."""
    return f"{size[0]}x{size[1]} keys {keys}\n" + "\n".join(lines).rstrip() + "\n"


def read_served_text(text: str) -> tuple[tuple[int, int], str, list[str]]:
    head, *lines = text.rstrip("\n").split("\n")
    size, _, keys = head.split(" ", 2)
    w, h = size.split("x")
    return (int(w), int(h)), keys, lines


def served(out: Path) -> None:
    """served.png and served.txt: the table served, opened in headless Chromium."""
    from browser import Browser, Screen, find_browser, not_blank, serving

    name, argv, keys = SERVED
    exe = find_browser()
    if exe is None:
        sys.exit("no Chromium or Chrome found (apt-get install chromium, or set "
                 "UNOSIM_BROWSER); --svg-only makes the terminal pictures alone")
    browser = Browser(exe, 1280, 760)
    try:
        with tempfile.TemporaryDirectory() as here, \
                serving(["play", *argv, "--serve"], cwd=here,
                        env={"XDG_DATA_HOME": here}) as url:
            raw, size, png = browser.terminal_raw(url, ("your hand", "last moves"),
                                                  timeout=180, keys=keys)
    finally:
        browser.close()
    not_blank(png)
    screen = Screen(*size)
    screen.feed(raw)
    (out / name).write_bytes(png)
    (out / "served.txt").write_text(served_text(screen.lines(), size, keys))
    print(f"{out / name} ({len(png)} bytes, a terminal of {size[0]}x{size[1]}): "
          f"unosim play {' '.join(argv)} --serve, keys {keys}")


def main() -> None:
    for name, argv, keys, size in SVGS:
        (DOCS / name).write_text(render(argv, keys, size))
        print(f"{DOCS / name}: unosim play {' '.join(argv)}, keys {keys}, {size[0]}x{size[1]}")
    if "--svg-only" not in sys.argv[1:]:
        served(DOCS)


if __name__ == "__main__":
    main()
