"""The person's decisions of a round, each with the exact state it was taken in:
what the review re-runs the search at, and what undo (training mode) restores."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate.moves import PHASES


@dataclass(frozen=True, eq=False)
class Decision:
    """One decision of the person: the game's arrays just before it, how many
    public events the round's log held then, the legal moves and the one played
    (engine texts), and the person's engine seat (in a match it moves as the deal
    passes; the screen shows the person as seat 0)."""

    index: int  # counted from 0 in the round
    G: np.ndarray
    RNG: np.ndarray
    events: int
    legal: tuple[str, ...]
    move: str
    me: int = 0

    @property
    def turn(self) -> int:
        """The turn of the round it was taken in, counted from 1."""
        return int(self.G[L.S_TURNS]) + 1

    @property
    def phase(self) -> str:
        return PHASES[int(self.G[L.S_PHASE])]
