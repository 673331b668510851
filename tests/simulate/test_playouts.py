"""Random playouts: every preset and random rule combinations keep the invariants.

After every single move: cards are conserved, each hand's derived columns
(colour counts, size, points) agree with its cards, the O(1) playable count
agrees with the legal-move list, and the strategy only ever chose a legal move
(``Game.apply`` refuses anything else). Every round ends with exactly one winner
holding no cards, or is reported as capped. The checks are ``unosim selfcheck``'s
own (``check_state``, ``check_end``), so CI and the long self-check test one thing.
"""

from __future__ import annotations

import random

import pytest

from unosim.checks.combos import random_overrides
from unosim.checks.invariants import check_end, check_state
from unosim.errors import UnosimError
from unosim.runs.game import Game
from unosim.simulate import layout as L
from unosim.simulate.rules import preset_names, resolve
from unosim.strategies.registry import BUILTINS, parse_strategy

STRATS = [
    "random",
    "first",
    "defensive:bluff=0.5,challenge=0.5",
    "offensive:challenge=1,forget=0.3",
    "random:bluff=1",
    "random-colour:bluff=0.5,challenge=0.5",
    "colour-keeper:bluff=0.3,challenge=informed",
    "attacker:challenge=informed,forget=0.2",
    "weighted",
    "weighted:draw=5,wild=2,next_lacks=-3,col_lack=-4,mobility=-1,bluff=0.3",
    "adaptive:cards=3,points=80,challenge=informed",
    "gang-up:cards=4,bluff=0.5",
    "tuned:forget=0.1",
    "search:rollouts=4,bluff=0.3,forget=0.1",
    "search:rollouts=3,policy=attacker,challenge=informed",
    "card-counter:bluff=0.3,forget=0.2",
]


def play_checked(rules, seats, seed, index) -> Game:
    g = Game(rules, seats, seed=seed, game_index=index)
    deck_size = int(g.G[L.R_DECK_SIZE])
    check_state(g, deck_size)
    while not g.over:
        if g.stat("turns") >= rules["turn_cap"]:
            break
        g.step()
        check_state(g, deck_size)
    if g.over:
        check_end(g, rules)
    return g


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("players", [2, 4, 10])
def test_presets_keep_invariants(preset, players):
    rules = resolve([preset], [("players", players)])
    rnd = random.Random(f"{preset}-{players}")
    for k in range(12):
        seats = [parse_strategy(rnd.choice(STRATS)) for _ in range(players)]
        play_checked(rules, seats, seed=7, index=k)


def _random_rules(rnd: random.Random):
    """A random valid rule set drawn as ``unosim selfcheck`` draws them (retry
    when the combination is refused by validation)."""
    while True:
        try:
            return resolve([], list(random_overrides(rnd).items()))
        except UnosimError:
            continue


@pytest.mark.slow
def test_random_rule_combinations_keep_invariants():
    rnd = random.Random(2026)
    for combo in range(60):
        rules = _random_rules(rnd)
        seats = [parse_strategy(rnd.choice(STRATS)) for _ in range(rules["players"])]
        for k in range(4):
            play_checked(rules, seats, seed=combo, index=k)


def test_every_builtin_is_exercised():
    assert {s.split(":")[0] for s in STRATS} == set(BUILTINS)
