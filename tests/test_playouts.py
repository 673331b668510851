"""Random playouts: every preset and random rule combinations keep the invariants.

After every single move: cards are conserved, each hand's derived columns
(colour counts, size, points) agree with its cards, the O(1) playable count
agrees with the legal-move list, and the strategy only ever chose a legal move
(``Game.apply`` refuses anything else). Every round ends with exactly one winner
holding no cards, or is reported as capped.
"""

from __future__ import annotations

import random

import pytest

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.simulate.cards import N_RANKS, POINTS, WILD_DRAW_FOUR
from unosim.simulate.game import Game
from unosim.simulate.rules import SCHEMA, preset_names, resolve
from unosim.simulate.step_nb import count_playable, legal_moves, wd4_is_legal
from unosim.strategies.registry import BUILTINS, parse_strategy

STRATS = [
    "random",
    "first",
    "defensive:bluff=0.5,challenge=0.5",
    "offensive:challenge=1,forget=0.3",
    "random:bluff=1",
    "colour-keeper:bluff=0.3,challenge=informed",
    "attacker:challenge=informed,forget=0.2",
]


def check_invariants(g: Game, deck_size: int) -> None:
    G = g.G
    assert g.total_cards() == deck_size
    for p in range(g.players):
        h = lambda c, p=p: int(G[L.OFF_H + p * L.HW + c])  # noqa: E731
        counts = [h(t) for t in range(L.HC_COLOUR)]
        assert min(counts) >= 0
        assert sum(counts) == h(L.HC_SIZE)
        for c in range(4):
            assert sum(counts[c * N_RANKS : (c + 1) * N_RANKS]) == h(L.HC_COLOUR + c)
        assert sum(n * int(POINTS[t]) for t, n in enumerate(counts)) == h(L.HC_POINTS)
    assert G[L.S_PENDING] >= 0
    assert 0 <= g.actor < g.players
    if g.phase == "turn":
        p = g.actor
        n = legal_moves(G)
        plays = [(int(G[L.OFF_MOVES + i]), int(G[L.OFF_WEIGHTS + i])) for i in range(n)
                 if G[L.OFF_MOVES + i] < L.MV_PLAY_END]
        with_bluff = sum(w for _, w in plays)
        without = sum(w for t, w in plays if t != WILD_DRAW_FOUR or wd4_is_legal(G, p))
        assert count_playable(G, p, True) == with_bluff
        assert count_playable(G, p, False) == without


def play_checked(rules, seats, seed, index) -> Game:
    g = Game(rules, seats, seed=seed, game_index=index)
    deck_size = int(g.G[L.R_DECK_SIZE])
    check_invariants(g, deck_size)
    while not g.over:
        if g.stat("turns") >= rules["turn_cap"]:
            break
        g.step()
        check_invariants(g, deck_size)
    if g.over:
        n = g.players
        if rules["elimination"]:
            # places 1..n, the winner first; points were settled when it went out
            assert sorted(g.place(p) for p in range(n)) == list(range(1, n + 1))
            assert g.place(g.winner) == 1
            assert sum(g.hand_size(p) > 0 for p in range(n)) <= 1
        else:
            assert g.hand_size(g.winner) == 0
            assert sum(g.hand_size(p) == 0 for p in range(n)) == 1
            others = sum(g.hand_value(p) for p in range(n) if p != g.winner)
            expected = others if rules["scoring"] == "winner_takes" else 0
            assert g.winner_points() == expected
        if rules["seven_rounds"]:
            assert g.G[L.OFF_H + g.winner * L.HW + L.HC_STAGE] == 1
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
    """A random valid rule set: each key set with probability 1/2 (retry when the
    combination is refused by validation)."""
    while True:
        pick = {}
        for key, k in SCHEMA.items():
            if rnd.random() < 0.5 or key in ("turn_cap", "target_score"):
                continue
            if k.kind == "bool":
                pick[key] = rnd.choice([True, False])
            elif k.kind == "choice":
                pick[key] = rnd.choice(list(k.implemented or k.choices))
            elif k.kind == "float":
                pick[key] = rnd.choice([0.0, 0.3, 1.0])
            elif key == "uno_penalty":
                pick[key] = rnd.randint(0, 4)
            elif key.startswith("deck."):
                pick[key] = rnd.randint(max(0, k.default - 1), k.default + 1)
        players = rnd.randint(2, 10)
        pick["players"] = players
        pick["hand_size"] = rnd.randint(1, min(20, 100 // players))
        try:
            return resolve([], list(pick.items()))
        except UnosimError:
            continue


def test_random_rule_combinations_keep_invariants():
    rnd = random.Random(2026)
    for combo in range(60):
        rules = _random_rules(rnd)
        seats = [parse_strategy(rnd.choice(STRATS)) for _ in range(rules["players"])]
        for k in range(4):
            play_checked(rules, seats, seed=combo, index=k)


def test_every_builtin_is_exercised():
    assert {s.split(":")[0] for s in STRATS} == set(BUILTINS)
