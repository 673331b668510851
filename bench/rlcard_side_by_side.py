"""RLCard's UNO and unosim's environments side by side: steps a second at 2 players,
every decision a uniformly random legal action, on one thread.

- rlcard: ``rlcard.make("uno")`` with two of its ``RandomAgent``s; every decision of
  both seats is a step (its ``env.step``, which encodes the next state);
- unosim AEC: ``aec_env(encoding="rlcard")``, both seats agents, every decision a step
  (RLCard's observation and 61 actions, RLCard's rule values);
- unosim vector: ``vector_env`` with RLCard's rule values, ``--envs`` games, a random
  learner against ``random``: a step is one decision of the learner (the opponent's
  run compiled between two of them); ``--vector-steps`` calls step every game once.

RLCard is installed from the package index into this environment if it is missing
(``pip install rlcard``; ``--no-install`` refuses instead). Before timing, the
encodings are checked against RLCard's own encoder on the AEC states: the (4, 4, 15)
planes must be equal, and the share of decisions where both games allow the same
actions is printed (they differ by rule, see docs/reinforcement-learning.md). Each
figure is the best of ``--repeat`` runs, taken in turn, as the machine may be shared.

    python bench/rlcard_side_by_side.py [--steps 100000] [--envs 4096]
        [--vector-steps 100] [--repeat 3] [--no-install]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time

import numpy as np

os.environ.setdefault("NUMBA_NUM_THREADS", "1")


def ensure_rlcard(install: bool) -> None:
    """Import rlcard, installing it into this environment first if it is missing."""
    try:
        import rlcard  # noqa: F401
    except ImportError:
        if not install:
            sys.exit("rlcard is not installed (pip install rlcard), and --no-install was given")
        print(f"installing rlcard from the package index into {sys.prefix} "
              "(pip install rlcard)", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "rlcard"], check=True)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(x.split(":", 1)[1].strip() for x in f if x.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores seen, Python {platform.python_version()}"


def rate(label: str, steps: int, games: int, seconds: float, base: float | None) -> float:
    r = steps / seconds
    ratio = f", {r / base:,.1f}x rlcard" if base else ""
    print(f"{label:<44} {r:>12,.0f} steps/s {games / seconds:>10,.0f} games/s "
          f"({steps / max(games, 1):.1f} steps a game{ratio})", flush=True)
    return r


def time_rlcard(steps: int) -> tuple[int, int, float]:
    import rlcard
    from rlcard.agents import RandomAgent

    np.random.seed(0)  # RandomAgent draws from numpy's global generator
    env = rlcard.make("uno", config={"seed": 0})
    agents = [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]
    games = 0
    t0 = time.perf_counter()
    state, pid = env.reset()
    for _ in range(steps):
        state, pid = env.step(agents[pid].step(state))
        if env.is_over():
            env.get_payoffs()
            games += 1
            state, pid = env.reset()
    return steps, games, time.perf_counter() - t0


def time_aec(steps: int) -> tuple[int, int, float]:
    from unosim.env import aec_env

    env = aec_env(encoding="rlcard", seed=1)
    rng = np.random.default_rng(0)
    env.reset()  # compiled or loaded before timing
    done = games = 0
    t0 = time.perf_counter()
    while done < steps:
        env.reset()
        games += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
    return done, games, time.perf_counter() - t0


def time_vector(rounds: int, envs: int) -> tuple[int, int, float]:
    from unosim.env import RLCARD_RULES, vector_env

    env = vector_env(rule=RLCARD_RULES, players=2, opponents="random",
                     num_envs=envs, seed=1)
    _, info = env.reset()
    env.step(np.argmax(info["action_mask"], axis=1))  # compiled or loaded before timing
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    noise = np.empty(info["action_mask"].shape, np.float32)
    games = 0
    t0 = time.perf_counter()
    for _ in range(rounds):
        rng.random(out=noise, dtype=np.float32)
        _, _, term, trunc, info = env.step(np.argmax(noise * info["action_mask"], axis=1))
        games += int(term.sum() + trunc.sum())
    return rounds * envs, games, time.perf_counter() - t0


def cross_check(rounds: int) -> tuple[int, float]:
    """Compare unosim's rlcard encoding with RLCard's encoder and legal actions at every
    decision of ``rounds`` AEC rounds: (states compared, share of equal masks)."""
    from rlcard.games.uno.card import UnoCard
    from rlcard.games.uno.player import UnoPlayer
    from rlcard.games.uno.round import UnoRound
    from rlcard.games.uno.utils import ACTION_SPACE, encode_hand, encode_target

    from unosim.env import aec_env
    from unosim.env import rlcard_encoding as R
    from unosim.simulate import layout as L
    from unosim.simulate.cards import N_RANKS, WILD

    traits = [str(i) for i in range(10)] + ["skip", "reverse", "draw_2", "wild", "wild_draw_4"]
    letters = "rgby"  # RLCard's rows

    def card(t: int, colour: int) -> UnoCard:
        if t < WILD:
            row, trait = R.ROW[t // N_RANKS], traits[t % N_RANKS]
            return UnoCard("number" if t % N_RANKS < 10 else "action", letters[row], trait)
        return UnoCard("wild", letters[R.ROW[colour]], traits[N_RANKS + t - WILD])

    env = aec_env(encoding="rlcard", seed=5)
    rng = np.random.default_rng(1)
    states = same = 0
    for _ in range(rounds):
        env.reset()
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            G = env._game.G
            seat = int(agent.rpartition("_")[2])
            hand = [card(t, 0) for t in range(WILD + 2)
                    for _ in range(int(G[L.OFF_H + seat * L.HW + t]))]
            target = card(int(G[L.S_TOP]), int(G[L.S_COLOUR]))
            planes = np.zeros((4, 4, 15), int)
            encode_hand(planes[:3], [c.str for c in hand])
            encode_target(planes[3], target.str)
            if not np.array_equal(planes, obs["observation"]):
                sys.exit(f"the encodings differ at a decision of {agent}:\n{planes}\n"
                         f"{obs['observation']}")
            rnd = UnoRound(None, 2, np.random.RandomState(0))
            rnd.target = target
            player = UnoPlayer(seat, None)
            player.hand = hand
            legal = {ACTION_SPACE[a] for a in rnd.get_legal_actions({seat: player}, seat)}
            states += 1
            same += legal == set(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return states, same / states


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100_000, help="steps of rlcard and the AEC")
    ap.add_argument("--envs", type=int, default=4096, help="games of the vector environment")
    ap.add_argument("--vector-steps", type=int, default=100,
                    help="calls of the vector environment's step")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    ap.add_argument("--check-rounds", type=int, default=200,
                    help="AEC rounds compared with RLCard's encoder")
    ap.add_argument("--no-install", action="store_true", help="never install rlcard")
    a = ap.parse_args()
    ensure_rlcard(not a.no_install)
    from importlib.metadata import version

    print(f"machine: {machine()}; rlcard {version('rlcard')}, one thread", flush=True)
    states, agree = cross_check(a.check_rounds)
    print(f"encodings equal at all {states:,} decisions compared; legal actions the same "
          f"at {agree:.1%} of them", flush=True)
    runs: dict[str, list[tuple[int, int, float]]] = {"rlcard": [], "aec": [], "vector": []}
    for _ in range(a.repeat):
        runs["rlcard"].append(time_rlcard(a.steps))
        runs["aec"].append(time_aec(a.steps))
        runs["vector"].append(time_vector(a.vector_steps, a.envs))
    best = {k: min(v, key=lambda r: r[2] / r[0]) for k, v in runs.items()}
    base = rate("rlcard.make('uno'), 2 RandomAgents", *best["rlcard"], None)
    rate("unosim aec_env(encoding='rlcard')", *best["aec"], base)
    rate(f"unosim vector_env, {a.envs:,} games (learner)", *best["vector"], base)


if __name__ == "__main__":
    main()
