"""The Textual app of ``unosim play``: it draws the :class:`~unosim.play.table.Table`
and passes the person's key presses to it; every rule lives in the engine, every
decision in the table.

Keys: a digit picks the move of that number (with ten or more moves, a first digit
that could start a longer number waits for the next one, or Enter, and the screen
says so; Escape forgets it), the arrows and Enter pick from the list (so does a
click on a move: the list is an OptionList, which selects the option clicked),
``n`` deals the next round once a round is over, ``q`` quits; ``h`` turns the hints
on or off, ``r`` opens the review of a round played, ``u`` takes the last decision
back in training mode (coaching.py draws these); with ``--call-uno``, ``c`` (or
``!``) calls UNO with the next move. The footer shows only the keys that do
something at the moment.

A decision with one legal move (taking the cards after accepting a Wild Draw Four,
drawing with nothing to play) is played for the person, and the screen says what
it played. Hints and the review run the search in a worker thread, started once the
screen says that the search is thinking, or compiling on its first use on the
machine: the screen stays live while it compiles (15 to 45 s), and freezes no longer
than the compiled search itself runs (it holds the interpreter).

A table opened before its first deal (``Table(..., deal=False)``, as the command
opens it) is drawn at once: when Numba's cache does not hold the engine it plays
with, the screen shows the compile notice, with the seconds so far, while a process
of its own compiles it (play/warmup.py), and deals by itself once it is cached; until
then only q does something (a move's key says that the round starts once the engine
is compiled), and quitting ends the compiling process.

Rounds are numbered from 0 on the screen, as the saved file and ``unosim replay
--game K`` number them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Footer, OptionList, Static

from unosim.compiler.compiling import listening
from unosim.errors import UnosimError
from unosim.play import coaching, hints, warmup, words
from unosim.play.review import review
from unosim.play.table import HUMAN, Table

#: the moves that are not a card played: a single one of them is played for the
#: person; a single card is too, unless the person calls UNO themselves (the call
#: goes before the move)
_NOT_A_CARD = ("draw", "pass", "take", "challenge", "accept", "colour", "target", "give")
#: the actions that need a round dealt: off until the first deal
_NEED_A_DEAL = ("deal", "undo", "undo_refused", "review", "call", "hints", "forget_digit")


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
        Binding("n", "deal", "Next round"),
        Binding("h", "hints(True)", "Show hints"),
        Binding("h", "hints(False)", "Hide hints"),
        Binding("u", "undo", "Undo"),
        # u where nothing can be taken back: says why, off the footer
        Binding("u", "undo_refused", "Undo", show=False),
        Binding("r", "review", "Review"),
        Binding("c", "call", "Call UNO!"),
        Binding("exclamation_mark", "call", "Call UNO!", show=False),
        Binding("escape", "forget_digit", "Forget the digit", show=False),
        *(Binding(str(d), f"digit({d})", show=False) for d in range(10)),
    ]

    def __init__(self, table: Table, labels: list[str], title: str = "",
                 training: bool = False, saved_to: str = "") -> None:
        super().__init__()
        self.table = table
        self.labels = labels
        self.sub_title = title
        #: the variant and table as the command names them (shown at the top)
        self.title_line = title
        self.typed = ""
        #: whether ``u`` takes decisions back
        self.training = training
        self.hints_on = False
        #: the file each round is saved in as it ends ("": not saved)
        self.saved_to = saved_to
        #: bumped by every change of the table: a hint computed for an older state
        #: is dropped
        self.version = 0
        #: the hint of ``version`` once its worker has it
        self.hint: tuple[int, hints.Hint] | None = None
        #: the ``version`` whose hint a worker is computing (a second ask waits for it)
        self.hint_asked: int | None = None
        #: what the search is doing now for a hint, and for a review ("": nothing)
        self.hint_busy = ""
        self.review_busy = ""
        #: the moves played for the person since their last decision, in words
        self.auto: list[str] = []
        #: while the engine compiles before the first deal: its notice, the lines of
        #: the paths compiled, when it started, and the compiling process
        self.compiling = ""
        self.compiled_lines: list[str] = []
        self.compile_t0 = 0.0
        self.compiler: asyncio.subprocess.Process | None = None
        self.clock: Timer | None = None
        #: whether the first deal was told it compiles in this process (a plug-in)
        self.here = False

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="left"):
                yield Static(id="table")
                yield Static(id="hand")
                yield OptionList(id="moves")
                yield Static(id="result")
            with VerticalScroll(id="log"):
                yield Static(id="events")
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#log", VerticalScroll)
        log.border_title = "last moves"
        log.border_subtitle = "all the round: wheel, or Tab + arrows"
        self.query_one("#moves", OptionList).focus()
        if self.table.started:
            self.step(lambda: None)  # a first decision with one move only is played
            return
        paths = warmup.pending(self.table.in_match)
        if not paths:
            self.begin()
            return
        self.compiling = warmup.notice(paths)
        self.compile_t0 = time.perf_counter()
        self.show_waiting()
        self.clock = self.set_interval(1.0, self.show_waiting, name="compile-clock")
        self.run_worker(self.compile_engine(paths), group="engine", name="compile")

    # ------------------------------------------------------------ the engine, first
    def begin(self) -> None:
        """Deal the first round (its engine cached or compiled by now) and draw it; a
        compiled plug-in's loop, compiled in this process only, first shows its notice
        (the screen waits while it compiles)."""
        if self.clock is not None:
            self.clock.stop()
        if not self.here and warmup.compiles_here(self.table.seats):
            self.here = True
            self.compiling = warmup.plugin_notice()
            self.compiled_lines = []
            self.compile_t0 = time.perf_counter()
            self.show_waiting(clock=False)
            self.call_after_refresh(self.begin)
            return
        self.compiling = ""
        with listening(lambda path, event, seconds: None):  # the screen said it
            self.step(self.table.deal)  # a first decision with one move only is played

    async def compile_engine(self, paths: list[str]) -> None:
        """Compile ``paths`` in a process of its own, showing each path as it goes,
        then deal; if the process fails, the deal compiles what is missing here."""
        ready = False
        try:
            proc = await asyncio.create_subprocess_exec(
                *warmup.command(paths), stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
            self.compiler = proc
            assert proc.stdout is not None
            while raw := await proc.stdout.readline():
                line = raw.decode(errors="replace").split()
                if line[:1] == [warmup.READY]:
                    ready = True
                elif line[:1] == ["done"] and len(line) == 3:
                    self.compiled_lines.append(
                        f"{line[1]}: compiled in {float(line[2]):.0f} s")
                self.show_waiting()
            await proc.wait()
            if self.compiler is not proc:
                return  # ended by the table closing
        except (OSError, ValueError, AssertionError):
            ready = False
        self.compiler = None
        if not ready:
            if self.clock is not None:
                self.clock.stop()
            self.compiling = ("the compile beside the table failed: the table compiles "
                              "the engine itself...")
            self.show_waiting(clock=False)
            self.call_after_refresh(self.begin)
            return
        self.begin()

    def stop_compiling(self) -> None:
        """End the compiling process, if any (the table closes)."""
        proc, self.compiler = self.compiler, None
        if proc is not None and proc.returncode is None:
            try:
                proc.kill()
            except ProcessLookupError:
                pass

    async def on_unmount(self) -> None:
        proc = self.compiler
        self.stop_compiling()
        if proc is not None:
            try:
                await asyncio.wait_for(proc.wait(), 5)
            except (TimeoutError, ProcessLookupError):
                pass

    async def action_quit(self) -> None:
        self.stop_compiling()
        await super().action_quit()

    def show_waiting(self, clock: bool = True) -> None:
        """The table before its first deal: the title, the seats, and the notice of
        the engine compiling, with the seconds so far."""
        if not self.compiling:
            return
        t = self.table
        head = Text()
        if self.title_line:
            head += Text(self.title_line + " · ", style="bold")
        head += Text(f"round 0 · seed {t.seed}")
        head += Text("\n" + words.rules_line(t.rules), style="dim")
        seats = Text()
        for p, label in enumerate(self.labels):
            who = "you" if p == HUMAN else f"{words.seat_name(p)} ({label})"
            seats.append(f"\n  {who}", style="bold" if p == HUMAN else "")
        self.query_one("#table", Static).update(head + seats)
        self.query_one("#hand", Static).update(Text("the cards are dealt once the engine "
                                                    "is compiled"))
        seconds = time.perf_counter() - self.compile_t0
        out = Text(self.compiling, style="bold")
        for line in self.compiled_lines:
            out += Text(f"\n{line}")
        out += Text(f"\n{seconds:.0f} s so far; the round starts by itself when it is "
                    "ready (q quits)" if clock else "\nthe round starts by itself when it "
                    "is ready (the screen waits meanwhile)", style="italic")
        self.query_one("#result", Static).update(out)
        self.refresh_bindings()

    def waiting(self) -> bool:
        """Whether the table waits for its engine (a key that needs it says so)."""
        if self.table.started:
            return False
        self.notify("the round starts once the engine is compiled", timeout=3)
        return True

    # ------------------------------------------------------------ drawing
    def show(self) -> None:
        seen = self.table.seen()
        t = self.table
        head = Text()
        if self.title_line:
            head += Text(self.title_line + " · ", style="bold")
        head += Text(f"round {t.round} · seed {t.seed}")
        if t.in_match:
            from unosim.play.match import target_of

            head += Text(f" · match: {target_of(t.rules)}")
        head += Text("\n" + words.rules_line(t.rules), style="dim")
        head += Text("\ntop ") + words.card(seen.top)
        head += Text(" · colour ") + Text(seen.colour,
                                          style=words.COLOUR_STYLES.get(seen.colour, ""))
        head += Text(" · " + ("clockwise" if seen.direction > 0 else "counter-clockwise"))
        if seen.pending:
            head += Text(f" · {words.plural(seen.pending, 'card')} pending", style="bold")
        seats = Text()
        for p, n in enumerate(seen.counts):
            mark = "▶ " if p == seen.actor and not t.over else "  "
            who = "you" if p == HUMAN else f"{words.seat_name(p)} ({self.labels[p]})"
            score = f" · score {seen.scores[p]}" if seen.scores else ""
            seats.append(f"\n{mark}{who}: {words.plural(n, 'card')}{score}",
                         style="bold" if p == HUMAN else "")
        self.query_one("#table", Static).update(head + seats)
        hand = Text("your hand: ") + words.hand(seen.hand)
        if seen.drawn:
            hand += Text("   drawn: ") + words.card(seen.drawn)
        self.query_one("#hand", Static).update(hand)
        self.draw_moves()
        self.query_one("#result", Static).update(self.result_text())
        log = Text()
        for i, e in enumerate(seen.events):
            log += Text("\n" if i else "") + words.event(e)
        self.query_one("#events", Static).update(log)
        self.call_after_refresh(self.query_one("#log", VerticalScroll).scroll_end,
                                animate=False)
        self.refresh_bindings()  # the footer shows the keys that apply now
        if self.hints_on and seen.legal and self.current_hint() is None:
            self.ask_hint()
        elif self.hint_busy and self.current_hint() is None:
            self.hint_busy = ""  # no hint to wait for any more
            self.query_one("#result", Static).update(self.result_text())

    def draw_moves(self) -> None:
        """The numbered moves, each with its hint's figure once the hint is in."""
        seen = self.table.seen()
        moves = self.query_one("#moves", OptionList)
        at = moves.highlighted
        moves.clear_options()
        hint = self.current_hint() if self.hints_on else None
        # the hint names the engine's moves; the screen's are in the same order (a
        # target turned, in a match)
        mine = self.table.legal() if hint else seen.legal
        moves.add_options([Text(f"{i}. ") + words.move(m, seen.phase, seen.pending, seen.top)
                           + (coaching.hint_text(hint, e) if hint else Text())
                           for i, (m, e) in enumerate(zip(seen.legal, mine, strict=True), 1)])
        if seen.legal:
            moves.highlighted = at if at is not None and at < len(seen.legal) else 0

    def current_hint(self) -> hints.Hint | None:
        """The hint of the decision on screen, if its worker has it."""
        if self.hint is not None and self.hint[0] == self.version:
            return self.hint[1]
        return None

    def result_text(self) -> Text:
        r = self.table.result()
        out = Text()
        for line in self.auto:
            out += Text(f"played for you, the only move: {line}\n", style="italic")
        if r is None:
            seen = self.table.seen()
            if self.typed:
                out += Text(f"{self.typed}_ : type the next digit of the move's number, "
                            f"or Enter for move {self.typed} (Escape forgets it)",
                            style="bold")
            else:
                out += Text(f"your decision ({seen.phase}): press its number, or the "
                            "arrows and Enter")
            if self.table.calling:
                out += Text("\nUNO! called: it goes with the move you play now",
                            style="bold")
            elif self.table.call_uno:
                out += Text("\nc: call UNO with this move")
            return out + self.busy()
        if r.winner < 0:
            line = f"round {self.table.round} stopped at the turn cap after " \
                   f"{words.plural(r.turns, 'turn')}: nobody wins"
        elif r.winner == HUMAN:
            line = f"you win round {self.table.round}: {words.plural(r.points, 'point')} " \
                   f"after {words.plural(r.turns, 'turn')}"
        else:
            line = (f"{words.seat_name(r.winner)} wins round {self.table.round}: "
                    f"{words.plural(r.points, 'point')} after "
                    f"{words.plural(r.turns, 'turn')}")
        return out + Text(line, style="bold") + self.after_round() + self.busy()

    def busy(self) -> Text:
        """What the search is doing in its thread, if anything."""
        return Text("".join(f"\n{b}" for b in (self.hint_busy, self.review_busy) if b),
                    style="italic")

    def after_round(self) -> Text:
        """What follows a round: the match's state, where it was saved, the keys."""
        from unosim.play.match import match_line

        out = Text()
        if self.table.in_match:
            out += Text("\n" + match_line(self.table), style="bold")
        if self.saved_to:
            out += Text(f"\nsaved as round {self.table.round} in {self.saved_to}: "
                        f"unosim replay {self.saved_to} --game {self.table.round}")
        keys = [] if self.table.match_over else ["n: next round"]
        keys.append("r: review")
        if self.training and self.table.can_undo:
            keys.append("u: undo")
        return out + Text("\n" + " · ".join([*keys, "q: quit"]))

    # ------------------------------------------------------------ keys
    def play(self, index: int) -> None:
        self.typed = ""
        if self.waiting():
            return
        if self.table.over or not 0 <= index < len(self.table.legal()):
            return
        self.auto = []
        self.step(lambda: self.table.pick(index))

    def step(self, act: Callable[[], object]) -> None:
        """Do ``act``, play any forced move that follows, and redraw; an opponent's
        failure (a plug-in that raises, say) closes the app with its one line, which
        the command prints."""
        try:
            act()
            self.version += 1
            self.play_forced()
        except UnosimError as e:
            self.exit(str(e), return_code=2)
            return
        self.show()

    def forced(self) -> bool:
        """Whether the person's decision on screen has one move only, to be played for
        them: not a card while they call UNO themselves (the call goes before it)."""
        t = self.table
        if t.over or not t.forced():
            return False
        return not t.call_uno or t.legal()[0].partition(":")[0] in _NOT_A_CARD

    def play_forced(self) -> None:
        """Play every decision with one move only, keeping what was played to show."""
        while self.forced():
            seen = self.table.seen()
            self.auto.append(words.move(seen.legal[0], seen.phase, seen.pending,
                                        seen.top, engine=False).plain)
            self.table.pick(0)
            self.version += 1

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        self.play(message.option_index)

    def action_digit(self, d: int) -> None:
        """Pick move number ``typed + d`` now, or wait when a longer number could follow
        (the screen shows the digit waiting)."""
        if self.waiting():
            return
        n = len(self.table.legal())
        number = int(self.typed + str(d))
        if not 1 <= number <= n:
            self.typed = ""
            self.bell()
            self.query_one("#result", Static).update(self.result_text())
            return
        if number * 10 <= n:
            self.typed = str(number)
            self.query_one("#moves", OptionList).highlighted = number - 1
            self.query_one("#result", Static).update(self.result_text())
            return
        self.play(number - 1)

    def action_forget_digit(self) -> None:
        self.typed = ""
        self.query_one("#result", Static).update(self.result_text())

    def action_deal(self) -> None:
        if self.table.over and not self.table.match_over:
            self.auto = []
            self.step(self.table.deal)

    # ------------------------------------------------------------ coaching
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys that do something now, and only those (the footer shows them):
        the next round once a round is over (not after the match's last); undo in
        training mode while a decision can be taken back (else ``u`` says why); the
        review once a round is over; the UNO call while the person decides. Before
        the first deal (the engine compiling) only quitting and the move keys (which
        say why nothing happens)."""
        t = self.table
        if not t.started:
            return action not in _NEED_A_DEAL
        if action == "deal":
            return t.over and not t.match_over
        if action == "undo":
            return self.training and t.can_undo
        if action == "undo_refused":
            return self.training and not t.can_undo
        if action == "review":
            return t.over
        if action == "call":
            return t.call_uno and not t.over and not t.calling
        if action == "hints":
            return parameters[0] != self.hints_on if parameters else True
        if action == "forget_digit":
            return bool(self.typed)
        return True

    def action_call(self) -> None:
        """Call UNO with the move about to be played (--call-uno)."""
        if self.table.call():
            self.show()
        else:
            self.bell()

    def action_hints(self, on: bool | None = None) -> None:
        """Show (or hide) the search's estimate beside each move, now and after."""
        self.hints_on = (not self.hints_on) if on is None else bool(on)
        if not self.hints_on:
            self.hint_busy = ""
        self.show()

    # ------------------------------------------------------------ the search, in a thread
    def ask_hint(self) -> None:
        """Compute the hint of the decision on screen in a worker thread; the screen
        says meanwhile that the search is thinking (or compiling, the first time)."""
        job = self.table.hint_job()
        if job is None:
            return
        version = self.version
        self.hint_busy = ("hints: " + hints.compile_notice() + " You may play on meanwhile."
                          if not hints.compiled() else "hints: the search is thinking...")
        self.query_one("#result", Static).update(self.result_text())
        if self.hint_asked == version:
            return  # its worker is on it already (hints off and on, a call of UNO)
        self.hint_asked = version

        def work() -> None:
            try:
                got: Any = job()
            except Exception as e:  # noqa: BLE001 - shown, not raised in a thread
                got = e
            self.call_from_thread(self.hint_ready, version, got)

        # started once the notice is drawn: the compiled search holds the interpreter
        # while it runs (its compile, the long part, does not)
        self.call_after_refresh(self.run_worker, work, thread=True, group="hints",
                                name="hint")

    def hint_ready(self, version: int, got: Any) -> None:
        """A hint is in: shown if the table is still at its decision."""
        if version != self.version:
            return  # the person played on meanwhile; a newer hint is on its way
        self.hint_busy = ""
        if isinstance(got, Exception):
            self.notify(f"the hint failed: {got}", severity="error")
            self.hints_on = False
            self.hint_asked = None  # asked again, it is computed again
        else:
            self.hint = (version, got)
        self.draw_moves()
        self.query_one("#result", Static).update(self.result_text())
        self.refresh_bindings()

    def action_undo(self) -> None:
        """Take the last decision back, with the forced moves after it, to the last
        decision the person had a choice in."""
        t = self.table
        if not (self.training and t.undo()):
            return
        while self.forced() and t.can_undo:
            t.undo()
        self.auto = []
        if self.forced():  # only forced moves were left: they are played again
            self.notify("only moves with no choice were left to take back",
                        severity="warning")
        self.step(lambda: None)

    def action_undo_refused(self) -> None:
        refused = self.table.undo_refused()
        if self.table.decisions:
            self.notify(refused, severity="warning")
        else:
            self.bell()

    def chosen(self) -> list:
        """The decisions of the round the person had a choice in (the review's)."""
        return [d for d in self.table.decisions if len(d.legal) > 1]

    def action_review(self) -> None:
        """Re-run the search at each decision of the round in a worker thread, then
        show the review (a few seconds: the screen says so meanwhile)."""
        if not self.table.over or self.review_busy:
            return
        decisions = self.chosen()
        if not decisions:
            self.notify("no decision of yours this round")
            return
        t = self.table
        self.review_busy = (f"review: {hints.compile_notice('review')}"
                            if not hints.compiled(True) else
                            f"reviewing your {words.plural(len(decisions), 'decision')}...")
        self.query_one("#result", Static).update(self.result_text())
        seed, round_, rollouts = t.seed, t.round, t.hint_rollouts

        def work() -> None:
            try:
                got: Any = review(decisions, seed, round_, rollouts)
            except Exception as e:  # noqa: BLE001 - shown, not raised in a thread
                got = e
            self.call_from_thread(self.review_ready, got)

        self.call_after_refresh(self.run_worker, work, thread=True, group="review",
                                name="review")

    def review_ready(self, got: Any) -> None:
        self.review_busy = ""
        self.query_one("#result", Static).update(self.result_text())
        if isinstance(got, Exception):
            self.notify(f"the review failed: {got}", severity="error")
            return
        self.push_screen(coaching.ReviewScreen(got))
