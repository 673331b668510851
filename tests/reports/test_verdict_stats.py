"""stats/verdicts.py: the confidence sequence against independent references (the
``confseq`` package when it is installed; always the mixture martingale integrated
numerically and the asymptotic-CS closed form of Waudby-Smith et al.), the spending
boundaries against published tables, coverage by simulation (and that naive repeated 95%
intervals fail it, so the check can fail), the verdict rules on each side of each margin,
games needed, and the catalogue's family error."""

from __future__ import annotations

import itertools
import math
import tomllib
from pathlib import Path

import numpy as np
import pytest

from unosim.errors import UnosimError
from unosim.stats import verdicts as V
from unosim.stats.verdicts import (
    DEPENDS,
    FALSE,
    NO_DIFFERENCE,
    NOT_SHOWN,
    TRUE,
    UNDECIDED,
)

# ---------------------------------------------------------------- (a) references

CASES = [(v, a, vo) for v in (1.0, 37.5, 1e3, 2.5e5) for a in (0.05, 0.01, 0.002)
         for vo in (10.0, 1e4)]


def _integrated_bound(v: float, alpha: float, rho: float) -> float:
    """The |S| at which the two-sided normal mixture martingale, integrated numerically
    over its mixing distribution lambda ~ N(0, 1/rho), reaches 1/alpha (bisection)."""

    def log_m(s: float) -> float:
        # integrand exp(l s - l^2 v / 2) * N(l; 0, 1/rho): a Gaussian in l centred at
        # s / (v + rho), width 1 / sqrt(v + rho); the trapezoid rule on a fine grid over
        # +-40 widths converges geometrically
        w = 1.0 / math.sqrt(v + rho)
        lam = np.linspace(s / (v + rho) - 40 * w, s / (v + rho) + 40 * w, 8001)
        e = lam * s - lam ** 2 * v / 2 - lam ** 2 * rho / 2
        top = e.max()
        h = lam[1] - lam[0]
        total = h * (np.exp(e - top).sum() - 0.5 * (np.exp(e[0] - top) + np.exp(e[-1] - top)))
        return top + math.log(total) + 0.5 * math.log(rho / (2 * math.pi))

    target = math.log(1 / alpha)
    lo, hi = 0.0, 1.0
    while log_m(hi) < target:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if log_m(mid) < target else (lo, mid)
        if hi - lo <= 1e-14 * hi:
            break
    return (lo + hi) / 2


@pytest.mark.parametrize(("v", "alpha", "v_opt"), CASES[::3])
def test_mixture_bound_matches_the_integrated_martingale(v, alpha, v_opt):
    rho = V.mixture_rho(v_opt, alpha)
    assert V.normal_mixture_bound(v, alpha, rho) == pytest.approx(
        _integrated_bound(v, alpha, rho), rel=1e-9)


@pytest.mark.parametrize(("v", "alpha", "v_opt"), CASES)
def test_mixture_matches_the_asymptotic_cs_closed_form(v, alpha, v_opt):
    """Waudby-Smith et al. write the same boundary with rho2 = 1 / rho (unit variance):
    margin(t) = sqrt(2 (t rho2 + 1) / (t^2 rho2) * log(sqrt(t rho2 + 1) / alpha)), tuned
    by rho2 = (2 log(1/alpha) + log(1 + 2 log(1/alpha))) / t_opt."""
    t, t_opt = v, v_opt  # unit variance: intrinsic time = pairs
    ell = -2 * math.log(alpha)
    rho2 = (ell + math.log(ell + 1)) / t_opt
    margin = math.sqrt(2 * (t * rho2 + 1) / (t * t * rho2)
                       * math.log(math.sqrt(t * rho2 + 1) / alpha))
    assert V.mixture_z(t, t_opt, alpha) / math.sqrt(t) == pytest.approx(margin, rel=1e-12)
    lo, hi = V.confidence_sequence(0.3, 2.0 / math.sqrt(t), t, t_opt, alpha)
    assert (hi - lo) / 2 == pytest.approx(2.0 * margin, rel=1e-12)


