"""Strategies written in plain Python: what a seat sees (``View``), what it hears
(``Event``), and checking what a file offers.

A Python strategy is a function ``NAME(view) -> move`` or a class with
``choose(view)`` and, if it wants them, ``new_game(view)`` and ``observe(event)``.
A move is one of ``view.legal``, the texts ``Game`` uses (``r5``, ``wild:green``,
``draw``, ``pass``, ``take``, ``challenge``, ``accept``, ``target:2`` (an absolute
seat number), ...). The view holds what the seat knows and nothing else: its own
hand, every seat's card count, the table's public state, the round's public events
and its own private ones (``got``: the cards it drew or was traded). A class is made
afresh for every round, so a round never depends on the rounds before it and the
same seed gives the same games however the rounds are split.

A strategy may declare parameters, ``PARAMS = {"name": (low, high, default)}``:
``NAME:name=0.3`` sets one, the function reads ``view.params["name"]`` (a class
also gets them as attributes) and ``unosim tune`` searches their ranges.
"""

from __future__ import annotations

import inspect
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.simulate.cards import COLOURS, TYPE_SLOTS, WILD, card_name
from unosim.simulate.moves import PHASES, move_name, parse_move, with_colour
from unosim.simulate.rng_nb import chance, probability_threshold, rand_below

#: CPU seconds one call of a Python strategy may use (its own thread's time, so a
#: suspended process or a loaded machine never counts); UNOSIM_DECISION_BUDGET sets
#: another, 0 none (docs: Write a strategy)
DECISION_BUDGET = 10.0


def decision_budget() -> float:
    """The budget of one call: ``UNOSIM_DECISION_BUDGET`` when set, else
    ``DECISION_BUDGET``."""
    raw = os.environ.get("UNOSIM_DECISION_BUDGET", "").strip()
    if not raw:
        return DECISION_BUDGET
    try:
        v = float(raw)
    except ValueError:
        v = -1.0
    if not 0 <= v < float("inf"):
        raise UnosimError(f"UNOSIM_DECISION_BUDGET must be seconds (0: no limit), got "
                          f"{raw!r}")
    return v


class Event(NamedTuple):
    """One event: what every seat saw happen, or (``got``) what its own seat alone
    saw (docs: Write a strategy).

    ``kind`` is one of deal, flip, play, draw, keep, challenge, uno, swap, rotate,
    colour, takeback, out, reshuffle, and the private got (a card that came into the
    seat's own hand: drawn, or received in a trade; ``how`` says which); ``seat`` who
    did it (-1: the table); ``card`` the card played, turned or got (a wild played
    with the colour it named); ``count`` cards
    drawn, reshuffled, or the place of a seat that went out; ``other`` the seat
    challenged or swapped with (-1: none); ``how`` the detail: the phase a card was
    played in (turn, drawn, penalty, skip, jump), why cards were drawn (turn,
    penalty, uno, other), a challenge's finding (bluff, fair), an UNO call (called,
    forgot, caught), a swap's card (seven, five, swap-hands, or declined) or the
    colour named."""

    kind: str
    seat: int
    card: str | None = None
    count: int = 0
    other: int = -1
    how: str = ""


KINDS = L.Event._fields
DRAW_REASONS = L.DrawReason._fields
GOT_HOW = L.GotHow._fields
#: the kinds only the seat named in the event hears
PRIVATE = frozenset({"got"})
_TARGET_KINDS = {v: k.replace("_", "-") for k, v in L.TargetKind._asdict().items()}


def decode(kind: int, p: int, a: int, b: int) -> Event:
    """The Event of one row of the engine's event ring."""
    name = KINDS[kind]
    if kind == L.Event.play:
        return Event(name, p, move_name(a), how=PHASES.get(b, str(b)))
    if kind == L.Event.flip:
        return Event(name, p, card_name(a))
    if kind == L.Event.got:
        return Event(name, p, card_name(a), how=GOT_HOW[b])
    if kind == L.Event.draw:
        return Event(name, p, count=a, how=DRAW_REASONS[b])
    if kind == L.Event.challenge:
        return Event(name, p, other=a, how="bluff" if b else "fair")
    if kind == L.Event.uno:
        return Event(name, p, how="called" if a else ("caught" if b else "forgot"))
    if kind == L.Event.swap:
        return Event(name, p, other=a, how="declined" if a < 0 else _TARGET_KINDS.get(b, ""))
    if kind == L.Event.colour:
        return Event(name, p, how=COLOURS[a])
    if kind == L.Event.takeback:
        return Event(name, p, "wild4")
    if kind in (L.Event.out, L.Event.reshuffle, L.Event.deal):
        return Event(name, p, count=a)
    return Event(name, p)


