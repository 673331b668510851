"""Interval and difference arithmetic against known values (stats/intervals.py,
reports/metrics.py, studies/compare/result.py), without the engine."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from unosim.reports import metrics as MX
from unosim.runs.variants import VariantSpec
from unosim.simulate.rules import resolve
from unosim.stats.intervals import Z95, diff_ci, hist_quantile, mean_se, wilson
from unosim.stats.numbers import decimals_for, plus_minus
from unosim.strategies.registry import parse_strategy
from unosim.studies.compare.result import Comparison, dec_for_value
from unosim.studies.compare.totals import Moments, Paired

# ---------------------------------------------------------------- Wilson


def test_wilson_zero_successes_in_ten():
    lo, hi = wilson(0, 10)
    assert lo == 0.0
    # closed form for k = 0: z^2 / (n + z^2)
    assert hi == pytest.approx(Z95**2 / (10 + Z95**2), abs=1e-12)
    assert hi == pytest.approx(0.2775, abs=5e-5)


def test_wilson_half_of_a_hundred_is_symmetric():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=5e-5)
    assert hi == pytest.approx(0.5962, abs=5e-5)
    assert lo + hi == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    "k, n, lo, hi",
    [  # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_textbook_values(k, n, lo, hi):
    got = wilson(k, n)
    assert got[0] == pytest.approx(lo, abs=5e-5)
    assert got[1] == pytest.approx(hi, abs=5e-5)


def test_wilson_all_successes_mirrors_none():
    lo, hi = wilson(10, 10)
    lo0, hi0 = wilson(0, 10)
    assert (lo, hi) == pytest.approx((1 - hi0, 1 - lo0))
    assert all(math.isnan(x) for x in wilson(0, 0))


# ---------------------------------------------------------------- means, differences


def test_mean_se_known_values():
    v = np.array([1, 2, 3, 4])
    mean, se = mean_se(v.sum(), (v * v).sum(), 4)
    assert mean == 2.5
    assert se == pytest.approx(np.std(v, ddof=1) / 2)  # 1.2910 / sqrt(4)
    assert se == pytest.approx(0.645497, abs=1e-6)


def test_diff_ci_known_values():
    d, lo, hi = diff_ci(10.0, 3.0, 14.0, 4.0)  # se of the difference: sqrt(9 + 16) = 5
    assert d == 4.0
    assert lo == pytest.approx(4.0 - Z95 * 5)
    assert hi == pytest.approx(4.0 + Z95 * 5)
    assert (lo, hi) == pytest.approx((-5.8, 13.8), abs=1e-3)


def test_hist_quantile_lower_quantile():
    h = np.zeros(10, np.int64)
    h[[1, 2, 3, 4]] = 1  # values 1, 2, 3, 4
    assert hist_quantile(h, 0.5) == 2.0
    assert hist_quantile(h, 0.9) == 4.0


def test_paired_totals_equal_numpy_on_the_differences():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 50, 1000)
    b = a + rng.integers(-3, 6, 1000)  # correlated, like common random numbers
    mask = rng.random(1000) > 0.1
    p = Paired()
    for lo in range(0, 1000, 256):  # batch by batch, as the runs hand them over
        sl = slice(lo, lo + 256)
        p.add({"x": (a[sl], None), "w": (a[sl], mask[sl])},
              {"x": (b[sl], None), "w": (b[sl], mask[sl])})
    d = b - a
    mean, se = mean_se(p.s["x"], p.ss["x"], p.n["x"])
    assert p.n["x"] == 1000
    assert mean == pytest.approx(d.mean())
    assert se == pytest.approx(d.std(ddof=1) / math.sqrt(1000))
    assert p.n["w"] == int(mask.sum())
    assert p.s["w"] == int(d[mask].sum())


def test_moments_sums_and_histogram():
    m = Moments()
    v = np.array([0, 1, 1, 5, 9000])  # the last one lands in the open last bin
    m.add({"x": (v, None), "y": (v, v > 0)})
    assert (m.n["x"], m.s["x"], m.ss["x"]) == (5, int(v.sum()), int((v * v).sum()))
    assert m.n["y"] == 4
    assert m.hist["x"][1] == 2 and m.hist["x"][-1] == 1


def test_decimals_follow_the_interval():
    assert decimals_for(0.09) == 2
    assert decimals_for(0.2) == 1
    assert decimals_for(3.0) == 0
    assert decimals_for(0.00001) == 4  # capped


def test_plus_minus_shows_the_first_significant_digit_of_the_se():
    assert plus_minus(0.004126, 0.0000641) == "0.0041 ± 0.0001"
    assert plus_minus(49.64, 0.0213) == "49.64 ± 0.02"
    assert plus_minus(122.96, 0.05) == "122.96 ± 0.05"
    assert plus_minus(0.0, 0.0) == "0.00 ± 0.00"
    assert plus_minus(float("nan"), 0.1) == "n/a"
    assert dec_for_value(-0.003, 1) == 3  # never print "-0.0"
    assert dec_for_value(3.1, 1) == 1


# ---------------------------------------------------------------- verdicts


def synthetic_comparison(shift: float, seed: int = 0, n: int = 4000,
                         names: tuple[str, ...] = ("official", "stacking"),
                         balanced: bool = False) -> Comparison:
    """A Comparison built from made-up per-game values (no engine): turns of the
    variants are the baseline's plus ``shift`` on average. ``balanced``: the variants'
    winners are the baseline's with as many games moved from seat 0 to seat 1 as from
    seat 1 to seat 0, so seat 0's paired difference is exactly 0."""
    rng = np.random.default_rng(seed)
    variants = [VariantSpec(nm, resolve(), [parse_strategy("random")] * 4) for nm in names]
    base_turns = rng.integers(20, 80, n)
    winners = rng.integers(0, 4, n)
    vals = []
    for i in range(len(names)):
        turns = base_turns + (np.round(rng.normal(shift, 2.0, n)).astype(np.int64) if i else 0)
        w = winners if i == 0 else np.where(rng.random(n) < 0.2, rng.integers(0, 4, n), winners)
        if i and balanced:
            w = winners.copy()
            zero, one = np.flatnonzero(winners == 0), np.flatnonzero(winners == 1)
            k = min(len(zero), len(one)) // 4
            w[zero[:k]], w[one[:k]] = 1, 0
        v: MX.Values = {
            "turns": (turns, None),
            "drawn_no_play": (turns // 4, None),
            "penalty_drawn": (turns // 2 - turns // 4, None),
            "cards_drawn": (turns // 2, None),
            "winner_points": (turns * 2, None),
            "capped": (np.zeros(n, np.int64), None),
        }
        for s in range(4):
            v[f"seat_win_{s}"] = ((w == s).astype(np.int64), None)
        vals.append(v)
    moments = [Moments() for _ in names]
    paired: list[Paired | None] = [None] + [Paired() for _ in names[1:]]
    for i, v in enumerate(vals):
        moments[i].add(v)
        if i:
            paired[i].add(vals[0], v)  # type: ignore[union-attr]
    results = [SimpleNamespace(agg=SimpleNamespace(games=n, capped=0), elapsed_s=1.0)
               for _ in names]
    return Comparison(variants, "round", 7, n, 2, 1000, results, moments, paired, 2.0)


def test_verdict_for_a_clear_difference():
    """4,000 made-up pairs, each turn difference 3 +- 2 (se of the mean 0.032 turns):
    the 95% interval excludes 0 by 92 se, so no seed fails it; a shift of 0.09 turns
    would be detected with 80% power."""
    c = synthetic_comparison(shift=3.0)
    d = c.diff(1, "turns")
    assert d["detected"] and d["ci_low"] > 0
    # the paired interval is far narrower than the independent one
    assert d["ci_high"] - d["ci_low"] < 0.2 * (d["indep_ci_high"] - d["indep_ci_low"])
    line = c.verdict(1, "turns")
    assert line.startswith("stacking: rounds ")
    assert "turns longer than official" in line and "95% CI" in line


def test_verdict_when_the_interval_spans_zero():
    """4,000 made-up pairs with no difference in seat 0's wins by construction: a
    quarter of seat 0's wins (about 250) move to seat 1 and as many of seat 1's to seat
    0, so the paired difference is exactly 0 with se about 0.55 points, and the 95%
    interval (about +-1.1 points) holds 0 for every seed (200 of 200 seeds tried).
    (Winners drawn again at random, as before, made a null whose interval missed 0 in
    5% of seeds.) A real difference of 1.5 points would be called with 80% power."""
    c = synthetic_comparison(shift=0.0, seed=1, balanced=True)
    d = c.diff(1, "seat_win_0")
    assert d["ci_low"] < 0 < d["ci_high"]
    line = c.verdict(1, "seat_win_0")
    assert "no detectable difference" in line and "pp" in line


def test_shorter_rounds_read_as_shorter_with_positive_bounds():
    """4,000 made-up pairs, 2 +- 2 turns shorter (se 0.032 turns): both bounds lie
    above 0 by 60 se, so no seed fails it."""
    c = synthetic_comparison(shift=-2.0, seed=2)
    line = c.verdict(1, "turns")
    assert "turns shorter" in line
    lo, hi = (float(x) for x in line.split("95% CI ")[1].rstrip(")").split(" to "))
    assert 0 < lo < hi


def test_verdicts_one_per_headline_and_variant():
    c = synthetic_comparison(shift=1.0, names=("official", "a", "b"))
    lines = c.verdicts()
    assert len(lines) == 2 * len(MX.HEADLINES["round"])
    assert sum(line.startswith("a: ") for line in lines) == len(MX.HEADLINES["round"])
