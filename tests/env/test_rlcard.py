"""RLCard's encoding of the AEC environment (env/rlcard_encoding.py): PettingZoo's
tests, RLCard's action order spelled out by hand, the (4, 4, 15) planes of crafted
hands as RLCard writes them, the decisions taken for the learner RLCard's way, and
the tables it refuses. RLCard itself is not imported: the expected planes and
action names are written here from its layout."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from unosim.env import aec_env  # noqa: E402
from unosim.env import rlcard_encoding as R  # noqa: E402
from unosim.errors import UnosimError  # noqa: E402
from unosim.simulate import layout as L  # noqa: E402
from unosim.simulate.cards import WILD, WILD_DRAW_FOUR, parse_card  # noqa: E402
from unosim.simulate.moves import parse_move  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]

# RLCard's action order (rlcard/games/uno/jsondata/action_space.json): colour-major
RL_COLOURS = {"r": "red", "g": "green", "b": "blue", "y": "yellow"}
RL_TRAITS = [str(i) for i in range(10)] + ["skip", "reverse", "draw_2", "wild", "wild_draw_4"]
UNOSIM_TRAIT = {"skip": "skip", "reverse": "reverse", "draw_2": "draw2", "wild": "wild",
                "wild_draw_4": "wild4"}


def unosim_move_of(rl_name: str) -> str:
    """The unosim move text of an RLCard action name such as 'g-skip' or 'b-wild'."""
    c, trait = rl_name.split("-")
    t = UNOSIM_TRAIT.get(trait, trait)
    return f"{t}:{RL_COLOURS[c]}" if t.startswith("wild") else c + t


RL_ACTIONS = [f"{c}-{t}" for c in RL_COLOURS for t in RL_TRAITS] + ["draw"]


def test_pettingzoo_api_and_seed_tests_pass():
    api_test(aec_env(encoding="rlcard", seed=3), num_cycles=300)
    api_test(aec_env(encoding="rlcard", opponents={1: "offensive"}, seed=4), num_cycles=300)
    seed_test(lambda: aec_env(encoding="rlcard"), num_cycles=300)


def test_the_61_actions_are_rlcards_in_its_order_and_map_both_ways():
    assert len(RL_ACTIONS) == R.N_ACTIONS == 61 and RL_ACTIONS[R.DRAW] == "draw"
    for a, name in enumerate(RL_ACTIONS):
        move = L.MV_DRAW if name == "draw" else parse_move(unosim_move_of(name))
        assert R.to_move(a) == move, name
        assert R.to_action(move) == a, name
    assert R.to_move(61) == R.to_move(-1) == -1
    for move in (L.MV_PASS, L.MV_ACCEPT, L.MV_COLOUR, parse_move("swap:red"), 5 + 64):
        assert R.to_action(move) == -1


def test_the_mask_offers_a_wild_in_every_colour_and_refuses_a_move_without_action():
    mask = R.fill_mask(np.zeros(61, np.int8),
                       np.array([parse_card("y7"), WILD_DRAW_FOUR, L.MV_DRAW]))
    assert np.flatnonzero(mask).tolist() == [14, 29, 44, 52, 59, 60]  # r,g,b,y-wd4; y-7
    with pytest.raises(UnosimError, match="no action"):
        R.fill_mask(np.zeros(61, np.int8), np.array([L.MV_PASS]))


def _crafted(env, hands, top, colour=None, draw=("b9",) * 20, actor=0, phase="turn"):
    """Set the table of ``env``'s game and let the environment move to a decision."""
    g = env._game
    for seat, cards in enumerate(hands):
        g.set_hand(seat, cards)
    g.set_piles(draw=list(draw), discard=["r3", top]).set_turn(actor, colour=colour,
                                                               phase=phase)
    env._advance()
    return g


def _planes(spots):
    """A (4, 4, 15) array with 1 at each (plane, row, trait) of ``spots``."""
    o = np.zeros((4, 4, 15), np.int8)
    for spot in spots:
        o[spot] = 1
    return o


def test_a_crafted_hand_and_target_encode_as_rlcard_writes_them():
    env = aec_env(encoding="rlcard", seed=1)
    env.reset()
    hand = ["r0", "r5", "r5", "gskip", "ydraw2", "ydraw2", "wild", "wild", "wild4"]
    _crafted(env, [hand, ["b7"]], top="wild4", colour="blue", actor=0)
    # rows r, g, b, y; traits 0-9, skip 10, reverse 11, draw_2 12, wild 13, wild_draw_4 14
    held = {(0, 0): 1, (0, 5): 2, (1, 10): 1, (3, 12): 2}
    expected = _planes([(0, r, t) for r in range(4) for t in range(13) if (r, t) not in held]
                       + [(n, r, t) for (r, t), n in held.items()]
                       + [(1, r, t) for r in range(4) for t in (13, 14)]  # wilds: every row
                       + [(3, 2, 14)])  # the target: a Wild Draw Four that named blue
    obs = env.observe("player_0")["observation"]
    assert obs.dtype == np.int8 and np.array_equal(obs, expected)
    other = _planes([(0, r, t) for r in range(4) for t in range(15) if (r, t) != (2, 7)]
                    + [(1, 2, 7), (3, 2, 14)])
    assert np.array_equal(env.observe("player_1")["observation"], other)


