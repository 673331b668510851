"""Card types: ids, names, colours, ranks and point values.

A card *type* is an integer. Coloured cards are ``colour * 13 + rank`` with colours
red, yellow, green, blue (0..3) and ranks 0-9, Skip (10), Reverse (11), Draw Two
(12). Wild types follow from 52. Hands are kept as counts per type, so two red 5s
are one type with count 2: that is what makes a turn O(1) in the compiled engine.
"""

from __future__ import annotations

import numpy as np

COLOURS = ("red", "yellow", "green", "blue")
COLOUR_LETTERS = "rygb"
N_COLOURS = 4
N_RANKS = 13

RANK_SKIP = 10
RANK_REVERSE = 11
RANK_DRAW_TWO = 12

WILD = 52
WILD_DRAW_FOUR = 53
SWAP_HANDS = 54
BLANK = 55
DOWNPOUR_ONE = 56
DOWNPOUR_TWO = 57
N_TYPES = 58
TYPE_SLOTS = 64  # hand arrays are padded to 64 columns

NO_RANK = -1  # rank of a wild type


def colour_of(t: int) -> int:
    """Colour of a coloured type, -1 for wilds."""
    return t // N_RANKS if t < WILD else -1


def rank_of(t: int) -> int:
    return t % N_RANKS if t < WILD else NO_RANK


def _points_table() -> np.ndarray:
    pts = np.zeros(TYPE_SLOTS, dtype=np.int64)
    for t in range(WILD):
        r = t % N_RANKS
        pts[t] = r if r <= 9 else 20
    pts[WILD] = 50
    pts[WILD_DRAW_FOUR] = 50
    pts[SWAP_HANDS] = 40
    pts[BLANK] = 40
    pts[DOWNPOUR_ONE] = 50
    pts[DOWNPOUR_TWO] = 50
    return pts


POINTS = _points_table()
#: per type slot, the tables the engine reads (simulate/step_nb.py; each game array
#: carries a copy too, rules.card_tables): the colour (4 for every wild, whose count
#: a hand keeps in its wild column), the rank (-1 for a wild), and a coloured card's
#: 4-bit lane in its colour's packed word (layout.HC_NIBS; 0 for a wild)
COLOUR_TABLE = np.array([t // N_RANKS for t in range(TYPE_SLOTS)], np.int64)
RANK_TABLE = np.array([t % N_RANKS if t < WILD else NO_RANK for t in range(TYPE_SLOTS)],
                      np.int64)
RANK_NIB = np.array([1 << (4 * (t % N_RANKS)) if t < WILD else 0 for t in range(TYPE_SLOTS)],
                    np.int64)

_RANK_NAMES = [str(i) for i in range(10)] + ["skip", "reverse", "draw2"]
_WILD_NAMES = {
    WILD: "wild",
    WILD_DRAW_FOUR: "wild4",
    SWAP_HANDS: "swap",
    BLANK: "blank",
    DOWNPOUR_ONE: "downpour1",
    DOWNPOUR_TWO: "downpour2",
}


def card_name(t: int) -> str:
    """Short readable name: ``r5``, ``gskip``, ``bdraw2``, ``wild4``."""
    if t < WILD:
        return COLOUR_LETTERS[t // N_RANKS] + _RANK_NAMES[t % N_RANKS]
    return _WILD_NAMES[t]


def parse_card(name: str) -> int:
    """Inverse of :func:`card_name`."""
    name = name.strip().lower()
    for t, n in _WILD_NAMES.items():
        if name == n:
            return t
    if len(name) >= 2 and name[0] in COLOUR_LETTERS and name[1:] in _RANK_NAMES:
        return COLOUR_LETTERS.index(name[0]) * N_RANKS + _RANK_NAMES.index(name[1:])
    raise ValueError(f"unknown card {name!r}")


def deck_counts(
    zeros: int = 1,
    numbers: int = 2,
    skips: int = 2,
    reverses: int = 2,
    draw_twos: int = 2,
    wilds: int = 4,
    wild_draw_fours: int = 4,
    swap_hands: int = 0,
    blanks: int = 0,
) -> np.ndarray:
    """Copies of each type in a deck (per colour for coloured cards)."""
    counts = np.zeros(TYPE_SLOTS, dtype=np.int64)
    for c in range(N_COLOURS):
        base = c * N_RANKS
        counts[base] = zeros
        counts[base + 1 : base + 10] = numbers
        counts[base + RANK_SKIP] = skips
        counts[base + RANK_REVERSE] = reverses
        counts[base + RANK_DRAW_TWO] = draw_twos
    counts[WILD] = wilds
    counts[WILD_DRAW_FOUR] = wild_draw_fours
    counts[SWAP_HANDS] = swap_hands
    counts[BLANK] = blanks
    return counts


def deck_cards(counts: np.ndarray) -> np.ndarray:
    """One entry per physical card, in type order (what the engine deals from)."""
    return np.repeat(np.arange(counts.shape[0], dtype=np.int32), counts)
