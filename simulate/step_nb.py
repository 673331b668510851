"""The step contract: dealing, legal moves and applying a move. Compiled.

These functions are the only code that knows the rules. ``play_round`` is a loop
over a strategy's choice and ``apply_move``; tests and ``replay`` call the same
functions from Python. House rules are branches on the rules held in ``G``,
never copies of the loop. Nothing here allocates: a game is the flat array ``G``
and the generator state ``RNG`` (see layout.py).

``apply_move`` plays the move and then runs every forced consequence (skips,
penalty draws, UNO catches, the end of the round) until the next decision.

A card put on the discard pile goes through one pipeline (``_play``):
land it (going out, refills, UNO call), its decisions (7, 5, Swap Hands), the
jump-in window, then its effect (``_resolve``: skip, reverse, penalty, ...).
"""

from __future__ import annotations

from unosim.simulate.cards import (
    BLANK,
    DOWNPOUR_ONE,
    DOWNPOUR_TWO,
    N_RANKS,
    N_TYPES,
    POINTS,
    RANK_DRAW_TWO,
    RANK_REVERSE,
    RANK_SKIP,
    SWAP_HANDS,
    WILD,
    WILD_DRAW_FOUR,
)
from unosim.simulate.feel_nb import feel_reset, feel_sample, feel_sample_at, feel_stop
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.layout import (
    HC_COLOUR,
    HC_LACKS,
    HC_PLACE,
    HC_POINTS,
    HC_SIZE,
    HC_SKIP_NEXT,
    HC_STAGE,
    HC_WILDS,
    HW,
    MV_ACCEPT,
    MV_CHALLENGE,
    MV_COLOUR,
    MV_DRAW,
    MV_GIVE,
    MV_PASS,
    MV_PLAY_END,
    MV_TAKE,
    MV_TARGET,
    N_SEATF,
    N_STATE,
    OFF_DECK,
    OFF_DISC,
    OFF_DRAW,
    OFF_H,
    OFF_MOVES,
    OFF_ORDER,
    OFF_PUB,
    OFF_SEATF,
    OFF_WEIGHTS,
    PH_CHALLENGE,
    PH_COLOUR,
    PH_DRAWN,
    PH_GIVE,
    PH_JUMP,
    PH_OVER,
    PH_PENALTY,
    PH_SKIP,
    PH_TARGET,
    PH_TURN,
    PUB_RANK,
    PUB_WILD,
    R_COLOR_ROTATION,
    R_DECK_SIZE,
    R_DRAW_RULE,
    R_DRAW_TEN,
    R_ELIMINATION,
    R_FIRST_CARD,
    R_HAND_SIZE,
    R_JUMP_IN,
    R_JUMP_IN_ORDER,
    R_PLAYERS,
    R_REVERSE_DEFLECT,
    R_SCORING,
    R_SEVEN_O,
    R_SEVEN_ROUNDS,
    R_SKIP_DEFLECT,
    R_STACK_CARDS,
    R_STACKING,
    R_SWAP_HANDS_WILD,
    R_SWAP_ON_FIVE,
    R_TWO_P_REVERSE_SKIPS,
    R_UNO_IN_CENTER,
    R_UNO_PENALTY,
    R_VOLUNTARY_DRAW,
    R_WD4_BLUFF,
    R_WD4_CHALLENGE,
    R_WD4_TAKEBACK,
    R_ZERO_FIFTY,
    RF_SILENT_TWOS,
    RF_UNO_CATCH,
    S_ACTIVE,
    S_ACTOR,
    S_BLUFF,
    S_CAPPED,
    S_CHALLENGES,
    S_COLOUR,
    S_DEFLECTS,
    S_DIR,
    S_DISC_LEN,
    S_DRAW_LEN,
    S_DRAWN,
    S_DRAWN_NO_PLAY,
    S_EFF_CARD,
    S_EFF_SEAT,
    S_GIVE,
    S_JUMP_IDX,
    S_JUMP_INS,
    S_JUMP_N,
    S_LAST,
    S_MAX_STACK,
    S_PEN_DRAWN,
    S_PEND_KIND,
    S_PENDING,
    S_PHASE,
    S_PLAYED,
    S_PREV_COLOUR,
    S_REFILL,
    S_RESHUFFLES,
    S_SILENT,
    S_STACK_LEN,
    S_SWAPS,
    S_TARGET,
    S_TARGET_KIND,
    S_TOP,
    S_TURNS,
    S_UNO_CAUGHT,
    S_UNO_CENTER,
    S_WENT_OUT,
    S_WINNER,
    S_WINNER_POINTS,
    SF_UNO_FORGET,
)
from unosim.simulate.rng_nb import chance, rand_below

