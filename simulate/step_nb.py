"""The step contract: dealing, legal moves and applying a move. Compiled.

These functions are the only code that knows the rules. ``play_round`` is a loop
over a strategy's choice and ``apply_move``; tests and ``replay`` call the same
functions from Python. House rules are branches on the rules held in ``G``,
never copies of the loop. Nothing here allocates: a game is the flat array ``G``
and the generator state ``RNG`` (see layout.py).

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
    HW,
    MV_ACCEPT,
    MV_CHALLENGE,
    MV_COLOUR,
    MV_DRAW,
    MV_PASS,
    MV_PLAY_END,
    MV_TAKE,
    N_SEATF,
    OFF_DECK,
    OFF_DISC,
    OFF_DRAW,
    OFF_H,
    OFF_MOVES,
    OFF_SEATF,
    OFF_WEIGHTS,
    PH_CHALLENGE,
    PH_COLOUR,
    PH_DRAWN,
    PH_OVER,
    PH_PENALTY,
    PH_TURN,
    R_DECK_SIZE,
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
N_STATE_SLOTS = 32


# ----------------------------------------------------------------- small helpers


@kernel_inline
def hx(p, c):
    """Index in G of column ``c`` (a card type, or an HC_* column) of seat ``p``."""
    return OFF_H + p * HW + c


@kernel_inline
def seat_param(G, p, k):
    """Probability threshold ``k`` (an SF_* slot) of seat ``p``."""
    return G[OFF_SEATF + p * N_SEATF + k]


@kernel_inline
def next_seat(G, p, k):
    """The seat ``k`` places after ``p`` in the current direction."""
    n = G[R_PLAYERS]
    q = p + G[S_DIR] * k
    while q >= n:
        q -= n
    while q < 0:
        q += n
    return q


@kernel_inline
def _hand_add(G, p, t):
    G[hx(p, t)] += 1
    if t < WILD:
        G[hx(p, HC_COLOUR + t // N_RANKS)] += 1
    G[hx(p, HC_SIZE)] += 1
    G[hx(p, HC_POINTS)] += _POINTS[t]


@kernel_inline
def _hand_remove(G, p, t):
    G[hx(p, t)] -= 1
    if t < WILD:
        G[hx(p, HC_COLOUR + t // N_RANKS)] -= 1
    G[hx(p, HC_SIZE)] -= 1
    G[hx(p, HC_POINTS)] -= _POINTS[t]


@kernel
def _reshuffle(G):
    """Keep the top discard; the rest becomes the new draw pile.

    Cards are drawn from a uniformly random position of the draw pile (see
    ``_take_random``), which is the same as drawing the top of a shuffled pile,
    so the pile itself never needs shuffling.
    """
    nd = G[S_DISC_LEN]
    if nd <= 1:
        return False
    base = G[S_DRAW_LEN]
    for i in range(nd - 1):
        G[OFF_DRAW + base + i] = G[OFF_DISC + i]
    G[S_DRAW_LEN] = base + nd - 1
    G[OFF_DISC] = G[OFF_DISC + nd - 1]
    G[S_DISC_LEN] = 1
    G[S_RESHUFFLES] += 1
    return True


@kernel_inline
def _take_random(G, RNG):
    """Remove and return a uniformly random card of the (non-empty) draw pile."""
    n = G[S_DRAW_LEN] - 1
    j = OFF_DRAW + rand_below(RNG, 0, n + 1)
    t = G[j]
    G[j] = G[OFF_DRAW + n]
    G[S_DRAW_LEN] = n
    return t


@kernel_inline
def _draw_card(G, RNG, p):
    """Seat ``p`` draws a card; -1 if both piles are empty."""
    if G[S_DRAW_LEN] == 0:
        if not _reshuffle(G):
            return -1
    t = _take_random(G, RNG)
    _hand_add(G, p, t)
    return t


@kernel
def _draw_penalty(G, RNG, p, k):
    """Seat ``p`` draws ``k`` penalty cards (fewer if both piles run dry)."""
    for _ in range(k):
        if _draw_card(G, RNG, p) < 0:
            break
        G[S_PEN_DRAWN] += 1


@kernel_inline
def is_match(G, t):
    """Colour, number or symbol match with the top card, or any wild."""
    if t >= WILD:
        return True
    if t // N_RANKS == G[S_COLOUR]:
        return True
    top = G[S_TOP]
    return top < WILD and t % N_RANKS == top % N_RANKS


@kernel_inline
def wd4_is_legal(G, p):
    """A Wild Draw Four is legal only when the hand holds no card of the colour."""
    return G[hx(p, HC_COLOUR + G[S_COLOUR])] == 0


@kernel_inline
def _wd4_allowed(G, p, bluff):
    """Legal, or a bluff that the player chose and the table allows."""
    return wd4_is_legal(G, p) or (bluff and G[R_WD4_BLUFF] != 0)


@kernel_inline
def _playable(G, p, t):
    """May ``t`` be played now by ``p`` (a bluff counts if the table allows it)?"""
    if t == WILD_DRAW_FOUR:
        return _wd4_allowed(G, p, True)
    return is_match(G, t)


# ------------------------------------------------------------------------ deal


@kernel
def deal(G, RNG):
    """Reset the state, deal the deck held in G and turn the first card.

    A Wild Draw Four (or, under ``first_card=number_only``, any non-number card)
    turned first goes back into the draw pile and another random card is turned:
    the same as returning it, shuffling and flipping again (RULES.md 1).
    """
    for i in range(N_STATE_SLOTS):
        G[i] = 0
    n_players = G[R_PLAYERS]
    for i in range(OFF_H, OFF_H + n_players * HW):
        G[i] = 0
    G[S_DIR] = 1
    G[S_WINNER] = -1
    n = G[R_DECK_SIZE]
    for i in range(n):
        G[OFF_DRAW + i] = G[OFF_DECK + i]
    G[S_DRAW_LEN] = n
    for _ in range(G[R_HAND_SIZE]):
        for p in range(n_players):
            _hand_add(G, p, _take_random(G, RNG))
    while True:
        t = _take_random(G, RNG)
        back = t > WILD or (G[R_FIRST_CARD] == 1 and (t >= WILD or t % N_RANKS > 9))
        if not back:
            break
        G[OFF_DRAW + G[S_DRAW_LEN]] = t
        G[S_DRAW_LEN] += 1
    G[OFF_DISC] = t
    G[S_DISC_LEN] = 1
    G[S_TOP] = t
    G[S_PHASE] = PH_TURN
    G[S_ACTOR] = 0
    if t == WILD:
        G[S_PHASE] = PH_COLOUR
        return
    G[S_COLOUR] = t // N_RANKS
    rank = t % N_RANKS
    if rank == RANK_SKIP:
        G[S_ACTOR] = 1 % n_players
    elif rank == RANK_REVERSE:
        if n_players == 2 and G[R_TWO_P_REVERSE_SKIPS] != 0:
            G[S_ACTOR] = 1
        else:
            G[S_DIR] = -1
            G[S_ACTOR] = n_players - 1
    elif rank == RANK_DRAW_TWO:
        _draw_penalty(G, RNG, 0, 2)
        G[S_ACTOR] = 1 % n_players


# ----------------------------------------------------------------- legal moves


@kernel_inline
def count_playable(G, p, bluff):
    """Physical cards ``p`` may play on its turn, in O(1) from the colour counts.

    A Wild Draw Four held against the colour rule counts only when ``bluff`` is
    set and the table allows bluffing. ``nth_playable`` walks the same order as
    ``legal_moves``: current colour, same number or symbol, then wild types.
    """
    c = G[S_COLOUR]
    total = G[hx(p, HC_COLOUR + c)]
    top = G[S_TOP]
    if top < WILD:
        r = top % N_RANKS
        for oc in range(4):
            if oc != c:
                total += G[hx(p, oc * N_RANKS + r)]
    for t in range(WILD, N_TYPES):
        if t != WILD_DRAW_FOUR or _wd4_allowed(G, p, bluff):
            total += G[hx(p, t)]
    return total


@kernel_inline
def nth_playable(G, p, bluff, k):
    """The type of the ``k``-th playable physical card (0-based) of ``p``."""
    c = G[S_COLOUR]
    cc = G[hx(p, HC_COLOUR + c)]
    if k < cc:
        for t in range(c * N_RANKS, c * N_RANKS + N_RANKS):
            k -= G[hx(p, t)]
            if k < 0:
                return t
    k -= cc
    top = G[S_TOP]
    if top < WILD:
        r = top % N_RANKS
        for oc in range(4):
            if oc != c:
                t = oc * N_RANKS + r
                k -= G[hx(p, t)]
                if k < 0:
                    return t
    for t in range(WILD, N_TYPES):
        if t != WILD_DRAW_FOUR or _wd4_allowed(G, p, bluff):
            k -= G[hx(p, t)]
            if k < 0:
                return t
    return -1


@kernel_inline
def _offer(G, n, move, weight):
    G[OFF_MOVES + n] = move
    G[OFF_WEIGHTS + n] = weight
    return n + 1


@kernel
def legal_moves(G):
    """Write the legal moves to G[OFF_MOVES..] (copies held to G[OFF_WEIGHTS..]).

    A play of type t is listed once as ``t`` with weight = copies held; a wild
    is then played as ``t + 64 * colour``. Weights let a strategy choose among
    physical cards rather than types. Returns the number of moves.
    """
    ph = G[S_PHASE]
    p = G[S_ACTOR]
    n = 0
    if ph == PH_TURN:
        c = G[S_COLOUR]
        for t in range(c * N_RANKS, c * N_RANKS + N_RANKS):
            if G[hx(p, t)] > 0:
                n = _offer(G, n, t, G[hx(p, t)])
        top = G[S_TOP]
        if top < WILD:
            r = top % N_RANKS
            for oc in range(4):
                t = oc * N_RANKS + r
                if oc != c and G[hx(p, t)] > 0:
                    n = _offer(G, n, t, G[hx(p, t)])
        legal = n > 0
        for t in range(WILD, N_TYPES):
            if G[hx(p, t)] > 0 and _playable(G, p, t):
                n = _offer(G, n, t, G[hx(p, t)])
                legal = legal or t != WILD_DRAW_FOUR or wd4_is_legal(G, p)
        if G[R_VOLUNTARY_DRAW] != 0 or not legal:
            n = _offer(G, n, MV_DRAW, 1)
    elif ph == PH_DRAWN:
        n = _offer(G, n, G[S_DRAWN], 1)
        n = _offer(G, n, MV_PASS, 1)
    elif ph == PH_CHALLENGE:
        n = _offer(G, n, MV_CHALLENGE, 1)
        n = _offer(G, n, MV_ACCEPT, 1)
    elif ph == PH_PENALTY:
        n = _stack_moves(G, p)
        n = _offer(G, n, MV_TAKE, 1)
    elif ph == PH_COLOUR:
        for c in range(4):
            n = _offer(G, n, MV_COLOUR + c, 1)
    return n


@kernel
def _stack_moves(G, p):
    """Cards that may go on the pending penalty (progressive, same cards)."""
    n = 0
    if G[S_PEND_KIND] == 2:
        for c in range(4):
            t = c * N_RANKS + RANK_DRAW_TWO
            if G[hx(p, t)] > 0:
                n = _offer(G, n, t, G[hx(p, t)])
    elif G[S_PEND_KIND] == 4:
        t = WILD_DRAW_FOUR
        if G[hx(p, t)] > 0 and _playable(G, p, t):
            n = _offer(G, n, t, G[hx(p, t)])
    return n


@kernel
def is_legal(G, move):
    """Check one move against ``legal_moves``: a coloured card is played as its
    type ``t``, a wild as ``t + 64 * colour`` with colour 0..3."""
    n = legal_moves(G)
    base = move
    if 0 <= move < MV_PLAY_END:
        base = move % 64
        if base < WILD and move >= 64:
            return False
    for i in range(n):
        if G[OFF_MOVES + i] == base:
            return True
    return False


# ------------------------------------------------------------------- apply


@kernel_inline
def apply_move(G, RNG, move):
    """Apply a legal move of ``G[S_ACTOR]`` and run on to the next decision."""
    ph = G[S_PHASE]
    p = G[S_ACTOR]
    if ph == PH_TURN:
        G[S_TURNS] += 1
        if move == MV_DRAW:
            _draw_turn(G, RNG, p)
        else:
            _play(G, RNG, p, move)
    elif ph == PH_DRAWN:
        if move == MV_PASS:
            _pass_turn(G, p)
        else:
            _play(G, RNG, p, move)
    elif ph == PH_CHALLENGE:
        _challenge(G, RNG, p, move == MV_CHALLENGE)
    elif ph == PH_PENALTY:
        G[S_TURNS] += 1
        if move == MV_TAKE:
            _draw_penalty(G, RNG, p, G[S_PENDING])
            _clear_penalty(G)
            _pass_turn(G, p)
        else:
            _play(G, RNG, p, move)
    elif ph == PH_COLOUR:
        G[S_COLOUR] = move - MV_COLOUR
        G[S_PHASE] = PH_TURN


@kernel_inline
def _pass_turn(G, p):
    G[S_ACTOR] = next_seat(G, p, 1)
    G[S_PHASE] = PH_TURN


@kernel_inline
def _clear_penalty(G):
    G[S_PENDING] = 0
    G[S_PEND_KIND] = 0
    G[S_STACK_LEN] = 0


@kernel_inline
def _draw_turn(G, RNG, p):
    """Draw under ``draw_rule``; a playable drawn card opens PH_DRAWN."""
    rule = G[R_DRAW_RULE]
    while True:
        t = _draw_card(G, RNG, p)
        if t < 0:
            break
        G[S_DRAWN_NO_PLAY] += 1
        if rule == 2:
            break
        if _playable(G, p, t):
            G[S_DRAWN] = t
            G[S_PHASE] = PH_DRAWN
            return
        if rule == 0:
            break
    _pass_turn(G, p)


@kernel_inline
def _play(G, RNG, p, move):
    """Put a card from ``p``'s hand on the discard pile and resolve it."""
    t = move % 64
    stacking = G[R_STACKING] != 0
    if t == WILD_DRAW_FOUR:
        G[S_PREV_COLOUR] = G[S_COLOUR]
        G[S_BLUFF] = 0 if wd4_is_legal(G, p) else 1
    _hand_remove(G, p, t)
    nd = G[S_DISC_LEN]
    G[OFF_DISC + nd] = t
    G[S_DISC_LEN] = nd + 1
    G[S_TOP] = t
    G[S_COLOUR] = move // 64 if t >= WILD else t // N_RANKS
    G[S_PLAYED] += 1
    rank = t % N_RANKS if t < WILD else -1
    penalty = 0
    if t == WILD_DRAW_FOUR:
        penalty = 4
    elif rank == RANK_DRAW_TWO:
        penalty = 2
    if penalty > 0:
        G[S_PENDING] = G[S_PENDING] + penalty if stacking else penalty
        G[S_PEND_KIND] = penalty
        G[S_STACK_LEN] += 1
        if G[S_STACK_LEN] > G[S_MAX_STACK]:
            G[S_MAX_STACK] = G[S_STACK_LEN]
        G[S_LAST] = p
    size = G[hx(p, HC_SIZE)]
    if size == 0:
        _end_round(G, RNG, p)
        return
    if size == 1:
        _uno_check(G, RNG, p)
    if penalty > 0:
        victim = next_seat(G, p, 1)
        if t == WILD_DRAW_FOUR and G[R_WD4_CHALLENGE] != 0:
            G[S_ACTOR] = victim
            G[S_PHASE] = PH_CHALLENGE
        elif stacking:
            G[S_ACTOR] = victim
            G[S_PHASE] = PH_PENALTY
        else:
            _draw_penalty(G, RNG, victim, G[S_PENDING])
            _clear_penalty(G)
            _pass_turn(G, victim)
    elif rank == RANK_SKIP:
        _pass_turn(G, next_seat(G, p, 1))
    elif rank == RANK_REVERSE:
        if G[R_PLAYERS] == 2 and G[R_TWO_P_REVERSE_SKIPS] != 0:
            _pass_turn(G, next_seat(G, p, 1))
        else:
            G[S_DIR] = -G[S_DIR]
            _pass_turn(G, p)
    else:
        _pass_turn(G, p)


