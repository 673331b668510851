"""Game-feel metrics (docs/metrics.md#game-feel), compiled: a sample buffer and per-seat
accumulators in ``G``.

The step contract calls ``feel_sample`` when a turn starts (before the player
acts) and once more when the round's winner goes out (before any penalty its
last card causes). A turn of the engine costs some 50 ns, so a sample must cost
a few: it only packs the distances (16 bits a seat) into a buffer in ``G``
(layout.OFF_FEEL_BUF). ``feel_fold`` walks the buffered samples in order and
updates the round's scalars (S_FEEL_*) and the per-seat accumulators
(layout.OFF_FEEL): when the buffer is full (long rounds; every seat), and once
at the round's end, when the winner is known (only the winner's accumulators
are then needed; up to 4 players ``_fold_winner4`` does it in two passes, the
first on vector instructions). The fold carries its state in ``G``, so the result
does not depend on where the buffer was cut; the paths are tested equal against
the plain definitions. Nothing is allocated.

``feel_of_distances`` runs the very same code on a hand-made sequence of
distance vectors (tests pin every definition with it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unosim.simulate import layout as L
from unosim.simulate.jit import kernel, kernel_inline

BIG = 1 << 40
PAD = 8  # words of padding after the samples at the final fold (_fold_winner4)
# 16-bit lane masks as int64 (a literal above 2**63 - 1 would type as uint64)
LANE_TOP = 0x8000800080008000 - (1 << 64)  # bit 15 of each lane
LANE_NOT1 = 0xFFFEFFFEFFFEFFFE - (1 << 64)  # all but bit 0 of each lane
# feel_fold's "every seat" as a plain int64, not a literal: a literal argument
# compiles a called kernel once more (see step_nb._ONE)
_ALL = np.int64(-1)


@kernel
def feel_reset(G):
    """Clear the per-seat accumulators (the S_FEEL_* scalars are cleared with the
    state), put this turn's sample first in the buffer and set the sampling mode:
    0 off (R_FEEL_OFF), 1 one word of four hand sizes (up to 4 players, no
    seven_rounds), -1 any table (by its sign: one compare tells the three apart)."""
    # stores of a zero the compiler cannot prove zero (players >> 62 is 0): a known
    # zero made the loop a call to memset, which costs more than its few stores
    zero = G[L.R_PLAYERS] >> 62
    for i in range(L.OFF_FEEL, L.OFF_FEEL + G[L.R_PLAYERS] * L.N_FEELF):
        G[np.uint64(i)] = zero
    G[L.S_FEEL_AT] = G[L.S_TURNS]
    if G[L.R_FEEL_OFF] != 0:
        G[L.OFF_FEEL_MODE] = 0
        G[L.S_FEEL_AT] = 0  # nothing buffered
    elif G[L.R_PLAYERS] <= 4 and G[L.R_SEVEN_ROUNDS] == 0:
        G[L.OFF_FEEL_MODE] = 1
    else:
        G[L.OFF_FEEL_MODE] = -1


@kernel_inline
def feel_pack(G):
    """Set the packed hand sizes (layout.OFF_FEEL_SIZES) from the hands: after the
    deal, and wherever hands change other than card by card (a swap of hands)."""
    h = L.OFF_H + L.HC_SIZE
    G[L.OFF_FEEL_SIZES] = (G[h] | (G[h + L.HW] << 16) | (G[h + 2 * L.HW] << 32)
                           | (G[h + 3 * L.HW] << 48))


def feel_word(G) -> int:
    """``feel_pack``'s word, from Python (a crafted position sets hands itself)."""
    h = L.OFF_H + L.HC_SIZE
    word = 0
    for q in range(4):
        word |= int(G[h + q * L.HW]) << (16 * q)
    return word - (1 << 64) if word >= 1 << 63 else word


@kernel
def feel_stop(G):
    """The winner went out, and its sample was the last: no more samples this round.
    Elimination plays on and the turns go on counting, so the counts are frozen:
    S_FEEL_N becomes all the samples, S_FEEL_AT those still buffered."""
    if G[L.OFF_FEEL_MODE] != 0:
        cnt = G[L.S_TURNS] - G[L.S_FEEL_AT] + 1
        G[L.S_FEEL_N] += cnt
        G[L.S_FEEL_AT] = cnt
        G[L.OFF_FEEL_MODE] = 0


@kernel
def feel_buffered(G):
    """How many samples wait in the buffer (tests read the buffer with it)."""
    if G[L.OFF_FEEL_MODE] != 0:
        return G[L.S_TURNS] - G[L.S_FEEL_AT]
    return G[L.S_FEEL_AT]


