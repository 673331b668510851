"""The settle study: a claim becomes runs of the existing studies (compare,
tournament, skill, sweep), and their paired intervals become a verdict.

Looks: a claim plays ``games`` (its first look), then twice as many, then four
times, up to ``looks`` looks, and stops at the first look where every place it is
asked about is decided. Each look's interval is a 95% / K interval (Bonferroni over
the K looks planned: z = 2.39 for 3 looks), so the chance that any look of a place
misses the true effect is at most 5% and stopping early keeps the verdict's error
rate at 5%. A later look only plays the games the earlier ones had not (each
stage's finished tasks are kept, the task size a divisor of every look), so a look
costs the new games only, and the totals equal one run of that many games.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from statistics import NormalDist
from typing import Any

from unosim.reports.settle import Cell, Verdict
from unosim.runs import modes
from unosim.runs.backend import Backend, Progress
from unosim.runs.stopping import Stopped
from unosim.studies.claims import Claim
from unosim.studies.settle_stages import (
    first_look_units,
    label_of,
    metric_name,
    stages_of,
    step_for,
)


def z_for(looks: int) -> float:
    """The two-sided 95% z with alpha spent equally over ``looks`` looks (Bonferroni)."""
    return NormalDist().inv_cdf(1 - 0.05 / (2 * looks))


def method(looks: int = 3) -> str:
    return (f"paired intervals of the studies (common random numbers); a claim plays its "
            f"games, then 2x, then 4x (up to {looks} looks) and stops when decided; each "
            f"look's interval has z = {z_for(looks):.3f} (alpha 5% spent equally over the "
            "looks, Bonferroni), so the verdict's error stays at most 5% per place")


def decide(direction: str, margin: float, lo: float, hi: float) -> str:
    """TRUE, FALSE or NOT SHOWN for one place, from its interval of subject - reference."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "NOT SHOWN"
    if direction == "higher":
        return "TRUE" if lo > 0 else "FALSE" if hi < 0 else "NOT SHOWN"
    if direction == "lower":
        return "TRUE" if hi < 0 else "FALSE" if lo > 0 else "NOT SHOWN"
    if -margin <= lo and hi <= margin:
        return "TRUE"
    return "FALSE" if lo > margin or hi < -margin else "NOT SHOWN"


def combine(cells: list[Cell]) -> str:
    """The claim's verdict from its places: one kind everywhere is that kind; holding
    at some and not others is DEPENDS; false at some, not shown at the rest, FALSE."""
    kinds = {c.verdict for c in cells}
    if len(kinds) == 1:
        return kinds.pop()
    return "DEPENDS" if "TRUE" in kinds else "FALSE"


# ---------------------------------------------------------------- a claim


def settle_claim(c: Claim, seed: int, backend: Backend, keep: Any,
                 on_batch: Callable[[int], None] | None = None,
                 command: str = "") -> Verdict:
    """Play ``c`` look by look until every place is decided; a stop (Ctrl-C, SIGTERM)
    returns the verdict so far, marked partial (``keep`` holds what was played)."""
    from unosim.reports.metrics import metrics_for

    t0 = time.perf_counter()
    z = z_for(c.looks)
    played = 0

    def count(n: int) -> None:
        nonlocal played
        played += n
        if on_batch is not None:
            on_batch(n)

    stages = stages_of(c, seed, backend, count)
    u0 = first_look_units(c)
    step = step_for(u0)
    cells: dict[str, list[Cell]] = {}
    partial = False
    for st in stages:
        if keep.stage(st.key) is None:
            keep.stages[st.key] = Progress(step, st.make(step))
        # an interrupted run resumes at the look it was playing: the looks before it
        # were undecided, so its totals hold no more than that look's games
        for look in range(int(keep.stages.get(st.key + "#look", 1)), c.looks + 1):
            keep.stages[st.key + "#look"] = look
            units = u0 << (look - 1)
            try:
                result = st.play(units, keep)
            except Stopped:
                partial = True
                break
            got = [Cell(where, x, lo, hi, games, look, decide(c.direction, c.margin, lo, hi),
                        a, b) for where, x, lo, hi, a, b, games in st.read(result, z)]
            cells[st.key] = got
            if getattr(result, "partial", False) or getattr(getattr(result, "cmp", None),
                                                            "partial", False):
                partial = True
                break
            if all(g.verdict != "NOT SHOWN" for g in got):
                break
        if partial:
            break
    planned = sum(s.units_of(u0 << (c.looks - 1)) for s in stages)
    if not partial and on_batch is not None and planned > played:
        on_batch(planned - played)  # the looks not needed
    every = [x for st in stages for x in cells.get(st.key, [])]
    label, unit, scale = _label(c, metrics_for(c.mode, min(c.players)))
    return Verdict(
        name=c.name, sentence=c.sentence, source=c.source, study=c.study, metric=c.metric,
        label=label, unit=unit, scale=scale, direction=c.direction, margin=c.margin,
        verdict=combine(every) if every else "NOT SHOWN", cells=every, seed=seed,
        games=c.games, looks=c.looks,
        confidence=f"95% over {c.looks} looks (z = {z:.3f}, Bonferroni)",
        command=command, about=about(c, label), partial=partial,
        elapsed_s=time.perf_counter() - t0, played=modes.of(c.mode).unit)


