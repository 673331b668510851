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
def seed_game(base, game_index, stream, s):
    """Fill row ``stream`` of the xoshiro states ``s`` (uint64[2, 4]) for one game.

    Stream 0 shuffles the cards, stream 1 feeds strategies and table randomness, so
    two variants run with the same seed see the same deals (common random numbers).
    """
    x = splitmix64(base ^ (np.uint64(game_index) * _GOLDEN))
    x = splitmix64(x + np.uint64(stream + 1))
    for i in range(4):
        x = x + _GOLDEN
        s[stream, i] = splitmix64(x)


@kernel_inline
def next_u64(s, k):
    """Next output of stream ``k``; streams are rows, so no array view is made
    (a view costs a reference-count round trip on every call)."""
    result = _rotl(s[k, 1] * np.uint64(5), 7) * np.uint64(9)
    t = s[k, 1] << np.uint64(17)
    s[k, 2] ^= s[k, 0]
    s[k, 3] ^= s[k, 1]
    s[k, 1] ^= s[k, 2]
    s[k, 0] ^= s[k, 3]
    s[k, 2] ^= t
    s[k, 3] = _rotl(s[k, 3], 45)
    return result


@kernel_inline
def rand_below(s, k, n):
    """Uniform integer in [0, n) (Lemire's multiply-shift on 32 bits; n < 2**31)."""
    return np.int64(((next_u64(s, k) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@kernel_inline
def rand_float(s, k):
    """Uniform float in [0, 1)."""
    return np.float64(next_u64(s, k) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel_inline
def chance(s, k, p):
    """True with probability ``p``; draws nothing when p is 0 or 1."""
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    return rand_float(s, k) < p
