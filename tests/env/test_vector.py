"""The vector environment (env/vector.py): step by step the same games,
observations, masks and rewards as AEC environments seeded alike, across
autoresets; its kernel encoder and mask equal the shared Python layouts on every
state reached; refusals apply nothing; reproducible seeds; the no-peeking twin
proof for its observation."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from reference_env import encode, fill_mask, to_move  # noqa: E402

from unosim.env import IllegalAction, aec_env  # noqa: E402
from unosim.env import actions as A  # noqa: E402
from unosim.env import encode_nb as E  # noqa: E402
from unosim.env.observation import OBS, OBS_SIZE  # noqa: E402
from unosim.env.vector import vector_env  # noqa: E402
from unosim.errors import UnosimError  # noqa: E402
from unosim.simulate import layout as L  # noqa: E402
from unosim.simulate.step_nb import legal_moves  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]


def pick(masks: np.ndarray, rnd: random.Random) -> np.ndarray:
    """One uniformly random legal action per game."""
    return np.array([rnd.choice(np.flatnonzero(m).tolist()) for m in masks], np.int64)


@pytest.mark.parametrize("reward", ["win", "points"])
def test_each_game_is_the_aec_game_of_its_seed_across_autoresets(reward):
    seeds = [5, 17, 40]
    venv = vector_env(players=2, opponents="random", num_envs=3, reward=reward, seed=seeds)
    obs, info = venv.reset()
    aecs = [aec_env(players=2, opponents={1: "random"}, reward=reward, seed=s) for s in seeds]
    for e in aecs:
        e.reset()
    rnd = random.Random(3)
    ends = 0
    for _ in range(400):
        for i, e in enumerate(aecs):
            o = e.observe("player_0")
            assert np.array_equal(obs[i], o["observation"]), i
            assert np.array_equal(info["action_mask"][i], o["action_mask"]), i
        acts = pick(info["action_mask"], rnd)
        obs, rew, term, trunc, info = venv.step(acts)
        for i, e in enumerate(aecs):
            e.step(int(acts[i]))
            if e.agent_selection != "player_0" or e.terminations["player_0"] \
                    or e.truncations["player_0"]:
                last, r, te, tr, _ = e.last()
                assert info["_final_obs"][i] and (te, tr) == (term[i], trunc[i])
                assert np.array_equal(info["final_obs"][i], last["observation"])
                assert rew[i] == r
                e.reset()  # the AEC env deals the next game of its seed, as the row does
                ends += 1
            else:
                assert rew[i] == 0 and not term[i] and not trunc[i]
                assert "_final_obs" not in info or not info["_final_obs"][i]
    assert ends >= 6
    assert venv.game_indices.tolist() == [e._index for e in aecs]


@pytest.mark.parametrize("variant,players", [("seven-o", 4), ("jump-in", 3),
                                             ("swap-on-five", 4), ("stacking", 5)])
def test_kernel_observation_and_mask_equal_the_shared_layouts(variant, players):
    """On every state the learner meets (rotating seats, several rule sets), the
    kernel's vectors are the Python encoder's and actions.fill_mask's."""
    env = vector_env(variant, players=players, opponents="offensive", num_envs=4,
                     learner_seat="rotate", seed=9)
    obs, info = env.reset()
    rnd = random.Random(1)
    phases = set()
    for _ in range(150):
        for i in range(env.num_envs):
            G = env._G[i]
            seat = int(env.learner_seats[i])
            assert int(G[L.S_ACTOR]) == seat
            assert np.array_equal(obs[i], encode(G, seat))
            G2 = G.copy()
            n = int(legal_moves(G2))
            want = fill_mask(np.zeros(A.N_ACTIONS, np.int8), G2[L.OFF_MOVES:L.OFF_MOVES + n],
                        seat, players)
            assert np.array_equal(info["action_mask"][i], want)
            phases.add(int(G[L.S_PHASE]))
        obs, _, _, _, info = env.step(pick(info["action_mask"], rnd))
    assert len(phases) >= 3
    assert len(set(env.learner_seats.tolist())) > 1 or players == 2


def test_kernel_action_mapping_is_the_shared_one():
    from numba import njit

    @njit
    def both(a, actor, players):
        return E.to_move(a, actor, players), E.to_action(E.to_move(a, actor, players), actor,
                                                         players)

    for players in (2, 5, 10):
        for actor in (0, players - 1):
            for a in range(A.N_ACTIONS):
                if A.TARGET + players <= a < A.GIVE:
                    continue  # no such seat
                m, back = both(a, actor, players)
                assert m == to_move(a, actor, players) and back == a


