"""One game driven move by move from Python, through the compiled step contract.

Tests build a crafted state with the setters, apply one move and read the exact
result; ``replay`` and anyone curious can play a game by hand. The same compiled
``legal_moves`` / ``apply_move`` that run millions of games run here.

Moves are written as text: ``r5`` (play red 5), ``wild:green`` or ``wild4:blue``
(a wild naming a colour), ``draw``, ``pass`` (keep the drawn card), ``take`` (take
a pending penalty), ``challenge``, ``accept`` and ``colour:red`` (name the colour
of a first flipped Wild), ``target:2`` (swap or trade with seat 2) and
``give:r5`` (the card given in a trade on a 5).

The draw pile has no order: every draw takes a uniformly random card of it,
which is the same as drawing the top of a shuffled pile. A crafted test that
needs a known draw fills the pile with copies of one card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from unosim.errors import UnosimError
from unosim.runs import tiers
from unosim.runs.compile_notice import first_use
from unosim.runs.runner import base_seed, game_template
from unosim.simulate import layout as L
from unosim.simulate.cards import COLOURS, N_RANKS, POINTS, RANK_NIB, WILD, card_name, parse_card
from unosim.simulate.feel_nb import feel_word
from unosim.simulate.moves import PHASES, move_name, parse_move, with_colour
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.rules import Rules, resolve
from unosim.simulate.step_nb import (
    apply_move,
    cap_round,
    deal,
    hand_value,
    is_legal,
    legal_moves,
    score_hands,
)
from unosim.strategies.plugins import chooser_for, ears_of, hear_now, python_seats
from unosim.strategies.registry import SeatStrategy, parse_strategy


def _step_kernels() -> list[Any]:
    """What a Game calls, each a cached kernel (the path "game", runs/tiers.py)."""
    return tiers.entry_points(tiers.GAME.name)


def _strategy_kernels() -> list[Any]:
    """The built-in strategies' dispatch a Game's ``choose`` calls (path
    "game/strategies")."""
    return tiers.entry_points(tiers.GAME_STRATEGIES.name)


_warmed: list[bool] = []


def _warm(G: np.ndarray, RNG: np.ndarray) -> None:
    """Compile (or load) every kernel a Game calls, with the types it calls them
    with, on copies of its arrays: once per process, announced when Numba's cache
    does not hold them, instead of some thirty silent seconds spread over the first
    moves."""
    if _warmed:
        return
    G2, R2 = G.copy(), RNG.copy()
    legal_moves(G2)
    m = int(G2[L.OFF_MOVES])
    with_colour(WILD, 0)
    is_legal(G2, m)
    apply_move(G2, R2, m)
    score_hands(G2)
    hand_value(G2, 0)
    cap_round(G2)
    _warmed.append(True)


class IllegalMove(UnosimError):
    """A move that ``legal_moves`` does not offer in this state."""




def _scalar(index: int, read: Callable[[int], Any], doc: str) -> property:
    """A read-only view of the state scalar ``G[index]``, through ``read``."""
    return property(lambda self: read(int(self.G[index])), doc=doc)


class Game:
    """A single game's state arrays plus the rules and strategies it is played with."""

    def __init__(
        self,
        rules: Rules | None = None,
        seats: list[SeatStrategy] | None = None,
        seed: int = 0,
        game_index: int = 0,
        record_events: bool = False,
    ) -> None:
        """``record_events``: keep the public events (deal on) although no seat
        observes them, for a reader outside the table (``unosim play``'s log);
        recording draws no random numbers, so the deal is the same."""
        self.rules = rules or resolve()
        n = self.rules["players"]
        self.seats = seats or [parse_strategy("random")] * n
        self.G = game_template(self.rules, self.seats)
        if record_events:
            self.G[L.RF_EVENTS] = 1
        self.RNG = np.zeros(8, np.uint64)
        key = base_seed(seed)
        with first_use("game", _step_kernels):
            seed_game(key, game_index, self.RNG)
            deal(self.G, self.RNG)
            _warm(self.G, self.RNG)

    def _h(self, p: int, c: int) -> int:
        return L.OFF_H + p * L.HW + c

    # ------------------------------------------------------------ reading
    @property
    def players(self) -> int:
        return int(self.rules["players"])

    phase = _scalar(L.S_PHASE, PHASES.__getitem__, "The pending decision, by name.")
    actor = _scalar(L.S_ACTOR, int, "The seat to act.")
    direction = _scalar(L.S_DIR, int, "+1 clockwise, -1 counter-clockwise.")
    top = _scalar(L.S_TOP, card_name, "The top card of the discard pile.")
    colour = _scalar(L.S_COLOUR, COLOURS.__getitem__, "The colour to follow.")
    pending = _scalar(L.S_PENDING, int, "Penalty cards waiting for the next victim.")
    over = _scalar(L.S_PHASE, lambda ph: ph == L.PH_OVER, "Whether the round has ended.")
    winner = _scalar(L.S_WINNER, int, "The first seat out; -1 while none (or capped).")

    def stat(self, name: str) -> int:
        """A counter of the state by its layout name, e.g. ``stat('TURNS')``."""
        return int(self.G[getattr(L, "S_" + name.upper())])

    def counters(self) -> dict[str, int]:
        return {
            "turns": self.stat("turns"),
            "cards_played": self.stat("played"),
            "drawn_no_play": self.stat("drawn_no_play"),
            "penalty_drawn": self.stat("pen_drawn"),
            "reshuffles": self.stat("reshuffles"),
            "uno_caught": self.stat("uno_caught"),
            "challenges": self.stat("challenges"),
        }

    def hand(self, p: int) -> list[str]:
        """Seat ``p``'s cards, in type order, one name per physical card."""
        return [card_name(t) for t in range(L.HC_COLOUR) for _ in range(int(self.G[self._h(p, t)]))]

    def hand_size(self, p: int) -> int:
        return int(self.G[self._h(p, L.HC_SIZE)])

    def hand_points(self, p: int) -> int:
        """Face value of the cards in seat ``p``'s hand."""
        return int(self.G[self._h(p, L.HC_POINTS)])

    def hand_value(self, p: int) -> int:
        """What the hand scores, with zero_fifty and Downpour adjustments."""
        return int(hand_value(self.G, p))

    def place(self, p: int) -> int:
        """Finishing place under elimination (0 while still playing)."""
        return int(self.G[self._h(p, L.HC_PLACE)])

    def draw_pile(self) -> list[str]:
        n = int(self.G[L.S_DRAW_LEN])
        return sorted(card_name(int(t)) for t in self.G[L.OFF_DRAW : L.OFF_DRAW + n])

    def discard_pile(self) -> list[str]:
        """Bottom first; the last entry is the top card."""
        n = int(self.G[L.S_DISC_LEN])
        return [card_name(int(t)) for t in self.G[L.OFF_DISC : L.OFF_DISC + n]]

    def total_cards(self) -> int:
        hands = sum(self.hand_size(p) for p in range(self.players))
        return hands + int(self.G[L.S_DRAW_LEN]) + int(self.G[L.S_DISC_LEN])

    def winner_points(self) -> int:
        return int(score_hands(self.G))

    # ------------------------------------------------------------ crafting
    def set_hand(self, p: int, cards: Iterable[str]) -> Game:
        """Replace seat ``p``'s cards (its place and stage are kept)."""
        self.G[self._h(p, 0) : self._h(p, L.HC_POINTS + 1)] = 0
        for name in cards:
            t = parse_card(name)
            self.G[self._h(p, t)] += 1
            self.G[self._h(p, L.HC_COLOUR + t // N_RANKS)] += 1  # wilds: HC_WILDS
            self.G[self._h(p, L.HC_NIBS + t // N_RANKS)] += int(RANK_NIB[t])
            self.G[self._h(p, L.HC_SIZE)] += 1
            self.G[self._h(p, L.HC_POINTS)] += int(POINTS[t])
        self.G[L.OFF_FEEL_SIZES] = feel_word(self.G)  # the sizes a turn's sample reads
        return self

    def set_piles(self, draw: Iterable[str] = (), discard: Iterable[str] = ("r0",)) -> Game:
        """Replace both piles; the last discard is the top card (colour follows it)."""
        d = [parse_card(c) for c in draw]
        x = [parse_card(c) for c in discard]
        if not x or len(d) > L.MAX_DECK or len(x) > L.MAX_DECK:
            raise UnosimError("set_piles: the discard pile needs a top card; piles hold 512")
        self.G[L.OFF_DRAW : L.OFF_DRAW + len(d)] = d
        self.G[L.OFF_DISC : L.OFF_DISC + len(x)] = x
        self.G[L.S_DRAW_LEN] = len(d)
        self.G[L.S_DISC_LEN] = len(x)
        top = x[-1]
        self.G[L.S_TOP] = top
        if top < WILD:
            self.G[L.S_COLOUR] = top // N_RANKS
        return self

    def set_turn(
        self,
        actor: int,
        colour: str | None = None,
        direction: int = 1,
        phase: str = "turn",
        pending: int = 0,
        pending_kind: int = 0,
        **scalars: Any,
    ) -> Game:
        """Whose decision it is and the table state around it."""
        self.G[L.S_ACTOR] = actor
        self.G[L.S_DIR] = direction
        self.G[L.S_PHASE] = {v: k for k, v in PHASES.items()}[phase]
        if colour is not None:
            self.G[L.S_COLOUR] = COLOURS.index(colour)
        self.G[L.S_PENDING] = pending
        self.G[L.S_PEND_KIND] = pending_kind
        for name, v in scalars.items():
            self.G[getattr(L, "S_" + name.upper())] = v
        return self

    # ------------------------------------------------------------ playing
    def legal_moves(self) -> list[str]:
        """Every legal move as text (a wild is listed once per colour)."""
        n = legal_moves(self.G)
        out = []
        for m in self.G[L.OFF_MOVES : L.OFF_MOVES + n]:
            m = int(m)
            if WILD <= m < L.MV_PLAY_END:
                out.extend(move_name(with_colour(m, c)) for c in range(4))
            else:
                out.append(move_name(m))
        return out

    def apply(self, move: str | int) -> Game:
        """Apply one legal move (text or code); raise IllegalMove otherwise."""
        m = parse_move(move) if isinstance(move, str) else int(move)
        if self.over or not is_legal(self.G, m):
            raise IllegalMove(f"illegal move {move_name(m)!r} in phase {self.phase}")
        apply_move(self.G, self.RNG, m)
        return self

    def choose(self) -> str:
        """The move the strategy of the seat to act would play now."""
        if python_seats(self.seats) >> int(self.G[L.S_ACTOR]) & 1:
            return self._python_move()
        choose = chooser_for(self.seats)
        entries = (lambda: [choose]) if getattr(choose, "_cache", None) else None
        with first_use("game/strategies" if entries else "plug-ins", entries):
            return move_name(int(choose(self.G, self.RNG)))

    def _python_move(self) -> str:
        """A Python seat's move: it first hears every event since the deal or its
        last decision, as in a run (runs/python_batch.py)."""
        from unosim.runs.python_batch import PythonSeats, python_seats_of
        from unosim.strategies.python import EventLog

        if getattr(self, "_python", None) is None:
            self._python = PythonSeats(python_seats_of(self.seats), self.G, self.RNG,
                                       EventLog(), lambda: "this game", False)
        hear_now(ears_of(chooser_for(self.seats)), self.G)  # the compiled seats first
        self._python.hear()
        return move_name(self._python.decide(legal_moves(self.G)))

    def step(self) -> str:
        """Let the strategy of the seat to act move; return the move played."""
        m = self.choose()
        self.apply(m)
        return m

    def play_out(self) -> Game:
        """Play on with the seat strategies until the round ends or hits the cap."""
        while not self.over:
            if self.G[L.S_TURNS] >= self.rules["turn_cap"]:
                cap_round(self.G)
                break
            self.step()
        return self

