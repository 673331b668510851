"""The action layout every unosim environment shares: one fixed ``Discrete`` range that
covers every decision the rules can create, and its mapping to the engine's moves.

==========  =======  =============================================================
name        actions  meaning
==========  =======  =============================================================
card        0-51     play a coloured card, by type (red 0-9, skip, reverse, draw2,
                     then yellow, green, blue): on a turn, the card just drawn,
                     a stacked penalty card, a deflected Skip, or a jump-in
wild        52-75    play a wild type naming a colour: 52 + 4 * (type - 52) + colour
                     (wild, wild4, swap, blank, downpour1, downpour2)
draw        76       draw on a turn
pass        77       keep the card just drawn, or decline a jump-in or a trade
take        78       take a pending penalty
challenge   79       challenge a Wild Draw Four
accept      80       accept a Wild Draw Four or a Skip
colour      81-84    name the colour of a first flipped Wild
target      85-94    the seat to swap hands or trade with, counted from the actor
                     in seat order: 85 + (seat - actor) mod players
give        95-152   the card type given in a trade on a 5
==========  =======  =============================================================

The UNO call is no action: the engine calls UNO for every seat, and the rule values
``uno_forget_prob`` / ``uno_catch_prob`` decide whether a call is forgotten and
caught, so no seat ever has a choice to make there.
"""

from __future__ import annotations

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate.cards import N_TYPES, TYPE_SLOTS, WILD
from unosim.simulate.moves import with_colour

N_WILDS = N_TYPES - WILD
CARD = 0
WILD_PLAY = WILD
DRAW = WILD_PLAY + 4 * N_WILDS
PASS = DRAW + 1
TAKE = DRAW + 2
CHALLENGE = DRAW + 3
ACCEPT = DRAW + 4
COLOUR = DRAW + 5
TARGET = COLOUR + 4
GIVE = TARGET + L.MAX_PLAYERS
N_ACTIONS = GIVE + N_TYPES

#: name -> (first action, count), in order
LAYOUT = {"card": (CARD, WILD), "wild": (WILD_PLAY, 4 * N_WILDS), "draw": (DRAW, 1),
          "pass": (PASS, 1), "take": (TAKE, 1), "challenge": (CHALLENGE, 1),
          "accept": (ACCEPT, 1), "colour": (COLOUR, 4), "target": (TARGET, L.MAX_PLAYERS),
          "give": (GIVE, N_TYPES)}

_SPECIAL = {L.MV_DRAW: DRAW, L.MV_PASS: PASS, L.MV_TAKE: TAKE,
            L.MV_CHALLENGE: CHALLENGE, L.MV_ACCEPT: ACCEPT}
_SPECIAL_BACK = {a: m for m, a in _SPECIAL.items()}


def to_move(action: int, actor: int, players: int) -> int:
    """The engine's move code for ``action`` taken by seat ``actor``; -1 if none."""
    a = int(action)
    if 0 <= a < WILD:
        return a
    if a < DRAW:
        t, c = divmod(a - WILD_PLAY, 4)
        return int(with_colour(WILD + t, c))
    if a in _SPECIAL_BACK:
        return _SPECIAL_BACK[a]
    if COLOUR <= a < TARGET:
        return L.MV_COLOUR + a - COLOUR
    if TARGET <= a < GIVE:
        k = a - TARGET
        return L.MV_TARGET + (actor + k) % players if k < players else -1
    if GIVE <= a < N_ACTIONS:
        return L.MV_GIVE + a - GIVE
    return -1


def to_action(move: int, actor: int, players: int) -> int:
    """The action of one engine move (a wild play: with the colour it names)."""
    m = int(move)
    if 0 <= m < L.MV_PLAY_END:
        t, c = m % TYPE_SLOTS, m // TYPE_SLOTS
        return t if t < WILD else WILD_PLAY + 4 * (t - WILD) + c
    if m in _SPECIAL:
        return _SPECIAL[m]
    if L.MV_COLOUR <= m < L.MV_COLOUR + 4:
        return COLOUR + m - L.MV_COLOUR
    if L.MV_TARGET <= m < L.MV_TARGET + L.MAX_PLAYERS:
        return TARGET + (m - L.MV_TARGET - actor) % players
    return GIVE + m - L.MV_GIVE


def fill_mask(mask: np.ndarray, moves: np.ndarray, actor: int, players: int) -> np.ndarray:
    """Set ``mask`` (int8[N_ACTIONS]) to the legal ``moves`` of ``legal_moves``, where a
    wild listed as its bare type is legal with each colour."""
    mask[:] = 0
    for m in moves.tolist():
        if WILD <= m < TYPE_SLOTS:
            a = WILD_PLAY + 4 * (m - WILD)
            mask[a:a + 4] = 1
        else:
            mask[to_action(m, actor, players)] = 1
    return mask
