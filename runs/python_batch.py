"""The batch of a table with Python strategies: each Python seat is asked from
Python, every other seat plays compiled in between (``round_nb.advance_with``),
and every public event reaches each Python seat before its next decision.

Game ``g`` is seeded from (seed, g) alone and a Python class gets a fresh object
every round, so the numbers do not depend on how the games are split. The games
run one after another on the calling thread (Python holds the GIL); Dask spreads
them over processes as it does any batch.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from unosim.compiler.compiling import first_use
from unosim.runs import tiers
from unosim.runs.failures import illegal_message
from unosim.simulate import layout as L
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.round_nb import ILLEGAL, NEW_ROUND, OVER, READ_EVENTS, record_round
from unosim.simulate.step_nb import score_hands
from unosim.strategies.plugins import PluginError, chooser_for, python_seats
from unosim.strategies.python import (
    DECISION_BUDGET,
    MOVE_CODES,
    EventLog,
    PythonStrategy,
    View,
    decode,
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
        self.player = self.strategy.player(self.values)
        if self.strategy.is_class:
            self.choose = self.player.choose
            self.observe = getattr(self.player, "observe", None)
        else:
            self.choose = self.player
            self.observe = None


class _TooSlow(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _TooSlow


def python_batch(seats: list[SeatStrategy], seed: int | None = None,
                 checked: bool = True, match: bool = False) -> Callable[..., None]:
    """The batch of a table with Python seats, with the arguments of every round
    batch ``(template, key, start, out, chunks)``, or with ``match`` of every match
    batch ``(template, key, start, max_rounds, out, chunks)``."""
    choose = chooser_for(seats)
    advance = _advance(choose)
    players = python_seats_of(seats)

    def run_batch(template: np.ndarray, key: Any, start: int, *rest: Any) -> None:
        max_rounds, out = (rest[0], rest[1]) if match else (0, rest[0])
        table = _Table(template, advance, players, seats, checked, seed, match)
        old = signal.signal(signal.SIGALRM, _alarm) if table.timer else None
        try:
            cached = advance in tiers.entry_points(tiers.PYTHON_SEATS.name)
            with first_use(tiers.PYTHON_SEATS.name if cached else tiers.PLUGINS.name,
                           lambda: [advance]):
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
        finally:
            if table.timer:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)

    return run_batch


def _typeof(x: Any) -> Any:
    from numba import typeof

    return typeof(x)


class _Table:
    """One batch's game array and generators, its Python players (by player number:
    in a match, seat ``s`` holds player ``(s + off) % n``), and where a failure
    points to."""

    def __init__(self, template: np.ndarray, advance: Any, players: dict[int, _Seat],
                 seats: list[SeatStrategy], checked: bool, seed: int | None,
                 match: bool) -> None:
        self.T = template
        self.G = template.copy()
        self.RNG = np.zeros(8, np.uint64)
        self.log = EventLog()
        self.advance = advance
        self.players = players
        self.seats = seats
        self.checked = checked
        self.seed = seed
        self.unit = "match" if match else "game"
        self.g = 0
        self.timer = threading.current_thread() is threading.main_thread()

    def where(self) -> str:
        return _where(self.g, self.seed, self.unit)

    def play_match(self, out: np.ndarray, row: int, max_rounds: int) -> None:
        """``match_nb.match_loop`` with its rounds played here (its scoring kernels
        compiled and shared)."""
        from unosim.simulate.match_nb import (
            _finish_match,
            _settle_round,
            _start_match,
            seat_players,
        )

        G, T, n = self.G, self.T, int(self.T[L.R_PLAYERS])
        _start_match(out, row)
        off, wp, rounds, turns, ended = 0, -1, 0, 0, False
        while not ended:
            if rounds >= max_rounds:
                out[row, L.M_CAPPED] = 1
                break
            seat_players(G, T, off)
            scores = tuple(int(out[row, L.M_SCORE + (s + off) % n]) for s in range(n))
            self.play_round(off, scores)
            rounds += 1
            turns += int(G[L.S_TURNS])
            ended, off, wp = _settle_round(G, T, out, row, off, wp)
        _finish_match(T, self.RNG, out, row, rounds, turns, ended, wp)

    def play_round(self, off: int, scores: tuple[int, ...] | None) -> None:
        """Deal and play one round to its end: the Python seats asked here, the
        others compiled in ``advance``."""
        G, RNG = self.G, self.RNG
        n_players = int(self.T[L.R_PLAYERS])
        here = {s: self.players[(s + off) % n_players] for s in range(n_players)
                if (s + off) % n_players in self.players}
        mask = sum(1 << s for s in here)
        seats = PythonSeats(here, G, RNG, self.log, self.where, self.timer)
        n, m = self.advance(G, RNG, NEW_ROUND, mask, 0, self.checked)
        while True:
            seats.hear()
            if n >= 0:
                code = seats.decide(n, scores)
                n, m = self.advance(G, RNG, code, mask, seats.read, self.checked)
            elif n == READ_EVENTS:
                n, m = self.advance(G, RNG, -1, mask, seats.read, self.checked)
            elif n == OVER:
                return
            else:
                assert n == ILLEGAL
                raise PluginError(illegal_message(self.seats, self.g, int(m),
                                                  int(G[L.S_PHASE]), int(G[L.S_ACTOR]),
                                                  self.seed))


class PythonSeats:
    """The Python seats of one round (by seat): each new player gets the deal
    (``new_game``), every public event (``observe``) before its next decision, and
    its decisions (``choose``), checked. ``Game`` asks them the same way."""

    def __init__(self, here: dict[int, _Seat], G: np.ndarray, RNG: np.ndarray,
                 log: EventLog, where: Callable[[], str], timer: bool) -> None:
        self.here = here
        self.G = G
        self.RNG = RNG
        self.log = log
        self.where = where
        self.timer = timer
        self.read = 0
        self.fresh = True
        log.clear()
        for p in here.values():
            p.new_round()
        self.hooked = [p for p in here.values() if p.observe is not None]

    def hear(self, scores: tuple[int, ...] | None = None) -> None:
        """Hand the events written since the last call to the seats that listen."""
        written = int(self.G[L.OFF_EV_N])
        if written <= self.read:
            return
        rows = self.log.take(self.G, self.read, written)
        self.read = written
        if self.fresh:
            self.fresh = False
            for q, p in self.here.items():
                hook = getattr(p.player, "new_game", None)
                if hook is not None:
                    self.ask(p, hook, View(self.G, self.RNG, q, 0, self.log, p.values, scores))
        for p in self.hooked:
            for r in rows:
                self.ask(p, p.observe, decode(*r.tolist()))

    def decide(self, n: int, scores: tuple[int, ...] | None = None) -> int:
        """The move of the seat to act, whose ``n`` legal moves ``legal_moves`` wrote."""
        q = int(self.G[L.S_ACTOR])
        p = self.here[q]
        view = View(self.G, self.RNG, q, n, self.log, p.values, scores)
        move = self.ask(p, p.choose, view)
        code = MOVE_CODES.get(move) if isinstance(move, str) else None
        if code is None or move not in view.legal:
            raise PluginError(_bad_move(p, move, view, self.where()))
        return code

    def ask(self, p: _Seat, fn: Callable[[Any], Any], arg: Any) -> Any:
        return _ask(p, fn, arg, self.where(), self.timer)


def python_seats_of(seats: list[SeatStrategy]) -> dict[int, _Seat]:
    """The Python seats of a table, by seat."""
    return {q: _Seat(s) for q, s in enumerate(seats) if (python_seats(seats) >> q) & 1}


def _ask(s: _Seat, fn: Callable[[Any], Any], arg: Any, where: str, timer: bool) -> Any:
    """Call the strategy; an exception, or a decision over the budget, becomes one
    line naming the strategy and what replays the game."""
    t0 = time.perf_counter()
    try:
        if timer:
            signal.setitimer(signal.ITIMER_REAL, DECISION_BUDGET * 2)
        out = fn(arg)
    except _TooSlow:
        raise PluginError(f"strategy {s.label} took more than {DECISION_BUDGET * 2:g} s over "
                          f"one call in {where}") from None
    except PluginError:
        raise
    except Exception as e:  # noqa: BLE001 - the user's code
        from unosim.strategies.plugins import first_line

        raise PluginError(f"strategy {s.label} raised {first_line(e)} in "
                          f"{where}") from None
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
    if time.perf_counter() - t0 > DECISION_BUDGET:
        raise PluginError(f"strategy {s.label} took {time.perf_counter() - t0:.1f} s over "
                          f"one call (budget {DECISION_BUDGET:g} s) in {where}")
    return out


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
