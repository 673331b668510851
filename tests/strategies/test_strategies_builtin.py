"""Every built-in strategy's decisions, pinned on crafted states.

Each test builds a table with the ``Game`` setters, asks the seat to act for its
move (``g.choose()``, the compiled ``choose_move``) and checks it. Where a
strategy picks at random among equals, the test asks many times (each ask draws
from the game's generator) and checks the set of answers.
"""

from __future__ import annotations

import pytest

from unosim.errors import UnosimError
from unosim.runs.game import Game
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.registry import BUILTINS, parse_strategy

# hands for the seats a test does not care about: no red, no 3, no 5, no wild
FILLER = [["g7", "y8", "g9"], ["g8", "y9", "y7"], ["b7", "y6", "b9"], ["b8", "g6", "g4"]]
BLUE = 3
# the built-ins whose choices these tests pin; ``search`` decides by looking ahead
# (tests/strategies/test_search.py)
RULE_BASED = [n for n in BUILTINS if n != "search"]


def craft(strategy: str, hand: list[str], top: str = "r3", rules=None, actor: int = 0,
          hands: dict[int, list[str]] | None = None, colour: str | None = None,
          phase: str = "turn", draw=("y9",) * 20, discard: tuple[str, ...] = (),
          **scalars) -> Game:
    rules = rules or resolve()
    seats = [parse_strategy("random")] * rules["players"]
    seats[actor] = parse_strategy(strategy)
    g = Game(rules, seats, seed=3)
    for p in range(g.players):
        g.set_hand(p, (hands or {}).get(p, FILLER[p % 4]))
    g.set_hand(actor, hand)
    g.set_piles(draw=list(draw), discard=[*discard, top])
    g.set_turn(actor, colour=colour, phase=phase, **scalars)
    return g


def choices(g: Game, n: int = 60) -> set[str]:
    """The moves seen in ``n`` draws. A move chosen with probability q goes unseen with
    chance (1 - q)^n: about 1e-18 for one of two even moves at n = 60."""
    return {g.choose() for _ in range(n)}


def test_every_builtin_has_a_description_and_an_id():
    ids = [sid for sid, _ in BUILTINS.values()]
    assert len(set(ids)) == len(ids)
    assert {"random", "first", "defensive", "offensive", "colour-keeper", "attacker"} <= set(
        BUILTINS)
    for _, desc in BUILTINS.values():
        assert len(desc) > 60


# ----------------------------------------------------------------- random


def test_random_plays_uniformly_among_physical_cards():
    """3,000 draws; the share of r5 (2 of the 3 playable physical cards, 2/3) must lie
    in 0.62..0.71: 5.4 and 5.0 standard errors (se 0.86 points) from 2/3, a false alarm
    about once in 4 million. It detects a shift of 5 points (to 0.62 or 0.72) with 80%
    power; the likely slip, uniform among distinct cards (share 1/2), lies 19 se out."""
    g = craft("random", ["r5", "r5", "g3", "b9"])  # top r3: r5 x2 and g3 play
    seen = [g.choose() for _ in range(3000)]
    share = seen.count("r5") / len(seen)
    assert set(seen) == {"r5", "g3"}
    assert 0.62 < share < 0.71  # 2 of the 3 playable physical cards


def test_random_draws_only_without_a_play_and_never_bluffs():
    assert choices(craft("random", ["g7", "b9"])) == {"draw"}
    # holding red: the Wild Draw Four would be a bluff, so only r5
    assert choices(craft("random", ["r5", "wild4"])) == {"r5"}
    assert choices(craft("random:bluff=1", ["r5", "wild4"])) == {"r5", "wild4:red"}


def test_random_names_the_colour_it_holds_most_and_never_challenges():
    assert choices(craft("random", ["wild", "b1", "b2", "g1"])) == {"wild:blue"}
    g = craft("random", ["g1"], top="wild4", colour="blue", phase="challenge", pending=4,
              pending_kind=4, last=3, prev_colour=0)
    assert choices(g) == {"accept"}


