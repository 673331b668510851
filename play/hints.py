"""The search player's estimate for each legal move of the person's decision: the
search (strategies/search_nb.py) run at the state as it stands, from what the
person's seat (the seat to act; in a match, whichever the deal gave them) knows
only, with that seat's search parameters and a generator fixed by the table's seed,
the round and the decision's index (the same table gives the same hints).

A candidate's figure is what the search adds up to choose: the value of each of
its rollouts (a win 1, a loss 0, a rollout cut after its depth valued by the search's
estimate of the chance to win from there), averaged: an estimate of the chance to win
the round.
Its 95% interval is Wilson's on that average as if each rollout were a win or a
loss (a value between 0 and 1 varies no more than that, so the interval errs wide).
Moves the search prunes get no figure here ("not searched"); the review scores a
pruned move the person played on its own (``alone``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from unosim.common import wilson
from unosim.simulate import layout as L
from unosim.simulate.cards import WILD, WILD_DRAW_FOUR
from unosim.simulate.moves import type_of
from unosim.strategies.python import MOVE_CODES
from unosim.strategies.search_nb import VALUE_UNIT, move_figure, search_figures

#: rollouts per hint unless the table says otherwise (--hint-rollouts): a dozen times
#: the search player's default, for intervals of a few points, still a fraction of a
#: second a hint
ROLLOUTS = 10_000
#: keeps the hints' generators apart from every game's (spawn keys of the table's seed)
_HINT_KEY = 0x68696E74


@dataclass(frozen=True)
class Figure:
    """One legal move's estimate: ``value`` (the rollouts' summed values, in the
    search's units) over ``rollouts`` rollouts; 0 rollouts: not searched."""

    move: str
    value: int = 0
    rollouts: int = 0
    #: scored on its own, outside the search's candidates (a pruned move, in a review)
    alone: bool = False
    #: the most one rollout is worth, in rollouts won (see ``Hint.placing``)
    per: int = 1

    @property
    def searched(self) -> bool:
        return self.rollouts > 0

    @property
    def estimate(self) -> float:
        """The average rollout value: the estimated chance to win the round."""
        if not self.rollouts:
            return float("nan")
        return self.value / (self.rollouts * self.per * VALUE_UNIT)

    def interval(self) -> tuple[float, float]:
        """The 95% interval of ``estimate`` (Wilson's, see the module's docstring)."""
        return wilson(self.value / (self.per * VALUE_UNIT), self.rollouts)


@dataclass(frozen=True)
class Hint:
    """The figures of a decision's legal moves, in the order of the list, and the
    move the search plays there."""

    figures: tuple[Figure, ...]
    best: str
    #: elimination after the first seat out: a figure is then the share of the other
    #: seats still playing that the person finishes ahead of, not a chance to win
    placing: bool = False

    def of(self, move: str) -> Figure:
        return next(f for f in self.figures if f.move == move)


#: about how long the search's kernels take to compile on a first hint or review,
#: in seconds (they are not among the paths ``unosim compile`` builds)
COMPILE_S = (15, 45)


def compiled(review: bool = False) -> bool:
    """Whether a hint (or, with ``review``, a review) starts at once: the search's
    kernels it calls are loaded in this process already, or Numba's cache holds
    them for this machine (else they compile first)."""
    import os

    from unosim.compiler.cache import is_cached

    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return True
    kernels = [search_figures, move_figure] if review else [search_figures]
    return all(getattr(k, "signatures", None) or is_cached(k) for k in kernels)


def compile_notice(what: str = "hint") -> str:
    """What the screen says while the first hint (or review: ``what``) compiles the
    search."""
    lo, hi = COMPILE_S
    return (f"compiling the search for this machine (first {what} only, about {lo} to "
            f"{hi} s)...")


def generator(seed: int, round_: int, decision: int) -> np.ndarray:
    """The hint generator of decision ``decision`` (counted from 0) of round
    ``round_`` at a table of seed ``seed``: apart from every game's own."""
    seq = np.random.SeedSequence(seed, spawn_key=(_HINT_KEY, round_, decision))
    return seq.generate_state(8, np.uint64)


def _prepared(G: np.ndarray, rollouts: int) -> np.ndarray:
    """A copy of the game to search on, with the seat to act's rollout budget."""
    G2 = G.copy()
    G2[L.OFF_SP + int(G2[L.S_ACTOR]) * L.N_SP + L.SP_ROLLOUTS] = rollouts
    return G2


def code_of(G: np.ndarray, move: str) -> int:
    """The code the search's candidates list ``move`` under: where the rotation sets
    the colour (color_rotation) a Wild or Wild Draw Four names none."""
    code = MOVE_CODES[move]
    if G[L.R_COLOR_ROTATION] != 0 and 0 <= code < L.MV_PLAY_END and type_of(code) in (
            WILD, WILD_DRAW_FOUR):
        return int(type_of(code))
    return code


def _per(G: np.ndarray) -> int:
    """What one rollout is worth at most, in the search's units: a win; once a seat
    is out under elimination, finishing ahead of every other seat still playing."""
    if G[L.S_WINNER] < 0:
        return 1
    left = sum(1 for q in range(int(G[L.R_PLAYERS])) if G[L.OFF_H + q * L.HW + L.HC_PLACE] == 0)
    return max(1, left - 1)


def hint(G: np.ndarray, RNG: np.ndarray, legal: tuple[str, ...],
         rollouts: int = ROLLOUTS) -> Hint:
    """The search's figures at the decision of ``G`` (for the seat to act), on
    copies: ``RNG`` is the hint's generator (``generator``), used as the search
    would use the game's."""
    G2 = _prepared(G, rollouts)
    k, best = search_figures(G2, RNG.copy())
    cands = [int(c) for c in G2[L.OFF_CAND:L.OFF_CAND + k]]
    per = _per(G)
    figures = []
    for move in legal:
        code = code_of(G, move)
        if code in cands:
            i = cands.index(code)
            figures.append(Figure(move, int(G2[L.OFF_SCORE + i]), int(G2[L.OFF_TRIED + i]),
                                  per=per))
        else:
            figures.append(Figure(move))
    best_code = cands[best]
    chosen = next(m for m in legal if code_of(G, m) == best_code)
    return Hint(tuple(figures), chosen, bool(G[L.S_WINNER] >= 0))


def alone(G: np.ndarray, RNG: np.ndarray, move: str, rollouts: int) -> Figure:
    """A move the search prunes, scored as the search scores a candidate: the same
    generator, ``rollouts`` rollouts of that move alone."""
    G2 = _prepared(G, rollouts)
    move_figure(G2, RNG.copy(), MOVE_CODES[move], rollouts)
    return Figure(move, int(G2[L.OFF_SCORE]), int(G2[L.OFF_TRIED]), alone=True, per=_per(G))