def _move_texts() -> list[tuple[str, ...]]:
    """The texts of each move code ``legal_moves`` lists (a wild: one per colour)."""
    out: list[tuple[str, ...]] = []
    for m in range(L.MV_GIVE + TYPE_SLOTS):
        try:
            if WILD <= m < TYPE_SLOTS:
                out.append(tuple(move_name(with_colour(m, c)) for c in range(4)))
            else:
                out.append((move_name(m),))
        except (KeyError, IndexError, ValueError):
            out.append(())
    return out


MOVE_TEXTS = _move_texts()
#: move text -> the code the engine plays
MOVE_CODES = {t: parse_move(t) for texts in MOVE_TEXTS for t in texts}


def _card_texts() -> list[str]:
    out = []
    for t in range(TYPE_SLOTS):
        try:
            out.append(card_name(t))
        except (KeyError, IndexError, ValueError):
            out.append("")
    return out


_CARD = _card_texts()


class View:
    """What the seat to act knows, read from the game as it is now. Read-only:
    every list is a fresh tuple, and nothing here writes to the game."""

    __slots__ = ("_G", "_RNG", "_log", "_scores", "_dealt", "seat", "params", "legal")

    def __init__(self, G: np.ndarray, RNG: np.ndarray, seat: int, n: int, log: EventLog,
                 params: dict[str, Any], scores: tuple[int, ...] | None = None,
                 dealt: tuple[tuple[str, ...], tuple[int, ...]] | None = None) -> None:
        self._G = G
        self._RNG = RNG
        self._log = log
        self._scores = scores
        # new_game's view: (the seat's dealt hand, every seat's dealt count), the table
        # before the first card's draw penalty, whose events observe hears next
        self._dealt = dealt
        #: the seat deciding (0 .. players-1)
        self.seat = seat
        #: the strategy's parameters (its PARAMS, with any given on the command line)
        self.params = params
        legal: list[str] = []
        for m in G[L.OFF_MOVES:L.OFF_MOVES + n].tolist():
            legal.extend(MOVE_TEXTS[m])
        #: the legal moves, as text: return one of them (empty outside a decision)
        self.legal = tuple(legal)

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(self, "legal"):
            raise AttributeError("a view is read-only")
        object.__setattr__(self, name, value)

    @property
    def players(self) -> int:
        return int(self._G[L.R_PLAYERS])

    @property
    def phase(self) -> str:
        """What is being decided: turn, drawn, challenge, penalty, colour, skip, jump,
        target or give."""
        return PHASES[int(self._G[L.S_PHASE])]

    @property
    def hand(self) -> tuple[str, ...]:
        """The seat's cards, as text, in card order (red, yellow, green, blue, wilds)."""
        if self._dealt is not None:
            return self._dealt[0]
        base = L.OFF_H + self.seat * L.HW
        row = self._G[base:base + TYPE_SLOTS].tolist()
        return tuple(c for t, k in enumerate(row) if k for c in (_CARD[t],) * k)

    @property
    def arrivals(self) -> tuple[str, ...]:
        """The seat's cards in the order they came into its hand: those dealt (or, since
        its hand was last swapped, those it got in the swap) first, in card order, then
        each card it got (drawn, traded) or took back, oldest first; ``arrivals[-1]``
        is the newest. Of identical copies, the newest leaves first."""
        hand = self.hand
        if self._dealt is not None:
            return hand
        dealt = self._log.dealt.get(self.seat)
        base = list(dealt) if dealt is not None else None  # None: not known
        came: list[str] = []
        gave = iter(self._log.gave.get(self.seat, ()))
        nxt = next(gave, None)
        for i, e in enumerate(self._log.all()):
            while nxt is not None and nxt[0] <= i:  # a card it gave in a trade: gone now
                if not _drop_newest(came, nxt[1]) and base is not None:
                    _drop_newest(base, nxt[1])
                nxt = next(gave, None)
            if not heard_by(e, self.seat):
                continue
            mine = e.seat == self.seat
            if e.kind == "got" and mine:
                came.append(e.card or "")
            elif e.kind == "takeback" and mine:
                came.append("wild4")
            elif e.kind == "play" and mine:
                t = (e.card or "").partition(":")[0]
                if not _drop_newest(came, t) and base is not None:
                    _drop_newest(base, t)
            elif e.kind == "rotate" or (e.kind == "swap" and e.how in ("seven", "swap-hands")
                                        and self.seat in (e.seat, e.other)):
                base, came = None, []  # a whole new hand, come at once
        order = (base or []) + came
        left = Counter(hand)
        over = Counter(order)
        over.subtract(left)
        kept: list[str] = []
        for c in reversed(order):  # a card given where the gives went unrecorded
            if over[c] > 0:
                over[c] -= 1
            else:
                kept.append(c)
                left[c] -= 1
        # what came at once (a swap; the deal when not known), in card order, first
        return tuple(c for c, k in left.items() for _ in range(k)) + tuple(reversed(kept))

    @property
    def top(self) -> str:
        return _CARD[int(self._G[L.S_TOP])]

    @property
    def colour(self) -> str:
        """The colour to follow (the one named after a wild)."""
        return COLOURS[int(self._G[L.S_COLOUR])]

    @property
    def direction(self) -> int:
        """+1 clockwise (seat numbers rising), -1 the other way."""
        return int(self._G[L.S_DIR])

    @property
    def pending(self) -> int:
        """Cards a pending Draw Two / Wild Draw Four (or a stack of them) makes draw."""
        return int(self._G[L.S_PENDING])

    @property
    def drawn(self) -> str | None:
        """The card just drawn, when deciding whether to play it."""
        return _CARD[int(self._G[L.S_DRAWN])] if self._G[L.S_PHASE] == L.PH_DRAWN else None

    @property
    def counts(self) -> tuple[int, ...]:
        """Every seat's number of cards."""
        if self._dealt is not None:
            return self._dealt[1]
        G = self._G
        return tuple(int(G[L.OFF_H + q * L.HW + L.HC_SIZE]) for q in range(self.players))

    @property
    def places(self) -> tuple[int, ...]:
        """Every seat's finishing place (0 while it plays on)."""
        G = self._G
        return tuple(int(G[L.OFF_H + q * L.HW + L.HC_PLACE]) for q in range(self.players))

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's score so far in the match, by seat (0 in a single round)."""
        return self._scores if self._scores is not None else (0,) * self.players

    @property
    def turn(self) -> int:
        """Turns played so far this round."""
        return int(self._G[L.S_TURNS])

    @property
    def events(self) -> tuple[Event, ...]:
        """The round's events this seat heard so far, oldest first: every public
        event, and its own private ones (``got``); none yet in new_game's view."""
        if self._dealt is not None:
            return ()
        return self._log.seen_by(self.seat)

    @property
    def rules(self) -> dict[str, int]:
        """The rule values the engine plays (docs: Rules), as numbers."""
        from unosim.simulate.rules import INT_SLOTS

        return {k: int(self._G[slot]) for k, slot in INT_SLOTS.items()}

    def randint(self, n: int) -> int:
        """A uniform whole number in 0 .. n-1 from the strategies' random stream, the
        one compiled strategies draw from, so a run replays from its seed."""
        return int(rand_below(self._RNG, 1, max(1, int(n))))

    def chance(self, p: float) -> bool:
        """True with probability ``p``, from the same stream."""
        return bool(chance(self._RNG, 1, probability_threshold(p)))


