"""The HTML pages (report.html, sweep.html, atlas.html) opened in a real browser:
headless Chromium loads each, every image and inline SVG must have loaded and been
drawn, and the screenshot must not be blank. Skipped only where no browser can be
found (.ci/run installs Debian's `chromium`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import Browser, find_browser
from browser import not_blank as _not_blank
from cli_helpers import invoke

EXE = find_browser()
pytestmark = [pytest.mark.browser, pytest.mark.skipif(
    EXE is None, reason="no Chromium or Chrome found (apt-get install chromium, or set "
                        "UNOSIM_BROWSER): the pages were not checked in a browser")]


@pytest.fixture(scope="module")
def browser():
    b = Browser(EXE)
    yield b
    b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The three pages, made by the commands a user runs."""
    import contextlib

    root = tmp_path_factory.mktemp("pages")
    runs = {
        "report": ["compare", "official", "seven-o", "--games", "3000", "--seed", "2"],
        "sweep": ["sweep", "--rule", "hand_size=5..7", "--players", "2,4", "--games", "2000",
                  "--seed", "2"],
        "sweep1": ["sweep", "--rule", "stacking=none,progressive,deflect", "--games", "2000",
                   "--seed", "2"],
        "atlas": ["atlas", "--players", "3", "--games", "1500", "--seed", "2"],
    }
    out = {}
    for name, argv in runs.items():
        folder = root / name
        from unosim.cli import main

        with contextlib.suppress(SystemExit):
            main([*argv, "--no-progress", "--out", str(folder)])
        page = {"report": "report.html", "sweep": "sweep.html", "sweep1": "sweep.html",
                "atlas": "atlas.html"}[name]
        out[name] = folder / page
    return out


@pytest.mark.parametrize("name", ["report", "sweep", "sweep1", "atlas"])
def test_page_shows_every_chart_in_a_browser(browser, pages, name):
    path: Path = pages[name]
    assert path.exists(), f"{name}: the command wrote no page"
    svg_files = sorted(path.parent.glob("*.svg"))
    assert svg_files, "no chart was written"
    shown, png = browser.open(path.resolve().as_uri())
    assert shown["title"].startswith("unosim")
    assert shown["text"] > 200
    assert all(shown["images"]), "an image did not load"
    assert len(shown["svgs"]) == len(svg_files), (shown["svgs"], svg_files)
    for svg in shown["svgs"]:
        assert svg["w"] > 100 and svg["h"] > 100, svg
        assert svg["drawn"] > 10, svg
    _not_blank(png)


def test_a_broken_page_is_caught(browser, tmp_path):
    # the check itself must fail on a page whose image is missing and whose body is empty
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html><head><title>x</title></head><body>'
                    '<img src="missing.png"></body></html>')
    shown, png = browser.open(page.resolve().as_uri())
    assert shown["images"] == [False]
    assert shown["text"] == 0
    with pytest.raises(AssertionError):
        _not_blank(png)


def test_the_cli_wrote_the_pages(pages, capsys):
    # the fixture's commands succeed as a user would see them
    for name, path in pages.items():
        assert path.exists(), name
    code, out, err = invoke(capsys, ["sweep", "--rule", "hand_size=7", "--games", "10"])
    assert code == 2 and "nothing to sweep" in err
