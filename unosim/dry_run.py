"""``--dry-run``: a command checks its whole input as it would to play (the same
checks, the same one-line errors), then prints what it would play and about how
long it would take, and stops: nothing is played, compiled or written.

The option is declared once (``unosim.options.dry_run``, in every command's
options); a command asks :func:`requested` after its checks and before its first
game, and prints its plan with :func:`show`. The estimate is games times the seconds
a game takes on one core (:data:`SECONDS`, by what sits at the table), divided over
the cores, plus the compile of each path Numba's cache lacks (compiler/cache.py).
It is a rough figure, said as one ("about 3 s", "about 20 min").
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import click

#: where the option's value is kept, in the command's context (click shares ``meta``
#: with every context below the root)
KEY = "unosim.dry_run"

#: seconds one core takes for a round at 4 players (official rules), by what sits at
#: the table: the table itself with built-ins in every seat, and what each seat of a
#: slower kind adds. Measured with ``unosim run`` and ``unosim bench`` (docs'
#: Benchmarks page): the built-ins play some 370,000 rounds a second per core, a
#: table with one search seat (800 rollouts) about 126, one with a Python seat about
#: 750, one with a card counter about 40,000, one with a compiled plug-in about 270,000
SECONDS = {
    "table": 1 / 370_000,
    "search": 1 / 126,  # at 800 rollouts a decision; scales with the rollouts
    "python": 1 / 750,
    "counter": 1 / 60_000,
    "plugin": 1 / 1_000_000,  # a compiled plug-in (an @njit function)
}
#: the rounds of a match (to 500 points, 4 players): a match costs as many rounds
MATCH_ROUNDS = 10


def requested() -> bool:
    """Whether the command line asked for ``--dry-run``."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get(KEY))


def remember(ctx: click.Context, param: Any, value: bool) -> None:
    """The option's callback: keep the flag where :func:`requested` reads it."""
    if value:
        ctx.meta[KEY] = True


# ---------------------------------------------------------------- the estimate


@dataclass
class Work:
    """Games at one kind of table: ``seats`` are the seat strategies (parsed), or a
    sample of them whose mean cost per seat stands for every seat of ``players``."""

    games: int
    seats: Sequence[Any]
    players: int = 4
    mode: str = "round"


def seat_kind(s: Any) -> str:
    """What plays a seat, for the estimate: ``table`` (a built-in), ``search``,
    ``counter``, ``python`` or ``plugin``."""
    from unosim.strategies import registry as R

    return {R.PYTHON: "python", R.PLUGIN: "plugin", R.SEARCH: "search",
            R.OBSERVER: "counter"}.get(s.kind, "table")


def seconds_per_game(w: Work) -> float:
    """One core's seconds for one game (round or match) of ``w``."""
    from unosim.runs.modes import MATCH
    from unosim.runs.modes import of as of_mode
    extra = 0.0
    for s in w.seats:
        kind = seat_kind(s)
        if kind == "search":
            extra += SECONDS["search"] * s.cost / 800
        elif kind != "table":
            extra += SECONDS[kind]
    per_seat = extra / max(1, len(w.seats))
    rounds = MATCH_ROUNDS if of_mode(w.mode) is MATCH else 1
    # a slow seat costs per decision it makes: fewer players, more decisions each
    # (a heads-up round is 36 turns, 18 for each seat, against 12 for each of four)
    decisions = (turns(w.players) / w.players) / (turns(4) / 4)
    return (SECONDS["table"] * turns(w.players) / turns(4)
            + per_seat * w.players * decisions) * rounds


#: turns per round of the built-ins by player count (official rules, ``random``);
#: between and beyond them, the line through 2 and 6 players
TURNS = {2: 36.3, 3: 40.5, 4: 46.6, 6: 59.9}


def turns(players: int) -> float:
    """About how many turns a round of ``players`` takes."""
    if players in TURNS:
        return TURNS[players]
    return TURNS[2] + (TURNS[6] - TURNS[2]) * (players - 2) / 4


def compile_paths(works: Sequence[Work]) -> list[str]:
    """The compile paths the games of ``works`` would compile first: those Numba's
    cache lacks, the plug-in path too while the cache lacks a table's own loop."""
    from unosim.runs import plugin_loops, tiers
    from unosim.runs.compile_notice import is_compiled
    from unosim.runs.modes import MATCH
    from unosim.runs.modes import of as of_mode

    need: list[str] = []
    for w in works:
        kinds = {seat_kind(s) for s in w.seats}
        mode = str(of_mode(w.mode))
        if "plugin" in kinds:
            path = tiers.PLUGINS.name
        elif "python" in kinds:
            path = tiers.PYTHON_SEATS.name
        else:
            path = tiers.tier_of(list(w.seats)).entries[mode].path.name
        if path not in need:
            need.append(path)
    loops = [(list(w.seats), of_mode(w.mode) is MATCH) for w in works
             if "plugin" in {seat_kind(s) for s in w.seats}]
    return [p for p in need
            if not (is_compiled(p) and (p != tiers.PLUGINS.name or all(
                plugin_loops.is_cached(seats, match) for seats, match in loops)))]


