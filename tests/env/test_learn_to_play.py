"""The learning example (examples/learn_to_play.py): its policy's choices and gradient
equal a plain per-game softmax, a tiny training run is reproducible, its evaluation
counts exactly the games AEC environments seeded alike play, and Ctrl-C and bad
arguments end as promised."""

from __future__ import annotations

import argparse
import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from unosim.env import aec_env, vector_env  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]

_PATH = Path(__file__).resolve().parents[2] / "examples" / "learn_to_play.py"
_SPEC = importlib.util.spec_from_file_location("learn_to_play", _PATH)
lp = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(lp)

THETA = np.linspace(-2.0, 2.0, len(lp.FEATURES))  # every feature weighs something


def states(n: int = 64, steps: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of ``n`` games a few decisions in (both seats)."""
    env = vector_env(players=2, num_envs=n, learner_seat="rotate", seed=11)
    obs, info = env.reset()
    for _ in range(steps):
        obs, _, _, _, info = env.step(np.argmax(info["action_mask"], axis=1))
    return obs, info["action_mask"]


def log_pi(theta: np.ndarray, obs: np.ndarray, mask: np.ndarray, action: int) -> float:
    """log pi(action) of one game, action by action: the plain reference."""
    legal = np.flatnonzero(mask)
    _, acts, phi = lp.features(obs[None], mask[None])
    assert acts.tolist() == legal.tolist()
    scores = [float(phi[k] @ theta) for k in range(len(legal))]
    top = max(scores)
    norm = top + math.log(sum(math.exp(s - top) for s in scores))
    return scores[legal.tolist().index(action)] - norm


@pytest.mark.slow
def test_greedy_plays_each_games_highest_scoring_legal_action():
    obs, mask = states()
    actions, grad = lp.act(THETA, obs, mask, None)
    assert grad is None
    for i in range(len(obs)):
        legal = np.flatnonzero(mask[i])
        best = max(legal, key=lambda a: log_pi(THETA, obs[i], mask[i], a))
        assert actions[i] == best, i


def test_sampled_actions_are_legal_and_the_gradient_is_log_pis():
    obs, mask = states()
    actions, grad = lp.act(THETA, obs, mask, np.random.default_rng(5))
    assert mask[np.arange(len(obs)), actions].all()
    eps = 1e-6
    for i in range(0, len(obs), 7):
        numeric = [(log_pi(THETA + eps * e, obs[i], mask[i], actions[i])
                    - log_pi(THETA - eps * e, obs[i], mask[i], actions[i])) / (2 * eps)
                   for e in np.eye(len(THETA))]
        np.testing.assert_allclose(grad[i], numeric, atol=1e-6)


@pytest.mark.slow
def test_sampling_follows_the_softmax():
    """One game's sampled actions, drawn many times, match pi within their noise: 4,000
    draws, each legal action's share within 5 standard errors (plus 0.001) of pi, a
    false alarm below 6e-7 an action. It detects a probability off by 5.84 se + 0.001
    with 80% power: 2.9 points at pi = 0.1, 3.8 at 0.2, 4.7 at 0.5."""
    obs, mask = states()
    i = int(np.argmax(mask.sum(1)))  # the game with the most legal actions
    legal = np.flatnonzero(mask[i])
    assert len(legal) >= 3
    rng = np.random.default_rng(2)
    draws = np.array([lp.act(THETA * 0.3, obs[i:i + 1], mask[i:i + 1], rng)[0][0]
                      for _ in range(4000)])
    for a in legal:
        p = math.exp(log_pi(THETA * 0.3, obs[i], mask[i], a))
        assert abs((draws == a).mean() - p) < 5 * math.sqrt(p * (1 - p) / 4000) + 1e-3


def test_a_tiny_training_is_reproducible_and_moves_the_weights():
    def run() -> object:
        t = lp.Trainer(envs=32, seed=3, steps_per_update=20)
        for _ in range(4):
            t.update()
        return t

    a, b = run(), run()
    assert a.games > 0 and a.decisions == 4 * 20 * 32
    assert np.array_equal(a.theta, b.theta) and a.games == b.games
    assert np.abs(a.theta).max() > 0


def aec_wins(theta: np.ndarray, seed: int, rows: int, per_row: int) -> list[int]:
    """Wins by seat of the greedy policy, game by game in AEC environments: row i
    deals games 0 .. per_row-1 of seed + i, the learner in seat k mod 2 in game k."""
    wins = [0, 0]
    for i in range(rows):
        for k in range(per_row):
            seat = k % 2
            env = aec_env(players=2, opponents={1 - seat: "random"}, seed=seed + i)
            env.reset()
            for _ in range(k):  # each reset() deals the next game of the seed
                env.reset()
            for _agent in env.agent_iter():  # the learner is the only agent
                o, reward, term, trunc, _ = env.last()
                if term or trunc:
                    wins[seat] += reward > 0
                    env.step(None)
                else:
                    a, _ = lp.act(theta, o["observation"][None], o["action_mask"][None], None)
                    env.step(int(a[0]))
    return wins


def test_evaluation_counts_the_games_aec_environments_play():
    theta = THETA  # any fixed policy will do
    rows, per_row = lp.split(12)
    assert (rows, per_row) == (6, 2)
    r = lp.evaluate(theta, 12, seed=40)
    assert r["games"] == 12 and r["capped"] == 0
    assert [r["wins_seat0"], r["wins_seat1"]] == aec_wins(theta, 40, rows, per_row)
    assert r["wins"] == r["wins_seat0"] + r["wins_seat1"]


def test_split_keeps_the_seats_even():
    assert lp.split(100_000) == (1000, 100)
    assert lp.split(10) == (5, 2)
    for bad in (0, 1, 3000, 2002):
        with pytest.raises(ValueError):
            lp.split(bad)


def test_ctrl_c_saves_what_was_learned(tmp_path, monkeypatch, capsys):
    update = lp.Trainer.update
    calls = []

    def interrupted(self):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        update(self)

    monkeypatch.setattr(lp.Trainer, "update", interrupted)
    a = argparse.Namespace(envs=16, seed=1, minutes=5.0, iterations=None, eval_every=1,
                           eval_games=20, final_games=20)
    assert lp.train(a, tmp_path) == 130
    saved = np.load(tmp_path / "policy.npz")
    assert int(saved["updates"]) == 2 and np.abs(saved["theta"]).max() > 0
    assert (tmp_path / "curve.png").stat().st_size > 0
    lines = (tmp_path / "curve.csv").read_text().splitlines()
    assert len(lines) == 1 + 3  # header, and the curve points at updates 0, 1 and 2
    assert "stopped by Ctrl-C" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--minutes", "0"], ["--final-games", "3000"],
                                  ["--envs", "x"], ["--seed", "999999"],
                                  ["--evaluate", "/nonexistent/policy.npz"]])
def test_bad_arguments_are_one_line_and_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as e:
        lp.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("learn_to_play.py: ")
