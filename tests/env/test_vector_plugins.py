"""Compiled plug-in strategies as the vector environment's opponents: a plug-in copy
of ``random`` plays exactly the games the built-in plays, seat for seat and step for
step, and a plug-in that moves illegally stops the step with a one-line error naming
the game instead of playing on."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from unosim.env.vector import vector_env  # noqa: E402
from unosim.errors import UnosimError  # noqa: E402
from unosim.strategies.plugins import load_plugins  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "strategies" / "examples" / "plugins.py"
TESTS = Path(__file__).resolve().parents[1] / "plugins_for_tests.py"


@pytest.fixture(scope="module", autouse=True)
def _plugins():
    load_plugins([f"{EXAMPLES}:random_copy", f"{TESTS}:illegal"])


def _play(opponents, steps: int = 300, players: int = 3):
    """Observations, masks and rewards of ``steps`` random legal learner steps."""
    env = vector_env(players=players, opponents=opponents, num_envs=8, seed=21)
    obs, info = env.reset()
    rnd = random.Random(5)
    seen = []
    for _ in range(steps):
        acts = np.array([rnd.choice(np.flatnonzero(m).tolist()) for m in info["action_mask"]])
        obs, rew, term, trunc, info = env.step(acts)
        seen.append((obs.copy(), info["action_mask"].copy(), rew.copy(), term.copy(),
                     trunc.copy()))
    return seen, env.game_indices


@pytest.mark.compile
def test_a_plugin_copy_of_random_plays_the_builtins_games():
    ref, ref_games = _play("random")
    got, got_games = _play("random_copy")
    mixed, mixed_games = _play([None, "random_copy", "random"])
    assert ref_games.tolist() == got_games.tolist() == mixed_games.tolist()
    assert max(ref_games) >= 2  # games ended and were dealt again on the way
    for a, b, c in zip(ref, got, mixed, strict=True):
        for x, y, z in zip(a, b, c, strict=True):
            assert np.array_equal(x, y) and np.array_equal(x, z)


@pytest.mark.compile
def test_an_illegal_plugin_move_is_a_one_line_error():
    env = vector_env(players=2, opponents="illegal", num_envs=4, seed=3)
    with pytest.raises(UnosimError) as err:  # in reset's first deals or in a step
        _, info = env.reset()
        for _ in range(50):
            acts = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
            _, _, _, _, info = env.step(acts)
    assert "\n" not in str(err.value) and "illegal" in str(err.value)
