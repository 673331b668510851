"""Play N games (official rules, 4 players, all seats ``random``) on one chunk: the
workload that instructions.sh counts under cachegrind. Usage: play_games.py N [SEED]

With BENCH_FEEL_OFF=1 the table's game-feel sampling is switched off (R_FEEL_OFF in
the template), which measures what the feel metrics cost without a rebuild.
"""

from __future__ import annotations

import os
import sys

import numpy as np

from unosim.runs.runner import play_batch_into, record_width
from unosim.runs.tables import Table
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy

n = int(sys.argv[1])
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
table = Table(resolve([]), [parse_strategy("random")] * 4)
if os.environ.get("BENCH_FEEL_OFF") == "1":
    table.template[L.R_FEEL_OFF] = 1
rec = np.zeros((n, record_width("round")), np.int32)
play_batch_into(table, "round", seed, 0, rec, 1)
print(n, "games", int(rec[:, L.G_TURNS].sum()), "turns")
