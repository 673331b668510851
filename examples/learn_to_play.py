"""Learn to play UNO heads-up against `random` on the vector environment, with numpy only.

The policy is a linear softmax over the legal actions: each legal action gets a score
theta . phi(observation, action), from a few hand-made features that read the
observation only (the learner's hand, the top card's colour, the card counts), never
the hidden state. It is trained by REINFORCE with a running-mean baseline: the win
(+1) or loss (-1) of each round pushes up or down the log-probability of every choice
made in it. The learner's seat alternates (game k of each row seats it at k mod 2), so
the first player's edge counts for and against it equally.

    python examples/learn_to_play.py --minutes 10 --out learn-out
    python examples/learn_to_play.py --evaluate learn-out/policy.npz

It writes DIR/policy.npz (the weights), DIR/curve.csv and DIR/curve.png (win rate of
the greedy policy on 10,000 validation games, against the games trained on), then
prints the trained policy's win rate on 100,000 fresh games with its 95% Wilson
interval. Training, validation and the final evaluation use disjoint seeds. Ctrl-C
stops training and saves what was learned.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np

from unosim.common import wilson
from unosim.env import OBS, UnoVectorEnv, vector_env

VALIDATION_SEED = 1_000_000  # rows of the learning curve's games: seeds 1,000,000 + i
FINAL_SEED = 2_000_000  # rows of the final evaluation: seeds 2,000,000 + i

FEATURES = ("number", "skip", "reverse", "draw2", "wild", "wild4", "draw", "keep drawn",
            "challenge", "accept", "other", "keeps colour", "colour share after",
            "colour left none", "number value", "follow-ups after", "attack, rival low",
            "wild, hand small", "action card, follow-up held")
HAND = OBS["hand"]
COLOUR = OBS["colour"]
RIVAL = OBS["counts"].start + 1  # heads-up: the other seat's card count


def features(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """phi for every legal (game, action) pair: (rows, actions, phi), rows ascending.
    Actions: 0-51 coloured cards (colour * 13 + trait: 0-9, skip, reverse, draw2),
    52-75 wilds (52 + 4 * kind + colour), 76 draw, 77 keep, 79 challenge, 80 accept,
    81-84 a colour named (unosim.env.ACTION_LAYOUT)."""
    rows, acts = np.nonzero(mask.view(np.bool_))
    hand = obs[:, HAND]
    by_colour = hand[:, :52].reshape(-1, 4, 13)
    held = by_colour.sum(2)[rows]  # cards of each colour, (pairs, 4)
    traits = by_colour.sum(1)[rows]  # cards of each trait, (pairs, 13)
    size = np.maximum(hand.sum(1)[rows], 1)
    current = obs[:, COLOUR].argmax(1)[rows]
    rival = obs[:, RIVAL][rows]
    card, wild, named = acts < 52, (acts >= 52) & (acts < 76), (acts >= 81) & (acts < 85)
    trait = np.where(card, acts % 13, -1)
    kind = np.where(wild, (acts - 52) // 4, -1)
    colour = np.select([card, wild, named], [acts // 13, (acts - 52) % 4, acts - 81], -1)
    changes = colour >= 0
    after = np.where(changes, held[np.arange(len(acts)), np.maximum(colour, 0)] - card, 0)
    attack = (trait >= 10) | (kind == 1)
    follow = np.where(card, after + traits[np.arange(len(acts)), np.maximum(trait, 0)] - 1, 0)
    phi = np.stack([
        card & (trait < 10), trait == 10, trait == 11, trait == 12, kind == 0, kind == 1,
        acts == 76, acts == 77, acts == 79, acts == 80,
        ~(card | named | (kind == 0) | (kind == 1) | ((acts >= 76) & (acts <= 80))),
        card & (colour == current), after / size, changes & (after == 0),
        np.where(card & (trait < 10), trait / 9, 0), follow / size,
        attack & (rival <= 2), (kind >= 0) & (kind <= 1) & (size <= 3),
        (trait >= 10) & (after > 0)], axis=1).astype(np.float64)
    return rows, acts, phi


def act(theta: np.ndarray, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None
        ) -> tuple[np.ndarray, np.ndarray | None]:
    """One action per game, sampled from the softmax with ``rng``, and per game the
    gradient of log pi(action) in theta; or with ``rng`` None the argmax (greedy)."""
    rows, acts, phi = features(obs, mask)
    scores = phi @ theta
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])  # each game's first pair
    noisy = scores if rng is None else scores + rng.gumbel(size=len(scores))  # Gumbel-max
    hit = np.flatnonzero(noisy == np.maximum.reduceat(noisy, starts)[rows])
    chosen = hit[np.r_[True, rows[hit[1:]] != rows[hit[:-1]]]]  # first best of each game
    if rng is None:
        return acts[chosen], None
    e = np.exp(scores - np.maximum.reduceat(scores, starts)[rows])
    p = e / np.add.reduceat(e, starts)[rows]
    return acts[chosen], phi[chosen] - np.add.reduceat(p[:, None] * phi, starts, axis=0)


class Adam:
    """Adam's step for gradient ascent on a small vector."""

    def __init__(self, size: int, lr: float) -> None:
        self.m, self.v, self.t, self.lr = np.zeros(size), np.zeros(size), 0, lr

    def step(self, theta: np.ndarray, grad: np.ndarray) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m, v = self.m / (1 - 0.9 ** self.t), self.v / (1 - 0.999 ** self.t)
        theta += self.lr * m / (np.sqrt(v) + 1e-8)


