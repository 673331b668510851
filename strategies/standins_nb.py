"""Stand-ins for the built-ins' choices a table's seats never make, and which seats
those are (the quick round kernel, runs/quick.py; the engine's side is
simulate/standins_nb.py).

``random``, ``first``, ``defensive`` and ``offensive`` never read the table as the
colour keeper and the attacker do, nor name a colour at random as ``random-colour``
does: a table of those alone leaves those choices out. A stand-in, were it reached,
marks the round as the engine's stand-ins do (``REACHED``) and draws.
"""

from __future__ import annotations

from unosim.simulate import layout as L
from unosim.simulate.jit import kernel
from unosim.simulate.standins_nb import _reached
from unosim.simulate.step_nb import at
from unosim.strategies import builtin_nb as B
from unosim.strategies.builtin_nb import choose_plain

#: the built-ins a table of the quick kernel may seat
SEATS = frozenset({B.RANDOM, B.FIRST, B.DEFENSIVE, B.OFFENSIVE})


@kernel
def _no_table_play(sid, G, p, n, bluff_ok, rng):
    _reached(G)
    return -1


@kernel
def _no_colour_move(G, rng, ph, p):
    _reached(G)
    return L.MV_DRAW


@kernel
def _no_attacker_colour(G, p, m, rng):
    _reached(G)
    return m


@kernel
def _no_attack_colour(G, p, rng):
    _reached(G)
    return 0


@kernel(share="quick-choices", kinds="GR")
def choose_seat(G, rng):
    """The seat to act's choice (``choose_plain``) behind a call: the quick kernel's
    chooser, so that the command compiles it beside the helper instead of inlining
    it into the round after the helper is done (the round is the last thing a
    first run compiles, alone)."""
    # entries_nb.plain_choose's one line, not a call of it: the quick copy swaps that
    # for this kernel, so a call would become a call of itself
    return choose_plain(G[at(L.OFF_STRAT + G[L.S_ACTOR])], G, rng)


def standins() -> dict[object, object]:
    """The choices the quick kernel leaves out -> their stand-ins."""
    return {
        B._pick_table_play: _no_table_play,
        B.random_colour_move: _no_colour_move,
        B._attacker_colour: _no_attacker_colour,
        B.attack_colour: _no_attack_colour,
    }


def leaves_out(strategy_ids: list[int]) -> bool:
    """Whether seats of these built-in ids make none of the choices of ``standins``."""
    return all(sid in SEATS for sid in strategy_ids)
