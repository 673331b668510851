"""What the screen of ``unosim play`` tells a new player, driven by Textual's Pilot:
the round numbered as the saved file and ``unosim replay --game`` number it; the
footer and the end box offer only the keys that apply, by truthful names; a first
digit that waits for a second shows it waits; a hint says it is compiling or
thinking while the search runs in its thread; the top names the variant and the
rules; the last moves keep the whole round; a decision with one move is played for
the person, who is told what was played."""

from __future__ import annotations

import asyncio
import threading

import pytest

pytest.importorskip("textual")
from textual.containers import VerticalScroll  # noqa: E402
from textual.widgets import OptionList, Static  # noqa: E402

from unosim.play import hints, words  # noqa: E402
from unosim.play.app import PlayApp  # noqa: E402
from unosim.play.table import Table  # noqa: E402
from unosim.simulate import layout as L  # noqa: E402
from unosim.simulate.rules import resolve  # noqa: E402
from unosim.strategies.registry import parse_strategy  # noqa: E402

#: official, three players, seed 0: the person's first decision has 12 moves
TEN_SEED = 0
#: stacking, three players, seed 2: the person's moves (0-based) up to a decision
#: whose only move is to take the stacked cards (none of them forced)
FORCED_SEED, FORCED_PATH = 2, [1, 4, 6, 1, 7, 4, 11]


def make_app(variant: str = "official", players: int = 3, seed: int = 2, match: bool = False,
             target: int | None = None, **kw) -> PlayApp:
    extra = [("target_score", target)] if target else []
    rules = resolve([variant], [("players", players), *extra])
    t = Table(rules, [parse_strategy("offensive")] * (players - 1), seed, match=match)
    return PlayApp(t, ["you", *["offensive"] * (players - 1)], variant, **kw)


def text(app: PlayApp, widget: str) -> str:
    return str(app.query_one(widget, Static).render())


def footer(app: PlayApp) -> dict[str, str]:
    """The keys the footer shows now, with their names."""
    return {k: b.binding.description for k, b in app.screen.active_bindings.items()
            if b.binding.show}


async def finish_round(app: PlayApp, pilot) -> None:
    t = app.table
    presses = 0
    while not t.over and presses < 400:
        await pilot.press("enter")  # the highlighted move: the first
        await pilot.pause()
        presses += 1
    assert t.over


def hold_hints(app: PlayApp, started: list[int]) -> threading.Event:
    """Hold every hint search of ``app`` back until the returned event is set; each
    search that starts notes the table's version in ``started``."""
    go = threading.Event()
    job = app.table.hint_job

    def held():
        inner = job()
        if inner is None:
            return None

        def run():
            started.append(app.version)
            assert go.wait(60)
            return inner()

        return run

    app.table.hint_job = held  # type: ignore[method-assign]
    return go


def test_rounds_are_numbered_from_0_on_screen_as_in_the_file_and_replay(tmp_path):
    app = make_app(saved_to="t.json")
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(130, 45)) as pilot:
            assert "round 0 · seed 2" in text(app, "#table") and t.round == 0
            await finish_round(app, pilot)
            assert t.played[-1].index == 0
            result = text(app, "#result")
            assert "round 0" in result
            assert "saved as round 0 in t.json: unosim replay t.json --game 0" in result
            await pilot.press("n")
            await pilot.pause()
            assert "round 1 · seed 2" in text(app, "#table") and t.round == 1

    asyncio.run(drive())


def test_the_footer_and_the_end_box_offer_only_the_keys_that_apply():
    app = make_app(training=True)
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(130, 45)) as pilot:
            await pilot.pause()
            keys = footer(app)
            assert "n" not in keys and "r" not in keys and "c" not in keys
            assert "u" not in keys  # nothing to take back yet
            assert keys["h"] == "Show hints" and keys["q"] == "Quit"
            await pilot.press("enter")
            await pilot.pause()
            if not t.over:
                assert footer(app)["u"] == "Undo" and "n" not in footer(app)
            await finish_round(app, pilot)
            keys = footer(app)
            assert keys["n"] == "Next round" and keys["r"] == "Review"
            result = text(app, "#result")
            assert result.count("n: next round") == 1 and "deal again" not in result
            assert "c" not in keys

    asyncio.run(drive())


