"""The ladder's play: which lineups, played through the tournament's machinery.

Heads-up (and whenever no field is named at 2 players) every pair of entrants meets
in both seat orders, every lineup on the same deals (the tournament's seating with
more strategies than seats). At 3 or more players each strategy sits in one seat
against the field (``random`` unless another is named) in all the others, its seat
rotated through every seat, all on the same deals (the tournament's ``--field``
seating): a round robin of 4-player tables would need every set of four entrants in
four rotations (2,860 lineups for 13 strategies) and put the slow search in a third
of them, while the field costs four lineups a strategy and faces every strategy with
the same opposition. The price: the rating at 4 players says how a strategy fares
against that field, and another field may order close strategies otherwise.

The games are cut into blocks of deals (every lineup plays block b's deals), and the
wins of every lineup are kept per block, so the fit's bootstrap can resample whole
deals (``fit.py``). Every count is an integer, so the totals do not depend on the
split into tasks, and a stopped ladder keeps its finished blocks (``--resume``
finishes it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from unosim.errors import UnosimError
from unosim.runs.backend import Backend, Progress
from unosim.runs.driver import Outcome, drive
from unosim.runs.modes import ROUND
from unosim.runs.runner import default_batch, play_batch_into
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules
from unosim.strategies.registry import SeatStrategy, parse_strategy
from unosim.studies.lineups.tournament import TournamentStudy, lineups
from unosim.studies.lineups.tournament_summary import entrant_labels

#: blocks of deals the bootstrap resamples (fewer when there are fewer deals)
BLOCKS = 50


def needs_field(players: int, field: SeatStrategy | None) -> SeatStrategy | None:
    """The field of a ladder: as named, else none heads-up and ``random`` at 3 or more
    players."""
    if field is not None or players == 2:
        return field
    return parse_strategy("random")


def check_entrants(strategies: Sequence[SeatStrategy], field: SeatStrategy | None) -> None:
    if field is None and len(strategies) < 2:
        raise UnosimError("a ladder needs at least two strategies (or one against a field: "
                          "--field STRATEGY)")
    if not strategies:
        raise UnosimError("a ladder needs at least one strategy")


def plan(rules: Rules, strategies: Sequence[SeatStrategy], games: int,
         field: SeatStrategy | None) -> tuple[list[list[SeatStrategy]], int, int]:
    """(the seats of every lineup, deals per lineup, games in all) of a ladder of
    ``games`` in all: ``games`` split equally over the lineups, rounded up to whole
    deals."""
    check_entrants(strategies, field)
    n = int(rules["players"])
    table = lineups(len(strategies), n, "rotations", field is not None)
    everyone = [*strategies, *([field] if field is not None else [])]
    per = max(1, -(-games // len(table)))
    return [[everyone[i] for i in lu] for lu in table], per, per * len(table)


def ladder_range(tables: list[Any], table: list[tuple[int, ...]], k: int, seed: int,
                 start: int, n: int, block: int, batch: int, chunks: int) -> dict[str, Any]:
    """The task of a ladder: deals ``start .. start + n`` (``start`` a multiple of
    ``block``) in every lineup, played as the tournament plays them (the same games of
    the seed in every lineup); per block and lineup, the rounds each entrant won and
    the rounds with a winner (capped rounds have none)."""
    nb = -(-n // block)
    wins = np.zeros((nb, len(table), k), np.int64)
    rounds = np.zeros((nb, len(table)), np.int64)
    for li, (t, lineup) in enumerate(zip(tables, table, strict=True)):
        who = np.asarray(lineup, np.int64)  # seat -> entrant
        for first in range(start, start + n, batch):
            m = min(batch, start + n - first)
            rec = np.zeros((m, L.N_G), np.int32)
            play_batch_into(t, ROUND, seed, first, rec, chunks)
            ok = rec[:, L.G_CAPPED] == 0
            b = (np.arange(first, first + m)[ok] - start) // block
            np.add.at(rounds[:, li], b, 1)
            np.add.at(wins[:, li, :], (b, who[rec[ok, L.G_WINNER]]), 1)
    return {"first": start // block, "deals": n, "wins": wins, "rounds": rounds}


class LadderStudy(TournamentStudy):
    """The tournament's lineups, their results kept per block of deals."""

    task = staticmethod(ladder_range)

    def __init__(self, rules: Rules, strategies: list[SeatStrategy], games: int, seed: int,
                 variant: str, field: SeatStrategy | None, stage: str = "ladder") -> None:
        super().__init__(rules, strategies, games, seed, "rotations", variant, stage, field)
        self.block = max(1, -(-self.per // BLOCKS))
        self.blocks = -(-self.per // self.block)
        self.k = len(self.strategies)

    def step(self, backend: Backend) -> int:
        return max(self.block, super().step(backend) // self.block * self.block)

    def check(self, progress: Progress) -> None:
        t = progress.totals
        if (not isinstance(t, dict) or t["wins"].shape != (self.blocks, len(self.table), self.k)
                or progress.step % self.block):
            raise ValueError("the checkpoint holds another ladder")

    def fresh(self) -> dict[str, Any]:
        return {"wins": np.zeros((self.blocks, len(self.table), self.k), np.int64),
                "rounds": np.zeros((self.blocks, len(self.table)), np.int64),
                "deals": np.zeros(self.blocks, np.int64)}

    def tasks(self, step: int) -> Any:
        inner = min(default_batch(ROUND), step)
        return ((s, (self.tables, self.table, self.k, self.seed, s, min(step, self.per - s),
                     self.block, inner, self.chunks))
                for s in range(0, self.per, step))

    def merge(self, totals: dict[str, Any], part: dict[str, Any]) -> None:
        lo = int(part["first"])
        nb = part["wins"].shape[0]
        totals["wins"][lo:lo + nb] += part["wins"]
        totals["rounds"][lo:lo + nb] += part["rounds"]
        sizes = [min(self.block, self.per - (lo + i) * self.block) for i in range(nb)]
        totals["deals"][lo:lo + nb] += np.asarray(sizes, np.int64)

    def units(self, part: dict[str, Any]) -> int:
        return int(part["deals"]) * len(self.table)

    def played(self, totals: dict[str, Any]) -> bool:
        return bool(totals["deals"].any())

    def result(self, totals: dict[str, Any], outcome: Outcome) -> LadderResult:
        seats = np.zeros((len(self.table), self.k), np.int64)
        for li, lineup in enumerate(self.table):
            for s in lineup:
                seats[li, s] += 1
        done = totals["deals"] > 0
        return LadderResult(
            rules=self.rules, labels=entrant_labels(self.strategies[:len(self.strategies)
                                                                    - (self.field is not None)],
                                                    self.field),
            players=self.n, variant=self.variant, seed=self.seed, games=self.games,
            per=self.per, block=self.block, lineups=self.table, seats=seats,
            wins=totals["wins"][done], rounds=totals["rounds"][done],
            deals=int(totals["deals"].sum()), elapsed_s=outcome.elapsed_s,
            workers=outcome.workers, partial=outcome.stopped,
            field=self.field.label() if self.field is not None else None)


class LadderResult:
    """What a ladder played: per block of deals and lineup, each entrant's wins."""

    def __init__(self, **kw: Any) -> None:
        self.rules: Rules = kw["rules"]
        self.labels: list[str] = kw["labels"]
        self.players: int = kw["players"]
        self.variant: str = kw["variant"]
        self.seed: int = kw["seed"]
        self.games: int = kw["games"]
        self.per: int = kw["per"]
        self.block: int = kw["block"]
        self.lineups: list[tuple[int, ...]] = kw["lineups"]
        self.seats: np.ndarray = kw["seats"]
        self.wins: np.ndarray = kw["wins"]
        self.rounds: np.ndarray = kw["rounds"]
        self.deals: int = kw["deals"]
        self.elapsed_s: float = kw["elapsed_s"]
        self.workers: int = kw["workers"]
        self.partial: bool = kw["partial"]
        self.field: str | None = kw["field"]


def run_ladder(rules: Rules, strategies: list[SeatStrategy], games: int, seed: int, *,
               field: SeatStrategy | None = None, variant: str = "official",
               backend: Backend | None = None, workers: int | None = None,
               on_batch: Callable[[int], None] | None = None, keep: Any = None
               ) -> LadderResult:
    """Play the ladder's lineups (see the module's text) for ``games`` in all; a stop
    keeps the finished blocks of deals (``keep``, a ``checkpoints.Keeper``, holds them
    for ``--resume``)."""
    check_entrants(strategies, field)
    study = LadderStudy(rules, list(strategies), games, seed, variant, field)
    return drive(study, backend, workers, on_batch, keep)


def play_ladder(rules: Rules, strategies: Sequence[SeatStrategy], games: int, seed: int, *,
                field: SeatStrategy | None = None, variant: str = "official",
                backend: Backend | None = None, workers: int | None = None,
                on_batch: Callable[[int], None] | None = None, keep: Any = None) -> Any:
    """The ladder of ``strategies`` (its field as :func:`needs_field` says): the
    report, partial after a stop."""
    from unosim.studies.ladder.report import LadderReport

    field = needs_field(int(rules["players"]), field)
    return LadderReport(run_ladder(rules, list(strategies), games, seed, field=field,
                                   variant=variant, backend=backend, workers=workers,
                                   on_batch=on_batch, keep=keep))


def default_strategies() -> list[str]:
    """Every built-in (the search and the card counter included), then every strategy
    loaded from a file."""
    from unosim.strategies.registry import BUILTINS, PLUGINS

    return [*BUILTINS, *PLUGINS]


def entrants(names: Sequence[str], players: int, field: SeatStrategy | None
             ) -> tuple[list[SeatStrategy], SeatStrategy | None]:
    """The strategies of a ladder (``names``, else :func:`default_strategies` less the
    field, which is the anchor) and its field (:func:`needs_field`), checked."""
    field = needs_field(players, field)
    if not names:
        names = [n for n in default_strategies()
                 if field is None or parse_strategy(n).label() != field.label()]
    strats = [parse_strategy(x) for x in names]
    check_entrants(strats, field)
    return strats, field
