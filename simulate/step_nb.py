"""The step contract: dealing, legal moves and applying a move. Compiled.

These functions are the only code that knows the rules. ``play_until`` (below) is
the one game loop, over a strategy's choice and ``apply_move``; tests and
``replay`` call the same functions from Python. House rules are branches on the rules held in ``G``,
never copies of the loop. Nothing here allocates: a game is the flat array ``G``
and the generator state ``RNG`` (see layout.py).

``apply_move`` plays the move and then runs every forced consequence (skips,
penalty draws, UNO catches, the end of the round) until the next decision.

A card put on the discard pile goes through one pipeline (``_play``):
land it (going out, refills, UNO call), its decisions (7, 5, Swap Hands), the
jump-in window, then its effect (``_resolve``: skip, reverse, penalty, ...).
"""

from __future__ import annotations

import numpy as np
from numba.core.extending import overload
from numba.cpython.unsafe.numbers import trailing_zeros

from unosim.simulate import cards as C
from unosim.simulate import layout as L
from unosim.simulate.events_nb import emit
from unosim.simulate.feel_nb import (
    feel_pack,
    feel_reset,
    feel_sample,
    feel_sample_at,
    feel_stop,
)
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.layout import (
    DrawReason,
    DrawRule,
    DrawTen,
    Event,
    Penalty,
    Stacking,
    TargetKind,
)
from unosim.simulate.moves import is_play, named_colour, type_of
from unosim.simulate.rng_nb import below, chance, next_u64_held, rand_below

_COLOUR_OF = C.COLOUR_TABLE
_RANK_OF = C.RANK_TABLE
#: one in each of the 13 rank lanes, bit 3 of each, and their difference
_NIB_ONES = np.int64(0x1111111111111)
_NIB_HIGH = np.int64(0x8888888888888)
_NIB_SEVENS = np.int64(0x7777777777777)


def lowest_bit(x):
    """The index of the lowest set bit of ``x`` (never 0): one instruction compiled
    (below), plain Python with the JIT off."""
    x = int(x)
    return (x & -x).bit_length() - 1


@overload(lowest_bit)
def _lowest_bit_nb(x):
    return lambda x: trailing_zeros(x)


# constant arguments of called kernels as plain int64, not literals: Numba compiles
# a called kernel once per constant argument value (a "literal" type), so
# ``next_seat(G, p, _ONE)`` beside ``next_seat(G, p, k)`` compiled it twice, and
# ``_draw_penalty``, ``_draw_n`` three times (see strategies/builtin_nb._RANDOM)
_ZERO = np.int64(0)
_ONE = np.int64(1)
_TWO = np.int64(2)
# the DrawReason of a draw event, for the same reason
_PENALTY = np.int64(DrawReason.penalty)
_UNO = np.int64(DrawReason.uno)
_OTHER = np.int64(DrawReason.other)



# ----------------------------------------------------------------- small helpers


@kernel_inline
def hx(p, c):
    """Index in G of column ``c`` (a card type, or an HC_* column) of seat ``p``."""
    return L.OFF_H + p * L.HW + c


@kernel_inline
def hu(p, c):
    """``hx`` as an unsigned index: seats and columns are never negative, and an
    unsigned index spares the compiled code a wraparound test (a compare and a
    select) at every read of a hand (the engine's own reads; ``hx`` stays the
    plug-ins' signed one)."""
    return np.uint64(L.OFF_H + p * L.HW + c)


@kernel_inline
def at(i):
    """Index ``i`` (never negative) of ``G`` as unsigned: no wraparound test."""
    return np.uint64(i)


@kernel_inline
def seat_param(G, p, k):
    """Probability threshold ``k`` (an SF_* slot) of seat ``p``."""
    return G[at(L.OFF_SEATF + p * L.N_SEATF + k)]


@kernel_inline
def colour_of(t):
    """``t // N_RANKS`` of a card type (4 for a wild: HC_COLOUR + 4 is HC_WILDS), from
    a table: a signed division by 13 costs some eight instructions."""
    return _COLOUR_OF[at(t)]


@kernel_inline
def rank_of(t):
    """The rank of a card type, -1 for a wild (from a table, as ``colour_of``)."""
    return _RANK_OF[at(t)]


@kernel_inline
def g_colour(G, t):
    """``colour_of``, from the template's copy of the table in G (layout.OFF_CARD_COLOUR):
    one load at a fixed offset from G, where a module table costs one instruction
    more (its address) at each use in the hot paths."""
    return G[at(L.OFF_CARD_COLOUR + t)]


@kernel_inline
def g_rank(G, t):
    """``rank_of`` from G (as ``g_colour``)."""
    return G[at(L.OFF_CARD_RANK + t)]


@kernel_inline
def _wrap(q, n):
    while q >= n:
        q -= n
    while q < 0:
        q += n
    return q


@kernel
def next_seat(G, p, k):
    """The seat ``k`` places after ``p`` in the current direction (seats that are
    out under ``elimination`` are passed over)."""
    n = G[L.R_PLAYERS]
    d = G[L.S_DIR]
    if G[L.R_ELIMINATION] == 0:
        return _wrap(p + d * k, n)
    q = p
    for _ in range(k):
        q = _wrap(q + d, n)
        while G[hu(q, L.HC_PLACE)] != 0:
            q = _wrap(q + d, n)
    return q


#: the phases in which a card played starts a turn (a bit each)
_TURN_PHASES = np.int64((1 << L.PH_TURN) | (1 << L.PH_SKIP) | (1 << L.PH_JUMP)
                        | (1 << L.PH_PENALTY))

#: the seat after seat p in direction d (+1 or -1) at a table of n players, at
#: index 64 n + 16 (d + 1) + p: one load where the wrap at either end of the table
#: took two tests, which the processor mispredicted at about one turn in six
_SEAT_AFTER = np.zeros(64 * (L.MAX_PLAYERS + 1), np.int64)
for _n in range(1, L.MAX_PLAYERS + 1):
    for _p in range(_n):
        _SEAT_AFTER[64 * _n + 32 + _p] = (_p + 1) % _n
        _SEAT_AFTER[64 * _n + _p] = (_p - 1) % _n


@kernel_inline
def seat_after(G, p):
    """``next_seat(G, p, 1)``, inlined where no seat is out of the round (a turn
    passes on in a few instructions instead of a call)."""
    if G[L.R_ELIMINATION] == 0:
        return _SEAT_AFTER[at(64 * G[L.R_PLAYERS] + 16 * G[L.S_DIR] + 16 + p)]
    return next_seat(G, p, _ONE)


@kernel_inline
def two_left(G):
    """Two players at the table: Reverse then acts as Skip (if the rule says so)."""
    return G[L.S_ACTIVE] == 2 and G[L.R_TWO_P_REVERSE_SKIPS] != 0


@kernel_inline
def _hand_dealt(G, p, t):
    """Seat ``p`` gets card ``t`` (the deal: it packs the sizes once, at its end)."""
    G[hu(p, t)] += 1
    c = g_colour(G, t)
    G[hu(p, L.HC_COLOUR + c)] += 1  # a wild counts in HC_WILDS
    G[hu(p, L.HC_NIBS + c)] += G[at(L.OFF_CARD_NIB + t)]
    G[hu(p, L.HC_SIZE)] += 1
    G[hu(p, L.HC_POINTS)] += G[at(L.OFF_CARD_POINTS + t)]


@kernel_inline
def _hand_add(G, p, t):
    """Seat ``p`` gets card ``t``; its packed size too (layout.OFF_FEEL_SIZES)."""
    _hand_dealt(G, p, t)
    G[L.OFF_FEEL_SIZES] += G[at(L.OFF_SEAT_LANE + p)]