@kernel
def distance(G, q):
    """Cards ``q`` still has to play to win if it never drew again: its hand, plus
    under seven_rounds the refills still to come (stage k: k(k-1)/2)."""
    d = G[L.OFF_H + q * L.HW + L.HC_SIZE]
    if G[L.R_SEVEN_ROUNDS] != 0:
        k = G[L.OFF_H + q * L.HW + L.HC_STAGE]
        d += k * (k - 1) // 2
    return d


@kernel_inline
def feel_sample(G):
    """Buffer a sample of the distances now (the winner's going out; a turn's start
    calls ``feel_sample_at`` with the turn count it already holds)."""
    feel_sample_at(G, G[L.S_TURNS])


@kernel_inline
def feel_sample_at(G, turns):
    """Buffer a sample of the distances at slot ``turns`` - S_FEEL_AT (``turns`` =
    S_TURNS, before a turn moves it: the turn counter is the sample's index);
    nothing once the winner is out (``feel_stop``: elimination plays on without
    samples) or when switched off (R_FEEL_OFF). Up to 4 players without
    seven_rounds, one word of four hand sizes."""
    mode = G[L.OFF_FEEL_MODE]
    if mode > 0:
        b = turns - G[L.S_FEEL_AT]
        # an unsigned index: no wraparound test for negative ones (b >= 0); the word
        # is kept packed as cards come and go (layout.OFF_FEEL_SIZES)
        G[np.uint64(L.OFF_FEEL_BUF + b)] = G[L.OFF_FEEL_SIZES]
        if b + 1 + PAD > L.FEEL_BUF:  # full: b + 1 samples, and room for the padding
            _fold_full(G, b + 1)
    elif mode < 0:
        _sample_any(G, turns)


@kernel
def _fold_full(G, cnt):
    """The buffer is full (a long round): fold it for every seat and empty it."""
    feel_fold(G, _ALL, G[L.S_FEEL_N], cnt)
    G[L.S_FEEL_N] += cnt
    G[L.S_FEEL_AT] += cnt


@kernel
def _sample_any(G, turns):
    """``feel_sample`` for any table: ceil(players / 4) words, distances with the
    seven_rounds refills still to come."""
    n = G[L.R_PLAYERS]
    wps = (n + 3) >> 2
    b = turns - G[L.S_FEEL_AT]
    pos = L.OFF_FEEL_BUF + b * wps
    for w in range(wps):
        word = 0
        for j in range(4):
            q = 4 * w + j
            if q < n:
                word |= distance(G, q) << (16 * j)
        G[pos + w] = word
    if (b + 2) * wps + PAD - 1 > L.FEEL_BUF:  # room for one more sample and, at one
        # word a sample, for the padding (as feel_sample_at)
        _fold_full(G, b + 1)


