"""What decides a tournament's order, and where its other figures disagree.

The entrants are ranked by one figure, win rate against fair share (``RANKED_BY``).
Net points and head to head measure other things (how much a strategy scores, how
often it finishes ahead of another) and may order a pair the other way: a strategy
that wins more rounds can lose more points when it does not win. For every pair that
met at a table, ranked a above b, each figure is read on the same rounds (paired):

* win rate: a's wins per seat minus b's, over all the rounds where both sat (a's
  wins over its seat-rounds minus b's: the order of the ranking figure);
* net points: a's net points per seat and round minus b's, over the same rounds (the
  difference of the two means the table shows, whoever holds several seats);
* head to head: the share of rounds a finished ahead of b (ties half), seat for seat:
  where a or b holds several seats (a field, fewer strategies than seats) it is the
  share of the pairs (a's seat, b's seat) in which a's seat finished ahead, so that
  five seats of a field are not pooled against one (the table's head to head counts
  an entrant by its best-placed seat, and a field's five seats beat one seat however
  well it plays). With one seat each the two are the same.

A pair is listed when net points or head to head put b ahead (its estimate on b's
side); each figure is marked *beyond noise* when its 95% interval excludes a tie
(0, or 50% head to head), *within noise* otherwise. Only a contrary figure beyond
noise is a real disagreement: the strategies are then better at different things.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from unosim.stats.intervals import Z95

#: the key of ``results`` rows that ranks the entrants (then ``place_mean``, then label)
RANKED_BY = "win_rate_vs_fair"


def ranked_by_text(place_kind: str) -> str:
    """The header line that names the ranking figure."""
    return (f"ranked by win rate against fair share (ties by mean {place_kind}); net points "
            "and head to head are shown, not ranked on")


def _noise(lo: float, hi: float, tie: float) -> bool:
    """Beyond noise: the interval lies wholly on one side of the tie."""
    return math.isfinite(lo) and math.isfinite(hi) and (lo > tie or hi < tie)


def _figure(mean: float, se: float, tie: float) -> dict[str, Any]:
    lo, hi = (mean - Z95 * se, mean + Z95 * se) if math.isfinite(se) else (math.nan, math.nan)
    return {"diff" if tie == 0 else "ahead": mean, "ci95": [lo, hi],
            "beyond_noise": _noise(lo, hi, tie), "contrary": bool(mean < tie)}


def _state(f: dict[str, Any]) -> str:
    return "beyond noise" if f["beyond_noise"] else "within noise"


def pair_line(d: dict[str, Any]) -> str:
    """``attacker ranks above defensive by win rate (beyond noise), but defensive is
    ahead on net points (+4.02 a seat and round, beyond noise) and in head to head
    (54.46% of rounds, beyond noise)``."""
    a, b = d["above"], d["below"]
    parts = []
    if d["net_points"]["contrary"]:
        parts.append(f"on net points ({-d['net_points']['diff']:+.2f} a seat and round, "
                     f"{_state(d['net_points'])})")
    if d["head_to_head"]["contrary"]:
        h = d["head_to_head"]
        share = f"{100 * (1 - h['ahead']):.2f}%"
        of = (f"seat for seat ({share} of seat pairs" if h.get("seat_for_seat")
              else f"({share} of rounds")
        parts.append(f"in head to head {of}, {_state(h)})")
    win = d["win_rate"]
    how = "tied" if win["diff"] <= 0 else _state(win)
    return f"{a} ranks above {b} by win rate ({how}), but {b} is ahead " + " and ".join(parts)


#: (mean, standard error) of each figure for a pair (a, b), paired on the same rounds
PairStats = Callable[[int, int], dict[str, Any]]


def disagreements(stats: PairStats, met: Callable[[int, int], bool], labels: list[str],
                  rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every pair that met, ranked a above b, that net points or head to head order
    the other way, by rank; ``stats(a, b)`` gives each figure's mean and standard
    error, per seat, under the keys ``win_rate``, ``net_points``, ``head_to_head``
    (and ``seat_for_seat``: true where a or b held several seats)."""
    order = sorted(range(len(rows)), key=lambda i: rows[i]["rank"])
    out = []
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            if not met(a, b):
                continue
            st = stats(a, b)
            d: dict[str, Any] = {"above": labels[a], "below": labels[b]}
            for key, tie in (("win_rate", 0.0), ("net_points", 0.0), ("head_to_head", 0.5)):
                d[key] = _figure(*st[key], tie)
            if st.get("seat_for_seat"):  # said only where it differs from the table's
                d["head_to_head"]["seat_for_seat"] = True
            contrary = [k for k in ("net_points", "head_to_head") if d[k]["contrary"]]
            if not contrary:
                continue
            d["contrary"] = contrary
            d["beyond_noise"] = any(d[k]["beyond_noise"] for k in contrary)
            d["line"] = pair_line(d)
            out.append(d)
    return out


def render_disagreements(s: dict[str, Any]) -> list[str]:
    """The text report's lines: every disagreement beyond noise, then those within
    noise in one line, or that the figures agree."""
    ds = s.get("disagreements", [])
    real = [d for d in ds if d["beyond_noise"]]
    noise = [d for d in ds if not d["beyond_noise"]]
    lines = ["", "Where the figures disagree (paired on the same rounds; beyond noise: the "
             "95% interval excludes a tie)"]
    if not ds:
        lines.append("  win rate, net points and head to head order every pair that met "
                     "the same way")
        return lines
    lines += [f"  {d['line']}" for d in real]
    if noise:
        pairs = ", ".join(f"{d['above']} / {d['below']}" for d in noise)
        lines.append(f"  within noise only: {pairs} (net points or head to head lean the "
                     "other way; the JSON's disagreements give each figure)")
    return lines
