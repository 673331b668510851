"""``settle --error-rate``: how often settle's verdicts are wrong, measured on claims
whose answer is known, two ways.

* **The procedure alone** (synthetic): the sequential verdict of
  ``stats.verdicts.sequential_verdict`` (the looks at 1x, 2x, 4x with settle's
  O'Brien-Fleming z, the margin, the first look that decides) fed with draws of a
  known mean difference, thousands of times: its false rate against the nominal
  alpha, and its power as the effect moves from inside the margin to beyond it.
  The draws are exact normal pairs (each look's sum and sum of squared deviations
  drawn from their distributions), so a setting of thousands of repetitions takes
  well under a second.
* **Real games** (end to end): ``settle_claim`` itself on claims built to have a known
  answer, over many seeds. A *null* claim compares a variant with one that plays the
  same game in distribution but not the same games: forgetting to call UNO costs
  nothing when the penalty is 0 cards, yet every forgotten call draws a random number,
  so the strategies' later choices differ (a variant identical to its baseline would
  replay the very same games, and its interval would be exactly 0, which measures
  nothing). A *planted* claim has an effect measured once on 200,000 to 400,000 games,
  far from the margin's edges in standard errors of that measurement.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from unosim.runs.backend import Backend
from unosim.runs.checkpoint import Keeper
from unosim.stats import verdicts as vs
from unosim.studies.settle.claims import Claim, parse_claim
from unosim.studies.settle.looks import ALPHA, about, settle_claim
from unosim.studies.settle.stages import planned_units
from unosim.studies.settle.tallies import Tally, render

#: a variant that plays the baseline's game in distribution, on other games: a
#: forgotten UNO call costs 0 cards but draws a random number
NULL_VARIANT = {"rules": ["uno_penalty=0"], "variant": ["official"],
                "variant_rules": ["uno_forget_prob=0.5"]}
NULL_WHY = "a forgotten UNO call costing 0 cards: the same game in distribution"
#: where the synthetic pairs start (first look); the last look has 4x as many
PAIRS = 1000
REPLICATIONS = 4000
SEEDS = 40
#: the checkpoint stage holding each finished real run's verdict
DONE = "error-rate#done"


@dataclass(frozen=True)
class Known:
    """A claim whose true effect is known, and how it is known."""

    name: str
    kind: str  # "null" or "planted"
    truth: float  # the true effect, in the claim's units
    why: str
    fields: dict[str, Any] = field(default_factory=dict)

    def claim(self, games: int | None = None) -> Claim:
        data = {"claim": f"known answer: {self.name}", "source": self.why, **self.fields}
        if games is not None:
            data["games"] = games
        return parse_claim(data, f"known-answer claim {self.name}", self.name)


_TURNS = {"study": "compare", "metric": "turns", "direction": "higher", "games": 2000,
          **NULL_VARIANT}
_STACKING = {"study": "compare", "metric": "turns", "direction": "higher",
             "variant": ["stacking"], "games": 250}
_STACKING_WHY = "stacking adds 3.12 turns a round (+-0.034, 400,384 games)"

KNOWN: tuple[Known, ...] = (
    Known("null-turns", "null", 0.0, NULL_WHY, _TURNS),
    Known("null-turns-sign", "null", 0.0, NULL_WHY, {**_TURNS, "margin": 0}),
    Known("null-turns-same", "null", 0.0, NULL_WHY, {**_TURNS, "direction": "same"}),
    Known("null-turns-places", "null", 0.0, NULL_WHY, {**_TURNS, "players": [3, 5]}),
    Known("null-ahead", "null", 0.0, NULL_WHY,
          {"study": "tournament", "metric": "ahead", "direction": "higher", "games": 8000,
           "rules": ["uno_penalty=0"], "strategies": ["random:forget=0.5", "random"]}),
    Known("null-skill", "null", 0.0, NULL_WHY,
          {"study": "skill", "metric": "skill_edge", "direction": "higher",
           "strategy": "offensive", "games": 8000, **NULL_VARIANT}),
    Known("planted-longer", "planted", 3.118, _STACKING_WHY, _STACKING),
    Known("planted-shorter", "planted", 3.118, _STACKING_WHY,
          {**_STACKING, "direction": "lower"}),
    Known("planted-inside", "planted", 3.118, _STACKING_WHY, {**_STACKING, "margin": 6}),
    Known("planted-ahead", "planted", -0.0275,
          "forgetting UNO one time in ten loses 2.75 points of rounds ahead (+-0.08, "
          "401,408 games)",
          {"study": "tournament", "metric": "ahead", "direction": "higher", "games": 2000,
           "strategies": ["random:forget=0.1", "random"]}),
    Known("planted-skill", "planted", 0.0451,
          "offensive's skill edge is 0.0451 (+-0.0009, 200,704 deals)",
          {"study": "skill", "metric": "skill_edge", "direction": "higher",
           "strategy": "offensive", "value": 0, "games": 1000}),
)


def known_claims(games: int | None = None) -> list[tuple[Known, Claim]]:
    """Every known-answer claim, checked like a claim file (``games``: the first look)."""
    return [(k, k.claim(games)) for k in KNOWN]


def _about(k: Known, c: Claim) -> str:
    return (f"{about(c)}; {c.games:,} games a first look, {c.direction}, margin {c.margin:g}; "
            f"true effect {k.truth:+g}: {k.why}")


# ---------------------------------------------------------------- the measure


@dataclass
class ErrorRates:
    """What ``settle --error-rate`` measured: the run's summary (seed, error, looks,
    repetitions, seeds, timings, partial), the synthetic settings' tallies and the real
    known-answer claims' tallies."""

    summary: dict[str, Any]
    synthetic: list[Tally]
    real: list[Tally]

    @property
    def partial(self) -> bool:
        return bool(self.summary["partial"])

    def to_dict(self) -> dict[str, Any]:
        """The JSON of the run (``--format json`` and error-rate.json)."""
        return {**self.summary, "synthetic": [t.as_dict() for t in self.synthetic],
                "real": [t.as_dict() for t in self.real]}

    def text(self) -> str:
        return render(self.summary, self.synthetic, self.real)


