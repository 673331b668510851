"""Does the C reference play unosim's game? Two checks, both against the engine
installed on this machine (official rules, 4 players, all seats ``random``):

* statistical: ``unosim --games N --seed S --format json`` beside the C engine's N
  games of the same base seed; the C engine's mean turns per game must lie within
  unosim's 95% interval, and the seat-0 win shares must agree (the difference within
  its 95% interval, two independent binomials: conservative, since the two play the
  very same deals);
* exact (``--exact K``): the first K records of the C engine, bit for bit against
  ``play_records`` of the same seed (every one of the 56 columns: turns, cards, the
  scoring, every game-feel metric).

Exit code 1 when a check fails.

Usage: python bench/c_reference/check.py [--games 1e6] [--seed 1] [--exact 20000]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def build() -> str:
    """``make`` the C engine (host build) and return its path."""
    subprocess.run(["make", "-s", "-C", HERE, "uno"], check=True)
    return os.path.join(HERE, "uno")


def base_seed(seed: int) -> int:
    from unosim.runs.tables import base_seed as bs

    return int(bs(seed))


def run_c(exe: str, games: int, seed: int, records: str | None = None) -> dict[str, float]:
    cmd = [exe, str(games), str(base_seed(seed)), "0"] + ([records] if records else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return {k: float(v) for k, v in (line.split() for line in out.splitlines())}


def run_unosim(games: int, seed: int) -> dict:
    out = subprocess.run(["unosim", "--games", str(games), "--seed", str(seed),
                          "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def exact(exe: str, k: int, seed: int) -> bool:
    from unosim.runs.runner import play_records
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "c.bin")
        run_c(exe, k, seed, path)
        c = np.fromfile(path, np.int32)
    u = np.asarray(play_records(resolve([]), [parse_strategy("random")] * 4, seed, 0, k,
                                chunks=1))
    c = c.reshape(u.shape)
    bad = (c != u).any(axis=1)
    print(f"exact: {k:,} records of 56 columns, {int(bad.sum())} differ"
          + (f" (first: game {int(np.argmax(bad))})" if bad.any() else ""))
    return not bad.any()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=float, default=1e6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--exact", type=int, default=20000, help="records to compare (0: none)")
    a = ap.parse_args()
    n = int(a.games)
    exe = build()
    ok = True
    if a.exact:
        ok &= exact(exe, a.exact, a.seed)
    c = run_c(exe, n, a.seed)
    u = run_unosim(n, a.seed)
    lo = u["turns_mean"] - 1.96 * u["turns_se"]
    hi = u["turns_mean"] + 1.96 * u["turns_se"]
    inside = lo <= c["turns_mean"] <= hi
    print(f"turns per game: unosim {u['turns_mean']:.4f} (95% {lo:.4f} - {hi:.4f}), "
          f"C {c['turns_mean']:.4f}: {'inside' if inside else 'OUTSIDE'}")
    pu, pc = u["seat_win_rate"][0], c["win_share_0"]
    se = math.sqrt(pu * (1 - pu) / n + pc * (1 - pc) / n)
    agree = abs(pu - pc) <= 1.96 * se
    print(f"seat 0 win share: unosim {pu:.5f}, C {pc:.5f}, difference {pc - pu:+.5f} "
          f"(95% +-{1.96 * se:.5f}): {'agree' if agree else 'DIFFER'}")
    print("win shares, seats 0-3: unosim " + " ".join(f"{x:.5f}" for x in u["seat_win_rate"])
          + ", C " + " ".join(f"{c[f'win_share_{q}']:.5f}" for q in range(4)))
    print(f"capped: unosim {u['capped']}, C {int(c['capped'])}")
    print(f"games/s (not pinned, threads as unosim chooses): unosim {u['games_per_sec']:,.0f}"
          f" ({u['workers']} workers), C {c['games_per_s']:,.0f} (one thread)")
    ok &= inside and agree
    print("check: " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
