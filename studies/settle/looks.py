"""The settle study: a claim becomes runs of the existing studies (compare,
tournament, skill, sweep), and their paired intervals become a verdict
(``stats.verdicts`` holds the rules and the statistics).

Margins: every claim has the smallest difference that matters (its own ``margin``,
else its metric's default). A place (a player count or a seat) is TRUE when its
interval lies beyond +margin in the claimed direction, FALSE beyond it the other
way, NO REAL DIFFERENCE when it lies inside +-margin, and undecided otherwise.

Looks: a claim plays ``games`` (its first look), then twice as many, then four
times, up to ``looks`` looks, and stops at the first look where every place it is
asked about is decided (a place keeps the verdict of the first look that decides
it); a place still undecided at the last look is NOT SHOWN, with the games that
would likely decide it. Each look's interval uses the z of an O'Brien-Fleming
alpha-spending boundary over the planned looks, so all of a place's intervals hold
the truth together with the stated level, however early the claim stops. A claim's
error is split over its places (Bonferroni), and under ``--all`` the error of the
whole catalogue over its claims. A later look only plays the games the earlier ones
had not (each stage's finished tasks are kept, the task size a divisor of every
look), so a look costs the new games only, and the totals equal one run of that many
games.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from unosim.runs import modes
from unosim.runs.backend import Backend, Progress
from unosim.runs.stopping import Stopped
from unosim.stats import verdicts as vs
from unosim.studies.settle.claims import Claim
from unosim.studies.settle.stages import (
    first_look_units,
    label_of,
    metric_name,
    places_of,
    stages_of,
    step_for,
)
from unosim.studies.settle.verdicts import Cell, Verdict

#: the error of a run: of each claim, or under ``--all`` of the whole catalogue
ALPHA = 0.05
#: how the error is shared over the claims of ``--all`` (see ``stats.verdicts``)
FAMILY = "bonferroni"
KIND_NAMES = {"obrien-fleming": "O'Brien-Fleming", "pocock": "Pocock",
              "bonferroni": "Bonferroni over the looks",
              "mixture": "normal-mixture confidence sequence"}
DECIDED = (vs.TRUE, vs.FALSE, vs.NO_DIFFERENCE)


def plan(c: Claim, alpha: float = ALPHA, kind: str = vs.DEFAULT_KIND) -> vs.Boundary:
    """The boundary of each of ``c``'s places: its looks (1x, 2x, 4x ... the first),
    at the claim's error ``alpha`` split over its places."""
    place = vs.family_alphas({c.name: places_of(c)}, alpha)[c.name].place
    return vs.boundary([1 << k for k in range(c.looks)], place, kind)


def percent(p: float) -> str:
    """A level in percent: as few decimals as give it exactly (95%, 98.75%), else two
    figures of what it misses (99.77%)."""
    miss = 100.0 * (1.0 - p)
    if miss <= 0:
        return "100%"
    for d in range(4):
        if abs(round(100.0 * p, d) - 100.0 * p) < 1e-7:
            return f"{100.0 * p:.{d}f}%"
    return f"{100.0 * p:.{max(0, 1 - math.floor(math.log10(miss)))}f}%"


def level_text(b: vs.Boundary, places: int = 1) -> str:
    """``95% over 3 looks (O'Brien-Fleming: z = 4.33, 2.96, 1.97)``: the level all of
    a place's intervals have together, and each look's z."""
    zs = ", ".join(f"{z:.2f}" if math.isfinite(z) else "none" for z in b.z)
    where = f" at each of {places} places" if places > 1 else ""
    if len(b.z) == 1:
        return f"{percent(b.level)}{where} (z = {zs})"
    return f"{percent(b.level)}{where} over {len(b.z)} looks ({KIND_NAMES[b.kind]}: z = {zs})"


def method() -> str:
    """How the verdicts are made, in a sentence (the summary's ``method``)."""
    return ("paired intervals of the studies (common random numbers) against each claim's "
            "margin, the smallest difference that matters; a claim plays its games, then "
            "2x, then 4x (up to its looks, 3 by default) and stops at the first look that "
            "decides every place; the intervals spend the error over the looks "
            "(O'Brien-Fleming), so they hold together however early a claim stops (each "
            "line gives their level and z); a claim asked at several places splits its "
            "error over them")


