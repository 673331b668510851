"""Play N games (official rules, 4 players, all seats ``random``) on one chunk: the
workload that instructions.sh counts under cachegrind. Usage: play_games.py N [SEED]"""

from __future__ import annotations

import sys

from unosim.simulate.rules import resolve
from unosim.simulate.runner import play_records
from unosim.strategies.registry import parse_strategy

n = int(sys.argv[1])
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
rec = play_records(resolve([]), [parse_strategy("random")] * 4, seed, 0, n, chunks=1)
print(n, "games", int(rec[:, 0].sum()), "turns")
