"""Head-to-head tournaments of strategies, with the seats rotated: the result, its
figures and the table (the study that plays it is ``tournament.py``, its running
totals ``tournament_totals.py``).

Seating (``lineups``), with k strategies at a table of n players:

* k == n: the n cyclic rotations of the order given (``--seating permutations``:
  all n! orders, which also balances who sits after whom);
* k > n: every set of n strategies, each in its n cyclic rotations (or all
  orders), so every pair meets equally often; for 2-player tables that is every
  pair in both seat orders;
* k < n: the table is filled by cycling through the strategies (A B A B ...), in
  all n rotations; a strategy then holds several seats, and its fair share of
  wins is the share of seats it holds. When n is not a multiple of k (3 strategies
  at 4 seats), the cycle starts from each strategy in turn (A B C A, B C A B,
  C A B C), so each holds the extra seat equally often and every strategy fills the
  same number of seat-games (``tournament.fewer_bases``).

With a field (``--field F``): each listed strategy holds one seat and F every other
seat, the listed strategy's seat rotated through all n seats (n lineups per listed
strategy, k n in all; they never meet each other). F is an entrant of its own, the
last, labelled ``field: F``, so its figures are reported too.

The same strategy may be listed several times: each entry is its own entrant,
labelled ``NAME``, ``NAME#2``, ``NAME#3`` ... in the order given (``entrant_labels``).

In every case each entrant sits in every seat equally often (``seat_counts``
shows it; the tests check it exactly). Every lineup plays the same games
0 .. m-1 of the seed, so each deal is played once in every lineup (the
duplicate format of bridge): luck of the deal and of the seat cancels in the
comparison. ``games`` is rounded up to a whole number of games per lineup.

Per entrant: win rate, the share of the rounds it played that it won (that one of
its seats won, when it holds several), with its 95% Wilson interval against its fair
share, the share of the seats it holds: 1/n for an entrant in one seat (every listed
strategy against a field), (n-1)/n for the field; points won per round (what the scoring
awards the round winner), points left in hand, and the net (won minus what the
winner took from its hand, under ``winner_takes``), each per seat and round with
a 95% interval; mean finishing place (``elimination``) or rank (the winner
first, the others by the points left in hand, ties sharing the average rank).
Head to head: the share of rounds in which the row strategy finished ahead of
the column strategy (a tie counts half), over the rounds both played. Capped
rounds count as played and won by nobody; they are left out of places, points
and head to head. The entrants are ranked by win rate over fair share (then mean
place, then label; ``ranked_by`` names it); ``--format json`` lists them in the order
given (the field last), each with its ``rank``, and the table sorts them by rank.
Where net points or head to head order a pair the other way, ``disagreements`` says
so, and whether beyond noise (``tournament_order``), each figure per seat: head to head
there is seat for seat (``seat_for_seat``), not an entrant's best of several seats.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from unosim import provenance
from unosim.simulate.rules import Rules
from unosim.stats.intervals import Z95, mean_se, wilson
from unosim.strategies.registry import SeatStrategy
from unosim.studies.lineups.tournament_order import (
    RANKED_BY,
    disagreements,
    ranked_by_text,
    render_disagreements,
)
from unosim.studies.lineups.tournament_totals import (
    METRICS,
    Totals,
    paired_points,
    paired_wins,
    seat_for_seat,
)

FIELD_PREFIX = "field: "


def entrant_labels(strategies: list[SeatStrategy], field: SeatStrategy | None = None
                   ) -> list[str]:
    """One label per entrant, in the order given: a strategy listed again is its own
    entrant, ``NAME#2``, ``NAME#3`` ...; the field (if any) comes last as ``field: NAME``."""
    seen: dict[str, int] = {}
    out = []
    for s in strategies:
        label = s.label()
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
    if field is not None:
        out.append(FIELD_PREFIX + field.label())
    return out


def seating_note(k: int, n: int, seating: str, n_lineups: int, field: str | None = None
                 ) -> str:
    """What the lineups are (``k``: the entrants, the field included when ``field``)."""
    if field is not None:
        listed = k - 1
        who = "each strategy" if listed > 1 else "the strategy"
        return (f"{n_lineups} lineups: {who} in one seat against the field ({field}) in "
                f"the other {n - 1}, its seat rotated through all {n} seats; every lineup "
                "plays the same deals (duplicate format)")
    if k == n:
        what = ("all cyclic rotations of the order given" if seating == "rotations"
                else "every order of the strategies")
    elif k > n:
        what = (f"every set of {n} of the {k} strategies, "
                + ("each in all its cyclic rotations" if seating == "rotations"
                   else "each in every order"))
    elif n % k == 0:
        what = (f"{n} seats filled by cycling through the {k} strategies, "
                + ("in all rotations" if seating == "rotations" else "in every order"))
    else:
        what = (f"{n} seats filled by cycling through the {k} strategies from each in "
                "turn, so each holds the extra seats equally often, "
                + ("in all rotations" if seating == "rotations" else "in every order"))
    return (f"{n_lineups} lineups: {what}; every strategy plays every seat equally often, "
            "and every lineup plays the same deals (duplicate format)")