def test_an_illegal_action_is_refused_and_nothing_is_applied():
    env = vector_env(num_envs=4, seed=2)
    _, info = env.reset()
    acts = pick(info["action_mask"], random.Random(0))
    acts[2] = int(np.flatnonzero(info["action_mask"][2] == 0)[0])
    G, R, games = env._G.copy(), env._RNG.copy(), env.game_indices
    with pytest.raises(IllegalAction, match="game 2"):
        env.step(acts)
    assert np.array_equal(G, env._G) and np.array_equal(R, env._RNG)
    assert np.array_equal(games, env.game_indices)
    with pytest.raises(IllegalAction):
        env.step(np.zeros(3, np.int64))
    acts[2] = A.N_ACTIONS
    with pytest.raises(IllegalAction):
        env.step(acts)


def test_reset_with_a_seed_is_reproducible_and_seeds_each_game():
    def run(env, seed):
        obs, info = env.reset(seed=seed)
        rnd, out = random.Random(4), [obs]
        for _ in range(60):
            obs, r, _, _, info = env.step(pick(info["action_mask"], rnd))
            out += [obs, r]
        return out

    a, b = vector_env(num_envs=5), vector_env(num_envs=5)
    first = run(a, 12)
    assert all(np.array_equal(x, y) for x, y in zip(first, run(b, 12), strict=True))
    assert all(np.array_equal(x, y) for x, y in zip(first, run(a, 12), strict=True))
    assert all(np.array_equal(x, y)
               for x, y in zip(first, run(b, [12, 13, 14, 15, 16]), strict=True))
    assert all(np.array_equal(x, y)  # a 0-d array is one seed
               for x, y in zip(first, run(b, np.array(12)), strict=True))
    assert not np.array_equal(first[0], run(b, 13)[0])
    assert a.metadata["autoreset_mode"].value == "SameStep"
    with pytest.raises(UnosimError, match="5 seeds"):
        a.reset(seed=[1, 2])


def test_rewards_sum_to_the_games_won_and_lost():
    """+1 for each game the learner went out in (its final hand empty), -1 for each
    other ended game, 0 for every step that ends none."""
    env = vector_env(num_envs=64, seed=8)
    _, info = env.reset()
    rnd = random.Random(5)
    total = ends = capped = wins = 0
    for _ in range(200):
        _, r, term, trunc, info = env.step(pick(info["action_mask"], rnd))
        assert set(np.unique(r[term]).tolist()) <= {-1.0, 1.0}
        assert not r[~term].any()
        total += float(r.sum())
        ends += int(term.sum())
        capped += int(trunc.sum())
        if term.any():
            wins += int((info["final_obs"][term, OBS["counts"].start] == 0).sum())
    assert ends + capped == int(env.game_indices.sum())  # every end dealt the next index
    assert ends > 100 and 0 < wins < ends
    assert total == 2 * wins - ends


def test_bad_arguments_are_one_line_errors():
    for kwargs, text in [({"players": 11}, "players"), ({"learner_seat": 2}, "learner_seat"),
                         ({"opponents": ["random"]}, "one strategy per seat"),
                         ({"reward": "money"}, "reward"), ({"num_envs": 0}, "num_envs")]:
        with pytest.raises(UnosimError, match=text):
            vector_env(**kwargs)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["official", "seven-o", "swap-on-five"])
def test_no_peeking_the_vector_observation_of_a_twin_is_the_same(variant):
    """At every decision of every game: a twin with the learner's hidden cards and the
    generators redealt gives the kernel the same observation and mask; one card more in
    the learner's own hand changes it."""
    from tests.env.test_aec import _twin

    env = vector_env(variant, players=4, opponents="offensive", num_envs=3,
                     learner_seat="rotate", seed=21)
    obs, info = env.reset()
    rnd = random.Random(2)
    o2 = np.zeros(OBS_SIZE, np.float32)
    m2 = np.zeros(A.N_ACTIONS, np.int8)
    changed = 0
    for _ in range(80):
        for i in range(env.num_envs):
            G, RNG = env._G[i], env._RNG[i]
            seat = int(env.learner_seats[i])
            G2, _ = _twin(G, RNG, seat, rnd)
            changed += not np.array_equal(G2[L.OFF_H:L.OFF_H + 4 * L.HW],
                                          G[L.OFF_H:L.OFF_H + 4 * L.HW])
            E.observe(G2, seat, o2)
            assert np.array_equal(o2, obs[i])
            E.mask_of(G2, m2)
            assert np.array_equal(m2, info["action_mask"][i])
            G3 = G.copy()
            G3[L.OFF_H + seat * L.HW] += 1
            E.observe(G3, seat, o2)
            assert not np.array_equal(o2, obs[i])
            assert o2[OBS["hand"].start] == obs[i][OBS["hand"].start] + 1
        obs, _, _, _, info = env.step(pick(info["action_mask"], rnd))
    assert changed > 100


