"""Strategy names, descriptions and parameters, mapped to compiled ids.

A seat's strategy is written ``NAME`` or ``NAME:key=value,...`` with keys
``bluff`` (chance to bluff a Wild Draw Four when it would be illegal),
``challenge`` (chance to challenge a Wild Draw Four) and ``forget`` (chance to
forget calling UNO; defaults to the table's ``uno_forget_prob``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.simulate.rng_nb import probability_threshold
from unosim.strategies import builtin_nb as B

BUILTINS: dict[str, tuple[int, str]] = {
    "random": (
        B.RANDOM,
        "The reference baseline of RULES.md section 10: plays a uniformly random playable "
        "card (each physical card counted once), never bluffs or challenges, draws only "
        "without a play and plays a playable drawn card, stacks whenever it can, and names "
        "the colour it holds most of (ties at random).",
    ),
    "first": (
        B.FIRST,
        "Deterministic: plays the first legal card in hand order (red, yellow, green, blue; "
        "0-9, Skip, Reverse, Draw Two, then wilds) and names the lowest colour it holds most "
        "of. Useful as a fixed opponent and for golden traces.",
    ),
    "defensive": (
        B.DEFENSIVE,
        "Dumps high-value cards first: plays the legal card worth the most points (wilds 50, "
        "action cards 20, numbers face value), ties at random, to cut what an opponent can "
        "score.",
    ),
    "offensive": (
        B.OFFENSIVE,
        "Holds Wilds and Wild Draw Fours for the end: plays a random coloured card when it "
        "has one and a wild only when nothing else is playable.",
    ),
}

_PARAMS = {"bluff": L.SF_BLUFF, "challenge": L.SF_CHALLENGE, "forget": L.SF_UNO_FORGET}


@dataclass(frozen=True)
class SeatStrategy:
    """A strategy as given on the command line, parsed and checked."""

    name: str
    params: dict[str, float] = field(default_factory=dict)

    @property
    def sid(self) -> int:
        return BUILTINS[self.name][0]

    def label(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v:g}" for k, v in sorted(self.params.items()))


def parse_strategy(text: str) -> SeatStrategy:
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    if name not in BUILTINS:
        raise UnosimError(f"unknown strategy {name!r}; known: {', '.join(BUILTINS)}")
    params: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if not eq or key not in _PARAMS:
            raise UnosimError(
                f"strategy {name}: bad parameter {part!r} (use {', '.join(_PARAMS)}=0..1)"
            )
        try:
            v = float(raw)
        except ValueError:
            raise UnosimError(f"strategy {name}: {key} must be a number, got {raw!r}") from None
        if not 0.0 <= v <= 1.0:
            raise UnosimError(f"strategy {name}: {key} must be within 0..1, got {raw}")
        params[key] = v
    return SeatStrategy(name, params)


def seat_template(template: np.ndarray, seats: list[SeatStrategy], uno_forget_prob: float
                  ) -> np.ndarray:
    """A copy of the game array ``template`` with each seat's strategy id and
    parameters (as probability thresholds) filled in."""
    G = template.copy()
    for p in range(L.MAX_PLAYERS):
        s = seats[p] if p < len(seats) else None
        G[L.OFF_STRAT + p] = s.sid if s else 0
        params = {"forget": uno_forget_prob, **(s.params if s else {})}
        for key, slot in _PARAMS.items():
            G[L.OFF_SEATF + p * L.N_SEATF + slot] = probability_threshold(params.get(key, 0.0))
    return G