@kernel
def _fold_winner4(G, w, t0, cnt):
    """``feel_fold`` for seat ``w`` alone at up to 4 players (one word a sample),
    the common case, run once per round, in two passes. The first has no state
    carried from sample to sample but sums, minima and maxima, so it runs on vector
    instructions (several samples at once): smallest and second-smallest distance
    (each lane tagged with its seat, so the smallest carries the leader), the
    winner's deficit, the last sample the winner did not lead alone, the first
    sample anyone was on one card, which seats were ever on one card, and each sample's
    sole leader (bit 16 * seat, or 0) written to a scratch region. The buffer is
    padded to a multiple of 8 samples with samples the winner leads alone by one
    card (their gap is taken off again), so the vector loop (4 samples a step as
    compiled for AVX2 and AVX-512) leaves none to its slower scalar remainder. The
    second pass walks the leaders in order to count lead changes: a sole leader
    unlike the last one adds its bit, so the count is the sum of the four 16-bit
    lanes (an and-not and an add a sample, no compare). Same definitions as
    ``feel_fold``; tested equal. ``t0``: samples folded before these ``cnt``."""
    n = G[L.R_PLAYERS]
    keep = 0
    fill = 0
    for q in range(4):
        if q < n:
            keep |= np.int64(0xFFFF) << (16 * q)  # wraps at q = 3, compiled or not
        else:
            fill |= 0x3FFF << (16 * q)
    steps = (cnt + PAD - 1) & -PAD
    pad = 0x3FFF3FFF3FFF3FFF - (1 << (16 * w))  # the loop masks it like any sample
    for i in range(PAD):  # always PAD (cnt + PAD <= FEEL_BUF: the samples keep room),
        G[np.uint64(L.OFF_FEEL_BUF + cnt + i)] = pad  # so no branch on how many
    f = L.OFF_FEEL + w * L.N_FEELF
    sh = 16 * w
    wbit = 1 << sh
    gap = 0
    dsum = 0
    dmax = G[f + L.FE_DEF_MAX]
    behind = 0
    lastnot = 0  # 1 + the last buffered sample the winner did not lead alone
    first_uno = cnt  # the first buffered sample anyone had distance <= 1
    never = LANE_TOP  # bit 15 of a seat's lane: never at distance <= 1 (cleared by one)
    for i in range(steps):
        x = (G[np.uint64(L.OFF_FEEL_BUF + i)] & keep) | fill
        y = (x << 2) | 0x0003000200010000  # each lane 4 d + seat (d < 0x4000: no spill)
        a = y & 0xFFFF
        b = (y >> 16) & 0xFFFF
        c = (y >> 32) & 0xFFFF
        d = (y >> 48) & 0xFFFF
        # lanes are below 0x4000 (hand sizes, fill, padding), so adding 0x7FFF to a
        # lane sets its bit 15 without a carry into the next, iff the lane is >= 2
        never &= (x & LANE_NOT1) + 0x7FFF7FFF7FFF7FFF
        lo1 = min(a, b)
        lo2 = min(c, d)
        m1 = min(lo1, lo2)
        m2 = min(max(lo1, lo2), min(max(a, b), max(c, d)))
        v1 = m1 >> 2
        v2 = m2 >> 2
        gap += v2 - v1
        dd = ((x >> sh) & 0xFFFF) - v1
        dsum += dd
        dmax = max(dmax, dd)
        behind += dd > 0
        lead = 1 << ((m1 & 3) << 4) if v2 > v1 else 0
        lastnot = max(lastnot, i + 1 if lead != wbit else 0)  # max and min, not a
        first_uno = min(first_uno, i if v1 <= 1 else cnt)  # select: these vectorize
        G[np.uint64(L.OFF_FEEL_SCRATCH + i)] = lead
    gap -= steps - cnt
    code = G[L.S_FEEL_LEAD]
    last = 1 << (16 * code - 16) if code != 0 else 0
    moves = 0  # sole leaders unlike the last one (lead changes, plus the first ever),
    for i in range(cnt):  # a 16-bit lane a seat
        lead = G[np.uint64(L.OFF_FEEL_SCRATCH + i)]
        moves += lead & ~last
        last = lead if lead != 0 else last
    moves = (moves & 0xFFFF) + ((moves >> 16) & 0xFFFF) + ((moves >> 32) & 0xFFFF) + (moves >> 48)
    changes = G[L.S_FEEL_CHANGES] + moves - int(code == 0 and last != 0)
    # the rest without branches on the data (the winner's seat, who reached one
    # card): a mispredicted branch costs more than these few instructions
    on_one = ~never & LANE_TOP  # seats at distance <= 1 at some sample (fill lanes never)
    wtop = 1 << (sh + 15)
    w_one = int((on_one & wtop) != 0)  # the winner
    rival = int((on_one & ~wtop) != 0)  # another seat
    run = G[L.S_FEEL_RUN] if G[L.S_FEEL_PREV] == w + 1 else t0
    G[L.S_FEEL_RUN] = t0 + lastnot if lastnot > 0 else run
    G[L.S_FEEL_PREV] = _seat_of(G[L.OFF_FEEL_SCRATCH + cnt - 1])  # cnt > 0 (feel_finish)
    # the first sample anyone had distance <= 1 (if in this buffer and the first of the
    # round): was the winner among them? (at first_uno = cnt this reads padding)
    hit = int(first_uno < cnt) & int(G[L.S_FEEL_UNO] == 0)
    w_hit = int(((G[L.OFF_FEEL_BUF + first_uno] >> sh) & 0xFFFF) <= 1)
    wuno = G[f + L.FE_UNO] | w_one | (2 * (hit & w_hit)) | (4 * rival)
    G[L.S_FEEL_UNO] |= hit
    G[f + L.FE_DEF_SUM] += dsum
    G[f + L.FE_DEF_MAX] = dmax
    G[f + L.FE_BEHIND] += behind
    G[f + L.FE_UNO] = wuno
    G[L.S_FEEL_LEAD] = _seat_of(last)
    G[L.S_FEEL_CHANGES] = changes
    G[L.S_FEEL_GAP] += gap


@kernel_inline
def _seat_of(bit):
    """Seat + 1 of a leader bit 1 << (16 * seat); 0 for none."""
    return int(bit != 0) + int(bit > 0xFFFF) + int(bit > 0xFFFFFFFF) + int(bit > 0xFFFFFFFFFFFF)


