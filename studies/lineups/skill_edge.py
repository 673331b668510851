"""The skill edge of a strategy under each variant (docs/metrics.md#skill-edge), paired
across variants: the totals, their statistics, verdicts and the table (the study that
plays it is ``skill.py``).

One seat of strategy S plays against P-1 seats of the field (``random`` unless
``--field`` names another strategy); the seat of S is rotated
through all P seats, and every rotation (lineup) plays the same deals: game ``g`` of the
seed in each lineup, and in each variant, so a deal's luck weighs on every lineup and
every variant alike. Per deal, ``w_g`` is how many of the P lineups S won (0..P); the
round win rate is the mean of ``w_g / P`` and the skill edge

    skill_edge = (w - 1/P) / (1 - 1/P) = mean over deals of (w_g - 1) / (P - 1)

is 0 when S does no better than chance and 1 when it always wins: the edge is measured
against the field, so the same S has another edge against another field (S as its own
field has an edge of exactly 0). Its interval comes
from the per-deal values (the lineups of one deal are not independent), and the
difference between two variants from the per-deal differences of ``w_g`` (common random
numbers). Every sum is an integer, so the totals do not depend on the split into blocks.
Capped rounds count as played and won by nobody, as in a tournament.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from unosim import provenance
from unosim.stats.intervals import Z95, mean_se
from unosim.strategies.registry import SeatStrategy


@dataclass
class SkillTotals:
    """Integer sums over the deals of one variant (and against the baseline)."""

    players: int
    deals: int = 0
    wins: int = 0  # sum of w_g
    wins_sq: int = 0  # sum of w_g^2
    diff: int = 0  # sum of (w_g - w_g of the baseline)
    diff_sq: int = 0
    capped: int = 0  # rounds (deal x lineup) stopped at the turn cap
    seat_wins: np.ndarray = field(init=False)  # rounds S won with its seat at k

    def __post_init__(self) -> None:
        self.seat_wins = np.zeros(self.players, np.int64)

    def merge(self, other: SkillTotals) -> SkillTotals:
        for name in ("deals", "wins", "wins_sq", "diff", "diff_sq", "capped", "seat_wins"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self


@dataclass
class SkillResult:
    names: list[str]
    rules: list[Any]
    strategy: SeatStrategy
    seed: int
    requested: int
    deals_requested: int
    totals: list[SkillTotals]
    elapsed_s: float
    workers: int
    partial: bool = False
    #: the strategy in every other seat (None: random)
    field: SeatStrategy | None = None


def skill_stats(t: SkillTotals) -> dict[str, Any]:
    """Win rate and skill edge of S (with 95% intervals) from one variant's totals."""
    p = t.players
    w, w_se = mean_se(t.wins, t.wins_sq, t.deals)
    edge, edge_se = (w - 1) / (p - 1), w_se / (p - 1)
    rate, rate_se = w / p, w_se / p
    return {
        "deals": t.deals,
        "rounds": t.deals * p,
        "capped": t.capped,
        "win_rate": rate,
        "win_rate_ci95": [rate - Z95 * rate_se, rate + Z95 * rate_se],
        "fair_share": 1 / p,
        "skill_edge": edge,
        "skill_edge_se": edge_se,
        "skill_edge_ci95": [edge - Z95 * edge_se, edge + Z95 * edge_se],
        "seat_win_rate": [int(x) / t.deals if t.deals else math.nan for x in t.seat_wins],
    }


def diff_stats(t: SkillTotals) -> dict[str, float]:
    """The paired difference of the skill edge from the baseline, with its 95% interval."""
    p = t.players
    d, d_se = mean_se(t.diff, t.diff_sq, t.deals)
    diff, se = d / (p - 1), d_se / (p - 1)
    return {"diff": diff, "se": se, "ci95": [diff - Z95 * se, diff + Z95 * se]}