@pytest.mark.parametrize("variant,players", [("official", 2), ("seven-o", 4), ("jump-in", 3),
                                             ("swap-on-five", 4), ("stacking", 5)])
def test_short_rows_play_the_same_games_and_reach_nothing_past_the_game(variant, players):
    """A table of built-ins that neither search nor observe keeps only G_CORE words a
    game: the same games, step for step, as rows of the full G whose words past
    G_CORE hold poison, which no step writes."""
    short = vector_env(variant, players=players, opponents="offensive", num_envs=4,
                       learner_seat="rotate", seed=3)
    full = vector_env(variant, players=players, opponents="offensive", num_envs=4,
                      learner_seat="rotate", seed=3)
    assert short._G.shape[1] == L.G_CORE
    poison = -(1 << 40) - 7
    full._G = np.full((4, L.G_SIZE), poison, np.int64)
    full._G[:, :L.G_CORE] = short._G
    a, info = short.reset()
    b, _ = full.reset()
    rnd = random.Random(6)
    for _ in range(150):
        assert np.array_equal(a, b)
        acts = pick(info["action_mask"], rnd)
        a, ra, ta, ca, info = short.step(acts)
        b, rb, tb, cb, info_b = full.step(acts)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ca, cb)
        assert np.array_equal(info["action_mask"], info_b["action_mask"])
        if "_final_obs" in info:
            done = info["_final_obs"]
            assert np.array_equal(info["final_obs"][done], info_b["final_obs"][done])
    assert (full._G[:, L.G_CORE:] == poison).all()
    assert np.array_equal(short._G, full._G[:, :L.G_CORE])


def test_rows_keep_all_of_g_for_a_search_or_an_observer():
    from unosim.env.vector import _row_width
    from unosim.runs.runner import game_template
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    rules = resolve([], [("players", 2)])
    for names, width in [(["random", "offensive"], L.G_CORE), (["random", "tuned"], L.G_CORE),
                         (["random", "search"], L.G_SIZE), (["random", "card-counter"], L.G_SIZE)]:
        seats = [parse_strategy(n) for n in names]
        assert _row_width(seats, game_template(rules, seats)) == width, names


def test_returned_arrays_are_never_overwritten_and_dropped_ones_are_reused():
    """Every step returns arrays of its own, as copies would be; an array the caller
    still holds is never written again, and one it dropped is handed out again."""
    env = vector_env(num_envs=16, seed=4)
    obs, info = env.reset()
    rnd = random.Random(7)
    kept = []
    for _ in range(30):  # keep everything: nothing returned may change
        out = env.step(pick(info["action_mask"], rnd))
        info = out[4]
        kept.append((out, [x.copy() for x in out[:4]], {k: v.copy() for k, v in info.items()}))
    for out, arrays, inf in kept:
        assert all(np.array_equal(x, y) for x, y in zip(out[:4], arrays, strict=True))
        assert all(np.array_equal(out[4][k], v) for k, v in inf.items())
    assert len({id(out[0]) for out, _, _ in kept}) == len(kept)
    del kept, out
    pool = env._out["obs"].arrays
    for _ in range(20):  # keep nothing but the last info: the kept arrays serve every step
        obs, _, _, _, info = env.step(pick(info["action_mask"], rnd))
        assert any(obs is a for a in pool)
        del obs


