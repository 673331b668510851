"""Hash the records of 20,000 games per preset (``random`` seats and a strategy mix),
200 matches per preset and small search tables: the bit-identity check for engine
speed changes. Run it before and after a change and compare the two files.

Usage: python bench/record_hashes.py OUT.json [BASELINE.json]
(with BASELINE, prints the keys that differ and exits 1 if any do).
"""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np

from unosim.runs.match import play_match_records
from unosim.runs.runner import play_records
from unosim.simulate.rules import preset_names, resolve
from unosim.strategies.registry import parse_strategy as ps

MIX = ["offensive", "defensive", "tuned", "weighted", "adaptive", "gang-up", "colour-keeper",
       "first", "attacker", "random"]


def digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def hashes(games: int = 20000, matches: int = 200, search_games: int = 40,
           rollouts: tuple[int, int, int] = (200, 50, 100), chunks: bool = True
           ) -> dict[str, str]:
    """The digests, keyed by table; bench/kernel_coverage.py plays them in small
    (fewer games and rollouts, one chunk) with the JIT on and off."""
    out = {}
    for name in preset_names():
        rules = resolve([name])
        n = rules["players"]
        for label, seats in (("random", [ps("random")] * n),
                             ("mix", [ps(MIX[(i + len(name)) % len(MIX)]) for i in range(n)])):
            out[f"{name}/{label}"] = digest(play_records(rules, seats, 7, 0, games,
                                                         chunks=16 if chunks else 1))
        out[f"{name}/match"] = digest(play_match_records(rules, [ps("random")] * n, 7, 0,
                                                         matches, chunks=8 if chunks else 1))
    # the search's parameters are spelled out (its defaults may change): the first
    # two tables play it as it was before the rollout levers, the third with them
    plain, tuned, levers = rollouts
    for p in (2, 4):
        rules = resolve([], [("players", p)])
        for key, search, others in (
                ("search", f"search:rollouts={plain},depth=0,halving=0", "random"),
                ("search-tuned",
                 f"search:policy=tuned,model=tuned,rollouts={tuned},depth=0,halving=0", "tuned"),
                ("search-levers",
                 f"search:rollouts={levers},depth=16,halving=1,model=tuned,value=cards",
                 "random")):
            seats = [ps(search)] + [ps(others)] * (p - 1)
            out[f"{key}/{p}"] = digest(play_records(rules, seats, 7, 0, search_games,
                                                    chunks=4 if chunks else 1))
    return out


def main() -> int:
    out = hashes()
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print(len(out), "hashes")
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as f:
            base = json.load(f)
        bad = sorted(k for k in set(base) | set(out) if base.get(k) != out.get(k))
        for k in bad:
            print("DIFFERS:", k, base.get(k), out.get(k))
        print("identical" if not bad else f"{len(bad)} differ")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
