"""Per-game (or per-match) metrics read from record batches, and bounded-memory totals.

The engine hands every batch of records to the ``on_records`` hook of a run. The
functions here turn a batch into named integer columns (``extract``); the comparison
folds them into its running totals (studies/compare/totals.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from unosim.runs import modes
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
