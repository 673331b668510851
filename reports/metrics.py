"""Per-game (or per-match) metrics read from record batches, and bounded-memory totals.

The engine hands every batch of records to the ``on_records`` hook of a run. The
functions here turn a batch into named integer columns (``extract``) and fold
them into running totals: :class:`Moments` (count, sum, sum of squares and an
integer histogram per metric, for one variant) and :class:`Paired` (count, sum
and sum of squares of the per-game *difference* between a variant and the
baseline, for games both runs played with the same index). Memory is one batch,
whatever the number of games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from unosim.runs import modes
from unosim.runs.aggregate import HIST_BINS
from unosim.simulate import layout as L
from unosim.simulate import match_nb as MN
from unosim.simulate.round_metrics import FEEL, TOTALLED


@dataclass(frozen=True)
class Metric:
    """How a metric reads in tables, verdicts and charts."""

    name: str
    label: str  # e.g. "turns per round"
    unit: str  # e.g. "turns"; "%" for rates
    rate: bool = False  # a 0/1 outcome: shown in percent, Wilson interval per variant
    # verdict phrases for a positive and a negative difference ("{x}" is the size)
    more: str = ""
    less: str = ""
    scale: int = 1  # the recorded values are the metric times this (fixed point)


HEADLINE_PHRASES = {
    "turns": ("rounds {x} turns longer", "rounds {x} turns shorter"),
    "cards_drawn": ("{x} more cards drawn per round", "{x} fewer cards drawn per round"),
    "winner_points": ("the round winner scores {x} more points",
                      "the round winner scores {x} fewer points"),
    "seat_win_0": ("seat 0 (plays first) wins {x} percentage points more often",
                   "seat 0 (plays first) wins {x} percentage points less often"),
    "rounds": ("matches {x} rounds longer", "matches {x} rounds shorter"),
    "winner_score": ("the match winner ends on {x} more points",
                     "the match winner ends on {x} fewer points"),
    "player_win_0": ("player 0 (leads the first round) wins {x} percentage points more often",
                     "player 0 (leads the first round) wins {x} percentage points less often"),
}

#: the metrics a comparison gives a one-line verdict for, per mode
HEADLINES = {
    "round": ("turns", "cards_drawn", "winner_points", "seat_win_0"),
    "match": ("rounds", "winner_score", "player_win_0"),
}


def _m(name: str, label: str, unit: str, rate: bool = False) -> Metric:
    more, less = HEADLINE_PHRASES.get(name, ("", ""))
    return Metric(name, label, unit, rate, more, less)


def round_metrics(players: int) -> list[Metric]:
    """Every per-round metric, in table order (the engine's columns first, as
    simulate/round_metrics.py declares them)."""
    out = [_m(f.name, f.label, f.unit) for f in TOTALLED]
    out.insert(4, _m("cards_drawn", "cards drawn, no play + penalty", "cards"))
    out.append(_m("capped", "capped rounds", "%", rate=True))
    out += [_m(f"seat_win_{s}", f"seat {s} win rate", "%", rate=True) for s in range(players)]
    out.append(Metric("seat_balance", "seat balance (1 - win rate spread)", "balance"))
    out += feel_metrics()
    return out


def feel_metrics() -> list[Metric]:
    """The game-feel metrics (docs/metrics.md#game-feel) of the rounds with a winner, in
    record order (simulate/round_metrics.py declares them)."""
    return [Metric(m.name, m.label, m.unit, rate=m.rate,
                   scale=L.FEEL_SCALE if m.fixed else 1) for m in FEEL]


def match_metrics(players: int) -> list[Metric]:
    out = [
        _m("rounds", "rounds per match", "rounds"),
        _m("turns", "turns per match", "turns"),
        _m("winner_score", "match winner's final score", "points"),
        _m("capped", "capped matches", "%", rate=True),
        _m("tied", "ties broken at random", "%", rate=True),
    ]
    out += [_m(f"player_win_{p}", f"player {p} match win rate", "%", rate=True)
            for p in range(players)]
    return out


def metrics_for(mode: str, players: int) -> list[Metric]:
    return match_metrics(players) if modes.of(mode).by_rounds else round_metrics(players)


Values = dict[str, tuple[np.ndarray, np.ndarray | None]]


def extract_round(rec: np.ndarray, players: int) -> Values:
    """Named per-game columns of a batch of round records; a mask marks the games
    a metric is defined for (``winner_points``: games with a winner)."""
    capped = rec[:, L.G_CAPPED] != 0
    won = ~capped
    vals: Values = {}
    for f in TOTALLED:
        col = L.GAME_RECORD.column(f.name)
        vals[f.name] = (rec[:, col].astype(np.int64), won if f.won_only else None)
    vals["cards_drawn"] = (
        rec[:, L.G_DRAWN_NO_PLAY].astype(np.int64) + rec[:, L.G_PEN_DRAWN], None
    )
    vals["capped"] = (capped.astype(np.int64), None)
    w = rec[:, L.G_WINNER]
    for s in range(players):
        vals[f"seat_win_{s}"] = ((won & (w == s)).astype(np.int64), None)
    for k, m in enumerate(L.FEEL_METRICS):  # rounds with a winner (docs/metrics.md#game-feel)
        vals[m] = (rec[:, L.G_FEEL + k].astype(np.int64), won)
    return vals


def extract_match(rec: np.ndarray, players: int) -> Values:
    """Named per-match columns of a batch of match records."""
    w = rec[:, MN.M_WINNER]
    decided = w >= 0
    score = rec[np.arange(rec.shape[0]), MN.M_SCORE + np.maximum(w, 0)].astype(np.int64)
    vals: Values = {
        "rounds": (rec[:, MN.M_ROUNDS].astype(np.int64), None),
        "turns": (rec[:, MN.M_TURNS].astype(np.int64), None),
        "winner_score": (score, decided),
        "capped": ((rec[:, MN.M_CAPPED] != 0).astype(np.int64), None),
        "tied": ((rec[:, MN.M_TIED] != 0).astype(np.int64), None),
    }
    for p in range(players):
        vals[f"player_win_{p}"] = ((w == p).astype(np.int64), None)
    return vals


def extractor(mode: str) -> Callable[[np.ndarray, int], Values]:
    return extract_match if modes.of(mode).by_rounds else extract_round


@dataclass
class Moments:
    """Count, sum, sum of squares and histogram of each metric (exact integers)."""

    n: dict[str, int] = field(default_factory=dict)
    s: dict[str, int] = field(default_factory=dict)
    ss: dict[str, int] = field(default_factory=dict)
    hist: dict[str, np.ndarray] = field(default_factory=dict)

    def add(self, vals: Values) -> None:
        for name, (v, mask) in vals.items():
            if mask is not None:
                v = v[mask]
            if name not in self.n:
                self.n[name], self.s[name], self.ss[name] = 0, 0, 0
                self.hist[name] = np.zeros(HIST_BINS, np.int64)
            self.n[name] += int(v.shape[0])
            self.s[name] += int(v.sum())
            self.ss[name] += int((v * v).sum())
            self.hist[name] += np.bincount(np.clip(v, 0, HIST_BINS - 1), minlength=HIST_BINS)


@dataclass
class Paired:
    """Totals of the per-game difference (variant - baseline) of each metric."""

    n: dict[str, int] = field(default_factory=dict)
    s: dict[str, int] = field(default_factory=dict)
    ss: dict[str, int] = field(default_factory=dict)

    def add(self, base: Values, other: Values) -> None:
        for name, (b, bmask) in base.items():
            if name not in other:
                continue
            v, vmask = other[name]
            d = v - b
            if bmask is not None or vmask is not None:
                keep = np.ones(d.shape[0], bool)
                if bmask is not None:
                    keep &= bmask
                if vmask is not None:
                    keep &= vmask
                d = d[keep]
            self.n[name] = self.n.get(name, 0) + int(d.shape[0])
            self.s[name] = self.s.get(name, 0) + int(d.sum())
            self.ss[name] = self.ss.get(name, 0) + int((d * d).sum())


def merge_moments(a: Moments, b: Moments) -> Moments:
    """``a`` plus ``b`` (in place in ``a``): totals of two ranges of games."""
    for name in b.n:
        if name not in a.n:
            a.n[name], a.s[name], a.ss[name] = 0, 0, 0
            a.hist[name] = np.zeros(HIST_BINS, np.int64)
        a.n[name] += b.n[name]
        a.s[name] += b.s[name]
        a.ss[name] += b.ss[name]
        a.hist[name] += b.hist[name]
    return a


def merge_paired(a: Paired, b: Paired) -> Paired:
    """``a`` plus ``b`` (in place in ``a``)."""
    for name in b.n:
        a.n[name] = a.n.get(name, 0) + b.n[name]
        a.s[name] = a.s.get(name, 0) + b.s[name]
        a.ss[name] = a.ss.get(name, 0) + b.ss[name]
    return a