def measure(known: list[tuple[Known, Claim]], seed: int, backend: Backend,
            keep: Keeper | None = None, *, seeds: int = SEEDS,
            replications: int = REPLICATIONS, alpha: float = ALPHA,
            progress: Callable[[int, Callable[[Any], Any]], Any] | None = None
            ) -> ErrorRates:
    """The verdict procedure on ``replications`` synthetic draws of each setting, then
    settle on the ``known`` claims over ``seeds`` seeds from ``seed`` through
    ``backend`` (``progress(total, job)`` runs ``job(on_batch)`` under the caller's
    bar); partial after a stop, ``keep`` holding the runs finished."""
    keep = keep if keep is not None else Keeper(None, "settle", {})
    run = progress if progress is not None else (lambda _, job: job(None))
    t0 = time.perf_counter()
    synth = synthetic(seed, replications, alpha) if replications else []
    synth_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    real, seeds_done, partial = run(
        planned(known, seed, seeds, backend),
        lambda cb: run_real(known, seed, seeds, backend, keep, cb, alpha))
    summary = {"seed": seed, "alpha": alpha, "boundary": boundary_text(alpha),
               "replications": replications, "pairs": PAIRS, "seeds": seeds,
               "seeds_done": seeds_done, "partial": partial, "synthetic_s": synth_s,
               "real_s": time.perf_counter() - t1}
    return ErrorRates(summary, synth, real)


# ---------------------------------------------------------------- real games


def planned(known: list[tuple[Known, Claim]], seed: int, seeds: int, backend: Backend
            ) -> int:
    """Progress units of every run, were every look played."""
    return seeds * sum(planned_units(c, seed, backend) for _, c in known)


def run_real(known: list[tuple[Known, Claim]], seed: int, seeds: int, backend: Backend,
             keep: Any, on_batch: Callable[[int], None] | None = None,
             alpha: float = ALPHA) -> tuple[list[Tally], int, bool]:
    """Settle each known-answer claim on seeds ``seed`` .. ``seed + seeds - 1``, seed by
    seed; (the tallies, seeds finished, stopped early). A finished run's verdict is
    kept in the checkpoint (its games are dropped), so a resumed run plays only the
    rest."""
    tallies = [Tally(k.name, k.kind, _about(k, c), c.direction, k.truth, c.margin)
               for k, c in known]
    done: dict[str, str] = keep.stages.setdefault(DONE, {})
    for n, s in enumerate(range(seed, seed + seeds)):
        for (k, c), t in zip(known, tallies, strict=True):
            key = f"{k.name}.s{s}"  # its own stages in the checkpoint
            if key not in done:
                v = settle_claim(replace(c, name=key), s, backend, keep, on_batch,
                                 alpha=alpha)
                if v.partial:
                    return tallies, n, True
                done[key] = v.verdict
                t.seconds += v.elapsed_s
                for stage in [x for x in keep.stages if x.startswith(key + "@")]:
                    del keep.stages[stage]
            elif on_batch is not None:
                on_batch(planned_units(c, s, backend))
            t.add(done[key])
    return tallies, seeds, False


# ---------------------------------------------------------------- the procedure alone