def test_mixture_matches_confseq_when_installed():
    cs = pytest.importorskip("confseq.boundaries")  # a C++ build with boost; often absent
    for v, alpha, v_opt in CASES:
        ref = float(cs.normal_mixture_bound(v, alpha, v_opt, alpha, False))
        rho = V.mixture_rho(v_opt, alpha)
        assert V.normal_mixture_bound(v, alpha, rho) == pytest.approx(ref, rel=1e-9)


def test_spending_boundaries_match_published_tables():
    # Lan-DeMets O'Brien-Fleming, 3 equally spaced looks, two-sided 5% (ldbounds, gsDesign)
    assert V.spending_z("obrien-fleming", [1, 2, 3]) == pytest.approx(
        [3.7103, 2.5114, 1.9930], abs=1e-4)
    # Pocock's constant (Pocock 1977): 2.289 for K = 3, 2.178 for K = 2, two-sided 5%
    assert V.simultaneous_level([2.289] * 3, [1, 2, 3]) == pytest.approx(0.95, abs=3e-4)
    assert V.simultaneous_level([2.178] * 2, [1, 2]) == pytest.approx(0.95, abs=3e-4)
    # O'Brien & Fleming's classical boundary, c = 2.004 at K = 3: c * sqrt(K / k)
    z = [2.004 * math.sqrt(3 / k) for k in (1, 2, 3)]
    assert V.simultaneous_level(z, [1, 2, 3]) == pytest.approx(0.95, abs=3e-4)
    # one look: the plain normal interval
    assert V.simultaneous_level([1.959963984540054], [7]) == pytest.approx(0.95, abs=1e-12)


def test_boundary_levels_and_what_they_print():
    b = V.boundary([1, 2, 4])
    assert b.kind == "obrien-fleming" == V.DEFAULT_KIND
    assert b.level == pytest.approx(0.95, abs=1e-9)
    assert b.z[-1] < 2.0 < b.z[1] < b.z[0]
    assert b.describe().startswith("95.0% at all 3 looks together (O'Brien-Fleming")
    # settle today: z = 2.394 at each of 3 looks says "95%" but has 98.3% per look
    bf = V.boundary([1, 2, 4], kind="bonferroni")
    assert bf.z[0] == pytest.approx(2.394, abs=1e-3)
    assert bf.per_look_level[0] == pytest.approx(0.9833, abs=1e-4)
    assert 0.95 < bf.level < 0.96
    # the mixture pays for every look it could have had: tighter than needed at 3 looks
    mx = V.boundary([1, 2, 4], kind="mixture")
    assert mx.level > 0.99 and mx.z[-1] > 3.0
    assert mx.z_at(3.0) == pytest.approx(V.mixture_z(3.0, 4.0, 0.05))
    assert b.z[1] < mx.z[1] and b.z[2] < mx.z[2] and b.z[0] > mx.z[0]  # OBF: late is cheap
    assert b.z[-1] < V.boundary([1, 2, 4], kind="pocock").z[-1] < mx.z[-1]
    with pytest.raises(UnosimError, match="not a planned look"):
        b.z_at(3)
    assert b.z_at(4) == b.z[-1]
    with pytest.raises(UnosimError, match="no boundary"):
        V.boundary([1, 2], kind="peeking")
    with pytest.raises(UnosimError, match="increasing"):
        V.boundary([2, 1])


# ---------------------------------------------------------------- (b) simulation

def _ever_excludes_zero(x: np.ndarray, z_of_n: np.ndarray, start: int) -> float:
    """The share of sequences (rows) whose interval mean +- z se, with the plug-in se,
    excludes 0 at some n >= start."""
    n = np.arange(1, x.shape[1] + 1, dtype=float)
    s = np.cumsum(x, axis=1)
    ss = np.cumsum(x * x, axis=1)
    mean = s / n
    var = (ss - n * mean * mean) / np.maximum(n - 1, 1)
    se = np.sqrt(np.maximum(var, 0) / n)
    out = np.abs(mean[:, start - 1:]) > z_of_n[start - 1:] * se[:, start - 1:]
    return float(out.any(axis=1).mean())


