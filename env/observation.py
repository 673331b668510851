"""The observation layout every unosim environment shares, declared once: one flat
float32 vector of what the seat knows, read from the same public fields a strategy's
``View`` reads (its own hand, the table, every seat's card count and place) and
nothing else. Its one writer is the compiled encoder (encode_nb.py), which both
environments call; docs/reinforcement-learning.md shows the table to users.

Seats are counted from the observer in seat order: index 0 is the observer, 1 the
next seat number, and so on; slots past the player count stay 0.

The blocks are laid end to end in the order declared below (name, size, meaning),
as simulate/layout.py lays out the game array: a new feature is one line here and
its lines in the encoder.
"""

from __future__ import annotations

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate.cards import N_TYPES
from unosim.simulate.layout import Blocks

_OBS = Blocks()
HAND = _OBS.add("hand", N_TYPES)  # cards of each type in the observer's hand
TOP = _OBS.add("top", N_TYPES)  # the top card of the discard pile (one-hot)
COLOUR = _OBS.add("colour", 4)  # the colour to follow (one-hot: red, yellow, green, blue)
#: the decision pending (one-hot: turn, drawn, challenge, penalty, colour, skip, jump,
#: target, give, over)
PHASE = _OBS.add("phase", L.PH_OVER + 1)
DRAWN = _OBS.add("drawn", N_TYPES)  # the card just drawn, while keeping or playing it
DIRECTION = _OBS.add("direction", 1)  # +1 seat numbers rising, -1 the other way
PENDING = _OBS.add("pending", 1)  # penalty cards waiting for the next victim
COUNTS = _OBS.add("counts", L.MAX_PLAYERS)  # every seat's number of cards
PLAYING = _OBS.add("playing", L.MAX_PLAYERS)  # 1 for a seat still playing
PLACES = _OBS.add("places", L.MAX_PLAYERS)  # finishing place under elimination (0: playing)
DRAW_PILE = _OBS.add("draw_pile", 1)  # cards in the draw pile
DISCARD_PILE = _OBS.add("discard_pile", 1)  # cards in the discard pile
TURN = _OBS.add("turn", 1)  # turns played this round
#: what a target or trade choice is for (one-hot, in this order: five, seven, swap)
TARGET_KINDS = tuple(int(k) for k in L.TargetKind)
TARGET_KIND = _OBS.add("target_kind", len(TARGET_KINDS))

#: name -> where it lies in the observation
OBS = {name: slice(at, at + size) for name, at, size in _OBS.blocks}
OBS_SIZE = _OBS.size


def bounds(turn_cap: int) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest value of every entry (a Box's bounds)."""
    low = np.zeros(OBS_SIZE, np.float32)
    high = np.ones(OBS_SIZE, np.float32)
    for name in ("hand", "pending", "counts", "draw_pile", "discard_pile"):
        high[OBS[name]] = L.MAX_DECK
    high[OBS["places"]] = L.MAX_PLAYERS
    low[OBS["direction"]] = -1
    high[OBS["turn"]] = turn_cap
    return low, high
