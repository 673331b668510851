"""The action layout every unosim environment shares, declared once: one fixed
``Discrete`` range that covers every decision the rules can create. Its one mapping
to and from the engine's moves is compiled (encode_nb.py), which both environments
call; docs/reinforcement-learning.md shows the table to users.

The groups are laid end to end in the order declared below (name, count, meaning).
The UNO call is no action: the engine calls UNO for every seat, and the rule values
``uno_forget_prob`` / ``uno_catch_prob`` decide whether a call is forgotten and
caught, so no seat ever has a choice to make there.
"""

from __future__ import annotations

from unosim.simulate import layout as L
from unosim.simulate.cards import N_TYPES, WILD
from unosim.simulate.layout import Blocks

N_WILDS = N_TYPES - WILD

_ACTIONS = Blocks()
#: play a coloured card, by type (red 0-9, skip, reverse, draw2, then yellow, green,
#: blue): on a turn, the card just drawn, a stacked penalty card, a deflected Skip, or
#: a jump-in
CARD = _ACTIONS.add("card", WILD)
#: play a wild type naming a colour: WILD_PLAY + 4 * (type - WILD) + colour (wild,
#: wild4, swap, blank, downpour1, downpour2)
WILD_PLAY = _ACTIONS.add("wild", 4 * N_WILDS)
DRAW = _ACTIONS.add("draw", 1)  # draw on a turn
PASS = _ACTIONS.add("pass", 1)  # keep the card just drawn, or decline a jump-in or a trade
TAKE = _ACTIONS.add("take", 1)  # take a pending penalty
CHALLENGE = _ACTIONS.add("challenge", 1)  # challenge a Wild Draw Four
ACCEPT = _ACTIONS.add("accept", 1)  # accept a Wild Draw Four or a Skip
COLOUR = _ACTIONS.add("colour", 4)  # name the colour of a first flipped Wild
#: the seat to swap hands or trade with, counted from the actor in seat order:
#: TARGET + (seat - actor) mod players
TARGET = _ACTIONS.add("target", L.MAX_PLAYERS)
GIVE = _ACTIONS.add("give", N_TYPES)  # the card type given in a trade on a 5
N_ACTIONS = _ACTIONS.size

#: name -> (first action, count), in order
LAYOUT = {name: (at, size) for name, at, size in _ACTIONS.blocks}