def _drop_newest(cards: list[str], card: str) -> bool:
    """Take the last copy of ``card`` out of ``cards``; whether there was one."""
    for i in range(len(cards) - 1, -1, -1):
        if cards[i] == card:
            del cards[i]
            return True
    return False


def heard_by(e: Event, seat: int) -> bool:
    """Whether ``seat`` hears ``e``: a public event, or a private one of its own."""
    return e.kind not in PRIVATE or e.seat == seat


class EventLog:
    """A round's events, decoded from the engine's ring only when somebody reads them."""

    __slots__ = ("_raw", "_done", "dealt", "gave")

    def __init__(self) -> None:
        self._raw: list[np.ndarray] = []
        self._done: list[Event] = []
        #: each seat's hand as dealt, where the driver saw the deal (View.arrivals)
        self.dealt: dict[int, tuple[str, ...]] = {}
        #: each seat's cards given in trades, as (events before it, card): no event
        #: tells them, but the seat chose them (View.arrivals)
        self.gave: dict[int, list[tuple[int, str]]] = {}

    def clear(self) -> None:
        self._raw.clear()
        self._done.clear()
        self.dealt.clear()
        self.gave.clear()

    def __len__(self) -> int:
        return len(self._raw) + len(self._done)

    def take(self, G: np.ndarray, first: int, last: int) -> list[np.ndarray]:
        """Copy events ``first .. last`` (counted from the deal) out of the ring."""
        rows = []
        for i in range(first, last):
            at = L.OFF_EV + (i % L.EV_CAP) * L.EV_WIDTH
            rows.append(G[at:at + L.EV_WIDTH].copy())
        self._raw.extend(rows)
        return rows

    def all(self) -> tuple[Event, ...]:
        """Every event, the private ones of every seat included (not for a seat)."""
        if self._raw:
            self._done.extend(decode(*r.tolist()) for r in self._raw)
            self._raw.clear()
        return tuple(self._done)

    def seen_by(self, seat: int) -> tuple[Event, ...]:
        """The events ``seat`` heard: the public ones and its own private ones."""
        return tuple(e for e in self.all() if heard_by(e, seat))

    def keep(self, n: int) -> None:
        """Forget every event after the first ``n`` (a table taking a move back)."""
        self.all()
        del self._done[n:]
        for gave in self.gave.values():
            gave[:] = [g for g in gave if g[0] < n]


