"""A whole match at the screen of ``unosim play``, driven by keys alone (Textual's
Pilot) under official, stacking, seven-o and jump-in: every seat's score on screen,
``n`` dealing the match's next round, the variant's own decision taken, and the
match's result at the end, where ``n`` deals no more."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")
from textual.widgets import OptionList, Static  # noqa: E402

from unosim.play.app import PlayApp  # noqa: E402
from unosim.play.table import Table  # noqa: E402
from unosim.simulate.rules import resolve  # noqa: E402
from unosim.strategies.registry import parse_strategy  # noqa: E402


#: one match in the fast tier; the longer three (5-7 s each) in the whole suite
@pytest.mark.parametrize("variant,target,seed,phase", [
    ("official", 150, 6, "challenge"),
    pytest.param("stacking", 200, 1, "penalty", marks=pytest.mark.slow),
    pytest.param("seven-o", 150, 7, "target", marks=pytest.mark.slow),
    pytest.param("jump-in", 150, 5, "jump", marks=pytest.mark.slow)])
def test_a_whole_match_by_keys(variant, target, seed, phase, tmp_path):
    rules = resolve([variant], [("players", 3), ("target_score", target)])
    saved: list[int] = []
    t = Table(rules, [parse_strategy("offensive")] * 2, seed, match=True,
              saver=lambda s: saved.append(len(s.rounds)))
    app = PlayApp(t, ["you", "offensive", "offensive"], variant, saved_to="m.json")
    phases: set[str] = set()

    def text(widget: str) -> str:
        return str(app.query_one(widget, Static).render())

    async def drive() -> None:
        async with app.run_test(size=(130, 40)) as pilot:
            presses = 0
            while presses < 3000:
                while not t.over and presses < 3000:
                    n = len(t.legal())
                    phases.add(t.seen().phase)
                    assert app.query_one("#moves", OptionList).option_count == n
                    await pilot.press("1")
                    if n >= 10:
                        await pilot.press("enter")
                    presses += 1
                    await pilot.pause()
                assert t.over
                shown = text("#table")
                for p, score in enumerate(t.sitting.scores()):
                    who = "you" if p == 0 else f"seat {p}"
                    assert f"{who}" in shown and f"score {score}" in shown
                if t.match_over:
                    break
                assert "n: next round" in text("#result")
                rounds = len(t.played)
                await pilot.press("n")
                await pilot.pause()
                assert t.round == rounds and not t.over
            result = text("#result")
            assert t.match_over and "the match after" in result
            assert "m.json" in result and "deal again" not in result
            assert ("you win the match" in result) == (t.sitting.winner == 0)
            await pilot.press("n")  # the match is over: nothing is dealt
            await pilot.pause()
            assert t.round == len(t.played) - 1
            await pilot.press("q")

    asyncio.run(drive())
    s = t.sitting
    assert len(s.rounds) >= 2 and saved == list(range(1, len(s.rounds) + 1))
    assert s.winner >= 0 and max(s.scores()) >= target
    assert phase in phases  # the variant's own decision came up, taken by its key
