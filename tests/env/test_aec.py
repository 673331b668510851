"""The PettingZoo AEC environment (env/): PettingZoo's own API and seed tests
over the presets the rules change most, the no-peeking twin proof, every decision
kind reachable as an action, rewards, refusals and reproducible deals."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
import reference_env as ref  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from unosim.env import IllegalAction, aec_env  # noqa: E402
from unosim.env import actions as A  # noqa: E402
from unosim.env.encodings import encoding_of  # noqa: E402
from unosim.env.observation import OBS, OBS_SIZE  # noqa: E402
from unosim.errors import UnosimError  # noqa: E402
from unosim.simulate import layout as L  # noqa: E402
from unosim.simulate.cards import N_TYPES, TYPE_SLOTS, WILD  # noqa: E402
from unosim.simulate.moves import with_colour  # noqa: E402
from unosim.simulate.step_nb import legal_moves  # noqa: E402

# PettingZoo's api_test nudges towards Box observations; its classic card games, like
# this one, hand out {"observation", "action_mask"} dicts
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]


def play_random(env, rnd: random.Random, on_decision=None) -> int:
    """Play one episode with uniformly random legal actions; return the steps taken."""
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if on_decision is not None:
            on_decision(env, agent, obs)
        env.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return steps


@pytest.mark.parametrize("variant,players", [("official", 2), ("official", 4), ("official", 7),
                                             ("stacking", 4), ("seven-o", 4), ("jump-in", 4)])
def test_pettingzoo_api_test_passes(variant, players):
    env = aec_env(variant, players=players, seed=3)
    api_test(env, num_cycles=300)


def test_pettingzoo_seed_test_passes():
    seed_test(lambda: aec_env("jump-in", players=3, opponents={1: "offensive"}), num_cycles=300)


def test_the_action_layout_maps_every_engine_move_both_ways():
    moves = [*range(WILD), *(with_colour(t, c) for t in range(WILD, N_TYPES) for c in range(4)),
             L.MV_DRAW, L.MV_PASS, L.MV_TAKE, L.MV_CHALLENGE, L.MV_ACCEPT,
             *range(L.MV_COLOUR, L.MV_COLOUR + 4), *(L.MV_GIVE + t for t in range(N_TYPES))]
    for players in (2, 5, 10):
        for actor in range(players):
            targets = [L.MV_TARGET + s for s in range(players)]
            actions = [ref.to_action(m, actor, players) for m in moves + targets]
            assert sorted(set(actions)) == sorted(actions)  # one action per move
            assert all(0 <= a < A.N_ACTIONS for a in actions)
            assert [ref.to_move(a, actor, players) for a in actions] == moves + targets
    assert A.N_ACTIONS == sum(n for _, n in A.LAYOUT.values())
    assert ref.to_move(A.TARGET + 3, 0, 3) == -1  # no fourth seat at three players
    assert encoding_of("unosim").to_move(A.TARGET + 3, 0, 3) == -1


def test_the_observation_layout_tiles_the_vector_and_lies_in_its_space():
    at = 0
    for s in OBS.values():
        assert s.start == at
        at = s.stop
    assert at == OBS_SIZE
    env = aec_env("seven-o", players=10, seed=5)
    env.reset()
    space = env.observation_space(env.agent_selection)

    def inside(env, agent, obs):
        assert space.contains(obs)

    play_random(env, random.Random(1), inside)


@pytest.mark.parametrize("variant,players", [("official", 4), ("seven-o", 4),
                                             ("swap-on-five", 3), ("jump-in", 5)])
def test_the_aec_observes_and_masks_with_the_compiled_writer_equal_to_the_reference(
        variant, players):
    """The environment's observation and mask come from the compiled writer
    (env/encode_nb.py), the vector environment's own, and equal the plain-Python
    reference (tests/reference_env.py) for every seat at every decision."""
    env = aec_env(variant, players=players, opponents={players - 1: "offensive"}, seed=4)
    seen = set()

    def check(env, agent, obs):
        G = env._game.G
        actor = int(G[L.S_ACTOR])
        for seat in range(players):
            assert np.array_equal(env.enc.encode(G, seat), ref.encode(G, seat)), seat
        assert np.array_equal(obs["observation"], ref.encode(G, actor))
        G2 = G.copy()
        n = int(legal_moves(G2))
        want = ref.fill_mask(np.zeros(A.N_ACTIONS, np.int8), G2[L.OFF_MOVES:L.OFF_MOVES + n],
                             actor, players)
        assert np.array_equal(obs["action_mask"], want)
        for a in np.flatnonzero(want):
            assert env.enc.to_move(a, actor, players) == ref.to_move(a, actor, players)
        seen.add(int(G[L.S_PHASE]))

    rnd = random.Random(5)
    for _ in range(3):
        env.reset()
        play_random(env, rnd, check)
    assert len(seen) >= 2


def _docs_table(heading: str) -> list[list[str]]:
    """The rows of the first table under ``heading`` in docs/reinforcement-learning.md."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "reinforcement-learning.md").read_text()
    lines = text.split(f"\n## {heading}\n", 1)[1].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = []
    for line in lines[first + 2:]:  # past the header and its rule
        if not line.startswith("|"):
            break
        table.append([c.strip() for c in line.strip("|").split("|")])
    return table


