"""The controller of ``unosim play`` without a screen: full rounds under the presets
the decisions differ most in, the person's seat shown nothing hidden (a twin with
every hidden card redealt looks the same), the deal the seed gives, refusals."""

from __future__ import annotations

import random

import pytest

from unosim.errors import UnosimError
from unosim.play.table import HUMAN, Table, seen_by
from unosim.runs.game import Game
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.simulate.step_nb import legal_moves
from unosim.strategies.python import View
from unosim.strategies.registry import parse_strategy

VARIANTS = ["official", "stacking", "seven-o", "jump-in"]


def table(variant: str, players: int = 4, seed: int = 3, opponent: str = "offensive") -> Table:
    rules = resolve([variant], [("players", players)])
    return Table(rules, [parse_strategy(opponent)] * (players - 1), seed)


def play_first(t: Table, on_decision=None) -> list[str]:
    """Play the round out picking the first legal move; return the phases decided."""
    phases = []
    while not t.over:
        seen = t.seen()
        assert seen.actor == HUMAN and seen.legal, seen
        assert list(seen.legal) == t.game.legal_moves()  # the engine's own list
        if on_decision is not None:
            on_decision(t)
        phases.append(seen.phase)
        move = t.pick(0)
        assert move == seen.legal[0]
    return phases


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_full_round_by_the_first_legal_move(variant):
    t = table(variant)
    phases = play_first(t)
    result = t.result()
    assert result is not None and t.seen().legal == ()
    assert phases and phases[0] in ("turn", "jump", "challenge", "penalty", "colour", "skip")
    counts = t.seen().counts
    if result.winner >= 0:
        assert counts[result.winner] == 0 or t.game.place(result.winner) == 1
        assert result.points == t.game.winner_points()
    kinds = [e.kind for e in t.seen().events]
    assert kinds[0] == "deal" and "play" in kinds
    mine = [e for e in t.seen().events if e.kind == "play" and e.seat == HUMAN]
    assert len(mine) <= len(phases)


@pytest.mark.parametrize("variant,phase", [("official", "drawn"), ("stacking", "penalty"),
                                           ("seven-o", "target"), ("jump-in", "jump")])
def test_the_variants_decisions_reach_the_person(variant, phase):
    """Each preset's own decision is put to seat 0 as a numbered move within a few
    rounds of a fixed seed."""
    t = table(variant, players=3, seed=1)
    seen: set[str] = set()
    for _ in range(12):
        seen.update(play_first(t))
        if phase in seen:
            break
        t.deal()
    assert phase in seen, (variant, sorted(seen))


def test_round_k_is_game_k_of_the_seed_with_events_recorded():
    """Recording the events deals exactly what the seed deals without them."""
    t = table("official", players=3, seed=9)
    for k in range(2):
        plain = Game(t.rules, t.seats, seed=9, game_index=k)
        rec = Game(t.rules, t.seats, seed=9, game_index=k, record_events=True)
        assert [rec.hand(p) for p in range(3)] == [plain.hand(p) for p in range(3)]
        assert rec.discard_pile() == plain.discard_pile()
        assert rec.draw_pile() == plain.draw_pile()
        assert (rec.RNG == plain.RNG).all()
        assert rec.G[L.RF_EVENTS] == 1 and plain.G[L.RF_EVENTS] == 0
        assert int(rec.G[L.OFF_EV_N]) > 0
    t.deal()
    assert t.round == 1


def _twin(G, RNG, rnd):
    from tests.strategies.test_search import twin

    return twin(G, RNG, rnd)  # the actor, seat 0, is the one that cannot tell


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_peeking_a_twin_with_the_hidden_cards_redealt_shows_the_same(variant):
    """At every decision of the person: a game with the other hands, the draw pile and
    the generators redealt shows the same screen; changing the person's own hand
    does change it (so the comparison can fail)."""
    rnd = random.Random(5)
    checked = {"n": 0, "hidden_changed": 0}

    def check(t: Table) -> None:
        G, RNG = t.game.G, t.game.RNG
        G2, R2 = _twin(G, RNG, rnd)
        n2 = int(legal_moves(G2))
        twin_seen = seen_by(View(G2, R2, HUMAN, n2, t.log, {}, None), int(G2[L.S_ACTOR]))
        assert twin_seen == t.seen()
        others = slice(L.OFF_H + L.HW, L.OFF_H + t.game.players * L.HW)
        checked["hidden_changed"] += (G2[others] != G[others]).any()
        checked["n"] += 1
        G3 = G.copy()
        G3[L.OFF_H + 0] += 1  # one more red 0 in the person's hand
        G3[L.OFF_H + L.HC_SIZE] += 1
        n3 = int(legal_moves(G3))
        assert seen_by(View(G3, RNG, HUMAN, n3, t.log, {}, None), 0) != t.seen()

    play_first(table(variant, seed=4), check)
    assert checked["n"] > 0 and checked["hidden_changed"] > 0


def test_refusals():
    t = table("official", players=2)
    with pytest.raises(UnosimError, match="no move"):
        t.pick(len(t.legal()))
    with pytest.raises(UnosimError, match="opponents"):
        Table(t.rules, [], 1)


def test_python_and_search_opponents_play_their_seats():
    """Python strategies (a function, and a class that hears every event) and the search
    player take their turns between the person's decisions."""
    from pathlib import Path

    from unosim.strategies.plugins import load_plugins

    examples = Path(__file__).resolve().parents[2] / "strategies" / "examples"
    load_plugins([f"{examples / 'first.py'}:keep_wilds",
                  f"{examples / 'counting.py'}:ColourCounter"])
    rules = resolve(["official"], [("players", 4)])
    t = Table(rules, [parse_strategy(s) for s in ("keep_wilds", "ColourCounter", "search")], 6)
    play_first(t)
    plays = {e.seat for e in t.seen().events if e.kind == "play"}
    assert t.over and {1, 2, 3} <= plays
