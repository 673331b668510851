"""Built-in strategies, compiled, dispatched on an integer id.

An integer id with if/elif is what measured fastest and caches across processes
(docs/architecture.md#how-to-add-a-strategy). Every strategy sees the same thing:
the game ``G`` (its legal moves via ``legal_moves``, or the O(1)
``count_playable``/``nth_playable`` for plays), its seat parameters and stream 1 of
the game's generators ``rng``. It returns a legal move; a wild's names a colour
(``moves.with_colour``).

Ids ``PLUGIN_BASE`` and up are user plug-ins (strategies/plugins.py); they never
reach the built-ins' dispatch (``runs/entries_nb.builtin_choose``, or
``search_nb.choose_move`` for tables with a search seat or the card counter), whose
plug-in-free path stays the cached, inlined one. The ``search`` strategy (id SEARCH) lives in
strategies/search_nb.py: ``_choose`` here knows only the strategies a search
rollout may use, so the search never calls itself. ``builtin_move`` is ``_choose``
for plug-ins (strategies/api.py); ``search_nb.strategy_move`` also knows the search.

Several strategies play "the best play, ties uniform over physical cards": one
helper (``best_play``, in two halves for ``weighted``) over a score function of
the form ``score(G, p, t, ctx)``, inlined with each, so each gets its own loop.
"""

from __future__ import annotations

import numpy as np

from unosim.simulate import cards as C
from unosim.simulate import layout as L
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.moves import is_wild_play, type_of, with_colour
from unosim.simulate.rng_nb import chance, rand_below
from unosim.simulate.step_nb import (
    _ONE,
    count_playable,
    hu,
    last_card_barred,
    legal_moves,
    next_seat,
    nth_playable_inline,
    penalty_of,
    seat_param,
    wd4_is_legal,
)

RANDOM = 0
FIRST = 1
DEFENSIVE = 2
OFFENSIVE = 3
COLOUR_KEEPER = 4
ATTACKER = 5
SEARCH = 6  # dispatched by search_nb.choose_move, never by ``_choose``
#: chausner/UnoAI's random bot: ``random`` with a uniformly random colour for a wild
#: (handled in ``_choose_rest``, so that ``random``'s own path stays as it was)
RANDOM_COLOUR = 7
PLUGIN_BASE = 100  # plug-in k of a run has id PLUGIN_BASE + k
#: the card counter (strategies/counter_nb.py): it observes the table's events, so it
#: plays where they are recorded (search_nb's dispatch of every built-in plays it); in a
#: search's rollouts, which record none, it plays from what the world shows it
COUNTER = 20
#: built-ins that observe the table's public events
OBSERVERS = frozenset({COUNTER})


def observes(sid: int) -> bool:
    """Whether built-in ``sid`` observes the table's events (tables with it record them)."""
    return sid in OBSERVERS
# the parametric strategies (their parameters live in G, see layout.OFF_SPARAM): the
# seat's id is KIND + SLOT_STRIDE * slot, slot = the parameter slot of the player
WEIGHTED = 10
ADAPTIVE = 11
GANG_UP = 12
TUNED = 13  # weighted, with the shipped weights of the table size (registry.py)
PARAM_SID = WEIGHTED  # the lowest parametric kind
SLOT_STRIDE = 1000

#: attacker: the next player is "close to going out" with this many cards or fewer
THREAT_CARDS = 2
#: challenge=informed challenges when the chance that the Wild Draw Four's player
#: still held the previous colour is above this: a caught bluff swings 8 cards
#: (4 not drawn, 4 drawn by the bluffer), a failed challenge costs 2, so a
#: challenge pays off in cards above 2 / (2 + 8)
INFORMED_CHALLENGE_ODDS = 0.2

_POINTS = C.POINTS
# the ids as plain int64, not constants: Numba compiles a called kernel once per
# constant argument value (a "literal" type), so a constant id would compile
# ``_choose_rest`` once for each id it is called with
_RANDOM = np.int64(RANDOM)
_DEFENSIVE = np.int64(DEFENSIVE)
_OFFENSIVE = np.int64(OFFENSIVE)


#: every colour, as a mask of ``_most_held_in`` (an int64 value, not a constant: see above)
_ALL_COLOURS = np.int64(15)


