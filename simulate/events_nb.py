"""The event stream, written by the step functions. Compiled.

Every seat sees the same things happen: a card played, cards drawn (how many, not
which), a challenge and its outcome, an UNO call, a swap. The step functions say
so with ``emit`` where it happens, and the table writes it to G's event ring only
while ``RF_EVENTS`` is on (a seat observes: a strategy's observe hook, a Python
strategy, the RL environment, ``unosim play``), so a table that nobody watches
pays one test per emission.

One kind is private: ``got``, a card that came into a seat's hand unseen by the
others (drawn, or received in a trade), one event per card in the order they
came. The readers of the ring hand it to that seat alone (the Python seats'
driver and views, the compiled plug-ins' watcher); the built-ins never read it.
Every other event is public, and nothing public may depend on a card nobody saw:
what a seat is asked privately (a jump-in it declines, a Skip it does not pass
on, the card it gives in a trade) is never an event.
"""

from __future__ import annotations

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate.jit import kernel, kernel_inline


@kernel
def write_event(G, kind, p, a, b):
    """Append (kind, seat, a, b) to the ring (``layout.OFF_EV``)."""
    n = G[L.OFF_EV_N]
    i = L.OFF_EV + (n % L.EV_CAP) * L.EV_WIDTH
    G[i] = kind
    G[i + 1] = p
    G[i + 2] = a
    G[i + 3] = b
    G[L.OFF_EV_N] = n + 1


@kernel_inline
def emit(G, kind, p, a, b):
    """An event, recorded when the table records them (``RF_EVENTS``)."""
    if G[L.RF_EVENTS] != 0:
        # plain int64, never literals: one compiled write_event for every call site
        write_event(G, np.int64(kind), np.int64(p), np.int64(a), np.int64(b))
