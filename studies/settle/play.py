"""The typed entry of ``unosim settle``: the claims asked (by name, from files, or the
whole catalogue) with the run's games and player count, played on one seed through a
backend at the run's error into a :class:`~unosim.studies.settle.report.SettleReport`,
each verdict with the command that reproduces it.

``unosim.api.settle`` and the command call :func:`ask`, then :func:`play`; the command
adds its checkpoint (``keep``), its progress bar and the lines it prints as each
verdict is decided.
"""

from __future__ import annotations

import math
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from unosim.errors import UnosimError
from unosim.runs.backend import Backend
from unosim.runs.checkpoint import Keeper
from unosim.studies.settle import claims  # its catalogue looked up at each call
from unosim.studies.settle.claims import Claim, check_claim
from unosim.studies.settle.looks import ALPHA, family_text, method, settle
from unosim.studies.settle.report import SettleReport
from unosim.studies.settle.stages import planned_units
from unosim.studies.settle.verdicts import Verdict, settle_summary

#: the batch callback of a run (games finished)
OnBatch = Callable[[int], None]
#: how a run is played under a progress bar: ``progress(total, job)`` calls
#: ``job(on_batch)`` and returns what it returns (the command's bar, the API's signals)
Progress = Callable[[int, Callable[[OnBatch | None], Any]], Any]


@dataclass(frozen=True)
class ErrorShare:
    """The error of a run: ``share`` over ``over`` (``--alpha 0.05/28`` is 0.05 over
    28, one claim's share of 28), written back so in the commands that reproduce a
    verdict."""

    share: float
    over: int = 1

    @property
    def value(self) -> float:
        return self.share / self.over

    def __str__(self) -> str:
        return repr(self.share) if self.over == 1 else f"{self.share!r}/{self.over}"


def error_share(text: str | float) -> ErrorShare:
    """``--alpha``: a share within (0, 1), or a share over a count (``0.05/28``)."""
    share, _, count = str(text).strip().partition("/")
    try:
        s, n = float(share), int(count) if count else 1
        value = s / n
    except (ValueError, ZeroDivisionError):
        value = math.nan
    if not 0 < value < 1:
        raise UnosimError(f"--alpha must be a share within (0, 1) such as 0.05, or one over "
                          f"a count such as 0.05/28, got {str(text)!r}")
    return ErrorShare(s, n)


def parse_alpha(text: str | float | None) -> float:
    """The error ``--alpha`` gives (5% when None)."""
    return ALPHA if text is None else error_share(text).value


@dataclass(frozen=True)
class Asked:
    """What a settle run asks: its claims, checked, with the run's ``games`` (each
    claim's first look) and ``players`` put in; ``every``: the whole catalogue, whose
    error is shared over its claims."""

    claims: list[Claim]
    games: int | None = None
    players: int | None = None
    every: bool = False

    @property
    def family(self) -> bool:
        return self.every and len(self.claims) > 1


def ask(names: Sequence[str] = (), every: bool = False, games: int | None = None,
        players: int | None = None) -> Asked:
    """The claims ``names`` (of the catalogue, or ``FILE.toml``), or ``every`` claim of
    the catalogue, with ``games`` at each claim's first look and ``players`` at the
    table instead of the claim's own; refused in one line before any game."""
    if not names and not every:
        raise UnosimError("name the claims to settle, or settle them all")
    if names and every:
        raise UnosimError("give claims or --all, not both")
    chosen = claims.catalogue() if every else claims.find_claims(tuple(names))
    return Asked([_override(c, games, players) for c in chosen], games, players, every)


def _override(c: Claim, games: int | None, players: int | None) -> Claim:
    if games is not None:
        c = replace(c, games=games)
    if players is not None:
        if c.study == "sweep":
            raise UnosimError(f"claim {c.name!r} sweeps the player count; --players applies "
                              "to the other claims")
        c = replace(c, players=(players,), seats=None if c.seats is None else tuple(
            s for s in c.seats if s < players) or (0,))
        check_claim(c, f"claim {c.name} with --players {players}")
    return c


def play(asked: Asked, seed: int, backend: Backend, keep: Keeper | None = None, *,
         alpha: ErrorShare | None = None, on_verdict: Callable[[Verdict], None] | None = None,
         progress: Progress | None = None) -> SettleReport:
    """Settle the claims ``asked`` on ``seed`` through ``backend`` at error ``alpha`` (of
    each claim, or of the catalogue's family; 5% when None): the report, partial after
    a stop (Ctrl-C, SIGTERM; ``keep`` holds what was played). ``on_verdict`` hears each
    verdict as it is decided."""
    chosen = asked.claims
    error = ALPHA if alpha is None else alpha.value
    keep = keep if keep is not None else Keeper(None, "settle", {})
    claim_alpha = ErrorShare(error, len(chosen)) if asked.family else alpha
    commands = {c.name: reproduce(c, seed, asked.games, asked.players, claim_alpha)
                for c in chosen}
    total = sum(planned_units(c, seed, backend) for c in chosen)
    run = progress if progress is not None else (lambda _, job: job(None))
    t0 = time.perf_counter()
    verdicts, partial = run(total, lambda cb: settle(chosen, seed, backend, keep, cb,
                                                     on_verdict, commands, error,
                                                     asked.family))
    elapsed = time.perf_counter() - t0
    said = family_text(len(chosen), error, asked.family)  # the alpha each line was read at
    summary = settle_summary(verdicts, seed, partial, elapsed, method(), said, error,
                             asked.family)
    return SettleReport(verdicts, summary, asked=len(chosen))


def reproduce(c: Claim, seed: int, games: int | None = None, players: int | None = None,
              alpha: ErrorShare | None = None) -> str:
    """The command that settles ``c`` alone as this run did: its name or file, the seed,
    the strategy files it needs, and the run's games, players and (its share of) the
    error."""
    from unosim.strategies.registry import PLUGINS

    words = ["unosim", "settle", c.path or c.name, "--seed", str(seed)]
    named = {x.split(":")[0] for x in (c.strategy, *c.seat_strategies.values(),
                                       *c.strategies)}
    for name in sorted(named & set(PLUGINS)):  # the strategy files it needs, again
        if not PLUGINS[name].source.startswith("<python>"):
            words += ["--strategy-file", PLUGINS[name].source]
    if games is not None:
        words += ["--games", str(games)]
    if players is not None:
        words += ["--players", str(players)]
    if alpha is not None:
        words += ["--alpha", str(alpha)]
    return " ".join(shlex.quote(w) for w in words)
