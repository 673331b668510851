"""The vector environment's kernels: N games stepped inside the compiled engine
between two decisions of the learner, so no Python runs per decision. Compiled.

Each game has its own row of ``Gs`` (the engine's game array) and ``RNGs`` (its
generators), its base seed ``keys[i]`` and game index ``games[i]``; a game that ends
is re-dealt from the next index of its seed, as unosim seeds a run. The observation
(``encode``) and the action mask (``fill_mask``) are the layouts of observation.py
and actions.py written as kernels; the tests hold both equal to them.

``step_with`` / ``reset_with`` take the opponents' chooser as an argument and are
inlined: ``step_builtin`` / ``reset_builtin`` bind them to the built-ins without
parameters (cached), and the facade binds them to any other chooser per process.
"""

from __future__ import annotations

import numpy as np

from unosim.env import actions as A
from unosim.env.observation import OBS, OBS_SIZE
from unosim.env.prefetch_nb import prefetch
from unosim.runs.entries_nb import plain_choose
from unosim.simulate import layout as L
from unosim.simulate.cards import N_TYPES, TYPE_SLOTS, WILD
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.rng_nb import seed_game
from unosim.simulate.step_nb import (
    apply_called,
    cap_round,
    deal,
    hand_value,
    legal_moves,
    move_is_legal,
)

_HAND = OBS["hand"].start
_TOP = OBS["top"].start
_COLOUR = OBS["colour"].start
_PHASE = OBS["phase"].start
_DRAWN = OBS["drawn"].start
_DIR = OBS["direction"].start
_PENDING = OBS["pending"].start
_COUNTS = OBS["counts"].start
_PLAYING = OBS["playing"].start
_PLACES = OBS["places"].start
_DRAW_PILE = OBS["draw_pile"].start
_DISC_PILE = OBS["discard_pile"].start
_TURN = OBS["turn"].start
_KIND = OBS["target_kind"].start
_FIVE, _SEVEN, _SWAP = tuple(L.TargetKind)

#: reward kinds
WIN = 0
POINTS = 1
#: what a kernel returns when an opponent's move was illegal (``bad`` says which)
ILLEGAL = -2


@kernel_inline
def encode(G, seat, o):
    """Seat ``seat``'s observation of ``G`` into the float32 row ``o`` (observation.py)."""
    for k in range(o.shape[0]):
        o[k] = 0
    n = G[L.R_PLAYERS]
    base = L.OFF_H + seat * L.HW
    for t in range(N_TYPES):
        o[_HAND + t] = G[base + t]
    o[_TOP + G[L.S_TOP]] = 1
    o[_COLOUR + G[L.S_COLOUR]] = 1
    phase = G[L.S_PHASE]
    o[_PHASE + phase] = 1
    if phase == L.PH_DRAWN and G[L.S_ACTOR] == seat:
        o[_DRAWN + G[L.S_DRAWN]] = 1
    o[_DIR] = G[L.S_DIR]
    o[_PENDING] = G[L.S_PENDING]
    for k in range(n):
        row = L.OFF_H + ((seat + k) % n) * L.HW
        place = G[row + L.HC_PLACE]
        o[_COUNTS + k] = G[row + L.HC_SIZE]
        o[_PLAYING + k] = 1 if place == 0 else 0
        o[_PLACES + k] = place
    o[_DRAW_PILE] = G[L.S_DRAW_LEN]
    o[_DISC_PILE] = G[L.S_DISC_LEN]
    o[_TURN] = G[L.S_TURNS]
    if phase == L.PH_TARGET or phase == L.PH_GIVE:
        kind = G[L.S_TARGET_KIND]
        if kind == _FIVE:
            o[_KIND] = 1
        elif kind == _SEVEN:
            o[_KIND + 1] = 1
        elif kind == _SWAP:
            o[_KIND + 2] = 1


@kernel_inline
def to_action(m, actor, players):
    """actions.to_action as a kernel (a play names its colour)."""
    if m < L.MV_PLAY_END:
        t = m % TYPE_SLOTS
        if t < WILD:
            return t
        return A.WILD_PLAY + 4 * (t - WILD) + m // TYPE_SLOTS
    if m == L.MV_DRAW:
        return A.DRAW
    if m == L.MV_PASS:
        return A.PASS
    if m == L.MV_TAKE:
        return A.TAKE
    if m == L.MV_CHALLENGE:
        return A.CHALLENGE
    if m == L.MV_ACCEPT:
        return A.ACCEPT
    if m < L.MV_COLOUR + 4:
        return A.COLOUR + m - L.MV_COLOUR
    if m < L.MV_TARGET + L.MAX_PLAYERS:
        return A.TARGET + (m - L.MV_TARGET - actor) % players
    return A.GIVE + m - L.MV_GIVE


@kernel_inline
def to_move(a, actor, players):
    """actions.to_move as a kernel, for an action the mask allows."""
    if a < WILD:
        return a
    if a < A.DRAW:
        k = a - A.WILD_PLAY
        return WILD + k // 4 + TYPE_SLOTS * (k % 4)
    if a == A.DRAW:
        return L.MV_DRAW
    if a == A.PASS:
        return L.MV_PASS
    if a == A.TAKE:
        return L.MV_TAKE
    if a == A.CHALLENGE:
        return L.MV_CHALLENGE
    if a == A.ACCEPT:
        return L.MV_ACCEPT
    if a < A.TARGET:
        return L.MV_COLOUR + a - A.COLOUR
    if a < A.GIVE:
        return L.MV_TARGET + (actor + a - A.TARGET) % players
    return L.MV_GIVE + a - A.GIVE


@kernel_inline
def fill_mask(G, n, mask):
    """The ``n`` legal moves in ``G[OFF_MOVES ..]`` as the int8 action mask ``mask``
    (a wild listed as its bare type is legal with each colour)."""
    for k in range(mask.shape[0]):
        mask[k] = 0
    actor = G[L.S_ACTOR]
    players = G[L.R_PLAYERS]
    for i in range(n):
        m = G[L.OFF_MOVES + i]
        if WILD <= m < TYPE_SLOTS:
            a = A.WILD_PLAY + 4 * (m - WILD)
            for c in range(4):
                mask[a + c] = 1
        else:
            mask[to_action(m, actor, players)] = 1


@kernel_inline
def advance(choose, G, RNG, seat, checked, bad):
    """Let ``choose`` play every other seat until ``seat`` is to act (its number of
    legal moves, in G[OFF_MOVES ..]) or the round ends or hits the cap (-1). With
    ``checked`` (plug-in opponents) a move ``move_is_legal`` refuses is not applied:
    it goes to ``bad`` (move, phase, seat) and the result is ILLEGAL."""
    cap = G[L.R_TURN_CAP]
    while G[L.S_PHASE] != L.PH_OVER:
        if G[L.S_TURNS] >= cap:
            cap_round(G)
            return -1
        if G[L.S_ACTOR] == seat:
            return legal_moves(G)
        m = choose(G, RNG)
        if checked and not move_is_legal(G, m):
            bad[0] = m
            bad[1] = G[L.S_PHASE]
            bad[2] = G[L.S_ACTOR]
            return ILLEGAL
        apply_called(G, RNG, m)
    return -1


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
    fill_mask(G, n, masks[i])
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
            fill_mask(G, n, masks[i])
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


@kernel
def observe(G, seat, o):
    """``encode`` on one game, for the tests and anyone reading a single state."""
    encode(G, seat, o)


@kernel
def mask_of(G, mask):
    """The action mask of the seat to act in ``G`` (its legal moves recomputed)."""
    fill_mask(G, legal_moves(G), mask)
