"""Learner steps a second of the vector environment (unosim.env.vector_env): N games
at P players against one strategy, the learner taking a legal action chosen by numpy
(its first legal one, or a random one), on one thread: the kernel steps the games
one after another, so this is one core's figure. On a machine shared with other work
the CPU time of env.step (process time) is the steadier figure; both are given.

    python -m unosim.env.speed [--envs 4096] [--players 2] [--opponents random]
                               [--steps 200] [--policy first|random] [--json]

``unosim bench`` runs it as a program (nothing in the simulator imports an
environment, whose extra may be missing) and reports its figures.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from unosim.env import vector_env


def learner_steps(envs: int = 4096, players: int = 2, opponents: str = "random",
                  variant: str = "official", steps: int = 200,
                  policy: str = "random") -> dict[str, Any]:
    """Time ``steps`` steps of ``envs`` games after one untimed step (the compile or
    the cache load): learner steps a second with the policy, of ``env.step`` alone by
    wall clock and by its CPU time, and the games ended."""
    env = vector_env(variant, players=players, opponents=opponents, num_envs=envs, seed=1)
    _, info = env.reset()
    env.step(np.argmax(info["action_mask"], axis=1))  # compiled or loaded before timing
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    noise = rng.random((envs, info["action_mask"].shape[1]), np.float32)
    policy_s = 0.0
    step_cpu = 0.0
    ends = 0
    t0 = time.perf_counter()
    for _ in range(steps):
        p0 = time.perf_counter()
        mask = info["action_mask"]
        if policy == "random":
            rng.random(out=noise, dtype=np.float32)
            actions = np.argmax(noise * mask, axis=1)
        else:
            actions = np.argmax(mask, axis=1)
        policy_s += time.perf_counter() - p0
        c0 = time.process_time()
        _, _, term, trunc, info = env.step(actions)
        step_cpu += time.process_time() - c0
        ends += int(term.sum() + trunc.sum())
    wall = time.perf_counter() - t0
    n = steps * envs
    return {"envs": envs, "players": players, "opponents": opponents, "variant": variant,
            "policy": policy, "steps": n, "games_ended": ends,
            "steps_per_sec_with_policy": n / wall,
            "steps_per_sec": n / (wall - policy_s), "steps_per_sec_cpu": n / step_cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--variant", default="official")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--policy", choices=("first", "random"), default="random")
    ap.add_argument("--json", action="store_true", help="one JSON object")
    a = ap.parse_args()
    r = learner_steps(a.envs, a.players, a.opponents, a.variant, a.steps, a.policy)
    if a.json:
        print(json.dumps(r))
        return
    print(f"{a.envs} games, {a.players} players against {a.opponents}, {a.policy} learner: "
          f"{r['steps_per_sec_with_policy']:,.0f} learner steps/s with the policy, "
          f"{r['steps_per_sec']:,.0f} steps/s in env.step alone "
          f"({r['steps_per_sec_cpu']:,.0f} by its CPU time) "
          f"({r['games_ended']:,} games ended, {r['steps'] / max(r['games_ended'], 1):.1f} "
          "steps a game)")


if __name__ == "__main__":
    main()