@kernel
def feel_fold(G, only, t0, cnt):
    """Fold the buffered samples, oldest first, into the round's scalars and the
    per-seat accumulators (of seat ``only`` alone when ``only >= 0``: the winner,
    at the round's end). ``t0``: samples folded before these ``cnt``; the caller
    empties the buffer."""
    n = G[L.R_PLAYERS]
    wps = (n + 3) >> 2
    t = t0
    last_lead = G[L.S_FEEL_LEAD]
    prev = G[L.S_FEEL_PREV]
    run = G[L.S_FEEL_RUN]
    changes = G[L.S_FEEL_CHANGES]
    gap = G[L.S_FEEL_GAP]
    uno = G[L.S_FEEL_UNO]
    q0 = 0 if only < 0 else only
    q1 = n if only < 0 else only + 1
    for i in range(cnt):
        pos = L.OFF_FEEL_BUF + i * wps
        m1 = BIG
        m2 = BIG
        lead = 0
        for q in range(n):
            d = (G[pos + (q >> 2)] >> (16 * (q & 3))) & 0xFFFF
            if d < m1:
                m2 = m1
                m1 = d
                lead = q
            elif d < m2:
                m2 = d
        gap += m2 - m1
        if m2 > m1:  # a sole leader
            if last_lead != 0 and last_lead != lead + 1:
                changes += 1
            last_lead = lead + 1
            if prev != lead + 1:
                run = t
            prev = lead + 1
        else:
            prev = 0
        for q in range(q0, q1):
            f = L.OFF_FEEL + q * L.N_FEELF
            dd = ((G[pos + (q >> 2)] >> (16 * (q & 3))) & 0xFFFF) - m1
            G[f + L.FE_DEF_SUM] += dd
            if dd > G[f + L.FE_DEF_MAX]:
                G[f + L.FE_DEF_MAX] = dd
            if dd > 0:
                G[f + L.FE_BEHIND] += 1
        if m1 <= 1:  # someone is on one card (or out): every seat's UNO bits
            bits = 1 if uno != 0 else 3
            for q in range(n):
                if ((G[pos + (q >> 2)] >> (16 * (q & 3))) & 0xFFFF) <= 1:
                    G[L.OFF_FEEL + q * L.N_FEELF + L.FE_UNO] |= bits
            uno = 1
        t += 1
    G[L.S_FEEL_LEAD] = last_lead
    G[L.S_FEEL_PREV] = prev
    G[L.S_FEEL_RUN] = run
    G[L.S_FEEL_CHANGES] = changes
    G[L.S_FEEL_GAP] = gap
    G[L.S_FEEL_UNO] = uno


@kernel
def feel_finish(G):
    """At the round's end: fold what is still buffered, for the winner only, and
    empty the buffer (a capped round reports no feel metrics and is skipped)."""
    cnt = G[L.S_FEEL_AT]  # after feel_stop: the samples still buffered
    if G[L.S_WINNER] >= 0 and G[L.S_CAPPED] == 0 and G[L.OFF_FEEL_MODE] == 0 and cnt > 0:
        t0 = G[L.S_FEEL_N] - cnt
        if G[L.R_PLAYERS] <= 4:
            _fold_winner4(G, G[L.S_WINNER], t0, cnt)
        else:
            feel_fold(G, G[L.S_WINNER], t0, cnt)
        G[L.S_FEEL_AT] = 0


@kernel
def _fixed(num, den):
    """num / den in fixed point (times FEEL_SCALE), rounded half up; exact integers."""
    return (2 * num * L.FEEL_SCALE + den) // (2 * den)


@kernel
def _fixed_by(num, den, inv):
    """``_fixed(num, den)`` given inv = 1 / (2 den): a floating estimate, then
    corrected to the exact integer (an integer division costs more than the rest
    of a round's record)."""
    top = 2 * num * L.FEEL_SCALE + den
    q = int(top * inv)
    if q * 2 * den > top:
        q -= 1
    elif (q + 1) * 2 * den <= top:
        q += 1
    return q


