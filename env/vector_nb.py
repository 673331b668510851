"""The vector environment's kernels: N games stepped inside the compiled engine
between two decisions of the learner, so no Python runs per decision. Compiled.

Each game has its own row of ``Gs`` (the engine's game array) and ``RNGs`` (its
generators), its base seed ``keys[i]`` and game index ``games[i]``; a game that ends
is re-dealt from the next index of its seed, as unosim seeds a run. Between two
decisions the opponents play in the engine's one loop (``step_nb.play_until``); the
observation and the action mask are written by encode_nb.py's kernels, as in the AEC
environment.

``step_with`` / ``reset_with`` take the opponents' chooser as an argument and are
inlined: ``step_builtin`` / ``reset_builtin`` bind them to the built-ins without
parameters (cached), and the facade binds them to any other chooser per process.
"""

from __future__ import annotations

import numpy as np

from unosim.env import actions as A
from unosim.env.encode_nb import encode, fill_mask_of, to_move
from unosim.env.observation import OBS_SIZE
from unosim.env.prefetch_nb import prefetch
from unosim.runs.entries_nb import plain_choose
from unosim.simulate import layout as L
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.step_nb import (
    ILLEGAL,
    NO_READER,
    apply_called,
    deal,
    hand_value,
    play_until,
)

#: reward kinds
WIN = 0
POINTS = 1


@kernel_inline
def advance(choose, G, RNG, seat, checked, bad):
    """``play_until`` seat ``seat`` is to act, ``choose`` playing every other seat:
    its number of legal moves (in G[OFF_MOVES ..]), or -1 when the round ends or hits
    the cap. With ``checked`` (plug-in opponents) a move ``move_is_legal`` refuses is
    not applied: it goes to ``bad`` (move, phase, seat) and the result is ILLEGAL."""
    n, m = play_until(choose, apply_called, G, RNG, 1 << seat, NO_READER, checked)
    if n == ILLEGAL:
        bad[0] = m
        bad[1] = G[L.S_PHASE]
        bad[2] = G[L.S_ACTOR]
    return n


@kernel_inline
def next_game(choose, G, RNG, i, keys, games, learner, rotate, obs, masks, checked, bad):
    """Deal game ``games[i]`` of ``keys[i]`` into ``G`` and play to the learner's
    first decision (a round that ends before it is dealt again from the next index);
    write its observation and mask. Returns ILLEGAL when an opponent moved illegally
    (game ``i`` in ``bad[3]``), else 0."""
    n = -1
    while n < 0:
        seed_game(keys[i], games[i], RNG)
        if rotate:
            learner[i] = games[i] % G[L.R_PLAYERS]
        deal(G, RNG)
        n = advance(choose, G, RNG, learner[i], checked, bad)
        if n == ILLEGAL:
            bad[3] = i
            return ILLEGAL
        if n < 0:
            games[i] += 1
    encode(G, learner[i], obs[i])
    fill_mask_of(G, n, masks[i])
    return 0


@kernel_inline
def warm(Gs, RNGs, obs, masks, j):
    """Ask for the lines game ``j``'s step reads first (its state, rules, seats
    and hands, legal moves, generators, observation and mask rows)."""
    G = Gs[j]
    end = L.OFF_H + Gs[0, L.R_PLAYERS] * L.HW
    for k in range(0, end, 8):
        prefetch(G, k)
    prefetch(G, end - 1)
    prefetch(G, L.OFF_MOVES)
    prefetch(G, L.OFF_MOVES + 8)
    prefetch(G, L.OFF_WEIGHTS)
    prefetch(G, L.OFF_WEIGHTS + 8)
    prefetch(G, L.OFF_PUB)
    prefetch(G, L.OFF_FEEL_MODE)
    prefetch(G, L.OFF_HOUSE)
    prefetch(RNGs[j], 0)
    prefetch(RNGs[j], 7)
    o = obs[j]
    for k in range(0, OBS_SIZE, 16):
        prefetch(o, k)
    prefetch(o, OBS_SIZE - 1)
    m = masks[j]
    for k in range(0, A.N_ACTIONS, 64):
        prefetch(m, k)
    prefetch(m, A.N_ACTIONS - 1)


