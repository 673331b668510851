"""The observation layout every unosim environment shares: one flat float32 vector of
what the seat knows, read from the same public fields a strategy's ``View`` reads
(its own hand, the table, every seat's card count and place) and nothing else.

Seats are counted from the observer in seat order: index 0 is the observer, 1 the
next seat number, and so on; slots past the player count stay 0.

==============  ====  ==========================================================
name            size  meaning
==============  ====  ==========================================================
hand            58    cards of each type in the observer's hand
top             58    the top card of the discard pile (one-hot)
colour          4     the colour to follow (one-hot: red, yellow, green, blue)
phase           10    the decision pending (one-hot: turn, drawn, challenge,
                      penalty, colour, skip, jump, target, give, over)
drawn           58    the card just drawn, while keeping or playing it (one-hot)
direction       1     +1 seat numbers rising, -1 the other way
pending         1     penalty cards waiting for the next victim
counts          10    every seat's number of cards
playing         10    1 for a seat still playing
places          10    finishing place under elimination (0 while playing)
draw_pile       1     cards in the draw pile
discard_pile    1     cards in the discard pile
turn            1     turns played this round
target_kind     3     what a target or trade choice is for (one-hot: five, seven,
                      swap)
==============  ====  ==========================================================
"""

from __future__ import annotations

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate.cards import N_TYPES

_SIZES = (("hand", N_TYPES), ("top", N_TYPES), ("colour", 4), ("phase", L.PH_OVER + 1),
          ("drawn", N_TYPES), ("direction", 1), ("pending", 1),
          ("counts", L.MAX_PLAYERS), ("playing", L.MAX_PLAYERS), ("places", L.MAX_PLAYERS),
          ("draw_pile", 1), ("discard_pile", 1), ("turn", 1),
          ("target_kind", len(L.TargetKind)))


def _slices() -> dict[str, slice]:
    out, at = {}, 0
    for name, size in _SIZES:
        out[name] = slice(at, at + size)
        at += size
    return out


#: name -> where it lies in the observation
OBS = _slices()
OBS_SIZE = OBS["target_kind"].stop
_TARGET_KINDS = tuple(L.TargetKind)


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


def encode(G: np.ndarray, seat: int, out: np.ndarray | None = None) -> np.ndarray:
    """Seat ``seat``'s observation of the game ``G``: public fields and its own hand."""
    o = np.zeros(OBS_SIZE, np.float32) if out is None else out
    o[:] = 0
    n = int(G[L.R_PLAYERS])
    base = L.OFF_H + seat * L.HW
    o[OBS["hand"]] = G[base:base + N_TYPES]
    o[OBS["top"].start + int(G[L.S_TOP])] = 1
    o[OBS["colour"].start + int(G[L.S_COLOUR])] = 1
    phase = int(G[L.S_PHASE])
    o[OBS["phase"].start + phase] = 1
    if phase == L.PH_DRAWN and int(G[L.S_ACTOR]) == seat:
        o[OBS["drawn"].start + int(G[L.S_DRAWN])] = 1
    o[OBS["direction"].start] = G[L.S_DIR]
    o[OBS["pending"].start] = G[L.S_PENDING]
    seats = (np.arange(n) + seat) % n
    rows = L.OFF_H + seats * L.HW
    sizes = G[rows + L.HC_SIZE]
    places = G[rows + L.HC_PLACE]
    o[OBS["counts"].start:OBS["counts"].start + n] = sizes
    o[OBS["playing"].start:OBS["playing"].start + n] = places == 0
    o[OBS["places"].start:OBS["places"].start + n] = places
    o[OBS["draw_pile"].start] = G[L.S_DRAW_LEN]
    o[OBS["discard_pile"].start] = G[L.S_DISC_LEN]
    o[OBS["turn"].start] = G[L.S_TURNS]
    if phase in (L.PH_TARGET, L.PH_GIVE):
        kind = int(G[L.S_TARGET_KIND])
        if kind in _TARGET_KINDS:
            o[OBS["target_kind"].start + _TARGET_KINDS.index(kind)] = 1
    return o