def test_confidence_sequence_holds_under_the_null_at_every_look():
    """Under no difference the sequence, read after every single pair from 50 to 1,500,
    excludes 0 in at most alpha of the runs; 95% intervals read as often do not. 2,000
    runs; the share must stay under alpha + 3 se (6.46%): a sequence that errs in exactly
    5% fails once in about 740 (this one errs in less, so more rarely), and one that
    errs in 6.9% or more fails with 80% power. The plain interval, about 30%, lies 23 se
    above the bar."""
    rng = np.random.default_rng(20261203)
    runs, pairs, alpha = 2000, 1500, 0.05
    # per-game differences like a count's (turns): integers, mean 0
    x = (rng.poisson(3.0, (runs, pairs)) - rng.poisson(3.0, (runs, pairs))).astype(float)
    tol = 3 * math.sqrt(alpha * (1 - alpha) / runs)
    n = np.arange(1, pairs + 1, dtype=float)
    z_cs = np.array([V.mixture_z(k, 500.0, alpha) for k in n])
    assert _ever_excludes_zero(x, z_cs, 50) <= alpha + tol
    naive = _ever_excludes_zero(x, np.full(pairs, V.two_sided_z(alpha)), 50)
    assert naive > alpha + tol  # about 0.3: peeking breaks the plain interval


def test_spending_boundaries_spend_exactly_alpha():
    """The paths of 3 looks at 1x/2x/4x, simulated exactly (normal increments): the
    spending boundaries miss in alpha of them (within 4 sd), 1.96 at each look in far
    more, the mixture in far fewer. 200,000 paths, sd 0.049 points at 5%: each of the
    five comparisons is a false alarm once in about 16,000 (3e-4 for the five), and a
    boundary whose miss rate is off by 0.24 points (5.24% for 5%) fails with 80% power."""
    rng = np.random.default_rng(7)
    sims = 200_000
    looks = np.array([1.0, 2.0, 4.0])
    inc = rng.standard_normal((sims, 3)) * np.sqrt(np.diff(looks, prepend=0.0))
    zstat = np.abs(np.cumsum(inc, axis=1)) / np.sqrt(looks)
    tol = 4 * math.sqrt(0.05 * 0.95 / sims)
    for kind in ("obrien-fleming", "pocock"):
        b = V.boundary(looks, 0.05, kind)
        miss = float((zstat > np.array(b.z)).any(axis=1).mean())
        assert miss == pytest.approx(0.05, abs=tol), kind
    for kind in ("bonferroni", "mixture"):
        b = V.boundary(looks, 0.05, kind)
        miss = float((zstat > np.array(b.z)).any(axis=1).mean())
        assert miss == pytest.approx(1 - b.level, abs=tol), kind
    naive = float((zstat > 1.959964).any(axis=1).mean())
    assert naive == pytest.approx(1 - V.simultaneous_level([1.959964] * 3, looks), abs=tol)
    assert naive > 0.05 + tol


def test_spending_with_the_plug_in_se_on_game_like_data():
    """The same with the studies' plug-in standard error on integer differences: 1,000
    runs, looks at 250/500/1,000 pairs. The share must stay under 5% + 3 se (7.07%): a
    procedure that errs in exactly 5% fails once in about 740 runs of this test, and one
    that errs in 7.7% or more fails with 80% power."""
    rng = np.random.default_rng(11)
    runs = 1000
    x = (rng.poisson(2.0, (runs, 1000)) - rng.poisson(2.0, (runs, 1000))).astype(float)
    b = V.boundary([250, 500, 1000])
    z = np.full(1000, np.inf)
    z[[249, 499, 999]] = b.z
    tol = 3 * math.sqrt(0.05 * 0.95 / runs)
    assert _ever_excludes_zero(x, z, 250) <= 0.05 + tol


# ---------------------------------------------------------------- (c) verdict rules

