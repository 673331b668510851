"""The statistics a reproducible verdict needs (docs: "Verdicts you can bet on"):
intervals that stay valid however often they are looked at, margins that say what
matters, the verdict rules over those intervals, how many games would likely decide an
undecided claim, and the error of a whole catalogue.

Pure Python and numpy, no engine: every function takes the figures a study already has
at a look (pairs played ``n``, the mean paired difference, its standard error) and
returns numbers or verdict words, so it can be tested on its own; ``studies/settle/looks.py``
uses it for every verdict (O'Brien-Fleming looks, margins, games needed, and the
Bonferroni share of ``--all``).

Why sequential intervals: ``settle`` looks at a claim after ``games``, 2x and 4x, and
stops at the first look that decides. A 95% interval read at three looks misses the
truth at *some* look more often than 5% (11% at 1x/2x/4x, more with more looks),
and that extra error lands on exactly the claims that are close to a boundary, which is
why two seeds could give opposite verdicts. Two remedies are offered:

* ``kind="mixture"``: an anytime-valid confidence sequence (a two-sided normal-mixture
  boundary, Robbins 1970; Howard, Ramdas, McAuliffe, Sekhon 2021), valid at every
  number of pairs at once, so any schedule of looks, even one chosen while playing, is
  covered;
* a fixed plan of K looks with alpha spending (Lan & DeMets 1983): ``"obrien-fleming"``
  (the default), ``"pocock"``, or ``"bonferroni"`` (alpha / K per look, what settle
  did before it used this module). The boundaries are solved exactly for the planned
  information fractions by numerical integration of the Brownian path between looks
  (Armitage, McPherson, Rowe 1969), so the chance of any miss over the K looks is
  exactly alpha (normal theory).

The default is O'Brien-Fleming spending because settle's looks are fixed in advance
(1x, 2x, 4x ...): a boundary that pays only for the looks actually used is much tighter
there than one that pays for every possible look (at 1x/2x/4x and 5% the final look uses
z = 1.97 against 3.04 for the mixture tuned at the cap, which would need 2.4 times the
games for the same width; the mixture's intervals really hold together at 99.5% at those
three looks, not 95%), and O'Brien-Fleming spends almost all of alpha at the cap,
where an undecided claim would become NOT SHOWN; an early look stops only for an effect
far beyond its boundary, which any seed would see too.

All intervals use the normal approximation with the plug-in standard error: the
guarantees are asymptotic (for the mixture, an "asymptotic confidence sequence",
Waudby-Smith, Arbour, Sinha, Kennedy, Ramdas 2024), which is sound at settle's sizes
(thousands of bounded per-game differences).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from unosim.errors import UnosimError
from unosim.simulate.round_metrics import margins as declared_margins

_N = NormalDist()
_ERFC = np.frompyfunc(math.erfc, 1, 1)

TRUE = "TRUE"
FALSE = "FALSE"
NO_DIFFERENCE = "NO REAL DIFFERENCE"
DEPENDS = "DEPENDS"
NOT_SHOWN = "NOT SHOWN"
#: a place whose interval decides nothing yet (play on; NOT SHOWN at the cap)
UNDECIDED = "UNDECIDED"
DIRECTIONS = ("higher", "lower", "same")
KINDS = ("obrien-fleming", "pocock", "bonferroni", "mixture")
DEFAULT_KIND = "obrien-fleming"


def _cdf(x: np.ndarray) -> np.ndarray:
    """The standard normal distribution function, elementwise (erfc keeps the tails)."""
    return 0.5 * _ERFC(-np.asarray(x, float) / math.sqrt(2.0)).astype(float)


def two_sided_z(alpha: float) -> float:
    """The z of a two-sided interval that misses with probability ``alpha``."""
    return _N.inv_cdf(1.0 - alpha / 2.0)


def _check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise UnosimError(f"the error rate alpha must be within (0, 1), got {alpha}")


# ---------------------------------------------------------------- the confidence sequence


def mixture_rho(v_opt: float, alpha: float) -> float:
    """The mixture's spread rho that makes the two-sided boundary (nearly) the tightest
    at intrinsic time ``v_opt`` (Howard et al. 2021, the two-sided normal mixture; the
    same choice as the ``confseq`` package's ``best_rho``)."""
    _check_alpha(alpha)
    if v_opt <= 0:
        raise UnosimError(f"the time to tune the boundary for must be above 0, got {v_opt}")
    ell = math.log(1.0 / alpha)
    return v_opt / (2.0 * ell + math.log(1.0 + 2.0 * ell))


def normal_mixture_bound(v: float, alpha: float, rho: float) -> float:
    """The two-sided normal-mixture boundary u(v) on |S_n|, S_n the sum of n centred
    differences, at intrinsic time v = n * sigma^2:

        u(v) = sqrt((v + rho) * log((v + rho) / (rho * alpha^2)))

    Why it holds at every n at once: mixing exp(l*S - l^2*v/2) over l ~ N(0, 1/rho)
    gives the nonnegative (super)martingale sqrt(rho / (v + rho)) * exp(S^2 / (2 (v +
    rho))); by Ville's inequality it ever reaches 1/alpha with chance at most alpha, and
    it reaches 1/alpha exactly when |S| reaches u(v)."""
    _check_alpha(alpha)
    return math.sqrt((v + rho) * math.log((v + rho) / (rho * alpha * alpha)))


def mixture_z(n: float, n_opt: float, alpha: float) -> float:
    """The confidence sequence's half-width in standard errors after ``n`` pairs, its
    boundary tuned for ``n_opt`` pairs: half-width = mixture_z * se.

    With V_n = n * sigma^2 and rho = mixture_rho(n_opt * sigma^2) the half-width
    u(V_n) / n divided by se = sigma / sqrt(n) depends on n / n_opt and alpha only, so
    sigma (estimated by the studies) cancels and the plug-in se is all it needs."""
    if n <= 0:
        return math.inf
    rho = mixture_rho(float(n_opt), alpha)  # in units of sigma^2
    return normal_mixture_bound(float(n), alpha, rho) / math.sqrt(n)


def confidence_sequence(estimate: float, se: float, n: float, n_opt: float,
                        alpha: float = 0.05) -> tuple[float, float]:
    """The anytime-valid interval for the mean paired difference after ``n`` pairs:
    estimate +- mixture_z(n, n_opt, alpha) * se (se the standard error of the mean)."""
    h = mixture_z(n, n_opt, alpha) * se
    return estimate - h, estimate + h


# ---------------------------------------------------------------- fixed looks, spending


def spent(kind: str, t: float, alpha: float) -> float:
    """The error spent by information fraction ``t`` (0 < t <= 1), two-sided, Lan-DeMets:
    O'Brien-Fleming-like 4 - 4 Phi(z_{1-alpha/4} / sqrt t), i.e. alpha/2 spent on each
    side as in ldbounds and gsDesign (almost nothing early, nearly all at the end);
    Pocock-like alpha * log(1 + (e - 1) t) (about evenly)."""
    if t <= 0:
        return 0.0
    t = min(t, 1.0)
    if kind == "obrien-fleming":
        return 4.0 - 4.0 * _N.cdf(_N.inv_cdf(1.0 - alpha / 4.0) / math.sqrt(t))
    if kind == "pocock":
        return alpha * math.log(1.0 + (math.e - 1.0) * t)
    raise UnosimError(f"no spending function {kind!r}; one of obrien-fleming, pocock")


_GRID = 1201  # points per look (odd, for Simpson's rule)


def _simpson(a: float, b: float, m: int = _GRID) -> tuple[np.ndarray, np.ndarray]:
    x = np.linspace(a, b, m)
    w = np.ones(m)
    w[1:-1:2], w[2:-1:2] = 4.0, 2.0
    return x, w * (b - a) / (3.0 * (m - 1))


def _edge(z: float, t: float) -> float:
    """The boundary on the Brownian path W(t) (variance t); an unlimited one is cut
    where the path has no mass left (12 standard deviations)."""
    return min(z, 12.0) * math.sqrt(t)


class _Path:
    """The sub-density of W(t_k) on the paths that stayed inside every boundary so far
    (Armitage-McPherson-Rowe recursion), on a Simpson grid."""

    def __init__(self, z1: float, t1: float):
        c = _edge(z1, t1)
        self.t = t1
        self.x, self.w = _simpson(-c, c)
        self.f = np.exp(-self.x ** 2 / (2 * t1)) / math.sqrt(2 * math.pi * t1)

    def stay(self, z: float, t: float) -> float:
        """P(inside every boundary so far and |W(t)| < z sqrt(t)) at the next look."""
        s = math.sqrt(t - self.t)
        c = z * math.sqrt(t)
        inside = _cdf((c - self.x) / s) - _cdf((-c - self.x) / s)
        return float(np.sum(self.w * self.f * inside))

    def step(self, z: float, t: float) -> None:
        s = math.sqrt(t - self.t)
        c = _edge(z, t)
        x, w = _simpson(-c, c)
        k = np.exp(-(x[:, None] - self.x[None, :]) ** 2 / (2 * s * s)) / (
            math.sqrt(2 * math.pi) * s)
        self.f = k @ (self.w * self.f)
        self.x, self.w, self.t = x, w, t


def _fractions(looks: Sequence[float]) -> list[float]:
    looks = [float(x) for x in looks]
    if not looks or any(b <= a for a, b in zip(looks, looks[1:], strict=False)) \
            or looks[0] <= 0:
        raise UnosimError(f"looks must be increasing sizes above 0, got {list(looks)}")
    return [float(v) / float(looks[-1]) for v in looks]


def simultaneous_level(z: Sequence[float], looks: Sequence[float]) -> float:
    """The chance that every look's interval (z[k] standard errors wide each side)
    holds the true difference, looks at sizes ``looks`` (pairs, or anything in
    proportion): the level the intervals really have together (normal theory)."""
    t = _fractions(looks)
    if len(z) != len(t):
        raise UnosimError("one z per look")
    if len(t) == 1:
        return 2.0 * _N.cdf(min(z[0], 40.0)) - 1.0
    p = _Path(z[0], t[0])
    for k in range(1, len(t)):
        if k == len(t) - 1:
            return p.stay(z[k], t[k])
        p.step(z[k], t[k])
    raise AssertionError  # pragma: no cover


def spending_z(kind: str, looks: Sequence[float], alpha: float = 0.05) -> list[float]:
    """The z of each planned look such that the chance of a miss by look k is exactly
    the error spent by then (kind ``obrien-fleming`` or ``pocock``), or alpha / K at
    each look (``bonferroni``: simple, slightly conservative)."""
    _check_alpha(alpha)
    t = _fractions(looks)
    if kind == "bonferroni":
        return [two_sided_z(alpha / len(t))] * len(t)
    z: list[float] = []
    path: _Path | None = None
    before = 0.0
    for k, tk in enumerate(t):
        a = spent(kind, tk, alpha)
        if a <= before + 1e-15:
            zk = math.inf
        elif path is None:
            zk = two_sided_z(a)
        else:
            target = 1.0 - a
            lo, hi = 0.0, 40.0
            for _ in range(200):  # the chance of staying inside grows with z
                mid = (lo + hi) / 2
                if path.stay(mid, tk) < target:
                    lo = mid
                else:
                    hi = mid
                if hi - lo < 1e-11:
                    break
            zk = (lo + hi) / 2
        z.append(zk)
        before = max(before, a)
        if k + 1 < len(t):
            if path is None:
                path = _Path(zk, tk)
            else:
                path.step(zk, tk)
    return z


@dataclass(frozen=True)
class Boundary:
    """The plan of a sequential verdict: the z of each look, the level each look's
    interval has on its own, and the level they have together (what to print)."""

    kind: str
    alpha: float
    looks: tuple[float, ...]  # planned sizes (pairs, or anything in proportion)
    z: tuple[float, ...]
    level: float  # the chance that every look's interval holds the truth (normal theory)
    n_opt: float | None = None  # the mixture's tuning size

    @property
    def per_look_level(self) -> tuple[float, ...]:
        return tuple(2.0 * _N.cdf(min(z, 40.0)) - 1.0 for z in self.z)

    def z_at(self, n: float) -> float:
        """The z after ``n`` pairs: any n for the mixture (anytime valid), else only a
        planned look."""
        if self.kind == "mixture":
            return mixture_z(n, float(self.n_opt or self.looks[-1]), self.alpha)
        for look, z in zip(self.looks, self.z, strict=True):
            if math.isclose(look, n, rel_tol=1e-9):
                return z
        raise UnosimError(f"{n:g} is not a planned look of this {self.kind} boundary "
                          f"(looks {', '.join(f'{x:g}' for x in self.looks)})")

    def interval(self, look: int, estimate: float, se: float) -> tuple[float, float]:
        """The interval at look ``look`` (0-based)."""
        h = self.z[look] * se
        return estimate - h, estimate + h

    def describe(self) -> str:
        """e.g. ``95.0% at all 3 looks together (O'Brien-Fleming spending; each look
        99.999%, 99.7%, 95.1%)``: the level the intervals really have, together and
        each on its own."""
        name = {"obrien-fleming": "O'Brien-Fleming spending", "pocock": "Pocock spending",
                "bonferroni": "Bonferroni over the looks",
                "mixture": "normal-mixture confidence sequence"}[self.kind]
        each = ", ".join(_pct(p) for p in self.per_look_level)
        return (f"{_pct(self.level)} at all {len(self.z)} looks together ({name}; each "
                f"look {each})")


def _pct(p: float) -> str:
    """A level in percent with the decimals that show how far it is from 100%."""
    for d in range(1, 4):
        s = f"{100 * p:.{d}f}"
        if float(s) < 100.0:
            return s + "%"
    return ">99.999%"


def boundary(looks: Sequence[float], alpha: float = 0.05, kind: str = DEFAULT_KIND,
             n_opt: float | None = None) -> Boundary:
    """The boundary for a verdict planned at sizes ``looks`` (e.g. [1, 2, 4] times the
    first look's games) with error ``alpha``: see the module's docstring for the kinds
    and why O'Brien-Fleming spending is the default. The mixture is tuned for
    ``n_opt`` (default: the last look, the cap, where NOT SHOWN is decided)."""
    _check_alpha(alpha)
    if kind not in KINDS:
        raise UnosimError(f"no boundary {kind!r}; one of {', '.join(KINDS)}")
    lk = tuple(float(x) for x in looks)
    _fractions(lk)
    return _boundary(lk, float(alpha), kind, None if n_opt is None else float(n_opt))


@functools.lru_cache(maxsize=256)
def _boundary(lk: tuple[float, ...], alpha: float, kind: str, n_opt: float | None
              ) -> Boundary:
    """``boundary``, kept: solving a spending plan takes a tenth of a second."""
    if kind == "mixture":
        opt = float(n_opt if n_opt is not None else lk[-1])
        z = [mixture_z(x, opt, alpha) for x in lk]
        return Boundary(kind, alpha, lk, tuple(z), simultaneous_level(z, lk), opt)
    z = spending_z(kind, lk, alpha)
    return Boundary(kind, alpha, lk, tuple(z), simultaneous_level(z, lk))


# ---------------------------------------------------------------- verdicts


def decide(direction: str, lo: float, hi: float, margin: float,
           at_cap: bool = False) -> str:
    """One place's verdict from its interval [lo, hi] of (subject - reference) and the
    smallest difference that matters, ``margin`` (>= 0, in the effect's units).

    The line is cut into three regions by the edges -margin and +margin, and a verdict
    is given only when the whole interval lies strictly inside one region; an interval
    touching or straddling an edge decides nothing yet (UNDECIDED: play on; NOT SHOWN
    when ``at_cap``). For ``higher``:

    * TRUE               when lo > +margin  (longer by more than what matters);
    * FALSE              when hi < -margin  (the opposite, by more than what matters);
    * NO REAL DIFFERENCE when -margin < lo and hi < +margin (margin > 0 only).

    ``lower`` is the mirror image (TRUE when hi < -margin, FALSE when lo > +margin).
    An interval inside (-inf, +margin] is *not* FALSE by itself: a true effect of +0.1
    turn under a 1-turn margin should read NO REAL DIFFERENCE, one of -3 turns FALSE,
    and [-1.5, -0.5] (margin 1) could be either, so it stays undecided; the claim as
    stated is ruled out (see ``ruled_out``) but not which answer holds.

    ``same`` (an equivalence claim): TRUE when -margin < lo and hi < +margin (no real
    difference, as claimed), FALSE when lo > +margin or hi < -margin (a difference that
    matters), otherwise undecided.

    Why this is safe to stop on: when every look's interval holds the true difference
    (chance 1 - alpha for the boundaries here), no rule above can give a wrong answer,
    so a verdict taken at the first look that decides errs with chance at most alpha."""
    if direction not in DIRECTIONS:
        raise UnosimError(f"direction must be one of {', '.join(DIRECTIONS)}, got "
                          f"{direction!r}")
    if margin < 0 or not math.isfinite(margin):
        raise UnosimError(f"a margin must be 0 or more, got {margin}")
    none = NOT_SHOWN if at_cap else UNDECIDED
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
        return none
    inside = -margin < lo and hi < margin
    if direction == "same":
        return TRUE if inside else FALSE if (lo > margin or hi < -margin) else none
    if direction == "lower":
        lo, hi = -hi, -lo
    if lo > margin:
        return TRUE
    if hi < -margin:
        return FALSE
    return NO_DIFFERENCE if inside else none


def ruled_out(direction: str, lo: float, hi: float, margin: float) -> list[str]:
    """The verdicts an undecided interval already excludes (for a NOT SHOWN line:
    "rules out TRUE"), in the order TRUE, FALSE, NO REAL DIFFERENCE."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    if direction == "lower":
        lo, hi = -hi, -lo
    out = []
    beyond = lo >= margin or hi <= -margin  # no value inside (-margin, margin) is left
    if direction == "same":
        if beyond:
            out.append(TRUE)
        if -margin <= lo and hi <= margin:
            out.append(FALSE)
    else:
        if hi <= margin:
            out.append(TRUE)
        if lo >= -margin:
            out.append(FALSE)
        if beyond:
            out.append(NO_DIFFERENCE)
    return sorted(set(out), key=(TRUE, FALSE, NO_DIFFERENCE).index)


def combine(places: Sequence[str]) -> str:
    """A claim's verdict from its places' verdicts (player counts, seats), in order:

    1. DEPENDS when some place is TRUE and another is FALSE or NO REAL DIFFERENCE: the
       claim holds at some places and not at others, whatever the undecided ones show
       (so TRUE at one place and FALSE at another is always DEPENDS);
    2. NOT SHOWN when any place is undecided (UNDECIDED or NOT SHOWN), or there is no
       place: the decided ones agree, but the rest could still change the answer;
    3. the one verdict every place has (TRUE, FALSE or NO REAL DIFFERENCE);
    4. FALSE when places are FALSE and NO REAL DIFFERENCE: the claim holds nowhere, and
       somewhere the opposite holds by more than the margin (the places say where).

    A claim is asked at every place it names, so TRUE needs TRUE at every place."""
    kinds = set(places)
    unknown = kinds - {TRUE, FALSE, NO_DIFFERENCE, UNDECIDED, NOT_SHOWN}
    if unknown:
        raise UnosimError(f"not a place's verdict: {', '.join(sorted(unknown))}")
    if TRUE in kinds and kinds & {FALSE, NO_DIFFERENCE}:
        return DEPENDS
    if not kinds or kinds & {UNDECIDED, NOT_SHOWN}:
        return NOT_SHOWN
    if len(kinds) == 1:
        return kinds.pop()
    return FALSE


def settled(places: Sequence[str]) -> bool:
    """Whether more games could change the claim's verdict: not when every place is
    decided or the claim already DEPENDS. (A place keeps the verdict of the first look
    that decides it; the boundaries cover every look, so later looks need not reopen
    it.)"""
    return bool(places) and (UNDECIDED not in places and NOT_SHOWN not in places
                             or combine(places) == DEPENDS)


def sequential_verdict(direction: str, margin: float, z: Sequence[float],
                       read: Callable[[int, float], Sequence[tuple[float, float]]]
                       ) -> tuple[str, list[str], int]:
    """The verdict settle reaches on one stage of places, given each look's intervals:
    ``read(look, z)`` (look from 1) gives every place's (low, high) at that look's z.
    The rules of ``studies/settle/looks.py`` without the games: a look that spends no error
    is skipped, a place keeps the verdict of the first look that decides it, play stops
    at the first look where the claim is settled, and a place undecided at the end is
    NOT SHOWN. Returns (the claim's verdict, the places' verdicts, the last look read),
    so the procedure can be measured on draws of a known effect (settle --error-rate)."""
    decided: dict[int, str] = {}
    latest: list[str] = []
    last = 0
    for look, zk in enumerate(z, start=1):
        at_cap = look == len(z)
        if not math.isfinite(zk) and not at_cap:
            continue
        last = look
        latest = [decide(direction, lo, hi, margin, at_cap) for lo, hi in read(look, zk)]
        for i, v in enumerate(latest):
            if i not in decided and v in (TRUE, FALSE, NO_DIFFERENCE):
                decided[i] = v
        if settled([decided.get(i, v) for i, v in enumerate(latest)]):
            break
    places = [decided.get(i, v) for i, v in enumerate(latest)]
    places = [NOT_SHOWN if v == UNDECIDED else v for v in places]
    return (combine(places) if places else NOT_SHOWN), places, last


# ---------------------------------------------------------------- games needed


def games_needed(estimate: float, se: float, n: float, margin: float,
                 z: float | Callable[[float], float], power: float = 0.8) -> float:
    """About how many pairs in all (``n`` played so far) would likely decide a place
    left undecided at the cap.

    Assumes (1) the true difference equals the current estimate, (2) the standard
    error shrinks as 1/sqrt(pairs) from the current ``se``, (3) a new run planned for
    that size decides with ``z`` standard errors (a number, or a function of the pairs
    for the mixture, whose z grows slowly with n). The interval then clears the edge
    nearest the estimate (-margin or +margin; 0 without a margin), at distance d,
    with chance ``power`` when d / se_new = z + z_power:

        n_new = n * ((z + z_power) * se / d) ** 2.

    Infinite when the estimate sits on an edge (no number of games decides it); ``n``
    itself when the interval already clears it. An estimate, not a promise: the
    estimate moves as games are played."""
    if not 0.0 < power < 1.0:
        raise UnosimError(f"power must be within (0, 1), got {power}")
    if not (math.isfinite(estimate) and math.isfinite(se)) or se < 0 or n <= 0:
        return math.inf
    d = min(abs(estimate - margin), abs(estimate + margin))
    if d == 0.0:
        return math.inf
    zp = _N.inv_cdf(power)
    zf = z if callable(z) else (lambda _n, _z=float(z): _z)
    if zf(float(n)) * se < d:
        return float(n)  # the interval already clears the edge: decided
    need = float(n)
    for _ in range(100):  # a fixed point: the mixture's z depends on the size
        new = n * ((zf(need) + zp) * se / d) ** 2
        if abs(new - need) <= 1e-9 * max(need, 1.0):
            need = new
            break
        need = new
    return max(float(n), need)


# ---------------------------------------------------------------- a catalogue's error


@dataclass(frozen=True)
class ClaimAlpha:
    """The error a claim is settled at under ``--all`` and at each of its places."""

    claim: float
    place: float


def family_alphas(places: Mapping[str, int], alpha: float = 0.05,
                  method: str = "bonferroni",
                  pvalues: Mapping[str, float] | None = None) -> dict[str, ClaimAlpha]:
    """Each claim's alpha under ``--all``, and each place's within it.

    ``bonferroni`` (the default): m claims, claim c with k_c places, each claim at
    alpha / m and each of its places at alpha / (m * k_c). A wrong verdict anywhere needs
    some place's intervals to miss, so by the union bound the chance of any wrong
    verdict in the catalogue (the family-wise error) is at most alpha, whatever the
    dependence between claims (they share a seed and often a baseline). The price: at
    28 claims the cap's z (O'Brien-Fleming, looks 1x/2x/4x) grows from 1.97 to 3.12,
    about 2.5 times the games for the same width (3.51 for a place of a 4-place claim).

    ``holm``: Holm's step-down over the claims, from one p-value per claim (``pvalues``:
    e.g. the test that the effect is beyond the margin in the claimed direction, made
    valid over the places by Bonferroni): the claim with the i-th smallest p-value is
    tested at alpha / (m - i + 1) while every smaller one was rejected; from the first
    that is not, the rest stay at that level. The family-wise error of those
    hypotheses stays at most alpha, with more claims decided than Bonferroni; it does
    not make the intervals simultaneous, so the four-way verdicts' guarantee is
    Bonferroni's, which is why that is the default."""
    _check_alpha(alpha)
    if any(k < 1 for k in places.values()):
        raise UnosimError("every claim has at least one place")
    m = len(places)
    if m == 0:
        return {}
    if method == "bonferroni":
        return {c: ClaimAlpha(alpha / m, alpha / m / k) for c, k in places.items()}
    if method != "holm":
        raise UnosimError(f"no family method {method!r}; one of bonferroni, holm")
    if pvalues is None or set(pvalues) != set(places):
        raise UnosimError("holm needs one p-value per claim")
    levels = holm(pvalues, alpha)
    return {c: ClaimAlpha(levels[c][0], levels[c][0] / k) for c, k in places.items()}