_POINTS = POINTS  # a global array is frozen into the compiled code as a constant

# values of the rule slots (see rules.py: _CHOICE_IDS)
PROGRESSIVE = 1
DEFLECT = 2
TEN_BLANKS = 1
TEN_ZEROS = 2
WINNER_TAKES = 0
LOSERS_SCORE = 1


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
def rank_of(t):
    return t % N_RANKS if t < WILD else -1


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
    n = G[R_PLAYERS]
    d = G[S_DIR]
    if G[R_ELIMINATION] == 0:
        return _wrap(p + d * k, n)
    q = p
    for _ in range(k):
        q = _wrap(q + d, n)
        while G[hx(q, HC_PLACE)] != 0:
            q = _wrap(q + d, n)
    return q


@kernel_inline
def two_left(G):
    """Two players at the table: Reverse then acts as Skip (if the rule says so)."""
    return G[S_ACTIVE] == 2 and G[R_TWO_P_REVERSE_SKIPS] != 0


@kernel_inline
def _hand_add(G, p, t):
    G[hx(p, t)] += 1
    G[hx(p, HC_COLOUR + t // N_RANKS)] += 1  # a wild counts in HC_WILDS
    G[hx(p, HC_SIZE)] += 1
    G[hx(p, HC_POINTS)] += _POINTS[t]


@kernel_inline
def _hand_remove(G, p, t):
    G[hx(p, t)] -= 1
    G[hx(p, HC_COLOUR + t // N_RANKS)] -= 1  # a wild counts in HC_WILDS
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


@kernel
def _draw_card(G, RNG, p):
    """Seat ``p`` draws a card; -1 if both piles are empty."""
    if G[S_DRAW_LEN] == 0:
        if not _reshuffle(G):
            return -1
    t = _take_random(G, RNG)
    _hand_add(G, p, t)
    G[hx(p, HC_LACKS)] = 0  # a card the table did not see: nothing is known to be lacking
    G[OFF_PUB + p] = 0
    return t


@kernel
def _draw_n(G, RNG, p, k):
    """Seat ``p`` draws up to ``k`` cards (fewer if both piles run dry); how many."""
    got = 0
    for _ in range(k):
        if _draw_card(G, RNG, p) < 0:
            break
        got += 1
    return got


@kernel
def _draw_penalty(G, RNG, p, k):
    """Seat ``p`` draws ``k`` penalty cards (fewer if both piles run dry)."""
    G[S_PEN_DRAWN] += _draw_n(G, RNG, p, k)


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


@kernel_inline
def penalty_of(G, t):
    """Cards the next player must draw for card ``t`` (0 for a non-draw card)."""
    if t == WILD_DRAW_FOUR:
        return 4
    if t < WILD:
        r = t % N_RANKS
        if r == RANK_DRAW_TWO:
            return 2
        if r == 0 and G[R_DRAW_TEN] == TEN_ZEROS:
            return 10
        return 0
    if t == BLANK and G[R_DRAW_TEN] == TEN_BLANKS:
        return 10
    return 0


# ------------------------------------------------------------------------ deal


@kernel
def deal(G, RNG):
    """Reset the state, deal the deck held in G and turn the first card.

    A Wild Draw Four or other special wild (or, under ``first_card=number_only``,
    any non-number card) turned first goes back into the draw pile and another
    random card is turned: the same as returning it, shuffling and flipping
    again (RULES.md 1).
    """
    for i in range(N_STATE):
        G[i] = 0
    n_players = G[R_PLAYERS]
    for i in range(OFF_H, OFF_H + n_players * HW):
        G[i] = 0
    feel_reset(G)
    for p in range(n_players):
        G[OFF_PUB + p] = 0
    G[S_DIR] = 1
    G[S_WINNER] = -1
    G[S_ACTIVE] = n_players
    n = G[R_DECK_SIZE]
    for i in range(n):
        G[OFF_DRAW + i] = G[OFF_DECK + i]
    G[S_DRAW_LEN] = n
    for _ in range(G[R_HAND_SIZE]):
        for p in range(n_players):
            _hand_add(G, p, _take_random(G, RNG))
    if G[R_SEVEN_ROUNDS] != 0:
        for p in range(n_players):
            G[hx(p, HC_STAGE)] = G[R_HAND_SIZE]
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
    first_penalty = penalty_of(G, t)
    if rank == RANK_SKIP:
        G[S_ACTOR] = 1 % n_players
    elif rank == RANK_REVERSE:
        if n_players == 2 and G[R_TWO_P_REVERSE_SKIPS] != 0:
            G[S_ACTOR] = 1
        else:
            G[S_DIR] = -1
            G[S_ACTOR] = n_players - 1
    elif first_penalty > 0:
        # a first Draw Two (or Draw Ten) can be neither stacked on nor deflected
        _draw_penalty(G, RNG, 0, first_penalty)
        G[S_ACTOR] = 1 % n_players


# ----------------------------------------------------------------- legal moves


@kernel
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
    total += G[hx(p, HC_WILDS)]
    if not _wd4_allowed(G, p, bluff):
        total -= G[hx(p, WILD_DRAW_FOUR)]
    return total


@kernel
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


@kernel_inline
def _offer_held(G, n, p, t):
    """Offer playing ``t`` if ``p`` holds it."""
    if G[hx(p, t)] > 0:
        return _offer(G, n, t, G[hx(p, t)])
    return n


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
            n = _offer_held(G, n, p, t)
        top = G[S_TOP]
        if top < WILD:
            r = top % N_RANKS
            for oc in range(4):
                if oc != c:
                    n = _offer_held(G, n, p, oc * N_RANKS + r)
        legal = n > 0
        if G[hx(p, HC_WILDS)] > 0:
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
        n = _penalty_answers(G, p)
        n = _offer(G, n, MV_TAKE, 1)
    elif ph == PH_COLOUR:
        for c in range(4):
            n = _offer(G, n, MV_COLOUR + c, 1)
    elif ph == PH_SKIP:
        n = _offer_held(G, n, p, (G[S_EFF_CARD] // N_RANKS) * N_RANKS + RANK_SKIP)
        n = _offer(G, n, MV_ACCEPT, 1)
    elif ph == PH_JUMP:
        n = _offer_held(G, n, p, G[S_TOP])
        n = _offer(G, n, MV_PASS, 1)
    elif ph == PH_TARGET:
        for q in range(G[R_PLAYERS]):
            if q != p and G[hx(q, HC_PLACE)] == 0:
                n = _offer(G, n, MV_TARGET + q, 1)
        if G[S_TARGET_KIND] == 5:
            n = _offer(G, n, MV_PASS, 1)  # a trade on a 5 is optional
    elif ph == PH_GIVE:
        for t in range(N_TYPES):
            if G[hx(p, t)] > 0:
                n = _offer(G, n, MV_GIVE + t, G[hx(p, t)])
    return n


@kernel
def _penalty_answers(G, p):
    """Cards the victim ``p`` may answer a pending penalty with: stack
    (progressive), deflect (non-summing), or a Reverse of the colour."""
    n = 0
    mode = G[R_STACKING]
    mixed = G[R_STACK_CARDS] != 0
    kind = G[S_PEND_KIND]
    if mode != 0:
        if kind == 2 or (kind == 4 and mixed):
            for c in range(4):
                if kind == 2 or c == G[S_COLOUR]:
                    n = _offer_held(G, n, p, c * N_RANKS + RANK_DRAW_TWO)
        if mode == PROGRESSIVE and (kind == 4 or (kind == 2 and mixed)):
            t = WILD_DRAW_FOUR
            if G[hx(p, t)] > 0 and _playable(G, p, t):
                n = _offer(G, n, t, G[hx(p, t)])
        if kind == 10:
            if G[R_DRAW_TEN] == TEN_ZEROS:
                for c in range(4):
                    n = _offer_held(G, n, p, c * N_RANKS)
            else:
                n = _offer_held(G, n, p, BLANK)
    if G[R_REVERSE_DEFLECT] != 0 and kind != 10:  # 4b: a Draw Two or Wild Draw Four
        n = _offer_held(G, n, p, G[S_COLOUR] * N_RANKS + RANK_REVERSE)
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
    if 0 <= move < MV_PLAY_END:
        # a card from the hand; all card plays share one _play below, so the big
        # pipeline is compiled once (it is inlined into the game loop)
        if ph == PH_TURN or ph == PH_SKIP or ph == PH_JUMP or ph == PH_PENALTY:
            _turn_starts(G)  # a drawn card played (PH_DRAWN) is part of the draw's turn
        if ph == PH_SKIP:
            G[S_DEFLECTS] += 1
        elif ph == PH_JUMP:
            G[S_JUMP_INS] += 1
        elif ph == PH_PENALTY:
            if rank_of(move % 64) == RANK_REVERSE:
                _reverse_deflect(G, RNG, p, move % 64)
                return
            if G[R_STACKING] == DEFLECT:
                G[S_DEFLECTS] += 1
        _play(G, RNG, p, move)
    elif ph == PH_TURN:
        _turn_starts(G)
        _draw_turn(G, RNG, p)
    else:
        _decide(G, RNG, ph, p, move)


@kernel_inline
def _turn_starts(G):
    """A turn starts: its game-feel sample (RULES.md 9b), before the player acts,
    then the turn count (read once: as far as the compiler knows, the sample's
    store could be the counter)."""
    turns = G[S_TURNS]
    feel_sample_at(G, turns)
    G[S_TURNS] = turns + 1


@kernel
def _decide(G, RNG, ph, p, move):
    """The moves that are not a card: pass, take, challenge, colour, target, give."""
    if ph == PH_DRAWN:
        # keep the drawn card: to the table this looks like a draw that did not play,
        # so what it inferred (_seen_lacking) stands
        _next_turn(G, p)
    elif ph == PH_CHALLENGE:
        _challenge(G, RNG, p, move == MV_CHALLENGE)
    elif ph == PH_PENALTY:
        if G[R_STACKING] != 0:
            _turn_starts(G)  # under stacking, taking the penalty is a turn
        _draw_penalty(G, RNG, p, G[S_PENDING])
        _clear_penalty(G)
        _next_turn(G, p)
    elif ph == PH_COLOUR:
        G[S_COLOUR] = move - MV_COLOUR
        G[S_PHASE] = PH_TURN
    elif ph == PH_SKIP:
        _pass_turn(G, next_seat(G, p, 1))  # accept the Skip
    elif ph == PH_JUMP:
        G[S_JUMP_IDX] += 1  # decline; ask the next candidate
        _offer_jump(G, RNG)
    elif ph == PH_TARGET:
        if move == MV_PASS:
            _open_window(G, RNG)
        else:
            _target_chosen(G, RNG, p, move - MV_TARGET)
    elif ph == PH_GIVE:
        _give_chosen(G, RNG, p, move - MV_GIVE)


@kernel
def _pass_turn(G, p):
    """The next turn is seat ``p``'s (unless a takeback costs it that turn)."""
    if G[R_WD4_TAKEBACK] != 0 and G[hx(p, HC_SKIP_NEXT)] != 0:
        G[hx(p, HC_SKIP_NEXT)] = 0
        p = next_seat(G, p, 1)
    G[S_ACTOR] = p
    G[S_PHASE] = PH_TURN


@kernel
def _next_turn(G, p):
    _pass_turn(G, next_seat(G, p, 1))


@kernel_inline
def _clear_penalty(G):
    G[S_PENDING] = 0
    G[S_PEND_KIND] = 0
    G[S_STACK_LEN] = 0


@kernel
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
            _seen_lacking(G, p)
            return
        if rule == 0:
            break
    _seen_lacking(G, p)
    _next_turn(G, p)


@kernel_inline
def _seen_lacking(G, p):
    """What a draw turn tells the table, from what it saw alone (never from the hand:
    a strategy may read these bits, DESIGN.md): ``p`` drew, so (unless it drew by
    choice) it held nothing playable, and a drawn card it did not play was not playable
    (unless it kept a playable one, which looks the same). HC_LACKS gets the current
    colour, OFF_PUB the colour, the top card's rank and the wilds; both are cleared
    when ``p`` gets a card the table did not see. Under draw_one_pass a drawn card is
    never played at once, so it may be of the colour: nothing is inferred."""
    if G[R_DRAW_RULE] != 2:
        c = G[S_COLOUR]
        G[hx(p, HC_LACKS)] |= 1 << c
        top = G[S_TOP]
        pub = (1 << c) | (1 << PUB_WILD)
        if top < WILD:
            pub |= 1 << (PUB_RANK + top % N_RANKS)
        G[OFF_PUB + p] |= pub


@kernel_inline
def _play(G, RNG, p, move):
    """Put a card from ``p``'s hand on the discard pile, then run the pipeline:
    going out, UNO call, the card's decisions, jump-in window, effect."""
    t = move % 64
    if t == WILD_DRAW_FOUR:
        G[S_PREV_COLOUR] = G[S_COLOUR]
        G[S_BLUFF] = 0 if wd4_is_legal(G, p) else 1
        G[OFF_PUB + p] |= 1 << G[S_COLOUR]  # the table infers it held none (unless a bluff)
    _hand_remove(G, p, t)
    nd = G[S_DISC_LEN]
    G[OFF_DISC + nd] = t
    G[S_DISC_LEN] = nd + 1
    G[S_TOP] = t
    if t < WILD:
        G[S_COLOUR] = t // N_RANKS
    elif G[R_COLOR_ROTATION] != 0 and (t == WILD or t == WILD_DRAW_FOUR):
        # red -> blue -> green -> yellow -> red clockwise (colour ids r0 y1 g2 b3)
        G[S_COLOUR] = (G[S_COLOUR] + (3 if G[S_DIR] > 0 else 1)) % 4
    else:
        G[S_COLOUR] = move // 64
    G[S_PLAYED] += 1
    amount = penalty_of(G, t)
    if amount > 0:
        G[S_PENDING] = G[S_PENDING] + amount if G[R_STACKING] == PROGRESSIVE else amount
        G[S_PEND_KIND] = amount
        G[S_STACK_LEN] += 1
        if G[S_STACK_LEN] > G[S_MAX_STACK]:
            G[S_MAX_STACK] = G[S_STACK_LEN]
        G[S_LAST] = p
    G[S_EFF_SEAT] = p
    G[S_EFF_CARD] = t
    size = G[hx(p, HC_SIZE)]
    if size == 0:
        if _hand_emptied(G, RNG, p, t):
            return
    elif size == 1:
        _uno_call(G, RNG, p)
    if t < WILD and t % N_RANKS == 2 and G[RF_SILENT_TWOS] > 0:
        _silent_twos(G, RNG, p)
    _card_decisions(G, RNG, p, t)


@kernel_inline
def _card_decisions(G, RNG, p, t):
    """Seven-O, swap on five and Swap Hands ask ``p`` for a target first."""
    r = rank_of(t)
    if G[R_SEVEN_O] != 0 and r == 7:
        G[S_TARGET_KIND] = 7
    elif G[R_SWAP_ON_FIVE] != 0 and r == 5:
        G[S_TARGET_KIND] = 5
    elif G[R_SWAP_HANDS_WILD] != 0 and t == SWAP_HANDS:
        G[S_TARGET_KIND] = SWAP_HANDS
    else:
        if G[R_SEVEN_O] != 0 and r == 0:
            _rotate_hands(G, p)
        if G[R_JUMP_IN] == 0:
            _resolve(G, RNG)
        else:
            _open_window(G, RNG)
        return
    G[S_ACTOR] = p
    G[S_PHASE] = PH_TARGET


@kernel
def _swap_rows(G, a, b):
    """Exchange the hands of seats ``a`` and ``b`` (cards, counts, size, value)."""
    for c in range(HC_POINTS + 1):
        x = G[hx(a, c)]
        G[hx(a, c)] = G[hx(b, c)]
        G[hx(b, c)] = x
    x = G[hx(a, HC_LACKS)]  # what the table knows goes with the hand
    G[hx(a, HC_LACKS)] = G[hx(b, HC_LACKS)]
    G[hx(b, HC_LACKS)] = x
    x = G[OFF_PUB + a]
    G[OFF_PUB + a] = G[OFF_PUB + b]
    G[OFF_PUB + b] = x


@kernel
def _rotate_hands(G, p):
    """Every hand passes to the next player in the direction of play (a 0)."""
    last = p
    for _ in range(G[S_ACTIVE] - 1):
        last = next_seat(G, last, 1)
    # walk backwards from the last seat: each takes the hand of the seat before it
    G[S_DIR] = -G[S_DIR]
    q = last
    for _ in range(G[S_ACTIVE] - 1):
        prev = next_seat(G, q, 1)
        _swap_rows(G, q, prev)
        q = prev
    G[S_DIR] = -G[S_DIR]
    G[S_SWAPS] += 1


@kernel
def _target_chosen(G, RNG, p, q):
    """``p`` named ``q``: swap hands (7, Swap Hands) or start a trade (5)."""
    if G[S_TARGET_KIND] == 5:
        G[S_TARGET] = q
        G[S_PHASE] = PH_GIVE
        return
    _swap_rows(G, p, q)
    G[S_SWAPS] += 1
    _open_window(G, RNG)


@kernel
def _give_chosen(G, RNG, p, t):
    """A side of a trade on a 5 names its card; when both have, they swap."""
    if p == G[S_EFF_SEAT]:
        G[S_GIVE] = t
        G[S_ACTOR] = G[S_TARGET]
        return
    giver = G[S_EFF_SEAT]
    _hand_remove(G, giver, G[S_GIVE])
    _hand_remove(G, p, t)
    _hand_add(G, p, G[S_GIVE])
    _hand_add(G, giver, t)
    G[hx(p, HC_LACKS)] = 0  # each side got a card the table did not see
    G[hx(giver, HC_LACKS)] = 0
    G[OFF_PUB + p] = 0
    G[OFF_PUB + giver] = 0
    G[S_SWAPS] += 1
    _open_window(G, RNG)


@kernel
def _open_window(G, RNG):
    """Jump-in: list who holds a card identical to the top card and ask them in
    order (a random order, or turn order from the player whose turn is next)."""
    t = G[S_TOP]
    if G[R_JUMP_IN] == 0 or t == WILD_DRAW_FOUR or t > WILD:
        _resolve(G, RNG)
        return
    p = G[S_EFF_SEAT]
    n_players = G[R_PLAYERS]
    # turn order once the card's effect has been applied, from the seat whose
    # turn would be next
    r = rank_of(t)
    orig = G[S_DIR]
    d = -orig if r == RANK_REVERSE and not two_left(G) else orig
    skip = r == RANK_SKIP or (r == RANK_REVERSE and two_left(G)) or penalty_of(G, t) > 0
    G[S_DIR] = d
    first = next_seat(G, p, 2 if skip else 1)
    G[S_DIR] = orig
    n = 0
    q = first
    for _ in range(n_players):
        if G[hx(q, HC_PLACE)] == 0 and G[hx(q, t)] > 0:
            G[OFF_ORDER + n] = q
            n += 1
        q = _wrap(q + d, n_players)
    if G[R_JUMP_IN_ORDER] == 0:
        for i in range(n - 1, 0, -1):
            j = rand_below(RNG, 1, i + 1)
            x = G[OFF_ORDER + i]
            G[OFF_ORDER + i] = G[OFF_ORDER + j]
            G[OFF_ORDER + j] = x
    G[S_JUMP_N] = n
    G[S_JUMP_IDX] = 0
    _offer_jump(G, RNG)


@kernel
def _offer_jump(G, RNG):
    """Ask the next candidate who still holds an identical card; else resolve."""
    while G[S_JUMP_IDX] < G[S_JUMP_N]:
        q = G[OFF_ORDER + G[S_JUMP_IDX]]
        if G[hx(q, G[S_TOP])] > 0:
            G[S_ACTOR] = q
            G[S_PHASE] = PH_JUMP
            return
        G[S_JUMP_IDX] += 1
    _resolve(G, RNG)


@kernel_inline
def _resolve(G, RNG):
    """Apply the effect of the card on top, played from seat S_EFF_SEAT."""
    p = G[S_EFF_SEAT]
    t = G[S_EFF_CARD]
    r = rank_of(t)
    if penalty_of(G, t) > 0:
        victim = next_seat(G, p, 1)
        if t == WILD_DRAW_FOUR and G[R_WD4_CHALLENGE] != 0:
            G[S_ACTOR] = victim
            G[S_PHASE] = PH_CHALLENGE
        else:
            _face_penalty(G, RNG, victim)
    elif t == DOWNPOUR_ONE or t == DOWNPOUR_TWO:
        k = 1 if t == DOWNPOUR_ONE else 2
        q = next_seat(G, p, 1)
        while q != p:
            _draw_penalty(G, RNG, q, k)
            q = next_seat(G, q, 1)
        _next_turn(G, p)
    elif r == RANK_SKIP:
        victim = next_seat(G, p, 1)
        skip = (t // N_RANKS) * N_RANKS + RANK_SKIP
        if G[R_SKIP_DEFLECT] != 0 and G[hx(victim, skip)] > 0 and victim != p:
            G[S_ACTOR] = victim
            G[S_PHASE] = PH_SKIP
        else:
            _next_turn(G, victim)
    elif r == RANK_REVERSE:
        if two_left(G):
            _next_turn(G, next_seat(G, p, 1))
        else:
            G[S_DIR] = -G[S_DIR]
            _next_turn(G, p)
    else:
        _next_turn(G, p)


@kernel
def _face_penalty(G, RNG, victim):
    """The victim may answer (stacking modes, reverse_deflect) or draws and is skipped."""
    if G[R_STACKING] != 0 or G[R_REVERSE_DEFLECT] != 0:
        G[S_ACTOR] = victim
        G[S_PHASE] = PH_PENALTY
        return
    _draw_penalty(G, RNG, victim, G[S_PENDING])
    _clear_penalty(G)
    _next_turn(G, victim)


@kernel
def _reverse_deflect(G, RNG, p, t):
    """A Reverse of the colour sends the same penalty back where it came from."""
    G[S_DEFLECTS] += 1
    _hand_remove(G, p, t)
    nd = G[S_DISC_LEN]
    G[OFF_DISC + nd] = t
    G[S_DISC_LEN] = nd + 1
    G[S_TOP] = t
    G[S_COLOUR] = t // N_RANKS
    G[S_PLAYED] += 1
    G[S_DIR] = -G[S_DIR]
    back = G[S_LAST]
    G[S_LAST] = p
    G[S_EFF_SEAT] = p
    G[S_EFF_CARD] = t
    if G[hx(p, HC_SIZE)] == 0:
        if _hand_emptied(G, RNG, p, t):
            return
    elif G[hx(p, HC_SIZE)] == 1:
        _uno_call(G, RNG, p)
    G[S_ACTOR] = back
    G[S_PHASE] = PH_PENALTY


@kernel
def _challenge(G, RNG, p, challenged):
    """Victim ``p`` of a Wild Draw Four challenges it or accepts it (RULES.md 2)."""
    if challenged:
        G[S_CHALLENGES] += 1
        offender = G[S_LAST]
        if G[S_BLUFF] != 0:
            # guilty: the offender draws what the victim faced; the victim plays on.
            # A takeback comes first, before the draw can reshuffle the discards.
            if G[R_WD4_TAKEBACK] != 0:
                _take_back(G, offender)
            _draw_penalty(G, RNG, offender, G[S_PENDING])
            _clear_penalty(G)
            G[S_ACTOR] = p
            G[S_PHASE] = PH_TURN
            return
        _draw_penalty(G, RNG, p, G[S_PENDING] + 2)
        _clear_penalty(G)
        _next_turn(G, p)
        return
    _face_penalty(G, RNG, p)


@kernel
def _take_back(G, offender):
    """wd4_challenge_takeback: the caught Wild Draw Four returns to its owner, the
    card below is on top again with the colour before it, and the owner will
    miss a turn."""
    nd = G[S_DISC_LEN] - 1
    _hand_add(G, offender, G[OFF_DISC + nd])
    G[S_DISC_LEN] = nd
    G[S_PLAYED] -= 1
    G[S_TOP] = G[OFF_DISC + nd - 1]
    G[S_COLOUR] = G[S_PREV_COLOUR]
    G[hx(offender, HC_SKIP_NEXT)] = 1
    G[OFF_PUB + offender] = 0  # it holds a Wild Draw Four again


@kernel
def _uno_call(G, RNG, p):
    """A player down to one card calls UNO, or forgets and may be caught."""
    if chance(RNG, 1, seat_param(G, p, SF_UNO_FORGET)):
        if chance(RNG, 1, G[RF_UNO_CATCH]):
            G[S_UNO_CAUGHT] += 1
            _draw_penalty(G, RNG, p, G[R_UNO_PENALTY])
    elif G[R_UNO_IN_CENTER] != 0:
        # "UNO in the centre": the slowest other player, modelled as a random one
        k = rand_below(RNG, 1, G[S_ACTIVE] - 1) + 1
        q = next_seat(G, p, k)
        before = G[S_PEN_DRAWN]
        _draw_penalty(G, RNG, q, 2)
        G[S_UNO_CENTER] += G[S_PEN_DRAWN] - before


@kernel
def _silent_twos(G, RNG, p):
    """After a 2, each other player breaks the silence with some chance and draws 2."""
    q = next_seat(G, p, 1)
    while q != p:
        if chance(RNG, 1, G[RF_SILENT_TWOS]):
            G[S_SILENT] += 1
            _draw_penalty(G, RNG, q, 2)
        q = next_seat(G, q, 1)


@kernel
def _hand_emptied(G, RNG, p, t):
    """``p`` played its last card. Refill under seven_rounds, leave the table under
    elimination, or end the round. True when this card's pipeline is over."""
    if G[R_SEVEN_ROUNDS] != 0 and G[hx(p, HC_STAGE)] > 1:
        G[hx(p, HC_STAGE)] -= 1
        G[S_REFILL] += _draw_n(G, RNG, p, G[hx(p, HC_STAGE)])
        return False
    if G[S_WINNER] < 0:
        feel_sample(G)  # the last sample: the winner's last card left its hand (RULES.md 9b)
        feel_stop(G)
    if G[R_ELIMINATION] != 0 and G[S_ACTIVE] > 2:
        _leave_table(G, RNG, p, t)
        return True
    _end_round(G, RNG, p, t)
    return True


@kernel
def _settle_first_out(G, p, t):
    """The first seat out wins the round; what ``scoring`` awards it is fixed now."""
    if G[S_WINNER] >= 0:
        return
    G[S_WINNER] = p
    G[S_WENT_OUT] = t
    G[S_WINNER_POINTS] = winner_points_now(G)


@kernel
def _leave_table(G, RNG, p, t):
    """elimination: ``p`` finishes; the next seat pays a pending penalty (not a
    turn) and the card's skip or reverse still applies among those left."""
    G[hx(p, HC_PLACE)] = G[R_PLAYERS] - G[S_ACTIVE] + 1
    victim = next_seat(G, p, 1)
    G[S_ACTIVE] -= 1
    skipped = False
    if G[S_PENDING] > 0:
        _draw_penalty(G, RNG, victim, G[S_PENDING])
        _clear_penalty(G)
        skipped = True
    _settle_first_out(G, p, t)
    r = rank_of(t)
    if skipped or r == RANK_SKIP or (r == RANK_REVERSE and two_left(G)):
        _next_turn(G, victim)
    elif r == RANK_REVERSE:
        G[S_DIR] = -G[S_DIR]
        _next_turn(G, p)
    else:
        _pass_turn(G, victim)


@kernel
def _end_round(G, RNG, p, t):
    """The round is over: the seat that would face a pending penalty draws it (not
    a turn), then hands are scored. Under elimination ``p`` is the last but one."""
    if G[S_PENDING] > 0:
        _draw_penalty(G, RNG, next_seat(G, p, 1), G[S_PENDING])
        _clear_penalty(G)
    if G[R_ELIMINATION] != 0:
        G[hx(p, HC_PLACE)] = G[R_PLAYERS] - G[S_ACTIVE] + 1
        last = next_seat(G, p, 1)
        G[hx(last, HC_PLACE)] = G[R_PLAYERS]
        G[S_ACTIVE] = 1
    _settle_first_out(G, p, t)
    G[S_PHASE] = PH_OVER


@kernel
def hand_value(G, q):
    """Points of seat ``q``'s hand, with the scoring house rules: a lone 0 is
    worth 50 (zero_fifty); going out on a Downpour takes 20 or 40 off the
    winner's total (losers_score)."""
    if G[R_ZERO_FIFTY] != 0 and G[hx(q, HC_SIZE)] == 1:
        for c in range(4):
            if G[hx(q, c * N_RANKS)] == 1:
                return 50
    if q == G[S_WINNER] and G[R_SCORING] == LOSERS_SCORE:
        if G[S_WENT_OUT] == DOWNPOUR_ONE:
            return -20
        if G[S_WENT_OUT] == DOWNPOUR_TWO:
            return -40
    return G[hx(q, HC_POINTS)]


@kernel
def winner_points_now(G):
    """What ``scoring`` awards the winner from the hands as they are now: the
    others' points under winner_takes; nothing under the other methods, where
    each player's own hand is what counts."""
    if G[S_WINNER] < 0 or G[R_SCORING] != WINNER_TAKES:
        return 0
    total = 0
    for q in range(G[R_PLAYERS]):
        if q != G[S_WINNER]:
            total += hand_value(G, q)
    return total


@kernel
def score_hands(G):
    """What the round winner was awarded (0 when capped)."""
    if G[S_WINNER] < 0:
        return 0
    return G[S_WINNER_POINTS]


@kernel
def cap_round(G):
    """Stop a round at the turn cap: no winner, counted as capped."""
    G[S_CAPPED] = 1
    G[S_WINNER] = -1
    G[S_WINNER_POINTS] = 0
    G[S_PHASE] = PH_OVER