def test_the_docs_tables_are_the_declared_layouts():
    """The users' tables name every block of the declared layouts, in order, with its
    size (observation) or its actions (first-last)."""
    obs = [(name, int(size)) for name, size, _ in _docs_table("Observations")]
    assert obs == [(name, s.stop - s.start) for name, s in OBS.items()]
    acts = [(name, span) for name, span, _ in _docs_table("Actions")]
    assert acts == [(name, f"{a}" if n == 1 else f"{a}-{a + n - 1}")
                    for name, (a, n) in A.LAYOUT.items()]


def _twin(G, RNG, seat, rnd):
    from tests.strategies.test_search import twin

    saved = int(G[L.S_ACTOR])
    G[L.S_ACTOR] = seat  # the twin redeals what ``seat`` cannot see
    try:
        G2, R2 = twin(G, RNG, rnd)
    finally:
        G[L.S_ACTOR] = saved
    G2[L.S_ACTOR] = saved
    return G2, R2


@pytest.mark.slow
@pytest.mark.parametrize("variant,players,encoding", [
    ("official", 4, "unosim"), ("seven-o", 4, "unosim"), ("jump-in", 4, "unosim"),
    ("swap-on-five", 4, "unosim"), ("official", 2, "rlcard")])
def test_no_peeking_a_twin_with_the_hidden_cards_redealt_looks_the_same(variant, players,
                                                                       encoding):
    """At every decision, for every seat: a game with the other hands, the draw pile
    and the card generator redealt gives that seat the same observation and the
    actor the same action mask; changing the seat's own hand does change it."""
    rnd = random.Random(7)
    env = aec_env(variant, players=players, opponents={players - 1: "offensive"}, seed=11,
                  encoding=encoding)
    enc = env.enc
    seen = {"decisions": 0, "hidden_changed": 0}
    hands = slice(L.OFF_H, L.OFF_H + players * L.HW)

    def check(env, agent, obs):
        G, RNG = env._game.G, env._game.RNG
        actor = int(G[L.S_ACTOR])
        for seat in range(players):
            G2, R2 = _twin(G, RNG, seat, rnd)
            seen["hidden_changed"] += not np.array_equal(G2[hands], G[hands])
            assert np.array_equal(enc.encode(G2, seat), enc.encode(G, seat)), (variant, seat)
            if seat == actor:
                n = int(legal_moves(G2))
                mask = enc.fill_mask(np.zeros(enc.n_actions, np.int8),
                                     G2[L.OFF_MOVES:L.OFF_MOVES + n], actor, players)
                assert np.array_equal(mask, obs["action_mask"])
        G3 = G.copy()
        G3[L.OFF_H + actor * L.HW] += 1  # one more red 0 in the actor's own hand
        assert not np.array_equal(enc.encode(G3, actor), enc.encode(G, actor))
        seen["decisions"] += 1

    for _ in range(24 // players):
        env.reset()
        play_random(env, rnd, check)
    assert seen["decisions"] > 100 and seen["hidden_changed"] > seen["decisions"]


def _group(action: int) -> str:
    return next(k for k, (a, n) in A.LAYOUT.items() if a <= action < a + n)


@pytest.mark.parametrize("variant,rule,expected", [
    ("official", {}, {("turn", "card"), ("turn", "wild"), ("turn", "draw"), ("drawn", "card"),
                      ("drawn", "pass"), ("challenge", "challenge"),
                      ("challenge", "accept"), ("colour", "colour")}),
    ("stacking", {}, {("penalty", "card"), ("penalty", "take")}),
    ("seven-o", {}, {("target", "target")}),
    ("swap-on-five", {}, {("target", "target"), ("target", "pass"), ("give", "give")}),
    ("jump-in", {}, {("jump", "card"), ("jump", "pass")}),
    ("skip-deflect", {}, {("skip", "card"), ("skip", "accept")}),
    ("edition112", {"swap_hands_wild": True}, {("turn", "wild"), ("target", "target")}),
])
def test_every_decision_the_rules_create_is_offered_as_an_action(variant, rule, expected):
    env = aec_env(variant, rule=rule, players=3, seed=2)
    found: set[tuple[str, str]] = set()
    phases = {v: k for k, v in L.__dict__.items() if k.startswith("PH_")}

    def collect(env, agent, obs):
        phase = phases[int(env._game.G[L.S_PHASE])][3:].lower()
        found.update((phase, _group(a)) for a in np.flatnonzero(obs["action_mask"]))

    rnd = random.Random(0)
    for _ in range(400):
        env.reset()
        play_random(env, rnd, collect)
        if expected <= found:
            break
    assert expected - found == set()


@pytest.mark.slow
@pytest.mark.parametrize("reward", ["win", "points"])
def test_rewards_go_to_the_winner_and_balance_heads_up(reward):
    env = aec_env("official", players=2, reward=reward, seed=4)
    rnd = random.Random(3)
    for _ in range(20):
        env.reset()
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, r, term, trunc, _ = env.last()
            total[agent] += r
            env.step(None if term or trunc else
                     rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        winner = int(env._game.G[L.S_WINNER])
        assert winner >= 0
        assert total[f"player_{winner}"] > 0
        assert sum(total.values()) == 0  # heads up the winner scores the loser's hand
        loser = 1 - winner
        if reward == "points":
            assert total[f"player_{loser}"] == -env._game.hand_value(loser) < 0
        else:
            assert total[f"player_{loser}"] == -1


def test_opponents_play_inside_step_to_the_end_of_the_round():
    env = aec_env("official", players=4, opponents={1: "offensive", 2: "random", 3: "defensive"},
                  seed=8)
    assert env.possible_agents == ["player_0"]
    rnd = random.Random(5)
    for _ in range(30):
        env.reset()
        steps = play_random(env, rnd)
        G = env._game.G
        assert G[L.S_PHASE] == L.PH_OVER and steps > 0
        assert env.agents == []


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = aec_env("official", players=2, seed=1)
    env.reset()
    obs = env.observe(env.agent_selection)
    G = env._game.G.copy()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(bad)
    with pytest.raises(IllegalAction):
        env.step(A.N_ACTIONS)
    assert np.array_equal(env._game.G, G)


def test_bad_arguments_are_refused_in_one_line():
    for kwargs in ({"players": 11}, {"reward": "chips"}, {"render_mode": "human"},
                   {"opponents": {5: "random"}}, {"opponents": ["random", "random"]},
                   {"variant": "nonesuch"}):
        with pytest.raises(UnosimError) as e:
            aec_env(**kwargs)
        assert "\n" not in str(e.value)


def test_reset_with_a_seed_replays_deals_and_opponents_and_without_deals_afresh():
    def trace(env, seed):
        env.reset(seed=seed)
        out = []
        rnd = random.Random(0)
        play_random(env, rnd, lambda e, a, o: out.append(o["observation"].copy()))
        return out

    a = aec_env("official", players=3, opponents={2: "random"})
    b = aec_env("official", players=3, opponents={2: "random"})
    first = trace(a, 42)
    assert all(np.array_equal(x, y) for x, y in zip(first, trace(b, 42), strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(first, trace(b, 43), strict=False))
    a.reset()  # the next game of seed 42
    assert not np.array_equal(a.observe(a.agent_selection)["observation"], first[0])


def test_render_shows_the_table_from_the_acting_seat():
    env = aec_env("official", players=3, render_mode="ansi", seed=6)
    env.reset()
    seat = int(env.agent_selection.rpartition("_")[2])
    text = env.render()
    assert f"seat {seat} to act (turn)" in text and "legal:" in text
    assert " ".join(env._game.hand(seat)) in text
    assert aec_env(seed=1).render() is None


def test_a_wild_is_offered_in_every_colour():
    for fill_mask in (encoding_of("unosim").fill_mask, ref.fill_mask):
        mask = fill_mask(np.zeros(A.N_ACTIONS, np.int8), np.array([WILD + 1, 5, L.MV_DRAW]), 0, 2)
        assert np.flatnonzero(mask).tolist() == [5, *range(A.WILD_PLAY + 4, A.WILD_PLAY + 8),
                                                 A.DRAW]
    assert TYPE_SLOTS * 4 == L.MV_PLAY_END


# ------------------------------------------------------------ bad input, one line


@pytest.mark.parametrize("seed", [1.5, 2.0, -1, "5", "x", True, np.float32(3), [4]])
def test_a_seed_that_is_no_whole_number_is_refused_naming_it(seed):
    """1.5 must not play seed 1, nor "5" seed 5: one ValueError naming the argument."""
    env = aec_env("official", players=2, seed=3)
    with pytest.raises(UnosimError, match=r"^reset\(seed=\.\.\.\) must be a whole number 0 "
                                          r"or more, not ") as e:
        env.reset(seed=seed)
    assert isinstance(e.value, ValueError) and "\n" not in str(e.value)
    with pytest.raises(UnosimError, match=r"^aec_env\(seed=\.\.\.\) must be a whole number"):
        aec_env("official", players=2, seed=seed)
    env.reset(seed=np.int64(7))  # a NumPy integer is a whole number
    assert env._seed == 7


@pytest.mark.parametrize("action,words", [
    (None, "not None (NoneType)"), (1.0, "not 1.0 (float)"), ("1", "not '1' (str)"),
    (True, "not True (bool)"), (np.float64(2.0), "(float64)"),
    (np.array([1, 2]), "not an array of int64 and shape (2,)"),
    (np.array(1.5), "not an array of float64 and shape ()")])
def test_an_action_that_is_no_whole_number_is_refused_naming_it(action, words):
    """A float is not rounded, a string not parsed, two numbers not an error of NumPy's:
    one IllegalAction (a ValueError) that names the action, and nothing applied."""
    env = aec_env("official", players=2, seed=1)
    env.reset()
    G = env._game.G.copy()
    with pytest.raises(IllegalAction) as e:
        env.step(action)
    text = str(e.value)
    assert text.startswith(f"action for {env.agent_selection} must be one whole number")
    assert words in text and "\n" not in text and isinstance(e.value, ValueError)
    assert np.array_equal(env._game.G, G)
    # a legal action as a NumPy integer or a 0-d integer array is taken
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(np.array(legal, np.uint8))
    assert not np.array_equal(env._game.G, G)


def test_a_huge_action_is_named_as_given_not_wrapped():
    env = aec_env("official", players=2, seed=1)
    env.reset()
    for big in (2**63, np.uint64(2**63), 2**64 + 3):
        with pytest.raises(IllegalAction, match=rf"^action {int(big)} is not legal"):
            env.step(big)
    with pytest.raises(IllegalAction, match=r"^action -1 is not legal"):
        env.step(-1)


def test_after_every_agent_is_done_step_and_last_say_so():
    env = aec_env("official", players=2, seed=1)
    with pytest.raises(UnosimError, match=r"^call reset\(\) before step\(\)$"):
        env.step(0)
    with pytest.raises(UnosimError, match=r"^call reset\(\) before last\(\)$"):
        env.last()
    with pytest.raises(UnosimError, match=r"^call reset\(\) before observe\(\)$"):
        env.observe("player_0")
    env.reset()
    with pytest.raises(UnosimError, match="'player_7' is not an agent"):
        env.observe("player_7")
    play_random(env, random.Random(1))
    assert env.agents == []
    for call, name in ((lambda: env.step(None), "step()"), (lambda: env.step(3), "step()"),
                       (lambda: env.last(), "last()")):
        with pytest.raises(UnosimError) as e:
            call()
        assert str(e.value) == (f"{name}: the round is over and every agent is done; call "
                                "reset() to deal the next")
    env.reset()  # and the next round deals
    assert env.agents


def test_a_done_agent_steps_only_with_none():
    env = aec_env("official", players=2, seed=1)
    env.reset()
    rnd = random.Random(2)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            with pytest.raises(IllegalAction, match="must be None: its round is over"):
                env.step(0)
            env.step(None)
            continue
        env.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert env.agents == []
