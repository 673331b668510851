"""Random tables for ``unosim selfcheck``: drawn from (seed, combination number)
alone, then played and checked with the invariants of :mod:`invariants`.

:func:`draw_combo` draws table ``K`` of the stream of a seed (rule overrides,
player count, hand size, a strategy per seat), so a failing table can be drawn
again from its number. :func:`check_combo` runs every check on one table,
:func:`check_one` draws and checks one and reports it as JSON (what the
checking process prints), and :class:`Coverage` counts what was covered.

This is library code, apart from the command (which only orchestrates processes
and renders text), so tests and other callers can draw and check tables without
importing click or a command module.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from unosim.checks.invariants import (
    GAME_COL,
    CheckFailure,
    check_matches,
    check_records,
    play_game_checked,
)
from unosim.errors import UnosimError
from unosim.simulate import layout as L

#: numeric strategy parameters drawn for seats
PARAM_VALUES = (0.0, 0.25, 0.5, 1.0)
#: compiled games per table when a seat searches (``--games`` otherwise)
SEARCH_BATCH_GAMES = 24
SEARCH_MATCHES = 4  # whole matches per table with a search seat (8 otherwise)


@dataclass
class Combo:
    """One random table: rule overrides (``--rule`` form), seat strategies."""

    index: int
    overrides: dict[str, Any]
    seats: list[str]
    rules: Any = None

    def rule_args(self) -> list[str]:
        return [f"--rule {k}={_show(v)}" for k, v in self.overrides.items()]

    def seat_args(self) -> list[str]:
        return [f"--seat {i}={s}" for i, s in enumerate(self.seats)]

    def replay_command(self, seed: int, game: int) -> str:
        return " ".join(["unosim replay", f"--seed {seed}", f"--game {game}",
                         *self.rule_args(), *self.seat_args()])


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


# ---------------------------------------------------------------- drawing tables


def random_overrides(rnd: random.Random) -> dict[str, Any]:
    """Each rule key set with probability 1/2 to a random allowed value."""
    from unosim.simulate.rules import SCHEMA

    pick: dict[str, Any] = {}
    for key, k in SCHEMA.items():
        if rnd.random() < 0.5 or key == "target_score":  # matches use a short target
            continue
        if k.kind == "bool":
            pick[key] = rnd.choice([True, False])
        elif k.kind == "choice":
            pick[key] = rnd.choice(list(k.implemented or k.choices))
        elif k.kind == "float":
            pick[key] = rnd.choice([0.0, 0.1, 0.5, 1.0, round(rnd.random(), 3)])
        elif key == "turn_cap":
            pick[key] = rnd.choice([10, 30, 100, 5000])
        elif key in ("players", "hand_size"):
            continue
        else:
            lo, hi = int(k.lo or 0), int(k.hi if k.hi is not None else 10)
            near = rnd.randint(max(lo, int(k.default) - 2), min(hi, int(k.default) + 2))
            pick[key] = rnd.choice([near, near, rnd.randint(lo, hi)])
    players = rnd.randint(2, 10)
    pick["players"] = players
    pick["hand_size"] = rnd.randint(1, 20) if rnd.random() < 0.2 else rnd.randint(
        1, min(20, 100 // players))
    return pick


def random_seats(rnd: random.Random, players: int) -> list[str]:
    """A strategy per seat: a built-in, sometimes with bluff/challenge/forget."""
    from unosim.strategies.registry import BUILTINS, STRATEGY_PARAMS

    names = list(BUILTINS)
    out = []
    for _ in range(players):
        name = rnd.choice(names)
        params = []
        for key in ("bluff", "challenge", "forget"):
            if rnd.random() < 0.3:
                params.append(f"{key}={rnd.choice(PARAM_VALUES)}")
        for q in STRATEGY_PARAMS.get(name, ()):  # weights and triggers across their domain
            if rnd.random() < 0.3:
                v = rnd.uniform(q.lo, q.hi)
                params.append(f"{q.name}={round(v) if q.integer else round(v, 3)}")
        if name == "search":  # a small budget: selfcheck is about legality
            params.append(f"rollouts={rnd.randint(1, 4)}")
        out.append(name + (":" + ",".join(params) if params else ""))
    return out


def draw_combo(seed: int, index: int) -> tuple[Combo | None, int]:
    """Combination ``index`` of the stream of ``seed``: (combo, tables refused
    before it was found), or (None, refused) after 200 refusals in a row."""
    from unosim.simulate.rules import resolve

    rnd = random.Random(f"unosim-selfcheck-{seed}-{index}")
    refused = 0
    for _ in range(200):
        overrides = random_overrides(rnd)
        try:
            rules = resolve([], list(overrides.items()))
        except UnosimError:
            refused += 1
            continue
        seats = random_seats(rnd, rules["players"])
        return Combo(index, overrides, seats, rules), refused
    return None, refused


# ---------------------------------------------------------------- checks


@dataclass
class Coverage:
    """What a selfcheck (or part of one) covered."""

    combos: int = 0
    refused: int = 0
    python_games: int = 0
    moves: int = 0
    batch_games: int = 0
    capped_games: int = 0
    matches: int = 0
    players: Counter = field(default_factory=Counter)
    strategies: Counter = field(default_factory=Counter)
    values: dict[str, Counter] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"combos": self.combos, "refused": self.refused,
                "python_games": self.python_games, "moves": self.moves,
                "batch_games": self.batch_games, "capped_games": self.capped_games,
                "matches": self.matches, "players": dict(self.players),
                "strategies": dict(self.strategies),
                "values": {k: dict(v) for k, v in self.values.items()}}

    def add_json(self, d: dict[str, Any]) -> None:
        for name in ("combos", "refused", "python_games", "moves", "batch_games",
                     "capped_games", "matches"):
            setattr(self, name, getattr(self, name) + d[name])
        self.players.update({int(k): v for k, v in d["players"].items()})
        self.strategies.update(d["strategies"])
        for key, counts in d["values"].items():
            self.values.setdefault(key, Counter()).update(counts)

    def note(self, combo: Combo) -> None:
        from unosim.simulate.rules import SCHEMA

        self.combos += 1
        self.players[combo.rules["players"]] += 1
        for s in combo.seats:
            self.strategies[s.split(":")[0]] += 1
        for key, v in combo.rules.as_dict().items():
            if key == "target_score":
                continue  # not drawn: matches use a short target of their own
            if SCHEMA[key].kind == "float" and 0 < v < 1:
                shown = "0<p<1"  # probabilities: 0, 1 and in between
            else:
                shown = _show(v)
            self.values.setdefault(key, Counter())[shown] += 1


def check_combo(combo: Combo, seed: int, py_games: int, batch_games: int,
                cov: Coverage) -> None:
    """Every check on one table; raises CheckFailure (or the engine's exception)."""
    from unosim.runs.runner import play_records
    from unosim.strategies.registry import parse_strategy

    rules = combo.rules
    seats = [parse_strategy(s) for s in combo.seats]
    searching = any(s.cost for s in seats)
    if searching:
        # a table with a search seat plays each of its decisions rollouts times over:
        # fewer games, or a seven-rounds table that runs to the turn cap passes for a hang
        batch_games = min(batch_games, SEARCH_BATCH_GAMES)
    rec = play_records(rules, seats, seed, 0, batch_games, chunks=1)
    check_records(rec, rules)
    cov.batch_games += batch_games
    cov.capped_games += int(rec[:, GAME_COL["capped"]].sum())
    for k in range(min(py_games, batch_games)):
        row, moves = play_game_checked(rules, seats, seed, k)
        cov.python_games += 1
        cov.moves += moves
        if not np.array_equal(row, rec[k]):
            diff = [f"{f} {a} vs {b}" for f, a, b in zip(L.GAME_FIELDS, row, rec[k],
                                                         strict=True) if a != b]
            raise CheckFailure(f"game {k}: the Python-driven game and the compiled batch "
                               f"differ: {', '.join(diff[:4])}")
    split = play_records(rules, seats, seed, 0, batch_games, chunks=7)
    if not np.array_equal(split, rec):
        g = int(np.nonzero((split != rec).any(1))[0][0])
        raise CheckFailure(f"game {g}: records depend on the chunking (threads)")
    tail = batch_games // 3
    part = play_records(rules, seats, seed, tail, batch_games - tail, chunks=3)
    if not np.array_equal(part, rec[tail:]):
        g = tail + int(np.nonzero((part != rec[tail:]).any(1))[0][0])
        raise CheckFailure(f"game {g}: records depend on where the batch starts")
    cov.matches += check_matches(rules, seats, seed, n=SEARCH_MATCHES if searching else 8)


def check_one(seed: int, index: int, py_games: int, batch_games: int) -> dict[str, Any]:
    """Draw and check table ``index`` of the stream of ``seed``; a JSON-able report
    of what it covered and of any failure."""
    c, refused = draw_combo(seed, index)
    cov = Coverage(refused=refused)
    out: dict[str, Any] = {"combo": index}
    if c is not None:
        cov.note(c)
        fault = os.environ.get("UNOSIM_SELFCHECK_FAULT", "")  # tests: fail:K or hang:K
        try:
            if fault == f"fail:{index}":
                raise CheckFailure("game 0: injected failure (UNOSIM_SELFCHECK_FAULT)")
            if fault == f"hang:{index}":
                time.sleep(3600)
            check_combo(c, seed, py_games, batch_games, cov)
        except Exception as e:  # noqa: BLE001 - any failure is reported, not raised
            out["failure"] = failure_report(c, seed, f"{type(e).__name__}: {e}", _game_of(e))
    out["coverage"] = cov.to_json()
    return out


def failure_report(c: Combo, seed: int, error: str, game: int) -> dict[str, Any]:
    """A failure as JSON, with the commands that reproduce it (replay the game,
    rerun the table), so a report is enough to find the bug again."""
    return {"combo": c.index, "error": error, "rules": c.rule_args(), "seats": c.seat_args(),
            "replay": c.replay_command(seed, game),
            "rerun": f"unosim selfcheck --seed {seed} --combo {c.index}"}


def _game_of(e: Exception) -> int:
    """The game a failure names (``game K: ...``), else 0."""
    text = str(e)
    if text.startswith("game "):
        head = text[5:].split(":", 1)[0]
        if head.isdigit():
            return int(head)
    return 0
