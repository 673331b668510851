"""A tournament's running totals and their paired statistics: every lineup's records
folded into integer (or exact float) sums per entrant and per pair of entrants, so
tasks merge in any order; the paired differences of wins, points and head to head
that order two entrants (``tournament_order``) are read from them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate.rules import Rules
from unosim.stats.intervals import mean_se


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


def seat_for_seat(t: Totals, a: int, b: int) -> tuple[float, float]:
    """(mean, standard error) of the share of seat pairs, over the rounds where both
    sat, in which ``a``'s seat finished ahead of ``b``'s (ties half): head to head like
    with like, where the table's head to head counts an entrant in several seats by its
    best-placed one. When both hold one seat in every lineup it is that head to head,
    to the last digit."""
    return _ratio_diff(int(t.seat_h2h[a, b]), 2 * int(t.seat_pairs[a, b]), 0, 1,
                       int(t.seat_h2h_sq[a, b]), 0, 0, int(t.h2h_n[a, b]))
