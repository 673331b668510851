"""``unosim run`` with checkpoints, and ``unosim run --resume DIR``.

A run with ``--out DIR`` keeps ``DIR/checkpoint.json`` up to date while it plays
(after the first batch, then at most every ``UNOSIM_CHECKPOINT_SECONDS``, default
5 s, and always when it is stopped). Ctrl-C or SIGTERM stops it between batches:
the finished batches are kept, the partial report is printed and written (marked
partial), the checkpoint is written, and the exit status is 130 (SIGINT) or 143
(SIGTERM). ``--resume DIR`` plays the remaining games on top of the saved totals;
since every game is seeded from (seed, index) and the totals are integer sums,
the final figures are exactly those of an uninterrupted run with the same seed.
A finished run removes its checkpoint. A crash or ``kill -9`` loses at most the
games played since the last checkpoint.

``UNOSIM_BATCH`` sets the games (or matches) per batch: the granularity of
stopping, progress and checkpoints; it never changes the results.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import click

from unosim import interrupt
from unosim.errors import UnosimError
from unosim.runs import checkpoint as ckpt

CHECKPOINT_SECONDS = 5.0


def checkpoint_seconds() -> float:
    """How often a checkpoint is written while a command plays (UNOSIM_CHECKPOINT_SECONDS)."""
    from unosim.runs.runner import env_number

    return env_number("UNOSIM_CHECKPOINT_SECONDS", CHECKPOINT_SECONDS)


def batch_size(mode: str) -> int:
    from unosim.runs.runner import default_batch

    return default_batch(mode)


def refuse_unfinished(out_dir: Path | None) -> None:
    """A new run must not overwrite the checkpoint of an unfinished one."""
    if out_dir is None or not ckpt.exists(out_dir):
        return
    try:
        ck = ckpt.load(out_dir, label=f"--out {out_dir}")
        done = f" ({ck.next_game:,} of {ck.games:,} games done)"
    except UnosimError:
        done = ""
    raise UnosimError(
        f"--out {out_dir} holds an unfinished run{done}: finish it with "
        f"`unosim run --resume {out_dir}`, or delete {ckpt.path_in(out_dir)}"
    )


def run_checkpointed(
    *, name: str, mode: str, rules: Any, seats: list[Any], games: int, seed: int,
    workers: int | None, fmt: str, out_dir: Path | None, max_rounds: int | None,
    show_progress: bool, precision: float | None = None,
    resume_from: ckpt.Checkpoint | None = None,
) -> None:
    """Play a run (rounds or matches) on this machine, print its report, write the
    ``--out`` files and keep a checkpoint there; exit 130/143 with the partial
    report when stopped by a signal."""
    from unosim.progress import with_progress
    from unosim.runs.match import DEFAULT_MAX_ROUNDS
    from unosim.runs.runner import new_totals
    from unosim.runs.runner import run as run_games

    if mode == "match" and max_rounds is None:
        max_rounds = DEFAULT_MAX_ROUNDS
    if resume_from is not None:
        state = resume_from
        # a --precision run must stop at the same batch as it would have uninterrupted
        batch = state.batch if state.precision is not None and state.batch else batch_size(mode)
    else:
        batch = batch_size(mode)
        state = ckpt.Checkpoint(mode=mode, variant=name, rules=rules.as_dict(),
                                seats=ckpt.seats_of(seats), seed=seed, games=games,
                                agg=new_totals(mode, rules["players"]),
                                max_rounds=max_rounds if mode == "match" else None,
                                precision=precision, batch=batch)
    saver = ckpt.Saver(out_dir, state, checkpoint_seconds())

    def job(progress: Any, totals: Any = None) -> Any:
        def on_batch(n: int) -> None:
            if n:  # (on_batch(0) comes before play: nothing to keep yet)
                saver.maybe_save()  # first: the stop check in progress() may raise
            progress(n)

        return run_games(rules, seats, games, seed, workers, batch=batch, on_batch=on_batch,
                         resume_from=state.agg, on_totals=totals, precision=state.precision,
                         mode=mode, max_rounds=max_rounds or DEFAULT_MAX_ROUNDS)

    remaining = games - state.next_game
    try:
        result = with_progress(show_progress, remaining, job, with_totals=mode == "round",
                               unit="games" if mode == "round" else "matches")
    except UnosimError:
        # bad input found in play (a plug-in that raised or moved illegally): the same
        # games would fail again, so a checkpoint this run started is of no use
        if resume_from is None and out_dir is not None:
            ckpt.remove(out_dir)
        raise
    result = dataclasses.replace(result, elapsed_s=result.elapsed_s + saver.base_elapsed)
    if result.partial:
        saver.save(result.elapsed_s - saver.base_elapsed)
    _report(result, name, mode, fmt, out_dir, state.precision)
    if result.partial:
        unit = "games" if mode == "round" else "matches"
        where = (f"checkpoint in {ckpt.path_in(out_dir)}; finish the run with "
                 f"`unosim run --resume {out_dir}`") if out_dir is not None else (
                 "run with --out DIR to keep a checkpoint that --resume can finish")
        click.echo(f"unosim: interrupted after {result.agg.games:,} of {games:,} {unit}; "
                   f"the report above covers the finished ones; {where}", err=True)
        sys.exit(interrupt.exit_code())
    if out_dir is not None:
        ckpt.remove(out_dir)


def _report(result: Any, name: str, mode: str, fmt: str, out_dir: Path | None,
            precision: float | None) -> None:
    from unosim.output import print_summary, run_report

    print_summary(*run_report(result, name, mode, "local", precision), fmt, out_dir)


def resume(folder: str, workers: int | None, fmt: str, show_progress: bool) -> None:
    """``unosim run --resume DIR``: finish the run whose checkpoint is in DIR."""
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    label = f"--resume {folder}"
    state = ckpt.load(folder, label)
    try:
        ckpt.load_seat_plugins(state)
        rules = resolve([], list(state.rules.items()))
        seats = [parse_strategy(s) for s in state.seat_texts()]
    except UnosimError as e:
        raise UnosimError(f"{label}: the saved run is no longer valid ({e})") from None
    if rules.as_dict() != state.rules:
        raise UnosimError(f"{label}: the saved rules do not resolve to themselves")
    if len(seats) != rules["players"]:
        raise UnosimError(f"{label}: {len(seats)} seats for {rules['players']} players")
    out_dir = Path(folder)
    run_checkpointed(name=state.variant, mode=state.mode, rules=rules, seats=seats,
                     games=state.games, seed=state.seed, workers=workers, fmt=fmt,
                     out_dir=out_dir, max_rounds=state.max_rounds,
                     show_progress=show_progress, precision=state.precision,
                     resume_from=state)
