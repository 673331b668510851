"""Stand-ins for the rule steps a table's rules never reach, and which tables those are.

The quick round kernel (runs/quick.py) is the round with these in place of the house
rules' steps (Seven-O, swaps and trades, jump-in, silent twos), the Reverse that
sends a penalty back and leaving the table under elimination: Numba then compiles
none of them, and a first run of such a table waits for half the compile. Which
steps a table reaches is the step contract's business, so it is said here, beside
it: ``leaves_out`` reads the rules from a game array as ``deal`` and the legal
moves do.

A stand-in is never reached at a table ``leaves_out`` accepts. Were it reached, it
ends the round as a capped one marked ``REACHED`` in its ``capped`` column (a
real cap writes 1), which the quick batch turns into an error: a wrong check shows,
it never becomes a figure.
"""

from __future__ import annotations

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate import step_nb
from unosim.simulate.jit import kernel

#: the ``capped`` value of a round that reached a stand-in
REACHED = 2


@kernel
def _reached(G):
    G[L.S_CAPPED] = REACHED
    G[L.S_PHASE] = L.PH_OVER


@kernel
def _no_house_decisions(G, RNG, p, t):
    _reached(G)
    return True


@kernel
def _no_card_step(G, RNG, p, t):
    _reached(G)


@kernel
def _no_window(G, RNG):
    _reached(G)


def standins() -> dict[object, object]:
    """The steps the quick kernel leaves out -> their stand-ins."""
    # one stand-in for each shape of step
    cards = (step_nb._target_chosen, step_nb._give_chosen, step_nb._reverse_deflect,
             step_nb._leave_table)
    windows = (step_nb._open_window, step_nb._offer_jump)
    return {step_nb._house_decisions: _no_house_decisions,
            **dict.fromkeys(cards, _no_card_step), **dict.fromkeys(windows, _no_window)}


def leaves_out(template: np.ndarray) -> bool:
    """Whether a table with these rules (a game array from ``rules.lower``) never
    reaches the steps of ``standins``: no house rule that ``deal`` counts in
    ``OFF_HOUSE`` (the only way into the decisions on a 7, 5 or Swap Hands and into
    the jump-in window), no Reverse offered against a penalty (``_penalty_answers``)
    and no elimination (``_hand_emptied``)."""
    return bool(not step_nb.house_acts.py_func(template)
                and template[L.R_REVERSE_DEFLECT] == 0 and template[L.R_ELIMINATION] == 0)
