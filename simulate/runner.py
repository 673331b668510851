"""Run many games: seeding, batching, threads, progress and interruption.

The compiled batch writes one record per game; each batch is folded into an
:class:`Aggregate` at once, so memory stays flat whatever ``games`` is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.simulate.aggregate import Aggregate
from unosim.simulate.plugin_batch import batch_for
from unosim.simulate.rules import Rules, lower
from unosim.strategies.registry import SeatStrategy, seat_template

DEFAULT_BATCH = 1 << 16
#: rollouts one batch holds per worker: about a second of ``search`` on one core
SEARCH_BATCH_ROLLOUTS = 250_000
#: decisions a search seat searches per round (measured 6 to 8 at 2 to 4 players)
SEARCHED_PER_ROUND = 8


def batch_size(seats: list[SeatStrategy], batch: int, workers: int, rounds: int = 1) -> int:
    """``batch``, cut for tables that search so that a batch takes about a second:
    the progress bar moves and its ETA means something, and Ctrl-C (which keeps
    the finished batches) loses little. ``rounds``: rounds per game (matches).
    Results never depend on the batch size."""
    cost = sum(s.cost for s in seats) * SEARCHED_PER_ROUND * rounds
    if cost == 0:
        return batch
    return max(workers, min(batch, workers * SEARCH_BATCH_ROLLOUTS // cost))


def max_workers() -> int:
    return int(numba.config.NUMBA_NUM_THREADS)


def check_workers(workers: int | None) -> int:
    """The threads a run uses: ``workers``, or every core when None; a one-line
    error outside 1..cores."""
    n = max_workers() if workers is None else workers
    if not 1 <= n <= max_workers():
        raise UnosimError(f"--workers must be within 1..{max_workers()}, got {workers}")
    return n


def use_workers(workers: int | None) -> int:
    """``check_workers``, and set Numba's thread count to it."""
    n = check_workers(workers)
    numba.set_num_threads(n)
    return n


def base_seed(seed: int) -> np.uint64:
    """The 64-bit key every game's generators are derived from."""
    return np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]


@dataclass
class RunResult:
    """What a run produced: totals, timing, and whether it was cut short."""

    rules: Rules
    seats: list[SeatStrategy]
    seed: int
    requested: int
    agg: Aggregate
    elapsed_s: float
    workers: int
    partial: bool = False
    compile_s: float = 0.0  # JIT compile or cache load before the timed run
    precision_reached: bool = False  # stopped early by ``precision``


def play_records(
    rules: Rules, seats: list[SeatStrategy], seed: int, start: int, n: int, chunks: int = 1
) -> np.ndarray:
    """Per-game records for games ``start .. start + n`` (columns: layout.GAME_FIELDS)."""
    out = np.zeros((n, L.N_G), dtype=np.int32)
    play = batch_for(seats, seed)  # play_batch, or the plug-in batch when a seat has one
    play(game_template(rules, seats), base_seed(seed), start, out, max(1, chunks))
    return out


def game_template(rules: Rules, seats: list[SeatStrategy]) -> np.ndarray:
    """The game array every game of a run starts from: rules, deck and seats."""
    return seat_template(lower(rules), seats, rules["uno_forget_prob"])


def run(
    rules: Rules,
    seats: list[SeatStrategy],
    games: int,
    seed: int,
    workers: int | None = None,
    batch: int = DEFAULT_BATCH,
    on_batch: Callable[[int], None] | None = None,
    on_records: Callable[[int, np.ndarray], None] | None = None,
    resume_from: Aggregate | None = None,
    on_totals: Callable[[Aggregate], None] | None = None,
    precision: float | None = None,
) -> RunResult:
    """Play ``games`` rounds and fold them into an Aggregate.

    ``on_records(first_game, records)`` sees each batch's per-game rows (for
    ``--save-games``). ``resume_from`` continues an interrupted run: its games are
    kept and play goes on from game ``resume_from.games``; since the totals are
    integer sums, the final figures equal an uninterrupted run's.
    ``on_totals(agg)`` sees the running totals after each batch (progress
    estimates, checkpoints). With ``precision``, the run stops after the first
    batch at which the 95% Wilson interval of seat 0's win rate is at most
    ``precision`` wide on each side (``games`` is then an upper bound); the
    stopping rule looks only at the sample size and the interval's width, and
    the result says how many games it took.
    Ctrl-C between batches stops the run; the finished batches are kept and the
    result is marked ``partial``.
    """
    if len(seats) != rules["players"]:
        raise UnosimError(f"{len(seats)} strategies given for {rules['players']} players")
    workers = use_workers(workers)
    batch = batch_size(seats, batch, workers)
    template = game_template(rules, seats)
    key = base_seed(seed)
    agg = resume_from if resume_from is not None else Aggregate(players=rules["players"])
    out = np.zeros((max(1, min(batch, games)), L.N_G), dtype=np.int32)
    chunks = workers * 8
    t_compile = time.perf_counter()
    play_batch = batch_for(seats, seed)  # the cached kernel, or the plug-in batch
    play_batch(template, key, 0, np.zeros((1, L.N_G), np.int32), 1)  # compile or load
    compile_s = time.perf_counter() - t_compile
    t0 = time.perf_counter()
    done = agg.games
    partial = False
    reached = False
    try:
        while done < games:
            n = min(batch, games - done)
            rec = out[:n]
            play_batch(template, key, done, rec, chunks)
            if on_records is not None:
                on_records(done, rec)
            agg.add_records(rec)
            done += n
            if on_batch is not None:
                on_batch(n)
            if on_totals is not None:
                on_totals(agg)
            if precision is not None and seat0_half_width(agg) <= precision:
                reached = True
                break
    except KeyboardInterrupt:
        partial = True
    elapsed = time.perf_counter() - t0
    return RunResult(rules, seats, seed, games, agg, elapsed, workers, partial, compile_s,
                     precision_reached=reached)


def seat0_half_width(agg: Aggregate) -> float:
    """Half-width of the 95% Wilson interval of seat 0's win rate."""
    from unosim.common import wilson

    lo, hi = wilson(int(agg.wins[0]), agg.games)
    return (hi - lo) / 2


def warm_up() -> float:
    """Compile (or load from cache) the engine; return the seconds it took."""
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    t0 = time.perf_counter()
    rules = resolve()
    play_records(rules, [parse_strategy("random")] * rules["players"], 0, 0, 1)
    return time.perf_counter() - t0