@kernel
def feel_value(G, k):
    """Metric ``k`` of layout.FEEL_METRICS for the round in ``G`` (0 when it has no
    winner or no samples); ``feel_finish`` must have run."""
    w = G[L.S_WINNER]
    samples = G[L.S_FEEL_N]
    if w < 0 or G[L.S_CAPPED] != 0 or samples == 0:
        return 0
    f = L.OFF_FEEL + w * L.N_FEELF
    last = samples - 1  # T
    if k == 0:  # lead_changes
        return G[L.S_FEEL_CHANGES]
    if k == 1:  # winner_max_deficit
        return G[f + L.FE_DEF_MAX]
    if k == 2:  # comeback
        return 1 if G[f + L.FE_DEF_MAX] >= 3 else 0
    if k == 3:  # winner_mean_deficit
        return _fixed(G[f + L.FE_DEF_SUM], samples)
    if k == 4:  # winner_behind_share
        return _fixed(G[f + L.FE_BEHIND], samples)
    if k == 5:  # lock_in = (T - s) / T, s = the start of the winner's last sole run
        if last == 0:
            return L.FEEL_SCALE
        s = G[L.S_FEEL_RUN] if G[L.S_FEEL_PREV] == w + 1 else last
        return _fixed(last - s, last)
    if k == 6:  # first_uno_wins
        return 1 if G[f + L.FE_UNO] & 2 else 0
    if k == 7:  # rival_on_uno
        return _rival_on_uno(G, w)
    if k == 8:  # leader_gap
        return _fixed(G[L.S_FEEL_GAP], samples)
    return 0


@kernel_inline
def _rival_on_uno(G, w):
    """1 if a seat other than the winner ``w`` had distance <= 1 at some sample: bit 4
    of the winner's UNO bits (``_fold_winner4``) or bit 1 of another seat's (folds of
    every seat); no branch on the winner's seat."""
    rival = G[L.OFF_FEEL + w * L.N_FEELF + L.FE_UNO] >> 2
    for q in range(G[L.R_PLAYERS]):
        rival |= int(q != w) & G[L.OFF_FEEL + q * L.N_FEELF + L.FE_UNO]
    return rival & 1


@kernel
def feel_record(G, out, row, col):
    """The round's metrics into ``out[row, col .. col + 9]`` (one call per round,
    not nine), after ``feel_finish``. Row and columns are never negative: unsigned
    indices spare each store a wraparound test."""
    r = np.uint64(row)
    c = np.uint64(col)
    for k in range(9):
        out[r, c + np.uint64(k)] = 0
    w = G[L.S_WINNER]
    samples = G[L.S_FEEL_N]
    if w < 0 or G[L.S_CAPPED] != 0 or samples == 0:
        return
    f = L.OFF_FEEL + w * L.N_FEELF
    last = samples - 1
    dmax = G[f + L.FE_DEF_MAX]
    out[r, c] = G[L.S_FEEL_CHANGES]
    out[r, c + np.uint64(1)] = dmax
    out[r, c + np.uint64(2)] = 1 if dmax >= 3 else 0
    inv = 0.5 / samples
    out[r, c + np.uint64(3)] = _fixed_by(G[f + L.FE_DEF_SUM], samples, inv)
    out[r, c + np.uint64(4)] = _fixed_by(G[f + L.FE_BEHIND], samples, inv)
    if last == 0:
        out[r, c + np.uint64(5)] = L.FEEL_SCALE
    else:
        s = G[L.S_FEEL_RUN] if G[L.S_FEEL_PREV] == w + 1 else last
        out[r, c + np.uint64(5)] = _fixed_by(last - s, last, 0.5 / last)
    out[r, c + np.uint64(6)] = 1 if G[f + L.FE_UNO] & 2 else 0
    out[r, c + np.uint64(7)] = _rival_on_uno(G, w)
    out[r, c + np.uint64(8)] = _fixed_by(G[L.S_FEEL_GAP], samples, inv)


@njit(cache=True)
def feel_of_distances(D, winner, out, seven=0):
    """The metrics (``out``, layout.FEEL_METRICS order, fixed point as recorded) of a
    round whose samples t = 0..T are the rows of ``D`` (int64[T + 1, players]),
    won by ``winner``: the engine's own sampling code on a hand-made sequence."""
    G = np.zeros(L.G_SIZE, np.int64)
    G[L.R_PLAYERS] = D.shape[1]
    G[L.S_WINNER] = -1
    G[L.R_SEVEN_ROUNDS] = seven
    feel_reset(G)
    for t in range(D.shape[0]):
        for q in range(D.shape[1]):
            G[L.OFF_H + q * L.HW + L.HC_SIZE] = D[t, q]
        feel_pack(G)
        feel_sample(G)
        if t + 1 < D.shape[0]:
            G[L.S_TURNS] += 1  # a turn's sample, as the step contract takes it
        else:
            feel_stop(G)  # the winner going out
    G[L.S_WINNER] = winner
    feel_finish(G)
    for k in range(out.shape[0]):
        out[k] = feel_value(G, k)
    row = np.zeros((1, out.shape[0]), np.int64)
    feel_record(G, row, 0, 0)
    for k in range(out.shape[0]):
        if row[0, k] != out[k]:  # the two readers of the accumulators must agree
            out[k] = -1
