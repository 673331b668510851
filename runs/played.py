"""The rounds a person plays at one table: how each is dealt, how it is scored, and
what is kept of it so that it replays (runs/played_file.py writes and reads it).

Round ``k`` of a table of single rounds is game ``k`` of its seed, the person in seat
0. A match is the engine's match (docs/matches.md): match 0 of the seed, its rounds
dealt from one generator, the players moving seats as the deal passes (seat ``s``
holds player ``(s + off) % n``; the person is player 0), each round scored by the
engine's own kernels (simulate/match_nb.py). A person who played every move as the
placeholder strategy of their seat would play ``unosim run --mode match``'s match 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from unosim.errors import UnosimError
from unosim.runs.game import Game
from unosim.runs.match import DEFAULT_MAX_ROUNDS
from unosim.runs.tables import game_template
from unosim.simulate import layout as L
from unosim.simulate.rng_nb import probability_threshold
from unosim.simulate.rules import Rules
from unosim.strategies.registry import SeatStrategy, parse_strategy

#: the strategy in the person's seat: the engine needs one there, the table never
#: asks it (a replay must use the same, so it is fixed here)
PERSON_PLACEHOLDER = "random"


@dataclass(frozen=True)
class Round:
    """One finished round: the person's seat and moves in it, and how it ended
    (``winner`` and ``scores`` by player; ``final_hands`` by seat)."""

    index: int
    seat: int
    moves: tuple[str, ...]
    winner: int
    points: int
    turns: int
    final_hands: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...] | None = None
    #: with ``call_uno``: the indices (in ``moves``) of the moves that took the person
    #: down to one card without calling UNO (every other move is played as called)
    forgot: tuple[int, ...] = ()


#: the chance threshold of a call forgotten for certain (``chance`` draws nothing)
ALWAYS = probability_threshold(1.0)


class Calling:
    """The person's UNO call under ``call_uno``: for each of their moves, the engine's
    forget chance of their seat (the slot ``_uno_call`` reads, and only when that
    seat's own card leaves it one) is set to 0 (called) or certain (not called), and
    put back before anyone else acts, so the engine's catch roll
    (``uno_catch_prob``) and penalty (``uno_penalty``) apply as for any seat."""

    def __init__(self, G: np.ndarray, me: int) -> None:
        self.G = G
        self.slot = L.OFF_SEATF + me * L.N_SEATF + L.SF_UNO_FORGET
        self.kept = int(G[self.slot])

    def set(self, called: bool) -> None:
        self.G[self.slot] = 0 if called else ALWAYS

    def restore(self) -> None:
        self.G[self.slot] = self.kept


class Sitting:
    """The rounds of one table, dealt one after another (``deal``, then ``settle``
    once the round is over). With ``call_uno`` the person calls UNO themselves."""

    def __init__(self, rules: Rules, opponents: list[SeatStrategy], seed: int,
                 match: bool = False, call_uno: bool = False) -> None:
        self.rules = rules
        self.call_uno = call_uno
        self.seats = [parse_strategy(PERSON_PLACEHOLDER), *opponents]
        self.n = len(self.seats)
        self.seed = seed
        self.match = match
        self.rounds: list[Round] = []
        self.game: Game | None = None
        self.dealt = 0  # rounds dealt (a table of single rounds may leave one unplayed)
        self._settled = False
        self.off = 0  # this round's seating: seat s holds player (s + off) % n
        self._next_off = 0
        if match:
            from unosim.simulate.match_nb import start_match

            self.T = game_template(rules, self.seats)
            self.out = np.zeros((1, L.N_M), dtype=np.int32)
            # what the match carries from round to round (match_nb.match_loop's steps)
            self.ended, self._next_off, self._wp, self._rounds, self._turns = (
                start_match(self.out, 0))
            _warm_match(self.T)

    # ------------------------------------------------------------ seats
    @property
    def me(self) -> int:
        """The person's seat this round."""
        return (-self.off) % self.n

    def player(self, seat: int) -> int:
        """Who sits in ``seat`` this round (-1 stays -1)."""
        return seat if seat < 0 else (seat + self.off) % self.n

    # ------------------------------------------------------------ rounds
    @property
    def over(self) -> bool:
        """Whether the match has ended (never, for single rounds)."""
        return self.match and self.ended

    def deal(self, index: int | None = None) -> Game:
        """The next round, dealt (events recorded, for the person's log); at a table
        of single rounds, ``index`` deals game ``index`` of the seed instead."""
        if self.over:
            raise UnosimError("the match is over: no more rounds")
        if index is not None and not self.match:
            self.dealt = index
        k = self.dealt
        if self.match and self.game is not None and not self._settled:
            raise UnosimError(f"round {k} of the match is not over")
        prev = self.game
        self.off = self._next_off
        if not self.match or prev is None:
            g = Game(self.rules, self.seats, seed=self.seed,
                     game_index=0 if self.match else k, record_events=True)
        else:  # as match_nb.match_loop: the same array and generator, seats moved
            from unosim.simulate.match_nb import seat_players
            from unosim.simulate.step_nb import deal

            seated = [self.seats[(s + self.off) % self.n] for s in range(self.n)]
            g = Game(self.rules, seated, seed=self.seed, record_events=True)
            g.G[:] = prev.G
            g.RNG[:] = prev.RNG
            seat_players(g.G, self.T, self.off)
            deal(g.G, g.RNG)
        self.game = g
        self.dealt += 1
        self._settled = False
        return g

    def settle(self, moves: list[str], forgot: tuple[int, ...] = ()) -> Round | None:
        """Keep the round just over, with the person's ``moves`` (and those of them
        played without the UNO call, ``forgot``); in a match, score it. None: it was
        kept already."""
        g = self.game
        if g is None or not g.over:
            raise UnosimError("no round is over")
        if self._settled:
            return None
        self._settled = True
        scores = None
        if self.match:
            scores = self._score(g)
        w = g.winner
        r = Round(self.dealt - 1, self.me, tuple(moves), self.player(w),
                  g.winner_points() if w >= 0 else 0, g.stat("turns"),
                  tuple(tuple(g.hand(s)) for s in range(self.n)), scores, tuple(forgot))
        self.rounds.append(r)
        if not self.match:
            self._next_off = 0
        return r

    def reopen(self) -> bool:
        """Take the round just kept back out of a table of single rounds (the person
        took their last move back: it is played on and kept again when it ends).
        False where nothing was taken out: the round is not kept yet, or it is a
        match's, scored into the match already."""
        if self.match or not self._settled:
            return False
        self._settled = False
        self.rounds.pop()
        return True

    def _score(self, g: Game) -> tuple[int, ...]:
        """``match_loop``'s steps after a round: score it, then end the match where no
        round is due."""
        from unosim.simulate.match_nb import finish_match, round_due, settle_round

        ended, off, self._wp, self._rounds, self._turns = settle_round(
            g.G, self.T, self.out, 0, self.off, self._wp, self._rounds, self._turns)
        self._next_off = int(off)
        if not round_due(self.out, 0, ended, self._rounds, DEFAULT_MAX_ROUNDS):
            finish_match(self.T, g.RNG, self.out, 0, ended, self._wp, self._rounds,
                         self._turns)
            self.ended = True
        return self.scores()

    # ------------------------------------------------------------ a match
    def scores(self) -> tuple[int, ...]:
        """Every player's match score (round wins under lazy scoring)."""
        if not self.match:
            return ()
        return tuple(int(v) for v in self.out[0, L.M_SCORE:L.M_SCORE + self.n])

    @property
    def winner(self) -> int:
        """The match winner (player), -1 while none."""
        return int(self.out[0, L.M_WINNER]) if self.match else -1

    @property
    def tied(self) -> bool:
        return bool(self.match and self.out[0, L.M_TIED])

    @property
    def capped(self) -> bool:
        return bool(self.match and self.out[0, L.M_CAPPED])


def _warm_match(T: np.ndarray) -> None:
    """Compile (or load) the match's kernels on copies now, not after the first round
    (a few seconds on a first run)."""
    from unosim.simulate.match_nb import (
        finish_match,
        round_due,
        seat_players,
        settle_round,
        start_match,
    )

    G, out, RNG = T.copy(), np.zeros((1, L.N_M), np.int32), np.zeros(8, np.uint64)
    ended, off, wp, rounds, turns = start_match(out, 0)
    round_due(out, 0, ended, rounds, 1)
    seat_players(G, T, off)
    ended, off, wp, rounds, turns = settle_round(G, T, out, 0, off, wp, rounds, turns)
    finish_match(T, RNG, out, 0, ended, wp, rounds, turns)