# ----------------------------------------------------------------- first


def test_first_plays_the_first_card_in_hand_order():
    # top r5: r9 (type 9), y5 (18), wild (52) are playable; first takes r9
    assert choices(craft("first", ["wild", "y5", "r9"], top="r5")) == {"r9"}
    assert choices(craft("first", ["wild", "g1", "b1"], top="y5")) == {"wild:green"}


# ----------------------------------------------------------------- defensive


def test_defensive_dumps_the_highest_value_card():
    assert choices(craft("defensive", ["r2", "r9", "rskip"])) == {"rskip"}
    assert choices(craft("defensive", ["r2", "r9", "rskip", "wild"])) == {"wild:red"}
    assert choices(craft("defensive", ["r2", "r9", "g3"])) == {"r9"}


def test_defensive_bluffs_only_with_its_bluff_parameter():
    assert choices(craft("defensive", ["r2", "wild4"])) == {"r2"}
    assert choices(craft("defensive:bluff=1", ["r2", "wild4"])) == {"wild4:red"}


# ----------------------------------------------------------------- offensive


def test_offensive_keeps_wilds_for_the_end():
    assert choices(craft("offensive", ["r2", "wild", "wild4", "g3"])) == {"r2", "g3"}
    # nothing coloured plays: a wild (the Wild Draw Four is legal, no red held)
    assert choices(craft("offensive", ["wild", "wild4", "b1"])) == {"wild:blue", "wild4:blue"}


# ----------------------------------------------------------------- colour-keeper


def test_colour_keeper_plays_a_zero_of_the_colour_first():
    assert choices(craft("colour-keeper", ["r7", "r0", "b3", "wild"])) == {"r0"}


def test_colour_keeper_stays_in_the_colour_rather_than_change_it():
    # top r3: r7 keeps red, b3 and g3 would change the colour
    assert choices(craft("colour-keeper", ["r7", "b3", "b6", "g3"])) == {"r7"}


def test_colour_keeper_changes_by_number_to_its_strongest_colour():
    # no red: g3 moves to green (3 green held) rather than b3 (1 blue held)
    assert choices(craft("colour-keeper", ["b3", "g3", "g6", "g7", "wild"])) == {"g3"}


def test_colour_keeper_plays_a_wild_before_a_wild_draw_four():
    assert choices(craft("colour-keeper", ["wild4", "wild", "b1"])) == {"wild:blue"}
    assert choices(craft("colour-keeper", ["wild4", "b1"])) == {"wild4:blue"}


# ----------------------------------------------------------------- attacker


def test_attacker_hits_a_next_player_close_to_going_out():
    hand = ["r2", "rdraw2", "rskip", "r9"]
    near = {1: ["g8", "y9"]}  # seat 1, next after seat 0, has 2 cards
    assert choices(craft("attacker", hand, hands=near)) == {"rdraw2"}
    assert choices(craft("attacker", ["r2", "rskip", "rreverse"], hands=near)) == {"rskip"}
    assert choices(craft("attacker", ["r2", "rreverse"], hands=near)) == {"rreverse"}


def test_attacker_keeps_action_cards_while_nobody_is_close():
    far = {1: ["g8", "y9", "y7", "b2", "b4"]}
    assert choices(craft("attacker", ["r2", "rdraw2", "rskip", "wild"], hands=far)) == {"r2"}


def test_attacker_names_the_colour_the_next_player_lacks():
    hand = ["wild", "g1", "g2", "b4"]  # top r3: only the wild plays
    g = craft("attacker", hand, hands={1: ["g8", "y9"]})
    g.G[L.OFF_H + 1 * L.HW + L.HC_LACKS] = 1 << BLUE
    assert choices(g) == {"wild:blue"}
    g = craft("random", hand, hands={1: ["g8", "y9"]})
    g.G[L.OFF_H + 1 * L.HW + L.HC_LACKS] = 1 << BLUE
    assert choices(g) == {"wild:green"}  # random names the colour it holds most


