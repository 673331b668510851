"""The coaching keys driven headless by Textual's Pilot: ``h`` puts the search's
figure beside every move (the table's own hint, in words), ``u`` in training mode
takes a decision back and does nothing otherwise, ``r`` after the round opens the
review with a line per decision."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")
from textual.widgets import OptionList, Static  # noqa: E402

from unosim.play import coaching  # noqa: E402
from unosim.play.app import PlayApp  # noqa: E402
from unosim.play.table import Table  # noqa: E402
from unosim.simulate.rules import resolve  # noqa: E402
from unosim.strategies.registry import parse_strategy  # noqa: E402


def make_app(training: bool = False, seed: int = 2) -> PlayApp:
    rules = resolve(["official"], [("players", 3)])
    t = Table(rules, [parse_strategy("offensive")] * 2, seed)
    t.hint_rollouts = 200
    return PlayApp(t, ["you", "offensive", "offensive"], "official", training=training)


def options(app: PlayApp) -> list[str]:
    moves = app.query_one("#moves", OptionList)
    return [str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count)]


async def press(pilot, *keys: str) -> None:
    """Press the keys, then let the search's threads (a hint, a review) finish and
    the screen show what they found."""
    for k in keys:
        await pilot.press(k)
    for _ in range(600):  # a thread starts once its notice is drawn
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        if not (pilot.app.hint_busy or pilot.app.review_busy):
            break
    await pilot.pause()


def test_h_shows_each_moves_figure_and_hides_them_again():
    app = make_app()
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(160, 40)) as pilot:
            plain = options(app)
            await press(pilot, "h")
            h = t.hint()
            shown = options(app)
            assert len(shown) == len(plain) == len(h.figures)
            for line, before, f in zip(shown, plain, h.figures, strict=True):
                assert line.startswith(before)
                assert coaching.figure(f) in line
                assert ("★" in line) == (f.move == h.best)
            await press(pilot, "1")  # the hints stay on for the next decision
            if not t.over:
                assert coaching.figure(t.hint().of(t.legal()[0])) in options(app)[0]
            await press(pilot, "h")
            assert not any("rollouts" in line or "not searched" in line
                           for line in options(app))

    asyncio.run(drive())


@pytest.mark.parametrize("training", [False, True])
def test_u_takes_a_decision_back_in_training_mode_only(training):
    app = make_app(training)
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(160, 40)) as pilot:
            G0, listed = t.game.G.copy(), options(app)
            await press(pilot, "1")
            assert len(t.decisions) == 1
            await press(pilot, "u")
            if training:
                assert not t.decisions and (t.game.G == G0).all()
                assert options(app) == listed
            else:
                assert len(t.decisions) == 1

    asyncio.run(drive())


def test_r_after_the_round_opens_the_review_a_line_per_decision():
    app = make_app(seed=4)
    t = app.table

    async def drive() -> None:
        async with app.run_test(size=(160, 50)) as pilot:
            await press(pilot, "r")  # nothing to review while the round goes on
            assert not isinstance(app.screen, coaching.ReviewScreen)
            presses = 0
            while not t.over and presses < 400:
                await press(pilot, "enter")  # the first move each time
                presses += 1
            assert t.over
            assert "r: review" in str(app.query_one("#result", Static).render())
            await press(pilot, "r")
            await pilot.pause()
            assert isinstance(app.screen, coaching.ReviewScreen)
            table = app.screen.query_one("#review", Static).render()
            rows = app.screen.rows
            chosen = [d for d in t.decisions if len(d.legal) > 1]  # not the forced
            assert len(rows) == len(chosen) > 0
            assert table is not None
            assert [r.decision.move for r in rows] == [d.move for d in chosen]
            await press(pilot, "escape")
            assert not isinstance(app.screen, coaching.ReviewScreen)

    asyncio.run(drive())


def test_the_review_table_highlights_the_costliest_three():
    """The review's table, drawn: a line per decision, the costliest in red."""
    from rich.console import Console

    from unosim.play.review import review, worst

    t = make_app(seed=5).table
    while not t.over:
        t.pick(len(t.legal()) - 1)  # the last move: often a draw or a poor wild
    rows = review(t.decisions, t.seed, t.round, t.hint_rollouts)
    drawn = coaching.review_table(rows)
    assert drawn.row_count == len(rows)
    bad = worst(rows)
    assert bad, "no decision cost anything: pick another seed"
    for i, row in enumerate(drawn.rows):
        assert (row.style == coaching.WORST_STYLE) == (i in bad)
    console = Console(width=160, record=True)
    console.print(drawn)
    assert "cost" in console.export_text()
