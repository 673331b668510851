"""The modes of play, declared once: a round (one deal to its winner) or a match
(rounds until a target score). Everything that differs between them is here:
the record's width, the totals and result types, the word the outputs count in,
the batch size and how a batch kernel is found and called. Elsewhere a mode is
this object; the command line's ``--mode round|match`` is mapped to it by
:func:`of` at the boundary.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from unosim.errors import UnosimError
from unosim.runs.aggregate import Aggregate, RunResult
from unosim.runs.match import (
    DEFAULT_MATCH_BATCH,
    MATCH_ROUNDS_GUESS,
    MatchAggregate,
    MatchResult,
    check_match_rules,
)
from unosim.simulate import layout as L
from unosim.simulate import match_nb as M


@dataclass(frozen=True)
class Mode:
    """One mode of play (see the module's text)."""

    name: str  # as the command line and the JSON outputs spell it
    unit: str  # what the outputs count: "games" or "matches"
    one: str  # one of them: "game" or "match"
    width: int  # columns of one record
    totals: type  # the mergeable totals of a run
    result: type  # what a run returns
    batch: int  # games per batch by default (UNOSIM_BATCH overrides)
    rounds: int  # rounds one game takes, roughly: sizes a searching table's batches
    by_rounds: bool  # a game is a match: capped by max_rounds, checked against it
    batch_maker: str  # its batch kernel's maker in runs/plugin_batch
    fields: tuple[str, ...]  # the record's column names
    #: the record blocks with one column per seat (``points`` -> points_0 ..
    #: points_9): a table of n seats fills only the first n of each
    seat_blocks: tuple[str, ...] = ()

    def seat_of(self, field: str) -> int | None:
        """The seat a column of the record belongs to (``place_3`` -> 3), or None."""
        block, _, seat = field.rpartition("_")
        return int(seat) if block in self.seat_blocks and seat.isdigit() else None

    def columns_at(self, players: int) -> tuple[int, ...]:
        """The record's columns a table of ``players`` seats fills (the others stay 0)."""
        return tuple(i for i, f in enumerate(self.fields)
                     if (self.seat_of(f) or 0) < players)

    def seat_wins(self, rec: Any, seat: int) -> int:
        """Games of ``rec`` that ``seat`` won (a capped round has no winner)."""
        if self.by_rounds:
            return int((rec[:, M.M_WINNER] == seat).sum())
        return int(((rec[:, L.G_WINNER] == seat) & (rec[:, L.G_CAPPED] == 0)).sum())

    def new_totals(self, players: int) -> Any:
        return self.totals(players=players)

    def check_rules(self, rules: Any, max_rounds: int) -> None:
        """Refuse a table this mode cannot finish (matches the round cap would cut)."""
        if self.by_rounds:
            check_match_rules(rules, max_rounds)

    def kernel(self, seats: list[Any], seed: int | None) -> Callable[..., None]:
        """The batch kernel of a table of ``seats`` (built-in or plug-in)."""
        from unosim.runs import plugin_batch

        return getattr(plugin_batch, self.batch_maker)(seats, seed)

    def play(self, kernel: Callable[..., None], template: Any, key: Any, first: int,
             rec: Any, chunks: int, max_rounds: int) -> None:
        """Call a batch kernel of this mode (a match's takes the round cap)."""
        if self.by_rounds:
            kernel(template, key, first, max_rounds, rec, chunks)
        else:
            kernel(template, key, first, rec, chunks)

    def make_result(self, rules: Any, seats: list[Any], seed: int, requested: int,
                    agg: Any, elapsed_s: float, workers: int, max_rounds: int,
                    partial: bool, compile_s: float, precision_reached: bool = False,
                    compiled: tuple[str, ...] = ()) -> Any:
        if self.by_rounds:
            return MatchResult(rules, seats, seed, requested, agg, elapsed_s, workers,
                               max_rounds, partial, compile_s, compiled)
        return RunResult(rules, seats, seed, requested, agg, elapsed_s, workers, partial,
                         compile_s, precision_reached=precision_reached, compiled=compiled)

    def __str__(self) -> str:
        return self.name


ROUND = Mode("round", "games", "game", L.N_G, Aggregate, RunResult, 1 << 16, 1, False,
             "batch_for", tuple(L.GAME_FIELDS), ("points", "place", "stage"))
MATCH = Mode("match", "matches", "match", M.N_M, MatchAggregate, MatchResult,
             DEFAULT_MATCH_BATCH, MATCH_ROUNDS_GUESS, True, "match_batch_for",
             tuple(M.MATCH_FIELDS), ("score", "round_wins", "round_losses"))
MODES = {m.name: m for m in (ROUND, MATCH)}


def record_width(mode: str | Mode) -> int:
    """Columns of one record of ``mode``."""
    return of(mode).width


def of(mode: str | Mode) -> Mode:
    """The mode a name (``--mode``) stands for; a Mode is returned as it is."""
    if isinstance(mode, Mode):
        return mode
    found = MODES.get(mode)
    if found is None:
        raise UnosimError(f"--mode must be one of {', '.join(MODES)}, got {mode!r}")
    return found
