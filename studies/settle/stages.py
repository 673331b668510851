"""How a claim becomes study runs: per player count (or for the whole sweep) a stage
that plays a look of the compare, tournament, skill or sweep study under its own
checkpoint stage, and reads each place's effect, interval and figures from the
study's result at the look's z (see ``looks.py`` for the looks)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from unosim.common import mean_se, wilson
from unosim.runs.backend import Backend
from unosim.runs.modes import ROUND
from unosim.runs.variants import VariantSpec
from unosim.simulate.rules import parse_assignment, resolve
from unosim.strategies.registry import parse_strategy
from unosim.studies.settle.claims import Claim

#: the largest task of a settle stage, in the study's units
MAX_STEP = 1 << 14


def step_for(units: int) -> int:
    """The task size of a stage: a divisor of every look (units, 2 units, 4 units...)."""
    return units if units <= MAX_STEP else math.gcd(units, MAX_STEP)


def first_units(units: int) -> int:
    """The first look rounded up to a whole number of 1,024 (beyond 1,024), so that
    its task size is not tiny."""
    return units if units <= 1024 else -(-units // 1024) * 1024


# ---------------------------------------------------------------- the table


def rules_of(c: Claim, players: int, side: str) -> Any:
    presets = c.baseline if side == "baseline" else (c.variant or ())
    extra = c.baseline_rules if side == "baseline" else c.variant_rules
    overrides = [parse_assignment(r) for r in (*c.rules, *extra)]
    return resolve(list(presets), [("players", players), *overrides])


def seats_of(c: Claim, players: int) -> list[Any]:
    seats = [parse_strategy(c.strategy)] * players
    for s, name in c.seat_strategies.items():
        seats[s] = parse_strategy(name)
    return seats


def label_of(presets: tuple[str, ...], rules: tuple[str, ...]) -> str:
    return "+".join(presets) + "".join(f" {r}" for r in rules)


def spec(c: Claim, players: int, side: str) -> VariantSpec:
    presets = c.baseline if side == "baseline" else (c.variant or ())
    extra = c.baseline_rules if side == "baseline" else c.variant_rules
    return VariantSpec(label_of(presets, extra) or side, rules_of(c, players, side),
                       seats_of(c, players))


# ---------------------------------------------------------------- one stage


@dataclass
class Stage:
    """A claim's study at one player count (or the sweep): the places it answers, how
    to play a look of ``units`` and read its places."""

    key: str
    play: Callable[[int, Any], Any]  # (units, keep) -> study result
    read: Callable[[Any, float], list[tuple[str, float, float, float, float, float, int]]]
    units_of: Callable[[int], int]  # progress-bar units of a look of ``units``
    make: Callable[[int], Any]  # the empty totals of the stage's Progress


def metric_name(metric: str, seat: int | None) -> tuple[str, bool]:
    """(the Comparison's metric name, shifted by the fair share) of a claim's metric."""
    if metric.startswith("seat_edge"):
        s = seat if metric == "seat_edge" else int(metric.rsplit("_", 1)[1])
        return f"seat_win_{s}", True
    if metric == "seat_win":
        return f"seat_win_{seat}", False
    return metric, False


def _compare_stage(c: Claim, players: int, seed: int, backend: Backend, on_batch: Any
                   ) -> Stage:
    from unosim.runs.tables import Table
    from unosim.studies.compare.play import run_compare
    from unosim.studies.compare.totals import CompareTotals

    specs = [spec(c, players, "baseline")]
    if c.variant is not None:
        specs.append(spec(c, players, "variant"))
    seats = c.seats if c.seats is not None else (None,)

    def play(units: int, keep: Any) -> Any:
        return run_compare(specs, units, seed, mode=c.mode, on_batch=on_batch, limit=None,
                           backend=backend, keep=keep, stage=key)

    def read(cmp: Any, z: float) -> list[Any]:
        out = []
        for s in seats:
            name, shift = metric_name(c.metric, s)
            fair = 1 / players if shift else 0.0
            where = _where(c, players, s)
            if c.variant is not None:
                d = cmp.diff(1, name)
                x, se = d["diff"], d["se"]
                a, b = cmp.stat(1, name)["mean"] - fair, cmp.stat(0, name)["mean"] - fair
                out.append((where, x, x - z * se, x + z * se, a, b, cmp.games))
                continue
            ref = fair + ((0.0 if shift else 1 / players) if c.value == "fair"
                          else float(c.value or 0.0))
            lo, hi, mean = _interval(cmp, name, z)
            out.append((where, mean - ref, lo - ref, hi - ref, mean - fair, ref - fair,
                        cmp.games))
        return out

    key = f"{c.name}@{players}"
    return Stage(key, play, read, lambda u: u * len(specs),
                 lambda step: CompareTotals.empty([Table(v.rules, v.seats) for v in specs],
                                                  c.mode))


def _interval(cmp: Any, name: str, z: float) -> tuple[float, float, float]:
    """(low, high, mean) of one variant's figure at ``z``: Wilson for rates."""
    m = cmp.metric(name)
    mo = cmp.moments[0]
    n = mo.n.get(name, 0)
    if m.rate:
        lo, hi = wilson(int(mo.s[name]), n, z)
        return lo, hi, mo.s[name] / n if n else math.nan
    mean, se = mean_se(mo.s[name], mo.ss[name], n)
    mean, se = mean / m.scale, se / m.scale
    return mean - z * se, mean + z * se, mean


def _where(c: Claim, players: int, seat: int | None) -> str:
    if c.across == "seats":
        return f"seat {seat}"
    if c.across == "players":
        return f"{players} players"
    return ""


def _tournament_stage(c: Claim, players: int, seed: int, backend: Backend, on_batch: Any
                      ) -> Stage:
    from unosim.studies.lineups.tournament import lineups, run_tournament
    from unosim.studies.lineups.tournament_totals import Totals, paired_points

    rules = rules_of(c, players, "baseline")
    strats = [parse_strategy(s) for s in c.strategies]
    n_lineups = len(lineups(2, players))
    key = f"{c.name}@{players}"

    def play(units: int, keep: Any) -> Any:
        return run_tournament(rules, strats, units * n_lineups, seed, on_batch=on_batch,
                              backend=backend, keep=keep, stage=key)

    def read(r: Any, z: float) -> list[Any]:
        t = r.totals
        games = int(t.games[0])
        where = _where(c, players, None)
        if c.metric == "ahead":
            mean, se = mean_se(float(t.h2h[0, 1]), float(t.h2h_sq[0, 1]), int(t.h2h_n[0, 1]))
            ref = 0.5 if c.value is None else float(c.value)
            return [(where, mean - ref, mean - z * se - ref, mean + z * se - ref, mean, ref,
                     games)]
        if c.metric == "win_rate":
            lo, hi = wilson(int(t.wins[0]), games, z)
            rate = t.wins[0] / games if games else math.nan
            ref = (t.fair[0] / games if games else math.nan) if c.value in (None, "fair") \
                else float(c.value)
            return [(where, rate - ref, lo - ref, hi - ref, rate, ref, games)]
        d, se, _ = paired_points(t, c.metric, 0, 1)
        return [(where, d, d - z * se, d + z * se, math.nan, math.nan, games)]

    return Stage(key, play, read, lambda u: u * n_lineups, lambda step: Totals(2, players))


def _skill_stage(c: Claim, players: int, seed: int, backend: Backend, on_batch: Any
                 ) -> Stage:
    from unosim.studies.lineups.skill import run_skill
    from unosim.studies.lineups.skill_edge import SkillTotals, diff_stats, skill_stats

    specs = [spec(c, players, "baseline")]
    if c.variant is not None:
        specs.append(spec(c, players, "variant"))
    strat = parse_strategy(c.strategy)
    key = f"{c.name}@{players}"

    def play(units: int, keep: Any) -> Any:
        return run_skill(specs, strat, units * players, seed, on_batch=on_batch,
                         backend=backend, keep=keep, stage=key)

    def read(r: Any, z: float) -> list[Any]:
        where = _where(c, players, None)
        t = r.totals
        rounds = t[0].deals * players
        base = skill_stats(t[0])
        if c.variant is not None:
            d = diff_stats(t[1])
            x, se = d["diff"], d["se"]
            return [(where, x, x - z * se, x + z * se, skill_stats(t[1])["skill_edge"],
                     base["skill_edge"], rounds)]
        ref = float(c.value or 0.0)
        e, se = base["skill_edge"], base["skill_edge_se"]
        return [(where, e - ref, e - z * se - ref, e + z * se - ref, e, ref, rounds)]

    return Stage(key, play, read, lambda u: u * players * len(specs),
                 lambda step: [SkillTotals(players) for _ in specs])


def _sweep_stage(c: Claim, seed: int, backend: Backend, on_batch: Any) -> Stage:
    from unosim.runs.tables import Table
    from unosim.studies.compare.totals import CompareTotals
    from unosim.studies.grids.dimensions import Dim
    from unosim.studies.grids.play import grid, run_sweep

    dims = [Dim("players", tuple(c.players))]
    points = grid(dims, lambda co: spec(c, int(co["players"]), "baseline"))
    specs = [p.spec for p in points if p.spec is not None]
    key = f"{c.name}@sweep"

    def play(units: int, keep: Any) -> Any:
        return run_sweep(points, dims, units, seed, on_batch=on_batch, backend=backend,
                         keep=keep, stage=key)

    def read(r: Any, z: float) -> list[Any]:
        cmp = r.cmp
        first = int(specs[0].rules["players"])
        out = []
        for vi in range(1, len(specs)):
            p = int(specs[vi].rules["players"])
            name, shift = metric_name(c.metric, None)
            d = cmp.diff(vi, name)
            off = (1 / p - 1 / first) if shift else 0.0
            x, se = d["diff"] - off, d["se"]
            a = cmp.stat(vi, name)["mean"] - (1 / p if shift else 0)
            b = cmp.stat(0, name)["mean"] - (1 / first if shift else 0)
            out.append((f"{p} vs {first} players", x, x - z * se, x + z * se, a, b,
                        cmp.games))
        return out

    return Stage(key, play, read, lambda u: u * len(specs),
                 lambda step: CompareTotals.empty([Table(v.rules, v.seats) for v in specs],
                                                  ROUND))


def stages_of(c: Claim, seed: int, backend: Backend, on_batch: Any) -> list[Stage]:
    if c.study == "sweep":
        return [_sweep_stage(c, seed, backend, on_batch)]
    make = {"compare": _compare_stage, "tournament": _tournament_stage,
            "skill": _skill_stage}[c.study]
    return [make(c, p, seed, backend, on_batch) for p in c.players]


def places_of(c: Claim) -> int:
    """How many places (player counts, seats, or the counts a sweep compares with its
    first) a claim is asked at: its error is split over them."""
    if c.study == "sweep":
        return len(c.players) - 1
    return len(c.players) * (len(c.seats) if c.seats else 1)


def first_look_units(c: Claim) -> int:
    """A claim's first look in its study's units: games per variant (compare, sweep),
    games per lineup (tournament, ``games`` split over the lineups), deals (skill,
    ``games`` split over the seats)."""
    if c.study == "tournament":
        from unosim.studies.lineups.tournament import lineups

        return first_units(max(1, -(-c.games // len(lineups(2, min(c.players))))))
    if c.study == "skill":
        return first_units(max(2, -(-c.games // min(c.players))))
    return first_units(c.games)


def planned_units(c: Claim, seed: int, backend: Backend) -> int:
    """Progress-bar units if every look is played."""
    u = first_look_units(c) << (c.looks - 1)
    return sum(s.units_of(u) for s in stages_of(c, seed, backend, None))
