"""One-core wall rate (games/s) of official rules, 4 players, all seats ``random``,
alternating builds on one machine: each build is a Python path (a checkout's
package root, or "" for the installed one) run in turn, several rounds, so a busy
machine slows them alike; prints each run and each build's range.

Usage: python bench/wall_rate.py [--games N] [--rounds R] NAME=PYTHONPATH ...
e.g.   python bench/wall_rate.py now= base=/tmp/base-pkg
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

CODE = """
import sys, time
from unosim.simulate.rules import resolve
from unosim.runs.modes import ROUND
from unosim.runs.runner import DEFAULT_MAX_ROUNDS, play_range
from unosim.runs.tables import Table
from unosim.strategies.registry import parse_strategy
# as the command plays: batches of ROUND.batch games, each into a fresh records array,
# folded (here into nothing) before the next; a single array of every game's records
# (224 MB for 1e6 games) timed first touches of memory the command never makes
tables = [Table(resolve([]), [parse_strategy('random')] * 4)]
def play(n):
    play_range(tables, ROUND, 1, 0, n, ROUND.batch, 1, DEFAULT_MAX_ROUNDS, None,
               lambda totals, recs: None)
play(10)  # compile or load
n = int(sys.argv[1])
t0 = time.perf_counter()
play(n)
print(n / (time.perf_counter() - t0))
"""

def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("builds", nargs="+")
    a = ap.parse_args()
    builds = [b.split("=", 1) for b in a.builds]
    rates: dict[str, list[float]] = {name: [] for name, _ in builds}
    for r in range(a.rounds):
        for name, path in builds:
            env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1")
            if path:
                env["PYTHONPATH"] = path
            out = subprocess.run([sys.executable, "-c", CODE, str(a.games)], env=env,
                                 cwd="/", capture_output=True, text=True, check=True)
            rate = float(out.stdout.split()[-1])
            rates[name].append(rate)
            print(f"round {r + 1} {name}: {rate:,.0f} games/s", flush=True)
    for name, v in rates.items():
        print(f"{name}: {min(v):,.0f} - {max(v):,.0f} games/s")


if __name__ == "__main__":
    main()