@dataclass
class TournamentResult:
    rules: Rules
    strategies: list[SeatStrategy]
    seating: str
    lineups: list[tuple[int, ...]]
    games_per_lineup: int
    games_requested: int
    seed: int
    totals: Totals
    elapsed_s: float = 0.0
    workers: int = 1
    variant: str = "official"
    partial: bool = False
    #: the field strategy: then the last of ``strategies`` is the field (``--field``)
    field: SeatStrategy | None = None

    @property
    def listed(self) -> list[SeatStrategy]:
        """The strategies as listed (the field left out)."""
        return self.strategies[:-1] if self.field is not None else list(self.strategies)


def _ci(total: float, total_sq: float, count: int) -> tuple[float, float, float]:
    mean, se = mean_se(total, total_sq, count)
    if count <= 1 or math.isnan(se):
        return mean, math.nan, math.nan
    return mean, mean - Z95 * se, mean + Z95 * se


def _pair_stats(t: Totals, a: int, b: int) -> dict[str, Any]:
    """Mean and standard error of win rate, net points and head to head of ``a``
    against ``b``, each per seat and paired on the same rounds (``tournament_order``);
    ``seat_for_seat`` when either held several seats at some table."""
    win, win_se, _ = paired_wins(t, a, b)
    pts, pts_se, _ = paired_points(t, "net_points", a, b)
    out: dict[str, Any] = {"win_rate": (win, win_se), "net_points": (pts, pts_se),
                           "head_to_head": seat_for_seat(t, a, b)}
    if int(t.seat_pairs[a, b]) > int(t.h2h_n[a, b]):
        out["seat_for_seat"] = True
    return out


def summarize_tournament(r: TournamentResult) -> dict[str, Any]:
    """The JSON-able summary (the keys of ``--format json``)."""
    t = r.totals
    labels = entrant_labels(r.listed, r.field)
    played = int(t.seat_counts.sum()) // t.n // len(r.lineups)  # r.games_per_lineup unless
    rows = []  # stopped early
    for s, label in enumerate(labels):
        g = int(t.games[s])
        rate = t.wins[s] / g if g else math.nan
        lo, hi = wilson(int(t.wins[s]), g)
        fair = t.fair[s] / g if g else math.nan
        row: dict[str, Any] = {
            "strategy": label,
            "role": "field" if r.field is not None and s == len(labels) - 1 else "listed",
            "games": g,
            "wins": int(t.wins[s]),
            "win_rate": rate,
            "win_rate_ci95": [lo, hi],
            "fair_share": fair,
            "win_rate_vs_fair": rate / fair if fair else math.nan,
            "beats_fair_share": bool(lo > fair),
            "below_fair_share": bool(hi < fair),
            "seat_counts": [int(x) for x in t.seat_counts[s]],
        }
        for key in METRICS:
            mean, a, b = _ci(t.sums[key][s], t.sumsq[key][s], int(t.seat_rounds[s]))
            row[key + "_mean"] = mean
            row[key + "_ci95"] = [a, b]
        rows.append(row)
    order = sorted(range(len(rows)), key=lambda i: (-rows[i][RANKED_BY],
                                                    rows[i]["place_mean"], labels[i]))
    for rank, i in enumerate(order, 1):
        rows[i]["rank"] = rank
    h2h: dict[str, dict[str, Any]] = {}
    for a, la in enumerate(labels):
        h2h[la] = {}
        for b, lb in enumerate(labels):
            if a == b or t.h2h_n[a, b] == 0:
                continue
            mean, lo, hi = _ci(t.h2h[a, b], t.h2h_sq[a, b], int(t.h2h_n[a, b]))
            h2h[la][lb] = {"ahead": mean, "ci95": [lo, hi], "rounds": int(t.h2h_n[a, b])}
    place_kind = "place" if r.rules["elimination"] else "rank"
    return {
        "provenance": provenance(),
        "variant": r.variant,
        "rules_changed": r.rules.changed(),
        "players": t.n,
        "scoring": r.rules["scoring"],
        "place_kind": place_kind,
        "strategies": labels[:-1] if r.field is not None else labels,
        "field": r.field.label() if r.field is not None else None,
        "seating": r.seating,
        "seating_note": seating_note(len(labels), t.n, r.seating, len(r.lineups),
                                     r.field.label() if r.field is not None else None),
        "lineups": [[labels[i] for i in lu] for lu in r.lineups] if len(r.lineups) <= 5040
        else len(r.lineups),
        "games_requested": r.games_requested,
        "games_per_lineup": played,
        "games": played * len(r.lineups),
        "partial": r.partial,
        "seed": r.seed,
        "capped": t.capped,
        "seat_rotation_exact": bool(all(
            len(set(int(x) for x in t.seat_counts[s])) == 1 for s in range(len(labels)))),
        "results": rows,  # in the order given, the field last; "rank" ranks them
        "head_to_head": h2h,
        "ranked_by": RANKED_BY,
        "ranked_by_text": ranked_by_text(place_kind),
        "disagreements": disagreements(lambda a, b: _pair_stats(t, a, b),
                                       lambda a, b: bool(t.h2h_n[a, b] > 0), labels, rows),
        "workers": r.workers,
        "elapsed_s": r.elapsed_s,
    }


