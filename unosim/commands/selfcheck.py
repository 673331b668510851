"""``unosim selfcheck``: random rule combinations, player counts and strategies,
played and checked for as long as asked.

Each *combination* is drawn from (seed, combination number) alone, so any one
can be regenerated (``--combo K``). For each accepted combination (``resolve``
refuses some, which are counted and skipped) the check

1. plays a few games move by move from Python (:class:`Game`), checking after
   every move that cards are conserved, that each hand's derived columns (colour
   and wild counts, size, points) agree with its cards, that the O(1) playable count
   agrees with the legal-move list, and that every move the strategies chose was
   legal (``Game.apply`` refuses anything else); then that the round ended with
   one winner holding no cards (or places 1..n under elimination) and consistent
   points, or was capped at ``turn_cap``; and that its final record equals the
   compiled batch's record of the same game, field by field;
2. plays a compiled batch and checks every record: capped rounds have no winner,
   others a seated winner, points consistent with the scoring rule, turns within
   the cap, nothing in the columns of empty seats;
3. checks that the batch's records do not depend on how games are split into
   chunks (threads) or where a batch starts;
4. plays a few whole matches of the table (a short target) and checks that each
   is decided or capped at ``max_rounds``, that every round played had a winner
   or hit the turn cap, and that matches do not depend on chunks or offsets.

The same checks back tests/test_properties.py (hypothesis, bounded for CI);
tests/test_playouts.py runs the per-move checks here (``check_state``,
``check_end``) over every preset.
"""

from __future__ import annotations

import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import click
import numpy as np

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.simulate.invariants import (
    GAME_COL,
    CheckFailure,
    check_matches,
    check_records,
    play_game_checked,
)

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
    from unosim.simulate.runner import play_records
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
    return {"combo": c.index, "error": error, "rules": c.rule_args(), "seats": c.seat_args(),
            "replay": c.replay_command(seed, game),
            "rerun": f"unosim selfcheck --seed {seed} --combo {c.index}"}


def worker(seed: int, first: int, last: int | None, deadline: float, py_games: int,
           batch_games: int) -> None:
    """The checking process: warm up, then one JSON line per table checked (the
    parent watches for hangs and crashes, see :func:`run_selfcheck`)."""
    from unosim.simulate.runner import warm_up

    warm_up()
    print(json.dumps({"ready": True}), flush=True)
    index = first
    while (last is None or index <= last) and time.time() < deadline:
        print(json.dumps({"start": index}), flush=True)
        print(json.dumps(check_one(seed, index, py_games, batch_games)), flush=True)
        index += 1
    print(json.dumps({"end": index}), flush=True)


def run_selfcheck(
    minutes: float, seed: int, py_games: int = 3, batch_games: int = 500,
    combo: int | None = None, max_failures: int = 5, hang_seconds: float = 120.0,
    echo: Callable[[str], None] = print,
) -> Coverage:
    """Check random tables until ``minutes`` have passed (or only table ``combo``).

    The checks run in a child process: a table whose games never end (the compiled
    loop cannot be interrupted) or that crashes the engine is reported as a
    failure with its rules, and checking goes on with the next table in a new
    child."""
    cov = Coverage()
    deadline = time.time() + minutes * 60
    index = combo if combo is not None else 0
    last = combo
    while (last is None or index <= last) and time.time() < deadline:
        index = _run_worker(seed, index, last, deadline, py_games, batch_games, hang_seconds,
                            cov, echo)
        if len(cov.failures) >= max_failures:
            break
    return cov


def _run_worker(seed: int, first: int, last: int | None, deadline: float, py_games: int,
                batch_games: int, hang_seconds: float, cov: Coverage,
                echo: Callable[[str], None]) -> int:
    """One child process from table ``first``; return the next table to check."""
    cmd = [sys.executable, "-m", "unosim.commands.selfcheck", json.dumps(
        [seed, first, last, deadline, py_games, batch_games])]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    current = first
    ready = False
    wait = max(900.0, hang_seconds)  # the first wait includes compiling the engine
    try:
        while True:
            try:
                line = lines.get(timeout=wait)
            except queue.Empty:
                proc.kill()
                if not ready:
                    raise UnosimError(
                        f"selfcheck: the checking process did not start within {wait:.0f} s"
                    ) from None
                _fail_hang(seed, current, hang_seconds, cov, echo)
                return current + 1
            if line is None:  # the child ended
                proc.wait()
                if proc.returncode != 0:
                    err = (proc.stderr.read() if proc.stderr else "").strip().splitlines()
                    c, _ = draw_combo(seed, current)
                    msg = f"the checking process died (exit {proc.returncode}): " + (
                        err[-1] if err else "no message")
                    if c is None:
                        raise UnosimError(f"selfcheck: {msg}")
                    _record_failure(failure_report(c, seed, msg, 0), cov, echo)
                    return current + 1
                return current
            msg = json.loads(line)
            if "ready" in msg:
                ready, wait = True, hang_seconds
            elif "start" in msg:
                current = msg["start"]
            elif "end" in msg:
                current = msg["end"]
            elif "coverage" in msg:
                cov.add_json(msg["coverage"])
                if "failure" in msg:
                    _record_failure(msg["failure"], cov, echo)
                current = msg["combo"] + 1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _record_failure(f: dict[str, Any], cov: Coverage, echo: Callable[[str], None]) -> None:
    cov.failures.append(f)
    echo(render_failure(f))