def holm(pvalues: Mapping[str, float], alpha: float = 0.05
         ) -> dict[str, tuple[float, bool]]:
    """Holm's step-down: per hypothesis (the level it is tested at, rejected). Sorted by
    p-value (ties in the order given), the i-th (from 1) is tested at alpha / (m - i +
    1) as long as every one before it was rejected; from the first not rejected on,
    none is, and each keeps that level."""
    _check_alpha(alpha)
    order = sorted(pvalues, key=lambda c: pvalues[c])
    m = len(order)
    out: dict[str, tuple[float, bool]] = {}
    going = True
    level = alpha / m if m else alpha
    for i, c in enumerate(order):
        if going:
            level = alpha / (m - i)
            going = pvalues[c] <= level
        out[c] = (level, going)
    return out


def familywise_error(alphas: Sequence[float], independent: bool = False) -> float:
    """The chance of at least one wrong verdict among claims settled at ``alphas``:
    the union bound sum(alphas) (capped at 1), valid always; with ``independent``,
    1 - prod(1 - alpha), what 28 claims at 5% each give (76%: "wrong about three times in
    four")."""
    if independent:
        return 1.0 - math.prod(1.0 - a for a in alphas)
    return min(1.0, math.fsum(alphas))


# ---------------------------------------------------------------- margins