def _pct(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:.2f}%"


def _num(x: float, d: int = 2) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{x:,.{d}f}"


def render_tournament(s: dict[str, Any]) -> str:
    n = s["players"]
    n_lineups = len(s["lineups"]) if isinstance(s["lineups"], list) else s["lineups"]
    lines = [
        f"unosim tournament · variant {s['variant']} · {n} players · {s['games']:,} games "
        f"({n_lineups} lineups x {s['games_per_lineup']:,}) · seed {s['seed']}",
        f"seating: {s['seating_note']}",
    ]
    changed = s["rules_changed"]
    lines.append("rules changed from official: "
                 + (", ".join(f"{k}={v}" for k, v in changed.items()) if changed else "none"))
    if s["partial"]:
        lines.append(f"PARTIAL RESULT: stopped after {s['games_per_lineup']:,} games in every "
                     "lineup (the same deals in each)")
    elif s["games"] != s["games_requested"]:
        lines.append(f"(games rounded up from {s['games_requested']:,} to a whole number per "
                     "lineup)")
    res = sorted(s["results"], key=lambda x: x["rank"])
    w = max(12, *(len(r["strategy"]) for r in res)) + 1
    place = "mean place" if s["place_kind"] == "place" else "mean rank"
    lines.append("")
    lines.append(s.get("ranked_by_text") or ranked_by_text(s["place_kind"]))
    lines.append(f"{'rank':<5}{'strategy':<{w}}{'win rate':>9}  {'95% CI':<18}{'fair':>7}"
                 f"{'points won':>12}{'net points':>12}{'left in hand':>14}{place:>11}")
    for r in res:
        lo, hi = r["win_rate_ci95"]
        mark = "+" if r["beats_fair_share"] else ("-" if r["below_fair_share"] else "")
        ci = f"[{100 * lo:.2f}, {100 * hi:.2f}] {mark}"
        lines.append(
            f"{r['rank']:<5}{r['strategy']:<{w}}{_pct(r['win_rate']):>9}  {ci:<18}"
            f"{_pct(r['fair_share']):>7}{_num(r['points_won_mean']):>12}"
            f"{_num(r['net_points_mean']):>12}{_num(r['points_left_mean']):>14}"
            f"{_num(r['place_mean'], 3):>11}"
        )
    lines.append(f"  + / -: the 95% interval lies above / below the fair share. Points are per "
                 f"seat and round (scoring {s['scoring']}), 95% half-widths in the JSON.")
    if s.get("field") is not None:
        lines.append(f"  win rate: the share of its rounds a strategy won (fair: 1/{n}); "
                     f"field: {s['field']}: the share won by one of the field's {n - 1} "
                     f"seats (fair: {n - 1}/{n}), over every lineup")
    labels = [r["strategy"] for r in res]
    h = s["head_to_head"]
    lines.append("")
    lines.append("Head to head: share of rounds the row finished ahead of the column "
                 "(ties count half)")
    cw = max(9, *(len(x) for x in labels)) + 1
    lines.append(" " * w + "".join(f"{x:>{cw}}" for x in labels))
    for a in labels:
        cells = []
        for b in labels:
            cell = h.get(a, {}).get(b)
            cells.append(f"{'-' if cell is None else _pct(cell['ahead']):>{cw}}")
        lines.append(f"{a:<{w}}" + "".join(cells))
    if s.get("field") is not None and len(labels) > 2:
        lines.append("  (-: never at one table; each strategy meets only the field, on the "
                     "same deals)")
    if any(sum(r["seat_counts"]) > r["games"] for r in res):
        lines.append("  (an entrant in several seats counts as ahead when its best-placed "
                     "seat is; where the figures disagree, head to head is seat for seat)")
    if "disagreements" in s:
        lines += render_disagreements(s)
    lines.append("")
    lines.append(f"capped rounds (no winner): {s['capped']:,}   seat rotation exact: "
                 f"{'yes' if s['seat_rotation_exact'] else 'no'}")
    if s["elapsed_s"] > 0:
        lines.append(f"speed: {s['games'] / s['elapsed_s']:,.0f} games/s "
                     f"({s['elapsed_s']:.2f} s, {s['workers']} worker"
                     f"{'s' if s['workers'] != 1 else ''})")
    return "\n".join(lines)


def render_json(s: dict[str, Any]) -> str:
    def clean(x: Any) -> Any:
        if isinstance(x, float) and math.isnan(x):
            return None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list):
            return [clean(v) for v in x]
        return x

    return json.dumps(clean(s), indent=2)