def test_attacker_moves_play_into_a_colour_the_next_player_lacks():
    g = craft("attacker", ["r2", "b3"], hands={1: ["g8", "y9", "y7", "y2"]})
    g.G[L.OFF_H + 1 * L.HW + L.HC_LACKS] = 1 << BLUE
    assert choices(g) == {"b3"}


# ----------------------------------------------------------------- what the table saw


def test_a_draw_turn_without_the_colour_shows_the_seat_lacks_it():
    g = craft("random", ["g7", "b9"], draw=("y9",) * 20)  # red on top, no red held
    g.apply("draw")  # y9 does not play: the turn passes
    lacks = int(g.G[L.OFF_H + 0 * L.HW + L.HC_LACKS])
    assert lacks == 1  # red


@pytest.mark.parametrize("hand, drawn", [(["r7", "b9"], "y9"), (["g7", "b9"], "y9"),
                                         (["g7", "b9"], "r4")])
def test_what_the_table_saw_does_not_depend_on_hidden_cards(hand, drawn):
    # a draw that is not played looks the same to the table whether the hand held the
    # colour (a draw by choice) or the drawn card was playable and kept: the bits a
    # strategy reads are a function of the public history alone
    # (docs/strategies.md#seen-to-lack)
    g = craft("random", hand, draw=(drawn,) * 20)
    g.apply("draw")
    if g.phase == "drawn":
        g.apply("pass")  # keep the playable drawn card
    assert int(g.G[L.OFF_H + L.HC_LACKS]) == 1  # red, in all three
    assert int(g.G[L.OFF_PUB]) & 1 == 1


def test_receiving_a_card_clears_what_the_table_knows():
    g = craft("random", ["g7", "b9"], hands={1: ["b2", "b5", "bdraw2"]}, draw=("y9",) * 20)
    g.apply("draw")
    assert int(g.G[L.OFF_H + L.HC_LACKS]) == 1
    g.set_hand(3, ["rdraw2", "g1"])  # seat 3 plays a Draw Two on seat 0
    g.set_turn(3, colour="red")
    g.apply("rdraw2")
    assert g.hand_size(0) == 5
    assert int(g.G[L.OFF_H + L.HC_LACKS]) == 0


# ----------------------------------------------------------------- parameters


def challenge_state(strategy: str, offender_hand: list[str], discard=()) -> Game:
    """Seat 0 played a Wild Draw Four over red and named blue; seat 1 decides."""
    g = craft(strategy, ["g1", "y2", "g5"], top="wild4", actor=1, colour="blue",
              phase="challenge", hands={0: offender_hand}, discard=tuple(discard),
              pending=4, pending_kind=4, last=0, prev_colour=0, bluff=0)
    return g


def test_challenge_never_always_and_a_probability():
    """never and always by 60 draws each; challenge=0.5 by 2,000 draws, whose share must
    lie in 0.45..0.55: 4.5 standard errors (se 1.1 points), a false alarm about once in
    130,000; it detects a probability off by 6 points (0.44 or 0.56) with 80% power."""
    hand = ["g2", "g3", "y4", "y5", "b6"]
    assert choices(challenge_state("random:challenge=never", hand)) == {"accept"}
    assert choices(challenge_state("random:challenge=always", hand)) == {"challenge"}
    g = challenge_state("random:challenge=0.5", hand)
    seen = [g.choose() for _ in range(2000)]
    assert 0.45 < seen.count("challenge") / len(seen) < 0.55