def test_a_match_round_names_its_next_round_once_and_its_last_none():
    app = make_app(match=True, target=30, seed=6)
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(130, 45)) as pilot:
            for _ in range(30):
                await finish_round(app, pilot)
                result = text(app, "#result")
                assert "deal again" not in result
                if t.match_over:
                    break
                assert result.count("n: next round") == 1
                assert footer(app)["n"] == "Next round"
                await pilot.press("n")
                await pilot.pause()
            assert t.match_over and "n" not in footer(app)
            assert "next round" not in text(app, "#result")

    asyncio.run(drive())


def test_a_first_digit_that_waits_says_so():
    app = make_app(seed=TEN_SEED)
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(130, 50)) as pilot:
            legal = t.legal()
            assert len(legal) >= 10
            assert "_" not in text(app, "#result")
            await pilot.press("1")
            await pilot.pause()
            shown = text(app, "#result")
            assert "1_" in shown and "next digit" in shown and "Enter for move 1" in shown
            assert t.legal() == legal and not t.moves  # it waits
            await pilot.press("escape")  # forgets the digit
            await pilot.pause()
            assert app.typed == "" and "1_" not in text(app, "#result")
            await pilot.press("1", "enter")  # move 1
            await pilot.pause()
            assert t.moves[0] == legal[0]
            assert "1_" not in text(app, "#result")

    asyncio.run(drive())


@pytest.mark.parametrize("compiled,notice", [(False, "compiling the search"),
                                             (True, "the search is thinking")])
def test_a_hint_says_what_the_search_is_doing_while_the_screen_stays_live(
        monkeypatch, compiled, notice):
    """The hint runs in a worker thread: held back here until the test lets it go,
    the screen meanwhile says it compiles (the first hint on a machine) or thinks;
    then the figures come and the notice goes."""
    app = make_app()
    app.table.hint_rollouts = 200
    monkeypatch.setattr(hints, "compiled", lambda review=False: compiled)
    go = hold_hints(app, [])

    async def drive() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            await pilot.press("h")
            await pilot.pause()
            assert notice in text(app, "#result")
            assert footer(app)["h"] == "Hide hints"
            moves = app.query_one("#moves", OptionList)
            assert "rollouts" not in str(moves.get_option_at_index(0).prompt)
            await pilot.press("down")  # the screen answers keys meanwhile
            await pilot.pause()
            assert moves.highlighted == 1
            go.set()
            while app.hint_busy:
                await app.workers.wait_for_complete()
                await pilot.pause()
            assert notice not in text(app, "#result")
            lines = [str(moves.get_option_at_index(i).prompt)
                     for i in range(moves.option_count)]
            assert any("★" in line for line in lines)
            assert all("rollouts" in line or "not searched" in line for line in lines)

    asyncio.run(drive())


def test_a_hint_asked_again_while_its_search_runs_starts_no_second_search(monkeypatch):
    """Hints off and on (or any redraw) while the search works on the decision on
    screen: the one search goes on, none is started beside it."""
    app = make_app()
    app.table.hint_rollouts = 200
    monkeypatch.setattr(hints, "compiled", lambda review=False: True)
    started: list[int] = []
    go = hold_hints(app, started)

    async def drive() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            await pilot.press("h", "h", "h")  # on, off, on again: the same decision
            await pilot.pause()
            assert "the search is thinking" in text(app, "#result")
            go.set()
            while app.hint_busy:
                await app.workers.wait_for_complete()
                await pilot.pause()
            assert app.current_hint() is not None

    asyncio.run(drive())
    assert len(started) == 1, started