@kernel_inline
def _hand_remove(G, p, t):
    G[hu(p, t)] -= 1
    c = g_colour(G, t)
    G[hu(p, L.HC_COLOUR + c)] -= 1  # a wild counts in HC_WILDS
    G[hu(p, L.HC_NIBS + c)] -= G[at(L.OFF_CARD_NIB + t)]
    G[hu(p, L.HC_SIZE)] -= 1
    G[hu(p, L.HC_POINTS)] -= G[at(L.OFF_CARD_POINTS + t)]
    G[L.OFF_FEEL_SIZES] -= G[at(L.OFF_SEAT_LANE + p)]


@kernel
def _reshuffle(G):
    """Keep the top discard; the rest becomes the new draw pile.

    Cards are drawn from a uniformly random position of the draw pile (see
    ``_take_random``), which is the same as drawing the top of a shuffled pile,
    so the pile itself never needs shuffling.
    """
    nd = G[L.S_DISC_LEN]
    if nd <= 1:
        return False
    base = G[L.S_DRAW_LEN]
    for i in range(nd - 1):
        G[at(L.OFF_DRAW + base + i)] = G[at(L.OFF_DISC + i)]
    G[L.S_DRAW_LEN] = base + nd - 1
    G[L.OFF_DISC] = G[L.OFF_DISC + nd - 1]
    G[L.S_DISC_LEN] = 1
    G[L.S_RESHUFFLES] += 1
    emit(G, Event.reshuffle, -1, nd - 1, 0)
    return True


@kernel_inline
def _take_random(G, RNG):
    """Remove and return a uniformly random card of the (non-empty) draw pile."""
    n = G[L.S_DRAW_LEN] - 1
    j = at(L.OFF_DRAW + rand_below(RNG, 0, n + 1))
    t = G[j]
    G[j] = G[at(L.OFF_DRAW + n)]
    G[L.S_DRAW_LEN] = n
    return t


@kernel_inline
def _draw_card(G, RNG, p):
    """Seat ``p`` draws a card; -1 if both piles are empty."""
    if G[L.S_DRAW_LEN] == 0:
        if not _reshuffle(G):
            return -1
    t = _take_random(G, RNG)
    _hand_add(G, p, t)
    G[hu(p, L.HC_LACKS)] = 0  # a card the table did not see: nothing is known to be lacking
    G[at(L.OFF_PUB + p)] = 0
    emit(G, Event.got, p, t, L.GotHow.draw)  # private: to p alone
    return t


@kernel
def _draw_n(G, RNG, p, k, why):
    """Seat ``p`` draws up to ``k`` cards (fewer if both piles run dry) for the
    DrawReason ``why``; how many."""
    return _draw_n_inline(G, RNG, p, k, why)


@kernel_inline
def _draw_n_inline(G, RNG, p, k, why):
    """``_draw_n`` inlined (a Draw Two's penalty in ``_face_penalty_inline``)."""
    got = 0
    for _ in range(k):
        if _draw_card(G, RNG, p) < 0:
            break
        got += 1
    emit(G, Event.draw, p, got, why)
    return got


@kernel
def _draw_penalty(G, RNG, p, k, why):
    """Seat ``p`` draws ``k`` penalty cards (fewer if both piles run dry)."""
    G[L.S_PEN_DRAWN] += _draw_n(G, RNG, p, k, why)


@kernel_inline
def is_match(G, t):
    """Colour, number or symbol match with the top card, or any wild."""
    if t >= C.WILD:
        return True
    if g_colour(G, t) == G[L.S_COLOUR]:
        return True
    top = G[L.S_TOP]
    return top < C.WILD and g_rank(G, t) == g_rank(G, top)


@kernel_inline
def wd4_is_legal(G, p):
    """A Wild Draw Four is legal only when the hand holds no card of the colour."""
    return G[hu(p, L.HC_COLOUR + G[L.S_COLOUR])] == 0


@kernel_inline
def _wd4_allowed(G, p, bluff):
    """Legal, or a bluff that the player chose and the table allows."""
    return wd4_is_legal(G, p) or (bluff and G[L.R_WD4_BLUFF] != 0)


@kernel_inline
def _playable(G, p, t):
    """May ``t`` be played now by ``p`` (a bluff counts if the table allows it)?"""
    if t == C.WILD_DRAW_FOUR:
        return _wd4_allowed(G, p, True)
    return is_match(G, t)


@kernel_inline
def penalty_of(G, t):
    """Cards the next player must draw for card ``t`` (0 for a non-draw card)."""
    if t == C.WILD_DRAW_FOUR:
        return Penalty.wild_draw_four
    if t < C.WILD:
        r = g_rank(G, t)
        if r == C.RANK_DRAW_TWO:
            return Penalty.draw_two
        if r == 0 and G[L.R_DRAW_TEN] == DrawTen.zeros:
            return Penalty.draw_ten
        return Penalty.none
    if t == C.BLANK and G[L.R_DRAW_TEN] == DrawTen.blanks:
        return Penalty.draw_ten
    return Penalty.none


@kernel_inline
def last_card_barred(G, p):
    """finish_on_action=false: ``p`` holds one card, which may not be played because it
    would take ``p`` out on an action card (docs/rules.md#rule-finish_on_action). The
    hand size is tested first, so a hand of two or more costs one compare."""
    if G[hu(p, L.HC_SIZE)] != 1 or G[L.R_FINISH_ON_ACTION] != 0:
        return False
    return _lone_action_card(G, p)


@kernel_inline
def _lone_action_card(G, p):
    """Whether ``p``'s one card is an action card (any wild, a Skip, Reverse or Draw
    Two, a Draw Ten 0) whose play would take ``p`` out: under seven_rounds only at
    stage 1, where emptying the hand wins; before that it refills the hand."""
    if G[L.R_SEVEN_ROUNDS] != 0 and G[hu(p, L.HC_STAGE)] > 1:
        return False
    if G[hu(p, L.HC_WILDS)] > 0:
        return True
    zeros = G[L.R_DRAW_TEN] == DrawTen.zeros
    for c in range(4):
        base = c * C.N_RANKS
        if (G[hu(p, base + C.RANK_SKIP)] + G[hu(p, base + C.RANK_REVERSE)]
                + G[hu(p, base + C.RANK_DRAW_TWO)]) > 0 or (zeros and G[hu(p, base)] > 0):
            return True
    return False


# ------------------------------------------------------------------------ deal


@kernel_inline
def house_acts(G):
    """Whether the rules have a house rule act on played cards (Seven-O, swap on five,
    Swap Hands, jump-in, silent twos): what the deal keeps in OFF_HOUSE for the round's
    steps, and one of the tables the quick round kernel cannot serve
    (standins_nb.leaves_out reads it as plain Python)."""
    return (G[L.R_SEVEN_O] | G[L.R_SWAP_ON_FIVE] | G[L.R_SWAP_HANDS_WILD]
            | G[L.R_JUMP_IN]) != 0 or G[L.RF_SILENT_TWOS] > 0


