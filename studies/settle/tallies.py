"""How often settle's verdicts are wrong (``unosim settle --error-rate``): claims whose
answer is known, settled many times, tallied verdict by verdict against the verdicts
the truth allows, with the wrong-verdict rate and the power (the rate of the right
verdict), each with a 95% Wilson interval.

Which verdicts are right follows from the true effect and the margin alone: beyond
+margin on the claimed side TRUE, beyond it on the other side FALSE, strictly inside
NO REAL DIFFERENCE (for ``same``: TRUE inside, FALSE beyond). NOT SHOWN is never
wrong (it decides nothing) and never right; DEPENDS is wrong when every place has the
same truth. A truth exactly on an edge (an effect of 0 under a margin of 0, the
"sign null") allows no decision at all: every TRUE or FALSE there is an error, which
is what the error rate alpha bounds.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from typing import Any

from unosim.common import wilson
from unosim.stats import verdicts as vs

ORDER = (vs.TRUE, vs.FALSE, vs.NO_DIFFERENCE, vs.DEPENDS, vs.NOT_SHOWN)
SHORT = {vs.TRUE: "TRUE", vs.FALSE: "FALSE", vs.NO_DIFFERENCE: "NO DIFF",
         vs.DEPENDS: "DEPENDS", vs.NOT_SHOWN: "NOT SHOWN"}


def right_verdicts(direction: str, truth: float, margin: float) -> frozenset[str]:
    """The verdicts a true effect ``truth`` makes right for a claim in ``direction``
    with ``margin``; empty on an edge of the margin, where only NOT SHOWN is not wrong."""
    if direction == "lower":
        truth = -truth
    inside, beyond = abs(truth) < margin, abs(truth) > margin
    if direction == "same":
        return frozenset({vs.TRUE} if inside else {vs.FALSE} if beyond else ())
    if truth > margin:
        return frozenset({vs.TRUE})
    if truth < -margin:
        return frozenset({vs.FALSE})
    return frozenset({vs.NO_DIFFERENCE} if inside else ())


@dataclass
class Tally:
    """The verdicts of one known-answer claim (or one synthetic setting) over its
    repetitions."""

    name: str
    kind: str  # "null" (no effect) or "planted" (an effect of known size)
    about: str  # what is compared, and the truth, in words
    direction: str
    truth: float
    margin: float
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ORDER, 0))
    seconds: float = 0.0
    note: str = ""  # e.g. "reference only: not settle's boundary"

    @property
    def right(self) -> frozenset[str]:
        return right_verdicts(self.direction, self.truth, self.margin)

    def add(self, verdict: str) -> None:
        if verdict not in self.counts:
            raise ValueError(f"not a verdict: {verdict}")
        self.counts[verdict] += 1

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    @property
    def wrong(self) -> int:
        """Decisions the truth rules out (NOT SHOWN is not one)."""
        return sum(k for v, k in self.counts.items()
                   if v != vs.NOT_SHOWN and v not in self.right)

    @property
    def correct(self) -> int:
        return sum(self.counts[v] for v in self.right)

    def rate(self, k: int) -> tuple[float, float, float]:
        """(share, low, high): ``k`` of the repetitions, with its 95% Wilson interval."""
        if self.n == 0:
            return math.nan, math.nan, math.nan
        lo, hi = wilson(k, self.n)
        return k / self.n, lo, hi

    def power(self) -> tuple[float, float, float] | None:
        """The rate of the right verdict, or None when no verdict is right (an edge)."""
        return self.rate(self.correct) if self.right else None

    def as_dict(self) -> dict[str, Any]:
        w = self.rate(self.wrong)
        p = self.power()
        return {"name": self.name, "kind": self.kind, "about": self.about,
                "direction": self.direction, "truth": self.truth, "margin": self.margin,
                "right": sorted(self.right, key=ORDER.index), "n": self.n,
                "counts": dict(self.counts), "wrong": self.wrong,
                "wrong_rate": w[0], "wrong_low": w[1], "wrong_high": w[2],
                "power": None if p is None else p[0],
                "power_low": None if p is None else p[1],
                "power_high": None if p is None else p[2],
                "seconds": self.seconds, "note": self.note}


def _pct(x: float) -> str:
    if x != x:
        return "-"
    return f"{100 * x:.1f}%"


def _interval(r: tuple[float, float, float] | None) -> str:
    if r is None or r[0] != r[0]:
        return "-"
    return f"{_pct(r[0])} [{100 * r[1]:.1f}, {100 * r[2]:.1f}]"


def render_tallies(tallies: list[Tally]) -> list[str]:
    """One line per tally: the share of each verdict, the wrong rate and the power
    with their 95% intervals."""
    head = (f"{'':<28} {'n':>5} " + " ".join(f"{SHORT[v]:>9}" for v in ORDER)
            + f"  {'wrong [95% interval]':<22} power [95% interval]")
    out = [head]
    for t in tallies:
        shares = " ".join(f"{_pct(t.counts[v] / t.n) if t.n else '-':>9}" for v in ORDER)
        out.append(f"{t.name:<28} {t.n:>5} {shares}  {_interval(t.rate(t.wrong)):<22} "
                   f"{_interval(t.power())}")
        right = " or ".join(sorted(t.right, key=ORDER.index)) or "none (only NOT SHOWN)"
        out.append(f"  {t.about}; right: {right}" + (f"; {t.note}" if t.note else ""))
    return out


def pooled(tallies: list[Tally]) -> tuple[int, int, int, int]:
    """(repetitions, false TRUE, false FALSE, any wrong) over the null claims with a
    margin (their right verdict is NO REAL DIFFERENCE, or TRUE for ``same``)."""
    ts = [t for t in tallies if t.kind == "null" and t.right and not t.note]
    n = sum(t.n for t in ts)
    ft = sum(t.counts[vs.TRUE] for t in ts if vs.TRUE not in t.right)
    ff = sum(t.counts[vs.FALSE] for t in ts if vs.FALSE not in t.right)
    return n, ft, ff, sum(t.wrong for t in ts)


def pooled_line(tallies: list[Tally], what: str) -> str:
    """``real games, null claims with a margin pooled: 200 settled, false TRUE ...``."""
    n, ft, ff, wrong = pooled(tallies)
    if n == 0:
        return f"{what}: no null claim with a margin finished"

    def share(k: int) -> str:
        lo, hi = wilson(k, n)
        return f"{_pct(k / n)} [{100 * lo:.1f}, {100 * hi:.1f}]"
    return (f"{what}, null claims with a margin pooled: {n:,} settled, false TRUE "
            f"{share(ft)}, false FALSE {share(ff)}, any wrong verdict {share(wrong)}")


def render(summary: dict[str, Any], synthetic: list[Tally], real: list[Tally]) -> str:
    """The report of ``settle --error-rate`` as text."""
    s = summary
    lines = [f"unosim settle --error-rate · seed {s['seed']} · each claim's error at most "
             f"{100 * s['alpha']:g}% · {s['boundary']}"]
    if synthetic:
        lines += ["", f"The verdict procedure on draws of a known effect ({s['replications']:,} "
                      f"repetitions each; normal differences, {s['pairs']:,} pairs at the first "
                      f"look; margin and effects in standard errors of the last look; "
                      f"{s['synthetic_s']:.1f} s):", *render_tallies(synthetic)]
    if real and s["seeds"]:
        lines += ["", f"Real games: settle on claims with a known answer, "
                      f"{s['seeds_done']} of {s['seeds']} seeds ({s['real_s']:.0f} s):",
                  *render_tallies(real), pooled_line(real, "real games")]
    if s.get("partial"):
        lines.append(f"PARTIAL: stopped after {s['seeds_done']} of {s['seeds']} seeds; the "
                     "figures above cover the finished runs")
    return "\n".join(lines)


def tallies_csv(synthetic: list[Tally], real: list[Tally]) -> str:
    """One row per tally, rates as shares."""
    buf = io.StringIO()
    cols = ["part", "name", "kind", "about", "direction", "truth", "margin", "right", "n",
            *[f"n_{SHORT[v].lower().replace(' ', '_')}" for v in ORDER], "wrong",
            "wrong_rate", "wrong_low", "wrong_high", "power", "power_low", "power_high",
            "note"]
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for part, ts in (("synthetic", synthetic), ("real", real)):
        for t in ts:
            d = t.as_dict()
            w.writerow([part, t.name, t.kind, t.about, t.direction, t.truth, t.margin,
                        " or ".join(d["right"]), t.n, *[t.counts[v] for v in ORDER],
                        t.wrong, d["wrong_rate"], d["wrong_low"], d["wrong_high"],
                        d["power"], d["power_low"], d["power_high"], t.note])
    return buf.getvalue()
