"""How a figure known to within its standard error is written: no more decimals than
the uncertainty allows (shared by every rendering in reports/)."""

from __future__ import annotations

import math


def decimals_for(half_width: float) -> int:
    """Decimals that show a quantity known to +-half_width without false precision
    (at most 4; 2 when the uncertainty is zero or unknown)."""
    if half_width is None or not math.isfinite(half_width) or half_width <= 0:
        return 2
    return int(min(4, max(0, -math.floor(math.log10(half_width)))))


def plus_minus(mean: float, se: float) -> str:
    """``mean ± se`` to the standard error's first significant digit: a mean of
    0.0041 per round is not printed as 0.004 ± 0.000."""
    if mean is None or not math.isfinite(mean):
        return "n/a"
    dec = decimals_for(se)
    return f"{mean:,.{dec}f} ± {se:.{dec}f}"


def compile_words(s: dict) -> str:
    """What the seconds before a run's timed part were: a compile for this machine
    (the run's ``compiled``), or the engine loaded from Numba's cache, which says
    that nothing compiled (a reinstall of the same sources, say)."""
    if s.get("compiled"):
        return "engine compiled for this machine before that"
    return "engine loaded from the cache, nothing compiled, before that"
