"""Calling UNO yourself (``unosim play --call-uno``): the move that leaves the person
one card, played with the call, is the engine's own called move; played without it,
the call is forgotten and the engine's catch roll (``uno_catch_prob``) and penalty
(``uno_penalty``) apply; the saved file says which moves went uncalled, so that
``unosim replay`` plays the round exactly; undo takes a forgotten call back; at the
screen ``c`` (or ``!``) calls."""

from __future__ import annotations

import asyncio
import json

import numpy as np
import pytest
from cli_helpers import assert_one_line_error, invoke

from unosim.play.table import Table
from unosim.runs import played_file
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.python import PRIVATE
from unosim.strategies.registry import parse_strategy

PENALTY = 4


def at_two_cards(call_uno: bool = True, catch: float = 1.0, seed: int = 0,
                 saver=None) -> tuple[Table, int]:
    """A three-player official table played by the first legal move up to the person's
    first turn with two cards and one to play; and that play's index. The first seed
    from ``seed`` on that comes to it (a fixed search: the same table every run)."""
    rules = resolve(["official"], [("players", 3), ("uno_penalty", PENALTY),
                                   ("uno_catch_prob", catch)])
    for s in range(seed, seed + 30):
        t = Table(rules, [parse_strategy("offensive")] * 2, s, saver=saver,
                  call_uno=call_uno)
        while not t.over:
            legal = t.legal()
            plays = [i for i, m in enumerate(legal) if m not in ("draw", "pass")]
            if t.seen().phase == "turn" and len(t.seen().hand) == 2 and plays:
                return t, plays[0]
            t.pick(0)
    raise AssertionError("no seed comes to two cards")


def mine(t: Table, since: int) -> list[tuple[str, str, int]]:
    """The person's public events since event ``since``: (kind, how, count)."""
    return [(e.kind, e.how, e.count) for e in t.log.all()[since:]
            if e.seat == t.me and e.kind not in PRIVATE]


def test_called_it_is_the_engines_called_move_exactly():
    engine, i = at_two_cards(call_uno=False)
    t, j = at_two_cards()
    assert (t.seed, j) == (engine.seed, i) and np.array_equal(t.game.G, engine.game.G)
    since = t._read
    slot = L.OFF_SEATF + t.me * L.N_SEATF + L.SF_UNO_FORGET
    kept = int(t.game.G[slot])
    assert t.call() and t.calling
    t.pick(j)
    engine.pick(i)
    assert mine(t, since)[:2] == [("play", "turn", 0), ("uno", "called", 0)]
    assert t.forgot == [] and not t.calling and int(t.game.G[slot]) == kept
    # the same state, random numbers and all, as where the engine calls for the seat
    assert np.array_equal(t.game.G, engine.game.G)
    assert np.array_equal(t.game.RNG, engine.game.RNG)


@pytest.mark.parametrize("catch,seen,drawn", [(1.0, "caught", PENALTY), (0.0, "forgot", 0)])
def test_not_called_it_is_forgotten_and_caught_by_the_rules(catch, seen, drawn):
    t, j = at_two_cards(catch=catch)
    since, before = t._read, len(t.moves)
    t.pick(j)
    events = mine(t, since)
    assert events[:2] == [("play", "turn", 0), ("uno", seen, 0)]
    if drawn:
        assert events[2] == ("draw", "uno", drawn)
    else:
        assert all(e[1] != "uno" for e in events if e[0] == "draw")
    assert t.forgot == [before]


def test_without_call_uno_there_is_nothing_to_call():
    t, j = at_two_cards(call_uno=False)
    assert not t.call() and not t.calling


def test_undo_takes_a_forgotten_call_back():
    t, j = at_two_cards()
    G, RNG = t.game.G.copy(), t.game.RNG.copy()
    t.pick(j)
    assert t.forgot and t.undo()
    assert t.forgot == [] and np.array_equal(t.game.G, G) and np.array_equal(t.game.RNG, RNG)
    since = t._read
    t.call()
    t.pick(j)
    assert ("uno", "called", 0) in mine(t, since) and t.forgot == []


def test_the_file_says_which_moves_went_uncalled_and_replays_them(tmp_path, capsys):
    path = tmp_path / "calls.json"
    t, j = at_two_cards(saver=lambda s: played_file.save(path, s, "official", "unosim play"))
    t.pick(j)  # forgotten and caught: four cards drawn
    while not t.over:
        t.pick(0)
    kept = t.played[0]
    assert kept.forgot and kept.forgot == tuple(t.forgot)
    doc = json.loads(path.read_text())
    assert doc["call_uno"] is True and doc["rounds"][0]["forgot"] == list(kept.forgot)
    code, out, err = invoke(capsys, ["replay", str(path), "--format", "json"])
    assert code == 0, err
    r = json.loads(out)
    assert [tuple(h) for h in r["final_hands"]] == list(kept.final_hands)
    assert r["result"]["winner"] == kept.winner
    # without its record of the uncalled moves, the round plays differently
    doc["rounds"][0]["forgot"] = []
    path.write_text(json.dumps(doc, indent=1))
    assert_one_line_error(*invoke(capsys, ["replay", str(path)]), "replays differently")


def test_a_file_from_before_the_call_replays_as_the_engine_calling(tmp_path, capsys):
    path = tmp_path / "old.json"
    t, _ = at_two_cards(call_uno=False,
                        saver=lambda s: played_file.save(path, s, "official", "unosim play"))
    while not t.over:
        t.pick(0)
    doc = json.loads(path.read_text())
    assert doc["call_uno"] is False and doc["rounds"][0]["forgot"] == []
    del doc["call_uno"], doc["rounds"][0]["forgot"]
    path.write_text(json.dumps(doc, indent=1))
    code, out, err = invoke(capsys, ["replay", str(path), "--format", "json"])
    assert code == 0, err


@pytest.mark.parametrize("key,called", [("c", True), ("exclamation_mark", True),
                                        ("click", True), (None, False)])
def test_the_key_calls_with_the_next_move(key, called):
    """``c`` or ``!`` calls, and so does a click on the footer's key; no call, and
    the move is a call forgotten (and caught)."""
    pytest.importorskip("textual")
    from textual.widgets import Static
    from textual.widgets._footer import FooterKey

    from unosim.play.app import PlayApp

    t, j = at_two_cards()
    app = PlayApp(t, ["you", "offensive", "offensive"], "official")
    since = t._read

    async def drive() -> None:
        async with app.run_test(size=(130, 50)) as pilot:
            shown = str(app.query_one("#result", Static).render())
            assert "c: call UNO" in shown and "UNO! called" not in shown
            if key == "click":
                await pilot.pause()  # the footer is drawn after the first refresh
                footer = [k for k in app.query(FooterKey) if k.key == "c"]
                assert len(footer) == 1 and await pilot.click(footer[0])
                await pilot.pause()
                assert t.calling
            elif key:
                await pilot.press(key)
                await pilot.pause()
                assert t.calling
                assert "UNO! called" in str(app.query_one("#result", Static).render())
            for d in str(j + 1):
                await pilot.press(d)
            if (j + 1) * 10 <= len(t.legal()):
                await pilot.press("enter")
            await pilot.pause()

    asyncio.run(drive())
    assert len(t.moves) > 0 and not t.calling
    uno = [e for e in mine(t, since) if e[0] == "uno"][0]
    assert uno[1] == ("called" if called else "caught") and (t.forgot == []) == called
