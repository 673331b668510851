"""Counter-based seeding and a per-game xoshiro256** generator, compiled.

Every game owns its generator state, derived from (base seed, game index) alone, so
results do not depend on how games are split across threads, processes or machines.
"""

from __future__ import annotations

import numpy as np

from unosim.simulate.jit import kernel, kernel_inline

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@kernel_inline
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@kernel
def splitmix64(x):
    """One splitmix64 output for input ``x`` (a uint64)."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@kernel
def seed_game(base, game_index, s):
    """Fill the xoshiro states ``s`` (uint64[8]) of one game: both streams.

    Stream 0 shuffles the cards, stream 1 feeds strategies and table randomness, so
    two variants run with the same seed see the same deals (common random numbers).
    """
    seed_game_inline(base, game_index, s)


@kernel_inline
def seed_game_inline(base, game_index, s):
    """``seed_game`` inlined (the rows loop seeds a game without a call)."""
    for stream in range(2):
        x = splitmix64(base ^ (np.uint64(game_index) * _GOLDEN))
        x = splitmix64(x + np.uint64(stream + 1))
        for i in range(4):
            x = x + _GOLDEN
            s[4 * stream + i] = splitmix64(x)


@kernel_inline
def next_u64_held(s0, s1, s2, s3):
    """One step of xoshiro256** on a state held in four locals: (output, s0, s1, s2,
    s3). A loop that draws many numbers (the deal) keeps the state in registers this
    way; drawn from the array, every number loads and stores it again, as the compiler
    cannot tell the array from the game's (the next one may be written by a card)."""
    s2 = s2 ^ s0
    s3 = s3 ^ s1
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    return result, s0 ^ s3, s1 ^ s2, s2 ^ (s1 << np.uint64(17)), _rotl(s3, 45)


@kernel_inline
def next_u64(s, k):
    """Next output of stream ``k`` (state words ``4k .. 4k+3`` of ``s``)."""
    o = 4 * k
    x, s[o], s[o + 1], s[o + 2], s[o + 3] = next_u64_held(s[o], s[o + 1], s[o + 2],
                                                          s[o + 3])
    return x


@kernel_inline
def below(x, n):
    """``rand_below``'s integer in [0, n) from the output ``x`` of ``next_u64``."""
    return np.int64(((x >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@kernel_inline
def rand_below(s, k, n):
    """Uniform integer in [0, n) (Lemire's multiply-shift on 32 bits; n < 2**31)."""
    return below(next_u64(s, k), n)


@kernel_inline
def chance(s, k, threshold):
    """True with probability threshold / 2**53 (thresholds come from
    ``probability_threshold``); draws nothing when that is 0 or 1."""
    if threshold <= 0:
        return False
    if threshold >= 9007199254740992:
        return True
    return np.int64(next_u64(s, k) >> np.uint64(11)) < threshold


def probability_threshold(p: float) -> int:
    """The integer threshold for ``chance`` that makes it true with probability ``p``."""
    import math

    return min(1 << 53, max(0, math.ceil(p * (1 << 53))))
