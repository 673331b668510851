"""One phase of unosim's game on its own, for cachegrind's instructions per game by
phase (phases.sh): ``deal N`` seeds and deals N games of official rules, 4 players
(the engine's own ``seed_game`` and ``deal``), in a compiled loop cached beside the
engine's kernels. Run it once outside valgrind first (phases.sh does), so that
nothing compiles under valgrind.

Usage: python bench/c_reference/phases_unosim.py deal N
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from unosim.runs.tables import Table, base_seed
from unosim.simulate import layout as L
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.rules import resolve
from unosim.simulate.step_nb import deal
from unosim.strategies.registry import parse_strategy


@njit(cache=True, nogil=True)
def deal_loop(template, base, n, G, RNG):
    """Seed and deal games 0 .. n-1; the sum of the top cards (so nothing is dropped)."""
    for k in range(L.G_SIZE):
        G[k] = template[k]
    s = 0
    for g in range(n):
        seed_game(base, g, RNG)
        deal(G, RNG)
        s += G[L.S_TOP]
    return s


def main() -> None:
    what, n = sys.argv[1], int(sys.argv[2])
    table = Table(resolve([]), [parse_strategy("random")] * 4)
    G = np.zeros(L.G_SIZE, np.int64)
    RNG = np.zeros(8, np.uint64)
    if what != "deal":
        raise SystemExit(f"unknown phase {what!r}")
    print(n, "deals", deal_loop(table.template, base_seed(1), n, G, RNG))


if __name__ == "__main__":
    main()
