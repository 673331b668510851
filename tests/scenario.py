"""Helpers shared by the scenario tests (``test_rules_*.py`` and ``test_house_*.py``).

A scenario test crafts an exact table through the Python ``Game`` setters, applies
one move (or a few) and checks the exact result. Every such file needs the same
crafting, reading and comparing helpers; they live here once so that a change to
the state (a new counter to zero, a new setter) is made in one place. A file whose
tests want another default (a longer draw pile, other rules) binds it with a
``functools.partial`` or a short wrapper of its own.

The draw pile has no order (a draw takes a uniformly random card of it), so a test
that needs to know what is drawn fills the pile with copies of one card.
"""

from __future__ import annotations

from collections import Counter

from unosim.runs.game import Game
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules, resolve

# what ``Game.counters()`` reports for a crafted game before any move
ZERO_COUNTERS = {
    "turns": 0,
    "cards_played": 0,
    "drawn_no_play": 0,
    "penalty_drawn": 0,
    "reshuffles": 0,
    "uno_caught": 0,
    "challenges": 0,
}
# hands for the seats a test does not care about: numbers 6 to 9 of green, yellow and
# blue only (no red, no wild, no action or draw card, no 0, 3 or 5)
FILLER = [["g7", "y8"], ["g8", "y9"], ["b7", "y6"], ["b8", "g6"]] + [["y7", "b9"]] * 6


def rules(*variants: str, **overrides) -> Rules:
    """``resolve`` with the overrides as keywords: ``rules("stacking", players=3)``.

    A dotted key is written with a double underscore: ``deck__blanks=4`` is
    ``deck.blanks=4``.
    """
    return resolve(list(variants), [(k.replace("__", "."), v) for k, v in overrides.items()])


def hand_col(p: int, c: int) -> int:
    """Index in ``Game.G`` of column ``c`` (``L.HC_*``) of seat ``p``'s hand row."""
    return L.OFF_H + p * L.HW + c


def craft(
    rules_: Rules | None = None,
    *,
    hands: dict[int, list[str]] | None = None,
    draw=("b1",) * 24,
    discard=("r3",),
    actor: int = 0,
    colour: str | None = None,
    direction: int = 1,
    phase: str = "turn",
    pending: int = 0,
    pending_kind: int = 0,
    seats=None,
    seed: int = 0,
    places: dict[int, int] | None = None,
    stages: dict[int, int] | None = None,
    **scalars,
) -> Game:
    """A dealt game overwritten with the given table; every counter is zeroed.

    ``rules_`` None is the official rules. Seats not in ``hands`` get ``FILLER``.
    The last ``discard`` is the top card. ``places`` {seat: place} marks seats that
    are out (elimination); ``stages`` {seat: stage} sets seven-rounds stages (the
    others keep ``hand_size``). Any other keyword sets the state scalar of that
    layout name (``last=0``, ``bluff=1``, ``winner=2`` ...).
    """
    g = Game(rules_, seats=seats, seed=seed)
    hands = hands or {}
    places = places or {}
    for p in range(g.players):
        g.set_hand(p, hands.get(p, FILLER[p]))
        g.G[hand_col(p, L.HC_PLACE)] = places.get(p, 0)
        if g.rules["seven_rounds"]:
            g.G[hand_col(p, L.HC_STAGE)] = (stages or {}).get(p, g.rules["hand_size"])
    g.set_piles(draw=list(draw), discard=list(discard))
    zero = dict(
        turns=0, played=0, drawn_no_play=0, pen_drawn=0, reshuffles=0, uno_caught=0,
        challenges=0, stack_len=0, max_stack=0, winner=-1, last=0, bluff=0, drawn=0,
        jump_ins=0, swaps=0, deflects=0, refill=0, uno_center=0, silent=0,
        active=g.players - len(places),
    )
    zero.update(scalars)
    g.set_turn(
        actor, colour=colour, direction=direction, phase=phase, pending=pending,
        pending_kind=pending_kind, **zero,
    )
    return g


def hand(g: Game, p: int) -> list[str]:
    """Seat ``p``'s cards, sorted by name (order-free comparison with a literal)."""
    return sorted(g.hand(p))


def counters(**changed) -> dict[str, int]:
    """The expected ``Game.counters()``: all zero but the ``changed`` ones."""
    out = dict(ZERO_COUNTERS)
    out.update(changed)
    return out


def snapshot(g: Game) -> tuple:
    """Everything the public API shows of a game (robust to the internal layout)."""
    scalars = ("pend_kind", "last", "bluff", "drawn", "stack_len", "max_stack", "winner")
    return (
        g.phase,
        g.actor,
        g.direction,
        g.top,
        g.colour,
        g.pending,
        g.over,
        tuple(g.stat(s) for s in scalars),
        tuple(sorted(g.counters().items())),
        tuple(tuple(g.hand(p)) for p in range(g.players)),
        tuple(g.hand_points(p) for p in range(g.players)),
        tuple(g.draw_pile()),
        tuple(g.discard_pile()),
        tuple(g.legal_moves()),
    )


def assert_unchanged(g: Game, snap: tuple) -> None:
    """An illegal move must leave the game exactly as ``snapshot`` saw it."""
    assert snapshot(g) == snap


def deck_counter() -> Counter[str]:
    """Every card of the official 108-card deck, counted from a fresh 4-player deal."""
    g = Game(resolve(), seed=0)
    return Counter(g.draw_pile() + g.discard_pile() + sum((g.hand(p) for p in range(4)), []))
