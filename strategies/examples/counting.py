"""A card counter, in Python and compiled (docs: Write a strategy).

It remembers how many cards of each colour were played this round (every seat's
plays reach it through ``observe``) and, on its turn, plays the coloured card of
the colour most played so far, the one the others are least likely to hold, then
a wild naming the colour it holds most, else the first legal move. ``weight``
trades that memory against keeping its own colours: a card scores ``weight x
played of its colour + cards held of it``. Both versions choose the same move in
every state, so they play the same games for the same seed.

    unosim --strategy-file strategies/examples/counting.py:ColourCounter --seat 0=ColourCounter
    unosim --strategy-file strategies/examples/counting.py:colour_counter --seat 0=colour_counter
"""

import numba

from unosim.strategies import api

COLOURS = "rygb"


class ColourCounter:
    PARAMS = {"weight": (0.0, 10.0, 1.0)}  # (low, high, default): tune searches the range
    weight = 1.0

    def new_game(self, view):
        self.played = [0, 0, 0, 0]

    def observe(self, event):
        if event.kind == "play" and event.card[0] in COLOURS:
            self.played[COLOURS.index(event.card[0])] += 1

    def choose(self, view):
        if view.phase != "turn":
            return view.legal[0]
        held = [sum(c[0] == k for c in view.hand) for k in COLOURS]
        plays = [m for m in view.legal if m[0] in COLOURS]
        if plays:
            return max(plays, key=lambda m: self.weight * self.played[COLOURS.index(m[0])]
                       + held[COLOURS.index(m[0])])
        wilds = [m for m in view.legal if m.startswith("wild")]
        if wilds:
            best = max(range(4), key=lambda k: (held[k], -k))
            return next(m for m in wilds if m.endswith(":" + ("red", "yellow", "green",
                                                              "blue")[best]))
        return view.legal[0]


# ---- the same strategy, compiled: memory in the seat's block, events through a hook


@numba.njit
def colour_counter_new_game(G, seat):
    """A new round: the seat's memory is already zeroed; nothing else to set."""


@numba.njit
def colour_counter_observe(G, seat, kind, who, a, b):
    """Every public event reaches every seat that observes: count coloured plays."""
    if kind == api.EV_PLAY:
        t = api.type_of(a)
        if t < api.WILD:
            api.memory(G, seat)[t // api.N_RANKS] += 1


@numba.njit
def colour_counter(G, rng):
    p = G[api.S_ACTOR]
    n = api.legal_moves(G)
    if G[api.S_PHASE] != api.PH_TURN:
        m = G[api.OFF_MOVES]
        return api.with_colour(m, 0) if api.WILD <= m < api.MV_PLAY_END else m
    played = api.memory(G, p)
    best, best_score = -1, -1.0
    for i in range(n):
        m = G[api.OFF_MOVES + i]
        if m < api.WILD:
            c = m // api.N_RANKS
            score = 1.0 * played[c] + api.colour_count(G, p, c)
            if score > best_score:
                best, best_score = m, score
    if best >= 0:
        return best
    for i in range(n):
        m = G[api.OFF_MOVES + i]
        if api.WILD <= m < api.MV_PLAY_END:
            top = 0
            for c in range(1, 4):
                if api.colour_count(G, p, c) > api.colour_count(G, p, top):
                    top = c
            return api.with_colour(m, top)
    return G[api.OFF_MOVES]
