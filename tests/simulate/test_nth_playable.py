"""``nth_playable``, the pick of ``random``, against the legal-move list.

It finds the k-th playable card of the current colour from the hand's packed colour
column (layout.HC_NIBS) when the hand holds fewer than 8 cards of the colour, and by
scanning the counts otherwise; then the same rank in the other colours, then the
wilds. Crafted hands of 0 to 14 cards of the colour (both ways), with and without
Wild Draw Fours and with a wild or a coloured top card, must walk the cards in the
order of ``legal_moves``, each physical card once, for every k. The random playouts
(tests/simulate/test_playouts.py) check the same on every turn of real rounds.
"""

from __future__ import annotations

import random

from unosim.runs.game import Game
from unosim.simulate import layout as L
from unosim.simulate.cards import COLOURS, WILD_DRAW_FOUR, card_name
from unosim.simulate.rules import resolve
from unosim.simulate.step_nb import legal_moves, nth_playable, wd4_is_legal
from unosim.strategies.registry import parse_strategy

LETTERS = "rygb"


def expanded_plays(G, p: int, bluff: bool) -> list[int]:
    n = legal_moves(G)
    cards = [int(G[L.OFF_MOVES + i]) for i in range(n)
             for _ in range(int(G[L.OFF_WEIGHTS + i])) if G[L.OFF_MOVES + i] < L.MV_PLAY_END]
    return [t for t in cards if bluff or t != WILD_DRAW_FOUR or wd4_is_legal(G, p)]


def test_kth_playable_card_follows_the_legal_moves():
    rnd = random.Random(48)
    g = Game(resolve([]), [parse_strategy("random")] * 4, seed=1)
    seen_long = seen_short = 0
    for _ in range(400):
        colour = rnd.randrange(4)
        n_colour = rnd.randrange(15)
        hand = [LETTERS[colour] + card_name(rnd.randrange(13))[1:] for _ in range(n_colour)]
        hand += [card_name(rnd.randrange(52)) for _ in range(rnd.randrange(6))]
        hand += [rnd.choice(["wild", "wild4"]) for _ in range(rnd.randrange(3))]
        top = rnd.choice(["wild", card_name(rnd.randrange(52))])
        g.set_hand(0, hand).set_piles(discard=[top]).set_turn(0, colour=COLOURS[colour])
        held = int(g.G[L.OFF_H + L.HC_COLOUR + colour])
        seen_long += held >= 8
        seen_short += 0 < held < 8
        for bluff in (True, False):
            seq = expanded_plays(g.G, 0, bluff)
            assert [nth_playable(g.G, 0, bluff, k) for k in range(len(seq))] == seq, hand
            assert nth_playable(g.G, 0, bluff, len(seq)) == -1
    assert seen_long > 50 and seen_short > 100  # both ways of finding the colour's card
