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
from unosim.runs.runner import play_records
from unosim.strategies.registry import parse_strategy
seats = [parse_strategy('random')] * 4
play_records(resolve([]), seats, 1, 0, 10, chunks=1)  # compile or load
n = int(sys.argv[1])
t0 = time.perf_counter()
play_records(resolve([]), seats, 1, 0, n, chunks=1)
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