def _label(c: Claim, metrics: list[Any]) -> tuple[str, str, float]:
    if c.study == "tournament":
        return {"ahead": ("share of rounds finished ahead", "pp", 100.0),
                "win_rate": ("round win rate against the fair share", "pp", 100.0),
                "net_points": ("net points per seat and round", "points", 1.0),
                "points_won": ("points won per seat and round", "points", 1.0)}[c.metric]
    if c.study == "skill":
        return "skill edge (0 chance, 1 always wins)", "", 1.0
    if c.metric.startswith("seat_edge"):
        return "seat win rate minus the fair share", "pp", 100.0
    name, _ = metric_name(c.metric, 0)
    for m in metrics:
        if m.name == name:
            return m.label, ("pp" if m.rate else m.unit), (100.0 if m.rate else 1.0)
    return c.metric, "", 1.0


def about(c: Claim, label: str | None = None) -> str:
    """What is compared, in words: ``turns per round, stacking vs official, 4 players,
    random in every seat``."""
    what = label or c.metric
    ps = "/".join(map(str, c.players))
    base = label_of(c.baseline, c.baseline_rules)
    table = f"{ps} players" + (f", {' '.join(c.rules)}" if c.rules else "")
    ref = ("the fair share" if c.value == "fair" else f"{c.value:g}"
           if isinstance(c.value, (int, float)) else "")
    if c.study == "tournament":
        return f"{what}, {c.strategies[0]} vs {c.strategies[1]}, {base}, {table}"
    if c.study == "skill":
        vs = (f"{label_of(c.variant, c.variant_rules)} vs {base}" if c.variant is not None
              else f"{base}, against {ref}")
        return f"{what} of {c.strategy}, {vs}, {table}"
    seats = "" if not c.seat_strategies else ", " + ", ".join(
        f"seat {s} {n}" for s, n in sorted(c.seat_strategies.items()))
    who = f"{c.strategy} in every seat" if not seats else f"{c.strategy}{seats}"
    if c.study == "sweep":
        return f"{what}, each player count vs {c.players[0]}, {base}, {who}"
    vs = (f"{label_of(c.variant, c.variant_rules)} vs {base}" if c.variant is not None
          else f"{base}, against {ref or 0}")
    mode = ", matches" if modes.of(c.mode).by_rounds else ""
    return f"{what}, {vs}, {table}{mode}, {who}"


def settle(claims: list[Claim], seed: int, backend: Backend, keep: Any,
           on_batch: Callable[[int], None] | None = None,
           on_verdict: Callable[[Verdict], None] | None = None,
           commands: dict[str, str] | None = None) -> tuple[list[Verdict], bool]:
    """Every claim in turn on one seed; (verdicts, stopped early)."""
    out = []
    for c in claims:
        v = settle_claim(c, seed, backend, keep, on_batch, (commands or {}).get(c.name, ""))
        out.append(v)
        if on_verdict is not None:
            on_verdict(v)
        if v.partial:
            return out, True
    return out, False
