"""Head-to-head tournaments of strategies, with the seats rotated: the totals, their
statistics and the table (the study that plays it is ``studies/tournament.py``).

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
  same number of seat-games (``studies.tournament.fewer_bases``).

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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from unosim import provenance
from unosim.reports.tournament_order import (
    RANKED_BY,
    disagreements,
    ranked_by_text,
    render_disagreements,
)
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules
from unosim.stats.intervals import Z95, mean_se, wilson
from unosim.strategies.registry import SeatStrategy

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
class Totals:
    """Running totals of a tournament (all integer or fixed-order float sums)."""

    k: int
    n: int
    games: np.ndarray = field(init=False)  # rounds the strategy played
    wins: np.ndarray = field(init=False)
    seat_rounds: np.ndarray = field(init=False)  # seat-rounds not capped
    seat_counts: np.ndarray = field(init=False)  # [strategy, seat] rounds played there
    capped: int = 0
    sums: dict[str, np.ndarray] = field(init=False)
    sumsq: dict[str, np.ndarray] = field(init=False)
    h2h: np.ndarray = field(init=False)  # [a, b] sum of (a ahead of b: 1, tie: 0.5)
    h2h_sq: np.ndarray = field(init=False)
    h2h_n: np.ndarray = field(init=False)
    # The paired figures of a and b, over the rounds (not capped) where both sit, with
    # A_r a's points over its seats in round r and B_r b's: [a, b] holds the sum of A_r
    # (``pair``), of A_r ** 2 (``pair_sq``) and of A_r * B_r (``pair_cross``), and
    # ``pair_seats`` a's seat-rounds N_a (b's are at [b, a]). The paired difference is
    # S_a / N_a - S_b / N_b, the difference of the two strategies' own means per seat
    # whenever they met in every round, as they do with no more strategies than seats;
    # its standard error is that of d_r = R (A_r / N_a - B_r / N_b) over the R rounds
    # (``_ratio_diff``). All integers, so merging in any order gives the same totals
    # (int64: a round's points over a strategy's seats stay in the thousands, so the
    # squares summed over 1e9 rounds stay far below 2**63; the final sums are Python
    # integers).
    pair: dict[str, np.ndarray] = field(init=False)
    pair_sq: dict[str, np.ndarray] = field(init=False)
    pair_cross: dict[str, np.ndarray] = field(init=False)
    pair_seats: np.ndarray = field(init=False)
    # [a, b] the same for the round's wins (A_r: 1 when one of a's seats won): the win
    # rates per seat, whose order ranks the entrants (``ordering``), on the same rounds
    win_pair: np.ndarray = field(init=False)
    win_pair_sq: np.ndarray = field(init=False)
    win_pair_cross: np.ndarray = field(init=False)
    # [a, b] head to head seat for seat: per round, H_r the sum over a's seats and b's
    # seats of 2 (a's seat ahead) or 1 (a tie), and ``seat_pairs`` the sum of c_a * c_b
    # (the seats each holds), so the share of seat pairs a won is seat_h2h / (2
    # seat_pairs): like with like when an entrant holds several seats (``h2h`` counts
    # its best-placed seat)
    seat_h2h: np.ndarray = field(init=False)
    seat_h2h_sq: np.ndarray = field(init=False)
    seat_pairs: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        k = self.k
        self.games = np.zeros(k, np.int64)
        self.wins = np.zeros(k, np.int64)
        self.seat_rounds = np.zeros(k, np.int64)
        self.seat_counts = np.zeros((k, self.n), np.int64)
        self.sums = {m: np.zeros(k, np.float64) for m in METRICS}
        self.sumsq = {m: np.zeros(k, np.float64) for m in METRICS}
        self.h2h = np.zeros((k, k), np.float64)
        self.h2h_sq = np.zeros((k, k), np.float64)
        self.h2h_n = np.zeros((k, k), np.int64)
        self.pair = {m: np.zeros((k, k), np.int64) for m in PAIRED}
        self.pair_sq = {m: np.zeros((k, k), np.int64) for m in PAIRED}
        self.pair_cross = {m: np.zeros((k, k), np.int64) for m in PAIRED}
        self.pair_seats = np.zeros((k, k), np.int64)
        self.win_pair = np.zeros((k, k), np.int64)
        self.win_pair_sq = np.zeros((k, k), np.int64)
        self.win_pair_cross = np.zeros((k, k), np.int64)
        self.seat_h2h = np.zeros((k, k), np.int64)
        self.seat_h2h_sq = np.zeros((k, k), np.int64)
        self.seat_pairs = np.zeros((k, k), np.int64)

    @property
    def fair(self) -> np.ndarray:
        """Per strategy, the sum over its rounds of the share of seats it held."""
        return self.seat_counts.sum(1) / self.n

    def merge(self, other: Totals) -> Totals:
        """Add ``other``'s rounds (every sum is exact: integers, or floats holding
        integers and halves, so the order of merging does not matter)."""
        for name in ("games", "wins", "seat_rounds", "seat_counts", "h2h", "h2h_sq",
                     "h2h_n", "pair_seats", "win_pair", "win_pair_sq", "win_pair_cross",
                     "seat_h2h", "seat_h2h_sq", "seat_pairs"):
            getattr(self, name)[...] += getattr(other, name)
        self.capped += other.capped
        for m in METRICS:
            self.sums[m] += other.sums[m]
            self.sumsq[m] += other.sumsq[m]
        for m in PAIRED:
            self.pair[m] += other.pair[m]
            self.pair_sq[m] += other.pair_sq[m]
            self.pair_cross[m] += other.pair_cross[m]
        return self


#: per seat and round: key -> label
METRICS = {
    "points_won": "points won",
    "points_left": "points left in hand",
    "net_points": "net points",
    "place": "mean place",
}
#: the points compared pair by pair on the same rounds (``paired_points``)
PAIRED = ("points_won", "net_points")


def add_records(t: Totals, lineup: tuple[int, ...], rec: np.ndarray, rules: Rules) -> None:
    """Fold the records of games played by ``lineup`` into ``t``."""
    n = t.n
    m = rec.shape[0]
    capped = rec[:, L.G_CAPPED] != 0
    ok = ~capped
    t.capped += int(capped.sum())
    winner = rec[:, L.G_WINNER].astype(np.int64)
    wp = rec[:, L.G_WINNER_POINTS].astype(np.float64)
    pts = rec[:, L.G_POINTS : L.G_POINTS + n].astype(np.float64)
    seats = np.arange(n)
    won = (winner[:, None] == seats[None, :]) & ok[:, None]  # [game, seat]
    if rules["elimination"]:
        rank = rec[:, L.G_PLACES : L.G_PLACES + n].astype(np.float64)
    else:
        v = np.where(won, -1.0, pts)
        below = (v[:, None, :] < v[:, :, None]).sum(2)
        same = (v[:, None, :] == v[:, :, None]).sum(2) - 1
        rank = 1.0 + below + 0.5 * same
    taken = rules["scoring"] == "winner_takes"
    per_seat = {
        "points_won": np.where(won, wp[:, None], 0.0),
        "points_left": pts,
        "net_points": (np.where(won, wp[:, None], 0.0)
                       - (np.where(~won & ok[:, None], pts, 0.0) if taken else 0.0)),
        "place": rank,
    }
    lu = np.asarray(lineup)
    for s in range(t.k):
        mine = lu == s
        copies = int(mine.sum())
        if copies == 0:
            continue
        t.games[s] += m
        t.wins[s] += int(won[:, mine].any(1).sum())
        t.seat_counts[s, mine] += m
        t.seat_rounds[s] += int(ok.sum()) * copies
        for key, arr in per_seat.items():
            x = arr[ok][:, mine]
            t.sums[key][s] += float(x.sum())
            t.sumsq[key][s] += float((x * x).sum())
    _add_pairs(t, lu, ok, won, rec, n, taken, rank)
    # head to head: each strategy's best-placed seat
    best = np.full((m, t.k), np.inf)
    for s in set(lineup):
        best[:, s] = rank[:, lu == s].min(1)
    present = sorted(set(lineup))
    for a in present:
        for b in present:
            if a == b:
                continue
            score = np.where(best[ok, a] < best[ok, b], 1.0,
                             np.where(best[ok, a] == best[ok, b], 0.5, 0.0))
            t.h2h[a, b] += float(score.sum())
            t.h2h_sq[a, b] += float((score * score).sum())
            t.h2h_n[a, b] += int(ok.sum())


def _add_pairs(t: Totals, lu: np.ndarray, ok: np.ndarray, won: np.ndarray, rec: np.ndarray,
               n: int, taken: bool, rank: np.ndarray) -> None:
    """Fold the paired per-round sums of points, wins and seat-for-seat head to head of
    every pair of strategies at the table (``Totals``): integers, whoever holds how
    many seats, so lineups of any shape add up."""
    wp = rec[ok, L.G_WINNER_POINTS].astype(np.int64)[:, None]
    pts = rec[ok, L.G_POINTS : L.G_POINTS + n].astype(np.int64)
    w = won[ok].astype(np.int64)
    got = np.where(w != 0, wp, 0)
    vals = {"points_won": got, "net_points": got - (np.where(w == 0, pts, 0) if taken else 0)}
    rk = rank[ok]
    rounds = int(ok.sum())
    present = sorted(set(int(x) for x in lu))
    for a in present:
        for b in present:
            if a == b:
                continue
            ia, ib = lu == a, lu == b
            t.pair_seats[a, b] += int(ia.sum()) * rounds
            t.seat_pairs[a, b] += int(ia.sum()) * int(ib.sum()) * rounds
            for key, x in vals.items():
                xa, xb = x[:, ia].sum(1), x[:, ib].sum(1)
                t.pair[key][a, b] += int(xa.sum())
                t.pair_sq[key][a, b] += int((xa * xa).sum())
                t.pair_cross[key][a, b] += int((xa * xb).sum())
            wa, wb = w[:, ia].sum(1), w[:, ib].sum(1)
            t.win_pair[a, b] += int(wa.sum())
            t.win_pair_sq[a, b] += int((wa * wa).sum())
            t.win_pair_cross[a, b] += int((wa * wb).sum())
            ra, rb = rk[:, ia][:, :, None], rk[:, ib][:, None, :]
            h = (2 * (ra < rb).sum((1, 2)) + (ra == rb).sum((1, 2))).astype(np.int64)
            t.seat_h2h[a, b] += int(h.sum())
            t.seat_h2h_sq[a, b] += int((h * h).sum())


def _ratio_diff(s_a: int, n_a: int, s_b: int, n_b: int, sq_a: int, sq_b: int, cross: int,
                rounds: int) -> tuple[float, float]:
    """(mean, standard error) of S_a / N_a - S_b / N_b from the integer sums over
    ``rounds`` rounds of A_r, B_r, their squares and products: the mean of d_r = R
    (A_r / N_a - B_r / N_b), the seats N fixed by the lineups, so the error is that of
    the per-round d_r (taken around their common mean, so it also counts the rounds
    where a strategy holds more seats and scores more: on the safe side). Summed
    exactly as fractions and rounded once, so with one seat each (N_a = N_b = R, d_r =
    A_r - B_r) it is the plain paired mean to the last digit."""
    if rounds <= 0 or n_a <= 0 or n_b <= 0:
        return math.nan, math.nan
    den = n_a * n_b
    total = rounds * (s_a * n_b - s_b * n_a) / den
    total_sq = rounds * rounds * (n_b * n_b * sq_a - 2 * den * cross
                                  + n_a * n_a * sq_b) / (den * den)
    return mean_se(total, total_sq, rounds)


def paired_points(t: Totals, key: str, a: int, b: int) -> tuple[float, float, int]:
    """(mean, standard error, rounds) of strategy ``a``'s points per seat minus ``b``'s
    over the rounds where both sat (capped rounds left out): the difference of their
    means per seat-game, the report's ``<key>_mean``, when they met in every round."""
    n = int(t.h2h_n[a, b])
    mean, se = _ratio_diff(int(t.pair[key][a, b]), int(t.pair_seats[a, b]),
                           int(t.pair[key][b, a]), int(t.pair_seats[b, a]),
                           int(t.pair_sq[key][a, b]), int(t.pair_sq[key][b, a]),
                           int(t.pair_cross[key][a, b]), n)
    return mean, se, n