@kernel(share="deal", kinds="GR")
def deal(G, RNG):
    """Reset the state, deal the deck held in G and turn the first card.

    A Wild Draw Four or other special wild (or, under ``first_card=number_only``,
    any non-number card) turned first goes back into the draw pile and another
    random card is turned: the same as returning it, shuffling and flipping
    again (docs/rules.md#rule-first_card).
    """
    for i in range(L.N_STATE):
        G[i] = 0
    n_players = G[L.R_PLAYERS]
    # the hands: stores of a zero the compiler cannot prove zero (``n_players >> 62``
    # is 0 for every table, and the loop runs only when there are players). A zero it
    # knows made the loop one memset, of 2,400 bytes at 4 players, which glibc runs
    # as a string instruction (``rep stosb``): some 2,500 instructions a game by
    # cachegrind's count, where vector stores take about a hundred. Unsigned
    # indices: no wraparound test a slot.
    zero = n_players >> 62
    for i in range(L.OFF_H, L.OFF_H + n_players * L.HW):
        G[at(i)] = zero
    feel_reset(G)
    for p in range(n_players):
        G[at(L.OFF_PUB + p)] = zero  # (a known zero: a call to memset)
    G[L.OFF_HOUSE] = int(house_acts(G))
    G[L.S_DIR] = 1
    # _next_turn's table row (``seat_after``'s index less the direction and seat)
    # where no seat is out and no takeback is pending, else 0
    G[L.S_TURN_BASE] = (64 * n_players + 16) * int(
        (G[L.R_ELIMINATION] | G[L.R_WD4_TAKEBACK]) == 0)
    G[L.S_WINNER] = -1
    G[L.S_ACTIVE] = n_players
    if G[L.RF_EVENTS] != 0:
        G[L.OFF_EV_N] = 0
        G[L.OFF_EV_READ] = 0
        emit(G, Event.deal, -1, n_players, 0)
    n = G[L.R_DECK_SIZE]
    for i in range(n):
        G[at(L.OFF_DRAW + i)] = G[at(L.OFF_DECK + i)]
    # the hands: ``_take_random`` a card, with stream 0's state and the pile's length
    # held in locals until the last card (the same numbers in the same order; a
    # card's stores into G no longer make the compiler load and store them again)
    s0 = RNG[0]
    s1 = RNG[1]
    s2 = RNG[2]
    s3 = RNG[3]
    for _ in range(G[L.R_HAND_SIZE]):
        for p in range(n_players):
            x, s0, s1, s2, s3 = next_u64_held(s0, s1, s2, s3)
            j = at(L.OFF_DRAW + below(x, n))
            n -= 1
            t = G[j]
            G[j] = G[at(L.OFF_DRAW + n)]
            _hand_dealt(G, p, t)
    feel_pack(G)
    RNG[0] = s0
    RNG[1] = s1
    RNG[2] = s2
    RNG[3] = s3
    G[L.S_DRAW_LEN] = n
    if G[L.R_SEVEN_ROUNDS] != 0:
        for p in range(n_players):
            G[hu(p, L.HC_STAGE)] = G[L.R_HAND_SIZE]
    while True:
        t = _take_random(G, RNG)
        emit(G, Event.flip, -1, t, 0)
        back = t > C.WILD or (G[L.R_FIRST_CARD] == L.FirstCard.number_only
                              and (t >= C.WILD or rank_of(t) > 9))
        if not back:
            break
        G[L.OFF_DRAW + G[L.S_DRAW_LEN]] = t
        G[L.S_DRAW_LEN] += 1
    G[L.OFF_DISC] = t
    G[L.S_DISC_LEN] = 1
    G[L.S_TOP] = t
    G[L.S_PHASE] = L.PH_TURN
    G[L.S_ACTOR] = 0
    if t == C.WILD:
        G[L.S_PHASE] = L.PH_COLOUR
        return
    G[L.S_COLOUR] = colour_of(t)  # a coloured card here: tables, not two divisions
    rank = rank_of(t)
    first_penalty = penalty_of(G, t)
    if rank == C.RANK_SKIP:
        G[L.S_ACTOR] = 1 % n_players
    elif rank == C.RANK_REVERSE:
        if n_players == 2 and G[L.R_TWO_P_REVERSE_SKIPS] != 0:
            G[L.S_ACTOR] = 1
        else:
            G[L.S_DIR] = -1
            G[L.S_ACTOR] = n_players - 1
    elif first_penalty > 0:
        # a first Draw Two (or Draw Ten) can be neither stacked on nor deflected
        _draw_penalty(G, RNG, _ZERO, first_penalty, _PENALTY)
        G[L.S_ACTOR] = 1 % n_players


# ----------------------------------------------------------------- legal moves


@kernel
def count_playable(G, p, bluff):
    """Physical cards ``p`` may play on its turn, in O(1) from the colour counts.

    A Wild Draw Four held against the colour rule counts only when ``bluff`` is
    set and the table allows bluffing. ``nth_playable`` walks the same order as
    ``legal_moves``: current colour, same number or symbol, then wild types. A last
    card barred by finish_on_action still counts here: the built-ins test
    ``last_card_barred`` when the count is 1 (a test inside this hot count cost the
    engine some 8% of its instructions); plug-ins get ``count_allowed``.
    """
    c = G[L.S_COLOUR]
    cc = G[hu(p, L.HC_COLOUR + c)]
    total = cc
    top = G[L.S_TOP]
    if top < C.WILD:
        # the top's rank in the other colours: all four less colour c's, without a
        # branch on which colour is skipped
        r = g_rank(G, top)
        total += (G[hu(p, r)] + G[hu(p, C.N_RANKS + r)] + G[hu(p, 2 * C.N_RANKS + r)]
                  + G[hu(p, 3 * C.N_RANKS + r)] - G[hu(p, c * C.N_RANKS + r)])
    total += G[hu(p, L.HC_WILDS)]
    # less the Wild Draw Fours that may not be played (``_wd4_allowed``), without a
    # branch on the hand: whether it holds the colour is a coin flip to the
    # processor, and that branch was the engine's most mispredicted (the count is
    # read whether or not it is needed, so that the compiler need not branch)
    wd4 = G[hu(p, C.WILD_DRAW_FOUR)]
    if bluff and G[L.R_WD4_BLUFF] != 0:
        return total
    return total - (wd4 & -np.int64(cc != 0))


@kernel
def count_allowed(G, p, bluff):
    """``count_playable`` less a last card barred by finish_on_action: the count the
    plug-in API exports as ``count_playable``."""
    if last_card_barred(G, p):
        return 0
    return count_playable(G, p, bluff)


@kernel
def nth_playable(G, p, bluff, k):
    """The type of the ``k``-th playable physical card (0-based) of ``p``; -1 when
    there is none (``k`` at or past ``count_playable``)."""
    if last_card_barred(G, p):
        return -1
    return nth_playable_inline(G, p, bluff, k)


@kernel_inline
def nth_playable_inline(G, p, bluff, k):
    """``nth_playable`` inlined (``random``'s turn picks with it), for a ``k`` below
    ``count_playable``: that count already says whether a last card is barred."""
    c = G[L.S_COLOUR]
    cc = G[hu(p, L.HC_COLOUR + c)]
    if k < cc:
        if cc < 8:
            # without a branch on the hand (where the scan below stops is a coin flip
            # to the processor): the colour's packed counts times the lane ones put in
            # lane i the cards of ranks 0..i (at most 7: no carry); with 7 - k added
            # to each lane (k < 7: no borrow, no carry), bit 3 is set exactly in the
            # lanes past k, and the first of them is the card's rank (bit 4 i + 3:
            # with 4 * 13 c added, a quarter of it is the card's type)
            over = ((G[hu(p, L.HC_NIBS + c)] - k) * _NIB_ONES + _NIB_SEVENS) & _NIB_HIGH
            return (lowest_bit(over) + 4 * C.N_RANKS * c) >> 2
        for t in range(c * C.N_RANKS, c * C.N_RANKS + C.N_RANKS):
            k -= G[hu(p, t)]
            if k < 0:
                return t
    k -= cc
    top = G[L.S_TOP]
    if top < C.WILD:
        r = g_rank(G, top)
        for oc in range(4):
            if oc != c:
                t = oc * C.N_RANKS + r
                k -= G[hu(p, t)]
                if k < 0:
                    return t
    for t in range(C.WILD, C.N_TYPES):
        if t != C.WILD_DRAW_FOUR or _wd4_allowed(G, p, bluff):
            k -= G[hu(p, t)]
            if k < 0:
                return t
    return -1


@kernel_inline
def _offer(G, n, move, weight):
    G[L.OFF_MOVES + n] = move
    G[L.OFF_WEIGHTS + n] = weight
    return n + 1


@kernel_inline
def _offer_held(G, n, p, t):
    """Offer playing ``t`` if ``p`` holds it."""
    if G[hu(p, t)] > 0:
        return _offer(G, n, t, G[hu(p, t)])
    return n


