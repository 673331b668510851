"""A tuning study's search space: ``--param NAME=LO..HI`` checked against the
strategy's declared parameters, and a trial's values as the parameter string every
command accepts."""

from __future__ import annotations

import math

from unosim.errors import UnosimError
from unosim.strategies.registry import STRATEGY_PARAMS, Param, strategy_params


def search_space(name: str, specs: list[str]) -> dict[str, tuple[float, float, Param]]:
    """``--param NAME=LO..HI`` items checked against the strategy's declared
    parameters (all of them over their documented range when none is given)."""
    params = {p.name: p for p in strategy_params(name)}
    if not params:
        tunable = ", ".join(STRATEGY_PARAMS) + ", or a Python strategy that declares PARAMS"
        raise UnosimError(f"strategy {name!r} has nothing to tune (tunable: {tunable})")
    if not specs:
        return {p.name: (p.lo, p.hi, p) for p in params.values()}
    out: dict[str, tuple[float, float, Param]] = {}
    for item in specs:
        key, eq, rng = item.partition("=")
        key = key.strip()
        lo_s, dots, hi_s = rng.partition("..")
        if not eq or not dots:
            raise UnosimError(f"--param expects NAME=LO..HI, got {item!r}")
        if key not in params:
            raise UnosimError(f"--param {item}: {name} has no parameter {key!r}; it has "
                              + ", ".join(params))
        try:
            lo, hi = float(lo_s), float(hi_s)
        except ValueError:
            raise UnosimError(f"--param {item}: LO and HI must be numbers") from None
        p = params[key]
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise UnosimError(f"--param {item}: LO and HI must be finite numbers")
        if lo > hi:
            raise UnosimError(f"--param {item}: LO {lo_s} is above HI {hi_s}")
        if lo < p.lo or hi > p.hi:
            raise UnosimError(f"--param {item}: outside the domain of {key}, "
                              f"{p.lo:g}..{p.hi:g}")
        if p.integer and (lo != int(lo) or hi != int(hi)):
            raise UnosimError(f"--param {item}: {key} takes whole numbers")
        out[key] = (lo, hi, p)
    return out


def strategy_string(name: str, values: dict[str, float]) -> str:
    """The parameter string `--strategy`, `--seat` and `tournament` accept."""
    if not values:
        return name
    parts = []
    for k in sorted(values):
        v = values[k]
        parts.append(f"{k}={int(v)}" if float(v).is_integer() else f"{k}={round(v, 3):g}")
    return f"{name}:{','.join(parts)}"
