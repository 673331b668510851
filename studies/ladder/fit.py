"""The ladder's model: each entrant has a strength theta, and the winner of a table is
drawn by Luce's choice rule among the seats at it,

    P(entrant j wins a round at table T) = c_Tj exp(theta_j) / sum_l c_Tl exp(theta_l)

(``c_Tj``: the seats j holds at T). Heads-up, one seat each, this is the
Bradley-Terry model: P(a beats b) = 1 / (1 + exp(theta_b - theta_a)), so a
difference of ln 3 is a 75% to 25% pair. At 4 players against three seats of a
common field F it gives P(j wins) = e^theta_j / (e^theta_j + 3 e^theta_F): a
strategy level with the field wins its fair 25%.

The strengths are fitted by maximum likelihood (Newton's method on the concave
log-likelihood) from the wins of every lineup, anchored: one entrant's strength is 0
(``anchor``), or, with no anchor, their mean is 0. Ratings are shown on the Elo
scale, 400 log10 odds (``ELO`` times theta).

Intervals come from a bootstrap over blocks of deals, not from the Fisher
information: every lineup plays the same deals (duplicate format: both seat orders
of a pair, and every pair, on deal g), so the games of one deal are not independent
and the binomial information misstates the spread (usually overstates it: the seat
swap cancels the luck of the deal). Resampling whole blocks of deals keeps each
deal's games together. The Fisher standard error is kept beside it (``se_model``) for
comparison. Bootstrap intervals are percentile intervals of the refitted strengths,
seeded from the run's seed, so the same run gives the same intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: Elo points per unit of strength (natural log odds): 400 / ln 10
ELO = 400.0 / math.log(10.0)
#: bootstrap replicates of the intervals
REPLICATES = 400
#: a vanishing ridge on the strengths, so a lineup won every time stays finite
RIDGE = 1e-9


@dataclass
class Fit:
    """Strengths (natural log odds, anchored) and their model standard errors."""

    theta: np.ndarray
    se_model: np.ndarray
    iterations: int


def _probs(theta: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """``[lineup, entrant]`` winning chances under Luce's rule."""
    w = seats * np.exp(theta - theta.max())[None, :]
    return w / w.sum(1, keepdims=True)


def loglik(theta: np.ndarray, seats: np.ndarray, wins: np.ndarray,
           rounds: np.ndarray) -> float:
    """The log-likelihood of the wins (up to a constant)."""
    p = _probs(theta, seats)
    with np.errstate(divide="ignore"):
        lp = np.where(seats > 0, np.log(np.where(p > 0, p, 1.0)), 0.0)
    return float((wins * lp).sum())


def fit(seats: np.ndarray, wins: np.ndarray, rounds: np.ndarray,
        anchor: int | None = None, tol: float = 1e-10, max_iter: int = 100) -> Fit:
    """Maximum-likelihood strengths from ``seats[l, j]`` (seats entrant j holds in
    lineup l), ``wins[l, j]`` (rounds of lineup l that j won) and ``rounds[l]`` (rounds
    of lineup l with a winner). ``anchor``: the entrant held at 0; None: mean 0."""
    seats = np.asarray(seats, np.float64)
    wins = np.asarray(wins, np.float64)
    rounds = np.asarray(rounds, np.float64)
    k = seats.shape[1]
    fixed = 0 if anchor is None else anchor
    free = np.array([j for j in range(k) if j != fixed], np.int64)
    theta = np.zeros(k)
    total = wins.sum(0)
    it = 0
    for _ in range(max_iter):
        it += 1
        p = _probs(theta, seats)
        grad = total - (rounds[:, None] * p).sum(0) - RIDGE * theta
        # the information: sum over lineups of n (diag(p) - p p^T)
        info = np.einsum("l,lj,lk->jk", rounds, p, p)
        info = np.diag((rounds[:, None] * p).sum(0)) - info + RIDGE * np.eye(k)
        step = np.zeros(k)
        sub = info[np.ix_(free, free)]
        try:
            step[free] = np.linalg.solve(sub, grad[free])
        except np.linalg.LinAlgError:
            step[free] = np.linalg.lstsq(sub, grad[free], rcond=None)[0]
        # a step that loses likelihood is halved (the problem is concave, so this ends)
        base = loglik(theta, seats, wins, rounds) - 0.5 * RIDGE * float(theta @ theta)
        t = 1.0
        while t > 1e-8:
            cand = theta + t * step
            if (loglik(cand, seats, wins, rounds) - 0.5 * RIDGE * float(cand @ cand)
                    >= base - 1e-12):
                break
            t /= 2
        theta = theta + t * step
        if float(np.abs(t * step).max(initial=0.0)) < tol:
            break
    p = _probs(theta, seats)
    info = (np.diag((rounds[:, None] * p).sum(0))
            - np.einsum("l,lj,lk->jk", rounds, p, p))
    se = np.zeros(k)
    sub = info[np.ix_(free, free)]
    try:
        cov = np.linalg.inv(sub)
        se[free] = np.sqrt(np.clip(np.diag(cov), 0, None))
    except np.linalg.LinAlgError:
        se[free] = math.inf
    if anchor is None:
        theta = theta - theta.mean()
        se = np.full(k, math.nan)  # the mean-zero errors need the full covariance
        try:
            cov_full = np.zeros((k, k))
            cov_full[np.ix_(free, free)] = np.linalg.inv(sub)
            centre = np.eye(k) - 1.0 / k
            se = np.sqrt(np.clip(np.diag(centre @ cov_full @ centre.T), 0, None))
        except np.linalg.LinAlgError:
            pass
    return Fit(theta, se, it)


def bootstrap(seats: np.ndarray, wins: np.ndarray, rounds: np.ndarray,
              anchor: int | None, seed: int, replicates: int = REPLICATES
              ) -> np.ndarray:
    """Strengths refitted on ``replicates`` resamples of the blocks of deals
    (``wins[b, l, j]``, ``rounds[b, l]``: block b's results), ``[replicate, entrant]``;
    empty with fewer than two blocks."""
    nb = wins.shape[0]
    if nb < 2 or replicates <= 0:
        return np.zeros((0, seats.shape[1]))
    rng = np.random.default_rng([int(seed), 0x1ADDE5])
    out = np.empty((replicates, seats.shape[1]))
    for r in range(replicates):
        counts = np.bincount(rng.integers(0, nb, nb), minlength=nb).astype(np.float64)
        w = np.tensordot(counts, wins, axes=(0, 0))
        n = counts @ rounds
        out[r] = fit(seats, w, n, anchor).theta
    return out


def intervals(theta: np.ndarray, reps: np.ndarray, level: float = 0.95
              ) -> np.ndarray:
    """``[entrant, (low, high)]`` percentile intervals of the bootstrap (NaN without)."""
    if reps.shape[0] == 0:
        return np.full((theta.size, 2), math.nan)
    a = (1 - level) / 2
    return np.stack([np.quantile(reps, a, axis=0), np.quantile(reps, 1 - a, axis=0)], 1)