def verdict(name: str, base: str, edge: float, base_edge: float, d: dict[str, Any]) -> str:
    """``stacking: skill matters less than in official: skill edge A vs B, difference C
    (95% CI D to E)``, or no detectable difference when the interval holds 0."""
    lo, hi = d["ci95"]
    dec = _decimals(d["se"])
    figures = (f"skill edge {edge:.{dec}f} vs {base_edge:.{dec}f}, difference "
               f"{d['diff']:+.{dec}f} (95% CI {lo:+.{dec}f} to {hi:+.{dec}f})")
    if not math.isfinite(lo) or lo <= 0 <= hi:
        return f"{name}: no detectable difference in how much skill matters from {base}: " \
               + figures
    more = "more" if lo > 0 else "less"
    return f"{name}: skill matters {more} than in {base}: {figures}"


def _decimals(se: float) -> int:
    if not math.isfinite(se) or se <= 0:
        return 3
    return int(min(5, max(3, 1 - math.floor(math.log10(Z95 * se)))))


def summarize_skill(r: SkillResult) -> dict[str, Any]:
    """The JSON-able summary of a skill run (``--format json``)."""
    rows = []
    base = skill_stats(r.totals[0])
    for vi, (name, rules, t) in enumerate(zip(r.names, r.rules, r.totals, strict=True)):
        s = skill_stats(t)
        row: dict[str, Any] = {"variant": name, "rules_changed": rules.changed(), **s}
        if vi > 0:
            d = diff_stats(t)
            row["diff_from_baseline"] = d["diff"]
            row["diff_se"] = d["se"]
            row["diff_ci95"] = d["ci95"]
            row["verdict"] = verdict(name, r.names[0], s["skill_edge"], base["skill_edge"], d)
        rows.append(row)
    return {
        "provenance": provenance(),
        "strategy": r.strategy.label(),
        "against": r.field.label() if r.field is not None else "random",
        "players": r.totals[0].players,
        "seed": r.seed,
        "games_requested": r.requested,
        "deals": r.totals[0].deals,
        "deals_requested": r.deals_requested,
        "partial": r.partial,
        "workers": r.workers,
        "elapsed_s": r.elapsed_s,
        "variants": rows,
    }


def render_skill(s: dict[str, Any]) -> str:
    """The human report of ``unosim skill``."""
    p = s["players"]
    lines = [
        f"unosim skill · {s['strategy']} against {p - 1} × {s['against']} · {p} players · "
        f"{s['deals']:,} deals × {p} seats per variant · seed {s['seed']}",
        "",
        f"Skill edge of {s['strategy']}"
        + ("" if s["against"] == "random" else f" against a field of {s['against']}")
        + " (0 = chance, 1 = always wins; 95% intervals)",
    ]
    w = max(len(r["variant"]) for r in s["variants"]) + 2
    for r in s["variants"]:
        lo, hi = r["skill_edge_ci95"]
        dec = _decimals(r["skill_edge_se"])
        wl, wh = r["win_rate_ci95"]
        lines.append(
            f"  {r['variant']:<{w}} wins {100 * r['win_rate']:.2f}% [{100 * wl:.2f}%, "
            f"{100 * wh:.2f}%] (fair {100 / p:.1f}%)   skill edge {r['skill_edge']:.{dec}f} "
            f"[{lo:.{dec}f}, {hi:.{dec}f}]")
    if len(s["variants"]) > 1:
        lines += ["", "Verdicts (paired on the same deals)"]
        lines += [f"  {r['verdict']}" for r in s["variants"][1:]]
    capped = sum(r["capped"] for r in s["variants"])
    lines += ["", f"capped rounds (won by nobody, counted as lost): {capped:,}",
              "method: every lineup (the strategy's seat rotated through all seats) and "
              "every variant plays the same deals; intervals from the per-deal results"]
    if s["partial"]:
        lines.append(f"PARTIAL: stopped after {s['deals']:,} of {s['deals_requested']:,} "
                     "deals")
    return "\n".join(lines)
