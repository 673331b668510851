"""Names of phases and moves: the text a person reads and types (``replay``, ``Game``,
error messages) for the integer moves of the step contract."""

from __future__ import annotations

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.simulate.cards import COLOURS, WILD, card_name, parse_card

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
    if L.MV_GIVE <= m < L.MV_GIVE + 64:
        return "give:" + card_name(m - L.MV_GIVE)
    t, c = m % 64, m // 64
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
        return t + 64 * COLOURS.index(colour)
    if colour:
        raise UnosimError(f"move {text!r}: only a wild names a colour")
    return t
