"""The step contract: dealing, legal moves and applying a move. Compiled.

These functions are the only code that knows the rules. ``play_round`` is a loop
over ``legal_moves`` and ``apply_move``; tests and ``replay`` call the same functions
from Python. House rules are branches on the rule array ``R``, never copies of the
loop. Nothing here allocates: every array is passed in.

``apply_move`` plays the move and then runs every forced consequence (skips,
penalty draws, UNO catches, the end of the round) until the next decision.
"""

from __future__ import annotations

from unosim.simulate.cards import (
    N_RANKS,
    N_TYPES,
    POINTS,
    RANK_DRAW_TWO,
    RANK_REVERSE,
    RANK_SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.layout import (
    HC_COLOUR,
    HC_POINTS,
    HC_SIZE,
    MV_ACCEPT,
    MV_CHALLENGE,
    MV_COLOUR,
    MV_DRAW,
    MV_PASS,
    MV_PLAY_END,
    MV_TAKE,
    PH_CHALLENGE,
    PH_COLOUR,
    PH_DRAWN,
    PH_OVER,
    PH_PENALTY,
    PH_TURN,
    R_DRAW_RULE,
    R_FIRST_CARD,
    R_HAND_SIZE,
    R_PLAYERS,
    R_SCORING,
    R_STACKING,
    R_TWO_P_REVERSE_SKIPS,
    R_UNO_PENALTY,
    R_VOLUNTARY_DRAW,
    R_WD4_BLUFF,
    R_WD4_CHALLENGE,
    RF_UNO_CATCH,
    S_ACTOR,
    S_BLUFF,
    S_CAPPED,
    S_CHALLENGES,
    S_COLOUR,
    S_DIR,
    S_DISC_LEN,
    S_DRAW_LEN,
    S_DRAWN,
    S_DRAWN_NO_PLAY,
    S_LAST,
    S_MAX_STACK,
    S_PEN_DRAWN,
    S_PEND_KIND,
    S_PENDING,
    S_PHASE,
    S_PLAYED,
    S_PREV_COLOUR,
    S_RESHUFFLES,
    S_STACK_LEN,
    S_TOP,
    S_TURNS,
    S_UNO_CAUGHT,
    S_WINNER,
    SF_UNO_FORGET,
)
from unosim.simulate.rng_nb import chance, rand_below

_POINTS = POINTS  # a global array is frozen into the compiled code as a constant


# ----------------------------------------------------------------- small helpers


@kernel_inline
def next_seat(S, R, p, k):
    """The seat ``k`` places after ``p`` in the current direction."""
    n = R[R_PLAYERS]
    q = p + S[S_DIR] * k
    while q >= n:
        q -= n
    while q < 0:
        q += n
    return q


@kernel_inline
def _hand_add(H, p, t):
    H[p, t] += 1
    if t < WILD:
        H[p, HC_COLOUR + t // N_RANKS] += 1
    H[p, HC_SIZE] += 1
    H[p, HC_POINTS] += _POINTS[t]


@kernel_inline
def _hand_remove(H, p, t):
    H[p, t] -= 1
    if t < WILD:
        H[p, HC_COLOUR + t // N_RANKS] -= 1
    H[p, HC_SIZE] -= 1
    H[p, HC_POINTS] -= _POINTS[t]


@kernel
def _reshuffle(S, PILES):
    """Keep the top discard; the rest becomes the new draw pile.

    Cards are drawn from a uniformly random position of the draw pile (see
    ``_draw_card``), which is the same as drawing the top of a shuffled pile, so
    the pile itself never needs shuffling.
    """
    nd = S[S_DISC_LEN]
    if nd <= 1:
        return False
    base = S[S_DRAW_LEN]
    for i in range(nd - 1):
        PILES[0, base + i] = PILES[1, i]
    S[S_DRAW_LEN] = base + nd - 1
    PILES[1, 0] = PILES[1, nd - 1]
    S[S_DISC_LEN] = 1
    S[S_RESHUFFLES] += 1
    return True


@kernel_inline
def _take_random(S, PILES, RNG):
    """Remove and return a uniformly random card of the draw pile (non-empty)."""
    n = S[S_DRAW_LEN] - 1
    j = rand_below(RNG, 0, n + 1)
    t = PILES[0, j]
    PILES[0, j] = PILES[0, n]
    S[S_DRAW_LEN] = n
    return t


@kernel
def _draw_card(S, H, PILES, RNG, p):
    """Seat ``p`` draws a card; -1 if both piles are empty."""
    if S[S_DRAW_LEN] == 0:
        if not _reshuffle(S, PILES):
            return -1
    t = _take_random(S, PILES, RNG)
    _hand_add(H, p, t)
    return t


@kernel
def _draw_penalty(S, H, PILES, RNG, p, k):
    """Seat ``p`` draws ``k`` penalty cards (fewer if both piles run dry)."""
    for _ in range(k):
        if _draw_card(S, H, PILES, RNG, p) < 0:
            break
        S[S_PEN_DRAWN] += 1


@kernel_inline
def is_match(S, t):
    """Colour, number or symbol match with the top card, or any wild."""
    if t >= WILD:
        return True
    if t // N_RANKS == S[S_COLOUR]:
        return True
    top = S[S_TOP]
    return top < WILD and t % N_RANKS == top % N_RANKS


@kernel_inline
def wd4_is_legal(S, H, p):
    """A Wild Draw Four is legal only when the hand holds no card of the colour."""
    return H[p, HC_COLOUR + S[S_COLOUR]] == 0


@kernel_inline
def _playable(S, H, R, p, t):
    """May ``t`` be played now by ``p`` (a bluff counts as playable if allowed)?"""
    if t == WILD_DRAW_FOUR:
        return R[R_WD4_BLUFF] != 0 or wd4_is_legal(S, H, p)
    return is_match(S, t)


# ------------------------------------------------------------------------ deal


@kernel
def deal(S, H, PILES, RNG, R, deck):
    """Reset the state, deal ``deck`` (one entry per card) and turn the first card.

    A Wild Draw Four (or, under ``first_card=number_only``, any non-number card)
    turned first goes back into the draw pile and another random card is turned:
    the same as returning it, shuffling and flipping again (RULES.md 1).
    """
    S[:] = 0
    n_players = R[R_PLAYERS]
    for p in range(n_players):
        for j in range(H.shape[1]):
            H[p, j] = 0
    S[S_DIR] = 1
    S[S_WINNER] = -1
    n = deck.shape[0]
    for i in range(n):
        PILES[0, i] = deck[i]
    S[S_DRAW_LEN] = n
    for _ in range(R[R_HAND_SIZE]):
        for p in range(n_players):
            _hand_add(H, p, _take_random(S, PILES, RNG))
    while True:
        t = _take_random(S, PILES, RNG)
        back = t > WILD or (R[R_FIRST_CARD] == 1 and (t >= WILD or t % N_RANKS > 9))
        if not back:
            break
        PILES[0, S[S_DRAW_LEN]] = t
        S[S_DRAW_LEN] += 1
    PILES[1, 0] = t
    S[S_DISC_LEN] = 1
    S[S_TOP] = t
    S[S_PHASE] = PH_TURN
    S[S_ACTOR] = 0
    if t == WILD:
        S[S_PHASE] = PH_COLOUR
        return
    S[S_COLOUR] = t // N_RANKS
    rank = t % N_RANKS
    if rank == RANK_SKIP:
        S[S_ACTOR] = 1 % n_players
    elif rank == RANK_REVERSE:
        if n_players == 2 and R[R_TWO_P_REVERSE_SKIPS] != 0:
            S[S_ACTOR] = 1
        else:
            S[S_DIR] = -1
            S[S_ACTOR] = n_players - 1
    elif rank == RANK_DRAW_TWO:
        _draw_penalty(S, H, PILES, RNG, 0, 2)
        S[S_ACTOR] = 1 % n_players


# ----------------------------------------------------------------- legal moves


@kernel
def count_playable(S, H, R, p, bluff):
    """Physical cards ``p`` may play on its turn, in O(1) from the colour counts.

    A Wild Draw Four held against the colour rule counts only when ``bluff`` is
    set and the table allows bluffing. ``nth_playable`` walks the same order as
    ``legal_moves``: current colour, same number or symbol, then wild types.
    """
    c = S[S_COLOUR]
    total = H[p, HC_COLOUR + c]
    top = S[S_TOP]
    if top < WILD:
        r = top % N_RANKS
        for oc in range(4):
            if oc != c:
                total += H[p, oc * N_RANKS + r]
    for t in range(WILD, N_TYPES):
        if t != WILD_DRAW_FOUR or _wd4_allowed(S, H, R, p, bluff):
            total += H[p, t]
    return total


@kernel
def nth_playable(S, H, R, p, bluff, k):
    """The type of the ``k``-th playable physical card (0-based) of ``p``."""
    c = S[S_COLOUR]
    cc = H[p, HC_COLOUR + c]
    if k < cc:
        for t in range(c * N_RANKS, c * N_RANKS + N_RANKS):
            k -= H[p, t]
            if k < 0:
                return t
    k -= cc
    top = S[S_TOP]
    if top < WILD:
        r = top % N_RANKS
        for oc in range(4):
            if oc != c:
                t = oc * N_RANKS + r
                k -= H[p, t]
                if k < 0:
                    return t
    for t in range(WILD, N_TYPES):
        if t != WILD_DRAW_FOUR or _wd4_allowed(S, H, R, p, bluff):
            k -= H[p, t]
            if k < 0:
                return t
    return -1


@kernel_inline
def _wd4_allowed(S, H, R, p, bluff):
    return wd4_is_legal(S, H, p) or (bluff and R[R_WD4_BLUFF] != 0)



@kernel
def legal_moves(S, H, R, moves, weights):
    """Fill ``moves``/``weights`` with the legal moves; return how many.

    A play of type t is listed once as ``t`` with weight = copies held; for a wild
    any colour may be added (``t + 64 * c``). Weights let a strategy choose among
    physical cards rather than types.
    """
    ph = S[S_PHASE]
    p = S[S_ACTOR]
    n = 0
    if ph == PH_TURN:
        c = S[S_COLOUR]
        base = c * N_RANKS
        for t in range(base, base + N_RANKS):
            if H[p, t] > 0:
                moves[n] = t
                weights[n] = H[p, t]
                n += 1
        top = S[S_TOP]
        if top < WILD:
            r = top % N_RANKS
            for oc in range(4):
                if oc != c:
                    t = oc * N_RANKS + r
                    if H[p, t] > 0:
                        moves[n] = t
                        weights[n] = H[p, t]
                        n += 1
        for t in range(WILD, N_TYPES):
            if H[p, t] > 0 and _playable(S, H, R, p, t):
                moves[n] = t
                weights[n] = H[p, t]
                n += 1
        if R[R_VOLUNTARY_DRAW] != 0 or not _has_legal_play(S, H, p, moves, n):
            moves[n] = MV_DRAW
            weights[n] = 1
            n += 1
    elif ph == PH_DRAWN:
        moves[0] = S[S_DRAWN]
        weights[0] = 1
        moves[1] = MV_PASS
        weights[1] = 1
        n = 2
    elif ph == PH_CHALLENGE:
        moves[0] = MV_CHALLENGE
        weights[0] = 1
        moves[1] = MV_ACCEPT
        weights[1] = 1
        n = 2
    elif ph == PH_PENALTY:
        n = _stack_moves(S, H, R, p, moves, weights)
        moves[n] = MV_TAKE
        weights[n] = 1
        n += 1
    elif ph == PH_COLOUR:
        for c in range(4):
            moves[c] = MV_COLOUR + c
            weights[c] = 1
        n = 4
    return n


@kernel
def _has_legal_play(S, H, p, moves, n):
    """Does the listed set hold a play that is not a Wild Draw Four bluff?"""
    for i in range(n):
        t = moves[i]
        if t != WILD_DRAW_FOUR or wd4_is_legal(S, H, p):
            return True
    return False


@kernel
def _stack_moves(S, H, R, p, moves, weights):
    """Cards that may go on the pending penalty (progressive, same cards)."""
    n = 0
    if S[S_PEND_KIND] == 2:
        for c in range(4):
            t = c * N_RANKS + RANK_DRAW_TWO
            if H[p, t] > 0:
                moves[n] = t
                weights[n] = H[p, t]
                n += 1
    elif S[S_PEND_KIND] == 4:
        t = WILD_DRAW_FOUR
        if H[p, t] > 0 and _playable(S, H, R, p, t):
            moves[n] = t
            weights[n] = H[p, t]
            n += 1
    return n


@kernel
def is_legal(S, H, R, move, moves, weights):
    """Check one move against ``legal_moves`` (colour of a wild in 0..3)."""
    n = legal_moves(S, H, R, moves, weights)
    base = move
    if 0 <= move < MV_PLAY_END:
        base = move % 64
        c = move // 64
        if base < WILD and c != base // N_RANKS:
            return False
    for i in range(n):
        if moves[i] == base:
            return True
    return False


# ------------------------------------------------------------------- apply


@kernel
def apply_move(S, H, PILES, RNG, R, RF, SEATF, move):
    """Apply a legal move of ``S[S_ACTOR]`` and run on to the next decision."""
    ph = S[S_PHASE]
    p = S[S_ACTOR]
    if ph == PH_TURN:
        S[S_TURNS] += 1
        if move == MV_DRAW:
            _draw_turn(S, H, PILES, RNG, R, p)
        else:
            _play(S, H, PILES, RNG, R, RF, SEATF, p, move)
    elif ph == PH_DRAWN:
        if move == MV_PASS:
            _pass_turn(S, R, p)
        else:
            _play(S, H, PILES, RNG, R, RF, SEATF, p, move)
    elif ph == PH_CHALLENGE:
        _challenge(S, H, PILES, RNG, R, p, move == MV_CHALLENGE)
    elif ph == PH_PENALTY:
        S[S_TURNS] += 1
        if move == MV_TAKE:
            _draw_penalty(S, H, PILES, RNG, p, S[S_PENDING])
            S[S_PENDING] = 0
            S[S_PEND_KIND] = 0
            S[S_STACK_LEN] = 0
            _pass_turn(S, R, p)
        else:
            _play(S, H, PILES, RNG, R, RF, SEATF, p, move)
    elif ph == PH_COLOUR:
        S[S_COLOUR] = move - MV_COLOUR
        S[S_PHASE] = PH_TURN


@kernel_inline
def _pass_turn(S, R, p):
    S[S_ACTOR] = next_seat(S, R, p, 1)
    S[S_PHASE] = PH_TURN


@kernel
def _draw_turn(S, H, PILES, RNG, R, p):
    """Draw under ``draw_rule``; a playable drawn card opens PH_DRAWN."""
    rule = R[R_DRAW_RULE]
    while True:
        t = _draw_card(S, H, PILES, RNG, p)
        if t < 0:
            break
        S[S_DRAWN_NO_PLAY] += 1
        if rule == 2:
            break
        if _playable(S, H, R, p, t):
            S[S_DRAWN] = t
            S[S_PHASE] = PH_DRAWN
            return
        if rule == 0:
            break
    _pass_turn(S, R, p)


@kernel
def _play(S, H, PILES, RNG, R, RF, SEATF, p, move):
    """Put a card from ``p``'s hand on the discard pile and resolve it."""
    t = move % 64
    stacking = R[R_STACKING] != 0
    if t == WILD_DRAW_FOUR:
        S[S_PREV_COLOUR] = S[S_COLOUR]
        S[S_BLUFF] = 0 if wd4_is_legal(S, H, p) else 1
    _hand_remove(H, p, t)
    nd = S[S_DISC_LEN]
    PILES[1, nd] = t
    S[S_DISC_LEN] = nd + 1
    S[S_TOP] = t
    S[S_COLOUR] = move // 64 if t >= WILD else t // N_RANKS
    S[S_PLAYED] += 1
    rank = t % N_RANKS if t < WILD else -1
    penalty = 0
    if t == WILD_DRAW_FOUR:
        penalty = 4
    elif rank == RANK_DRAW_TWO:
        penalty = 2
    if penalty > 0:
        S[S_PENDING] = S[S_PENDING] + penalty if stacking else penalty
        S[S_PEND_KIND] = penalty
        S[S_STACK_LEN] += 1
        if S[S_STACK_LEN] > S[S_MAX_STACK]:
            S[S_MAX_STACK] = S[S_STACK_LEN]
        S[S_LAST] = p
    size = H[p, HC_SIZE]
    if size == 0:
        _end_round(S, H, PILES, RNG, R, p)
        return
    if size == 1:
        _uno_check(S, H, PILES, RNG, R, RF, SEATF, p)
    if penalty > 0:
        victim = next_seat(S, R, p, 1)
        if t == WILD_DRAW_FOUR and R[R_WD4_CHALLENGE] != 0:
            S[S_ACTOR] = victim
            S[S_PHASE] = PH_CHALLENGE
        elif stacking:
            S[S_ACTOR] = victim
            S[S_PHASE] = PH_PENALTY
        else:
            _draw_penalty(S, H, PILES, RNG, victim, S[S_PENDING])
            _clear_penalty(S)
            _pass_turn(S, R, victim)
    elif rank == RANK_SKIP:
        _pass_turn(S, R, next_seat(S, R, p, 1))
    elif rank == RANK_REVERSE:
        if R[R_PLAYERS] == 2 and R[R_TWO_P_REVERSE_SKIPS] != 0:
            _pass_turn(S, R, next_seat(S, R, p, 1))
        else:
            S[S_DIR] = -S[S_DIR]
            _pass_turn(S, R, p)
    else:
        _pass_turn(S, R, p)


@kernel_inline
def _clear_penalty(S):
    S[S_PENDING] = 0
    S[S_PEND_KIND] = 0
    S[S_STACK_LEN] = 0


@kernel
def _challenge(S, H, PILES, RNG, R, p, challenged):
    """Victim ``p`` of a Wild Draw Four challenges it or accepts it (RULES.md 2)."""
    if challenged:
        S[S_CHALLENGES] += 1
        if S[S_BLUFF] != 0:
            # guilty: the offender draws what the victim faced; the victim plays on
            _draw_penalty(S, H, PILES, RNG, S[S_LAST], S[S_PENDING])
            _clear_penalty(S)
            S[S_PHASE] = PH_TURN
            return
        _draw_penalty(S, H, PILES, RNG, p, S[S_PENDING] + 2)
        _clear_penalty(S)
        _pass_turn(S, R, p)
        return
    if R[R_STACKING] != 0:
        S[S_PHASE] = PH_PENALTY
        return
    _draw_penalty(S, H, PILES, RNG, p, S[S_PENDING])
    _clear_penalty(S)
    _pass_turn(S, R, p)


@kernel
def _uno_check(S, H, PILES, RNG, R, RF, SEATF, p):
    """A player down to one card may forget to call UNO and be caught."""
    if chance(RNG, 1, SEATF[p, SF_UNO_FORGET]) and chance(RNG, 1, RF[RF_UNO_CATCH]):
        S[S_UNO_CAUGHT] += 1
        _draw_penalty(S, H, PILES, RNG, p, R[R_UNO_PENALTY])


@kernel
def _end_round(S, H, PILES, RNG, R, winner):
    """``winner`` went out: the next seat pays any pending penalty, then score."""
    if S[S_PENDING] > 0:
        _draw_penalty(S, H, PILES, RNG, next_seat(S, R, winner, 1), S[S_PENDING])
        _clear_penalty(S)
    S[S_WINNER] = winner
    S[S_PHASE] = PH_OVER


@kernel
def score_hands(S, H, R):
    """What ``scoring`` awards the round winner (hand values are kept in HC_POINTS)."""
    if S[S_WINNER] < 0 or R[R_SCORING] == 1:
        return 0
    total = 0
    for q in range(R[R_PLAYERS]):
        total += H[q, HC_POINTS]
    return total - H[S[S_WINNER], HC_POINTS]


@kernel
def cap_round(S):
    """Stop a round at the turn cap: no winner, counted as capped."""
    S[S_CAPPED] = 1
    S[S_WINNER] = -1
    S[S_PHASE] = PH_OVER
