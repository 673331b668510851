"""The controller of ``unosim play``: it owns the :class:`~unosim.runs.game.Game`,
shows the person's seat only what that seat knows (a :class:`Seen`, built from the
seat's :class:`~unosim.strategies.python.View`), applies the move the person picks
and lets the opponents move until the person must decide again or the round ends.

The legal moves come from the engine, so every decision the rules give (play, draw,
keep or play the drawn card, stack or take, challenge or accept, a target, a
jump-in) is offered the same way: as a numbered text.
"""

from __future__ import annotations

from dataclasses import dataclass

from unosim.errors import UnosimError
from unosim.play import hints
from unosim.play.history import Decision
from unosim.runs.game import Game
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules
from unosim.simulate.step_nb import cap_round, legal_moves
from unosim.strategies.plugins import python_seats
from unosim.strategies.python import Event, EventLog, View
from unosim.strategies.registry import SeatStrategy, parse_strategy

#: the seat the person plays
HUMAN = 0


@dataclass(frozen=True)
class Seen:
    """Everything the screen shows: what the person's seat knows, nothing more."""

    phase: str
    hand: tuple[str, ...]
    top: str
    colour: str
    direction: int
    pending: int
    drawn: str | None
    counts: tuple[int, ...]
    actor: int
    legal: tuple[str, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Result:
    """How a round ended: the winner (-1: stopped at the turn cap) and its points."""

    winner: int
    points: int
    turns: int


class Table:
    """One table: the rules, the opponents' strategies and the seed; round ``k`` is
    game ``k`` of the seed, so the same seed deals the same rounds."""

    #: the search's rollouts per hint and per decision reviewed
    hint_rollouts: int = hints.ROLLOUTS

    def __init__(self, rules: Rules, opponents: list[SeatStrategy], seed: int) -> None:
        n = int(rules["players"])
        if len(opponents) != n - 1:
            raise UnosimError(f"{n} players need {n - 1} opponents, got {len(opponents)}")
        self.rules = rules
        # the person's seat gets a placeholder strategy the table never asks
        self.seats = [parse_strategy("random"), *opponents]
        self.seed = seed
        self.round = -1
        self.deal()

    # ------------------------------------------------------------ playing
    def deal(self) -> None:
        """Deal the next round and play the opponents up to the person's first decision."""
        self.round += 1
        # the person reads the public events, though no seat of the table observes
        self.game = Game(self.rules, self.seats, seed=self.seed, game_index=self.round,
                         record_events=True)
        self.log = EventLog()
        self._read = 0
        #: the person's decisions of the round, each with the state before it
        self.decisions: list[Decision] = []
        self._advance()

    def pick(self, index: int) -> str:
        """Play legal move ``index`` (0-based) of the person's list; return its text."""
        legal = self.legal()
        if not 0 <= index < len(legal):
            raise UnosimError(f"no move {index + 1}: {len(legal)} legal moves")
        move = legal[index]
        self._remember(legal, move)
        self.game.apply(move)
        self._advance()
        return move

    def _advance(self) -> None:
        """Let the opponents move until the person must decide or the round ends."""
        game = self.game
        cap = int(self.rules["turn_cap"])
        self._hear()
        while not game.over:
            if game.stat("turns") >= cap:
                cap_round(game.G)
                break
            if game.actor == HUMAN:
                break
            game.step()
            self._hear()
        self._hear()

    def _hear(self) -> None:
        """Copy the public events written since the last look into the round's log
        (after every move, so the engine's ring never laps the log)."""
        written = int(self.game.G[L.OFF_EV_N])
        if written > self._read:
            self.log.take(self.game.G, self._read, written)
            self._read = written

    def _remember(self, legal: tuple[str, ...], move: str) -> None:
        """Keep the state of the decision about to be taken (review, undo)."""
        self.decisions.append(Decision(len(self.decisions), self.game.G.copy(),
                                       self.game.RNG.copy(), self._read, legal, move))

    @property
    def can_undo(self) -> bool:
        """Whether a decision can be taken back: one was taken this round, and no
        opponent is a Python strategy (whose memory the game's arrays do not hold)."""
        return bool(self.decisions) and not python_seats(self.seats)

    def undo(self) -> bool:
        """Take the person's last decision back: the game's arrays, the generators
        and the log as they were before it (the opponents then play as they did
        if the same move is played again). False if there is none to take back."""
        if not self.can_undo:
            return False
        d = self.decisions.pop()
        self.game.G[:] = d.G
        self.game.RNG[:] = d.RNG
        self.log.keep(d.events)
        self._read = d.events
        return True

    def hint(self) -> hints.Hint | None:
        """The search's estimate for each of the person's legal moves (None when the
        person is not deciding)."""
        legal = self.legal()
        if not legal:
            return None
        rng = hints.generator(self.seed, self.round, len(self.decisions))
        return hints.hint(self.game.G, rng, legal, self.hint_rollouts)

    # ------------------------------------------------------------ reading
    @property
    def over(self) -> bool:
        return self.game.over

    def view(self) -> View:
        """The person's view (the legal moves are filled while the person is to act)."""
        G = self.game.G
        mine = not self.game.over and self.game.actor == HUMAN
        n = int(legal_moves(G)) if mine else 0
        return View(G, self.game.RNG, HUMAN, n, self.log, {}, None)

    def legal(self) -> tuple[str, ...]:
        """The person's legal moves, as the engine's texts (empty when not deciding)."""
        return self.view().legal

    def seen(self) -> Seen:
        return seen_by(self.view(), int(self.game.G[L.S_ACTOR]))

    def result(self) -> Result | None:
        """The end of the round, or None while it goes on."""
        if not self.game.over:
            return None
        winner = self.game.winner
        return Result(winner, self.game.winner_points() if winner >= 0 else 0,
                      self.game.stat("turns"))



def seen_by(view: View, actor: int) -> Seen:
    """What the screen shows, read from the view alone (and whose turn it is, which
    the whole table sees)."""
    return Seen(view.phase, view.hand, view.top, view.colour, view.direction, view.pending,
                view.drawn, view.counts, actor, view.legal, view.events)