def test_a_third_copy_stays_in_the_two_or_more_plane_and_a_number_target_has_its_row():
    env = aec_env(encoding="rlcard", rule={"deck.numbers": 3}, seed=1)
    env.reset()
    _crafted(env, [["g7", "g7", "g7"], ["b1"]], top="y4")
    expected = _planes([(0, r, t) for r in range(4) for t in range(15) if (r, t) != (1, 7)]
                       + [(2, 1, 7), (3, 3, 4)])
    assert np.array_equal(env.observe("player_0")["observation"], expected)


@pytest.mark.parametrize("drawn,played", [("g9", True), ("gskip", True), ("y5", False),
                                          ("b2", False)])
def test_a_drawn_card_is_played_if_of_the_colour_and_kept_otherwise(drawn, played):
    """RLCard's reading: a drawn card of the colour to follow is played at once; one
    that matches only by number (playable in unosim) or not at all is kept."""
    env = aec_env(encoding="rlcard", seed=1)
    env.reset()
    g = _crafted(env, [["r1", "y7"], ["b1", "b2", "b3"]], top="g5", draw=[drawn])
    assert env.agent_selection == "player_0"
    assert np.flatnonzero(env.observe("player_0")["action_mask"]).tolist() == [R.DRAW]
    env.step(R.DRAW)
    assert sorted(g.hand(0)) == sorted(["r1", "y7"] + ([] if played else [drawn]))
    assert int(g.G[L.S_TOP]) == parse_card(drawn if played else "g5")
    # a drawn Skip skips seat 1: seat 0 is to act again
    assert env.agent_selection == ("player_0" if drawn == "gskip" else "player_1")
    assert int(g.G[L.S_PHASE]) == L.PH_TURN


def test_a_drawn_wild_is_played_naming_a_colour_from_the_games_generator():
    colours = set()
    for seed in range(40):
        env = aec_env(encoding="rlcard", seed=seed)
        env.reset()
        g = _crafted(env, [["r1", "y7"], ["b1", "b2"]], top="g5", draw=["wild"])
        env.step(R.DRAW)
        assert g.hand(0) == ["r1", "y7"] and int(g.G[L.S_TOP]) == WILD
        assert env.agent_selection == "player_1"
        colours.add(int(g.G[L.S_COLOUR]))
    assert colours == {0, 1, 2, 3}


def test_a_wild_draw_four_is_accepted_never_challenged():
    """Where the rules offer a challenge (unosim's encoding stops there for the
    learner), the rlcard encoding accepts: seat 0 draws four and is skipped."""
    for encoding in ("unosim", "rlcard"):
        env = aec_env(rule={"wd4_challenge": True, "wd4_bluff": False}, seed=2,
                      encoding=encoding)
        env.reset()
        g = _crafted(env, [["r1", "y7"], ["wild4", "b2", "b3"]], top="g5", actor=1)
        assert env.agent_selection == "player_1"
        env.step(env.enc.fill_mask(np.zeros(env.enc.n_actions, np.int8),
                                   np.array([WILD_DRAW_FOUR]), 1, 2).argmax())
        if encoding == "unosim":
            assert env.agent_selection == "player_0" and g.phase == "challenge"
        else:
            assert g.hand_size(0) == 6 and g.stat("challenges") == 0
            assert env.agent_selection == "player_1" and g.phase == "turn"


def test_a_first_flipped_wild_gets_a_colour_from_the_games_generator():
    env = aec_env(seed=5)
    env.reset()
    g = _crafted(env, [["r1", "y7"], ["b1"]], top="wild", phase="colour")
    assert g.phase == "colour"  # unosim's encoding asks the learner
    colours = set()
    for seed in range(40):
        env = aec_env(encoding="rlcard", seed=seed)
        env.reset()
        g = _crafted(env, [["r1", "y7"], ["b1"]], top="wild", phase="colour")
        assert g.phase == "turn" and env.agent_selection == "player_0"
        colours.add(g.colour)
    assert len(colours) == 4


def test_the_learner_only_ever_decides_a_turn_and_rounds_end_with_a_winner():
    env = aec_env(encoding="rlcard", seed=9)
    rnd = random.Random(2)
    phases = set()
    for _ in range(40):
        env.reset()
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            phases.add(int(env._game.G[L.S_PHASE]))
            env.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert int(env._game.G[L.S_WINNER]) in (0, 1)
    assert phases == {L.PH_TURN}


def test_rlcards_rule_values_lie_between_the_variant_and_the_rule_values():
    rules = aec_env(encoding="rlcard").rules
    assert {k: rules[k] for k in R.RULES} == R.RULES
    assert aec_env(encoding="rlcard", rule={"voluntary_draw": True}).rules["voluntary_draw"]
    assert aec_env().rules["wd4_challenge"]  # unosim's encoding keeps the variant's


@pytest.mark.parametrize("kwargs,words", [
    ({"players": 3}, "2 players"), ({"variant": "stacking"}, "stacking"),
    ({"variant": "jump-in"}, "jump_in"), ({"variant": "seven-o"}, "seven_o"),
    ({"variant": "edition112"}, "special wilds"), ({"variant": "uno-h2o"}, "special wilds"),
    ({"encoding": "openspiel"}, "encoding must be")])
def test_tables_the_encoding_cannot_play_are_refused_in_one_line(kwargs, words):
    with pytest.raises(UnosimError, match=words) as e:
        aec_env(**{"encoding": "rlcard", **kwargs})
    assert "\n" not in str(e.value)
