"""How a round unfolds (docs/metrics.md#game-feel): the game-feel figures of a run's totals.

The engine records each round's metrics (fractions in fixed point, layout.FEEL_SCALE)
and the totals keep exact integer sums over the rounds that have a winner; this
module turns them into means with standard errors (the 0/1 metrics as rates with
a Wilson interval), the winner_max_deficit histogram, and ``seat_balance``.
Round mode: rounds are independent, the plain standard error. Match mode: the
rounds of one match form a cluster, so the mean is the ratio of sums over
matches and its standard error the cluster (ratio-estimator) one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from unosim.common import DOCS_URL
from unosim.simulate.layout import FEEL_FIXED, FEEL_METRICS, FEEL_RATES, FEEL_SCALE
from unosim.simulate.round_metrics import FEEL
from unosim.stats.intervals import Z95, mean_se, wilson
from unosim.stats.numbers import plus_minus

#: how each metric reads in tables and charts (simulate/round_metrics.py declares it)
FEEL_LABELS = {m.name: m.label for m in FEEL}


def scale_of(m: str) -> int:
    """The factor the recorded value of metric ``m`` carries (fixed point)."""
    return FEEL_SCALE if m in FEEL_FIXED else 1


def seat_balance(wins: Sequence[int], n: int) -> float:
    """docs/metrics.md#seat-balance: 1 - (largest seat win rate - smallest), the rates
    being ``wins[s] / n`` over the seats at the table (``wins`` holds only those)."""
    if n <= 0 or len(wins) == 0:
        return math.nan
    rates = [w / n for w in wins]
    return 1.0 - (max(rates) - min(rates))


def seat_balance_se(wins: Sequence[int], n: int) -> float:
    """Standard error of ``seat_balance``, the seats with the largest and smallest
    rate taken as given (the multinomial variance of their difference)."""
    if n <= 1 or len(wins) == 0:
        return math.nan
    rates = [w / n for w in wins]
    a = rates.index(max(rates))
    b = rates.index(min(rates))
    if a == b:
        return 0.0
    pa, pb = rates[a], rates[b]
    return math.sqrt(max(0.0, pa + pb - (pa - pb) ** 2) / n)


def _stat(m: str, mean: float, se: float, rounds: int, successes: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {f"{m}_mean": mean, f"{m}_se": se}
    if m in FEEL_RATES:
        out[f"{m}_ci95"] = list(wilson(successes or 0, rounds))
    return out


def feel_figures(agg: Any) -> dict[str, Any]:
    """The feel keys of a summary: ``M_mean`` and ``M_se`` per metric (rates also
    ``M_ci95``), ``winner_max_deficit_hist``, ``feel_rounds`` and
    ``feel_rounds_capped`` (rounds left out: no winner). Works on an Aggregate
    (rounds) or a MatchAggregate (the rounds of the matches)."""
    n = agg.feel_rounds
    out: dict[str, Any] = {}
    for m in FEEL_METRICS:
        sc = scale_of(m)
        s = agg.feel_sums[m]
        if hasattr(agg, "feel_sumsq"):
            mean, se = mean_se(s, agg.feel_sumsq[m], n)
        else:
            mean, se = _cluster_mean_se(s, agg.feel_ss[m], agg.feel_sn[m], agg.feel_nn, n,
                                        agg.games)
        out.update(_stat(m, mean / sc, se / sc, n, s if m in FEEL_RATES else None))
    out["winner_max_deficit_hist"] = [int(x) for x in agg.feel_hist]
    out["feel_rounds"] = n
    out["feel_rounds_capped"] = (agg.capped_rounds if hasattr(agg, "capped_rounds")
                                 else agg.capped)
    return out


def _cluster_mean_se(s: int, ss: int, sn: int, nn: int, n: int, clusters: int
                     ) -> tuple[float, float]:
    """Ratio mean s / n of per-round values summed per cluster (match), and its
    cluster standard error sqrt(sum (S_m - r n_m)^2 / (M (M - 1))) / (n / M)."""
    if n <= 0:
        return (math.nan, math.nan)
    r = s / n
    if clusters <= 1:
        return (r, math.nan)
    resid = max(0.0, ss - 2 * r * sn + r * r * nn)
    nbar = n / clusters
    return (r, math.sqrt(resid / (clusters * (clusters - 1))) / nbar)


def feel_lines(s: dict[str, Any]) -> list[str]:
    """The "How the round unfolds" section of a run's table."""
    n = s["feel_rounds"]
    lines = [f"How the round unfolds (game feel, defined at {DOCS_URL}metrics.html#game-feel; "
             f"{n:,} rounds with a winner, "
             f"{s['feel_rounds_capped']:,} capped left out)"]
    for m in FEEL_METRICS:
        label = FEEL_LABELS[m]
        if m in FEEL_RATES:
            lo, hi = s[f"{m}_ci95"]
            rate = s[f"{m}_mean"]
            cell = ("n/a" if not math.isfinite(rate) else
                    f"{100 * rate:6.2f}%   [{100 * lo:.2f}%, {100 * hi:.2f}%]")
            lines.append(f"  {label:<38}{cell}")
        else:
            lines.append(f"  {label:<38}{plus_minus(s[f'{m}_mean'], s[f'{m}_se'])}")
    hist = s["winner_max_deficit_hist"]
    if n:
        top = max(i for i, c in enumerate(hist) if c) if any(hist) else 0
        shares = ", ".join(f"{k if k < 16 else '16+'}: {100 * c / n:.1f}%"
                           for k, c in enumerate(hist[: top + 1]))
        lines.append(f"  winner's largest deficit, share of rounds: {shares}")
    return lines


def seat_balance_line(s: dict[str, Any]) -> str:
    sb, se = s["seat_balance"], s.get("seat_balance_se", math.nan)
    ci = ""
    if math.isfinite(se):
        ci = f"   [{sb - Z95 * se:.4f}, {sb + Z95 * se:.4f}]"
    return f"  seat balance (1 - (highest - lowest seat win rate)): {sb:.4f}{ci}"


def seat_win_rates(agg: Any) -> list[float]:
    """Win rate of each seat at the table (an Aggregate's wins over all its games,
    capped ones included, as ``run`` reports them). A seat holds the strategy given
    for it, so one run per seat rotation gives a strategy's win rate per seat: what
    ``skill_edge`` (docs/metrics.md#skill-edge) is built from."""
    n = agg.games
    return [int(agg.wins[s]) / n if n else math.nan for s in range(agg.players)]


def seat_balance_of(agg: Any) -> float:
    """``seat_balance`` of a run's totals (an Aggregate)."""
    return seat_balance([int(w) for w in agg.wins[: agg.players]], agg.games)
