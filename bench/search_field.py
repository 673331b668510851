"""Search variants in one seat against a field, paired on the same deals.

Seats one search (or any strategy) against ``--players - 1`` copies of ``--field``,
its seat rotated through every seat and every lineup on the same deals, as ``unosim
tournament STRATEGY --field FIELD`` seats it; for each variant it prints the win rate
over all games with its 95% Wilson interval and, from the second on, the difference
from the first variant paired over the deals (a deal's games in every seat resampled
together, 95% bootstrap over deals), and games a second.

Usage (from the repository root):

    python bench/search_field.py --deals 2500 search search:policy=card-counter
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from search_curve import boot_interval

from unosim.common import wilson
from unosim.runs.backend import use_workers
from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("strategies", nargs="+", help="the variants, the first the reference")
    ap.add_argument("--deals", type=int, default=2500, help="deals (each played in every seat)")
    ap.add_argument("--field", default="card-counter")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--variant", default="official")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="threads (default 1)")
    a = ap.parse_args()
    chunks = use_workers(a.workers) * 8
    n = a.players
    rules = resolve([v for v in a.variant.split(",") if v], [("players", n)])
    print(f"one seat against {n - 1} x {a.field}, {a.variant}, seat rotated, every lineup "
          f"on the same {a.deals} deals, seed {a.seed}")
    ref = None
    for spec in a.strategies:
        won = np.zeros((a.deals, n))
        t0 = time.perf_counter()
        for k in range(n):
            seats = [parse_strategy(a.field)] * n
            seats[k] = parse_strategy(spec)
            rec = play_records(rules, seats, a.seed, 0, a.deals, chunks)
            won[:, k] = rec[:, L.G_WINNER] == k
        secs = time.perf_counter() - t0
        wins = int(won.sum())
        lo, hi = wilson(wins, won.size)
        out = (f"{spec:<40} {won.size:>6} games {100 * wins / won.size:6.2f}% "
               f"[{100 * lo:.2f}, {100 * hi:.2f}]")
        if ref is None:
            ref = won
        else:
            d = won.mean(axis=1) - ref.mean(axis=1)
            dlo, dhi = boot_interval(d, np.random.default_rng(a.seed))
            out += f"  paired {100 * d.mean():+.2f} [{100 * dlo:+.2f}, {100 * dhi:+.2f}]"
        print(out + f"  {won.size / secs:.0f} games/s", flush=True)


if __name__ == "__main__":
    main()
