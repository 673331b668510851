"""The table in words and colours: cards, moves and public events as Rich text, for
the screen of ``unosim play`` (plain functions, so the controller and the tests need
no Textual). Counts go through ``plural`` ("1 card", "2 cards") and a verb after
"you" agrees with it ("you were caught")."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from unosim.strategies.python import Event

#: the card colours as true colours: a terminal's own "blue" is drawn violet by many
#: themes (Textual's among them), far from a blue card
STYLES = {"r": "bold #ff4a3d", "y": "bold #ffd21f", "g": "bold #2fbf4f", "b": "bold #2f7bff"}
COLOUR_STYLES = {"red": STYLES["r"], "yellow": STYLES["y"], "green": STYLES["g"],
                 "blue": STYLES["b"]}
WILD_STYLE = "bold #e056fd"


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and the noun, singular for 1: "1 card", "2 cards"."""
    return f"{n} {noun if n == 1 else (nouns or noun + 's')}"


def seat_name(seat: int) -> str:
    return "you" if seat == 0 else f"seat {seat}"


def _was(who: str) -> str:
    return "were" if who == "you" else "was"


def card(name: str) -> Text:
    """A card in its colour (a wild in magenta)."""
    wild = name.startswith(("wild", "swap", "downpour"))
    return Text(name, style=WILD_STYLE if wild else STYLES.get(name[:1], ""))


def hand(cards: tuple[str, ...]) -> Text:
    """The hand as the engine orders it: red, yellow, green, blue, then wilds."""
    return Text(" ").join(card(c) for c in cards) if cards else Text("(no cards)")


def trades(top: str) -> bool:
    """Whether a target chosen with ``top`` on the pile starts a trade of one card
    (a 5, under swap_on_five) rather than a swap of whole hands (a 7 under Seven-O,
    the Swap Hands card)."""
    return top[1:] == "5"


def move(text: str, phase: str, pending: int, top: str = "", engine: bool = True) -> Text:
    """A legal move said plainly, with the engine's text after it (unless not
    ``engine``). ``top`` is the card on the pile, which says what a chosen seat is
    for (``trades``)."""
    head, _, tail = text.partition(":")
    if head in ("draw", "pass", "take", "challenge", "accept", "colour", "target", "give"):
        words = {
            "draw": "draw a card",
            "pass": {"jump": "let it pass, no jump-in",
                     "target": "trade with nobody"}.get(phase, "keep the drawn card"),
            "take": f"take the {plural(pending, 'card')}" if pending else "take it",
            "challenge": "challenge the Wild Draw Four",
            "accept": "accept",
        }
        if head == "colour":
            out = Text("name ") + Text(tail, style=COLOUR_STYLES.get(tail, ""))
        elif head == "target":
            out = Text(f"trade a card with {seat_name(int(tail))}" if trades(top)
                       else f"swap hands with {seat_name(int(tail))}")
        elif head == "give":
            out = Text("give ") + card(tail)
        else:
            out = Text(words[head])
    else:
        verb = {"jump": "jump in with ", "drawn": "play the drawn ",
                "penalty": "answer with "}.get(phase, "play ")
        out = Text(verb) + card(head)
        if tail:
            out += Text(", name ") + Text(tail, style=COLOUR_STYLES.get(tail, ""))
    return out + Text(f"  [{text}]", style="dim") if engine else out


def event(e: Event) -> Text:
    """One public event in a line."""
    who = seat_name(e.seat)
    other = seat_name(e.other) if e.other >= 0 else ""
    if e.kind == "play":
        how = "" if e.how in ("turn", "") else f" ({e.how})"
        return Text(f"{who} played ") + card(e.card or "") + Text(how)
    if e.kind == "draw":
        why = "" if e.how in ("turn", "") else f" ({e.how})"
        return Text(f"{who} drew {plural(e.count, 'card')}{why}")
    if e.kind == "got":  # private: only the person's own cards come here
        how = " in the trade" if e.how == "trade" else ""
        return Text(f"{who} got ") + card(e.card or "") + Text(how)
    if e.kind == "flip":
        return Text("turned up ") + card(e.card or "")
    if e.kind == "deal":
        return Text(f"dealt to {plural(e.count, 'player')}")
    if e.kind == "keep":
        return Text(f"{who} kept the drawn card")
    if e.kind == "challenge":
        return Text(f"{who} challenged {other}: {e.how}")
    if e.kind == "uno":
        said = {"called": "called UNO", "forgot": "forgot to call UNO",
                "caught": f"{_was(who)} caught without calling UNO"}
        return Text(f"{who} {said.get(e.how, e.how)}")
    if e.kind == "swap":
        if e.how == "declined":  # only a trade on a 5 may be declined
            return Text(f"{who} traded with nobody")
        if e.how == "five":
            return Text(f"{who} chose {other} to trade a card with (a 5)")
        card_of = {"seven": "a 7", "swap-hands": "Swap Hands"}.get(e.how, e.how)
        return Text(f"{who} swapped hands with {other} ({card_of})")
    if e.kind == "rotate":
        return Text("every hand passed to the next seat in the direction of play (a 0)")
    if e.kind == "colour":
        return Text(f"{who} named ") + Text(e.how, style=COLOUR_STYLES.get(e.how, ""))
    if e.kind == "takeback":
        return Text(f"{who} took back the wild4")
    if e.kind == "out":
        return Text(f"{who} went out (place {e.count})")
    if e.kind == "reshuffle":
        return Text(f"the discards were shuffled into the draw pile "
                    f"({plural(e.count, 'card')})")
    return Text(f"{who} {e.kind}")


def rules_line(rules: Any) -> str:
    """The rules in play, as the replay names them: the official rules, and every
    value that differs from them."""
    changed = rules.changed()
    if not changed:
        return "rules: official"
    return "rules changed from official: " + ", ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in changed.items())