#: The smallest difference that matters to players, per metric, in the units the
#: studies give the effect in (rates and shares as fractions: 0.005 is half a percentage
#: point). A claim may set its own. ``MATCH_MARGINS`` overrides for match-mode metrics.
#: The per-round metrics declare theirs beside their record field
#: (simulate/round_metrics.py); the others are here.
MARGINS: dict[str, float] = {
    # win rates (seat_win_N, seat_edge_N, the tournament's win_rate): half a point, one
    # round in 200, about what a group playing weekly meets in a season
    "seat_win": 0.005,
    "seat_edge": 0.005,
    "win_rate": 0.005,
    # share of rounds one strategy finishes ahead of the other (head to head, 50% fair):
    # a point, 51 to 49; a pairwise share moves more than a win rate per round changed
    "ahead": 0.01,
    # points per seat and round (tournament): 2 points, about one 20-point action card
    # over a ten-round match
    "net_points": 2.0,
    "points_won": 2.0,
    **declared_margins(),
    # cards drawn, no play and penalty together: as each of them
    "cards_drawn": 1.0,
    # capped rounds: half a point, as a win rate
    "capped": 0.005,
    # seat balance (1 - win rate spread): a point of spread between the best and worst seat
    "seat_balance": 0.01,
    # skill edge (0 chance, 1 always wins): 0.01, a hundredth of the way from chance to
    # always winning, about a third of a point of win rate at 4 players
    "skill_edge": 0.01,
    # matches
    "player_win": 0.005,
    "tied": 0.005,
    "rounds": 0.5,  # half a round a match (a match to 500 is about 5 to 8 rounds)
    "winner_score": 10.0,  # 10 points of the match winner's final score
}

MATCH_MARGINS: dict[str, float] = {
    "turns": 5.0,  # turns a match: about one turn in each of its rounds
    "capped": 0.005,
}


#: the margins that differ by mode, by the mode's name (runs/modes.py)
MODE_MARGINS: dict[str, dict[str, float]] = {"round": {}, "match": MATCH_MARGINS}


def default_margin(metric: str, mode: object = "round") -> float:
    """The smallest difference that matters for ``metric`` in ``mode`` (a mode or its
    name; per-seat and per-player metrics such as seat_win_2 or player_win_0 share
    their family's margin)."""
    own = MODE_MARGINS[str(mode)]
    if metric in own:
        return own[metric]
    if metric in MARGINS:
        return MARGINS[metric]
    base, _, tail = metric.rpartition("_")
    if tail.isdigit() and base in MARGINS:
        return MARGINS[base]
    raise UnosimError(f"no default margin for metric {metric!r}; give the claim a margin")
