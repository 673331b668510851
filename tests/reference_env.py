"""Plain-Python reference of unosim's RL encoding: the observation and the action
mapping read straight from the declared layouts (env/observation.py, env/actions.py)
with NumPy, written to be read, not to be fast. The environments use the compiled
writer (env/encode_nb.py); the tests hold it equal to this reference on every state
they reach, as tests/reference_engine.py checks the engine."""

from __future__ import annotations

import numpy as np

from unosim.env.actions import (
    ACCEPT,
    CHALLENGE,
    COLOUR,
    DRAW,
    GIVE,
    N_ACTIONS,
    PASS,
    TAKE,
    TARGET,
    WILD_PLAY,
)
from unosim.env.observation import OBS, OBS_SIZE
from unosim.simulate import layout as L
from unosim.simulate.cards import N_TYPES, TYPE_SLOTS, WILD

_TARGET_KINDS = tuple(L.TargetKind)
_SPECIAL = {L.MV_DRAW: DRAW, L.MV_PASS: PASS, L.MV_TAKE: TAKE,
            L.MV_CHALLENGE: CHALLENGE, L.MV_ACCEPT: ACCEPT}
_SPECIAL_BACK = {a: m for m, a in _SPECIAL.items()}


def encode(G: np.ndarray, seat: int, out: np.ndarray | None = None) -> np.ndarray:
    """Seat ``seat``'s observation of the game ``G``: public fields and its own hand."""
    o = np.zeros(OBS_SIZE, np.float32) if out is None else out
    o[:] = 0
    n = int(G[L.R_PLAYERS])
    base = L.OFF_H + seat * L.HW
    o[OBS["hand"]] = G[base:base + N_TYPES]
    o[OBS["top"].start + int(G[L.S_TOP])] = 1
    o[OBS["colour"].start + int(G[L.S_COLOUR])] = 1
    phase = int(G[L.S_PHASE])
    o[OBS["phase"].start + phase] = 1
    if phase == L.PH_DRAWN and int(G[L.S_ACTOR]) == seat:
        o[OBS["drawn"].start + int(G[L.S_DRAWN])] = 1
    o[OBS["direction"].start] = G[L.S_DIR]
    o[OBS["pending"].start] = G[L.S_PENDING]
    seats = (np.arange(n) + seat) % n
    rows = L.OFF_H + seats * L.HW
    sizes = G[rows + L.HC_SIZE]
    places = G[rows + L.HC_PLACE]
    o[OBS["counts"].start:OBS["counts"].start + n] = sizes
    o[OBS["playing"].start:OBS["playing"].start + n] = places == 0
    o[OBS["places"].start:OBS["places"].start + n] = places
    o[OBS["draw_pile"].start] = G[L.S_DRAW_LEN]
    o[OBS["discard_pile"].start] = G[L.S_DISC_LEN]
    o[OBS["turn"].start] = G[L.S_TURNS]
    if phase in (L.PH_TARGET, L.PH_GIVE):
        kind = int(G[L.S_TARGET_KIND])
        if kind in _TARGET_KINDS:
            o[OBS["target_kind"].start + _TARGET_KINDS.index(kind)] = 1
    return o


def to_move(action: int, actor: int, players: int) -> int:
    """The engine's move code for ``action`` taken by seat ``actor``; -1 if none."""
    a = int(action)
    if 0 <= a < WILD:
        return a
    if a < DRAW:
        t, c = divmod(a - WILD_PLAY, 4)
        return WILD + t + TYPE_SLOTS * c
    if a in _SPECIAL_BACK:
        return _SPECIAL_BACK[a]
    if COLOUR <= a < TARGET:
        return L.MV_COLOUR + a - COLOUR
    if TARGET <= a < GIVE:
        k = a - TARGET
        return L.MV_TARGET + (actor + k) % players if k < players else -1
    if GIVE <= a < N_ACTIONS:
        return L.MV_GIVE + a - GIVE
    return -1


def to_action(move: int, actor: int, players: int) -> int:
    """The action of one engine move (a wild play: with the colour it names)."""
    m = int(move)
    if 0 <= m < L.MV_PLAY_END:
        t, c = m % TYPE_SLOTS, m // TYPE_SLOTS
        return t if t < WILD else WILD_PLAY + 4 * (t - WILD) + c
    if m in _SPECIAL:
        return _SPECIAL[m]
    if L.MV_COLOUR <= m < L.MV_COLOUR + 4:
        return COLOUR + m - L.MV_COLOUR
    if L.MV_TARGET <= m < L.MV_TARGET + L.MAX_PLAYERS:
        return TARGET + (m - L.MV_TARGET - actor) % players
    return GIVE + m - L.MV_GIVE


def fill_mask(mask: np.ndarray, moves: np.ndarray, actor: int, players: int) -> np.ndarray:
    """Set ``mask`` (int8[N_ACTIONS]) to the legal ``moves`` of ``legal_moves``, where a
    wild listed as its bare type is legal with each colour."""
    mask[:] = 0
    for m in moves.tolist():
        if WILD <= m < TYPE_SLOTS:
            a = WILD_PLAY + 4 * (m - WILD)
            mask[a:a + 4] = 1
        else:
            mask[to_action(m, actor, players)] = 1
    return mask
