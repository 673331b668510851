"""``unosim bench``: throughput on one and on all cores, and JIT start-up times.

Timings are measured here, never asserted in tests (they depend on the machine).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

_FIRST_GAME = (
    "import time; t = time.perf_counter(); "
    "from unosim.simulate.runner import warm_up; warm_up(); "
    "print(time.perf_counter() - t)"
)


def _subprocess_seconds(env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds from process start to first game, seconds inside Python)."""
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _FIRST_GAME], env=env, check=True,
                         capture_output=True, text=True).stdout
    return time.perf_counter() - t0, float(out.strip().splitlines()[-1])


def run_bench(games: int, measure_cold: bool = True) -> dict[str, Any]:
    from unosim.simulate.rules import resolve
    from unosim.simulate.runner import max_workers, run, warm_up
    from unosim.strategies.registry import parse_strategy

    report: dict[str, Any] = {"setup": "official rules, 4 players, random strategy", "games": games}
    env = dict(os.environ)
    if measure_cold:
        with tempfile.TemporaryDirectory() as tmp:
            env_cold = dict(env, NUMBA_CACHE_DIR=tmp)
            report["compile_cold_s"] = _subprocess_seconds(env_cold)[1]
    warm_up()  # make sure the cache is filled before timing a warm start
    wall, inner = _subprocess_seconds(env)
    report["compile_warm_s"] = inner
    report["start_to_first_game_s"] = wall
    rules = resolve()
    seats = [parse_strategy("random")] * 4
    one = run(rules, seats, games, seed=1, workers=1)
    report["games_per_sec_1_core"] = one.agg.games / one.elapsed_s
    n = max_workers()
    alln = run(rules, seats, games, seed=1, workers=n)
    report["cores"] = n
    report["games_per_sec_all_cores"] = alln.agg.games / alln.elapsed_s
    report["speedup"] = report["games_per_sec_all_cores"] / report["games_per_sec_1_core"]
    report["identical_results"] = one.agg.same_as(alln.agg)
    return report


def render_bench(r: dict[str, Any], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(r, indent=2)
    lines = [f"unosim bench: {r['setup']}, {r['games']:,} games per measurement"]
    lines.append(f"  1 core            {r['games_per_sec_1_core']:>12,.0f} games/s")
    lines.append(
        f"  {r['cores']} cores{'':<10}{r['games_per_sec_all_cores']:>12,.0f} games/s"
        f"   (x{r['speedup']:.2f}, results identical: {r['identical_results']})"
    )
    if "compile_cold_s" in r:
        lines.append(f"  JIT compile, cold cache   {r['compile_cold_s']:6.2f} s")
    lines.append(f"  JIT load, warm cache      {r['compile_warm_s']:6.2f} s")
    lines.append(f"  command start to first game {r['start_to_first_game_s']:4.2f} s")
    return "\n".join(lines)