def test_the_first_reset_announces_the_compile_of_the_vector_kernels(monkeypatch):
    """Compiling the vector kernels is one of the engine's paths with its notice, both
    kernels compiled inside it (a step whose actions are all refused applies nothing)."""
    from unosim.compiler import compiling
    from unosim.runs import compile_notice

    heard = []
    monkeypatch.setattr(compiling, "_seen", set())
    monkeypatch.setattr(compiling, "is_compiled", lambda path, entries=None: False)
    env = vector_env(num_envs=2, seed=1)
    with compiling.listening(lambda path, event, s: heard.append((path, event))):
        obs, info = env.reset()
    assert heard == [("vector-env", "start"), ("vector-env", "done")]
    assert "vector-env" in compile_notice.notice("vector-env")
    assert not env.game_indices.any() and info["action_mask"].any(axis=1).all()
    again, _ = vector_env(num_envs=2, seed=1).reset()
    assert np.array_equal(obs, again)  # the refused step changed nothing


# ------------------------------------------------------------ bad input, one line


@pytest.mark.parametrize("seed,words", [
    (1.5, "not 1.5 (float)"), (-1, "not -1"), ("x", "not 'x' (str)"), ("1234", "(str)"),
    (True, "not True (bool)"), ([1, 2, 3, -4], "item 3 must be a whole number 0 or more"),
    ([1, 2, 3, 4.5], "item 3 must be a whole number"), ([1, 2], "not 2"),
    (np.array([1.0, 2.0, 3.0, 4.0]), "item 0 must be a whole number")])
def test_a_seed_that_is_no_whole_number_is_refused_naming_it(seed, words):
    env = vector_env(num_envs=4, seed=2)
    with pytest.raises(UnosimError, match=r"^reset\(seed=\.\.\.\)") as e:
        env.reset(seed=seed)
    assert words in str(e.value) and "\n" not in str(e.value)
    assert isinstance(e.value, ValueError)
    with pytest.raises(UnosimError, match=r"^vector_env\(seed=\.\.\.\)"):
        vector_env(num_envs=4, seed=seed)
    obs, _ = env.reset(seed=np.arange(4, dtype=np.uint32))  # NumPy integers are whole numbers
    assert np.array_equal(obs, vector_env(num_envs=4).reset(seed=[0, 1, 2, 3])[0])


@pytest.mark.parametrize("make,words", [
    (lambda a: a.astype(np.float64), "not an array of float64 and shape (4,)"),
    (lambda a: a.astype(str), "not an array of <U"),
    (lambda a: a.astype(bool), "not an array of bool and shape (4,)"),
    (lambda a: a[:2], "not an array of int64 and shape (2,)"),
    (lambda a: a[None, :], "not an array of int64 and shape (1, 4)"),
    (lambda a: None, "not None"), (lambda a: "abc", "not 'abc'"),
    (lambda a: [1, [2, 3], 4, 5], "not a ragged sequence"),
    (lambda a: [*a[:3].tolist(), 2.0], "not an array of float64")])
def test_actions_that_are_no_whole_numbers_are_refused_naming_them(make, words):
    """A float array is not rounded, strings not parsed, None not NumPy's TypeError:
    one IllegalAction (a ValueError) naming step(actions), and nothing applied."""
    env = vector_env(num_envs=4, seed=2)
    _, info = env.reset()
    acts = pick(info["action_mask"], random.Random(0))
    G, R = env._G.copy(), env._RNG.copy()
    with pytest.raises(IllegalAction) as e:
        env.step(make(acts))
    text = str(e.value)
    assert text.startswith("step(actions) needs 4 whole numbers, one action per game, not ")
    assert words in text and "\n" not in text and isinstance(e.value, ValueError)
    assert np.array_equal(G, env._G) and np.array_equal(R, env._RNG)
    env.step(acts.astype(np.uint8))  # any integer dtype, and a list, is taken
    env.step(pick(env._buf["masks"], random.Random(1)).tolist())


def test_a_huge_action_is_named_as_given_not_wrapped():
    """2**63 as uint64 would turn into a negative number in the kernel's int64: the
    message names the number given."""
    env = vector_env(num_envs=4, seed=2)
    _, info = env.reset()
    acts = pick(info["action_mask"], random.Random(0)).astype(np.uint64)
    acts[1] = 2**63
    G = env._G.copy()
    with pytest.raises(IllegalAction, match=rf"^action {2**63} is not legal in game 1 now"):
        env.step(acts)
    with pytest.raises(IllegalAction, match=rf"^action {2**63} is not legal in game 1 now"):
        env.step([int(x) for x in acts])  # a list of Python ints: the same
    assert np.array_equal(G, env._G)