def _fail_hang(seed: int, index: int, seconds: float, cov: Coverage,
               echo: Callable[[str], None]) -> None:
    c, refused = draw_combo(seed, index)
    if c is None:
        return
    cov.refused += refused
    cov.note(c)
    _record_failure(failure_report(
        c, seed, f"Hang: no result within {seconds:.0f} s (a game that never ends, or a deal "
        "that never finishes)", 0), cov, echo)


def _game_of(e: Exception) -> int:
    """The game a failure names (``game K: ...``), else 0."""
    text = str(e)
    if text.startswith("game "):
        head = text[5:].split(":", 1)[0]
        if head.isdigit():
            return int(head)
    return 0


def render_failure(f: dict[str, Any]) -> str:
    return "\n".join([
        f"FAILURE in combination {f['combo']}: {f['error']}",
        "  rules: " + (" ".join(f["rules"]) or "official"),
        "  seats: " + " ".join(f["seats"]),
        f"  replay the game: {f['replay']}",
        f"  rerun the check: {f['rerun']}",
    ])


def render_coverage(cov: Coverage, seed: int, seconds: float) -> str:
    lines = [
        f"unosim selfcheck · seed {seed} · {seconds:.0f} s",
        f"combinations: {cov.combos:,} checked ({cov.refused:,} more drawn and refused by "
        "the rule validation)",
        f"games: {cov.python_games:,} move by move ({cov.moves:,} moves, every one checked), "
        f"{cov.batch_games:,} compiled ({cov.capped_games:,} capped), each compiled batch "
        "replayed in 7 chunks and from an offset",
        f"matches: {cov.matches:,} (target 150, or 3 round wins under lazy; chunks and "
        "offsets checked too)",
        "players: " + ", ".join(f"{k}: {v}" for k, v in sorted(cov.players.items())),
        "strategies (seats): " + ", ".join(f"{k}: {v}" for k, v in
                                          sorted(cov.strategies.items())),
        "rule values covered (combinations per value):",
    ]
    for key, counts in cov.values.items():
        shown = ", ".join(f"{v}: {n}" for v, n in sorted(counts.items(), key=_value_order))
        lines.append(f"  {key:<26} {shown}")
    if cov.failures:
        lines.append(f"FAILED: {len(cov.failures)} combination(s); see above")
    else:
        lines.append("no failures")
    return "\n".join(lines)


def _value_order(item: tuple[str, int]) -> tuple[int, float, str]:
    v = item[0]
    try:
        return (0, float(v), v)
    except ValueError:
        return (1, 0.0, v)


@click.command()
@click.option("--minutes", type=float, default=1.0, show_default=True,
              help="How long to keep drawing and checking tables.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the stream of tables (default: random, printed).")
@click.option("--combo", type=click.IntRange(min=0), default=None,
              help="Check only table K of the stream of --seed (to rerun a failure).")
@click.option("--games", "games_text", default="500", show_default=True,
              help="Compiled games per table.")
@click.option("--python-games", type=click.IntRange(0, 1000), default=3, show_default=True,
              help="Of those, games played move by move with every check.")
@click.option("--hang-seconds", type=click.FloatRange(1, 3600), default=120, show_default=True,
              help="A table with no result after this long is reported as a hang.")
def selfcheck(minutes: float, seed: int | None, combo: int | None, games_text: str,
              python_games: int, hang_seconds: float) -> None:
    """Play random rule combinations, player counts and strategies and check every
    invariant (cards conserved, legal moves only, termination or the cap, consistent
    scores, same records however the games are split). Exit code 1 on a failure,
    printed with the seed and rules to reproduce it."""
    from unosim.options import parse_games

    if not 0 < minutes <= 24 * 60 or minutes != minutes:
        raise UnosimError(f"--minutes must be more than 0 and at most 1440, got {minutes}")
    games = parse_games(games_text)
    if games > 100_000:
        raise UnosimError(f"--games must be at most 100000 per table, got {games_text!r}")
    if python_games > games:
        raise UnosimError(f"--python-games ({python_games}) cannot be more than --games "
                          f"({games})")
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    click.echo(f"unosim selfcheck: seed {seed}, {minutes:g} min", err=True)
    t0 = time.monotonic()
    cov = run_selfcheck(minutes, seed, py_games=python_games, batch_games=games, combo=combo,
                        hang_seconds=hang_seconds, echo=lambda text: click.echo(text, err=True))
    click.echo(render_coverage(cov, seed, time.monotonic() - t0))
    if cov.failures:
        sys.exit(1)


if __name__ == "__main__":
    worker(*json.loads(sys.argv[1]))