def test_informed_challenge_reads_the_cards_seen():
    five = ["g2", "g3", "y4", "y5", "b6"]
    # five unknown cards, most red cards unseen: likely held red -> challenge
    assert choices(challenge_state("random:challenge=informed", five)) == {"challenge"}
    # seen lacking red since it last got a card: the play was legal -> accept
    g = challenge_state("random:challenge=informed", five)
    g.G[L.OFF_H + 0 * L.HW + L.HC_LACKS] = 1
    assert choices(g) == {"accept"}
    # every red card already on the discard pile: none can be held -> accept
    reds = [f"r{x}" for x in ["0"] + [str(i) for i in range(1, 10)] * 2]
    reds += ["rskip", "rskip", "rreverse", "rreverse", "rdraw2", "rdraw2"]
    g = challenge_state("random:challenge=informed", five, discard=reds)
    assert choices(g) == {"accept"}
    # one card left, 25 red among ~90 unseen: 28% > 20% -> challenge
    assert choices(challenge_state("attacker:challenge=informed", ["g2"])) == {"challenge"}


def test_forget_parameter_costs_the_uno_penalty():
    rules = resolve([], [("uno_catch_prob", 1.0)])
    g = craft("random:forget=1", ["r2", "g9"], rules=rules)
    g.apply(g.choose())  # r2, one card left, forgets, is caught
    assert g.hand_size(0) == 1 + 2
    g = craft("random:forget=0", ["r2", "g9"], rules=rules)
    g.apply(g.choose())
    assert g.hand_size(0) == 1


@pytest.mark.parametrize("text,label", [
    ("offensive:bluff=0.3,challenge=0.5", "offensive:bluff=0.3,challenge=0.5"),
    ("attacker:challenge=informed", "attacker:challenge=informed"),
    ("colour-keeper:challenge=always,forget=0", "colour-keeper:challenge=1,forget=0"),
    ("random:challenge=never", "random:challenge=0"),
])
def test_parameters_parse_and_label(text, label):
    assert parse_strategy(text).label() == label


@pytest.mark.parametrize("text", ["random:challenge=sometimes", "random:bluff=informed",
                                  "random:challenge=1.5", "nope", "random:x=1"])
def test_bad_parameters_are_one_line_errors(text):
    with pytest.raises(UnosimError) as e:
        parse_strategy(text)
    assert "\n" not in str(e.value)


# ----------------------------------------------------------------- every phase


@pytest.mark.parametrize("name", RULE_BASED)
def test_every_builtin_stacks_and_takes_optional_actions(name):
    stacking = resolve(["stacking"])
    g = craft(name, ["bdraw2", "r1"], top="rdraw2", rules=stacking, actor=1, phase="penalty",
              pending=2, pending_kind=2, hands={0: ["g1", "g2"]})
    assert choices(g, 10) == {"bdraw2"}
    g = craft(name, ["r1"], top="rdraw2", rules=stacking, actor=1, phase="penalty",
              pending=2, pending_kind=2, hands={0: ["g1", "g2"]})
    assert choices(g, 10) == {"take"}
    jump = resolve(["jump-in"])
    g = craft(name, ["r3", "g1"], top="r3", rules=jump, actor=2, phase="jump")
    assert choices(g, 10) == {"r3"}
    g = craft(name, ["g1", "b2", "b4"], top="r3", actor=2, phase="drawn", drawn=0)
    g.set_hand(2, ["r0", "g1"])
    assert choices(g, 10) == {"r0"}


@pytest.mark.parametrize("name", RULE_BASED)
def test_every_builtin_picks_targets_and_gives_cards(name):
    seven = resolve(["seven-o"])
    g = craft(name, ["g1", "b2"], top="r7", rules=seven, phase="target", target_kind=7,
              hands={1: ["g8", "y9", "y2"], 2: ["b7"], 3: ["b8", "g6"]})
    assert choices(g, 10) == {"target:2"}  # the opponent with the fewest cards
    five = resolve(["swap-on-five"])
    g = craft(name, ["g1", "bskip", "wild"], top="r5", rules=five, phase="give",
              target_kind=5, target=1)
    assert choices(g, 10) == {"give:wild"}  # the highest-value card
