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
                 checked: bool = True) -> Callable[..., None]:
    """The batch of a table with Python seats, with the arguments of every round
    batch ``(template, key, start, out, chunks)``."""
    choose = chooser_for(seats)
    advance = _advance(choose)
    mask = python_seats(seats)
    players = {q: _Seat(s) for q, s in enumerate(seats) if (mask >> q) & 1}

    def run_batch(template: np.ndarray, key: Any, start: int, out: np.ndarray,
                  chunks: int) -> None:
        G = template.copy()
        RNG = np.zeros(8, np.uint64)
        log = EventLog()
        timer = threading.current_thread() is threading.main_thread()
        old = signal.signal(signal.SIGALRM, _alarm) if timer else None
        try:
            cached = advance in tiers.entry_points(tiers.PYTHON_SEATS.name)
            with first_use(tiers.PYTHON_SEATS.name if cached else tiers.PLUGINS.name,
                           lambda: [advance]):
                advance.compile((*(_typeof(x) for x in (G, RNG)), *(_typeof(0),) * 3,
                                 _typeof(True)))
            for i in range(len(out)):
                _play_one(G, RNG, key, start + i, out, i, log, advance, mask, players,
                          seats, checked, seed, timer)
        finally:
            if timer:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)

    return run_batch


def _typeof(x: Any) -> Any:
    from numba import typeof

    return typeof(x)


def _play_one(G: np.ndarray, RNG: np.ndarray, key: Any, g: int, out: np.ndarray, row: int,
              log: EventLog, advance: Any, mask: int, players: dict[int, _Seat],
              seats: list[SeatStrategy], checked: bool, seed: int | None,
              timer: bool) -> None:
    seed_game(key, g, RNG)
    log.clear()
    for s in players.values():
        s.new_round()
    hooked = [s for s in players.values() if s.strategy.is_class]
    n, m = advance(G, RNG, NEW_ROUND, mask, 0, checked)
    read = 0
    fresh = True
    while True:
        written = int(G[L.OFF_EV_N])
        if written > read:
            rows = log.take(G, read, written)
            read = written
            if fresh:
                fresh = False
                for q, s in players.items():
                    hook = getattr(s.player, "new_game", None)
                    if hook is not None:
                        _ask(s, hook, View(G, RNG, q, 0, log, s.values), g, seed, timer)
            for s in hooked:
                if s.observe is not None:
                    for r in rows:
                        _ask(s, s.observe, decode(*r.tolist()), g, seed, timer)
        if n >= 0:
            q = int(G[L.S_ACTOR])
            s = players[q]
            view = View(G, RNG, q, n, log, s.values)
            move = _ask(s, s.choose, view, g, seed, timer)
            code = MOVE_CODES.get(move) if isinstance(move, str) else None
            if code is None or move not in view.legal:
                raise PluginError(_bad_move(s, move, view, g, seed))
            n, m = advance(G, RNG, code, mask, read, checked)
        elif n == READ_EVENTS:
            n, m = advance(G, RNG, -1, mask, read, checked)
        elif n == OVER:
            record_round(G, score_hands(G), out, row)
            return
        else:
            assert n == ILLEGAL
            from unosim.runs.plugin_batch import illegal_message

            raise PluginError(illegal_message(seats, g, int(m), int(G[L.S_PHASE]),
                                              int(G[L.S_ACTOR]), seed))


def _ask(s: _Seat, fn: Callable[[Any], Any], arg: Any, g: int, seed: int | None,
         timer: bool) -> Any:
    """Call the strategy; an exception, or a decision over the budget, becomes one
    line naming the strategy and what replays the game."""
    t0 = time.perf_counter()
    try:
        if timer:
            signal.setitimer(signal.ITIMER_REAL, DECISION_BUDGET * 2)
        out = fn(arg)
    except _TooSlow:
        raise PluginError(f"strategy {s.label} took more than {DECISION_BUDGET * 2:g} s over "
                          f"one call in {_where(g, seed)}") from None
    except PluginError:
        raise
    except Exception as e:  # noqa: BLE001 - the user's code
        from unosim.strategies.plugins import first_line

        raise PluginError(f"strategy {s.label} raised {first_line(e)} in "
                          f"{_where(g, seed)}") from None
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
    if time.perf_counter() - t0 > DECISION_BUDGET:
        raise PluginError(f"strategy {s.label} took {time.perf_counter() - t0:.1f} s over "
                          f"one call (budget {DECISION_BUDGET:g} s) in {_where(g, seed)}")
    return out


def _where(g: int, seed: int | None) -> str:
    if seed is None:
        return f"game {g}"
    return f"game {g} of seed {seed}; replay: Game(rules, seats, seed={seed}, game_index={g})"


def _bad_move(s: _Seat, move: Any, view: View, g: int, seed: int | None) -> str:
    if not isinstance(move, str):
        what = f"returned {type(move).__name__} {move!r}, not a move (one of view.legal)"
    else:
        what = (f"played the illegal move {move!r} in phase {view.phase} (legal: "
                f"{', '.join(view.legal[:8])}{' ...' if len(view.legal) > 8 else ''})")
    return f"strategy {s.label} at seat {view.seat} {what}, {_where(g, seed)}"
