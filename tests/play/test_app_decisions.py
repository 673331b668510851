"""Every kind of decision the rules give the person, taken at the screen of ``unosim
play`` with digit keys alone (Textual's Pilot), in full rounds under official,
stacking, seven-o and jump-in: at each decision the test presses the number of the
first move of a kind not chosen yet (else move 1), so each kind offered is taken, and
asserts that every kind the variant gives came up and was played: by its key where
the decision had a choice, by the screen itself where it had one move only (which
never waits for a key)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")
from textual.widgets import OptionList, Static  # noqa: E402

from unosim.play.app import PlayApp  # noqa: E402
from unosim.play.table import Table  # noqa: E402
from unosim.simulate.rules import resolve  # noqa: E402
from unosim.strategies.registry import parse_strategy  # noqa: E402

#: what every variant gives (a wild's colour is named with its play)
COMMON = {"play", "draw", "play the drawn card", "keep the drawn card", "name a colour"}
#: each variant's own decisions, and a seed whose first round (three players, two
#: `offensive` opponents) offers them all to the test's choices
KINDS = {
    "official": ({"challenge", "accept"}, 22),
    "stacking": ({"stack", "take the penalty"}, 1),
    "seven-o": ({"seven-o target"}, 7),
    "jump-in": ({"jump in", "let it pass"}, 27),
}


def kind(phase: str, move: str) -> str:
    """The kind of decision a legal move (engine text) is, in its phase."""
    head = move.partition(":")[0]
    if phase == "drawn":
        return "keep the drawn card" if move == "pass" else "play the drawn card"
    if phase == "jump":
        return "let it pass" if move == "pass" else "jump in"
    if phase == "target":
        return "seven-o target"
    if phase == "colour":
        return "name a colour"
    if phase == "penalty":
        return "take the penalty" if move == "take" else "stack"
    if head in ("draw", "challenge", "accept"):
        return head
    return "name a colour" if head.startswith("wild") else "play"


async def press_number(pilot, number: int, n: int) -> None:
    """Press move ``number``'s digits; Enter where a longer number could follow."""
    for d in str(number):
        await pilot.press(d)
    if number * 10 <= n:
        await pilot.press("enter")


#: stacking's round is the longest (over 3 s): it runs in the whole suite only
@pytest.mark.parametrize("variant", [pytest.param(v, marks=pytest.mark.slow)
                                     if v == "stacking" else v for v in KINDS])
def test_every_decision_kind_by_digit_keys(variant):
    own, seed = KINDS[variant]
    rules = resolve([variant], [("players", 3)])
    t = Table(rules, [parse_strategy("offensive")] * 2, seed)
    app = PlayApp(t, ["you", "offensive", "offensive"], variant)
    offered: set[str] = set()
    chosen: set[str] = set()
    played: list[str] = []
    #: the decisions with one move, which the screen plays itself: (kind, move)
    forced: list[tuple[str, str]] = []
    pick = t.pick

    def spy(index: int) -> str:
        seen = t.seen()
        played.append(t.legal()[index])
        if len(seen.legal) == 1:
            forced.append((kind(seen.phase, seen.legal[0]), t.legal()[0]))
        return pick(index)

    t.pick = spy  # type: ignore[method-assign]

    async def drive() -> None:
        async with app.run_test(size=(130, 50)) as pilot:
            while not t.over and len(played) < 300:
                chosen.update(k for k, _ in forced)  # taken by the screen: not chosen again
                seen = t.seen()
                kinds = [kind(seen.phase, m) for m in seen.legal]
                assert app.query_one("#moves", OptionList).option_count == len(kinds)
                offered.update(kinds)
                i = next((j for j, k in enumerate(kinds) if k not in chosen), 0)
                before, forced_before = len(played), len(forced)
                await press_number(pilot, i + 1, len(kinds))
                await pilot.pause()
                assert len(seen.legal) > 1, "a decision with one move waited for a key"
                assert played[before] == seen.legal[i], "the key played another move"
                # what follows the key without one: decisions with one move only
                assert len(played) - before - 1 == len(forced) - forced_before
                chosen.add(kinds[i])
            assert t.over, "the round did not end"
            shown = str(app.query_one("#result", Static).render())
            assert "win" in shown or "nobody" in shown

    asyncio.run(drive())
    assert COMMON | own <= chosen, f"not taken: {sorted((COMMON | own) - chosen)}"
    assert offered <= chosen  # every kind offered was taken by its key
    assert played == list(t.played[0].moves)  # the saved round holds each move


@pytest.mark.parametrize("variant", ["seven-o", "jump-in"])
def test_a_full_round_by_the_mouse(variant):
    """Clicking a move in the list plays it: a round played by clicks alone, every
    kind of its variant taken (as by the keys above)."""
    own, seed = KINDS[variant]
    rules = resolve([variant], [("players", 3)])
    t = Table(rules, [parse_strategy("offensive")] * 2, seed)
    app = PlayApp(t, ["you", "offensive", "offensive"], variant)
    chosen: set[str] = set()
    played: list[str] = []
    pick = t.pick

    def spy(index: int) -> str:
        seen = t.seen()
        played.append(t.legal()[index])
        if len(seen.legal) == 1:  # played by the screen: not chosen again
            chosen.add(kind(seen.phase, seen.legal[0]))
        return pick(index)

    t.pick = spy  # type: ignore[method-assign]

    async def drive() -> None:
        async with app.run_test(size=(130, 60)) as pilot:
            moves = app.query_one("#moves", OptionList)
            while not t.over and len(played) < 300:
                seen = t.seen()
                assert len(seen.legal) > 1, "a decision with one move waited for a click"
                kinds = [kind(seen.phase, m) for m in seen.legal]
                i = next((j for j, k in enumerate(kinds) if k not in chosen), 0)
                row = i - round(moves.scroll_y)
                assert 0 <= row < moves.content_size.height, "the move is not in view"
                before = len(played)
                assert await pilot.click(moves, offset=(6, moves.gutter.top + row))
                await pilot.pause()
                assert played[before] == seen.legal[i], "the click played another move"
                chosen.add(kinds[i])
            assert t.over

    asyncio.run(drive())
    assert COMMON | own <= chosen, f"not taken: {sorted((COMMON | own) - chosen)}"
