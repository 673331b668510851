"""The compiled engine against the independent plain-Python reference engine.

The two engines share no code and no random streams, so they are compared
statistically: for each metric, the difference of the means must lie within
4 combined standard errors (seats' win rates likewise). Seeds are fixed, so the
test is deterministic; with ~14 comparisons per setting the chance that correct
engines fail is below 0.1%, while any rule slip that moves a mean by a fraction
of a turn (skipping a penalty, counting a turn twice) fails it.

Sample size and power: each setting plays ``n_ref`` reference games (1,500 to 6,000,
SETTINGS) against 100,000 engine games. A comparison fails at 4 combined standard errors
(a false alarm once in about 16,000 comparisons), so it detects a shift of 4.84 combined
standard errors with 80% power: 4.84 * sqrt(1/n_ref + 1/100,000) standard deviations of
the metric: 0.064 sd at 6,000 reference games, 0.090 sd at 3,000, 0.126 sd at 1,500 (for
a win rate of 1/4, a move of 0.028 at 6,000 games). The reference engine is pure
Python, so these are slow tests.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference_engine import run_many
from unosim.runs.runner import play_records
from unosim.simulate.layout import GAME_FIELDS
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy

METRICS = ["turns", "cards_played", "drawn_no_play", "penalty_drawn", "winner_points", "reshuffles"]

SETTINGS = [
    # (rule overrides, players, reference games)
    ({}, 4, 6000),
    ({"stacking": "progressive"}, 4, 6000),
    ({}, 2, 4000),
    ({"draw_rule": "draw_until_playable"}, 4, 2500),
    ({"draw_rule": "draw_one_pass", "first_card": "number_only"}, 3, 3000),
    ({"scoring": "losers_score"}, 10, 1500),
    # how a round may end: a lone action card barred (also as a stacking answer), a
    # last Draw card that makes nobody draw, a +4 on a +2 (one way only)
    ({"finish_on_action": False, "final_draw": False}, 3, 3000),
    ({"stacking": "progressive", "stack_cards": "wd4_on_d2", "finish_on_action": False},
     4, 3000),
    ({"stacking": "progressive", "stack_cards": "mixed", "final_draw": False}, 4, 3000),
]


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))


@pytest.mark.slow
@pytest.mark.parametrize("overrides,players,n_ref", SETTINGS)
def test_engine_matches_reference(overrides, players, n_ref):
    ref = run_many(n_ref, seed=11, players=players, **overrides)
    rules = resolve([], [("players", players), *overrides.items()])
    rec = play_records(rules, [parse_strategy("random")] * players, seed=5, start=0, n=100_000,
                       chunks=8)
    col = {name: i for i, name in enumerate(GAME_FIELDS)}
    assert not any(r["capped"] for r in ref)
    assert rec[:, col["capped"]].sum() == 0
    failures = []
    for m in METRICS:
        r_mean, r_se = _mean_se(np.array([r[m] for r in ref], dtype=float))
        e_mean, e_se = _mean_se(rec[:, col[m]].astype(float))
        if abs(r_mean - e_mean) > 4 * math.hypot(r_se, e_se) + 1e-9:
            failures.append(
                f"{m}: reference {r_mean:.3f}±{r_se:.3f}, engine {e_mean:.3f}±{e_se:.3f}"
            )
    winners_ref = np.array([r["winner"] for r in ref])
    winners_eng = rec[:, col["winner"]]
    for seat in range(players):
        pr, pe = (winners_ref == seat).mean(), (winners_eng == seat).mean()
        se = math.hypot(math.sqrt(pr * (1 - pr) / n_ref), math.sqrt(pe * (1 - pe) / len(rec)))
        if abs(pr - pe) > 4 * se:
            failures.append(f"seat {seat} win rate: reference {pr:.4f}, engine {pe:.4f}")
    assert not failures, "; ".join(failures)
