"""The observation and the action mapping of unosim's encoding, compiled: the one
writer of both layouts (observation.py, actions.py). The vector environment inlines
these kernels in its steps (vector_nb.py); the AEC environment calls the cached entry
points below on its game's arrays. tests/reference_env.py keeps a plain-Python
reading of the layouts that the tests hold these kernels equal to.

Moves are read with simulate/moves.py's functions, never decoded by hand.
"""

from __future__ import annotations

from unosim.env import actions as A
from unosim.env import observation as O
from unosim.simulate import layout as L
from unosim.simulate.cards import N_TYPES, WILD
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.moves import is_wild_play, named_colour, type_of, with_colour
from unosim.simulate.step_nb import legal_moves


@kernel_inline
def encode(G, seat, o):
    """Seat ``seat``'s observation of ``G`` into the float32 row ``o``."""
    for k in range(o.shape[0]):
        o[k] = 0
    n = G[L.R_PLAYERS]
    base = L.OFF_H + seat * L.HW
    for t in range(N_TYPES):
        o[O.HAND + t] = G[base + t]
    o[O.TOP + G[L.S_TOP]] = 1
    o[O.COLOUR + G[L.S_COLOUR]] = 1
    phase = G[L.S_PHASE]
    o[O.PHASE + phase] = 1
    if phase == L.PH_DRAWN and G[L.S_ACTOR] == seat:
        o[O.DRAWN + G[L.S_DRAWN]] = 1
    o[O.DIRECTION] = G[L.S_DIR]
    o[O.PENDING] = G[L.S_PENDING]
    for k in range(n):
        row = L.OFF_H + ((seat + k) % n) * L.HW
        place = G[row + L.HC_PLACE]
        o[O.COUNTS + k] = G[row + L.HC_SIZE]
        o[O.PLAYING + k] = 1 if place == 0 else 0
        o[O.PLACES + k] = place
    o[O.DRAW_PILE] = G[L.S_DRAW_LEN]
    o[O.DISCARD_PILE] = G[L.S_DISC_LEN]
    o[O.TURN] = G[L.S_TURNS]
    if phase == L.PH_TARGET or phase == L.PH_GIVE:
        kind = G[L.S_TARGET_KIND]
        for j in range(len(O.TARGET_KINDS)):
            if kind == O.TARGET_KINDS[j]:
                o[O.TARGET_KIND + j] = 1


@kernel_inline
def to_action(m, actor, players):
    """The action of the engine move ``m`` taken by seat ``actor`` (a wild play: with
    the colour it names)."""
    if m < L.MV_PLAY_END:
        t = type_of(m)
        if t < WILD:
            return A.CARD + t
        return A.WILD_PLAY + 4 * (t - WILD) + named_colour(m)
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
    """The engine move of action ``a`` taken by seat ``actor``, for an action the
    mask allows."""
    if a < A.WILD_PLAY:
        return a - A.CARD
    if a < A.DRAW:
        k = a - A.WILD_PLAY
        return with_colour(WILD + k // 4, k % 4)
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
def fill_mask(moves, at, n, actor, players, mask):
    """The ``n`` legal moves ``moves[at ..]`` of seat ``actor`` as the int8 action
    mask ``mask`` (a wild listed as its bare type, naming no colour, is legal with
    each colour)."""
    for k in range(mask.shape[0]):
        mask[k] = 0
    for i in range(n):
        m = moves[at + i]
        if is_wild_play(m) and named_colour(m) == 0:
            a = A.WILD_PLAY + 4 * (type_of(m) - WILD)
            for c in range(4):
                mask[a + c] = 1
        else:
            mask[to_action(m, actor, players)] = 1


@kernel_inline
def fill_mask_of(G, n, mask):
    """The ``n`` legal moves in ``G[OFF_MOVES ..]`` as the action mask ``mask`` of the
    seat to act."""
    fill_mask(G, L.OFF_MOVES, n, G[L.S_ACTOR], G[L.R_PLAYERS], mask)


# ---------------------------------------------------------------- entry points


@kernel
def observe(G, seat, o):
    """``encode`` on one game: seat ``seat``'s observation into ``o``."""
    encode(G, seat, o)


@kernel
def mask_of(G, mask):
    """The action mask of the seat to act in ``G`` (its legal moves recomputed)."""
    fill_mask_of(G, legal_moves(G), mask)


@kernel
def mask_of_moves(moves, actor, players, mask):
    """``mask`` set to the legal ``moves`` (from ``legal_moves``) of seat ``actor``."""
    fill_mask(moves, 0, moves.shape[0], actor, players, mask)


@kernel
def move_of(a, actor, players):
    """The engine move of action ``a`` taken by seat ``actor`` at ``players``
    players, or -1 for no action of the layout (a seat past the player count)."""
    if a < 0 or a >= A.N_ACTIONS or (A.TARGET + players <= a < A.GIVE):
        return -1
    return to_move(a, actor, players)
