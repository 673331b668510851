"""Learner steps a second of the vector environment (unosim.env.vector_env): N games
at P players against one strategy, the learner taking a legal action chosen by numpy
(its first legal one, or a random one), on one thread: the kernel steps the games
one after another, so this is one core's figure. On a machine shared with other work
the CPU time of env.step (process time) is the steadier figure; both are printed.

    python bench/vector_env.py [--envs 4096] [--players 2] [--opponents random]
                               [--steps 200] [--policy first|random]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from unosim.env import vector_env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--variant", default="official")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--policy", choices=("first", "random"), default="random")
    a = ap.parse_args()
    env = vector_env(a.variant, players=a.players, opponents=a.opponents, num_envs=a.envs,
                     seed=1)
    _, info = env.reset()
    env.step(np.argmax(info["action_mask"], axis=1))  # compiled or loaded before timing
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    noise = rng.random((a.envs, info["action_mask"].shape[1]), np.float32)
    policy_s = 0.0
    step_cpu = 0.0
    ends = 0
    t0 = time.perf_counter()
    for _ in range(a.steps):
        p0 = time.perf_counter()
        mask = info["action_mask"]
        if a.policy == "random":
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
    steps = a.steps * a.envs
    print(f"{a.envs} games, {a.players} players against {a.opponents}, {a.policy} learner: "
          f"{steps / wall:,.0f} learner steps/s with the policy, "
          f"{steps / (wall - policy_s):,.0f} steps/s in env.step alone "
          f"({steps / step_cpu:,.0f} by its CPU time) "
          f"({ends:,} games ended, {steps / max(ends, 1):.1f} steps a game)")


if __name__ == "__main__":
    main()
