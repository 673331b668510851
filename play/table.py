"""The controller of ``unosim play``: it owns the :class:`~unosim.runs.game.Game`,
shows the person's seat only what that seat knows (a :class:`Seen`, built from the
seat's :class:`~unosim.strategies.python.View`), applies the move the person picks
and lets the opponents move until the person must decide again or the round ends.

The legal moves come from the engine, so every decision the rules give (play, draw,
keep or play the drawn card, stack or take, challenge or accept, a target, a
jump-in) is offered the same way: as a numbered text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from unosim.errors import UnosimError
from unosim.play import hints
from unosim.play.history import Decision
from unosim.runs.game import Game
from unosim.runs.played import Calling, Round, Sitting
from unosim.runs.python_batch import take_events
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules
from unosim.simulate.step_nb import cap_round, legal_moves
from unosim.strategies.plugins import python_seats
from unosim.strategies.python import Event, EventLog, View
from unosim.strategies.registry import SeatStrategy

#: the seat the person shows as on the screen (in a match the engine seats them as
#: the deal passes: ``Table.me`` is their engine seat, and the screen is turned)
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
    #: every player's match score (empty outside a match)
    scores: tuple[int, ...] = ()


@dataclass(frozen=True)
class Result:
    """How a round ended: the winner (-1: stopped at the turn cap) and its points."""

    winner: int
    points: int
    turns: int


class Table:
    """One table: the rules, the opponents' strategies and the seed; round ``k`` is
    game ``k`` of the seed, so the same seed deals the same rounds. With ``match``
    the rounds are a match's (runs/played.py): the person moves seats as the deal
    passes, and everything shown is turned so that the person is seat 0 and seat
    ``k`` is the player ``k`` places to the left. ``saver`` is told of each round
    as it ends. With ``call_uno`` the person calls UNO themselves (``call``).

    With ``deal=False`` the table touches no compiled kernel until its first ``deal``
    (``started`` tells): the screen opens it so, draws itself and deals once the
    engine is compiled (play/warmup.py)."""

    #: the search's rollouts per hint and per decision reviewed
    hint_rollouts: int = hints.ROLLOUTS

    def __init__(self, rules: Rules, opponents: list[SeatStrategy], seed: int,
                 match: bool = False, saver: Callable[[Sitting], None] | None = None,
                 call_uno: bool = False, deal: bool = True) -> None:
        n = int(rules["players"])
        if len(opponents) != n - 1:
            raise UnosimError(f"{n} players need {n - 1} opponents, got {len(opponents)}")
        self.rules = rules
        self._sit = (opponents, match, call_uno)
        self._sitting: Sitting | None = None
        #: whether the table plays a match (known before the sitting starts)
        self.in_match = match
        self.seed = seed
        self.saver = saver
        self.round = -1
        self.moves: list[str] = []
        if deal:
            self.deal()

    @property
    def sitting(self) -> Sitting:
        """The rounds or the match (runs/played.py), started on first use (a match
        loads its kernels then)."""
        if self._sitting is None:
            opponents, match, call_uno = self._sit
            self._sitting = Sitting(self.rules, opponents, self.seed, match, call_uno)
        return self._sitting

    @property
    def seats(self) -> list[SeatStrategy]:
        """Every seat's strategy; the person's holds a placeholder the table never asks."""
        return self.sitting.seats

    @property
    def started(self) -> bool:
        """Whether a round was dealt (with ``deal=False``, not before the first ``deal``)."""
        return self.round >= 0

    # ------------------------------------------------------------ playing
    def deal(self) -> None:
        """Deal the next round and play the opponents up to the person's first decision."""
        self.round += 1
        # the person reads the public events, though no seat of the table observes
        self.game: Game = self.sitting.deal()
        self.me = self.sitting.me
        self.moves: list[str] = []
        #: with ``call_uno``: whether UNO is called with the next move, and the
        #: indices of the round's moves that went down to one card without the call
        self.calling = False
        self.forgot: list[int] = []
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
        if self.sitting.call_uno:
            self._play_calling(move)
        else:
            self.game.apply(move)
        self.moves.append(move)
        self._advance()
        return move

    @property
    def call_uno(self) -> bool:
        return self._sit[2]

    def call(self) -> bool:
        """Call UNO with the next move (``call_uno``): any time from the person's
        decision until the move is played. False where there is nothing to call."""
        if not self.call_uno or not self.legal():
            return False
        self.calling = True
        return True

    def _play_calling(self, move: str) -> None:
        """Play the person's move with their call, or without it: a move that takes
        them down to one card uncalled is a call forgotten, which the engine may
        catch (runs/played.py ``Calling``)."""
        calling = Calling(self.game.G, self.me)
        calling.set(self.calling)
        try:
            self.game.apply(move)
        finally:
            calling.restore()
        self.calling = False
        heard = self._read
        self._hear()
        if any(e.kind == "uno" and e.seat == self.me and e.how != "called"
               for e in self.log.all()[heard:]):
            self.forgot.append(len(self.moves))

    def _advance(self) -> None:
        """Let the opponents move until the person must decide or the round ends."""
        game = self.game
        cap = int(self.rules["turn_cap"])
        self._hear()
        while not game.over:
            if game.stat("turns") >= cap:
                cap_round(game.G)
                break
            if game.actor == self.me:
                break
            game.step()
            self._hear()
        self._hear()
        if game.over:
            self._round_over()

    def _hear(self) -> None:
        """Copy the events written since the last look into the round's log (after
        every move, so the engine's ring never laps the log), as the Python seats
        read them."""
        where = f"round {self.round} at the table (seed {self.seed})"
        self._read += len(take_events(self.game.G, self.log, self._read, lambda: where))

    def _remember(self, legal: tuple[str, ...], move: str) -> None:
        """Keep the state of the decision about to be taken (review, undo)."""
        self.decisions.append(Decision(len(self.decisions), self.game.G.copy(),
                                       self.game.RNG.copy(), self._read, legal, move,
                                       self.me))

    def undo_refused(self) -> str:
        """Why the person's last decision cannot be taken back ("" when it can): none
        was taken this round; an opponent is a Python strategy (whose memory the
        game's arrays do not hold); or the round of a match is over, scored into the
        match and saved (a round of its own is reopened instead)."""
        if not self.decisions:
            return "no decision of yours to take back this round"
        if python_seats(self.seats):
            return "a Python strategy's memory cannot be taken back"
        if self.over and self.sitting.match:
            return ("the round is over, scored and saved: undo goes back within a "
                    "round of a match only")
        return ""

    @property
    def can_undo(self) -> bool:
        """Whether the person's last decision can be taken back (``undo_refused``)."""
        return not self.undo_refused()

    def undo(self) -> bool:
        """Take the person's last decision back: the game's arrays, the generators
        and the log as they were before it (the opponents then play as they did
        if the same move is played again), and the move off the round's moves. A
        round of its own taken back from its end is out of the saved file again
        until it ends anew. False if it cannot be taken back (``undo_refused``)."""
        if not self.can_undo:
            return False
        if self.over and self.sitting.reopen() and self.saver is not None:
            self.saver(self.sitting)
        d = self.decisions.pop()
        self.moves.pop()
        if self.forgot and self.forgot[-1] == len(self.moves):
            self.forgot.pop()
        self.calling = False
        self.game.G[:] = d.G
        self.game.RNG[:] = d.RNG
        self.log.keep(d.events)
        self._read = d.events
        return True

    def hint(self) -> hints.Hint | None:
        """The search's estimate for each of the person's legal moves, in the order of
        ``legal`` (None when the person is not deciding); the search runs for the
        person's seat of this round (``me``), from what that seat knows."""
        job = self.hint_job()
        return None if job is None else job()

    def hint_job(self) -> Callable[[], hints.Hint] | None:
        """``hint`` to be computed later, on a copy of the state as it is now (the
        screen runs it in a thread while the table goes on); None when the person
        is not deciding."""
        legal = self.legal()
        if not legal:
            return None
        G = self.game.G.copy()
        rng = hints.generator(self.seed, self.round, len(self.decisions))
        rollouts = self.hint_rollouts
        return lambda: hints.hint(G, rng, legal, rollouts)

    def forced(self) -> bool:
        """Whether the person's decision has one legal move only (taking the cards
        after accepting a Wild Draw Four, say): the screen plays it for them."""
        return len(self.legal()) == 1

    # ------------------------------------------------------------ reading
    @property
    def over(self) -> bool:
        return self.started and self.game.over

    def view(self) -> View:
        """The person's view (the legal moves are filled while the person is to act)."""
        G = self.game.G
        mine = not self.game.over and self.game.actor == self.me
        n = int(legal_moves(G)) if mine else 0
        return View(G, self.game.RNG, self.me, n, self.log, {}, None)

    def legal(self) -> tuple[str, ...]:
        """The person's legal moves, as the engine's texts (empty when not deciding)."""
        return self.view().legal

    def seen(self) -> Seen:
        seen = seen_by(self.view(), int(self.game.G[L.S_ACTOR]))
        if self.sitting.match:
            seen = turned(seen, self.me, self.sitting.scores())
        return seen

    def result(self) -> Result | None:
        """The end of the round, or None while it goes on."""
        if not self.game.over:
            return None
        winner = self.game.winner
        return Result(self.sitting.player(winner),
                      self.game.winner_points() if winner >= 0 else 0,
                      self.game.stat("turns"))

    # ------------------------------------------------------------ a match
    @property
    def match_over(self) -> bool:
        return self.started and self.sitting.over

    def _round_over(self) -> None:
        """Keep the round (and score it, in a match) once, and tell the saver."""
        if self.sitting.settle(self.moves, tuple(self.forgot)) is not None \
                and self.saver is not None:
            self.saver(self.sitting)

    @property
    def played(self) -> list[Round]:
        return self.sitting.rounds if self._sitting is not None else []