@kernel
def _most_held_in(G, p, mask):
    """The most cards ``p`` holds of one colour among the colours of ``mask`` (bit c
    for colour c), and how many of those colours tie at that count."""
    best = -1
    ties = 0
    for c in range(4):
        if mask & (1 << c):
            k = G[hu(p, L.HC_COLOUR + c)]
            if k > best:
                best = k
                ties = 1
            elif k == best:
                ties += 1
    return best, ties


@kernel
def _pick_most_held(G, p, mask, best, ties, rng):
    """One of the ``ties`` colours of ``mask`` that ``p`` holds ``best`` cards of, at
    random (no draw when there is one)."""
    pick = rand_below(rng, 1, ties) if ties > 1 else 0
    for c in range(4):
        if mask & (1 << c) and G[hu(p, L.HC_COLOUR + c)] == best:
            if pick == 0:
                return c
            pick -= 1
    return 0


@kernel
def most_held_colour(G, p, rng):
    """The colour ``p`` holds most cards of; ties (and an empty hand) at random."""
    return most_held_colour_inline(G, p, rng)


@kernel_inline
def most_held_colour_inline(G, p, rng):
    """``most_held_colour`` inlined: ``random``'s wild on its turn names it without a
    call (whose arrays passed field by field cost some 35 instructions)."""
    best, ties = _most_held_in(G, p, _ALL_COLOURS)
    return _pick_most_held(G, p, _ALL_COLOURS, best, ties, rng)


@kernel
def _first_most_held_colour(G, p):
    best = 0
    for c in range(1, 4):
        if G[hu(p, L.HC_COLOUR + c)] > G[hu(p, L.HC_COLOUR + best)]:
            best = c
    return best


@kernel_inline
def _allowed(G, p, t, bluff_ok):
    """A play the strategy will consider: never a bluff unless it decided to bluff."""
    return t != C.WILD_DRAW_FOUR or bluff_ok or wd4_is_legal(G, p)


@kernel(share="strategies", kinds="iGiiR")
def _with_colour(sid, G, p, t, rng):
    if t < C.WILD:
        return t
    if sid == FIRST:
        return with_colour(t, _first_most_held_colour(G, p))
    return with_colour(t, most_held_colour(G, p, rng))


@kernel(share="strategies", kinds="GiiR")
def _attacker_colour(G, p, m, rng):
    """The attacker's move ``m`` with the colour it names for a wild (kept out of
    ``_with_colour``, which the ``random`` hot path calls: a branch there
    measured 1-2% slower)."""
    if is_wild_play(m):
        return with_colour(type_of(m), attack_colour(G, p, rng))
    return m


@kernel
def attack_colour(G, p, rng):
    """The colour the attacker names: one the next player was seen to lack (the
    one ``p`` holds most of, ties at random), if ``p`` holds any of it or that
    player is close to going out; else the colour ``p`` holds most."""
    v = next_seat(G, p, _ONE)
    lacks = G[hu(v, L.HC_LACKS)]
    if lacks == 0:
        return most_held_colour(G, p, rng)
    best, ties = _most_held_in(G, p, lacks)
    if best == 0 and G[hu(v, L.HC_SIZE)] > THREAT_CARDS:
        return most_held_colour(G, p, rng)
    return _pick_most_held(G, p, lacks, best, ties, rng)


@kernel
def _context(sid, G, p):
    """What ``_table_score`` needs about the table, worked out once per
    decision: for the attacker, the next player's seen-lacking colours (bits 0-3)
    and whether that player is close to going out (bit 4)."""
    if sid != ATTACKER:
        return 0
    v = next_seat(G, p, _ONE)
    threat = 16 if G[hu(v, L.HC_SIZE)] <= THREAT_CARDS else 0
    return G[hu(v, L.HC_LACKS)] | threat


@kernel_inline
def _card_score(G, p, t, sid):
    """Preference of a play for strategy ``sid`` (higher is played first), for the
    strategies whose preference depends on the card alone."""
    if sid == DEFENSIVE:
        return _POINTS[t]
    if sid == OFFENSIVE:
        return 0 if t >= C.WILD else 1
    if sid == FIRST:
        return -t
    return 0


@kernel_inline
def _table_score(G, p, t, ctx):
    """Preference of a play for the strategies that read the table; ``ctx`` is
    (strategy id, ``_context``)."""
    if ctx[0] == COLOUR_KEEPER:
        return _keeper_score(G, p, t)
    return _attacker_score(G, t, ctx[1])


