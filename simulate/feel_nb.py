"""Game-feel metrics of RULES.md 9b, compiled: per-seat accumulators in ``G``.

The step contract calls ``feel_sample`` when a turn starts (before the player
acts) and once more when the round's winner goes out (before any penalty its
last card causes). Each sample costs O(players): one pass for the smallest and
second-smallest distance, one to update the per-seat accumulators
(layout.OFF_FEEL) and the round's scalars (S_FEEL_*). Nothing is allocated.
``feel_value`` turns the accumulators into the round's metrics for its winner.

``feel_of_distances`` runs the very same code on a hand-made sequence of
distance vectors (tests pin every definition with it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unosim.simulate.jit import kernel
from unosim.simulate.layout import (
    FE_BEHIND,
    FE_DEF_MAX,
    FE_DEF_SUM,
    FE_LAST_NOT,
    FE_UNO,
    FEEL_SCALE,
    G_SIZE,
    HC_SIZE,
    HC_STAGE,
    HW,
    N_FEELF,
    OFF_FEEL,
    OFF_H,
    R_FEEL_OFF,
    R_PLAYERS,
    R_SEVEN_ROUNDS,
    S_CAPPED,
    S_FEEL_CHANGES,
    S_FEEL_GAP,
    S_FEEL_LEAD,
    S_FEEL_N,
    S_FEEL_UNO,
    S_WINNER,
)

BIG = 1 << 40


@kernel
def feel_reset(G):
    """Clear the per-seat accumulators (the S_FEEL_* scalars are cleared with the state)."""
    for i in range(OFF_FEEL, OFF_FEEL + G[R_PLAYERS] * N_FEELF):
        G[i] = 0


@kernel
def distance(G, q):
    """Cards ``q`` still has to play to win if it never drew again: its hand, plus
    under seven_rounds the refills still to come (stage k: k(k-1)/2)."""
    d = G[OFF_H + q * HW + HC_SIZE]
    if G[R_SEVEN_ROUNDS] != 0:
        k = G[OFF_H + q * HW + HC_STAGE]
        d += k * (k - 1) // 2
    return d


@kernel
def feel_sample(G):
    """Take sample t = S_FEEL_N of the distances; nothing once the winner is out
    (elimination plays on without samples) or when switched off."""
    if G[S_WINNER] >= 0 or G[R_FEEL_OFF] != 0:
        return
    n = G[R_PLAYERS]
    m1 = BIG
    m2 = BIG
    lead = 0
    for q in range(n):
        d = distance(G, q)
        if d < m1:
            m2 = m1
            m1 = d
            lead = q
        elif d < m2:
            m2 = d
    t = G[S_FEEL_N]
    G[S_FEEL_GAP] += m2 - m1
    sole = m2 > m1
    if sole:
        if G[S_FEEL_LEAD] != 0 and G[S_FEEL_LEAD] != lead + 1:
            G[S_FEEL_CHANGES] += 1
        G[S_FEEL_LEAD] = lead + 1
    uno_bits = 1 if G[S_FEEL_UNO] != 0 else 3
    for q in range(n):
        d = distance(G, q)
        f = OFF_FEEL + q * N_FEELF
        dd = d - m1
        G[f + FE_DEF_SUM] += dd
        if dd > G[f + FE_DEF_MAX]:
            G[f + FE_DEF_MAX] = dd
        if dd > 0:
            G[f + FE_BEHIND] += 1
        if not sole or q != lead:
            G[f + FE_LAST_NOT] = t + 1
        if d <= 1:
            G[f + FE_UNO] |= uno_bits
    if m1 <= 1:
        G[S_FEEL_UNO] = 1
    G[S_FEEL_N] = t + 1


@kernel
def _fixed(num, den):
    """num / den in fixed point (times FEEL_SCALE), rounded half up; exact integers."""
    return (2 * num * FEEL_SCALE + den) // (2 * den)


@kernel
def feel_value(G, k):
    """Metric ``k`` of layout.FEEL_METRICS for the round in ``G`` (0 when it has no
    winner or no samples)."""
    w = G[S_WINNER]
    samples = G[S_FEEL_N]
    if w < 0 or G[S_CAPPED] != 0 or samples == 0:
        return 0
    f = OFF_FEEL + w * N_FEELF
    last = samples - 1  # T
    if k == 0:  # lead_changes
        return G[S_FEEL_CHANGES]
    if k == 1:  # winner_max_deficit
        return G[f + FE_DEF_MAX]
    if k == 2:  # comeback
        return 1 if G[f + FE_DEF_MAX] >= 3 else 0
    if k == 3:  # winner_mean_deficit
        return _fixed(G[f + FE_DEF_SUM], samples)
    if k == 4:  # winner_behind_share
        return _fixed(G[f + FE_BEHIND], samples)
    if k == 5:  # lock_in = (T - s) / T, s = the sample after the last one not led alone
        if last == 0:
            return FEEL_SCALE
        return _fixed(last - G[f + FE_LAST_NOT], last)
    if k == 6:  # first_uno_wins
        return 1 if G[f + FE_UNO] & 2 else 0
    if k == 7:  # rival_on_uno
        for q in range(G[R_PLAYERS]):
            if q != w and G[OFF_FEEL + q * N_FEELF + FE_UNO] & 1:
                return 1
        return 0
    if k == 8:  # leader_gap
        return _fixed(G[S_FEEL_GAP], samples)
    return 0


@njit(cache=True)
def feel_of_distances(D, winner, out):
    """The metrics (``out``, layout.FEEL_METRICS order, fixed point as recorded) of a
    round whose samples t = 0..T are the rows of ``D`` (int64[T + 1, players]),
    won by ``winner``: the engine's own sampling code on a hand-made sequence."""
    G = np.zeros(G_SIZE, np.int64)
    G[R_PLAYERS] = D.shape[1]
    G[S_WINNER] = -1
    feel_reset(G)
    for t in range(D.shape[0]):
        for q in range(D.shape[1]):
            G[OFF_H + q * HW + HC_SIZE] = D[t, q]
        feel_sample(G)
    G[S_WINNER] = winner
    for k in range(out.shape[0]):
        out[k] = feel_value(G, k)
