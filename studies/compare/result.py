"""A comparison's result: every metric per variant, paired differences from the
baseline with 95% intervals, one plain-language verdict per headline metric, and
its table, JSON and DataFrame (the study that plays it is ``play.py``).

The interval of a difference is the paired one, from the per-game differences
(common random numbers); the independent-samples interval from each variant's own
totals is reported next to it for reference.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from unosim import provenance
from unosim.common import DOCS_URL
from unosim.reports import metrics as MX
from unosim.reports.chart_kit import PALETTE
from unosim.runs import modes
from unosim.runs.variants import VariantSpec
from unosim.simulate import layout as L
from unosim.stats.intervals import Z95, diff_ci, mean_se, wilson
from unosim.stats.numbers import decimals_for
from unosim.studies.compare.totals import Moments, Paired

#: the game-feel verdicts (round mode) and their wording: what the variant shows
#: ("{v}" its value), the words for a higher and a lower value, and the unit
FEEL_VERDICTS = ("comeback", "lead_changes", "first_uno_wins", "seat_balance")
FEEL_PHRASES = {
    "comeback": ("the winner came back from 3 or more cards behind in {v}% of rounds",
                 "more", "fewer", " percentage points"),
    "lead_changes": ("the lead changed {v} times per round", "more", "fewer", ""),
    "first_uno_wins": ("the first player to reach one card won {v}% of rounds",
                       "more", "fewer", " percentage points"),
    "seat_balance": ("seat balance {v} (1: every seat wins as often)", "higher", "lower", ""),
}


def method_note(mode: str) -> str:
    unit = modes.of(mode).one
    first = " (its first round)" if modes.of(mode).by_rounds else ""
    return (
        f"Common random numbers: every variant played {unit} i from the same seed and index, "
        f"and stream 0 of its generator deals, so variants with the same deck, players and "
        f"hand size start {unit} i{first} from the same hands. Each difference is paired: the "
        f"mean of the per-{unit} difference (variant - baseline) over the same {unit} "
        "indices, with a 95% normal interval from its standard error (running sums of d and "
        "d^2 over batch-aligned runs). The independent-samples interval, which ignores the "
        "pairing, is shown for reference; win rates per variant use the Wilson interval."
    )


@dataclass
class Comparison:
    """What a comparison produced (``variants[0]`` is the baseline)."""

    variants: list[VariantSpec]
    mode: str
    seed: int
    requested: int
    workers: int
    max_rounds: int
    results: list[Any]  # RunResult or MatchResult per variant
    moments: list[Moments]
    paired: list[Paired | None]
    elapsed_s: float
    partial: bool = False
    summaries: list[dict[str, Any]] = field(default_factory=list)
    # joint[vi][i + 1, j + 1]: games the baseline's winner was seat i and variant vi's
    # seat j (-1: capped), over the same game indices (round mode; seat_balance's pairing)
    joint: list[np.ndarray | None] = field(default_factory=list)

    # ---------------------------------------------------------------- figures

    @property
    def names(self) -> list[str]:
        return [v.name for v in self.variants]

    @property
    def colours(self) -> list[str]:
        return [PALETTE[i % len(PALETTE)] for i in range(len(self.variants))]

    @property
    def games(self) -> int:
        """Games (or matches) every variant finished."""
        return min(r.agg.games for r in self.results)

    @property
    def unit(self) -> str:
        return modes.of(self.mode).unit

    @property
    def players(self) -> int:
        return max(v.rules["players"] for v in self.variants)

    @property
    def metrics(self) -> list[MX.Metric]:
        return MX.metrics_for(self.mode, self.players)

    def all_zero(self) -> list[str]:
        """Count metrics that are 0 in every game of every variant (rules that never
        came into play, e.g. challenges when nobody challenges): left out of tables."""
        return [m.name for m in self.metrics
                if not m.rate and m.name != "seat_balance" and not self.absent(m.name)
                and all(mo.n.get(m.name, 0) == 0 or mo.s[m.name] == 0
                        for mo in self.moments)]

    def absent(self, name: str) -> bool:
        """A figure these results do not hold (game feel and seat balance need the
        engine's per-game records; a comparison built by hand may lack them)."""
        if name == "seat_balance":
            return "seat_win_0" not in self.moments[0].n
        return name in L.FEEL_METRICS and all(name not in mo.n for mo in self.moments)

    def shown_metrics(self) -> list[MX.Metric]:
        zero = set(self.all_zero())
        return [m for m in self.metrics if m.name not in zero and not self.absent(m.name)]

    def metric(self, name: str) -> MX.Metric:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(name)

    def stat(self, vi: int, name: str) -> dict[str, float]:
        """Mean (or rate), its standard error and 95% interval for variant ``vi``."""
        mo = self.moments[vi]
        if name == "seat_balance":
            return self._balance_stat(vi)
        if name not in mo.n:
            return {"n": 0, "mean": math.nan, "se": math.nan, "ci_low": math.nan,
                    "ci_high": math.nan}
        n = mo.n[name]
        sc = self.metric(name).scale
        mean, se = mean_se(mo.s[name], mo.ss[name], n)
        mean, se = mean / sc, se / sc
        if self.metric(name).rate:
            lo, hi = wilson(mo.s[name], n)
        else:
            lo, hi = mean - Z95 * se, mean + Z95 * se
        return {"n": n, "mean": mean, "se": se, "ci_low": lo, "ci_high": hi}

    def _seat_wins(self, vi: int) -> tuple[list[int], int]:
        mo = self.moments[vi]
        p = self.variants[vi].rules["players"]
        if "seat_win_0" not in mo.n:
            return [], 0
        return [mo.s[f"seat_win_{s}"] for s in range(p)], mo.n["seat_win_0"]

    def _balance_stat(self, vi: int) -> dict[str, float]:
        """seat_balance (docs/metrics.md#seat-balance) with its standard error, the
        seats with the highest and lowest rate taken as given."""
        from unosim.reports.feel import seat_balance, seat_balance_se

        wins, n = self._seat_wins(vi)
        if n == 0:
            return {"n": 0, "mean": math.nan, "se": math.nan, "ci_low": math.nan,
                    "ci_high": math.nan}
        b, se = seat_balance(wins, n), seat_balance_se(wins, n)
        return {"n": n, "mean": b, "se": se, "ci_low": b - Z95 * se, "ci_high": b + Z95 * se}

    def _balance_diff(self, vi: int) -> tuple[int, float, float]:
        """Paired difference of seat_balance from the joint winners of the same games:
        balance = 1 + mean f(winner), f = 1 at the lowest-rate seat, -1 at the
        highest (each variant's own), so the difference is a mean per game."""
        joint = self.joint[vi] if vi < len(self.joint) else None
        if joint is None or joint.sum() == 0:
            return 0, math.nan, math.nan

        def f(v: int) -> np.ndarray:
            wins, _ = self._seat_wins(v)
            out = np.zeros(joint.shape[0])
            if wins:
                hi, lo = wins.index(max(wins)), wins.index(min(wins))
                if hi != lo:
                    out[hi + 1] -= 1
                    out[lo + 1] += 1
            return out

        x = f(vi)[None, :] - f(0)[:, None]
        n = int(joint.sum())
        d, se = mean_se(float((joint * x).sum()), float((joint * x * x).sum()), n)
        return n, d, se

    def diff(self, vi: int, name: str) -> dict[str, float]:
        """Paired difference variant ``vi`` - baseline with its 95% interval, and the
        independent-samples interval for reference."""
        nan = math.nan
        p = self.paired[vi]
        if name == "seat_balance":
            pairs, d, se = self._balance_diff(vi)
        elif p is None or name not in p.n or p.n[name] == 0:
            pairs = 0
        else:
            pairs = p.n[name]
            d, se = mean_se(p.s[name], p.ss[name], pairs)
            sc = self.metric(name).scale
            d, se = d / sc, se / sc
        if pairs == 0 or not math.isfinite(d):
            return {"pairs": 0, "diff": nan, "se": nan, "ci_low": nan, "ci_high": nan,
                    "indep_ci_low": nan, "indep_ci_high": nan, "detected": False}
        b, v = self.stat(0, name), self.stat(vi, name)
        _, ilo, ihi = diff_ci(b["mean"], b["se"], v["mean"], v["se"])
        lo, hi = d - Z95 * se, d + Z95 * se
        detected = bool(math.isfinite(lo) and (lo > 0 or hi < 0))
        return {"pairs": pairs, "diff": d, "se": se, "ci_low": lo, "ci_high": hi,
                "indep_ci_low": ilo, "indep_ci_high": ihi, "detected": detected}

    # ---------------------------------------------------------------- verdicts

    def verdicts(self) -> list[str]:
        out = []
        for vi in range(1, len(self.variants)):
            for name in MX.HEADLINES[self.mode]:
                if name in self.moments[vi].n and name in self.moments[0].n:
                    out.append(self.verdict(vi, name))
        return out

    def feel_verdicts(self) -> list[str]:
        """Plain-language verdicts on how the round unfolds (docs/metrics.md#game-feel):
        comeback, lead changes, first to UNO and seat balance, per variant against the
        baseline."""
        out = []
        if modes.of(self.mode).by_rounds:
            return out
        for vi in range(1, len(self.variants)):
            for name in FEEL_VERDICTS:
                if not self.absent(name):
                    out.append(self.feel_verdict(vi, name))
        return out

    def feel_verdict(self, vi: int, name: str) -> str:
        who, base = self.variants[vi].name, self.names[0]
        rate = self.metric(name).rate
        sc = 100.0 if rate else 1.0
        v = self.stat(vi, name)["mean"] * sc
        b = self.stat(0, name)["mean"] * sc
        d = self.diff(vi, name)
        what, up, down, unit = FEEL_PHRASES[name]
        if not math.isfinite(d["diff"]):
            return f"{who}: {what.format(v=f'{v:.1f}')}; not enough data for an interval"
        x, lo, hi = d["diff"] * sc, d["ci_low"] * sc, d["ci_high"] * sc
        dec = decimals_for(max((hi - lo) / 2, 1e-12))
        vdec = max(1, dec) if rate else max(2, dec)
        head = what.format(v=f"{v:.{vdec}f}")
        if not d["detected"]:
            return (f"{who}: {head} ({base} {b:.{vdec}f}{'%' if rate else ''}); no detectable "
                    f"difference (95% CI {signed(lo, dec)} to {signed(hi, dec)}{unit})")
        dec = dec_for_value(x, dec)
        if x < 0:
            lo, hi = -hi, -lo
        return (f"{who}: {head}, {abs(x):.{dec}f}{unit} {up if x > 0 else down} than {base} "
                f"(95% CI {lo:.{dec}f} to {hi:.{dec}f})")

    def comparable(self, vi: int, name: str) -> bool:
        """Final scores of matches mean the same only under the same scoring and target."""
        if not modes.of(self.mode).by_rounds or name != "winner_score":
            return True
        a, b = self.variants[0].rules, self.variants[vi].rules
        return (a["scoring"], a["target_score"]) == (b["scoring"], b["target_score"])

    def verdict(self, vi: int, name: str) -> str:
        m = self.metric(name)
        d = self.diff(vi, name)
        who = self.variants[vi].name
        if not self.comparable(vi, name):
            a, b = self.variants[0].rules, self.variants[vi].rules
            return (f"{who}: {m.label}: not comparable with {self.names[0]} (scoring "
                    f"{b['scoring']} to {b['target_score']} vs {a['scoring']} to "
                    f"{a['target_score']})")
        scale = 100.0 if m.rate else 1.0
        unit = " pp" if m.rate else f" {m.unit}"
        if not math.isfinite(d["diff"]):
            return f"{who}: {m.label}: not enough data for an interval"
        x, lo, hi = d["diff"] * scale, d["ci_low"] * scale, d["ci_high"] * scale
        dec = decimals_for(max((hi - lo) / 2, 1e-12))
        if not d["detected"]:
            return (f"{who}: {m.label}: no detectable difference from {self.names[0]} "
                    f"(95% CI {signed(lo, dec)} to {signed(hi, dec)}{unit})")
        dec = dec_for_value(x, dec)
        phrase = m.more if x > 0 else m.less
        if x < 0:
            lo, hi = -hi, -lo
        base = self.stat(0, name)["mean"] * scale
        rel = ""
        if not m.rate and base:
            rel = f"{100 * x / base:+.1f}%; "
        if not phrase:
            phrase = f"{m.label} {'higher' if x > 0 else 'lower'} by {{x}}{unit}"
        text = phrase.format(x=f"{abs(x):.{dec}f}")
        return (f"{who}: {text} than {self.names[0]} ({rel}95% CI {lo:.{dec}f} to "
                f"{hi:.{dec}f})")

    # ---------------------------------------------------------------- data out

    def rows(self) -> list[dict[str, Any]]:
        """One row per (variant, metric): the long table behind summary.csv and the API."""
        rows = []
        for vi, v in enumerate(self.variants):
            for m in self.metrics:
                s = self.stat(vi, m.name)
                if s["n"] == 0:
                    continue
                d = self.diff(vi, m.name) if vi > 0 else None
                rows.append({
                    "variant": v.name,
                    "baseline": self.names[0],
                    "metric": m.name,
                    "label": m.label,
                    "unit": "share" if m.rate else m.unit,
                    "n": s["n"],
                    "mean": s["mean"],
                    "se": s["se"],
                    "ci_low": s["ci_low"],
                    "ci_high": s["ci_high"],
                    "diff": d["diff"] if d else 0.0,
                    "diff_se": d["se"] if d else 0.0,
                    "diff_ci_low": d["ci_low"] if d else 0.0,
                    "diff_ci_high": d["ci_high"] if d else 0.0,
                    "pairs": d["pairs"] if d else s["n"],
                    "indep_ci_low": d["indep_ci_low"] if d else 0.0,
                    "indep_ci_high": d["indep_ci_high"] if d else 0.0,
                    "detected": d["detected"] if d else False,
                })
        return rows

    def to_dict(self) -> dict[str, Any]:
        return {
            "provenance": provenance(),
            "command": "compare",
            "mode": self.mode,
            "baseline": self.names[0],
            "variants": [{"name": v.name, "rules_changed": v.rules.changed(),
                          "strategies": [s.label() for s in v.seats]} for v in self.variants],
            "players": [v.rules["players"] for v in self.variants],
            "unit": self.unit,
            "games": self.games,
            "games_requested": self.requested,
            "partial": self.partial,
            "seed": self.seed,
            "workers": self.workers,
            "max_rounds": self.max_rounds if modes.of(self.mode).by_rounds else None,
            "method": method_note(self.mode),
            "interval": "paired per-game difference, 95% normal (diff_ci_*); "
                        "independent samples for reference (indep_ci_*); Wilson for rates",
            "verdicts": self.verdicts(),
            "feel_verdicts": self.feel_verdicts(),
            "rows": self.rows(),
            "summaries": self.summaries,
            "elapsed_s": self.elapsed_s,
        }

    def to_frame(self) -> Any:
        import pandas as pd

        df = pd.DataFrame(self.rows())
        df.attrs["verdicts"] = self.verdicts()
        df.attrs["feel_verdicts"] = self.feel_verdicts()
        df.attrs["method"] = method_note(self.mode)
        return df

    # ---------------------------------------------------------------- table

    def render_table(self) -> str:
        n = self.games
        lines = [
            f"unosim compare · {self.mode} mode · {_players_text(self)} · {n:,} {self.unit} "
            f"per variant · seed {self.seed} · {self.workers} worker"
            f"{'s' if self.workers != 1 else ''}"
        ]
        if self.partial:
            lines.append(f"PARTIAL RESULT: interrupted after {n:,} of {self.requested:,} "
                         f"{self.unit} per variant")
        if modes.of(self.mode).by_rounds:
            r = self.variants[0].rules
            lines.append(f"matches: at most {self.max_rounds:,} rounds each; scoring and "
                         f"target per variant (baseline {r['scoring']} to {r['target_score']})")
        lines.append(f"baseline: {self.names[0]} (rules changed: {self.variants[0].changes()})")
        for v in self.variants[1:]:
            lines.append(f"  vs {v.name} (rules changed: {v.changes()})")
        lines += textwrap.wrap("method: " + method_note(self.mode), 96,
                               subsequent_indent="  ")
        lines.append("")
        w = max(26, max(len(m.label) for m in self.metrics) + 4)
        col = 26
        head = "Per " + modes.of(self.mode).name
        lines.append(f"{head:<{w}}" + "".join(f"{nm[:col - 2]:>{col}}" for nm in self.names))
        lines.append(f"{'':<{w}}" + "".join(f"{'mean ± se / rate [95% CI]':>{col}}"
                                              for _ in self.names)[: col * len(self.names)])
        for m in self.shown_metrics():
            cells = [_cell(self.stat(vi, m.name), m) for vi in range(len(self.variants))]
            if all(c == "n/a" for c in cells):
                continue
            lines.append(f"  {m.label:<{w - 2}}" + "".join(f"{c:>{col}}" for c in cells))
        for vi in range(1, len(self.variants)):
            lines.append("")
            lines.append(f"{self.names[vi]} - {self.names[0]}  (paired per "
                         f"{modes.of(self.mode).one}; rates in "
                         "percentage points)")
            lines.append(f"{'':<{w}}{'difference':>14}{'95% CI (paired)':>24}"
                         f"{'95% CI (indep.)':>24}")
            for m in self.shown_metrics():
                d = self.diff(vi, m.name)
                if d["pairs"] == 0:
                    continue
                sc = 100.0 if m.rate else 1.0
                dec = dec_for_value(d["diff"] * sc, decimals_for(max(Z95 * d["se"] * sc, 1e-12)))
                mark = " *" if d["detected"] else ""
                lines.append(
                    f"  {m.label:<{w - 2}}{signed(d['diff'] * sc, dec):>14}"
                    f"{_iv(d['ci_low'] * sc, d['ci_high'] * sc, dec):>24}"
                    f"{_iv(d['indep_ci_low'] * sc, d['indep_ci_high'] * sc, dec):>24}{mark}"
                )
        if len(self.variants) > 1:
            lines.append("(* the paired 95% interval excludes zero)")
        zero = self.all_zero()
        if zero:
            labels = ", ".join(self.metric(z).label for z in zero)
            lines.append(f"0 in every {modes.of(self.mode).one} "
                         f"of every variant (not shown): {labels}")
        lines.append("")
        lines.append("Verdicts (95% confidence intervals)")
        lines += [f"  {v}" for v in self.verdicts()]
        feel = self.feel_verdicts()
        if feel:
            lines.append("")
            lines.append("How the round unfolds: Verdicts (paired, 95% confidence intervals; "
                         f"game feel as defined at {DOCS_URL}metrics.html#game-feel)")
            lines += [f"  {v}" for v in feel]
        lines.append("")
        capped = []
        for vi, r in enumerate(self.results):
            capped.append(f"{self.names[vi]} {r.agg.capped:,}")
        what = ("matches stopped at the round cap (no winner)" if modes.of(self.mode).by_rounds
                else "rounds stopped at the turn cap (no winner)")
        lines.append(f"{what}: " + ", ".join(capped) + f" of {n:,} each")
        speed = ", ".join(
            f"{self.names[vi]} {r.elapsed_s:.2f} s"
            f" ({r.agg.games / r.elapsed_s if r.elapsed_s > 0 else math.nan:,.0f} {self.unit}/s)"
            for vi, r in enumerate(self.results)
        )
        lines.append(f"time: {speed}; wall {self.elapsed_s:.2f} s in all, engine compile or "
                     "cache load included")
        return "\n".join(lines)


def _players_text(c: Comparison) -> str:
    ps = sorted({v.rules["players"] for v in c.variants})
    return f"{ps[0]} players" if len(ps) == 1 else "players " + "/".join(map(str, ps))


def dec_for_value(x: float, dec: int) -> int:
    """One more decimal when ``x`` would otherwise print as 0 (no "-0.0")."""
    while dec < 6 and x != 0 and round(x, dec) == 0:
        dec += 1
    return dec


def signed(x: float, dec: int) -> str:
    """``x`` with its sign and ``dec`` decimals, never "-0.000"."""
    return f"{round(x, dec) + 0.0:+.{dec}f}"


def _iv(lo: float, hi: float, dec: int) -> str:
    return f"[{signed(lo, dec)}, {signed(hi, dec)}]"


def _cell(s: dict[str, float], m: MX.Metric) -> str:
    if s["n"] == 0 or not math.isfinite(s["mean"]):
        return "n/a"
    if m.rate:
        dec = decimals_for(50 * (s["ci_high"] - s["ci_low"]))
        return (f"{100 * s['mean']:.{dec}f}% [{100 * s['ci_low']:.{dec}f}, "
                f"{100 * s['ci_high']:.{dec}f}]")
    dec = decimals_for(s["se"]) if s["se"] > 0 else 2
    return f"{s['mean']:,.{dec}f} ± {s['se']:.{dec}f}"
