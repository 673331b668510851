"""``unosim play --serve`` in a real browser: the server started on a free port,
headless Chromium opens the page, and the table it shows is the table of the same
options (the same seed deals the same hand); the screenshot is not blank. Skipped
where no Chromium can be found, or textual-serve is not installed."""

from __future__ import annotations

import pytest
from browser import Browser, find_browser, not_blank, serving

from unosim.play.table import Table
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy

pytest.importorskip("textual_serve")
EXE = find_browser()
pytestmark = [pytest.mark.browser, pytest.mark.subprocess, pytest.mark.skipif(
    EXE is None, reason="no Chromium or Chrome found (apt-get install chromium, or set "
                        "UNOSIM_BROWSER): the served table was not checked in a browser")]


def test_the_served_table_in_a_headless_browser(tmp_path):
    # the same table in this process: what the page must show (and, on a first run,
    # the engine compiled here rather than in the served process)
    rules = resolve(["stacking"], [("players", 3)])
    t = Table(rules, [parse_strategy("offensive")] * 2, 4)
    hand = " ".join(t.seen().hand)
    browser = Browser(EXE, 1280, 800)
    try:
        argv = ["play", "--variant", "stacking", "--players", "3", "--seed", "4", "--serve"]
        with serving(argv, cwd=str(tmp_path)) as url:
            text, png = browser.terminal(url, ("your hand", "last moves", "seat 2 (offensive)"),
                                         timeout=120)
    finally:
        browser.close()
    words = " ".join(text.split())
    assert "· seed 4" in words, words[:600]
    assert f"your hand: {hand}" in words, (hand, words[:600])
    assert "1. " in words and "your decision" in words
    not_blank(png)