def paired_wins(t: Totals, a: int, b: int) -> tuple[float, float, int]:
    """(mean, standard error, rounds) of strategy ``a``'s wins per seat minus ``b``'s
    over the rounds where both sat (capped rounds, won by nobody, left out): with no
    capped round, the difference of their ``win_rate_vs_fair`` / players, the figure
    that ranks them."""
    n = int(t.h2h_n[a, b])
    mean, se = _ratio_diff(int(t.win_pair[a, b]), int(t.pair_seats[a, b]),
                           int(t.win_pair[b, a]), int(t.pair_seats[b, a]),
                           int(t.win_pair_sq[a, b]), int(t.win_pair_sq[b, a]),
                           int(t.win_pair_cross[a, b]), n)
    return mean, se, n


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


def seat_for_seat(t: Totals, a: int, b: int) -> tuple[float, float]:
    """(mean, standard error) of the share of seat pairs, over the rounds where both
    sat, in which ``a``'s seat finished ahead of ``b``'s (ties half): head to head like
    with like, where the table's head to head counts an entrant in several seats by its
    best-placed one. When both hold one seat in every lineup it is that head to head,
    to the last digit."""
    return _ratio_diff(int(t.seat_h2h[a, b]), 2 * int(t.seat_pairs[a, b]), 0, 1,
                       int(t.seat_h2h_sq[a, b]), 0, 0, int(t.h2h_n[a, b]))


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