@pytest.mark.parametrize(("direction", "lo", "hi", "margin", "want"), [
    # higher, margin 1 (turns): each region, each edge
    ("higher", 1.1, 2.0, 1.0, TRUE),
    ("higher", 1.0, 2.0, 1.0, UNDECIDED),  # touches +margin
    ("higher", 0.5, 2.0, 1.0, UNDECIDED),  # straddles +margin
    ("higher", -0.3, 0.5, 1.0, NO_DIFFERENCE),  # a true +0.1 turn: no real difference
    ("higher", -0.99, 0.99, 1.0, NO_DIFFERENCE),
    ("higher", -1.0, 0.5, 1.0, UNDECIDED),  # touches -margin
    ("higher", -0.5, 1.0, 1.0, UNDECIDED),  # touches +margin
    ("higher", -1.5, -0.5, 1.0, UNDECIDED),  # not TRUE, but FALSE or none is open
    ("higher", -3.5, -2.5, 1.0, FALSE),  # a true -3 turns: FALSE
    ("higher", -2.0, -1.0, 1.0, UNDECIDED),  # touches -margin
    ("higher", -5.0, 5.0, 1.0, UNDECIDED),
    # lower is the mirror image
    ("lower", -2.0, -1.1, 1.0, TRUE),
    ("lower", 1.5, 3.5, 1.0, FALSE),
    ("lower", -0.5, 0.5, 1.0, NO_DIFFERENCE),
    ("lower", -1.5, -0.5, 1.0, UNDECIDED),
    ("lower", 0.5, 1.5, 1.0, UNDECIDED),
    # margin 0: TRUE or FALSE beyond 0, never no real difference
    ("higher", 0.001, 1.0, 0.0, TRUE),
    ("higher", -1.0, -0.001, 0.0, FALSE),
    ("higher", 0.0, 1.0, 0.0, UNDECIDED),
    ("higher", -1e-9, 1e-9, 0.0, UNDECIDED),
    ("higher", 0.0, 0.0, 0.0, UNDECIDED),
    # same (equivalence), margin 0.005 (half a point of win rate)
    ("same", -0.004, 0.004, 0.005, TRUE),
    ("same", -0.005, 0.004, 0.005, UNDECIDED),
    ("same", 0.004, 0.006, 0.005, UNDECIDED),
    ("same", 0.0051, 0.02, 0.005, FALSE),
    ("same", -0.02, -0.0051, 0.005, FALSE),
    ("same", -0.02, 0.02, 0.005, UNDECIDED),
    # what cannot be read decides nothing
    ("higher", math.nan, 1.0, 1.0, UNDECIDED),
    ("higher", -math.inf, math.inf, 1.0, UNDECIDED),
])
def test_decide(direction, lo, hi, margin, want):
    assert V.decide(direction, lo, hi, margin) == want
    at_cap = V.decide(direction, lo, hi, margin, at_cap=True)
    assert at_cap == (NOT_SHOWN if want == UNDECIDED else want)


def test_decide_refuses_bad_input():
    with pytest.raises(UnosimError, match="direction"):
        V.decide("longer", 0, 1, 1)
    with pytest.raises(UnosimError, match="margin"):
        V.decide("higher", 0, 1, -1)


@pytest.mark.parametrize(("direction", "lo", "hi", "want"), [
    ("higher", -1.5, -0.5, [TRUE]),
    ("higher", 0.5, 2.0, [FALSE]),
    ("higher", -2.0, -0.5, [TRUE]),
    ("higher", 1.0, 3.0, [FALSE, NO_DIFFERENCE]),
    ("higher", -5.0, 5.0, []),
    ("lower", 0.5, 1.5, [TRUE]),
    ("same", 0.5, 1.5, []),
    ("same", -1.0, 1.0, [FALSE]),
    ("same", 1.0, 2.0, [TRUE]),
])
def test_ruled_out(direction, lo, hi, want):
    assert V.ruled_out(direction, lo, hi, 1.0) == want


