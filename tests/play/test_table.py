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


def test_a_ring_lapped_between_looks_stops_the_table_rather_than_lose_events():
    """The table reads the engine's event ring as the Python seats do: more events
    unread than the ring holds is an error naming the round, never a log with some
    missing."""
    t = table("official", players=2)
    t.game.G[L.OFF_EV_N] = t._read + L.EV_CAP + 1
    with pytest.raises(UnosimError, match="more than the event ring holds, in round 0 at "
                                          "the table"):
        t._hear()


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


# ------------------------------------------------------------------ the words


def test_the_words_agree_in_number_and_person():
    from unosim.play import words
    from unosim.strategies.python import Event

    assert words.plural(1, "card") == "1 card" and words.plural(2, "card") == "2 cards"
    assert words.plural(0, "card") == "0 cards"
    assert words.event(Event("draw", 0, count=1)).plain == "you drew 1 card"
    assert words.event(Event("draw", 2, count=4, how="penalty")).plain == \
        "seat 2 drew 4 cards (penalty)"
    assert words.event(Event("uno", 0, how="caught")).plain == \
        "you were caught without calling UNO"
    assert words.event(Event("uno", 1, how="caught")).plain == \
        "seat 1 was caught without calling UNO"
    assert words.event(Event("reshuffle", -1, count=1)).plain.endswith("(1 card)")
    assert words.move("take", "penalty", 1).plain.startswith("take the 1 card ")
    assert words.move("take", "penalty", 4).plain.startswith("take the 4 cards ")
    assert words.move("take", "penalty", 4, engine=False).plain == "take the 4 cards"
    assert words.event(Event("got", 0, "g2", how="draw")).plain == "you got g2"


def test_a_seven_swaps_hands_a_zero_passes_them_on_and_a_five_trades():
    from unosim.play import words
    from unosim.strategies.python import Event

    assert words.move("target:2", "target", 0, "g7").plain == "swap hands with seat 2  [target:2]"
    assert words.move("target:1", "target", 0, "swap").plain.startswith("swap hands with seat 1")
    assert words.move("target:1", "target", 0, "r5").plain.startswith("trade a card with seat 1")
    assert words.move("pass", "target", 0, "r5").plain.startswith("trade with nobody")
    assert words.event(Event("swap", 0, other=3, how="seven")).plain == \
        "you swapped hands with seat 3 (a 7)"
    assert words.event(Event("swap", 2, other=0, how="five")).plain == \
        "seat 2 chose you to trade a card with (a 5)"
    rotate = words.event(Event("rotate", 1)).plain
    assert "every hand passed to the next seat" in rotate and "swap" not in rotate


def test_blue_cards_are_drawn_blue():
    """A true blue, not the terminal's "blue" that themes draw violet."""
    from rich.color import Color

    from unosim.play import words

    for name, hue in (("b7", 2), ("r7", 0), ("g7", 1)):
        colour = words.card(name).style
        rgb = Color.parse(str(colour).split()[-1]).get_truecolor()
        assert Color.parse(str(colour).split()[-1]).is_default is False
        channels = (rgb.red, rgb.green, rgb.blue)
        assert channels[hue] == max(channels) and channels[hue] - sorted(channels)[1] > 60
    assert words.COLOUR_STYLES["blue"] == words.STYLES["b"]


def test_replay_says_which_swap_a_move_made():
    """``unosim replay`` words a 7's chosen seat as a swap of hands and a 0 as every
    hand passed on (it once said "hands swapped or a card traded" of both)."""
    from unosim.studies.replay.play import replay
    from unosim.studies.replay.text import render_replay

    rules = resolve(["seven-o"], [])
    seats = [parse_strategy("random")] * 4
    text = render_replay(replay(rules, seats, 3, 1), "seven-o")
    assert "hands swapped or a card traded" not in text and "chooses seat" not in text
    assert "swaps hands with seat" in text and "-> hands swapped;" in text
    assert "plays r0 -> top r0; every hand passed to the next seat" in text
    assert "(1 cards" not in text and "seat 1 (1 card, 9 points): r9" in text
