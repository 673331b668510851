"""The batch of a table with Python strategies: each Python seat is asked from
Python, every other seat plays compiled in between (``round_nb.advance_with``),
and every public event reaches each Python seat before its next decision.

Game ``g`` is seeded from (seed, g) alone and a Python class gets a fresh object
every round, so the numbers do not depend on how the games are split. The games
run one after another on the calling thread (Python holds the GIL); Dask spreads
them over processes as it does any batch.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from unosim.runs import tiers
from unosim.runs.compile_notice import first_use
from unosim.runs.failures import illegal_message
from unosim.simulate import layout as L
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.round_nb import NEW_ROUND, record_round
from unosim.simulate.step_nb import ILLEGAL, OVER, READ_EVENTS, score_hands
from unosim.strategies.plugins import PluginError, chooser_for, ears_of, hear_now, python_seats
from unosim.strategies.python import (
    MOVE_CODES,
    Event,
    EventLog,
    PythonStrategy,
    View,
    decision_budget,
    decode,
    heard_by,
)
from unosim.strategies.registry import SeatStrategy

_ADVANCE: dict[int, Any] = {}


def _advance(choose: Any) -> Any:
    """``advance_with`` bound to ``choose``: a compiled function of arrays and
    integers only, so each call from Python is cheap; the cached one when every
    other seat is a built-in that does not observe."""
    from unosim.strategies.search_nb import choose_move

    if choose is choose_move:
        from unosim.runs.entries_nb import advance_builtins

        return advance_builtins
    if id(choose) not in _ADVANCE:
        from unosim.simulate.round_nb import advance_with

        def advance(G, RNG, move, seats, read, checked):  # noqa: ANN001, ANN202
            return advance_with(choose, G, RNG, move, seats, read, checked)

        _ADVANCE[id(choose)] = (choose, njit(_nrt=False)(advance))
    return _ADVANCE[id(choose)][1]


class _Seat:
    """A Python seat of the table: its strategy, parameters and current player."""

    __slots__ = ("name", "label", "strategy", "values", "player", "choose", "observe")

    def __init__(self, seat: SeatStrategy) -> None:
        strategy: PythonStrategy = seat.plugin
        self.name = seat.name
        self.label = seat.label()
        self.strategy = strategy
        self.values = {k: spec[2] for k, spec in strategy.params.items()}
        self.values.update({k: v for k, v in seat.params.items() if k in strategy.params})
        self.player: Any = None
        self.choose: Callable[[View], Any] | None = None
        self.observe: Callable[[Any], Any] | None = None

    def new_round(self) -> None:
        """A fresh player for the round (a class's constructor runs here)."""
        self.player = self.strategy.player(self.values)
        if self.strategy.is_class:
            self.choose = self.player.choose
            self.observe = getattr(self.player, "observe", None)
        else:
            self.choose = self.player
            self.observe = None


class _TooSlow(BaseException):
    """Raised inside a strategy's call when it has used its CPU budget (not an
    Exception, so that a strategy's ``except Exception`` does not swallow it)."""


#: stop signals (SIGINT, SIGTERM) that reached this process while a batch was
#: guarded: a KeyboardInterrupt out of a strategy is Ctrl-C only when one came
_SIGNALS = [0]


class _Guard:
    """What watches a strategy's calls: its CPU budget, and which stop signals came.

    The budget is CPU time, never the wall clock: a process suspended (Ctrl-Z,
    SIGSTOP) or starved on a loaded machine uses none, so an honest strategy is never
    stopped for time. On the main thread a profiling timer (SIGPROF: the process's
    CPU time, which a batch spends on this one thread) interrupts a call that runs on
    past the budget; elsewhere the call's own ``time.thread_time`` is checked when it
    returns. A strategy that waits (sleeps, reads input) uses no CPU: Ctrl-C stops it."""

    def __init__(self, active: bool) -> None:
        #: CPU seconds one call may use (0: no limit)
        self.budget = decision_budget()
        self.active = active
        self.armed = False
        self.t0 = 0.0
        self._old: dict[int, Any] = {}

    def __enter__(self) -> _Guard:
        if self.active:
            self._old[signal.SIGPROF] = signal.signal(signal.SIGPROF, self._expired)
            for sig in (signal.SIGINT, signal.SIGTERM):
                old = signal.getsignal(sig)
                if old is not None:
                    self._old[sig] = signal.signal(sig, _counting(old))
        return self

    def __exit__(self, *exc: object) -> None:
        if self.active:
            signal.setitimer(signal.ITIMER_PROF, 0)
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old.clear()

    @property
    def counts_signals(self) -> bool:
        return signal.SIGINT in self._old

    def start(self) -> None:
        if self.budget <= 0:
            return
        if self.active:  # the timer alone: two system calls a call
            self.armed = True
            signal.setitimer(signal.ITIMER_PROF, self.budget)
        else:
            self.t0 = time.thread_time()

    def stop(self) -> float:
        """The CPU seconds the call used, where the timer did not watch it (else 0:
        a call over the budget never returns)."""
        if self.budget <= 0:
            return 0.0
        if self.active:
            self.armed = False
            signal.setitimer(signal.ITIMER_PROF, 0)
            return 0.0
        return time.thread_time() - self.t0

    def _expired(self, signum: int, frame: Any) -> None:
        if self.armed:
            self.armed = False
            raise _TooSlow


def _counting(old: Any) -> Callable[[int, Any], Any]:
    """``old``, the handler of a stop signal, after counting the signal."""

    def handler(signum: int, frame: Any) -> Any:
        _SIGNALS[0] += 1
        if callable(old):
            return old(signum, frame)
        if old == signal.SIG_DFL:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
        return None

    return handler


def python_batch(seats: list[SeatStrategy], seed: int | None = None,
                 checked: bool = True, match: bool = False) -> Callable[..., None]:
    """The batch of a table with Python seats, with the arguments of every round
    batch ``(template, key, start, out, chunks)``, or with ``match`` of every match
    batch ``(template, key, start, max_rounds, out, chunks)``."""
    choose = chooser_for(seats)
    advance = _advance(choose)
    ears = ears_of(choose)
    players = python_seats_of(seats)

    def run_batch(template: np.ndarray, key: Any, start: int, *rest: Any) -> None:
        max_rounds, out = (rest[0], rest[1]) if match else (0, rest[0])
        table = _Table(template, advance, ears, players, seats, checked, seed, match)
        with table.guard:
            cached = advance in tiers.entry_points(tiers.PYTHON_SEATS.name)
            with first_use(tiers.PYTHON_SEATS.name if cached else tiers.PLUGINS.name,
                           lambda: [advance]):
                if hasattr(advance, "compile"):  # a plain function with the JIT off
                    advance.compile((*(_typeof(x) for x in (table.G, table.RNG)),
                                    *(_typeof(0),) * 3, _typeof(True)))
            for i in range(len(out)):
                seed_game(key, start + i, table.RNG)
                table.g = start + i
                if match:
                    table.play_match(out, i, max_rounds)
                else:
                    table.play_round(0, None)
                    record_round(table.G, score_hands(table.G), out, i)

    return run_batch


def _typeof(x: Any) -> Any:
    from numba import typeof

    return typeof(x)


class _Table:
    """One batch's game array and generators, its Python players (by player number:
    in a match, seat ``s`` holds player ``(s + off) % n``), and where a failure
    points to."""

    def __init__(self, template: np.ndarray, advance: Any, ears: Any,
                 players: dict[int, _Seat], seats: list[SeatStrategy], checked: bool,
                 seed: int | None, match: bool) -> None:
        self.T = template
        self.G = template.copy()
        self.RNG = np.zeros(8, np.uint64)
        self.log = EventLog()
        self.advance = advance
        self.ears = ears  # the compiled seats hear before a Python seat decides too
        self.players = players
        self.seats = seats
        self.checked = checked
        self.seed = seed
        self.unit = "match" if match else "game"
        self.g = 0
        self.guard = _Guard(threading.current_thread() is threading.main_thread())

    def where(self) -> str:
        return _where(self.g, self.seed, self.unit)

    def play_match(self, out: np.ndarray, row: int, max_rounds: int) -> None:
        """``match_nb.match_loop``'s steps, with its rounds played here."""
        from unosim.simulate.match_nb import (
            finish_match,
            round_due,
            seat_players,
            settle_round,
            start_match,
        )

        G, T, n = self.G, self.T, int(self.T[L.R_PLAYERS])
        ended, off, wp, rounds, turns = start_match(out, row)
        while round_due(out, row, ended, rounds, max_rounds):
            seat_players(G, T, off)
            scores = tuple(int(out[row, L.M_SCORE + (s + off) % n]) for s in range(n))
            self.play_round(off, scores)
            ended, off, wp, rounds, turns = settle_round(G, T, out, row, off, wp, rounds,
                                                         turns)
        finish_match(T, self.RNG, out, row, ended, wp, rounds, turns)

    def play_round(self, off: int, scores: tuple[int, ...] | None) -> None:
        """Deal and play one round to its end: the Python seats asked here, the
        others compiled in ``advance``."""
        G, RNG = self.G, self.RNG
        n_players = int(self.T[L.R_PLAYERS])
        here = {s: self.players[(s + off) % n_players] for s in range(n_players)
                if (s + off) % n_players in self.players}
        mask = sum(1 << s for s in here)
        seats = PythonSeats(here, G, RNG, self.log, self.where, self.guard)
        # the deal alone: every seat counts as Python, so the engine stops at the first
        # decision with no move played, and new_game sees the hands as dealt
        n, m = self.advance(G, RNG, NEW_ROUND, (1 << n_players) - 1, 0, self.checked)
        seats.deal(scores)
        n, m = self.advance(G, RNG, -1, mask, seats.margin, self.checked)
        while True:
            seats.hear()
            if n >= 0:
                hear_now(self.ears, G)
                code = seats.decide(n, scores)
                n, m = self.advance(G, RNG, code, mask, seats.margin, self.checked)
            elif n == READ_EVENTS:
                n, m = self.advance(G, RNG, -1, mask, seats.margin, self.checked)
            elif n == OVER:
                return
            else:
                assert n == ILLEGAL
                raise PluginError(illegal_message(self.seats, self.g, int(m),
                                                  int(G[L.S_PHASE]), int(G[L.S_ACTOR]),
                                                  self.seed))


class PythonSeats:
    """The Python seats of one round (by seat): each new player gets the deal
    (``new_game``), then every event it hears (``observe``: the public ones and its
    own private ones, in the order they happened) before its next decision, and its
    decisions (``choose``), checked. ``Game`` asks them the same way."""

    def __init__(self, here: dict[int, _Seat], G: np.ndarray, RNG: np.ndarray,
                 log: EventLog, where: Callable[[], str], guard: _Guard | bool) -> None:
        self.here = here
        self.G = G
        self.RNG = RNG
        self.log = log
        self.where = where
        self.guard = guard if isinstance(guard, _Guard) else _Guard(False)
        self.read = 0
        self.fresh = True
        log.clear()
        for q, p in here.items():
            self.ask(q, p, lambda _, p=p: p.new_round(), None)
        self.hooked = [(q, p) for q, p in here.items() if p.observe is not None]

    @property
    def margin(self) -> int:
        """What ``advance`` is told was read: behind ``read`` by half the ring, so it
        hands back once a quarter of the ring is unread (it hands back past
        ``EV_CAP - 64`` unread from what it is told), leaving the rest for the events
        of one move (a long draw writes one private event a card)."""
        return self.read - L.EV_CAP // 2

    def _take(self) -> list[np.ndarray]:
        """The rows of the events written since the last call, into the log."""
        rows = take_events(self.G, self.log, self.read, self.where)
        self.read += len(rows)
        return rows

    def deal(self, scores: tuple[int, ...] | None = None) -> None:
        """Right after the deal, before anyone moved: ``new_game`` with each seat's
        hand as dealt (a first Draw Two's cards are not in it yet: they come as the
        deal's events), then the deal's events."""
        events = [decode(*r.tolist()) for r in self._take()]
        self.fresh = False
        got = Counter(e.seat for e in events if e.kind == "got")
        for q, p in self.here.items():
            live = View(self.G, self.RNG, q, 0, self.log, p.values, scores)
            left = Counter(live.hand)  # in card order, as the hand is
            left.subtract(e.card for e in events if e.kind == "got" and e.seat == q)
            dealt = (tuple(c for c, k in left.items() for _ in range(k)),
                     tuple(c - got[s] for s, c in enumerate(live.counts)))
            self.log.dealt[q] = dealt[0]
            hook = getattr(p.player, "new_game", None)
            if hook is not None:
                self.ask(q, p, hook, View(self.G, self.RNG, q, 0, self.log, p.values,
                                          scores, dealt))
        self._tell(events)

    def hear(self, scores: tuple[int, ...] | None = None) -> None:
        """Hand the events written since the last call to the seats that listen (a
        seat first asked after the deal, in ``Game``, gets ``new_game`` then)."""
        rows = self._take()
        if self.fresh and rows:
            self.fresh = False
            for q, p in self.here.items():
                hook = getattr(p.player, "new_game", None)
                if hook is not None:
                    self.ask(q, p, hook, View(self.G, self.RNG, q, 0, self.log, p.values,
                                              scores))
        if rows and self.hooked:  # decoded only for a seat that listens
            self._tell([decode(*r.tolist()) for r in rows])

    def _tell(self, events: list[Event]) -> None:
        for q, p in self.hooked:
            for e in events:
                if heard_by(e, q):
                    self.ask(q, p, p.observe, e)

    def decide(self, n: int, scores: tuple[int, ...] | None = None) -> int:
        """The move of the seat to act, whose ``n`` legal moves ``legal_moves`` wrote."""
        q = int(self.G[L.S_ACTOR])
        p = self.here[q]
        view = View(self.G, self.RNG, q, n, self.log, p.values, scores)
        move = self.ask(q, p, p.choose, view)
        code = MOVE_CODES.get(move) if isinstance(move, str) else None
        if code is None or move not in view.legal:
            raise PluginError(_bad_move(p, move, view, self.where()))
        if move.startswith("give:"):
            self.log.gave.setdefault(q, []).append((len(self.log), move[5:]))
        return code

    def ask(self, q: int, p: _Seat, fn: Callable[[Any], Any], arg: Any) -> Any:
        return _ask(p, q, fn, arg, self.where, self.guard)


def take_events(G: np.ndarray, log: EventLog, read: int,
                where: Callable[[], str]) -> list[np.ndarray]:
    """The rows of the events written on ``G`` since the first ``read`` (counted from
    the deal), copied out of the engine's ring into ``log``: the one reader of the
    ring, for the Python seats and the play table. More unread than the ring holds
    means some were overwritten: an error naming ``where()``, never a log with
    events missing."""
    written = int(G[L.OFF_EV_N])
    if written <= read:
        return []
    if written - read > L.EV_CAP:
        raise PluginError(f"one move made more than {L.EV_CAP} events, more than the "
                          f"event ring holds, in {where()}")
    return log.take(G, read, written)


def python_seats_of(seats: list[SeatStrategy]) -> dict[int, _Seat]:
    """The Python seats of a table, by seat."""
    return {q: _Seat(s) for q, s in enumerate(seats) if (python_seats(seats) >> q) & 1}


def _ask(s: _Seat, q: int, fn: Callable[[Any], Any], arg: Any, where: Callable[[], str],
         guard: _Guard) -> Any:
    """Call the strategy of seat ``q``. Whatever it raises (SystemExit and
    KeyboardInterrupt included: only a stop signal that reached the process is
    Ctrl-C), and a call over the CPU budget, is one line naming the strategy, the
    seat and what replays the game."""
    signals = _SIGNALS[0]
    try:
        guard.start()
        try:
            out = fn(arg)
        finally:
            used = guard.stop()
    except _TooSlow:
        raise PluginError(f"strategy {s.label} at seat {q} used more than "
                          f"{guard.budget:g} s of CPU time in one call ({_BUDGET_HINT}) in "
                          f"{where()}") from None
    except BaseException as e:  # noqa: BLE001 - the user's code, whatever it raises
        if _SIGNALS[0] != signals or (isinstance(e, KeyboardInterrupt)
                                      and not guard.counts_signals):
            raise  # a real Ctrl-C or SIGTERM: the run stops as it does for any
        from unosim.strategies.plugins import first_line

        raise PluginError(f"strategy {s.label} at seat {q} raised {first_line(e)} in "
                          f"{where()}") from None
    if guard.budget > 0 and used > guard.budget:
        raise PluginError(f"strategy {s.label} at seat {q} used {used:.1f} s of CPU time "
                          f"in one call (budget {guard.budget:g} s; {_BUDGET_HINT}) in "
                          f"{where()}")
    return out


_BUDGET_HINT = "UNOSIM_DECISION_BUDGET=SECONDS sets the budget, 0 none"


def _where(g: int, seed: int | None, unit: str = "game") -> str:
    if seed is None:
        return f"{unit} {g}"
    if unit != "game":
        return f"{unit} {g} of seed {seed}"
    return f"game {g} of seed {seed}; replay: Game(rules, seats, seed={seed}, game_index={g})"


def _bad_move(s: _Seat, move: Any, view: View, where: str) -> str:
    if not isinstance(move, str):
        what = f"returned {type(move).__name__} {move!r}, not a move (one of view.legal)"
    else:
        what = (f"played the illegal move {move!r} in phase {view.phase} (legal: "
                f"{', '.join(view.legal[:8])}{' ...' if len(view.legal) > 8 else ''})")
    return f"strategy {s.label} at seat {view.seat} {what}, {where}"