@pytest.mark.parametrize(("places", "want"), [
    ([TRUE], TRUE),
    ([TRUE, TRUE], TRUE),
    ([NO_DIFFERENCE, NO_DIFFERENCE], NO_DIFFERENCE),
    ([FALSE, FALSE], FALSE),
    ([TRUE, FALSE], DEPENDS),
    ([FALSE, TRUE], DEPENDS),
    ([TRUE, NO_DIFFERENCE], DEPENDS),
    ([TRUE, FALSE, UNDECIDED], DEPENDS),
    ([TRUE, NO_DIFFERENCE, NOT_SHOWN], DEPENDS),
    ([TRUE, UNDECIDED], NOT_SHOWN),
    ([FALSE, NOT_SHOWN], NOT_SHOWN),
    ([NO_DIFFERENCE, UNDECIDED], NOT_SHOWN),
    ([FALSE, NO_DIFFERENCE], FALSE),
    ([NOT_SHOWN], NOT_SHOWN),
    ([], NOT_SHOWN),
])
def test_combine(places, want):
    assert V.combine(places) == want


def test_combine_never_reads_true_and_false_as_anything_but_depends():
    kinds = [TRUE, FALSE, NO_DIFFERENCE, UNDECIDED, NOT_SHOWN]
    for k in range(1, 5):
        for places in itertools.product(kinds, repeat=k):
            got = V.combine(list(places))
            if TRUE in places and FALSE in places:
                assert got == DEPENDS
            if got == TRUE:
                assert set(places) == {TRUE}
            assert V.settled(list(places)) == (got != NOT_SHOWN)
    with pytest.raises(UnosimError, match="not a place"):
        V.combine(["MAYBE"])


# ---------------------------------------------------------------- (d) games needed

def test_games_needed_worked_example():
    """Rounds 1.3 turns longer, se 0.2 after 10,000 pairs, margin 1 turn: the interval
    [0.91, 1.69] straddles +1, the edge nearest the estimate, 0.3 away; at z = 1.96 and
    80% power: 10,000 * ((1.96 + 0.84) * 0.2 / 0.3)^2 = about 34,880 pairs in all."""
    z = 1.959963984540054
    assert V.decide("higher", 1.3 - z * 0.2, 1.3 + z * 0.2, 1.0) == UNDECIDED
    need = V.games_needed(1.3, 0.2, 10_000, 1.0, z)
    assert need == pytest.approx(10_000 * ((z + 0.8416212335729143) * 0.2 / 0.3) ** 2,
                                 rel=1e-12)
    assert round(need, -1) == 34_880
    # at 50% power the interval's half-width there equals the distance to the edge
    half = V.games_needed(1.3, 0.2, 10_000, 1.0, z, power=0.5)
    assert z * 0.2 * math.sqrt(10_000 / half) == pytest.approx(0.3, rel=1e-12)


def test_games_needed_grows_as_the_estimate_nears_an_edge():
    z = 2.0  # se 0.1: half-width 0.2, so estimates within 0.2 of an edge are undecided
    beyond = [V.games_needed(x, 0.1, 5000, 1.0, z) for x in (1.19, 1.15, 1.1, 1.05, 1.01)]
    assert all(a < b for a, b in zip(beyond, beyond[1:], strict=False))
    inside = [V.games_needed(x, 0.1, 5000, 1.0, z) for x in (0.81, 0.85, 0.9, 0.95, 0.99)]
    assert all(a < b for a, b in zip(inside, inside[1:], strict=False))
    assert all(x > 5000 for x in beyond + inside)
    assert V.games_needed(1.0, 0.1, 5000, 1.0, z) == math.inf  # on the edge
    assert V.games_needed(0.0, 0.1, 5000, 0.0, z) == math.inf  # no margin, no effect
    # an interval that already clears its edge needs no more
    assert V.games_needed(3.0, 0.1, 5000, 1.0, z) == 5000
    assert V.games_needed(0.5, 0.1, 5000, 1.0, z) == 5000  # no real difference
    # a wider spread, a larger z or more power all need more games
    assert V.games_needed(1.3, 0.4, 5000, 1.0, z) > V.games_needed(1.3, 0.2, 5000, 1.0, z)
    assert V.games_needed(1.3, 0.2, 5000, 1.0, 3.0) > V.games_needed(1.3, 0.2, 5000, 1.0, z)
    assert (V.games_needed(1.3, 0.2, 5000, 1.0, z, power=0.9)
            > V.games_needed(1.3, 0.2, 5000, 1.0, z, power=0.8))
    # the mixture's z grows with n, so it needs more than its z at n alone says
    zf = lambda n: V.mixture_z(n, 5000, 0.05)  # noqa: E731
    grown = V.games_needed(1.3, 0.2, 5000, 1.0, zf)
    assert grown > V.games_needed(1.3, 0.2, 5000, 1.0, zf(5000))
    assert grown == pytest.approx(
        5000 * ((zf(grown) + 0.8416212335729143) * 0.2 / 0.3) ** 2, rel=1e-6)