@kernel_inline
def _keeper_score(G, p, t):
    """colour-keeper: stay in the current colour, a 0 of it first (one 0 per colour,
    so it is the hardest card to follow by number); else move by number to the
    colour it holds most; a wild last (a Wild Draw Four after a Wild)."""
    if t >= C.WILD:
        return 1 if t == C.WILD_DRAW_FOUR else 2
    c = t // C.N_RANKS
    if c == G[L.S_COLOUR]:
        return 300 if t % C.N_RANKS == 0 else 200
    return 100 + G[hu(p, L.HC_COLOUR + c)]


@kernel_inline
def _attacker_score(G, t, ctx):
    """attacker: when the next player is close to going out, hit it (Draw Two, Draw
    Ten, Wild Draw Four, then Skip, then Reverse), else prefer a colour it lacks;
    otherwise keep action cards and wilds and play numbers, colours it lacks first."""
    lacks_bonus = 0
    if t < C.WILD and ctx & (1 << (t // C.N_RANKS)):
        lacks_bonus = 10
    r = t % C.N_RANKS if t < C.WILD else -1
    if ctx & 16:
        if penalty_of(G, t) > 0:
            return 400 if t != C.WILD_DRAW_FOUR else 390
        if r == C.RANK_SKIP or (r == C.RANK_REVERSE and G[L.S_ACTIVE] == 2):
            return 300
        if r == C.RANK_REVERSE:
            return 250
        if t >= C.WILD:
            return 105 if ctx & 15 else 50  # names a colour it lacks, after such a number
        return 100 + lacks_bonus
    if t >= C.WILD:
        return 5 if t == C.WILD_DRAW_FOUR else 10
    if r >= C.RANK_SKIP or penalty_of(G, t) > 0:
        return 50 + lacks_bonus
    return 100 + lacks_bonus


@kernel_inline
def best_plays(score, ctx, G, p, n, bluff_ok):
    """The first half of "best play, ties uniform over physical cards", for any
    ``score(G, p, t, ctx)``: over the ``n`` listed moves, the best score of a play
    the strategy allows itself, how many physical cards have it, and the listed
    move that is not a play (MV_DRAW or MV_PASS; -1 if none)."""
    best = -(1 << 62)
    total = 0
    other = -1
    for i in range(n):
        t = G[L.OFF_MOVES + i]
        if t >= L.MV_PLAY_END:
            if t == L.MV_DRAW or t == L.MV_PASS:
                other = t
            continue
        if not _allowed(G, p, t, bluff_ok):
            continue
        s = score(G, p, t, ctx)
        if s > best:
            best = s
            total = G[L.OFF_WEIGHTS + i]
        elif s == best:
            total += G[L.OFF_WEIGHTS + i]
    return best, total, other


@kernel_inline
def nth_best_play(score, ctx, G, p, n, bluff_ok, best, r):
    """The second half: the play of the ``r``-th (0-based) physical card among
    those scoring ``best``; -1 if there is none."""
    for i in range(n):
        t = G[L.OFF_MOVES + i]
        if t >= L.MV_PLAY_END or not _allowed(G, p, t, bluff_ok):
            continue
        if score(G, p, t, ctx) == best:
            if r < G[L.OFF_WEIGHTS + i]:
                return t
            r -= G[L.OFF_WEIGHTS + i]
    return -1


@kernel_inline
def best_play(score, ctx, G, p, n, bluff_ok, rng, random_ties):
    """The best listed play by ``score``, uniform over the physical cards that tie
    (the first of them without ``random_ties``); -1 if there is none."""
    best, total, _ = best_plays(score, ctx, G, p, n, bluff_ok)
    if total == 0:
        return -1
    r = rand_below(rng, 1, total) if random_ties else 0
    return nth_best_play(score, ctx, G, p, n, bluff_ok, best, r)


@kernel
def _pick_play(sid, G, p, n, bluff_ok, rng):
    """The best play of a strategy whose preference is the card alone."""
    return best_play(_card_score, sid, G, p, n, bluff_ok, rng, sid != FIRST)


@kernel
def _pick_table_play(sid, G, p, n, bluff_ok, rng):
    """The best play of a strategy that reads the table (kept apart so that the
    others' loop stays as lean as it was)."""
    ctx = (sid, _context(sid, G, p))
    return best_play(_table_score, ctx, G, p, n, bluff_ok, rng, True)


@kernel
def informed_challenge(G, p):
    """challenge=informed: challenge the Wild Draw Four just played when the cards
    ``p`` has seen make it likely (above INFORMED_CHALLENGE_ODDS) that its player
    still held a card of the colour it replaced: the chance that a hand of that
    size, drawn from the cards ``p`` has not seen (not in its hand, not on the
    discard pile), holds one. A player seen lacking that colour since it last got
    a card played it legally, and is never challenged."""
    off = G[L.S_LAST]
    c = G[L.S_PREV_COLOUR]
    if G[hu(off, L.HC_LACKS)] & (1 << c):
        return False
    lo = c * C.N_RANKS
    unseen = G[L.R_DECK_SIZE] - G[hu(p, L.HC_SIZE)] - G[L.S_DISC_LEN]
    unseen_c = -G[hu(p, L.HC_COLOUR + c)]
    for i in range(G[L.R_DECK_SIZE]):
        t = G[L.OFF_DECK + i]
        if lo <= t < lo + C.N_RANKS:
            unseen_c += 1
    for i in range(G[L.S_DISC_LEN]):
        t = G[L.OFF_DISC + i]
        if lo <= t < lo + C.N_RANKS:
            unseen_c -= 1
    none = 1.0  # chance that the hand holds no card of the colour
    for i in range(G[hu(off, L.HC_SIZE)]):
        if unseen - i <= 0 or none <= 0.0:
            break
        none *= max(0.0, (unseen - unseen_c - i) / (unseen - i))
    return 1.0 - none > INFORMED_CHALLENGE_ODDS


@kernel
def builtin_move(sid, G, rng):
    """The move built-in strategy ``sid`` would play now for the seat to act (with
    that seat's parameters); a plug-in may hand any decision to it."""
    return _choose(sid, G, rng)


@kernel_inline
def _choose(sid, G, rng):
    """Built-in strategy ``sid`` (any but the search) picks a legal move for the seat
    to act."""
    if sid < PARAM_SID:
        return choose_plain(sid, G, rng)
    return choose_param(sid, G, rng)


@kernel_inline
def choose_plain(sid, G, rng):
    """A built-in without parameters (an id below ``PARAM_SID``) picks a legal move:
    the dispatch of tables that seat only these, so that they never compile the
    parametric strategies."""
    ph = G[L.S_PHASE]
    p = G[L.S_ACTOR]
    if sid == RANDOM:
        # the hot path: pick a physical card in O(1), no move list needed. ``< 1``,
        # not ``== PH_TURN`` (phases are never negative): the compiler made the
        # equality tests one switch, which tested the two rarer phases first
        if ph < 1:
            bluff_ok = chance(rng, 1, seat_param(G, p, L.SF_BLUFF))
            total = count_playable(G, p, bluff_ok)
            if total == 0:
                return L.MV_DRAW
            # a lone playable card may be barred only without finish_on_action: one
            # test of both (zero only for a count of 1 and the rule off), never true
            # under the default rules, where the compiler put a test of the count alone
            # (a coin flip to the processor) before the rule's
            if ((total - 1) | G[L.R_FINISH_ON_ACTION]) == 0 and last_card_barred(G, p):
                return L.MV_DRAW
            t = nth_playable_inline(G, p, bluff_ok, rand_below(rng, 1, total))
            if t < C.WILD:  # _with_colour, with the colour picked inline
                return t
            return with_colour(t, most_held_colour_inline(G, p, rng))
        if ph == L.PH_DRAWN:
            return _drawn_move(sid, G, rng, p)
        if ph == L.PH_CHALLENGE and seat_param(G, p, L.SF_INFORMED) == 0:
            # a Wild Draw Four played on it: ``_choose_rest``'s answer, without a call
            if chance(rng, 1, seat_param(G, p, L.SF_CHALLENGE)):
                return L.MV_CHALLENGE
            return L.MV_ACCEPT
    m = _choose_rest(sid, G, rng, ph, p)
    if sid == ATTACKER:
        return _attacker_colour(G, p, m, rng)
    return m


@kernel_inline
def _drawn_move(sid, G, rng, p):
    """Play the card just drawn when allowed, else pass."""
    t = G[L.S_DRAWN]
    if _allowed(G, p, t, chance(rng, 1, seat_param(G, p, L.SF_BLUFF))):
        return _with_colour(sid, G, p, t, rng)
    return L.MV_PASS


@kernel(share="strategies", kinds="iGRii")
def _choose_rest(sid, G, rng, ph, p):
    """Every decision but ``random``'s turn and drawn card (``_choose``). Called, not
    inlined: the parametric strategies reach it from five places, and inlining
    each copy cost half a minute of compiling for a few rare phases."""
    if sid == RANDOM_COLOUR:
        if ph == L.PH_TURN or ph == L.PH_DRAWN or ph == L.PH_COLOUR:
            return random_colour_move(G, rng, ph, p)
        sid = _RANDOM  # every other decision as ``random``
    if ph == L.PH_TURN or ph == L.PH_PENALTY:
        n = legal_moves(G)
        bluff_ok = chance(rng, 1, seat_param(G, p, L.SF_BLUFF))
        if sid == COLOUR_KEEPER or sid == ATTACKER:
            t = _pick_table_play(sid, G, p, n, bluff_ok, rng)
        else:
            t = _pick_play(sid, G, p, n, bluff_ok, rng)
        if t >= 0:
            return _with_colour(sid, G, p, t, rng)
        return L.MV_DRAW if ph == L.PH_TURN else L.MV_TAKE
    if ph == L.PH_DRAWN:
        return _drawn_move(sid, G, rng, p)
    if ph == L.PH_CHALLENGE:
        if seat_param(G, p, L.SF_INFORMED) != 0:
            return L.MV_CHALLENGE if informed_challenge(G, p) else L.MV_ACCEPT
        return L.MV_CHALLENGE if chance(rng, 1, seat_param(G, p, L.SF_CHALLENGE)) else L.MV_ACCEPT
    if ph == L.PH_COLOUR:
        if sid == FIRST:
            return L.MV_COLOUR + _first_most_held_colour(G, p)
        if sid == ATTACKER:
            return L.MV_COLOUR + attack_colour(G, p, rng)
        return L.MV_COLOUR + most_held_colour(G, p, rng)
    if ph == L.PH_SKIP or ph == L.PH_JUMP:
        # optional actions are always taken: deflect the Skip, jump in
        legal_moves(G)
        t = G[L.OFF_MOVES]
        if t < L.MV_PLAY_END:
            return _with_colour(sid, G, p, t, rng)
        return G[L.OFF_MOVES]
    if ph == L.PH_TARGET:
        return L.MV_TARGET + fewest_cards_opponent(G, p, rng, sid == FIRST)
    if ph == L.PH_GIVE:
        return L.MV_GIVE + highest_value_card(G, p, rng, sid == FIRST)
    legal_moves(G)
    return G[L.OFF_MOVES]


@kernel_inline
def free_bluff(G):
    """A Wild Draw Four may be played at any time: the table allows bluffs and nobody
    may challenge one (as in chausner/UnoAI's engine, where it is always legal)."""
    return G[L.R_WD4_BLUFF] != 0 and G[L.R_WD4_CHALLENGE] == 0


@kernel
def random_colour_move(G, rng, ph, p):
    """random-colour on its turn, with a drawn card, and for a first flipped Wild: a
    uniformly random playable card (each physical card once; a Wild Draw Four
    whenever ``free_bluff``, else as its ``bluff`` says), a drawn card played when it
    can be, and a uniformly random colour for a wild. A first flipped Wild names no
    colour in UnoAI, so that the first player may play any card: it names the
    colour of a uniformly random card of its hand (a wild's: a random colour)."""
    if ph == L.PH_COLOUR:
        t = nth_held(G, p, rand_below(rng, 1, G[hu(p, L.HC_SIZE)]))
        if t < 0 or t >= C.WILD:
            return L.MV_COLOUR + rand_below(rng, 1, 4)
        return L.MV_COLOUR + t // C.N_RANKS
    bluff_ok = free_bluff(G) or chance(rng, 1, seat_param(G, p, L.SF_BLUFF))
    if ph == L.PH_DRAWN:
        t = G[L.S_DRAWN]
        if not _allowed(G, p, t, bluff_ok):
            return L.MV_PASS
    else:
        total = count_playable(G, p, bluff_ok)
        if total == 0 or (total == 1 and last_card_barred(G, p)):
            return L.MV_DRAW
        t = nth_playable_inline(G, p, bluff_ok, rand_below(rng, 1, total))
    if t >= C.WILD:
        return with_colour(t, rand_below(rng, 1, 4))
    return t


@kernel
def nth_held(G, p, k):
    """The type of ``p``'s ``k``-th physical card (0-based) in type order; -1 if none."""
    for t in range(C.N_TYPES):
        k -= G[hu(p, t)]
        if k < 0:
            return t
    return -1


@kernel
def fewest_cards_opponent(G, p, rng, first):
    """The opponent still playing with the fewest cards; ties at random (or the
    lowest seat when ``first``)."""
    best = 1 << 30
    ties = 0
    for q in range(G[L.R_PLAYERS]):
        if q == p or G[hu(q, L.HC_PLACE)] != 0:
            continue
        k = G[hu(q, L.HC_SIZE)]
        if k < best:
            best = k
            ties = 1
        elif k == best:
            ties += 1
    pick = 0 if first or ties == 1 else rand_below(rng, 1, ties)
    for q in range(G[L.R_PLAYERS]):
        if q != p and G[hu(q, L.HC_PLACE)] == 0 and G[hu(q, L.HC_SIZE)] == best:
            if pick == 0:
                return q
            pick -= 1
    return -1


@kernel
def highest_value_card(G, p, rng, first):
    """The type of ``p``'s highest-value card; ties uniform over physical cards
    (or the first type in hand order when ``first``)."""
    best = -1
    total = 0
    for t in range(C.N_TYPES):
        k = G[hu(p, t)]
        if k > 0:
            v = _POINTS[t]
            if v > best:
                best = v
                total = k
            elif v == best:
                total += k
    pick = 0 if first else rand_below(rng, 1, total)
    for t in range(C.N_TYPES):
        k = G[hu(p, t)]
        if k > 0 and _POINTS[t] == best:
            if pick < k:
                return t
            pick -= k
    return -1


# ------------------------------------------------------------ parametric strategies
#
# weighted / tuned: the slot holds one weight per feature (W_*, fixed point, times
# SPARAM_SCALE); a play's score is the weighted sum of its features, the best play is
# played (ties uniform over physical cards), drawing (or keeping a drawn card) scores
# W_DRAW. A wild names the colour with the best W_COL_HELD * cards held of it +
# W_COL_LACK * (the next player was seen lacking it).
W_POINTS = 0  # the card's points (numbers face value, action 20, wilds 50)
W_ACTION = 1  # Skip, Reverse, Draw Two, Wild Draw Four (any draw card)
W_WILD = 2  # any wild
W_WD4 = 3  # Wild Draw Four (on top of W_WILD and W_ACTION)
W_KEEP = 4  # the resulting colour is the current colour
W_COLOUR_COUNT = 5  # cards of the resulting colour still held after the play
W_BY_NUMBER = 6  # a coloured card that changes the colour (matched by number/symbol)
W_ATTACK = 7  # action card while the next player holds 2 cards or fewer
W_NEXT_LACKS = 8  # the next player was seen lacking the resulting colour
W_MOBILITY = 9  # cards still held that could follow the played card
W_DRAW = 10  # drawing instead of playing (a voluntary draw, keeping a drawn card)
W_COL_HELD = 11  # wild colour: cards held of it
W_COL_LACK = 12  # wild colour: the next player was seen lacking it
W_DANGER_POINTS = 13  # the card's points while an opponent holds 2 cards or fewer
N_WEIGHTS = 14
# adaptive: offensive until an opponent holds A_CARDS cards or fewer, or its own hand
# is worth A_POINTS or more; then defensive
A_CARDS = 0
A_POINTS = 1
# gang-up: the leader is the opponent with the fewest cards (the lowest seat on a tie,
# so every gang-up seat picks the same one) when it holds GU_CARDS cards or fewer
GU_CARDS = 0
#: the hand size that counts as close to going out for W_ATTACK and W_DANGER_POINTS
DANGER_CARDS = 2


@kernel_inline
def param_base(sid):
    """Where the parameters of a parametric strategy's seat id start in G."""
    return L.OFF_SPARAM + (sid // SLOT_STRIDE) * L.N_SPARAM


@kernel
def choose_param(sid, G, rng):
    """A parametric strategy (id KIND + SLOT_STRIDE * slot) picks a legal move."""
    kind = sid % SLOT_STRIDE
    base = param_base(sid)
    ph = G[L.S_PHASE]
    p = G[L.S_ACTOR]
    if kind == WEIGHTED or kind == TUNED:
        if ph == L.PH_TURN or ph == L.PH_DRAWN:
            return _weighted_move(G, p, base, rng, ph)
        if ph == L.PH_COLOUR:
            return L.MV_COLOUR + _weighted_colour(G, p, base)
        return _choose_rest(_OFFENSIVE, G, rng, ph, p)
    if kind == ADAPTIVE:
        sub = _DEFENSIVE if _adaptive_triggered(G, p, base) else _OFFENSIVE
        return _choose_rest(sub, G, rng, ph, p)
    if kind == GANG_UP:
        lead = gang_leader(G, p, G[base + GU_CARDS] // L.SPARAM_SCALE)
        if lead < 0:
            return _choose_rest(_OFFENSIVE, G, rng, ph, p)
        if ph == L.PH_TURN:
            return _gang_turn(G, p, lead, rng)
        if ph == L.PH_COLOUR:
            return L.MV_COLOUR + _gang_colour(G, p, lead, rng)
        m = _choose_rest(_OFFENSIVE, G, rng, ph, p)
        if is_wild_play(m):
            return with_colour(type_of(m), _gang_colour(G, p, lead, rng))
        return m
    return _choose_rest(_RANDOM, G, rng, ph, p)


@kernel
def min_opponent_cards(G, p):
    """The fewest cards an opponent still playing holds."""
    best = 1 << 30
    for q in range(G[L.R_PLAYERS]):
        if q != p and G[hu(q, L.HC_PLACE)] == 0 and G[hu(q, L.HC_SIZE)] < best:
            best = G[hu(q, L.HC_SIZE)]
    return best


@kernel
def _adaptive_triggered(G, p, base):
    """adaptive's switch: an opponent at A_CARDS cards or fewer, or its own hand
    worth A_POINTS points or more (both public to the seat)."""
    if min_opponent_cards(G, p) * L.SPARAM_SCALE <= G[base + A_CARDS]:
        return True
    return G[hu(p, L.HC_POINTS)] * L.SPARAM_SCALE >= G[base + A_POINTS]


@kernel
def _weighted_colour(G, p, base):
    """The colour a weighted seat names: the best W_COL_HELD * held + W_COL_LACK *
    (next player seen lacking it); ties to the colour held most, then the lowest."""
    lacks = G[hu(next_seat(G, p, _ONE), L.HC_LACKS)]
    best = -(1 << 62)
    bc = 0
    for c in range(4):
        k = G[hu(p, L.HC_COLOUR + c)]
        s = G[base + W_COL_HELD] * k + (G[base + W_COL_LACK] if lacks & (1 << c) else 0)
        if s > best or (s == best and k > G[hu(p, L.HC_COLOUR + bc)]):
            best = s
            bc = c
    return bc


@kernel
def weighted_score(G, p, base, t, wc, nsmall, lacks, danger):
    """The weighted score of playing ``t`` (a wild naming ``wc``): the sum of the
    W_* weights times the features of the play (see the W_* list)."""
    pts = _POINTS[t]
    s = G[base + W_POINTS] * pts
    if danger:
        s += G[base + W_DANGER_POINTS] * pts
    action = t == C.WILD_DRAW_FOUR or penalty_of(G, t) > 0 or (
        t < C.WILD and t % C.N_RANKS >= C.RANK_SKIP)
    if action:
        s += G[base + W_ACTION]
        if nsmall:
            s += G[base + W_ATTACK]
    if t >= C.WILD:
        s += G[base + W_WILD]
        if t == C.WILD_DRAW_FOUR:
            s += G[base + W_WD4]
        rc = wc
        own = G[hu(p, L.HC_COLOUR + rc)]
        mob = own + G[hu(p, L.HC_WILDS)] - 1
    else:
        rc = t // C.N_RANKS
        own = G[hu(p, L.HC_COLOUR + rc)] - 1
        mob = own + G[hu(p, L.HC_WILDS)]
        r = t % C.N_RANKS
        for oc in range(4):
            if oc != rc:
                mob += G[hu(p, oc * C.N_RANKS + r)]
    if rc == G[L.S_COLOUR]:
        s += G[base + W_KEEP]
    elif t < C.WILD:
        s += G[base + W_BY_NUMBER]
    s += G[base + W_COLOUR_COUNT] * own
    if lacks & (1 << rc):
        s += G[base + W_NEXT_LACKS]
    s += G[base + W_MOBILITY] * mob
    return s


@kernel_inline
def _weighted_of(G, p, t, ctx):
    """``weighted_score`` in the form ``best_play`` takes: ``ctx`` = (base, wc,
    nsmall, lacks, danger)."""
    return weighted_score(G, p, ctx[0], t, ctx[1], ctx[2], ctx[3], ctx[4])


@kernel
def _weighted_move(G, p, base, rng, ph):
    """weighted on its turn (PH_TURN) or with a drawn card (PH_DRAWN): the best
    play by ``weighted_score``; drawing or keeping the card scores W_DRAW."""
    n = legal_moves(G)
    bluff_ok = chance(rng, 1, seat_param(G, p, L.SF_BLUFF))
    wc = _weighted_colour(G, p, base)
    v = next_seat(G, p, _ONE)
    nsmall = G[hu(v, L.HC_SIZE)] <= DANGER_CARDS
    lacks = G[hu(v, L.HC_LACKS)]
    danger = min_opponent_cards(G, p) <= DANGER_CARDS
    ctx = (base, wc, nsmall, lacks, danger)
    best, total, other = best_plays(_weighted_of, ctx, G, p, n, bluff_ok)
    if total == 0:
        return other if other >= 0 else (L.MV_DRAW if ph == L.PH_TURN else L.MV_PASS)
    if other >= 0 and G[base + W_DRAW] > best:
        return other
    t = nth_best_play(_weighted_of, ctx, G, p, n, bluff_ok, best, rand_below(rng, 1, total))
    return with_colour(t, wc) if t >= 0 else other


@kernel
def gang_leader(G, p, k):
    """The opponent gang-up aims at: the fewest cards among those still playing
    (the lowest seat on a tie, a choice every gang-up seat makes alike), if it
    holds ``k`` cards or fewer; else -1."""
    best = 1 << 30
    lead = -1
    for q in range(G[L.R_PLAYERS]):
        if q != p and G[hu(q, L.HC_PLACE)] == 0 and G[hu(q, L.HC_SIZE)] < best:
            best = G[hu(q, L.HC_SIZE)]
            lead = q
    return lead if best <= k else -1


@kernel
def _gang_colour(G, p, lead, rng):
    """A colour the leader was seen to lack (the one ``p`` holds most of), else
    the colour ``p`` holds most."""
    lacks = G[hu(lead, L.HC_LACKS)]
    if lacks == 0:
        return most_held_colour(G, p, rng)
    bc = -1
    for c in range(4):
        if lacks & (1 << c) and (bc < 0 or G[hu(p, L.HC_COLOUR + c)] > G[hu(p, L.HC_COLOUR + bc)]):
            bc = c
    return bc


@kernel
def _gang_score(G, p, t, ctx):
    """gang-up's preference for play ``t`` while the leader is close to going out;
    ``ctx`` = (leader, next seat, previous seat)."""
    lead, nxt, prv = ctx
    lacks = G[hu(lead, L.HC_LACKS)]
    r = t % C.N_RANKS if t < C.WILD else -1
    bonus = 10 if t < C.WILD and lacks & (1 << (t // C.N_RANKS)) else 0
    if lead == nxt:
        if penalty_of(G, t) > 0:
            return 400 if t != C.WILD_DRAW_FOUR else 390
        if r == C.RANK_SKIP or (r == C.RANK_REVERSE and G[L.S_ACTIVE] == 2):
            return 300
        if r == C.RANK_REVERSE:
            return 250  # the leader becomes the last to play
        if t >= C.WILD:
            return 105 if lacks else 50
        return 100 + bonus
    if r == C.RANK_REVERSE and lead == prv and G[L.S_ACTIVE] > 2:
        return 0  # would make the leader the next to play
    if t >= C.WILD:
        return 5 if t == C.WILD_DRAW_FOUR else 10
    if r >= C.RANK_SKIP or penalty_of(G, t) > 0:
        return 50 + bonus  # kept for when the leader is next
    return 100 + bonus


@kernel
def _gang_turn(G, p, lead, rng):
    """gang-up's turn while ``lead`` is close to going out: the best play by
    ``_gang_score`` (ties uniform over physical cards), wilds naming a colour the
    leader lacks; draws only without a play."""
    n = legal_moves(G)
    bluff_ok = chance(rng, 1, seat_param(G, p, L.SF_BLUFF))
    nxt = next_seat(G, p, _ONE)
    prv = next_seat(G, p, G[L.S_ACTIVE] - 1) if G[L.S_ACTIVE] > 1 else nxt
    t = best_play(_gang_score, (lead, nxt, prv), G, p, n, bluff_ok, rng, True)
    if t < 0:
        return L.MV_DRAW
    return with_colour(t, _gang_colour(G, p, lead, rng)) if t >= C.WILD else t
