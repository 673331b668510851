"""unosim's one-core rate against the C reference: alternated pinned pairs.

Each pair runs the C engine, then unosim (the same harness as bench/wall_rate.py:
NUMBA_NUM_THREADS=1, ``play_records`` on one chunk, the compile loaded before the
clock starts), both pinned to one core with ``taskset -c CORE`` where taskset exists
(else unpinned, which the output says), official rules, 4 players, all seats
``random``, the same base seed and games. It prints each rate, the ratio unosim / C
of each pair, the median ratio, the same by each process's CPU time (which leaves out
the time it waited for its core), and the load average before and after (a busy
machine slows both alike only on average: read the spread of the ratios).

Usage: python bench/c_reference/pairs.py [--pairs 5] [--games 1000000] [--core 0]
                                         [--unosim PYTHONPATH]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from wall_rate import CODE  # noqa: E402  (bench/wall_rate.py: unosim's one-core harness)

# the same harness, with the process's CPU time besides the wall time: on a shared
# machine a process waits for its core, and its CPU time leaves the waiting out
CODE = CODE.replace("t0 = time.perf_counter()",
                    "t0 = time.perf_counter(); c0 = time.process_time()")
CODE = CODE.replace("print(n / (time.perf_counter() - t0))",
                    "print(n / (time.process_time() - c0), n / (time.perf_counter() - t0))")
assert "process_time() - c0" in CODE


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--core", type=int, default=0)
    ap.add_argument("--unosim", default="", help="PYTHONPATH of the unosim build ('' = installed)")
    a = ap.parse_args()
    subprocess.run(["make", "-s", "-C", HERE, "uno"], check=True)
    from unosim.runs.tables import base_seed

    seed = str(int(base_seed(1)))  # CODE plays seed 1 from game 0: the same games
    pin = ["taskset", "-c", str(a.core)] if shutil.which("taskset") else []
    print(f"pinned to core {a.core}" if pin else "taskset not found: NOT pinned")
    print(f"{a.games:,} games a run, load average before: {load()}", flush=True)
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1")
    if a.unosim:
        env["PYTHONPATH"] = a.unosim
    ratios, c_rates, u_rates, cpu_ratios = [], [], [], []
    for i in range(a.pairs):
        out = subprocess.run(pin + [os.path.join(HERE, "uno"), str(a.games), seed],
                             capture_output=True, text=True, check=True).stdout
        got = dict(line.split() for line in out.splitlines())
        c, c_cpu = float(got["games_per_s"]), float(got["games_per_cpu_s"])
        out = subprocess.run(pin + [sys.executable, "-c", CODE, str(a.games)], env=env,
                             cwd="/", capture_output=True, text=True, check=True).stdout
        u_cpu, u = (float(x) for x in out.split()[-2:])
        c_rates.append(c)
        u_rates.append(u)
        ratios.append(u / c)
        cpu_ratios.append(u_cpu / c_cpu)
        print(f"pair {i + 1}: C {c:,.0f} games/s, unosim {u:,.0f} games/s, "
              f"unosim/C {u / c:.3f}; by CPU time C {c_cpu:,.0f}, unosim {u_cpu:,.0f}, "
              f"unosim/C {u_cpu / c_cpu:.3f} (load {load()})", flush=True)
    print(f"C: {min(c_rates):,.0f} - {max(c_rates):,.0f} games/s, "
          f"median {statistics.median(c_rates):,.0f}")
    print(f"unosim: {min(u_rates):,.0f} - {max(u_rates):,.0f} games/s, "
          f"median {statistics.median(u_rates):,.0f}")
    print(f"unosim/C: {min(ratios):.3f} - {max(ratios):.3f}, "
          f"median {statistics.median(ratios):.3f}")
    print(f"unosim/C by CPU time: {min(cpu_ratios):.3f} - {max(cpu_ratios):.3f}, "
          f"median {statistics.median(cpu_ratios):.3f}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
