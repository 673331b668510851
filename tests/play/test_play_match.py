"""A match at the table of ``unosim play``: played to its end by the controller, it is
the engine's match, round for round (the person's seat played as its placeholder
strategy gives ``play_match_records``' match 0 exactly: scores, rounds, winner); the
screen is turned so that the person is seat 0 whatever seat the engine gives them;
a match driven by keys alone ends with its result on the screen."""

from __future__ import annotations

import pytest

from unosim.errors import UnosimError
from unosim.play.table import HUMAN, Table
from unosim.runs.match import play_match_records
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy


def match_table(variant: str, players: int, seed: int, target: int,
                opponent: str = "offensive") -> Table:
    rules = resolve([variant], [("players", players), ("target_score", target)])
    return Table(rules, [parse_strategy(opponent)] * (players - 1), seed, match=True)


def play_as_placeholder(t: Table, rounds_seen: list[tuple[int, int]]) -> None:
    """Play every decision of the person as the engine's strategy of their seat."""
    while True:
        rounds_seen.append((t.round, t.me))
        while not t.over:
            seen = t.seen()
            assert seen.actor == HUMAN and seen.legal
            move = t.game.choose()
            t.pick(t.legal().index(move))
        if t.match_over:
            return
        t.deal()


@pytest.mark.parametrize("variant,players,seed,target", [
    ("official", 3, 5, 150),
    ("seven-o", 4, 3, 250),
    ("lazy-scoring", 3, 1, 3),  # winner leads, first to 3 round wins
    ("game-101", 3, 4, 200),  # lowest total once someone passes 200
])
def test_a_played_match_is_the_engines_match(variant, players, seed, target):
    t = match_table(variant, players, seed, target)
    seats: list[tuple[int, int]] = []
    play_as_placeholder(t, seats)
    rec = play_match_records(t.rules, t.seats, seed, 0, 1)[0]
    s = t.sitting
    assert len(s.rounds) == rec[L.M_ROUNDS] and len(s.rounds) >= 2
    assert s.scores() == tuple(int(v) for v in rec[L.M_SCORE:L.M_SCORE + players])
    assert s.winner == rec[L.M_WINNER] and s.winner >= 0
    assert sum(r.turns for r in s.rounds) == rec[L.M_TURNS]
    wins = [sum(r.winner == p for r in s.rounds) for p in range(players)]
    assert wins == [int(v) for v in rec[L.M_ROUND_WINS:L.M_ROUND_WINS + players]]
    assert s.rounds[-1].scores == s.scores()
    assert len({me for _, me in seats}) > 1, "the person never changed seats"
    with pytest.raises(UnosimError, match="match is over"):
        t.deal()


def test_the_screen_is_turned_to_the_person():
    t = match_table("official", 4, 5, 500)
    # play rounds until the person is not in seat 0 of the engine
    while t.me == 0:
        while not t.over:
            t.pick(0)
        assert not t.match_over, "the match ended before the deal passed"
        t.deal()
    me = t.me
    seen = t.seen()
    n = 4
    assert seen.actor == HUMAN
    assert seen.hand == tuple(t.game.hand(me))
    assert seen.counts == tuple(t.game.hand_size((k + me) % n) for k in range(n))
    assert seen.scores == t.sitting.scores() and len(seen.scores) == n
    raw = t.view().events
    assert [e.seat for e in seen.events] == [e if e < 0 else (e - me) % n
                                             for e in (x.seat for x in raw)]
    assert [e.other for e in seen.events] == [e if e < 0 else (e - me) % n
                                              for e in (x.other for x in raw)]
