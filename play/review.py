"""The review of a round: each of the person's decisions beside the search's
choice, both estimated by re-running the search at the state the decision was
taken in, with the generator its hint had (so a row shows what a hint there
showed), and the cost of the difference."""

from __future__ import annotations

from dataclasses import dataclass

from unosim.play import hints
from unosim.play.history import Decision

#: how many of the costliest decisions the review highlights
WORST = 3


@dataclass(frozen=True)
class Row:
    """A decision: the move made and the search's choice, each with its figure."""

    decision: Decision
    made: hints.Figure
    best: hints.Figure

    @property
    def cost(self) -> float:
        """The search's choice's estimate less the move made's: 0 where they are the
        same move; it may come out below 0 where both were searched (the noise of
        the rollouts, or halving giving the dropped move fewer)."""
        if self.made.move == self.best.move:
            return 0.0
        return self.best.estimate - self.made.estimate


def review(decisions: list[Decision], seed: int, round_: int,
           rollouts: int = hints.ROLLOUTS) -> list[Row]:
    """One row per decision, in the order taken. A move the search prunes is
    scored alone, with as many rollouts as the search's choice had."""
    rows = []
    for d in decisions:
        rng = hints.generator(seed, round_, d.index)
        h = hints.hint(d.G, rng, d.legal, rollouts)
        best = h.of(h.best)
        made = h.of(d.move)
        if not made.searched:
            made = hints.alone(d.G, rng, d.move, best.rollouts)
        rows.append(Row(d, made, best))
    return rows


def worst(rows: list[Row], n: int = WORST) -> set[int]:
    """The indices of the ``n`` rows that cost the most (only rows that cost)."""
    costly = sorted((i for i, r in enumerate(rows) if r.cost > 0),
                    key=lambda i: (-rows[i].cost, i))
    return set(costly[:n])
