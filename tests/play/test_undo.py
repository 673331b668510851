"""Undo (training mode): taking the person's last decision back restores the game's
arrays, the generators and the log exactly, and playing the same move again gives
byte-identical arrays (the opponents replay what they played)."""

from __future__ import annotations

import random

import pytest

from unosim.play.table import Table
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy


def table(variant: str, seed: int, opponents: tuple[str, ...] = ("offensive",) * 3) -> Table:
    rules = resolve([variant], [("players", len(opponents) + 1)])
    return Table(rules, [parse_strategy(s) for s in opponents], seed)


def state(t: Table) -> tuple:
    """Everything undo restores (the screen read first: listing the legal moves
    writes them into the game's array, as the decision did)."""
    return (t.seen(), t.game.G.tobytes(), t.game.RNG.tobytes(), len(t.decisions))


@pytest.mark.parametrize("variant,opponents", [
    ("official", ("offensive",) * 3),
    ("stacking", ("random", "card-counter")),  # a strategy whose memory is in the game
    ("seven-o", ("search:rollouts=20", "defensive", "random")),
    ("jump-in", ("offensive",) * 3),
])
def test_undo_restores_the_state_and_the_same_move_replays_identically(variant, opponents):
    t = table(variant, 7, opponents)
    assert not t.can_undo and not t.undo()
    rnd = random.Random(7)
    undone = 0
    while not t.over:
        before = state(t)
        i = rnd.randrange(len(t.legal()))
        t.pick(i)
        after = state(t)
        if rnd.random() < 0.5 or t.over:
            assert t.can_undo and t.undo()
            assert state(t) == before
            undone += 1
            t.pick(i)
            assert state(t) == after
    assert undone > 2
    # after the round: the last decision can still be taken back, round and all
    result, end = t.result(), state(t)
    last = t.decisions[-1]
    assert result is not None and t.undo() and not t.over and t.result() is None
    t.pick(last.legal.index(last.move))
    assert t.result() == result and state(t) == end


def test_undo_goes_back_decision_by_decision_to_the_first():
    t = table("official", 12)
    first = state(t)
    rnd = random.Random(12)
    states = []
    for _ in range(5):
        if t.over:
            break
        states.append(state(t))
        t.pick(rnd.randrange(len(t.legal())))
    while states:
        assert t.undo() and state(t) == states.pop()
    assert state(t) == first and not t.undo()


def test_a_python_opponent_cannot_be_taken_back():
    """A Python strategy keeps its memory outside the game's arrays: undo refuses."""
    from pathlib import Path

    from unosim.strategies.plugins import load_plugins

    examples = Path(__file__).resolve().parents[2] / "strategies" / "examples"
    load_plugins([f"{examples / 'counting.py'}:ColourCounter"])
    t = table("official", 6, ("ColourCounter", "offensive"))
    t.pick(0)
    if not t.over:
        assert t.decisions and not t.can_undo and not t.undo()
