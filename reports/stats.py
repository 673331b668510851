"""Interval arithmetic for the reports: binomial and mean intervals, quantiles.

Win rates use the Wilson score interval (sound near 0 and 1 and for small
samples); means use the normal interval from the standard error, which is
accurate at the sample sizes a simulation produces.
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials."""
    if n <= 0:
        return (math.nan, math.nan)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and standard error of the mean from a sum and a sum of squares."""
    if n <= 0:
        return (math.nan, math.nan)
    mean = total / n
    if n == 1:
        return (mean, math.nan)
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    return (mean, math.sqrt(var / n))


def hist_quantile(hist: np.ndarray, q: float) -> float:
    """The ``q`` quantile of integer values counted in ``hist`` (value = bin index).

    Lower quantile (the smallest value with at least q of the mass at or below it),
    exact for integer data; the last bin is open-ended.
    """
    n = int(hist.sum())
    if n == 0:
        return math.nan
    cum = np.cumsum(hist)
    return float(np.searchsorted(cum, max(1, math.ceil(q * n))))


def diff_ci(
    m1: float, se1: float, m2: float, se2: float, z: float = Z95
) -> tuple[float, float, float]:
    """Difference m2 - m1 of two independent means with its normal 95% interval."""
    d = m2 - m1
    half = z * math.sqrt(se1 * se1 + se2 * se2)
    return (d, d - half, d + half)