def compile_note(paths: Sequence[str]) -> str:
    """``plus 20 to 70 s compiling rounds first`` for ``paths`` (empty: none)."""
    from unosim.runs.compile_notice import ESTIMATE_S

    if not paths:
        return ""
    lo = sum(ESTIMATE_S.get(p, (10, 60))[0] for p in paths)
    hi = sum(ESTIMATE_S.get(p, (10, 60))[1] for p in paths)
    return f" (plus {lo} to {hi} s compiling {', '.join(paths)} first)"


def about(seconds: float) -> str:
    """A duration said roughly: ``under a second``, ``about 40 s``, ``about 20 min``."""
    if seconds < 1:
        return "under a second"
    if seconds < 90:
        return f"about {_round(seconds)} s"
    if seconds < 90 * 60:
        return f"about {_round(seconds / 60)} min"
    if seconds < 48 * 3600:
        return f"about {_round(seconds / 3600)} h"
    return f"about {_round(seconds / 86400)} days"


def _round(x: float) -> str:
    """Two significant figures at most, as a whole number."""
    if x < 10:
        return f"{max(1, round(x))}"
    digits = len(str(int(x))) - 2
    return f"{round(x, -digits):,.0f}"


def cores(workers: int | None) -> int:
    """The cores the games run on: --workers, else all of this machine's."""
    return max(1, workers or os.cpu_count() or 1)


#: settle plays each claim's study in small blocks, look after look, and reads its
#: intervals between them: measured, `settle --all` and `--error-rate` take about four
#: times the time of their games alone
SETTLE_SLOWER = 4.0


def estimate(works: Sequence[Work], workers: int | None, backend: str = "local",
             fixed_s: float = 0.0, upto: Sequence[Work] | None = None,
             slower: float = 1.0) -> str:
    """The time line: the games of ``works`` on the cores (``upto``: the most it may
    play, for a study that stops when its answer is clear), ``slower`` times what the
    games alone take, ``fixed_s`` besides, and the compiles first."""
    n = cores(workers) / slower
    low = sum(w.games * seconds_per_game(w) for w in works)
    where = f"on {cores(workers)} core{'s' if cores(workers) > 1 else ''}"
    if backend == "dask":
        n = 1 / slower
        where = "on one core; a Dask cluster divides it by its cores"
    text = about(low / n + fixed_s)
    if upto is not None:
        high = sum(w.games * seconds_per_game(w) for w in upto) / n + fixed_s
        top = about(high).removeprefix("about ")
        if about(high) != text:
            lo_num, _, lo_unit = text.removeprefix("about ").partition(" ")
            same = lo_unit == top.partition(" ")[2] and text.startswith("about ")
            text = f"about {lo_num} to {top}" if same else f"{text} to {top}"
    return f"{text} {where}{compile_note(compile_paths([*works, *(upto or ())]))}"


# ---------------------------------------------------------------- the plan


@dataclass
class Plan:
    """What a command would do: rows of (what, value), and the time line."""

    command: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    time: str = ""

    def add(self, what: str, value: Any) -> Plan:
        self.rows.append((what, str(value)))
        return self

    def timed(self, works: Sequence[Work], workers: int | None, backend: str = "local",
              **kw: Any) -> Plan:
        """The time line, from :func:`estimate`."""
        self.time = estimate(works, workers, backend, **kw)
        return self

    def text(self) -> str:
        width = max([len(w) for w, _ in self.rows] + [4])
        lines = [f"unosim {self.command} --dry-run: everything checked; nothing played "
                 "or written"]
        lines += [f"  {w:<{width}}  {v}" for w, v in self.rows]
        if self.time:
            lines.append(f"  {'time':<{width}}  {self.time}")
        return "\n".join(lines)


def show(plan: Plan) -> None:
    """Print the plan (stdout)."""
    click.echo(plan.text())


def seats_text(seats: Sequence[Any], first: int = 0) -> str:
    """``random in every seat``, or each seat's strategy: ``0=search, 1..3=random``
    (``first``: the number of the first seat given)."""
    labels = [s.label() for s in seats]
    if len(set(labels)) == 1:
        return f"{labels[0]} in every seat"
    parts, i = [], 0
    while i < len(labels):
        j = i
        while j + 1 < len(labels) and labels[j + 1] == labels[i]:
            j += 1
        a, b = i + first, j + first
        parts.append(f"{a}={labels[i]}" if i == j else f"{a}..{b}={labels[i]}")
        i = j + 1
    return ", ".join(parts)


def rules_text(name: str, rules: Any) -> str:
    """``stacking, 4 players`` and the rule keys changed from the preset's."""
    return f"{name}, {int(rules['players'])} players"


def variants_text(variants: Sequence[Any]) -> str:
    """``official, stacking (4 players)`` for VariantSpecs (each its player count
    where they differ)."""
    counts = {int(v.rules["players"]) for v in variants}
    if len(counts) == 1:
        return f"{', '.join(v.name for v in variants)} ({counts.pop()} players)"
    return ", ".join(f"{v.name} ({int(v.rules['players'])} players)" for v in variants)


def seed_or_zero(seed: int | None) -> int:
    """A seed to count games with (the count does not depend on it)."""
    return 0 if seed is None else seed


def seed_text(seed: int | None) -> str:
    """The seed row: --seed (checked as the command checks it), or drawn when it runs."""
    if seed is None:
        return "drawn at random when it runs"
    from unosim.runs.inputs import pick_seed

    return str(pick_seed(seed))


def out_text(out: Any, files: str) -> str | None:
    return None if out is None else f"{out} ({files})"
