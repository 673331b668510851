"""Fit the weights of the search's ``value=learned`` (search_nb.LEARNED_WEIGHTS).

    python bench/leaf_value.py [--rounds 200000] [--seed 99]

For 2, 3 and 4 players, plays ``--rounds`` rounds of ``random`` players under the
official rules; in each, at the first turn from a turn between 16 and 55 (the round's
index picks it), it notes every seat's features (the search's ``leaf_features``: the log
of its cards to play, the seat to act half a card closer; to act; wilds; Draw Twos;
Skips and Reverses; holds the current colour; colours held; acts next), then plays
on and notes who won. A round over before its turn is left out. The weights are
fitted by maximum likelihood (Newton's method) to the winner, each seat's chance
exp(score) over the sum, on four fifths of the rounds; the last fifth gives the
held-out log-likelihood a round, of the weights and of the default value (the share
of 1/d**2, which is the same form with -2 on the log of the cards alone).
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit

from unosim.runs.runner import game_template
from unosim.runs.tables import base_seed
from unosim.simulate import layout as L
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.rules import resolve
from unosim.simulate.step_nb import apply_called, deal
from unosim.strategies.builtin_nb import _choose
from unosim.strategies.registry import parse_strategy
from unosim.strategies.search_nb import leaf_features

N_FEATURES = 8


@njit
def _features(G, F, a):
    """Every seat's features (the search's ``leaf_features``) into ``F`` (players x
    N_FEATURES), ``a`` to act."""
    for q in range(G[L.R_PLAYERS]):
        f = leaf_features(G, q, a)
        for i in range(N_FEATURES):
            F[q, i] = f[i]


@njit
def _collect(template, seed, rounds, F, Y):
    G = template.copy()
    RNG = np.zeros(8, np.uint64)
    for g in range(rounds):
        G[:] = template
        seed_game(seed, g, RNG)
        deal(G, RNG)
        cut = 16 + g % 40
        noted = False
        while G[L.S_PHASE] != L.PH_OVER and G[L.S_WINNER] < 0 and G[L.S_TURNS] < 3000:
            if not noted and G[L.S_TURNS] >= cut and G[L.S_PHASE] == L.PH_TURN:
                _features(G, F[g], G[L.S_ACTOR])
                noted = True
            apply_called(G, RNG, _choose(G[L.OFF_STRAT + G[L.S_ACTOR]], G, RNG))
        Y[g] = G[L.S_WINNER] if noted else -1


def log_likelihood(w: np.ndarray, F: np.ndarray, Y: np.ndarray) -> float:
    """The mean log-probability of the winners under the weights ``w``."""
    s = F @ w
    s -= s.max(axis=1, keepdims=True)
    lp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    return float(lp[np.arange(len(Y)), Y].mean())


def fit(F: np.ndarray, Y: np.ndarray, steps: int = 30) -> np.ndarray:
    """Maximum-likelihood weights (Newton's method from the default value's)."""
    n, players, k = F.shape
    w = np.zeros(k)
    w[0] = -2.0
    for _ in range(steps):
        s = F @ w
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        mean = (p[:, :, None] * F).sum(axis=1)
        grad = (F[np.arange(n), Y] - mean).sum(axis=0)
        hess = np.zeros((k, k))
        for q in range(players):
            d = F[:, q] - mean
            hess -= (p[:, q, None] * d).T @ d
        w = w - np.linalg.solve(hess - 1e-6 * np.eye(k), grad)
    return w


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=99)
    a = ap.parse_args()
    rows = []
    for players in (2, 3, 4):
        rules = resolve([], [("players", players)])
        template = game_template(rules, [parse_strategy("random")] * players)
        F = np.zeros((a.rounds, players, N_FEATURES))
        Y = np.zeros(a.rounds, np.int64)
        _collect(template, base_seed(a.seed), a.rounds, F, Y)
        keep = Y >= 0
        F, Y = F[keep], Y[keep]
        cut = len(Y) * 4 // 5
        w = fit(F[:cut], Y[:cut])
        cards = np.zeros(N_FEATURES)
        cards[0] = -2.0
        print(f"{players} players: {len(Y):,} rounds; held-out log-likelihood a round: "
              f"{log_likelihood(w, F[cut:], Y[cut:]):.4f} learned, "
              f"{log_likelihood(cards, F[cut:], Y[cut:]):.4f} by the cards left")
        rows.append(w)
    print("LEARNED_WEIGHTS =", np.array2string(np.round(np.array(rows), 3), separator=", "))


if __name__ == "__main__":
    main()