@kernel
def _challenge(G, RNG, p, challenged):
    """Victim ``p`` of a Wild Draw Four challenges it or accepts it (RULES.md 2)."""
    if challenged:
        G[S_CHALLENGES] += 1
        if G[S_BLUFF] != 0:
            # guilty: the offender draws what the victim faced; the victim plays on
            _draw_penalty(G, RNG, G[S_LAST], G[S_PENDING])
            _clear_penalty(G)
            G[S_PHASE] = PH_TURN
            return
        _draw_penalty(G, RNG, p, G[S_PENDING] + 2)
        _clear_penalty(G)
        _pass_turn(G, p)
        return
    if G[R_STACKING] != 0:
        G[S_PHASE] = PH_PENALTY
        return
    _draw_penalty(G, RNG, p, G[S_PENDING])
    _clear_penalty(G)
    _pass_turn(G, p)


@kernel
def _uno_check(G, RNG, p):
    """A player down to one card may forget to call UNO and be caught."""
    if chance(RNG, 1, seat_param(G, p, SF_UNO_FORGET)) and chance(RNG, 1, G[RF_UNO_CATCH]):
        G[S_UNO_CAUGHT] += 1
        _draw_penalty(G, RNG, p, G[R_UNO_PENALTY])


@kernel
def _end_round(G, RNG, winner):
    """``winner`` went out: the next seat pays any pending penalty."""
    if G[S_PENDING] > 0:
        _draw_penalty(G, RNG, next_seat(G, winner, 1), G[S_PENDING])
        _clear_penalty(G)
    G[S_WINNER] = winner
    G[S_PHASE] = PH_OVER


@kernel
def score_hands(G):
    """What ``scoring`` awards the round winner (hand values are kept per seat)."""
    if G[S_WINNER] < 0 or G[R_SCORING] == 1:
        return 0
    total = 0
    for q in range(G[R_PLAYERS]):
        total += G[hx(q, HC_POINTS)]
    return total - G[hx(G[S_WINNER], HC_POINTS)]


@kernel
def cap_round(G):
    """Stop a round at the turn cap: no winner, counted as capped."""
    G[S_CAPPED] = 1
    G[S_WINNER] = -1
    G[S_PHASE] = PH_OVER