def family_text(n: int, alpha: float, family: bool) -> str:
    """What the run's verdicts are sure of: ``family-wise error at most 5% over 28
    claims (Bonferroni: each claim at 0.18%)``, or each claim's own error."""
    if family and n > 1:
        return (f"family-wise error at most {_pct(alpha)} "
                f"over {n} claims (Bonferroni: each claim at {_pct(alpha / n)})")
    return f"each claim's error at most {_pct(alpha)}"


def _pct(a: float) -> str:
    """An error in percent, two figures: 5%, 0.23%."""
    x = 100.0 * a
    d = max(0, 1 - math.floor(math.log10(x))) if x > 0 else 0
    text = f"{x:.{d}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + "%"


# ---------------------------------------------------------------- a claim


def _cell(row: tuple[Any, ...], look: int, z: float, verdict: str) -> Cell:
    where, x, lo, hi, a, b, games = row
    return Cell(where, x, lo, hi, games, look, verdict, a, b, z)


def _keepable(c: Cell) -> list[Any]:
    return [c.where, c.effect, c.low, c.high, c.games, c.look, c.verdict, c.subject,
            c.reference, c.z]


def settle_claim(c: Claim, seed: int, backend: Backend, keep: Any,
                 on_batch: Callable[[int], None] | None = None,
                 command: str = "", alpha: float = ALPHA) -> Verdict:
    """Play ``c`` look by look until every place is decided, at error ``alpha`` (the
    claim's share of the run's); a stop (Ctrl-C, SIGTERM) returns the verdict so far,
    marked partial (``keep`` holds what was played)."""
    from unosim.reports.metrics import metrics_for

    t0 = time.perf_counter()
    bound = plan(c, alpha)
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
    stage_games: dict[str, int] = {}
    partial = False
    for st in stages:
        if keep.stage(st.key) is None:
            keep.stages[st.key] = Progress(step, st.make(step))
        # a place keeps the verdict of the first look that decides it (kept in the
        # checkpoint too: an interrupted run resumes at the look it was playing)
        decided = {int(i): Cell(*row) for i, row in
                   dict(keep.stages.get(st.key + "#decided", {})).items()}
        latest: list[Cell] = []
        for look in range(int(keep.stages.get(st.key + "#look", 1)), c.looks + 1):
            keep.stages[st.key + "#look"] = look
            z = bound.z[look - 1]
            at_cap = look == c.looks
            if not math.isfinite(z) and not at_cap:
                continue  # this look spends no error: the next one plays its games too
            try:
                result = st.play(u0 << (look - 1), keep)
            except Stopped:
                partial = True
                break
            cut = getattr(result, "partial", False) or getattr(
                getattr(result, "cmp", None), "partial", False)
            rows = st.read(result, z)
            stage_games[st.key] = max((row[6] for row in rows), default=0)
            if cut:
                # a look cut short decides nothing, neither here nor in the checkpoint:
                # --resume plays the rest of this look and decides on all of it, as the
                # uninterrupted run does; the partial report shows these games undecided
                latest = [_cell(row, look, z, vs.UNDECIDED) for row in rows]
                partial = True
                break
            latest = [_cell(row, look, z, vs.decide(c.direction, row[2], row[3], c.margin,
                                                    at_cap))
                      for row in rows]
            for i, cell in enumerate(latest):
                if i not in decided and cell.verdict in DECIDED:
                    decided[i] = cell
            keep.stages[st.key + "#decided"] = {str(i): _keepable(x)
                                                for i, x in decided.items()}
            if vs.settled([decided.get(i, x).verdict for i, x in enumerate(latest)]):
                break
        cells[st.key] = [decided.get(i, x) for i, x in enumerate(latest)]
        for x in cells[st.key]:
            if x.verdict == vs.UNDECIDED:  # stopped before its cap (DEPENDS, or a stop)
                x.verdict = vs.NOT_SHOWN
        if partial:
            break
    planned = sum(s.units_of(u0 << (c.looks - 1)) for s in stages)
    if not partial and on_batch is not None and planned > played:
        on_batch(planned - played)  # the looks not needed
    every = [x for st in stages for x in cells.get(st.key, [])]
    verdict = vs.combine([x.verdict for x in every]) if every else vs.NOT_SHOWN
    label, unit, scale = _label(c, metrics_for(c.mode, min(c.players)))
    need, suggest = (_needed(c, bound, stages, cells, stage_games)
                     if verdict == vs.NOT_SHOWN and not partial and every else (None, None))
    return Verdict(
        name=c.name, sentence=c.sentence, source=c.source, study=c.study, metric=c.metric,
        label=label, unit=unit, scale=scale, direction=c.direction, margin=c.margin,
        verdict=verdict, cells=every, seed=seed, games=c.games, looks=c.looks,
        confidence=level_text(bound, places_of(c)), command=command, about=about(c, label),
        partial=partial, elapsed_s=time.perf_counter() - t0, played=modes.of(c.mode).unit,
        own_margin=c.own_margin, alpha=alpha, level=bound.level, z=list(bound.z),
        boundary=bound.kind, places=places_of(c), games_total=sum(stage_games.values()),
        games_needed=need, games_suggested=suggest)


