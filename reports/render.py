"""Plain-text and JSON renderings of a run summary."""

from __future__ import annotations

import json
import math
from typing import Any

from unosim.simulate.round_metrics import ROUND_FIELDS, SHOWN
from unosim.stats.numbers import compile_words, plus_minus


def _f(x: float, digits: int = 2) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:,.{digits}f}"


def render_table(s: dict[str, Any]) -> str:
    """The human report of one run: every figure with its uncertainty."""
    n = s["games"]
    lines = []
    head = (
        f"unosim · variant {s['variant']} · {s['players']} players · {n:,} games"
        f" · seed {s['seed']} · {s['workers']} worker{'s' if s['workers'] != 1 else ''}"
    )
    lines.append(head)
    if s["partial"]:
        lines.append(f"PARTIAL RESULT: interrupted after {n:,} of {s['games_requested']:,} games")
    changed = s["rules_changed"]
    lines.append(
        "rules changed from official: "
        + (", ".join(f"{k}={_show(v)}" for k, v in changed.items()) if changed else "none")
    )
    lines.append("")
    lines.append("Seat win rate (95% Wilson interval)")
    for i, (rate, ci) in enumerate(zip(s["seat_win_rate"], s["seat_win_rate_ci95"], strict=True)):
        lines.append(
            f"  seat {i:<2} {s['strategies'][i]:<14} {100 * rate:6.2f}%"
            f"   [{100 * ci[0]:.2f}%, {100 * ci[1]:.2f}%]"
        )
    from unosim.reports.feel import feel_lines, seat_balance_line

    if "seat_balance" in s:
        lines.append(seat_balance_line(s))
    lines.append("")
    lines.append(f"{'Per round':<26}{'mean ± se':>18}{'median':>9}{'p90':>8}")
    for show in SHOWN:  # the rows simulate/round_metrics.py declares, spread ones first
        for f in ROUND_FIELDS:
            key = f.name
            if f.show != show or (show == "seen" and not s.get(key + "_mean")):
                continue
            cell = f"  {f.row:<24}{plus_minus(s[key + '_mean'], s[key + '_se']):>18}"
            if show == "spread":
                cell += f"{_f(s[key + '_median'], 0):>9}{_f(s[key + '_p90'], 0):>8}"
            lines.append(cell)
    if s.get("max_stack_mean") and s["rules"]["stacking"] != "none":
        dist = s["max_stack_distribution"]
        n = sum(dist)
        shares = ", ".join(f"{k}: {100 * c / n:.1f}%" for k, c in enumerate(dist) if c)
        lines.append(f"  longest draw chain (cards per round): {shares}")
    if "seat_mean_place" in s:
        lines.append("")
        lines.append("Mean finishing place per seat (elimination; 1 = first out)")
        for i, m in enumerate(s["seat_mean_place"]):
            lines.append(f"  seat {i:<2} {m:6.3f}")
    if "seat_mean_stage" in s:
        lines.append("")
        lines.append("Mean stage at the end of the round per seat (seven_rounds; 1 = last stage)")
        for i, m in enumerate(s["seat_mean_stage"]):
            lines.append(f"  seat {i:<2} {m:6.3f}")
    if "feel_rounds" in s:
        lines.append("")
        lines += feel_lines(s)
    lines.append("")
    capped = s["capped"]
    share = 100 * capped / n if n else float("nan")
    lines.append(
        f"capped rounds (no winner, stopped at {s['rules']['turn_cap']:,} turns): "
        f"{capped:,} of {n:,} ({share:.3f}%)"
    )
    lines.append(
        f"speed: {s['games_per_sec']:,.0f} games/s ({s['elapsed_s']:.2f} s;"
        f" {compile_words(s)} {s['compile_s']:.2f} s)"
    )
    return "\n".join(lines)


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def render_json(s: dict[str, Any]) -> str:
    """Strict JSON: numpy scalars become numbers, NaN (no data) becomes null."""
    return json.dumps(_clean(s), indent=2, allow_nan=False)


def _clean(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if hasattr(x, "item"):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x
