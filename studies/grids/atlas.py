"""The atlas's result: every preset against official, at each player count, on one
page (``play.py`` plays it).

At each player count every preset plays the same deals as official (one comparison
of all of them, common random numbers), and with a strategy its skill edge
(docs/metrics.md#skill-edge) is measured on the same deals too. Each preset's effect on
each metric is the paired difference from official with its 95% interval (seat balance:
paired through the joint winners of the same deals, its extreme seats taken as given);
presets are ranked per metric, with a verdict for the headline direction of each
("shortest rounds: PRESET, -X% (95% CI ...)"). A preset the rules refuse at a player
count is listed with the reason and skipped there. Only the figures are kept per player
count, so memory does not grow with the number of player counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from unosim import provenance
from unosim.studies.compare.result import Comparison
from unosim.studies.grids.sweep import point_stats

#: (metric, label, kind, verdict for the lowest effect, for the highest, headline side)
#: kind: "mean" effects are relative (%), "rate" and "share" in percentage points
ATLAS_METRICS: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("turns", "round length", "mean", "shortest rounds", "longest rounds", "low"),
    ("seat_balance", "seat balance", "share", "least fair seats", "fairest seats", "high"),
    ("comeback", "comebacks", "rate", "fewest comebacks", "most comebacks", "high"),
    ("lead_changes", "lead changes", "mean", "fewest lead changes", "most lead changes",
     "high"),
    ("first_uno_wins", "first to UNO wins", "rate", "first to UNO decides least",
     "first to UNO decides most", "low"),
    ("winner_points", "winner points", "mean", "lowest-scoring rounds",
     "highest-scoring rounds", "high"),
    ("cards_drawn", "cards drawn", "mean", "fewest cards drawn", "most cards drawn", "low"),
    ("skill_edge", "skill edge", "share", "least skill-rewarding", "most skill-rewarding",
     "high"),
)
LABELS = {m[0]: m[1] for m in ATLAS_METRICS}
KINDS = {m[0]: m[2] for m in ATLAS_METRICS}


@dataclass
class Effect:
    """A preset's figure and its difference from official at one player count."""

    value: float
    base: float
    diff: float
    lo: float
    hi: float

    @property
    def significant(self) -> bool:
        return math.isfinite(self.lo) and (self.lo > 0 or self.hi < 0)

    def scaled(self, kind: str) -> tuple[float, float, float]:
        """(effect, low, high): relative % for means, percentage points otherwise."""
        if kind == "mean":
            k = 100.0 / self.base if self.base else math.nan
        else:
            k = 100.0
        return self.diff * k, self.lo * k, self.hi * k


@dataclass
class AtlasPlayers:
    """The atlas at one player count."""

    players: int
    presets: list[str]
    values: dict[str, dict[str, float]]  # preset (and "official") -> metric -> value
    effects: dict[str, dict[str, Effect]]  # preset -> metric -> effect
    refused: dict[str, str]
    games: int
    partial: bool


@dataclass
class Atlas:
    seed: int
    games: int
    strategy: str | None
    by_players: list[AtlasPlayers] = field(default_factory=list)
    #: the player counts asked for (those not in by_players were not reached)
    requested: list[int] = field(default_factory=list)

    @property
    def partial(self) -> bool:
        return (any(a.partial for a in self.by_players)
                or len(self.by_players) < len(self.requested))

    @property
    def not_played(self) -> list[int]:
        done = {a.players for a in self.by_players}
        return [n for n in self.requested if n not in done]


def effects_of(cmp: Comparison, skill: Any) -> tuple[dict[str, dict[str, float]],
                                                    dict[str, dict[str, Effect]]]:
    from unosim.studies.lineups.skill_edge import diff_stats, skill_stats

    values: dict[str, dict[str, float]] = {}
    effects: dict[str, dict[str, Effect]] = {}
    base = point_stats(cmp, 0)
    base_skill = skill_stats(skill.totals[0]) if skill is not None else None
    for vi, v in enumerate(cmp.variants):
        st = point_stats(cmp, vi)
        values[v.name] = {m: s["mean"] for m, s in st.items()}
        if skill is not None:
            values[v.name]["skill_edge"] = skill_stats(skill.totals[vi])["skill_edge"]
        if vi == 0:
            continue
        eff: dict[str, Effect] = {}
        for m in LABELS:
            if m == "skill_edge":
                if skill is None:
                    continue
                d = diff_stats(skill.totals[vi])
                eff[m] = Effect(values[v.name][m], base_skill["skill_edge"], d["diff"],
                                *d["ci95"])
            elif m in st and m in base:
                d = cmp.diff(vi, m)
                eff[m] = Effect(st[m]["mean"], base[m]["mean"], d["diff"], d["ci_low"],
                                d["ci_high"])
        effects[v.name] = eff
    return values, effects


def effect_text(e: Effect | None, metric: str, interval: bool = False) -> str:
    if e is None or not math.isfinite(e.diff):
        return "n/a"
    x, lo, hi = e.scaled(KINDS[metric])
    unit = "%" if KINDS[metric] == "mean" else " pp"
    dec = 1 if KINDS[metric] != "share" or abs(x) >= 1 else 2
    text = f"{x:+.{dec}f}{unit}"
    if interval:
        text += f" (95% CI {lo:+.{dec}f} to {hi:+.{dec}f}{unit})"
    return text