# ---------------------------------------------------------------- (e) the family

def test_bonferroni_over_claims_and_places():
    got = V.family_alphas({"stacking-longer": 1, "first-uno-wins": 4}, 0.05)
    assert got["stacking-longer"] == V.ClaimAlpha(0.025, 0.025)
    assert got["first-uno-wins"] == V.ClaimAlpha(0.025, 0.00625)
    every_place = [a.place for c, a in got.items()
                   for _ in range({"stacking-longer": 1, "first-uno-wins": 4}[c])]
    assert V.familywise_error(every_place) == pytest.approx(0.05)
    assert V.family_alphas({}) == {}


def test_holm_hand_example():
    p = {"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.005}
    got = V.holm(p, 0.05)
    assert got["d"] == (pytest.approx(0.0125), True)  # 0.005 <= 0.05 / 4
    assert got["a"] == (pytest.approx(0.05 / 3), True)  # 0.01 <= 0.0167
    assert got["c"] == (pytest.approx(0.025), False)  # 0.03 > 0.05 / 2: stop
    assert got["b"] == (pytest.approx(0.025), False)  # after a stop, none is rejected
    fam = V.family_alphas({"a": 1, "b": 2, "c": 1, "d": 1}, 0.05, "holm", p)
    assert fam["b"] == V.ClaimAlpha(pytest.approx(0.025), pytest.approx(0.0125))
    # Holm rejects all Bonferroni does, and can reject more: here all 4 against 2
    p2 = {"a": 0.01, "b": 0.04, "c": 0.02, "d": 0.005}
    assert all(r for _, r in V.holm(p2, 0.05).values())
    assert sum(x <= 0.05 / 4 for x in p2.values()) == 2
    with pytest.raises(UnosimError, match="one p-value per claim"):
        V.family_alphas({"a": 1}, 0.05, "holm")


def test_family_error_of_the_catalogue_today():
    # 28 claims at 5% each: some verdict wrong three times in four were none real
    assert V.familywise_error([0.05] * 28, independent=True) == pytest.approx(0.7622, abs=1e-4)
    assert V.familywise_error([0.05] * 28) == 1.0
    assert V.familywise_error([0.05 / 28] * 28) == pytest.approx(0.05)


# ---------------------------------------------------------------- margins

CLAIMS = Path(__file__).resolve().parents[2] / "studies" / "settle" / "claims"


def test_every_catalogue_metric_has_a_default_margin():
    seen = set()
    for f in sorted(CLAIMS.glob("*.toml")):
        c = tomllib.loads(f.read_text(encoding="utf-8"))
        m = V.default_margin(c["metric"], c.get("mode", "round"))
        assert m > 0, f.name
        seen.add(c["metric"])
    assert {"turns", "ahead", "skill_edge", "seat_win_0"} <= seen


def test_default_margins_are_the_documented_ones():
    assert V.default_margin("seat_win_0") == 0.005  # half a percentage point
    assert V.default_margin("seat_edge_3") == 0.005
    assert V.default_margin("player_win_1", "match") == 0.005
    assert V.default_margin("turns") == 1.0  # one turn a round
    assert V.default_margin("turns", "match") == 5.0
    assert V.default_margin("skill_edge") == 0.01
    with pytest.raises(UnosimError, match="no default margin"):
        V.default_margin("charisma")


def test_every_reported_metric_has_a_default_margin():
    metrics = pytest.importorskip("unosim.reports.metrics")
    for mode in ("round", "match"):
        for m in metrics.metrics_for(mode, 4):
            assert V.default_margin(m.name, mode) > 0, (mode, m.name)
    for name in ("ahead", "win_rate", "net_points", "points_won", "seat_balance"):
        assert V.default_margin(name) > 0
