"""The move encoding and the names of phases and moves.

A play is the card type put down, and a wild's play also names a colour: the
encoding is written only here (``with_colour``, ``type_of``, ``named_colour``,
plain compiled helpers that kernels inline and Python calls alike). The names are
the text a person reads and types (``replay``, ``Game``, error messages) for the
integer moves of the step contract; the codes themselves are in layout.py."""

from __future__ import annotations

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.simulate.cards import COLOURS, TYPE_SLOTS, WILD, card_name, parse_card
from unosim.simulate.jit import kernel_inline


@kernel_inline
def with_colour(t, c):
    """The move that plays card type ``t``, naming colour ``c`` (0..3) if it is a
    wild; a coloured card names its own colour and is played as ``t``."""
    return t + TYPE_SLOTS * c if t >= WILD else t


@kernel_inline
def type_of(move):
    """The card type a play (0 <= move < MV_PLAY_END) puts down."""
    return move % TYPE_SLOTS


@kernel_inline
def named_colour(move):
    """The colour a play names (0 for a coloured card, which names none)."""
    return move // TYPE_SLOTS


@kernel_inline
def is_play(move):
    """A well-formed play: in the play range, and a coloured card names no colour."""
    return 0 <= move < L.MV_PLAY_END and (named_colour(move) == 0 or type_of(move) >= WILD)


@kernel_inline
def is_wild_play(move):
    """A play of a wild (which then names a colour)."""
    return 0 <= move < L.MV_PLAY_END and type_of(move) >= WILD


PHASES = {
    L.PH_TURN: "turn",
    L.PH_DRAWN: "drawn",
    L.PH_CHALLENGE: "challenge",
    L.PH_PENALTY: "penalty",
    L.PH_COLOUR: "colour",
    L.PH_SKIP: "skip",
    L.PH_JUMP: "jump",
    L.PH_TARGET: "target",
    L.PH_GIVE: "give",
    L.PH_OVER: "over",
}
_SPECIAL = {
    "draw": L.MV_DRAW,
    "pass": L.MV_PASS,
    "take": L.MV_TAKE,
    "challenge": L.MV_CHALLENGE,
    "accept": L.MV_ACCEPT,
}


def move_name(m: int) -> str:
    for name, v in _SPECIAL.items():
        if m == v:
            return name
    if L.MV_COLOUR <= m < L.MV_COLOUR + 4:
        return "colour:" + COLOURS[m - L.MV_COLOUR]
    if L.MV_TARGET <= m < L.MV_TARGET + L.MAX_PLAYERS:
        return f"target:{m - L.MV_TARGET}"
    if L.MV_GIVE <= m < L.MV_GIVE + TYPE_SLOTS:
        return "give:" + card_name(m - L.MV_GIVE)
    t, c = type_of(m), named_colour(m)
    return card_name(t) + (":" + COLOURS[c] if t >= WILD else "")


def parse_move(text: str) -> int:
    s = text.strip().lower()
    if s in _SPECIAL:
        return _SPECIAL[s]
    head, _, colour = s.partition(":")
    if head in ("colour", "color"):
        return L.MV_COLOUR + COLOURS.index(colour)
    if head == "target":
        return L.MV_TARGET + int(colour)
    if head == "give":
        return L.MV_GIVE + parse_card(colour)
    t = parse_card(head)
    if t >= WILD:
        if colour not in COLOURS:
            raise UnosimError(f"move {text!r}: a wild needs a colour, e.g. {head}:red")
        return with_colour(t, COLOURS.index(colour))
    if colour:
        raise UnosimError(f"move {text!r}: only a wild names a colour")
    return t