def test_the_first_hint_notice_is_the_compile_one_until_the_search_is_loaded():
    """``compiled`` reads what is loaded: once a hint ran, the next starts at once."""
    t = make_app().table
    t.hint_rollouts = 50
    t.hint()
    assert hints.compiled()
    assert "compiling the search" in hints.compile_notice()


def test_the_top_names_the_variant_and_the_rules():
    app = make_app("seven-o", players=4, seed=3)

    async def drive() -> None:
        async with app.run_test(size=(130, 45)):
            top = text(app, "#table")
            assert top.startswith("seven-o · round 0")
            assert "rules changed from official: players=4" not in top  # the default
            assert "rules changed from official: seven_o=true" in top

    asyncio.run(drive())
    app = make_app("official", players=3)

    async def plain() -> None:
        async with app.run_test(size=(130, 45)):
            assert "rules changed from official: players=3" in text(app, "#table")

    asyncio.run(plain())


def test_the_last_moves_keep_the_whole_round_and_scroll():
    app = make_app(seed=4)
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(120, 24)) as pilot:
            await finish_round(app, pilot)
            await pilot.pause()
            events = t.seen().events
            shown = text(app, "#events").split("\n")
            assert len(events) > 14 and len(shown) == len(events)  # 14: the old panel
            assert shown == [words.event(e).plain for e in events]
            log = app.query_one("#log", VerticalScroll)
            assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y  # newest
            log.scroll_home(animate=False)
            await pilot.pause()
            assert log.scroll_y == 0  # the first moves of the round are reachable

    asyncio.run(drive())


def _at_forced(to_the_end: bool) -> PlayApp:
    rules = resolve(["stacking"], [("players", 3)])
    t = Table(rules, [parse_strategy("offensive")] * 2, FORCED_SEED)
    for i in FORCED_PATH[:len(FORCED_PATH) if to_the_end else -1]:
        assert not t.forced()
        t.pick(i)
    assert t.forced() == to_the_end
    return PlayApp(t, ["you", "offensive", "offensive"], "stacking")


def test_a_decision_with_one_move_is_played_for_the_person_and_said():
    app = _at_forced(to_the_end=False)
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(130, 50)) as pilot:
            n, number = len(t.legal()), FORCED_PATH[-1] + 1
            for d in str(number):
                await pilot.press(d)
            if number * 10 <= n:
                await pilot.press("enter")
            await pilot.pause()
            forced = t.decisions[len(FORCED_PATH)]
            assert forced.legal == ("take",) and forced.phase == "penalty"
            assert t.moves[len(FORCED_PATH)] == "take"
            pending = int(forced.G[L.S_PENDING])
            said = f"played for you, the only move: take the {pending} cards"
            assert said in text(app, "#result")
            if not t.over:
                assert len(t.legal()) > 1 or app.table.call_uno
                await pilot.press("enter")
                await pilot.pause()
                assert said not in text(app, "#result")  # told once

    asyncio.run(drive())


def test_a_forced_decision_on_screen_at_the_start_is_played_too():
    app = _at_forced(to_the_end=True)
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(130, 50)):
            assert t.moves[len(FORCED_PATH)] == "take"
            assert "played for you, the only move: take the" in text(app, "#result")

    asyncio.run(drive())


def test_undo_goes_back_past_forced_moves_to_the_last_choice():
    app = _at_forced(to_the_end=False)
    app.training = True
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(130, 50)) as pilot:
            legal, G = t.legal(), t.game.G.copy()
            number = FORCED_PATH[-1] + 1
            for d in str(number):
                await pilot.press(d)
            if number * 10 <= len(legal):
                await pilot.press("enter")
            await pilot.pause()
            assert len(t.decisions) > len(FORCED_PATH)
            while len(t.decisions) > len(FORCED_PATH):
                await pilot.press("u")
                await pilot.pause()
            assert len(t.decisions) == len(FORCED_PATH) - 1
            assert t.legal() == legal and (t.game.G == G).all()

    asyncio.run(drive())
