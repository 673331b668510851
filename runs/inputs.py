"""The library's input layer: the checks that turn the values a command or a notebook
is given into games, rules, seats, seeds and run settings, each with the one-line
message the command prints (the option's name in it).

The commands parse their options with click (unosim/options.py) and hand the raw
values here; the API and the study rooms call the same checks with typed values.
Nothing here prints: a seed drawn at random is announced by the caller's ``announce``.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from typing import Any

from unosim.errors import UnosimError

#: the highest --target-score
MAX_TARGET = 100_000


def parse_games(text: str, option: str = "--games") -> int:
    """``1e6``, ``1000000`` and ``1_000_000`` all mean one million games (``option``
    names the option in errors)."""
    raw = str(text).strip()
    if raw.startswith("_") or raw.endswith("_"):
        raise UnosimError(f"{option} must be a positive whole number such as 1e6, got {text!r}")
    s = raw.replace("_", "")
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?([eE]\+?[0-9]+)?", s) or "__" in raw:
        raise UnosimError(f"{option} must be a positive whole number such as 1e6, got {text!r}")
    try:
        value = float(s) if any(c in s for c in ".eE") else int(s)
    except (ValueError, OverflowError):
        raise UnosimError(f"{option}: cannot read {text!r} as a number") from None
    if isinstance(value, float) and (math.isinf(value) or value != math.floor(value)):
        raise UnosimError(f"{option} must be a whole number of games, got {text!r}")
    value = int(value)
    if value < 1:
        raise UnosimError(f"{option} must be at least 1, got {text!r}")
    if value > 10**12:
        raise UnosimError(f"{option} must be at most 1e12, got {text!r}")
    return value


def seats_for(players: int, strategy: str, seat: tuple[str, ...]) -> list[Any]:
    """The seat strategies of ``--strategy`` and ``--seat N=NAME``."""
    from unosim.strategies.registry import parse_strategy

    seats = [parse_strategy(strategy)] * players
    for item in seat:
        idx, eq, name = item.partition("=")
        if not eq or not idx.strip().isdigit():
            raise UnosimError(f"--seat expects N=STRATEGY, got {item!r}")
        i = int(idx)
        if not 0 <= i < players:
            raise UnosimError(f"--seat {item}: seat must be within 0..{players - 1}")
        seats[i] = parse_strategy(name)
    return seats


def parse_field(text: str) -> Any:
    """The ``--field`` strategy (an unknown one is an error that names the option)."""
    from unosim.strategies.registry import parse_strategy

    try:
        return parse_strategy(text)
    except UnosimError as e:
        raise UnosimError(f"--field {text}: {e}") from None


def resolve_rules(variant: tuple[str, ...], rule: tuple[str, ...] | list[str],
                  players: int | None) -> Any:
    """The rules of ``--variant`` presets, ``--rule`` overrides and ``--players``."""
    from unosim.simulate.rules import parse_assignment, resolve

    overrides = [parse_assignment(r) for r in rule]
    clash = [v for k, v in overrides if k == "players" and v != players]
    if players is not None and clash:
        raise UnosimError(f"--rule players={clash[0]} contradicts --players {players}; "
                          "give the player count once")
    if players is not None:
        overrides.insert(0, ("players", players))
    return resolve(list(variant), overrides)


def check_skill_games(games: int, players: int) -> None:
    """A skill edge's interval comes from the spread over deals: it needs at least
    two deals in every seat rotation, so ``2 * players`` games (else ``nan%``)."""
    need = 2 * players
    if games < need:
        raise UnosimError(f"--games {games}: the skill edge needs at least {need} games at "
                          f"{players} players (two deals per seat rotation) to give an "
                          "interval")


def pick_seed(seed: int | None, announce: Callable[[int], None] | None = None) -> int:
    """``--seed``, or one drawn at random (handed to ``announce``, if given: the
    commands whose report does not show it print it)."""
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
        if announce is not None:
            announce(seed)
    if seed < 0:
        raise UnosimError(f"--seed must be 0 or more, got {seed}")
    return seed


def target_override(target_score: int | None, mode: str) -> list[str]:
    """``--target-score N`` as a ``--rule`` assignment (checked here for a clear message)."""
    if target_score is None:
        return []
    if not _mode(mode).by_rounds:
        raise UnosimError("--target-score applies to matches: add --mode match")
    if not 1 <= target_score <= MAX_TARGET:
        raise UnosimError(f"--target-score must be within 1..{MAX_TARGET}, got {target_score}")
    return [f"target_score={target_score}"]


def _mode(mode: Any) -> Any:
    """The ``--mode`` word as its ``runs.modes.Mode`` (imported only when asked)."""
    from unosim.runs import modes

    return modes.of(mode)


def check_mode_options(mode: Any, max_rounds: int | None) -> int | None:
    if max_rounds is not None and not _mode(mode).by_rounds:
        raise UnosimError("--max-rounds applies to matches: add --mode match")
    if max_rounds is not None and not 1 <= max_rounds <= 1_000_000:
        raise UnosimError(f"--max-rounds must be within 1..1000000, got {max_rounds}")
    return max_rounds


def check_scheduler(scheduler: str | None, backend: str) -> None:
    if scheduler is not None and backend != "dask":
        raise UnosimError("--scheduler applies to --backend dask")


def check_backend(backend: str, workers: int | None, scheduler: str | None) -> None:
    """The checks of --backend, --workers and --scheduler, before any game is played."""
    check_scheduler(scheduler, backend)
    if backend == "local":
        from unosim.runs.backend import check_workers

        check_workers(workers)


def open_backend(backend: str, workers: int | None, scheduler: str | None) -> Any:
    """The backend the options name (``close()`` it when done)."""
    from unosim.runs.backend import backend_for

    check_backend(backend, workers, scheduler)
    return backend_for(backend, workers, scheduler)