def ranking(a: AtlasPlayers, metric: str) -> list[tuple[str, Effect]]:
    """Presets by their effect on ``metric``, the headline side first."""
    rows = [(p, a.effects[p][metric]) for p in a.presets if metric in a.effects[p]]
    high = next(m[5] for m in ATLAS_METRICS if m[0] == metric) == "high"
    return sorted(rows, key=lambda r: -r[1].diff if high else r[1].diff)


def verdicts(a: AtlasPlayers) -> list[str]:
    """One verdict per metric: the preset furthest on the headline side, if any differs
    detectably from official there."""
    out = []
    for metric, _label, _kind, low_words, high_words, side in ATLAS_METRICS:
        ranked = ranking(a, metric)
        if not ranked:
            continue
        words = high_words if side == "high" else low_words
        name, e = ranked[0]
        sign_ok = e.diff > 0 if side == "high" else e.diff < 0
        if e.significant and sign_ok:
            out.append(f"{words}: {name}, {effect_text(e, metric, interval=True)}")
        else:
            out.append(f"{words}: no preset differs detectably from official on that side "
                       f"(closest: {name}, {effect_text(e, metric, interval=True)})")
    return out


def shown(a: AtlasPlayers) -> list[str]:
    return [m for m in LABELS if any(m in a.effects[p] for p in a.presets)]


def rows(atlas: Atlas) -> list[dict[str, Any]]:
    """One row per player count, preset and metric (official's figure as ``base``)."""
    out = []
    for a in atlas.by_players:
        for p in a.presets:
            for m, e in a.effects[p].items():
                x, lo, hi = e.scaled(KINDS[m])
                out.append({"players": a.players, "preset": p, "metric": m,
                            "value": e.value, "official": e.base, "diff": e.diff,
                            "diff_ci_low": e.lo, "diff_ci_high": e.hi,
                            "effect": x, "effect_ci_low": lo, "effect_ci_high": hi,
                            "effect_unit": "%" if KINDS[m] == "mean" else "pp",
                            "significant": e.significant})
    return out


def to_dict(atlas: Atlas) -> dict[str, Any]:
    return {
        "provenance": provenance(),
        "command": "atlas",
        "seed": atlas.seed,
        "games": atlas.games,
        "strategy": atlas.strategy,
        "partial": atlas.partial,
        "players": [a.players for a in atlas.by_players],
        "players_not_played": atlas.not_played,
        "metrics": {m: LABELS[m] for m in LABELS},
        "verdicts": {str(a.players): verdicts(a) for a in atlas.by_players},
        "refused": {str(a.players): a.refused for a in atlas.by_players},
        "official": {str(a.players): a.values["official"] for a in atlas.by_players},
        "rows": rows(atlas),
    }


def render_atlas(atlas: Atlas) -> str:
    """The atlas as text: per player count the verdicts and the table of effects."""
    skill = f" · skill edge of {atlas.strategy}" if atlas.strategy else ""
    lines = [f"unosim atlas · every preset against official · {atlas.games:,} games per "
             f"preset and player count · seed {atlas.seed}{skill}"]
    for a in atlas.by_players:
        lines += ["", f"{a.players} players", "  Verdicts (paired on the same deals)"]
        lines += [f"    {v}" for v in verdicts(a)]
        metrics = shown(a)
        head = ["preset", *(LABELS[m] for m in metrics)]
        body = [["official (value)"] + [_value(a.values["official"].get(m), m)
                                        for m in metrics]]
        for p in sorted(a.presets):
            body.append([p] + [effect_text(a.effects[p].get(m), m)
                               + ("*" if m in a.effects[p] and a.effects[p][m].significant
                                  else "") for m in metrics])
        widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(head)]
        lines.append("")
        lines.append("  " + "  ".join(h.rjust(w) if i else h.ljust(w)
                                      for i, (h, w) in enumerate(zip(head, widths,
                                                                     strict=True))))
        for b in body:
            lines.append("  " + "  ".join(c.rjust(w) if i else c.ljust(w)
                                          for i, (c, w) in enumerate(zip(b, widths,
                                                                         strict=True))))
        if a.refused:
            lines.append(f"  refused at {a.players} players and skipped: "
                         + "; ".join(f"{p}: {r}" for p, r in a.refused.items()))
        if a.partial:
            lines.append(f"  PARTIAL: stopped after {a.games:,} games")
    lines += ["", "effects against official: % for means, percentage points (pp) for rates, "
              "seat balance and skill edge; * = the 95% interval excludes 0"]
    if atlas.partial:
        missing = (f"; not played: {', '.join(str(n) for n in atlas.not_played)} players"
                   if atlas.not_played else "")
        lines.append("PARTIAL: the atlas was stopped; the player counts above are what "
                     f"it played{missing}")
    return "\n".join(lines)


def _value(x: float | None, metric: str) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    if KINDS[metric] == "rate":
        return f"{100 * x:.1f}%"
    return f"{x:.3f}" if KINDS[metric] == "share" else f"{x:.1f}"

