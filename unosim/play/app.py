"""The Textual app of ``unosim play``: it draws the :class:`~unosim.play.table.Table`
and passes the person's key presses to it; every rule lives in the engine, every
decision in the table.

Keys: a digit picks the move of that number (with ten or more moves, a first digit
that could start a longer number waits for the next one, or Enter), the arrows and
Enter pick from the list (so does a click on a move: the list is an OptionList,
which selects the option clicked), ``n`` deals the next round once a round is over, ``q``
quits; ``h`` turns the hints on or off, ``r`` opens the review of a round played,
``u`` takes the last decision back in training mode (coaching.py draws these); with
``--call-uno``, ``c`` (or ``!``) calls UNO with the next move."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, OptionList, Static

from unosim.errors import UnosimError
from unosim.play import coaching, words
from unosim.play.review import review
from unosim.play.table import HUMAN, Table

LOG_LINES = 14


class PlayApp(App):
    """One table; the person sits in seat 0."""

    TITLE = "unosim play"
    CSS = """
    #left { width: 2fr; }
    #log { width: 1fr; border: round $secondary; padding: 0 1; }
    #table, #hand, #result { border: round $primary; padding: 0 1; height: auto; }
    #moves { height: 1fr; }
    """
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("n", "deal", "Deal again"),
        Binding("h", "hints", "Hints"),
        Binding("u", "undo", "Undo"),
        Binding("r", "review", "Review"),
        Binding("c", "call", "Call UNO!"),
        Binding("exclamation_mark", "call", "Call UNO!", show=False),
        *(Binding(str(d), f"digit({d})", show=False) for d in range(10)),
    ]

    def __init__(self, table: Table, labels: list[str], title: str = "",
                 training: bool = False, saved_to: str = "") -> None:
        super().__init__()
        self.table = table
        self.labels = labels
        self.sub_title = title
        self.typed = ""
        #: whether ``u`` takes decisions back
        self.training = training
        self.hints_on = False
        #: the file each round is saved in as it ends ("": not saved)
        self.saved_to = saved_to

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="left"):
                yield Static(id="table")
                yield Static(id="hand")
                yield OptionList(id="moves")
                yield Static(id="result")
            yield Static(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.show()
        self.query_one("#moves", OptionList).focus()

    # ------------------------------------------------------------ drawing
    def show(self) -> None:
        seen = self.table.seen()
        t = self.table
        head = Text(f"round {t.round + 1} · seed {t.seed} · top ") + words.card(seen.top)
        head += Text(" · colour ") + Text(seen.colour,
                                          style=words.COLOUR_STYLES.get(seen.colour, ""))
        head += Text(" · " + ("clockwise" if seen.direction > 0 else "counter-clockwise"))
        if seen.pending:
            head += Text(f" · {seen.pending} cards pending", style="bold")
        if t.sitting.match:
            from unosim.play.match import target_of

            head += Text(f" · match: {target_of(t.rules)}")
        seats = Text()
        for p, n in enumerate(seen.counts):
            mark = "▶ " if p == seen.actor and not t.over else "  "
            who = "you" if p == HUMAN else f"{words.seat_name(p)} ({self.labels[p]})"
            score = f" · score {seen.scores[p]}" if seen.scores else ""
            seats.append(f"\n{mark}{who}: {n} card{'s' if n != 1 else ''}{score}",
                         style="bold" if p == HUMAN else "")
        self.query_one("#table", Static).update(head + seats)
        hand = Text("your hand: ") + words.hand(seen.hand)
        if seen.drawn:
            hand += Text("   drawn: ") + words.card(seen.drawn)
        self.query_one("#hand", Static).update(hand)
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        hint = self.table.hint() if self.hints_on and seen.legal else None
        # the hint names the engine's moves; the screen's are in the same order (a
        # target turned, in a match)
        mine = self.table.legal() if hint else seen.legal
        moves.add_options([Text(f"{i}. ") + words.move(m, seen.phase, seen.pending)
                           + (coaching.hint_text(hint, e) if hint else Text())
                           for i, (m, e) in enumerate(zip(seen.legal, mine, strict=True), 1)])
        if seen.legal:
            moves.highlighted = 0
        self.query_one("#result", Static).update(self.result_text())
        log = Text()
        log.append("last moves", style="underline")
        for e in seen.events[-LOG_LINES:]:
            log += Text("\n") + words.event(e)
        self.query_one("#log", Static).update(log)
        self.refresh_bindings()  # the footer's undo and review come and go

    def result_text(self) -> Text:
        r = self.table.result()
        if r is None:
            seen = self.table.seen()
            out = Text(f"your decision ({seen.phase}): press its number, or the arrows "
                       "and Enter")
            if self.table.calling:
                out += Text("\nUNO! called: it goes with the move you play now",
                            style="bold")
            elif self.table.call_uno:
                out += Text("\nc: call UNO with this move")
            return out
        if r.winner < 0:
            line = f"round stopped at the turn cap after {r.turns} turns: nobody wins"
        elif r.winner == HUMAN:
            line = f"you win {r.points} points after {r.turns} turns"
        else:
            line = f"{words.seat_name(r.winner)} wins {r.points} points after {r.turns} turns"
        return Text(line, style="bold") + self.after_round()

    def after_round(self) -> Text:
        """What follows a round: the match's state, where it was saved, the keys."""
        from unosim.play.match import match_line

        out = Text()
        if self.table.sitting.match:
            out += Text("\n" + match_line(self.table), style="bold")
        if self.saved_to:
            out += Text(f"\nsaved in {self.saved_to}: unosim replay {self.saved_to} "
                        f"--game {self.table.round}")
        keys = [] if self.table.match_over else ["n: deal again"]
        keys.append("r: review")
        if self.training and self.table.can_undo:
            keys.append("u: undo")
        return out + Text("\n" + " · ".join([*keys, "q: quit"]))

    # ------------------------------------------------------------ keys
    def play(self, index: int) -> None:
        self.typed = ""
        if self.table.over or not 0 <= index < len(self.table.legal()):
            return
        self.step(lambda: self.table.pick(index))

    def step(self, act: Callable[[], object]) -> None:
        """Do ``act`` and redraw; an opponent's failure (a plug-in that raises, say)
        closes the app with its one line, which the command prints."""
        try:
            act()
        except UnosimError as e:
            self.exit(str(e), return_code=2)
            return
        self.show()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        self.play(message.option_index)

    def action_digit(self, d: int) -> None:
        """Pick move number ``typed + d`` now, or wait when a longer number could follow."""
        n = len(self.table.legal())
        number = int(self.typed + str(d))
        if not 1 <= number <= n:
            self.typed = ""
            self.bell()
            return
        if number * 10 <= n:
            self.typed = str(number)
            self.query_one("#moves", OptionList).highlighted = number - 1
            return
        self.play(number - 1)

    def action_deal(self) -> None:
        if self.table.over and not self.table.match_over:
            self.step(self.table.deal)

    # ------------------------------------------------------------ coaching
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Undo exists in training mode only; the review once a round is over."""
        if action == "undo":
            return self.training
        if action == "review":
            return self.table.over
        if action == "call":
            return self.table.call_uno
        return True

    def action_call(self) -> None:
        """Call UNO with the move about to be played (--call-uno)."""
        if self.table.call():
            self.show()
        else:
            self.bell()

    def action_hints(self) -> None:
        """Show (or hide) the search's estimate beside each move, now and after."""
        self.hints_on = not self.hints_on
        self.show()

    def action_undo(self) -> None:
        if not self.training:
            return
        refused = self.table.undo_refused()
        if self.table.undo():
            self.show()
        elif self.table.decisions:
            self.notify(refused, severity="warning")
        else:
            self.bell()

    def action_review(self) -> None:
        """Re-run the search at each decision of the round, then show the review (a
        few seconds: the screen says so first)."""
        if not self.table.over:
            return
        if not self.table.decisions:
            self.notify("no decision of yours this round")
            return
        self.query_one("#result", Static).update(
            Text(f"reviewing your {len(self.table.decisions)} decisions..."))
        self.call_after_refresh(self._open_review)

    def _open_review(self) -> None:
        t = self.table
        rows = review(t.decisions, t.seed, t.round, t.hint_rollouts)
        self.query_one("#result", Static).update(self.result_text())
        self.push_screen(coaching.ReviewScreen(rows))