@kernel_inline
def warm_late(Gs, j):
    """The lines of game ``j`` found through its state: the discard pile's top."""
    G = Gs[j]
    prefetch(G, L.OFF_DISC + G[L.S_DISC_LEN])


@kernel_inline
def reset_with(choose, Gs, RNGs, keys, games, learner, rotate, obs, masks, checked, bad):
    """Deal every game at its index and play it to the learner's first decision;
    ILLEGAL (see ``next_game``) or 0."""
    for i in range(Gs.shape[0]):
        if next_game(choose, Gs[i], RNGs[i], i, keys, games, learner, rotate, obs, masks,
                     checked, bad) == ILLEGAL:
            return ILLEGAL
    return 0


@kernel_inline
def step_with(choose, Gs, RNGs, keys, games, learner, rotate, reward_kind, actions, obs,
              masks, rewards, terms, truncs, final_obs, done, checked, bad):
    """Apply each game's learner action, play on to its next decision, and write the
    observation, mask, reward, termination and truncation of every game; a game that
    ends writes its last observation to ``final_obs`` (``done`` set) and is dealt
    again (same-step autoreset). Returns the first game whose action the mask
    refuses, with nothing applied, or -1; or ILLEGAL when an opponent moved
    illegally (see ``next_game``: the games before it have stepped)."""
    N = Gs.shape[0]
    for i in range(N):
        a = actions[i]
        if a < 0 or a >= masks.shape[1] or masks[i, a] == 0:
            return i
    for i in range(N):
        if i + 2 < N:
            warm(Gs, RNGs, obs, masks, i + 2)
        if i + 1 < N:
            warm_late(Gs, i + 1)
        G = Gs[i]
        RNG = RNGs[i]
        seat = learner[i]
        apply_called(G, RNG, to_move(actions[i], seat, G[L.R_PLAYERS]))
        n = advance(choose, G, RNG, seat, checked, bad)
        if n == ILLEGAL:
            bad[3] = i
            return ILLEGAL
        rewards[i] = 0
        terms[i] = False
        truncs[i] = False
        done[i] = False
        if n >= 0:
            encode(G, seat, obs[i])
            fill_mask_of(G, n, masks[i])
            continue
        winner = G[L.S_WINNER]
        if winner < 0:
            truncs[i] = True
        else:
            terms[i] = True
            if reward_kind == WIN:
                rewards[i] = 1 if winner == seat else -1
            elif winner == seat:
                rewards[i] = G[L.S_WINNER_POINTS]
            else:
                rewards[i] = -hand_value(G, seat)
        encode(G, seat, final_obs[i])
        done[i] = True
        games[i] += 1
        if next_game(choose, G, RNG, i, keys, games, learner, rotate, obs, masks,
                     checked, bad) == ILLEGAL:
            return ILLEGAL
    return -1


@kernel
def reset_builtin(Gs, RNGs, keys, games, learner, rotate, obs, masks, bad):
    """``reset_with`` for opponents that are built-ins without parameters (their
    moves are legal: unchecked)."""
    return reset_with(plain_choose, Gs, RNGs, keys, games, learner, rotate, obs, masks,
                      False, bad)


@kernel
def step_builtin(Gs, RNGs, keys, games, learner, rotate, reward_kind, actions, obs, masks,
                 rewards, terms, truncs, final_obs, done, bad):
    """``step_with`` for opponents that are built-ins without parameters."""
    return step_with(plain_choose, Gs, RNGs, keys, games, learner, rotate, reward_kind,
                     actions, obs, masks, rewards, terms, truncs, final_obs, done, False, bad)


def empty_buffers(num_envs: int) -> dict[str, np.ndarray]:
    """The arrays a step writes besides the observations, allocated once."""
    return {"masks": np.zeros((num_envs, A.N_ACTIONS), np.int8),
            "rewards": np.zeros(num_envs, np.float32),
            "terms": np.zeros(num_envs, np.bool_),
            "truncs": np.zeros(num_envs, np.bool_),
            "done": np.zeros(num_envs, np.bool_)}