def _needed(c: Claim, bound: vs.Boundary, stages: list[Any], cells: dict[str, list[Cell]],
            stage_games: dict[str, int]) -> tuple[float, int | None]:
    """(about how many games in all would likely decide the claim, the ``--games`` that
    plays about that many at its last look): each place left undecided at the cap needs
    ``stats.verdicts.games_needed`` at the cap's z; a decided stage keeps its games."""
    z = bound.z[-1]
    total = 0.0
    factor = 1.0
    for st in stages:
        played = stage_games.get(st.key, 0)
        need = float(played)
        for x in cells.get(st.key, []):
            if x.verdict != vs.NOT_SHOWN or x.look != c.looks:
                continue
            se = (x.high - x.low) / (2 * x.z) if math.isfinite(x.z) and x.z > 0 else math.nan
            need = max(need, vs.games_needed(x.effect, se, x.games, c.margin, z))
        total += need
        if played > 0:
            factor = max(factor, need / played)
    if not math.isfinite(total):
        return math.inf, None
    return total, _round_up(c.games * factor)


def _round_up(x: float) -> int:
    """Up to two significant figures: 123,456 -> 130,000."""
    if x <= 100:
        return max(1, math.ceil(x))
    unit = 10 ** (math.floor(math.log10(x)) - 1)
    return int(math.ceil(x / unit) * unit)


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


def claim_alphas(claims: list[Claim], alpha: float = ALPHA, family: bool = False
                 ) -> dict[str, float]:
    """Each claim's error: ``alpha`` on its own, or with ``family`` (``--all``) its
    Bonferroni share of the catalogue's, so that the chance of any wrong verdict in the
    whole run stays at most ``alpha``."""
    if not family:
        return {c.name: alpha for c in claims}
    shares = vs.family_alphas({c.name: places_of(c) for c in claims}, alpha, FAMILY)
    return {name: a.claim for name, a in shares.items()}


def settle(claims: list[Claim], seed: int, backend: Backend, keep: Any,
           on_batch: Callable[[int], None] | None = None,
           on_verdict: Callable[[Verdict], None] | None = None,
           commands: dict[str, str] | None = None, alpha: float = ALPHA,
           family: bool = False) -> tuple[list[Verdict], bool]:
    """Every claim in turn on one seed; (verdicts, stopped early)."""
    alphas = claim_alphas(claims, alpha, family)
    out = []
    for c in claims:
        v = settle_claim(c, seed, backend, keep, on_batch, (commands or {}).get(c.name, ""),
                         alphas[c.name])
        out.append(v)
        if on_verdict is not None:
            on_verdict(v)
        if v.partial:
            return out, True
    return out, False
