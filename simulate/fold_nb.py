"""Folding a batch of per-game records into integer totals, compiled.

Folding with numpy (a pass, a cast and a ``bincount`` per metric) took about 11%
of a one-core run and ran on one thread while the others waited; one compiled
pass over the rows takes a tenth of that. All totals are integer sums, so the
result is the same whatever order the rows are folded in.
"""

from __future__ import annotations

from unosim.simulate import layout as L
from unosim.simulate.jit import kernel


@kernel(share="folds", kinds="OiGBTTTT")
def fold_records(rec, players, cols, won_only, stats, hist, seats, places):
    """Add the rows of ``rec`` (int32[n, N_G]) into the totals; return how many
    were capped.

    Metric ``k`` is column ``cols[k]`` (over the games with a winner only when
    ``won_only[k]``): ``stats[k]`` gets (count, sum, sum of squares) and
    ``hist[k]`` the value's bin, the last bin holding it and everything above.
    ``seats`` rows are wins, hand points and stage reached per seat;
    ``places[seat, k]`` counts finishes in place ``k`` (elimination; a game
    without places, or a capped one, adds nothing).
    """
    n_bins = hist.shape[1]
    capped = 0
    for i in range(rec.shape[0]):
        won = rec[i, L.G_CAPPED] == 0
        if won:
            seats[0, rec[i, L.G_WINNER]] += 1
        else:
            capped += 1
        for k in range(cols.shape[0]):
            if won_only[k] and not won:
                continue
            v = int(rec[i, cols[k]])
            stats[k, 0] += 1
            stats[k, 1] += v
            stats[k, 2] += v * v
            b = v if v < n_bins - 1 else n_bins - 1
            hist[k, b if b > 0 else 0] += 1
        for q in range(players):
            seats[1, q] += rec[i, L.G_POINTS + q]
            seats[2, q] += rec[i, L.G_STAGES + q]
            if rec[i, L.G_PLACES + q] > 0:
                places[q, rec[i, L.G_PLACES + q]] += 1
    return capped


@kernel(share="folds", kinds="OTG")
def fold_feel(rec, sums, hist):
    """Add the game-feel columns of the rows of ``rec`` that have a winner (capped
    rounds are left out, docs/metrics.md#game-feel): ``sums[k]`` gets (sum, sum of
    squares) of metric ``k``, ``hist`` the winner_max_deficit bins (the last holds the
    rest). Returns how many rounds were counted."""
    n_bins = hist.shape[0]
    counted = 0
    for i in range(rec.shape[0]):
        if rec[i, L.G_CAPPED] != 0:
            continue
        counted += 1
        for k in range(L.N_G - L.G_FEEL):
            v = int(rec[i, L.G_FEEL + k])
            sums[k, 0] += v
            sums[k, 1] += v * v
        b = int(rec[i, L.G_FEEL + 1])
        hist[b if b < n_bins - 1 else n_bins - 1] += 1
    return counted
