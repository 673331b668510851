"""RLCard's UNO encoding, so that an agent built for RLCard's ``uno`` environment (and
the figures published for it) can be set against unosim's: two players, RLCard's
(4, 4, 15) observation planes and its 61 actions, with rule values as close to
RLCard's game as unosim's rule keys go.

Planes are indexed ``[plane, row, trait]``: rows are RLCard's colour order (red,
green, blue, yellow), traits 0-9, Skip, Reverse, Draw Two, Wild, Wild Draw Four.

=====  ================================================================
plane  meaning
=====  ================================================================
0      1 where the hand holds no card of this colour and trait
1      1 where it holds exactly one
2      1 where it holds two or more
3      the target: 1 at (the colour to follow, the top card's trait)
=====  ================================================================

A wild in the hand fills its trait column in every row (plane 1 only, whatever the
count), as RLCard writes it. Action ``15 * row + trait`` plays that card (a Wild or
Wild Draw Four naming the row's colour); action 60 draws.

The decisions RLCard's game does not have are taken for the learner, RLCard's way:
a card drawn on a turn is played at once if it is a wild (naming a colour drawn from
the game's generator) or of the colour to follow, and kept otherwise; a first
flipped Wild gets a colour from the game's generator; a Wild Draw Four is accepted,
never challenged.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
from gymnasium import spaces

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.simulate.cards import N_RANKS, SWAP_HANDS, WILD, WILD_DRAW_FOUR
from unosim.simulate.moves import is_wild_play, named_colour, type_of, with_colour
from unosim.simulate.rng_nb import rand_below
from unosim.simulate.rules import Rules, deck_counts_for

SHAPE = (4, 4, 15)
N_ACTIONS = 61
DRAW = 60
TRAITS = 15
#: unosim's colour (red, yellow, green, blue) -> RLCard's row (red, green, blue, yellow)
ROW = (0, 3, 1, 2)
COLOUR = tuple(ROW.index(r) for r in range(4))

#: rule values closest to RLCard's game, applied on top of the variant
RULES = MappingProxyType({
    "wd4_challenge": False,  # RLCard has no challenge
    "wd4_bluff": False,  # nor any illegal Wild Draw Four
    "voluntary_draw": False,  # it draws only when nothing can be played
    "two_player_reverse_skips": False,  # its Reverse heads up hands the turn over
})

#: rule values whose other settings ask for decisions the 61 actions cannot express
_NO_ACTION = {"stacking": "none", "reverse_deflect": False, "skip_deflect": False,
              "jump_in": False, "seven_o": False, "swap_on_five": False}

_STREAM = 1  # the generator stream strategies and table randomness draw from


def check_rules(rules: Rules) -> None:
    """Refuse, in one line, a table the rlcard encoding cannot play."""
    if int(rules["players"]) != 2:
        raise UnosimError(f"the rlcard encoding is for 2 players, as RLCard's UNO is, "
                          f"not {rules['players']}")
    for key, value in _NO_ACTION.items():
        if rules[key] != value:
            raise UnosimError(f"the rlcard encoding has no action for rule {key}="
                              f"{rules[key]!r}; it plays {key}={value!r}")
    if deck_counts_for(rules)[SWAP_HANDS:].any():
        raise UnosimError("the rlcard encoding has no action for the special wilds (Swap "
                          "Hands, blank, Downpour): play a deck without them")


def to_action(move: int) -> int:
    """RLCard's action for an engine move (a wild play: with its colour); -1 if none."""
    m = int(move)
    if 0 <= m < L.MV_PLAY_END:
        t, c = int(type_of(m)), int(named_colour(m))
        if t < WILD:
            return TRAITS * ROW[t // N_RANKS] + t % N_RANKS if c == 0 else -1
        if t <= WILD_DRAW_FOUR:
            return TRAITS * ROW[c] + N_RANKS + t - WILD
        return -1
    return DRAW if m == L.MV_DRAW else -1


def to_move(action: int) -> int:
    """The engine move of RLCard's ``action`` (0-60); -1 if none."""
    a = int(action)
    if a == DRAW:
        return L.MV_DRAW
    if not 0 <= a < DRAW:
        return -1
    row, trait = divmod(a, TRAITS)
    c = COLOUR[row]
    if trait < N_RANKS:
        return c * N_RANKS + trait
    return int(with_colour(WILD + trait - N_RANKS, c))


def fill_mask(mask: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """Set ``mask`` (int8[61]) to the legal ``moves``, a wild listed as its bare type
    being legal with each colour."""
    mask[:] = 0
    for m in moves.tolist():
        if is_wild_play(m) and named_colour(m) == 0:  # a bare wild: any colour
            for c in range(4):
                mask[to_action(with_colour(m, c))] = 1
            continue
        a = to_action(m)
        if a < 0:
            raise UnosimError(f"the rlcard encoding has no action for move {m}")
        mask[a] = 1
    return mask


_PLANE = 4 * TRAITS
#: the coloured card type at each (row, trait < 13) of a plane, and where it lies in it
_TYPES = np.array([COLOUR[row] * N_RANKS + r for row in range(4) for r in range(N_RANKS)])
_SPOTS = np.array([row * TRAITS + r for row in range(4) for r in range(N_RANKS)])
_COLUMN = np.arange(4) * TRAITS  # a trait's column, every row
_LEVEL = np.minimum(np.arange(L.MAX_DECK + 1), 2) * _PLANE  # a count's plane: 0, 1, 2+


def encode(G: np.ndarray, seat: int) -> np.ndarray:
    """Seat ``seat``'s (4, 4, 15) planes of game ``G``: its own hand and the target."""
    o = np.zeros(4 * _PLANE, np.int8)
    base = L.OFF_H + seat * L.HW
    o[_LEVEL[G[base + _TYPES]] + _SPOTS] = 1
    for trait, t in ((N_RANKS, WILD), (N_RANKS + 1, WILD_DRAW_FOUR)):
        o[(_PLANE if G[base + t] > 0 else 0) + trait + _COLUMN] = 1
    top = int(G[L.S_TOP])
    trait = top % N_RANKS if top < WILD else N_RANKS + top - WILD
    if trait < TRAITS:
        o[3 * _PLANE + ROW[int(G[L.S_COLOUR])] * TRAITS + trait] = 1
    return o.reshape(SHAPE)


def auto_move(G: np.ndarray, RNG: np.ndarray) -> int:
    """The move taken for the learner where RLCard's game has no decision; -1 where
    the learner decides (a turn)."""
    ph = int(G[L.S_PHASE])
    if ph == L.PH_DRAWN:
        t = int(G[L.S_DRAWN])
        if t >= WILD:
            return int(with_colour(t, rand_below(RNG, _STREAM, 4)))
        return t if t // N_RANKS == int(G[L.S_COLOUR]) else L.MV_PASS
    if ph == L.PH_COLOUR:
        return L.MV_COLOUR + int(rand_below(RNG, _STREAM, 4))
    if ph == L.PH_CHALLENGE:
        return L.MV_ACCEPT
    return -1


def observation_space(rules: Rules) -> spaces.Box:
    """The Box of one observation (the same for every table)."""
    return spaces.Box(0, 1, SHAPE, np.int8)
