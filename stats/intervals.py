"""Interval arithmetic for the reports: quantiles and differences of means, on top
of the Wilson and mean intervals of ``unosim.common`` (which the engine's
``--precision`` stop uses too)."""

from __future__ import annotations

import math

import numpy as np

from unosim.common import Z95, mean_se, wilson

__all__ = ["Z95", "diff_ci", "hist_quantile", "mean_se", "wilson"]


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