@dataclass(frozen=True)
class Setting:
    """A synthetic claim: margin and true effect in standard errors of the last look."""

    name: str
    kind: str
    direction: str
    margin_se: float
    effect_se: float
    naive: bool = False  # z = 1.96 at every look: the uncorrected procedure, for contrast

    def about(self) -> str:
        rel = (f" ({self.effect_se / self.margin_se:g} margins)" if self.margin_se else "")
        z = "; z 1.96 at every look" if self.naive else ""
        return (f"{self.direction}, margin {self.margin_se:g} se, true effect "
                f"{self.effect_se:+g} se{rel}{z}")


def _curve() -> list[Setting]:
    return [Setting(f"effect {f:g} margins", "planted", "higher", 4.0, 4.0 * f)
            for f in (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, -1.5)]


SETTINGS: tuple[Setting, ...] = (
    Setting("sign null (margin 0)", "null", "higher", 0.0, 0.0),
    Setting("sign null, uncorrected", "null", "higher", 0.0, 0.0, naive=True),
    Setting("null, margin 4 se", "null", "higher", 4.0, 0.0),
    Setting("null, margin 2 se", "null", "higher", 2.0, 0.0),
    Setting("null, same, margin 4 se", "null", "same", 4.0, 0.0),
    *_curve(),
)


def draws(rng: np.random.Generator, reps: int, mean: float, looks: int,
          pairs: int = PAIRS) -> tuple[np.ndarray, np.ndarray]:
    """(estimate, plug-in standard error) at each look (columns) of ``reps`` sequences
    of normal pairs with sd 1 and ``mean``, ``pairs`` at the first look, doubling:
    exactly as if drawn pair by pair (each block's sum is normal, its sum of squared
    deviations chi-square, independent)."""
    blocks = np.diff(pairs * (1 << np.arange(looks)), prepend=0)
    bsum = rng.normal(mean * blocks, np.sqrt(blocks), (reps, looks))
    bssd = rng.chisquare(blocks - 1, (reps, looks))
    return from_blocks(bsum, bssd, blocks)


def from_blocks(bsum: np.ndarray, bssd: np.ndarray, blocks: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """(estimate, plug-in standard error) after each block (columns) from each block's
    sum and sum of squared deviations about its own mean, ``blocks`` pairs each: the
    deviations pooled about the running mean, as a study's totals give them."""
    sizes = np.cumsum(blocks)
    bmean = bsum / blocks
    est = np.cumsum(bsum, axis=1) / sizes
    ssd = np.empty_like(est)
    for k in range(len(blocks)):
        ssd[:, k] = (bssd[:, :k + 1] + blocks[:k + 1] * (bmean[:, :k + 1] - est[:, k:k + 1])
                     ** 2).sum(axis=1)
    return est, np.sqrt(ssd / (sizes - 1) / sizes)


def settle_draws(s: Setting, est: np.ndarray, se: np.ndarray, z: list[float],
                 se_last: float) -> list[str]:
    """Each sequence's verdict under settle's rules (``sequential_verdict``)."""
    margin = s.margin_se * se_last
    out = []
    for e, h in zip(est, se, strict=True):
        v, _, _ = vs.sequential_verdict(
            s.direction, margin, z,
            lambda look, zk, e=e, h=h: [(e[look - 1] - zk * h[look - 1],
                                         e[look - 1] + zk * h[look - 1])])
        out.append(v)
    return out


def synthetic(seed: int, reps: int = REPLICATIONS, alpha: float = ALPHA, looks: int = 3,
              settings: tuple[Setting, ...] = SETTINGS, pairs: int = PAIRS) -> list[Tally]:
    """Each setting's verdicts over ``reps`` repetitions, at the boundary settle plans
    for a one-place claim of ``looks`` looks at error ``alpha``."""
    z = list(vs.boundary([1 << k for k in range(looks)], alpha).z)
    se_last = 1.0 / math.sqrt(pairs << (looks - 1))
    out = []
    for i, s in enumerate(settings):
        t0 = time.perf_counter()
        rng = np.random.default_rng([seed, i])
        est, se = draws(rng, reps, s.effect_se * se_last, looks, pairs)
        zs = [vs.two_sided_z(alpha)] * looks if s.naive else z
        t = Tally(s.name, s.kind, s.about(), s.direction, s.effect_se * se_last,
                  s.margin_se * se_last,
                  note="reference only: not settle's boundary" if s.naive else "")
        for v in settle_draws(s, est, se, zs, se_last):
            t.add(v)
        t.seconds = time.perf_counter() - t0
        out.append(t)
    return out


def boundary_text(alpha: float = ALPHA, looks: int = 3) -> str:
    """``looks 1x/2x/4x, O'Brien-Fleming z = 4.33, 2.96, 1.97``: what every setting and
    one-place claim uses."""
    b = vs.boundary([1 << k for k in range(looks)], alpha)
    sizes = "/".join(f"{1 << k}x" for k in range(looks))
    return f"looks {sizes}, O'Brien-Fleming z = {', '.join(f'{x:.2f}' for x in b.z)}"