@kernel
def legal_moves(G):
    """Write the legal moves to G[OFF_MOVES..] (copies held to G[OFF_WEIGHTS..]).

    A play of type t is listed once as ``t`` with weight = copies held; a wild
    is then played as ``moves.with_colour(t, colour)``. Weights let a strategy choose among
    physical cards rather than types. Returns the number of moves.
    """
    ph = G[L.S_PHASE]
    p = G[L.S_ACTOR]
    n = 0
    if ph == L.PH_TURN:
        if last_card_barred(G, p):
            return _offer(G, n, L.MV_DRAW, 1)
        c = G[L.S_COLOUR]
        for t in range(c * C.N_RANKS, c * C.N_RANKS + C.N_RANKS):
            n = _offer_held(G, n, p, t)
        top = G[L.S_TOP]
        if top < C.WILD:
            r = rank_of(top)
            for oc in range(4):
                if oc != c:
                    n = _offer_held(G, n, p, oc * C.N_RANKS + r)
        legal = n > 0
        if G[hu(p, L.HC_WILDS)] > 0:
            for t in range(C.WILD, C.N_TYPES):
                if G[hu(p, t)] > 0 and _playable(G, p, t):
                    n = _offer(G, n, t, G[hu(p, t)])
                    legal = legal or t != C.WILD_DRAW_FOUR or wd4_is_legal(G, p)
        if G[L.R_VOLUNTARY_DRAW] != 0 or not legal:
            n = _offer(G, n, L.MV_DRAW, 1)
    elif ph == L.PH_DRAWN:
        n = _offer(G, n, G[L.S_DRAWN], 1)
        n = _offer(G, n, L.MV_PASS, 1)
    elif ph == L.PH_CHALLENGE:
        n = _offer(G, n, L.MV_CHALLENGE, 1)
        n = _offer(G, n, L.MV_ACCEPT, 1)
    elif ph == L.PH_PENALTY:
        n = _penalty_answers(G, p)
        n = _offer(G, n, L.MV_TAKE, 1)
    elif ph == L.PH_COLOUR:
        for c in range(4):
            n = _offer(G, n, L.MV_COLOUR + c, 1)
    elif ph == L.PH_SKIP:
        if not last_card_barred(G, p):
            n = _offer_held(G, n, p, (G[L.S_EFF_CARD] // C.N_RANKS) * C.N_RANKS + C.RANK_SKIP)
        n = _offer(G, n, L.MV_ACCEPT, 1)
    elif ph == L.PH_JUMP:
        if not last_card_barred(G, p):
            n = _offer_held(G, n, p, G[L.S_TOP])
        n = _offer(G, n, L.MV_PASS, 1)
    elif ph == L.PH_TARGET:
        for q in range(G[L.R_PLAYERS]):
            if q != p and G[hu(q, L.HC_PLACE)] == 0:
                n = _offer(G, n, L.MV_TARGET + q, 1)
        if G[L.S_TARGET_KIND] == TargetKind.five:
            n = _offer(G, n, L.MV_PASS, 1)  # a trade on a 5 is optional
    elif ph == L.PH_GIVE:
        for t in range(C.N_TYPES):
            if G[hu(p, t)] > 0:
                n = _offer(G, n, L.MV_GIVE + t, G[hu(p, t)])
    return n


@kernel(share="steps", kinds="Gi")
def _penalty_answers(G, p):
    """Cards the victim ``p`` may answer a pending penalty with: stack
    (progressive), deflect (non-summing), or a Reverse of the colour; none when its
    last card is barred (finish_on_action)."""
    n = 0
    if last_card_barred(G, p):
        return n
    mode = G[L.R_STACKING]
    mixed = G[L.R_STACK_CARDS] == L.StackCards.mixed
    four_on_two = mixed or G[L.R_STACK_CARDS] == L.StackCards.wd4_on_d2
    kind = G[L.S_PEND_KIND]
    if mode != Stacking.none:
        if kind == Penalty.draw_two or (kind == Penalty.wild_draw_four and mixed):
            for c in range(4):
                if kind == Penalty.draw_two or c == G[L.S_COLOUR]:
                    n = _offer_held(G, n, p, c * C.N_RANKS + C.RANK_DRAW_TWO)
        if mode == Stacking.progressive and (
                kind == Penalty.wild_draw_four or (kind == Penalty.draw_two and four_on_two)):
            t = C.WILD_DRAW_FOUR
            if G[hu(p, t)] > 0 and _playable(G, p, t):
                n = _offer(G, n, t, G[hu(p, t)])
        if kind == Penalty.draw_ten:
            if G[L.R_DRAW_TEN] == DrawTen.zeros:
                for c in range(4):
                    n = _offer_held(G, n, p, c * C.N_RANKS)
            else:
                n = _offer_held(G, n, p, C.BLANK)
    if G[L.R_REVERSE_DEFLECT] != 0 and kind != Penalty.draw_ten:  # 4b: a Draw Two or Wild Draw Four
        n = _offer_held(G, n, p, G[L.S_COLOUR] * C.N_RANKS + C.RANK_REVERSE)
    return n


@kernel
def is_legal(G, move):
    """Check one move against ``legal_moves``: a coloured card is played as its
    type ``t``, a wild as ``moves.with_colour(t, colour)`` with colour 0..3."""
    n = legal_moves(G)
    base = move
    if 0 <= move < L.MV_PLAY_END:
        if not is_play(move):
            return False
        base = type_of(move)
    for i in range(n):
        if G[L.OFF_MOVES + i] == base:
            return True
    return False


# ------------------------------------------------------------------- apply


@kernel_inline
def apply_move(G, RNG, move):
    """Apply a legal move of ``G[S_ACTOR]`` and run on to the next decision."""
    ph = G[L.S_PHASE]
    p = G[L.S_ACTOR]
    if 0 <= move < L.MV_PLAY_END:
        # a card from the hand; all card plays share one _play below, so the big
        # pipeline is compiled once (it is inlined into the game loop)
        emit(G, Event.play, p, move, ph)
        # the phases where a play starts a turn, one bit each (a drawn card played,
        # PH_DRAWN, is part of the draw's turn), then one test leaves a turn's play
        # (the other two are later phases): not four equality tests, which the
        # compiler made a switch that tested the turn last
        if (_TURN_PHASES >> ph) & 1:
            _turn_starts(G)
        if ph > L.PH_CHALLENGE:
            if ph == L.PH_SKIP:
                G[L.S_DEFLECTS] += 1
            elif ph == L.PH_JUMP:
                G[L.S_JUMP_INS] += 1
                if rank_of(G[L.S_TOP]) == C.RANK_REVERSE and not two_left(G):
                    # Reverses add up: the one jumped upon flips the direction too
                    # (where a Reverse is a Skip, two players left, it flips nothing)
                    G[L.S_DIR] = -G[L.S_DIR]
            elif ph == L.PH_PENALTY:
                if rank_of(type_of(move)) == C.RANK_REVERSE:
                    _reverse_deflect(G, RNG, p, type_of(move))
                    return
                if G[L.R_STACKING] == Stacking.deflect:
                    G[L.S_DEFLECTS] += 1
        _play(G, RNG, p, move)
    elif ph == L.PH_TURN:
        _turn_starts(G)
        _draw_turn(G, RNG, p)
    elif ph == L.PH_CHALLENGE and move == L.MV_ACCEPT:
        # a Wild Draw Four accepted (``_decide``, ``_challenge``): faced without calls
        _face_penalty_inline(G, RNG, p)
    else:
        _decide(G, RNG, ph, p, move)


@kernel_inline
def _turn_starts(G):
    """A turn starts: its game-feel sample (docs/metrics.md#game-feel), before the
    player acts, then the turn count (read once: as far as the compiler knows, the
    sample's store could be the counter)."""
    turns = G[L.S_TURNS]
    feel_sample_at(G, turns)
    G[L.S_TURNS] = turns + 1


@kernel(share="steps", kinds="GRiii")
def _decide(G, RNG, ph, p, move):
    """The moves that are not a card: pass, take, challenge, colour, target, give."""
    if ph == L.PH_DRAWN:
        # keep the drawn card: to the table this looks like a draw that did not play,
        # so what it inferred (_seen_lacking) stands
        emit(G, Event.keep, p, 0, 0)
        _next_turn(G, p)
    elif ph == L.PH_CHALLENGE:
        _challenge(G, RNG, p, move == L.MV_CHALLENGE)
    elif ph == L.PH_PENALTY:
        if G[L.R_STACKING] != Stacking.none:
            _turn_starts(G)  # under stacking, taking the penalty is a turn
        _draw_penalty(G, RNG, p, G[L.S_PENDING], _PENALTY)
        _clear_penalty(G)
        _next_turn(G, p)
    elif ph == L.PH_COLOUR:
        G[L.S_COLOUR] = move - L.MV_COLOUR
        emit(G, Event.colour, p, move - L.MV_COLOUR, 0)
        G[L.S_PHASE] = L.PH_TURN
    elif ph == L.PH_SKIP:
        _pass_turn(G, next_seat(G, p, _ONE))  # accept the Skip
    elif ph == L.PH_JUMP:
        G[L.S_JUMP_IDX] += 1  # decline; ask the next candidate
        _offer_jump(G, RNG)
    elif ph == L.PH_TARGET:
        if move == L.MV_PASS:
            emit(G, Event.swap, p, -1, G[L.S_TARGET_KIND])
            _open_window(G, RNG)
        else:
            _target_chosen(G, RNG, p, move - L.MV_TARGET)
    elif ph == L.PH_GIVE:
        _give_chosen(G, RNG, p, move - L.MV_GIVE)


@kernel(share="steps", kinds="Gi")
def _pass_turn(G, p):
    """The next turn is seat ``p``'s (unless a takeback costs it that turn)."""
    if G[L.R_WD4_TAKEBACK] != 0 and G[hu(p, L.HC_SKIP_NEXT)] != 0:
        G[hu(p, L.HC_SKIP_NEXT)] = 0
        p = next_seat(G, p, _ONE)
    G[L.S_ACTOR] = p
    G[L.S_PHASE] = L.PH_TURN


@kernel_inline
def _next_turn(G, p):
    """The turn passes to the seat after ``p`` (``_pass_turn``): inlined, and
    without a takeback pending the seat after ``p`` simply plays."""
    base = G[L.S_TURN_BASE]
    if base != 0:
        G[L.S_ACTOR] = _SEAT_AFTER[at(base + 16 * G[L.S_DIR] + p)]
        G[L.S_PHASE] = L.PH_TURN
    else:
        q = seat_after(G, p)
        if G[L.R_WD4_TAKEBACK] != 0:
            _pass_turn(G, q)
        else:
            G[L.S_ACTOR] = q
            G[L.S_PHASE] = L.PH_TURN


@kernel_inline
def _clear_penalty(G):
    G[L.S_PENDING] = 0
    G[L.S_PEND_KIND] = Penalty.none
    G[L.S_STACK_LEN] = 0


@kernel_inline
def _draw_turn(G, RNG, p):
    """Draw under ``draw_rule``; a playable drawn card opens PH_DRAWN."""
    rule = G[L.R_DRAW_RULE]
    got = 0
    while True:
        t = _draw_card(G, RNG, p)
        if t < 0:
            break
        got += 1
        G[L.S_DRAWN_NO_PLAY] += 1
        if rule == DrawRule.draw_one_pass:
            break
        if _playable(G, p, t) and not last_card_barred(G, p):
            G[L.S_DRAWN] = t
            G[L.S_PHASE] = L.PH_DRAWN
            _seen_lacking(G, p)
            emit(G, Event.draw, p, got, DrawReason.turn)
            return
        if rule == DrawRule.draw_one:
            break
    _seen_lacking(G, p)
    if G[L.RF_EVENTS] != 0:
        # a drawn card that could be played looks the same as one that could not
        emit(G, Event.draw, p, got, DrawReason.turn)
        emit(G, Event.keep, p, 0, 0)
    _next_turn(G, p)


@kernel_inline
def _seen_lacking(G, p):
    """What a draw turn tells the table, from what it saw alone (never from the hand:
    a strategy may read these bits, docs/strategies.md#seen-to-lack): ``p`` drew, so
    (unless it drew by choice) it held nothing playable, and a drawn card it did not
    play was not playable (unless it kept a playable one, which looks the same).
    HC_LACKS gets the current colour, OFF_PUB the colour, the top card's rank and the
    wilds; both are cleared when ``p`` gets a card the table did not see. Under
    draw_one_pass a drawn card is never played at once, so it may be of the colour:
    nothing is inferred."""
    if G[L.R_DRAW_RULE] != DrawRule.draw_one_pass:
        c = G[L.S_COLOUR]
        G[hu(p, L.HC_LACKS)] |= 1 << c
        top = G[L.S_TOP]
        pub = (1 << c) | (1 << L.PUB_WILD)
        if top < C.WILD:
            pub |= 1 << (L.PUB_RANK + rank_of(top))
        G[at(L.OFF_PUB + p)] |= pub


@kernel_inline
def _play(G, RNG, p, move):
    """Put a card from ``p``'s hand on the discard pile, then run the pipeline:
    going out, UNO call, the card's decisions, jump-in window, effect."""
    t = type_of(move)
    if t == C.WILD_DRAW_FOUR:
        G[L.S_PREV_COLOUR] = G[L.S_COLOUR]
        G[L.S_BLUFF] = 0 if wd4_is_legal(G, p) else 1
        G[at(L.OFF_PUB + p)] |= 1 << G[L.S_COLOUR]  # the table infers it held none (unless a bluff)
    _hand_remove(G, p, t)
    nd = G[L.S_DISC_LEN]
    G[at(L.OFF_DISC + nd)] = t
    G[L.S_DISC_LEN] = nd + 1
    G[L.S_TOP] = t
    if t < C.WILD:
        G[L.S_COLOUR] = g_colour(G, t)
    elif G[L.R_COLOR_ROTATION] != 0 and (t == C.WILD or t == C.WILD_DRAW_FOUR):
        # red -> blue -> green -> yellow -> red clockwise (colour ids r0 y1 g2 b3)
        G[L.S_COLOUR] = (G[L.S_COLOUR] + (3 if G[L.S_DIR] > 0 else 1)) % 4
    else:
        G[L.S_COLOUR] = named_colour(move)
    G[L.S_PLAYED] += 1
    amount = penalty_of(G, t)
    if amount > 0:
        progressive = G[L.R_STACKING] == Stacking.progressive
        G[L.S_PENDING] = G[L.S_PENDING] + amount if progressive else amount
        G[L.S_PEND_KIND] = amount
        G[L.S_STACK_LEN] += 1
        if G[L.S_STACK_LEN] > G[L.S_MAX_STACK]:
            G[L.S_MAX_STACK] = G[L.S_STACK_LEN]
        G[L.S_LAST] = p
    G[L.S_EFF_SEAT] = p
    G[L.S_EFF_CARD] = t
    size = G[hu(p, L.HC_SIZE)]
    if size == 0:
        if _hand_emptied(G, RNG, p, t):
            return
    elif size == 1:
        if _uno_call_matters(G, p):
            _uno_call(G, RNG, p)
        else:
            emit(G, Event.uno, p, 1, 0)
    if G[L.OFF_HOUSE] == 0 or not _house_decisions(G, RNG, p, t):
        _resolve_card(G, RNG, p, t, amount)


@kernel(share="steps", kinds="GRii")
def _house_decisions(G, RNG, p, t):
    """What the house rules make of a played card before its effect (``OFF_HOUSE``
    says whether any of them is on): silence broken after a 2; Seven-O, swap on
    five and Swap Hands ask ``p`` for a target first; a 0 under Seven-O rotates
    the hands; jump-in opens its window. False when the effect is to be resolved
    now."""
    r = rank_of(t)
    if r == 2 and G[L.RF_SILENT_TWOS] > 0:
        _silent_twos(G, RNG, p)
    if G[L.R_SEVEN_O] != 0 and r == 7:
        G[L.S_TARGET_KIND] = TargetKind.seven
    elif G[L.R_SWAP_ON_FIVE] != 0 and r == 5:
        G[L.S_TARGET_KIND] = TargetKind.five
    elif G[L.R_SWAP_HANDS_WILD] != 0 and t == C.SWAP_HANDS:
        G[L.S_TARGET_KIND] = TargetKind.swap_hands
    else:
        if G[L.R_SEVEN_O] != 0 and r == 0:
            _rotate_hands(G, p)
        if G[L.R_JUMP_IN] == 0:
            return False
        _open_window(G, RNG)
        return True
    G[L.S_ACTOR] = p
    G[L.S_PHASE] = L.PH_TARGET
    return True


@kernel
def _swap_rows(G, a, b):
    """Exchange the hands of seats ``a`` and ``b`` (cards, counts, size, value)."""
    for c in range(L.HC_POINTS + 1):
        x = G[hu(a, c)]
        G[hu(a, c)] = G[hu(b, c)]
        G[hu(b, c)] = x
    x = G[hu(a, L.HC_LACKS)]  # what the table knows goes with the hand
    G[hu(a, L.HC_LACKS)] = G[hu(b, L.HC_LACKS)]
    G[hu(b, L.HC_LACKS)] = x
    x = G[L.OFF_PUB + a]
    G[L.OFF_PUB + a] = G[L.OFF_PUB + b]
    G[L.OFF_PUB + b] = x
    feel_pack(G)


@kernel
def _rotate_hands(G, p):
    """Every hand passes to the next player in the direction of play (a 0)."""
    last = p
    for _ in range(G[L.S_ACTIVE] - 1):
        last = next_seat(G, last, _ONE)
    # walk backwards from the last seat: each takes the hand of the seat before it
    G[L.S_DIR] = -G[L.S_DIR]
    q = last
    for _ in range(G[L.S_ACTIVE] - 1):
        prev = next_seat(G, q, _ONE)
        _swap_rows(G, q, prev)
        q = prev
    G[L.S_DIR] = -G[L.S_DIR]
    G[L.S_SWAPS] += 1
    emit(G, Event.rotate, p, 0, 0)


@kernel(share="steps", kinds="GRii")
def _target_chosen(G, RNG, p, q):
    """``p`` named ``q``: swap hands (7, Swap Hands) or start a trade (5)."""
    emit(G, Event.swap, p, q, G[L.S_TARGET_KIND])
    if G[L.S_TARGET_KIND] == TargetKind.five:
        G[L.S_TARGET] = q
        G[L.S_PHASE] = L.PH_GIVE
        return
    _swap_rows(G, p, q)
    G[L.S_SWAPS] += 1
    _open_window(G, RNG)


@kernel(share="steps", kinds="GRii")
def _give_chosen(G, RNG, p, t):
    """A side of a trade on a 5 names its card; when both have, they swap."""
    if p == G[L.S_EFF_SEAT]:
        G[L.S_GIVE] = t
        G[L.S_ACTOR] = G[L.S_TARGET]
        return
    giver = G[L.S_EFF_SEAT]
    _hand_remove(G, giver, G[L.S_GIVE])
    _hand_remove(G, p, t)
    _hand_add(G, p, G[L.S_GIVE])
    _hand_add(G, giver, t)
    emit(G, Event.got, p, G[L.S_GIVE], L.GotHow.trade)  # private: each to its receiver
    emit(G, Event.got, giver, t, L.GotHow.trade)
    G[hu(p, L.HC_LACKS)] = 0  # each side got a card the table did not see
    G[hu(giver, L.HC_LACKS)] = 0
    G[L.OFF_PUB + p] = 0
    G[L.OFF_PUB + giver] = 0
    G[L.S_SWAPS] += 1
    _open_window(G, RNG)


@kernel(share="steps", kinds="GR")
def _open_window(G, RNG):
    """Jump-in: list who holds a card identical to the top card (and may play it: not
    a last card barred by finish_on_action) and ask them in order (a random order, or
    turn order from the player whose turn is next)."""
    t = G[L.S_TOP]
    if G[L.R_JUMP_IN] == 0 or t == C.WILD_DRAW_FOUR or t > C.WILD:
        _resolve(G, RNG)
        return
    p = G[L.S_EFF_SEAT]
    n_players = G[L.R_PLAYERS]
    # turn order once the card's effect has been applied, from the seat whose
    # turn would be next
    r = rank_of(t)
    orig = G[L.S_DIR]
    d = -orig if r == C.RANK_REVERSE and not two_left(G) else orig
    skip = r == C.RANK_SKIP or (r == C.RANK_REVERSE and two_left(G)) or penalty_of(G, t) > 0
    G[L.S_DIR] = d
    first = next_seat(G, p, _TWO if skip else _ONE)
    G[L.S_DIR] = orig
    n = 0
    q = first
    for _ in range(n_players):
        if G[hu(q, L.HC_PLACE)] == 0 and G[hu(q, t)] > 0 and not last_card_barred(G, q):
            G[L.OFF_ORDER + n] = q
            n += 1
        q = _wrap(q + d, n_players)
    if G[L.R_JUMP_IN_ORDER] == L.JumpInOrder.random:
        for i in range(n - 1, 0, -1):
            j = rand_below(RNG, 1, i + 1)
            x = G[L.OFF_ORDER + i]
            G[L.OFF_ORDER + i] = G[L.OFF_ORDER + j]
            G[L.OFF_ORDER + j] = x
    G[L.S_JUMP_N] = n
    G[L.S_JUMP_IDX] = 0
    _offer_jump(G, RNG)


@kernel(share="steps", kinds="GR")
def _offer_jump(G, RNG):
    """Ask the next candidate who still holds an identical card; else resolve."""
    while G[L.S_JUMP_IDX] < G[L.S_JUMP_N]:
        q = G[L.OFF_ORDER + G[L.S_JUMP_IDX]]
        if G[hu(q, G[L.S_TOP])] > 0:
            G[L.S_ACTOR] = q
            G[L.S_PHASE] = L.PH_JUMP
            return
        G[L.S_JUMP_IDX] += 1
    _resolve(G, RNG)


@kernel_inline
def _resolve(G, RNG):
    """Apply the effect of the card on top, played from seat S_EFF_SEAT."""
    t = G[L.S_EFF_CARD]
    _resolve_card(G, RNG, G[L.S_EFF_SEAT], t, penalty_of(G, t))


@kernel_inline
def _resolve_card(G, RNG, p, t, amount):
    """``_resolve`` of card ``t`` played from seat ``p``, its ``penalty_of`` known
    (``_play`` has it). A number card, most plays, passes the turn after three tests
    (no penalty, not a Skip or Reverse, not a wild); the tests are not a switch on
    the rank, which compiled to a jump through a table, an indirect branch that the
    processor mispredicted about one play in three."""
    r = rank_of(t)
    if amount > 0:
        victim = seat_after(G, p)
        if t == C.WILD_DRAW_FOUR and G[L.R_WD4_CHALLENGE] != 0:
            G[L.S_ACTOR] = victim
            G[L.S_PHASE] = L.PH_CHALLENGE
        else:
            _face_penalty_inline(G, RNG, victim)
    elif r < C.RANK_SKIP:
        # a number (a 0 is one here: a Draw Ten 0 has a penalty) or a wild (rank -1)
        if r < 0 and (t == C.DOWNPOUR_ONE or t == C.DOWNPOUR_TWO):
            k = 1 if t == C.DOWNPOUR_ONE else 2
            q = seat_after(G, p)
            while q != p:
                _draw_penalty(G, RNG, q, k, _OTHER)
                q = next_seat(G, q, _ONE)
        _next_turn(G, p)
    elif r == C.RANK_SKIP:
        victim = seat_after(G, p)
        skip = colour_of(t) * C.N_RANKS + C.RANK_SKIP
        if (G[L.R_SKIP_DEFLECT] != 0 and G[hu(victim, skip)] > 0 and victim != p
                and not last_card_barred(G, victim)):
            G[L.S_ACTOR] = victim
            G[L.S_PHASE] = L.PH_SKIP
        else:
            _next_turn(G, victim)
    elif r == C.RANK_REVERSE:
        if two_left(G):
            _next_turn(G, seat_after(G, p))
        else:
            G[L.S_DIR] = -G[L.S_DIR]
            _next_turn(G, p)
    else:
        _next_turn(G, p)


@kernel(share="steps", kinds="GRi")
def _face_penalty(G, RNG, victim):
    """The victim may answer (stacking modes, reverse_deflect) or draws and is skipped."""
    _face_penalty_inline(G, RNG, victim)


@kernel_inline
def _face_penalty_inline(G, RNG, victim):
    """``_face_penalty`` inlined, drawing without a call too: where a Draw Two's
    effect resolves (``_resolve``), a few times a game, each call passing its arrays
    field by field cost some 35 instructions."""
    if G[L.R_STACKING] != Stacking.none or G[L.R_REVERSE_DEFLECT] != 0:
        G[L.S_ACTOR] = victim
        G[L.S_PHASE] = L.PH_PENALTY
        return
    G[L.S_PEN_DRAWN] += _draw_n_inline(G, RNG, victim, G[L.S_PENDING], _PENALTY)
    _clear_penalty(G)
    _next_turn(G, victim)


@kernel(share="steps", kinds="GRii")
def _reverse_deflect(G, RNG, p, t):
    """A Reverse of the colour sends the same penalty back where it came from."""
    G[L.S_DEFLECTS] += 1
    _hand_remove(G, p, t)
    nd = G[L.S_DISC_LEN]
    G[at(L.OFF_DISC + nd)] = t
    G[L.S_DISC_LEN] = nd + 1
    G[L.S_TOP] = t
    G[L.S_COLOUR] = colour_of(t)
    G[L.S_PLAYED] += 1
    G[L.S_DIR] = -G[L.S_DIR]
    back = G[L.S_LAST]
    G[L.S_LAST] = p
    G[L.S_EFF_SEAT] = p
    G[L.S_EFF_CARD] = t
    if G[hu(p, L.HC_SIZE)] == 0:
        if _hand_emptied(G, RNG, p, t):
            return
    elif G[hu(p, L.HC_SIZE)] == 1:
        if _uno_call_matters(G, p):
            _uno_call(G, RNG, p)
        else:
            emit(G, Event.uno, p, 1, 0)
    G[L.S_ACTOR] = back
    G[L.S_PHASE] = L.PH_PENALTY


@kernel(share="steps", kinds="GRib")
def _challenge(G, RNG, p, challenged):
    """Victim ``p`` of a Wild Draw Four challenges it or accepts it
    (docs/rules.md#rule-wd4_challenge)."""
    if challenged:
        G[L.S_CHALLENGES] += 1
        offender = G[L.S_LAST]
        emit(G, Event.challenge, p, offender, G[L.S_BLUFF])
        if G[L.S_BLUFF] != 0:
            # guilty: the offender draws what the victim faced; the victim plays on.
            # A takeback comes first, before the draw can reshuffle the discards.
            if G[L.R_WD4_TAKEBACK] != 0:
                _take_back(G, offender)
            _draw_penalty(G, RNG, offender, G[L.S_PENDING], _PENALTY)
            _clear_penalty(G)
            G[L.S_ACTOR] = p
            G[L.S_PHASE] = L.PH_TURN
            return
        _draw_penalty(G, RNG, p, G[L.S_PENDING] + 2, _PENALTY)
        _clear_penalty(G)
        _next_turn(G, p)
        return
    _face_penalty(G, RNG, p)


@kernel(share="steps", kinds="Gi")
def _take_back(G, offender):
    """wd4_challenge_takeback: the caught Wild Draw Four returns to its owner, the
    card below is on top again with the colour before it, and the owner will
    miss a turn."""
    nd = G[L.S_DISC_LEN] - 1
    _hand_add(G, offender, G[L.OFF_DISC + nd])
    G[L.S_DISC_LEN] = nd
    G[L.S_PLAYED] -= 1
    G[L.S_TOP] = G[L.OFF_DISC + nd - 1]
    G[L.S_COLOUR] = G[L.S_PREV_COLOUR]
    G[hu(offender, L.HC_SKIP_NEXT)] = 1
    G[L.OFF_PUB + offender] = 0  # it holds a Wild Draw Four again
    emit(G, Event.takeback, offender, 0, 0)


@kernel_inline
def _uno_call_matters(G, p):
    """Whether ``_uno_call`` can do anything: ``p`` may forget, or the others race
    for "UNO in the centre". Otherwise it draws nothing and changes nothing, and the
    common table (nobody forgets) skips the call."""
    return seat_param(G, p, L.SF_UNO_FORGET) > 0 or G[L.R_UNO_IN_CENTER] != 0


@kernel(share="steps", kinds="GRi")
def _uno_call(G, RNG, p):
    """A player down to one card calls UNO, or forgets and may be caught."""
    if chance(RNG, 1, seat_param(G, p, L.SF_UNO_FORGET)):
        if chance(RNG, 1, G[L.RF_UNO_CATCH]):
            G[L.S_UNO_CAUGHT] += 1
            emit(G, Event.uno, p, 0, 1)
            _draw_penalty(G, RNG, p, G[L.R_UNO_PENALTY], _UNO)
        else:
            emit(G, Event.uno, p, 0, 0)
        return
    emit(G, Event.uno, p, 1, 0)
    if G[L.R_UNO_IN_CENTER] != 0:
        # "UNO in the centre": the slowest other player, modelled as a random one
        k = rand_below(RNG, 1, G[L.S_ACTIVE] - 1) + 1
        q = next_seat(G, p, k)
        before = G[L.S_PEN_DRAWN]
        _draw_penalty(G, RNG, q, _TWO, _OTHER)
        G[L.S_UNO_CENTER] += G[L.S_PEN_DRAWN] - before


@kernel(share="steps", kinds="GRi")
def _silent_twos(G, RNG, p):
    """After a 2, each other player breaks the silence with some chance and draws 2."""
    q = next_seat(G, p, _ONE)
    while q != p:
        if chance(RNG, 1, G[L.RF_SILENT_TWOS]):
            G[L.S_SILENT] += 1
            _draw_penalty(G, RNG, q, _TWO, _OTHER)
        q = next_seat(G, q, _ONE)


@kernel(share="steps", kinds="GRii")
def _hand_emptied(G, RNG, p, t):
    """``p`` played its last card. Refill under seven_rounds, leave the table under
    elimination, or end the round. True when this card's pipeline is over."""
    if G[L.R_SEVEN_ROUNDS] != 0 and G[hu(p, L.HC_STAGE)] > 1:
        G[hu(p, L.HC_STAGE)] -= 1
        G[L.S_REFILL] += _draw_n(G, RNG, p, G[hu(p, L.HC_STAGE)], _OTHER)
        return False
    emit(G, Event.out, p, G[L.R_PLAYERS] - G[L.S_ACTIVE] + 1, 0)
    if G[L.S_WINNER] < 0:
        feel_sample(G)  # the last sample: the winner's last card left (docs/metrics.md#distance)
        feel_stop(G)
    if G[L.R_ELIMINATION] != 0 and G[L.S_ACTIVE] > 2:
        _leave_table(G, RNG, p, t)
        return True
    _end_round(G, RNG, p, t)
    return True


@kernel
def _settle_first_out(G, p, t):
    """The first seat out wins the round; what ``scoring`` awards it is fixed now."""
    if G[L.S_WINNER] >= 0:
        return
    G[L.S_WINNER] = p
    G[L.S_WENT_OUT] = t
    G[L.S_WINNER_POINTS] = winner_points_now(G)


@kernel(share="steps", kinds="GRii")
def _leave_table(G, RNG, p, t):
    """elimination: ``p`` finishes; the next seat pays a pending penalty (not a
    turn) and the card's skip or reverse still applies among those left."""
    G[hu(p, L.HC_PLACE)] = G[L.R_PLAYERS] - G[L.S_ACTIVE] + 1
    victim = next_seat(G, p, _ONE)
    G[L.S_ACTIVE] -= 1
    skipped = False
    if G[L.S_PENDING] > 0:
        _draw_penalty(G, RNG, victim, G[L.S_PENDING], _PENALTY)
        _clear_penalty(G)
        skipped = True
    _settle_first_out(G, p, t)
    r = rank_of(t)
    if skipped or r == C.RANK_SKIP or (r == C.RANK_REVERSE and two_left(G)):
        _next_turn(G, victim)
    elif r == C.RANK_REVERSE:
        G[L.S_DIR] = -G[L.S_DIR]
        _next_turn(G, p)
    else:
        _pass_turn(G, victim)


@kernel(share="steps", kinds="GRii")
def _end_round(G, RNG, p, t):
    """The round is over: the seat that would face a pending penalty draws it (not
    a turn; nothing under final_draw=false), then hands are scored. Under
    elimination ``p`` is the last but one."""
    if G[L.S_PENDING] > 0:
        if G[L.R_FINAL_DRAW] != 0:
            _draw_penalty(G, RNG, next_seat(G, p, _ONE), G[L.S_PENDING], _PENALTY)
        _clear_penalty(G)
    if G[L.R_ELIMINATION] != 0:
        G[hu(p, L.HC_PLACE)] = G[L.R_PLAYERS] - G[L.S_ACTIVE] + 1
        last = next_seat(G, p, _ONE)
        G[hu(last, L.HC_PLACE)] = G[L.R_PLAYERS]
        G[L.S_ACTIVE] = 1
    _settle_first_out(G, p, t)
    G[L.S_PHASE] = L.PH_OVER


@kernel
def hand_value(G, q):
    """Points of seat ``q``'s hand, with the scoring house rules: a lone 0 is
    worth 50 (zero_fifty); going out on a Downpour takes 20 or 40 off the
    winner's total (losers_score)."""
    if G[L.R_ZERO_FIFTY] != 0 and G[hu(q, L.HC_SIZE)] == 1:
        for c in range(4):
            if G[hu(q, c * C.N_RANKS)] == 1:
                return 50
    if q == G[L.S_WINNER] and G[L.R_SCORING] == L.Scoring.losers_score:
        if G[L.S_WENT_OUT] == C.DOWNPOUR_ONE:
            return -20
        if G[L.S_WENT_OUT] == C.DOWNPOUR_TWO:
            return -40
    return G[hu(q, L.HC_POINTS)]


@kernel
def winner_points_now(G):
    """What ``scoring`` awards the winner from the hands as they are now: the
    others' points under winner_takes; nothing under the other methods, where
    each player's own hand is what counts."""
    if G[L.S_WINNER] < 0 or G[L.R_SCORING] != L.Scoring.winner_takes:
        return 0
    total = 0
    for q in range(G[L.R_PLAYERS]):
        if q != G[L.S_WINNER]:
            total += hand_value(G, q)
    return total


@kernel(share="steps", kinds="G")
def score_hands(G):
    """What the round winner was awarded (0 when capped)."""
    if G[L.S_WINNER] < 0:
        return 0
    return G[L.S_WINNER_POINTS]


@kernel(share="steps", kinds="G")
def cap_round(G):
    """Stop a round at the turn cap: no winner, counted as capped."""
    G[L.S_CAPPED] = 1
    G[L.S_WINNER] = -1
    G[L.S_WINNER_POINTS] = 0
    G[L.S_PHASE] = L.PH_OVER



# ------------------------------------------------------------- the game loop


@kernel
def move_is_legal(G, move):
    """``is_legal`` in O(1) for the common decisions (a turn's play or draw, the
    drawn card), ``is_legal`` itself for the others. Same answer (tested)."""
    ph = G[L.S_PHASE]
    p = G[L.S_ACTOR]
    if ph == L.PH_TURN:
        if move == L.MV_DRAW:
            return G[L.R_VOLUNTARY_DRAW] != 0 or count_allowed(G, p, False) == 0
        if not is_play(move) or last_card_barred(G, p):
            return False
        t = type_of(move)
        if t >= C.N_TYPES or G[hu(p, t)] <= 0:
            return False
        if t == C.WILD_DRAW_FOUR:
            return wd4_is_legal(G, p) or G[L.R_WD4_BLUFF] != 0
        return is_match(G, t)
    if ph == L.PH_DRAWN:
        if move == L.MV_PASS:
            return True
        return is_play(move) and type_of(move) == G[L.S_DRAWN]
    return is_legal(G, move)


#: what ``play_until`` returns besides a number of legal moves
OVER = -1  # the round is over (or capped)
READ_EVENTS = -2  # the event ring is filling: read it, then call again
ILLEGAL = -3  # a checked seat's move is illegal (returned beside it, unapplied)
#: ``play_until``'s ``read`` where nobody reads the event ring: told that every
#: event there will ever be is read, it never hands back for them (a ``read`` that
#: is told less may be negative)
NO_READER = 1 << 62


@kernel_inline
def play_until(choose, apply, G, RNG, stop, read, checked):
    """Play on: ``apply(G, RNG, choose(G, RNG))`` until a seat of the bits ``stop``
    is to act, or the round is over or reaches the turn cap. The one "play until a
    seat acts" loop of the engine: the round (``play_loop``, no seat stops it), the
    table with Python seats (round_nb.advance_with) and the vector environment
    (its learner's seat) pass their own chooser, apply and seats, and being inlined
    each gets a copy specialised to them (a constant ``stop`` of 0 or ``read`` of
    NO_READER costs nothing). With ``read`` the events read so far, it returns
    before the unread ones fill the ring but for one decision's worth. With
    ``checked`` (plug-ins) a move that ``move_is_legal`` refuses is not applied.
    Returns (n, 0) with the n legal moves of the seat to act in G[OFF_MOVES ..],
    (OVER, 0), (READ_EVENTS, 0) or (ILLEGAL, move)."""
    cap = G[L.R_TURN_CAP]
    while G[L.S_PHASE] != L.PH_OVER:
        if G[L.S_TURNS] >= cap:
            cap_round(G)
            return OVER, 0
        if read != NO_READER and G[L.OFF_EV_N] - read > L.EV_CAP - 64:
            return READ_EVENTS, 0
        if stop != 0 and (stop >> G[L.S_ACTOR]) & 1:
            return legal_moves(G), 0
        m = choose(G, RNG)
        if checked and not move_is_legal(G, m):
            return ILLEGAL, m
        apply(G, RNG, m)
    return OVER, 0


@kernel_inline
def play_loop(choose, apply, G, RNG, checked):
    """Deal and play one round: ``play_until`` no seat acts. The built-in round, the
    plug-in round and the search's benchmark pass their own chooser and apply
    (``apply_move`` inlined, or behind a call). With ``checked`` (plug-ins) a move
    that ``move_is_legal`` refuses stops the round unplayed. Returns (illegal, move)."""
    deal(G, RNG)
    code, m = play_until(choose, apply, G, RNG, 0, NO_READER, checked)
    return code == ILLEGAL, m


@kernel(share="called", kinds="GRi")
def apply_called(G, RNG, move):
    """``apply_move`` behind a call, compiled and cached once: what the search's
    rollouts, a search seat's round and the plug-in loops (round_nb.play_round_with)
    step with, so that they compile in moments instead of inlining the whole rule
    pipeline again."""
    apply_move(G, RNG, move)
