"""What the hints and the review look like: a hint's figure beside each move, and
the review's table on a screen of its own (Textual)."""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from unosim.play import words
from unosim.play.hints import Figure, Hint
from unosim.play.history import Decision
from unosim.play.review import Row, worst
from unosim.play.table import turned_move
from unosim.simulate import layout as L
from unosim.simulate.cards import card_name

BEST_STYLE = "bold green"
WORST_STYLE = "bold red"


def percent(x: float) -> str:
    return f"{100 * x:.0f}%"


def figure(f: Figure, placing: bool = False) -> str:
    """A figure in words: the estimate, its 95% interval and the rollouts."""
    if not f.searched:
        return "not searched"
    lo, hi = f.interval()
    what = "ahead of" if placing else "win"
    return f"{what} {percent(f.estimate)} ({percent(lo)}-{percent(hi)}, {f.rollouts} rollouts)"


def hint_text(h: Hint, move: str) -> Text:
    """What a hint puts after a move of the list."""
    f = h.of(move)
    if move == h.best:
        return Text("   ★ " + figure(f, h.placing), style=BEST_STYLE)
    return Text("   " + figure(f, h.placing), style="" if f.searched else "dim")


def estimate(f: Figure) -> Text:
    if not f.searched:
        return Text("-")
    lo, hi = f.interval()
    return Text(f"{percent(f.estimate)} ({percent(lo)}-{percent(hi)})"
                + ("*" if f.alone else ""))


def shown(move: str, d: Decision) -> Text:
    """A move of decision ``d`` as the table showed it: a target seat counted from
    the person's (in a match the person's engine seat moves as the deal passes)."""
    return words.move(turned_move(move, d.me, int(d.G[L.R_PLAYERS])), d.phase,
                      int(d.G[L.S_PENDING]), card_name(int(d.G[L.S_TOP])))


def review_table(rows: list[Row]) -> RichTable:
    """One line per decision; the costliest (at most three) in red."""
    bad = worst(rows)
    out = RichTable(title="Your decisions beside the search's", expand=True)
    for head in ("turn", "decision", "you played", "estimate", "search's choice",
                 "estimate", "cost"):
        out.add_column(head, justify="right" if head in ("turn", "cost") else "left")
    for i, r in enumerate(rows):
        d = r.decision
        cost = Text(f"{100 * r.cost:+.1f} pts" if r.cost else "0")
        out.add_row(str(d.turn), d.phase, shown(r.made.move, d),
                    estimate(r.made), shown(r.best.move, d), estimate(r.best),
                    cost, style=WORST_STYLE if i in bad else "")
    return out


NOTES = ("estimate: the search's chance to win the round from that decision with that "
         "move (95% interval); cost: the search's choice's estimate less yours, in "
         "percentage points; red: the three costliest; *: a move the search does not "
         "consider, scored on its own")


class ReviewScreen(ModalScreen[None]):
    """The review of the round just played; Escape or r goes back to the table."""

    BINDINGS = [Binding("escape,r", "dismiss", "Back to the table")]

    def __init__(self, rows: list[Row]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(review_table(self.rows), id="review")
            yield Static(Text(NOTES, style="dim"))
        yield Footer()
