"""Whole matches (``--mode match``): their mergeable totals, result and checks.

The compiled loop is in ``match_nb``; ``runner.run`` plays matches as it plays
rounds (same hooks, same backends), so the studies treat both alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from unosim.errors import UnosimError
from unosim.runs.aggregate import HIST_BINS, per_metric, per_seat
from unosim.runs.plugin_batch import match_batch_for
from unosim.runs.tables import base_seed, game_template
from unosim.simulate import layout as L
from unosim.simulate import match_nb as M
from unosim.simulate.rules import Rules
from unosim.strategies.registry import SeatStrategy

MATCH_FIELDS = M.MATCH_FIELDS
DEFAULT_MAX_ROUNDS = 1000
DEFAULT_MATCH_BATCH = 1 << 12
#: rounds a match takes, roughly (8 to 10 under winner_takes to 500): sizes batches of
#: matches with a search seat (runner.batch_size)
MATCH_ROUNDS_GUESS = 8

#: per-match metric -> how to read it from the records (see ``match_values``)
MATCH_METRICS = ("rounds", "turns", "winner_score", "score")


def match_values(rec: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """The per-match values the totals keep (``winner_score`` only for decided matches;
    ``score`` holds every player's final score, ``players`` values per match)."""
    won = rec[:, M.M_WINNER] >= 0
    winners = rec[won, M.M_WINNER]
    return {
        "rounds": rec[:, M.M_ROUNDS].astype(np.int64),
        "turns": rec[:, M.M_TURNS].astype(np.int64),
        "winner_score": rec[np.nonzero(won)[0], M.M_SCORE + winners].astype(np.int64),
        "score": rec[:, M.M_SCORE : M.M_SCORE + players].reshape(-1).astype(np.int64),
    }


@dataclass
class MatchAggregate:
    """Totals over a set of matches; memory does not grow with their number."""

    players: int
    games: int = 0  # matches (named like Aggregate.games so runners share code)
    capped: int = 0
    capped_rounds: int = 0
    tied: int = 0
    wins: np.ndarray = per_seat()
    losses: np.ndarray = per_seat()
    score_sum: np.ndarray = per_seat()
    round_wins: np.ndarray = per_seat()
    round_losses: np.ndarray = per_seat()
    count: dict[str, int] = per_metric(MATCH_METRICS)
    sums: dict[str, int] = per_metric(MATCH_METRICS)
    sumsq: dict[str, int] = per_metric(MATCH_METRICS)
    hist: dict[str, np.ndarray] = per_metric(MATCH_METRICS, HIST_BINS)
    # game feel (docs/metrics.md#game-feel) over the rounds the matches played (capped
    # rounds left out). Rounds of one match are a cluster: per metric the sum S of the
    # recorded values, and over matches the sums of S*S and S*n (n = rounds counted in
    # the match), with the sum of n*n, give the ratio mean and its cluster standard error.
    feel_rounds: int = 0
    feel_sums: dict[str, int] = per_metric(L.FEEL_METRICS)
    feel_ss: dict[str, int] = per_metric(L.FEEL_METRICS)
    feel_sn: dict[str, int] = per_metric(L.FEEL_METRICS)
    feel_nn: int = 0
    feel_hist: np.ndarray = field(default_factory=lambda: np.zeros(L.FEEL_HIST_BINS, np.int64))

    def add_records(self, rec: np.ndarray) -> None:
        n = self.players
        self.games += rec.shape[0]
        self.capped += int((rec[:, M.M_CAPPED] != 0).sum())
        self.capped_rounds += int(rec[:, M.M_CAPPED_ROUNDS].sum(dtype=np.int64))
        self.tied += int((rec[:, M.M_TIED] != 0).sum())
        w = rec[:, M.M_WINNER]
        self.wins += np.bincount(w[w >= 0], minlength=L.MAX_PLAYERS)[: L.MAX_PLAYERS]
        lo = rec[:, M.M_LOSER]
        self.losses += np.bincount(lo[lo >= 0], minlength=L.MAX_PLAYERS)[: L.MAX_PLAYERS]
        for arr, col in ((self.score_sum, M.M_SCORE), (self.round_wins, M.M_ROUND_WINS),
                         (self.round_losses, M.M_ROUND_LOSSES)):
            arr[:n] += rec[:, col : col + n].sum(0, dtype=np.int64)
        for m, v in match_values(rec, n).items():
            self.count[m] += int(v.shape[0])
            self.sums[m] += int(v.sum())
            self.sumsq[m] += int((v * v).sum())
            self.hist[m] += np.bincount(np.clip(v, 0, HIST_BINS - 1), minlength=HIST_BINS)
        nr = rec[:, M.M_FEEL_ROUNDS].astype(np.int64)
        self.feel_rounds += int(nr.sum())
        self.feel_nn += int((nr * nr).sum())
        for k, m in enumerate(L.FEEL_METRICS):
            sm = rec[:, M.M_FEEL_SUM + k].astype(np.int64)
            self.feel_sums[m] += int(sm.sum())
            self.feel_ss[m] += int((sm.astype(object) ** 2).sum()) if sm.size else 0  # exact
            self.feel_sn[m] += int((sm * nr).sum())
        self.feel_hist += rec[:, M.M_FEEL_HIST : M.M_FEEL_HIST + L.FEEL_HIST_BINS].sum(
            0, dtype=np.int64)

    def merge(self, other: MatchAggregate) -> MatchAggregate:
        self.games += other.games
        self.capped += other.capped
        self.capped_rounds += other.capped_rounds
        self.tied += other.tied
        for name in ("wins", "losses", "score_sum", "round_wins", "round_losses"):
            getattr(self, name)[:] += getattr(other, name)
        for m in MATCH_METRICS:
            self.count[m] += other.count[m]
            self.sums[m] += other.sums[m]
            self.sumsq[m] += other.sumsq[m]
            self.hist[m] += other.hist[m]
        self.feel_rounds += other.feel_rounds
        self.feel_nn += other.feel_nn
        for m in L.FEEL_METRICS:
            self.feel_sums[m] += other.feel_sums[m]
            self.feel_ss[m] += other.feel_ss[m]
            self.feel_sn[m] += other.feel_sn[m]
        self.feel_hist += other.feel_hist
        return self


@dataclass
class MatchResult:
    rules: Rules
    seats: list[SeatStrategy]
    seed: int
    requested: int
    agg: MatchAggregate
    elapsed_s: float
    workers: int
    max_rounds: int
    partial: bool = False
    compile_s: float = 0.0
    compiled: tuple[str, ...] = ()  # the compile paths this run compiled


def check_max_rounds(max_rounds: int) -> None:
    if not 1 <= max_rounds <= 1_000_000:
        raise UnosimError(f"--max-rounds must be within 1..1000000, got {max_rounds}")


def check_match_rules(rules: Rules, max_rounds: int) -> None:
    """Refuse matches the round cap would cut short by design, with a one-line reason."""
    check_max_rounds(max_rounds)
    # first to N round wins among n players is decided within n(N-1)+1 won rounds
    longest = rules["players"] * (rules["target_score"] - 1) + 1
    if rules["scoring"] == "lazy" and longest > max_rounds:
        raise UnosimError(
            f"scoring=lazy: a match is first to target_score={rules['target_score']} round "
            f"wins, which can take {longest:,} rounds, more than --max-rounds {max_rounds}; "
            "lower --target-score (the lazy-scoring preset uses 5) or raise --max-rounds"
        )


def play_match_records(
    rules: Rules, seats: list[SeatStrategy], seed: int, start: int, n: int,
    max_rounds: int = DEFAULT_MAX_ROUNDS, chunks: int = 1,
) -> np.ndarray:
    """Per-match records for matches ``start .. start + n`` (columns: MATCH_FIELDS)."""
    check_max_rounds(max_rounds)
    out = np.zeros((n, M.N_M), dtype=np.int32)
    play = match_batch_for(seats, seed)  # the built-in batch, or the plug-in batch
    play(game_template(rules, seats), base_seed(seed), start, max_rounds, out, max(1, chunks))
    return out
