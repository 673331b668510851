"""The card counter against chausner/UnoAI's published figures for MixBot2.

UnoAI (github.com/chausner/UnoAI) measured each of its bots alone against random
bots, 10 million single rounds per table, with the seats and the dealer drawn at
random every game: MixBot2 won 68.8% heads-up and 24.2% one against five (6
players). This plays the same tables here: ``card-counter`` against
``random-colour`` (UnoAI's random bot) under the ``unoai`` preset, the counter's
seat rotated through every seat with equal games (which is what drawing the seats
at random comes to), and prints for each table size the counter's win rate with its
95% interval (Wilson), the points it scored a game (UnoAI's "average points": a
win scores the other hands, a loss 0; ± 1.96 standard errors), the games and the
seconds. ``--baseline`` plays ``random-colour`` in the counter's seat too (UnoAI:
50.0% and 20.7 points heads-up, 16.7% and 31.4 at 6 players).

Usage: python bench/peer_table.py [--games N] [--players 2,6] [--seed S]
                                   [--workers W] [--baseline]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from unosim.common import wilson
from unosim.runs.backend import use_workers
from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy

#: UnoAI's README: (win rate %, average points) of each bot alone against random bots
PUBLISHED = {
    "card-counter": {2: (68.8, 33.8), 6: (24.2, 47.4)},
    "random-colour": {2: (50.0, 20.7), 6: (16.7, 31.4)},
}
OPPONENT = "random-colour"


def play_table(strategy: str, players: int, games: int, seed: int, chunks: int
               ) -> tuple[int, int, float, float, float]:
    """``strategy`` alone against ``OPPONENT`` at ``players`` seats, its seat rotated:
    (games, wins, mean points a game, their standard error, seconds). Seat k plays
    its own range of game indices, so no two seats share a deal."""
    rules = resolve(["unoai"], [("players", players)])
    per_seat = [games // players + (k < games % players) for k in range(players)]
    wins = 0
    points: list[np.ndarray] = []
    t0 = time.perf_counter()
    start = 0
    for k, n in enumerate(per_seat):
        seats = [parse_strategy(OPPONENT)] * players
        seats[k] = parse_strategy(strategy)
        rec = play_records(rules, seats, seed, start, n, chunks)
        start += n
        won = rec[:, L.G_WINNER] == k
        wins += int(won.sum())
        points.append(np.where(won, rec[:, L.G_WINNER_POINTS], 0).astype(np.float64))
        if int(rec[:, L.G_CAPPED].sum()):
            print(f"  {int(rec[:, L.G_CAPPED].sum())} capped rounds at seat {k}")
    seconds = time.perf_counter() - t0
    pts = np.concatenate(points)
    return games, wins, float(pts.mean()), float(pts.std() / math.sqrt(len(pts))), seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=float, default=1e6, help="games per table size")
    ap.add_argument("--players", default="2,6", help="table sizes, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    ap.add_argument("--baseline", action="store_true",
                    help="also play random-colour in the counter's seat")
    a = ap.parse_args()
    chunks = use_workers(a.workers) * 8
    sizes = [int(x) for x in a.players.split(",")]
    names = ["card-counter", *(["random-colour"] if a.baseline else [])]
    # compile (or load) both tables before timing anything
    for name in names:
        play_table(name, 2, 2, a.seed, 1)
    print(f"{'strategy':<14} {'players':>7} {'win rate':>9} {'95% interval':>18} "
          f"{'UnoAI':>6} {'points':>14} {'UnoAI':>6} {'games':>11} {'seconds':>8}")
    for name in names:
        for n in sizes:
            games, wins, pts, se, secs = play_table(name, n, int(a.games), a.seed, chunks)
            lo, hi = wilson(wins, games)
            pub = PUBLISHED[name].get(n, (math.nan, math.nan))
            print(f"{name:<14} {n:>7} {100 * wins / games:>8.2f}% "
                  f"[{100 * lo:6.2f}%, {100 * hi:6.2f}%] {pub[0]:>5.1f}% "
                  f"{pts:>7.2f} ± {1.96 * se:4.2f} {pub[1]:>6.1f} {games:>11,} {secs:>8.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