def seen_by(view: View, actor: int) -> Seen:
    """What the screen shows, read from the view alone (and whose turn it is, which
    the whole table sees)."""
    return Seen(view.phase, view.hand, view.top, view.colour, view.direction, view.pending,
                view.drawn, view.counts, actor, view.legal, view.events)


def turned(seen: Seen, me: int, scores: tuple[int, ...]) -> Seen:
    """``seen`` with every seat counted from the person's (``me``) on: seat ``k`` is
    then player ``k`` all match long, whoever deals."""
    n = len(seen.counts)

    def t(seat: int) -> int:
        return seat if seat < 0 else (seat - me) % n

    def event(e: Event) -> Event:
        return e._replace(seat=t(e.seat), other=t(e.other))

    return replace(seen, counts=tuple(seen.counts[(k + me) % n] for k in range(n)),
                   actor=t(seen.actor), legal=tuple(turned_move(m, me, n) for m in seen.legal),
                   events=tuple(event(e) for e in seen.events), scores=scores)


def turned_move(text: str, me: int, n: int) -> str:
    """A move's engine text as the screen shows it to the person in engine seat
    ``me`` of ``n``: a target seat counted from the person's."""
    head, _, tail = text.partition(":")
    return f"target:{(int(tail) - me) % n}" if head == "target" else text
