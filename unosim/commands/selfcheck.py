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

The checks themselves are library code: the invariants in
:mod:`unosim.checks.invariants` (tests/simulate/test_playouts.py and
tests/simulate/test_properties.py run them too), drawing and checking a table in
:mod:`unosim.checks.combos`. This module runs them in a child process
(watched for hangs and crashes) and renders what they covered.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import click

from unosim import dry_run
from unosim.checks.combos import Coverage, check_one, draw_combo, failure_report
from unosim.common import module_command
from unosim.errors import UnosimError
from unosim.options import dry_run as dry_run_option


def worker(seed: int, first: int, last: int | None, deadline: float, py_games: int,
           batch_games: int) -> None:
    """The checking process: warm up, then one JSON line per table checked (the
    parent watches for hangs and crashes, see :func:`run_selfcheck`)."""
    from unosim.runs.runner import warm_up

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
    cmd = module_command("unosim.commands.selfcheck", json.dumps(
        [seed, first, last, deadline, py_games, batch_games]))
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
@dry_run_option
def selfcheck(minutes: float, seed: int | None, combo: int | None, games_text: str,
              python_games: int, hang_seconds: float) -> None:
    """Play random rule combinations, player counts and strategies and check every
    invariant (cards conserved, legal moves only, termination or the cap, consistent
    scores, same records however the games are split). Exit code 1 on a failure,
    printed with the seed and rules to reproduce it."""
    from unosim.runs.inputs import parse_games

    if not 0 < minutes <= 24 * 60 or minutes != minutes:
        raise UnosimError(f"--minutes must be more than 0 and at most 1440, got {minutes}")
    games = parse_games(games_text)
    if games > 100_000:
        raise UnosimError(f"--games must be at most 100000 per table, got {games_text!r}")
    if python_games > games:
        raise UnosimError(f"--python-games ({python_games}) cannot be more than --games "
                          f"({games})")
    if dry_run.requested():
        dry_run.show(dry_run.Plan("selfcheck")
                     .add("tables", f"table {combo} of the stream" if combo is not None
                          else "random rule combinations, player counts and strategies")
                     .add("games", f"{games:,} per table, {python_games} of them move by "
                                   "move with every check")
                     .add("seed", seed if seed is not None else "drawn at random when it runs")
                     .add("time", "a table's games" if combo is not None
                          else f"{dry_run.about(minutes * 60)} (--minutes)"))
        return
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
