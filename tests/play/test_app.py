"""The screen of ``unosim play`` driven headless by Textual's Pilot: a full round under
the official rules played with digit keys alone, the list the screen numbers being
the engine's legal moves, and the next round dealt with ``n``."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")
from textual.widgets import OptionList, Static  # noqa: E402

from unosim.errors import UnosimError  # noqa: E402
from unosim.play.app import PlayApp  # noqa: E402
from unosim.play.table import Table  # noqa: E402
from unosim.simulate.rules import resolve  # noqa: E402
from unosim.strategies.registry import parse_strategy  # noqa: E402


def make_app(variant: str = "official", players: int = 3, seed: int = 2) -> PlayApp:
    rules = resolve([variant], [("players", players)])
    t = Table(rules, [parse_strategy("offensive")] * (players - 1), seed)
    return PlayApp(t, ["you", *["offensive"] * (players - 1)], variant)


def test_a_full_round_by_digit_keys_then_the_next_deal():
    app = make_app()
    t = app.table
    picked: list[tuple[int, tuple[str, ...]]] = []
    pick = t.pick

    def spy(index: int) -> str:
        picked.append((index, t.legal()))
        return pick(index)

    t.pick = spy  # type: ignore[method-assign]

    async def drive() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            presses = 0
            while not t.over and presses < 400:
                legal = t.legal()
                moves = app.query_one("#moves", OptionList)
                assert moves.option_count == len(legal)
                digit = "2" if len(legal) in range(2, 10) else "1"
                await pilot.press(digit)
                if len(legal) >= 10:  # "1" could start 10..19: Enter takes move 1
                    await pilot.press("enter")
                presses += 1
                await pilot.pause()
            assert t.over, "the round did not end"
            shown = str(app.query_one("#result", Static).render())
            assert ("win" in shown or "nobody" in shown) and "n: next round" in shown
            assert app.query_one("#moves", OptionList).option_count == 0
            await pilot.press("1")  # nothing to pick after the round
            await pilot.press("n")
            await pilot.pause()
            assert t.round == 1 and not t.over
            assert app.query_one("#moves", OptionList).option_count == len(t.legal())
            await pilot.press("q")

    asyncio.run(drive())
    assert picked, "no move was played"
    for index, legal in picked:
        assert index == (1 if len(legal) in range(2, 10) else 0)


def test_a_number_of_two_digits_waits_for_its_second_digit():
    app = make_app("official", players=2, seed=0)
    t = app.table
    app.typed = ""

    async def drive() -> None:
        async with app.run_test(size=(120, 40)):
            legal = t.legal()
            if len(legal) >= 10:
                app.action_digit(1)
                assert app.typed == "1" and t.legal() == legal  # waits
            else:
                app.action_digit(len(legal) + 1)  # out of range: nothing happens
                assert t.legal() == legal and app.typed == ""

    asyncio.run(drive())


def test_an_opponents_failure_closes_the_app_with_one_line():
    app = make_app()

    def broken(index: int) -> str:
        raise UnosimError("seat 1 (broken): ValueError: no")

    app.table.pick = broken  # type: ignore[method-assign]

    async def drive() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("enter")
            await pilot.pause()

    asyncio.run(drive())
    assert app.return_code == 2 and app.return_value == "seat 1 (broken): ValueError: no"