class Trainer:
    """REINFORCE on ``envs`` games played side by side, the learner's seat rotating."""

    def __init__(self, envs: int, seed: int, lr: float = 0.05, steps_per_update: int = 16
                 ) -> None:
        self.env = vector_env(players=2, opponents="random", num_envs=envs,
                              learner_seat="rotate", seed=seed)
        self.obs, info = self.env.reset()
        self.mask = info["action_mask"]
        self.rng = np.random.default_rng(seed)
        self.theta = np.zeros(len(FEATURES))
        self.adam = Adam(len(FEATURES), lr)
        self.trace = np.zeros((envs, len(FEATURES)))  # sum of grad log pi this round
        self.baseline = 0.0
        self.steps_per_update = steps_per_update
        self.games = self.decisions = self.updates = 0

    def update(self) -> None:
        """Play ``steps_per_update`` decisions in every game, then take one step up the
        policy gradient estimated from the rounds that ended."""
        grad, ended = np.zeros_like(self.theta), 0
        for _ in range(self.steps_per_update):
            actions, g = act(self.theta, self.obs, self.mask, self.rng)
            self.trace += g
            self.obs, reward, term, trunc, info = self.env.step(actions)
            self.mask = info["action_mask"]
            done = np.flatnonzero(term | trunc)
            if len(done):
                r = reward[done].astype(np.float64)
                grad += (r - self.baseline) @ self.trace[done]
                self.baseline += 0.01 * (r.mean() - self.baseline)
                self.trace[done] = 0
                ended += len(done)
            self.decisions += len(actions)
        self.games += ended
        if ended:
            self.adam.step(self.theta, grad / ended)
        self.updates += 1


_EVAL_ENVS: dict[int, UnoVectorEnv] = {}  # built once: an environment's arrays are large