@dataclass
class PythonStrategy:
    """A checked Python strategy: a function of the view, or a class to make one
    player of per round."""

    name: str
    target: Any
    params: dict[str, tuple[float, float, float]]

    @property
    def is_class(self) -> bool:
        return inspect.isclass(self.target)

    def player(self, values: dict[str, Any]) -> Any:
        """What plays one round: the function itself, or a new object."""
        if not self.is_class:
            return self.target
        obj = self.target()
        for k, v in values.items():
            setattr(obj, k, v)
        return obj


def check_python(obj: Any, where: str) -> PythonStrategy:
    """Check a plain Python strategy: a function of one argument, or a class whose
    ``choose`` takes the view (and whose other hooks take one argument each)."""
    name = getattr(obj, "__name__", "strategy")
    if inspect.isclass(obj):
        choose = getattr(obj, "choose", None)
        if not callable(choose):
            raise UnosimError(f"{where}: class {name} has no choose(view) method")
        for hook in ("choose", "new_game", "observe"):
            fn = getattr(obj, hook, None)
            if fn is not None and not _takes(fn, 2):
                raise UnosimError(f"{where}: {name}.{hook} must take one argument besides "
                                  "self")
        try:
            obj()
        except Exception as e:  # noqa: BLE001 - the user's constructor
            raise UnosimError(f"{where}: {name}() takes no arguments or failed: "
                              f"{type(e).__name__}: {e}") from None
    elif callable(obj):
        if not _takes(obj, 1):
            raise UnosimError(f"{where}: {name} must take one argument, the view, as a plain "
                              "Python strategy (a compiled one f(G, rng) needs @numba.njit)")
    else:
        raise UnosimError(f"{where} is a {type(obj).__name__}, not a strategy (a function "
                          "of the view, or a class with choose)")
    return PythonStrategy(name, obj, _declared_params(obj, where))


def _takes(fn: Callable[..., Any], n: int) -> bool:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return True
    try:
        sig.bind(*range(n)) if not inspect.ismethod(fn) else sig.bind(*range(n - 1))
    except TypeError:
        return False
    return True


def _declared_params(obj: Any, where: str) -> dict[str, tuple[float, float, float]]:
    raw = getattr(obj, "PARAMS", {}) or {}
    out = {}
    if not isinstance(raw, dict):
        raise UnosimError(f"{where}: PARAMS must be a dict name -> (low, high, default)")
    for k, spec in raw.items():
        try:
            lo, hi, default = (float(x) for x in spec)
        except (TypeError, ValueError):
            raise UnosimError(f"{where}: PARAMS[{k!r}] must be (low, high, default)") from None
        if not (k.isidentifier() and lo <= default <= hi):
            raise UnosimError(f"{where}: PARAMS[{k!r}] needs a name and low <= default <= "
                              "high")
        out[k] = (lo, hi, default)
    return out
