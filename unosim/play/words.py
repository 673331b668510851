"""The table in words and colours: cards, moves and public events as Rich text, for
the screen of ``unosim play`` (plain functions, so the controller and the tests need
no Textual)."""

from __future__ import annotations

from rich.text import Text

from unosim.strategies.python import Event

STYLES = {"r": "bold red", "y": "bold yellow", "g": "bold green", "b": "bold blue"}
COLOUR_STYLES = {"red": "bold red", "yellow": "bold yellow", "green": "bold green",
                 "blue": "bold blue"}
WILD_STYLE = "bold magenta"


def seat_name(seat: int) -> str:
    return "you" if seat == 0 else f"seat {seat}"


def card(name: str) -> Text:
    """A card in its colour (a wild in magenta)."""
    return Text(name, style=WILD_STYLE if name.startswith("wild") else STYLES.get(name[:1], ""))


def hand(cards: tuple[str, ...]) -> Text:
    """The hand as the engine orders it: red, yellow, green, blue, then wilds."""
    return Text(" ").join(card(c) for c in cards) if cards else Text("(no cards)")


def move(text: str, phase: str, pending: int) -> Text:
    """A legal move said plainly, with the engine's text after it."""
    head, _, tail = text.partition(":")
    if head in ("draw", "pass", "take", "challenge", "accept", "colour", "target", "give"):
        words = {
            "draw": "draw a card",
            "pass": "let it pass, no jump-in" if phase == "jump" else "keep the drawn card",
            "take": f"take the {pending} cards" if pending else "take it",
            "challenge": "challenge the Wild Draw Four",
            "accept": "accept",
        }
        if head == "colour":
            out = Text("name ") + Text(tail, style=COLOUR_STYLES.get(tail, ""))
        elif head == "target":
            out = Text(f"choose {seat_name(int(tail))}")
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
    return out + Text(f"  [{text}]", style="dim")


def event(e: Event) -> Text:
    """One public event in a line."""
    who = seat_name(e.seat)
    other = seat_name(e.other) if e.other >= 0 else ""
    if e.kind == "play":
        how = "" if e.how in ("turn", "") else f" ({e.how})"
        return Text(f"{who} played ") + card(e.card or "") + Text(how)
    if e.kind == "draw":
        why = "" if e.how == "turn" else f" ({e.how})"
        return Text(f"{who} drew {e.count} card{'s' if e.count != 1 else ''}{why}")
    if e.kind == "flip":
        return Text("turned up ") + card(e.card or "")
    if e.kind == "deal":
        return Text(f"dealt to {e.count} players")
    if e.kind == "keep":
        return Text(f"{who} kept the drawn card")
    if e.kind == "challenge":
        return Text(f"{who} challenged {other}: {e.how}")
    if e.kind == "uno":
        said = {"called": "called UNO", "forgot": "forgot to call UNO",
                "caught": "was caught without calling UNO"}
        return Text(f"{who} {said.get(e.how, e.how)}")
    if e.kind == "swap":
        if e.how == "declined":
            return Text(f"{who} swapped with nobody")
        return Text(f"{who} swapped with {other} ({e.how})")
    if e.kind == "rotate":
        return Text("every hand passed on")
    if e.kind == "colour":
        return Text(f"{who} named ") + Text(e.how, style=COLOUR_STYLES.get(e.how, ""))
    if e.kind == "takeback":
        return Text(f"{who} took back the wild4")
    if e.kind == "out":
        return Text(f"{who} went out (place {e.count})")
    if e.kind == "reshuffle":
        return Text(f"the discards were shuffled into the draw pile ({e.count})")
    return Text(f"{who} {e.kind}")