def split(games: int) -> tuple[int, int]:
    """``games`` as (rows, games per row): at most 1000 rows, each an even number of
    games, so that each seat is played equally often."""
    rows = max(1, min(1000, games // 2))
    per_row = games // rows
    if games < 2 or per_row % 2 or per_row * rows != games:
        raise ValueError(f"{games} games do not split into {rows} rows of an even number "
                         f"each (use a multiple of 2000, or an even number up to 2000)")
    return rows, per_row


def evaluate(theta: np.ndarray, games: int, seed: int) -> dict[str, int]:
    """The greedy policy's wins over ``games`` games against `random`, played as
    ``split(games)`` rows seeded ``seed + i``; games a row plays past its share are
    not counted."""
    rows, per_row = split(games)
    if rows not in _EVAL_ENVS:
        _EVAL_ENVS[rows] = vector_env(players=2, opponents="random", num_envs=rows,
                                      learner_seat="rotate")
    env = _EVAL_ENVS[rows]
    obs, info = env.reset(seed=seed)
    played = np.zeros(rows, np.int64)
    wins = np.zeros(2, np.int64)
    capped = 0
    while (played < per_row).any():
        seats = env.learner_seats
        actions, _ = act(theta, obs, info["action_mask"], None)
        obs, reward, term, trunc, info = env.step(actions)
        done = np.flatnonzero((term | trunc) & (played < per_row))
        played[done] += 1
        np.add.at(wins, seats[done], reward[done] > 0)
        capped += int(trunc[done].sum())
    return {"games": games, "wins": int(wins.sum()), "wins_seat0": int(wins[0]),
            "wins_seat1": int(wins[1]), "capped": capped}


def save(out: Path, trainer: Trainer, curve: list[dict[str, float]]) -> None:
    """The weights (policy.npz), the learning curve (curve.csv) and its chart (curve.png)."""
    np.savez(out / "policy.npz", theta=trainer.theta, features=np.array(FEATURES),
             updates=trainer.updates, games=trainer.games)
    if not curve:
        return
    with open(out / "curve.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(curve[0]))
        w.writeheader()
        w.writerows(curve)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    x = np.array([c["games"] for c in curve]) / 1e6
    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    ax.fill_between(x, [100 * c["low"] for c in curve], [100 * c["high"] for c in curve],
                    alpha=0.25, label="95% Wilson interval")
    ax.plot(x, [100 * c["win_rate"] for c in curve], marker="o", ms=3, label="greedy policy")
    ax.axhline(50, color="grey", ls="--", lw=1, label="random's fair share (50%)")
    ax.axhline(55, color="grey", ls=":", lw=1, label="target (55%)")
    ax.set_xlabel("games trained on (millions)")
    ax.set_ylabel("win rate against random (%)")
    ax.set_title(f"REINFORCE, linear softmax, heads-up, seats alternating "
                 f"({curve[-1]['seconds'] / 60:.1f} min)", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(out / "curve.png")
    plt.close(fig)


def report(name: str, r: dict[str, int], seconds: float) -> str:
    """One line: win rate with its 95% Wilson interval, by seat, and the time taken."""
    lo, hi = wilson(r["wins"], r["games"])
    half = r["games"] // 2
    return (f"{name}: {100 * r['wins'] / r['games']:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}] "
            f"of {r['games']:,} games against random (first seat "
            f"{100 * r['wins_seat0'] / half:.2f}%, second {100 * r['wins_seat1'] / half:.2f}%"
            f"; {r['capped']} capped), {seconds:.1f} s")


def train(a: argparse.Namespace, out: Path) -> int:
    """Train until the time or the number of updates is up (or Ctrl-C), save, evaluate."""
    t = time.perf_counter()
    trainer = Trainer(a.envs, a.seed)
    print(f"environment ready in {time.perf_counter() - t:.1f} s (compiled on a first run)",
          flush=True)
    start = time.perf_counter()
    curve: list[dict[str, float]] = []
    train_s = 0.0
    stopped = False
    try:
        while True:
            if trainer.updates % a.eval_every == 0:
                r = evaluate(trainer.theta, a.eval_games, VALIDATION_SEED)
                lo, hi = wilson(r["wins"], r["games"])
                curve.append({"updates": trainer.updates, "games": trainer.games,
                              "decisions": trainer.decisions,
                              "seconds": round(time.perf_counter() - start, 2),
                              "train_seconds": round(train_s, 2),
                              "win_rate": r["wins"] / r["games"], "low": lo, "high": hi})
                print(f"update {trainer.updates:5d}  games {trainer.games:9,d}  "
                      f"{curve[-1]['seconds']:6.0f} s  validation win rate "
                      f"{100 * r['wins'] / r['games']:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]",
                      flush=True)
            if ((a.iterations is not None and trainer.updates >= a.iterations)
                    or time.perf_counter() - start >= 60 * a.minutes):
                break
            t = time.perf_counter()
            trainer.update()
            train_s += time.perf_counter() - t
    except KeyboardInterrupt:
        stopped = True
    save(out, trainer, curve)
    took = time.perf_counter() - start
    print(f"trained {trainer.updates} updates, {trainer.games:,} games, "
          f"{trainer.decisions:,} decisions in {took:.1f} s ({train_s:.1f} s learning, "
          f"the rest validation); saved {out / 'policy.npz'}, {out / 'curve.csv'}, "
          f"{out / 'curve.png'}", flush=True)
    if stopped:
        print(f"stopped by Ctrl-C: what was learned is saved; evaluate it with "
              f"--evaluate {out / 'policy.npz'}")
        return 130
    t = time.perf_counter()
    try:
        r = evaluate(trainer.theta, a.final_games, FINAL_SEED)
    except KeyboardInterrupt:
        print(f"stopped by Ctrl-C in the final evaluation; the policy is saved: evaluate it "
              f"with --evaluate {out / 'policy.npz'}")
        return 130
    print(report("trained policy", r, time.perf_counter() - t))
    return 0


class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on stderr and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"learn_to_play.py: {message}\n")
        sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=10.0,
                   help="training time, curve points included (default 10)")
    p.add_argument("--iterations", type=int, help="stop after this many updates")
    p.add_argument("--out", type=Path, default=Path("learn-out"), help="output directory")
    p.add_argument("--envs", type=int, default=1024, help="games played side by side")
    p.add_argument("--seed", type=int, default=1, help="training games: rows seed + i")
    p.add_argument("--eval-every", type=int, default=50, help="updates between curve points")
    p.add_argument("--eval-games", type=int, default=10_000, help="games per curve point")
    p.add_argument("--final-games", type=int, default=100_000, help="games of the final test")
    p.add_argument("--evaluate", type=Path, metavar="POLICY.npz",
                   help="only evaluate a saved policy on the final games")
    a = p.parse_args(argv)
    if a.minutes <= 0 or a.envs < 1 or a.eval_every < 1 or (a.iterations or 0) < 0:
        p.error("--minutes, --envs and --eval-every must be positive, --iterations not negative")
    if not (0 <= a.seed and a.seed + a.envs <= VALIDATION_SEED):
        p.error(f"--seed must be 0 to {VALIDATION_SEED - a.envs}: the seeds above are the "
                f"validation and final games'")
    for name in ("eval_games", "final_games"):
        try:
            split(getattr(a, name))
        except ValueError as e:
            p.error(f"--{name.replace('_', '-')}: {e}")
    if a.evaluate is not None:
        try:
            theta = np.load(a.evaluate)["theta"]
        except (OSError, KeyError, ValueError) as e:
            p.error(f"cannot read a policy from {a.evaluate}: {e}")
        t = time.perf_counter()
        print(report(str(a.evaluate), evaluate(theta, a.final_games, FINAL_SEED),
                     time.perf_counter() - t))
        return 0
    try:
        a.out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        p.error(f"cannot write to {a.out}: {e}")
    return train(a, a.out)


if __name__ == "__main__":
    sys.exit(main())
