"""The card counter: the strongest published rule-based heuristic, written from its
description (docs/strategies.md#card-counter). Compiled.

It observes every public event of the round (``counter_observe``) and keeps, in its
seat's memory block (``layout.OFF_MEM``), what it has seen. Its decisions:
``counter_move``.
"""

from __future__ import annotations

from unosim.simulate import layout as L
from unosim.simulate.jit import kernel
from unosim.strategies.builtin_nb import COUNTER, RANDOM, _choose


@kernel
def counter_observe(G, q, kind, who, a, b):
    """Seat ``q`` hears one public event (kind, who, a, b)."""
    base = L.OFF_MEM + q * L.MEM_WORDS
    G[base] += 1


@kernel
def counter_move(G, rng):
    """The counter's move for the seat to act."""
    return _choose(RANDOM, G, rng)


@kernel
def observe_builtin(sid, G, q, kind, who, a, b):
    """Built-in ``sid`` at seat ``q`` hears one event (only the ones that observe do)."""
    if sid == COUNTER:
        counter_observe(G, q, kind, who, a, b)
