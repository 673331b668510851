"""The card counter: MixBot2 of chausner/UnoAI, the strongest published rule-based
heuristic, written from its description (docs/strategies.md#card-counter). Compiled.

It observes every public event of the round (``counter_observe``) and keeps, in its
seat's memory block (``layout.OFF_MEM``), what it has seen: the copies of each card
type in the deck and those not on the discard pile, the top card as it was when each
event happened, and for every other seat a bound ``K[p][k]`` on how many cards of
type ``k`` that seat may hold. Nothing in it reads another seat's cards or the draw
pile: only the events, its own hand, the discard pile, the deck's composition and
the hand sizes, all of which every player sees.

Its decisions (``counter_move``), on its turn: the plays it allows itself (wilds
held back until few other cards remain), the best by card type (``RANKS``; other
ranks when the next player holds one card), then by colour (the colour it holds most;
for a wild, any colour it holds nearly as much of), then by what the player to act
next can least follow according to the counts; ties at random. Without such a play
it draws, even holding a wild it keeps back. A drawn card is played unless it is a
wild and the hand is still large. The other decisions (challenges, stacking, the
house rules' phases) are ``offensive``'s.

Where nobody may challenge a Wild Draw Four and the table allows bluffing, it treats
a Wild Draw Four as always playable, as its authors' engine does; elsewhere a bluff
is left to the seat's ``bluff`` parameter, as for every strategy.

In a search's rollouts (``counter_world_move``: ``policy=card-counter`` or
``model=card-counter``) no events are recorded, and the world it plays in was dealt
from the search seat's observation, so it keeps no memory there: it plays from what
the world shows its seat, at each decision anew. The copies of each type it has not
seen are those not on the world's discard pile (since the last reshuffle) and not in
its own world hand (``layout.OFF_CW``); another seat's bound ``K`` on a type is that
many, or 0 where the table's public inference (``layout.OFF_PUB``, which the engine
keeps up to date in the rollout as in the real game) says the seat holds none: a
draw turn showed it held nothing that fit, a Wild Draw Four none of the colour.
"""

from __future__ import annotations

import numpy as np

from unosim.simulate import cards as C
from unosim.simulate import layout as L
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.layout import DrawReason, Event, TargetKind
from unosim.simulate.moves import named_colour, type_of, with_colour
from unosim.simulate.rng_nb import chance, rand_below
from unosim.simulate.step_nb import (
    colour_of,
    count_playable,
    hu,
    is_match,
    last_card_barred,
    next_seat,
    penalty_of,
    rank_of,
    seat_param,
    two_left,
    wd4_is_legal,
)
from unosim.strategies.builtin_nb import (
    COUNTER,
    OFFENSIVE,
    PLUGIN_BASE,
    _choose_rest,
    free_bluff,
    most_held_colour,
)

# ---- its parameters (the published ones tuned for win rate), per type index
# ``type_index``: 0 number, 1 Reverse, 2 Skip (and a Reverse that skips, two players
# left), 3 Draw Two, 4 Wild (and the other wilds), 5 Wild Draw Four
#: preference of a play by type (higher first): Draw Two, Skip, number, Reverse,
#: Wild Draw Four, Wild
RANKS = np.array([4, 3, 5, 6, 1, 2], np.int64)
#: the same when the next player holds one card: Draw Two, Wild Draw Four, Skip,
#: Reverse, number, Wild
END_RANKS = np.array([2, 3, 4, 6, 1, 5], np.int64)
#: a type is played only while the cards held of unlimited types (-1) number at most
#: this: a Wild with 2 or fewer other cards, a Wild Draw Four with 4 or fewer
LIMITS = np.array([-1, -1, -1, -1, 2, 4], np.int64)
#: no limit when the next player holds one card
END_LIMITS = np.array([-1, -1, -1, -1, -1, -1], np.int64)
#: a drawn card of this type is played only if the hand then holds at most this many
DRAWN_LIMITS = np.array([-1, -1, -1, -1, 2, 2], np.int64)
#: a wild may name any colour held within this many cards of the colour held most
SLACK = 1

# ---- the seat's memory: G[OFF_MEM + seat * MEM_WORDS + ...]
M_READY = 0  # 1 once the counts were set up after the deal
M_TOP = 1  # the top card, as the events told it
M_COLOUR = 2  # the colour to follow, as the events told it
M_DRAWN = 3  # cards the seat drawing on its turn drew (until it plays or keeps)
M_DECK = 8  # + type: copies in the deck
M_LEFT = M_DECK + C.TYPE_SLOTS  # + type: copies not on the discard pile
M_K = M_LEFT + C.TYPE_SLOTS  # the bounds, seat p's row at M_K + p * K_WORDS
K_PER_WORD = 7  # 8 bits a type, 7 types a word (a bound never exceeds 16 copies)
K_WORDS = (C.N_TYPES + K_PER_WORD - 1) // K_PER_WORD
if M_K + L.MAX_PLAYERS * K_WORDS > L.MEM_WORDS:
    raise ValueError("the card counter's memory does not fit a seat's block")

_OFFENSIVE = np.int64(OFFENSIVE)
_ONE = np.int64(1)
_TWO = np.int64(2)


# ------------------------------------------------------------------ memory


@kernel_inline
def _base(q):
    return L.OFF_MEM + q * L.MEM_WORDS


@kernel_inline
def get_bound(G, q, p, k):
    """K[p][k] as seat ``q`` keeps it."""
    w = _base(q) + M_K + p * K_WORDS + k // K_PER_WORD
    return (G[w] >> ((k % K_PER_WORD) * 8)) & 255


@kernel_inline
def _set_bound(G, q, p, k, v):
    w = _base(q) + M_K + p * K_WORDS + k // K_PER_WORD
    s = (k % K_PER_WORD) * 8
    G[w] = (G[w] & ~(255 << s)) | (v << s)


@kernel_inline
def pub_forbids(pub, t):
    """Whether the public inference bits ``pub`` (``layout.OFF_PUB``) say the seat
    holds no card of type ``t``."""
    if pub == 0:
        return False
    if t < C.WILD:
        return ((pub >> (t // C.N_RANKS)) & 1 != 0
                or (pub >> (L.PUB_RANK + t % C.N_RANKS)) & 1 != 0)
    return (t == C.WILD or t == C.WILD_DRAW_FOUR) and (pub >> L.PUB_WILD) & 1 != 0


@kernel
def world_counts(W, CW):
    """The copies of each type not on world ``W``'s discard pile, at CW[CW_NOW ..]:
    those not on it when the decision began, less the cards played on it since (the
    whole pile against the deck after a reshuffle, or a pile shorter than it was)."""
    start = CW[L.CW_DISC]
    src = L.CW_LEFT
    if W[L.S_RESHUFFLES] != CW[L.CW_RESHUFFLES] or W[L.S_DISC_LEN] < start:
        start = 0
        src = L.CW_DECK
    for t in range(C.N_TYPES):
        CW[L.CW_NOW + t] = CW[src + t]
    for i in range(start, W[L.S_DISC_LEN]):
        CW[L.CW_NOW + W[L.OFF_DISC + i]] -= 1


@kernel_inline
def _bound(G, q, v, k, CW, world):
    """K[v][k] as seat ``q`` keeps it: from its memory, or in a rollout world
    (``world``) from what the world shows it: the copies of ``k`` it has not seen,
    none where the public inference rules ``k`` out for ``v``."""
    if not world:
        return get_bound(G, q, v, k)
    if pub_forbids(G[L.OFF_PUB + v], k):
        return 0
    u = CW[L.CW_NOW + k] - G[hu(q, k)]
    return u if u > 0 else 0


@kernel_inline
def _unseen(G, q, k):
    """The most copies of ``k`` another seat can hold as ``q`` sees it: the deck's,
    less those on the discard pile and in ``q``'s hand."""
    v = G[_base(q) + M_LEFT + k] - G[hu(q, k)]
    return v if v > 0 else 0


@kernel_inline
def _fits(k, top, colour):
    """A card of type ``k`` can be played on ``top`` naming ``colour`` (any wild can;
    ``colour`` -1: a top that names none, on which anything can)."""
    if k >= C.WILD or colour < 0:
        return True
    if colour_of(k) == colour:
        return True
    return top < C.WILD and rank_of(k) == rank_of(top)


@kernel
def _set_up(G, q):
    """The counts after the deal: every card ``q`` has not seen may be anywhere."""
    base = _base(q)
    for t in range(C.TYPE_SLOTS):
        G[base + M_DECK + t] = 0
    for i in range(G[L.R_DECK_SIZE]):
        G[base + M_DECK + G[L.OFF_DECK + i]] += 1
    for t in range(C.TYPE_SLOTS):
        G[base + M_LEFT + t] = G[base + M_DECK + t]
    for i in range(G[L.S_DISC_LEN]):
        G[base + M_LEFT + G[L.OFF_DISC + i]] -= 1
    G[base + M_TOP] = G[L.S_TOP]
    G[base + M_COLOUR] = G[L.S_COLOUR] if G[L.S_PHASE] != L.PH_COLOUR else -1
    G[base + M_DRAWN] = 0
    for p in range(G[L.R_PLAYERS]):
        for w in range(K_WORDS):
            G[base + M_K + p * K_WORDS + w] = 0
        if p != q:
            for k in range(C.N_TYPES):
                _set_bound(G, q, p, k, _unseen(G, q, k))
    G[base + M_READY] = 1


@kernel
def _clamp_all(G, q):
    """Every bound down to what ``q`` has not seen (its hand grew, or changed)."""
    for p in range(G[L.R_PLAYERS]):
        if p != q:
            for k in range(C.N_TYPES):
                u = _unseen(G, q, k)
                if get_bound(G, q, p, k) > u:
                    _set_bound(G, q, p, k, u)


@kernel
def _add_all(G, q, p, n):
    """Seat ``p`` got ``n`` cards nobody saw: each bound up by ``n``, within reach."""
    for k in range(C.N_TYPES):
        v = get_bound(G, q, p, k) + n
        u = _unseen(G, q, k)
        _set_bound(G, q, p, k, v if v < u else u)


@kernel
def _forget(G, q, p):
    """Seat ``p`` holds cards ``q`` cannot place: any card unseen."""
    for k in range(C.N_TYPES):
        _set_bound(G, q, p, k, _unseen(G, q, k))


@kernel
def _kept(G, q, p, n):
    """``p`` ended a draw turn of ``n`` cards without playing: it held nothing that
    fits the top card, and now holds ``n`` cards more that nobody saw."""
    base = _base(q)
    top = G[base + M_TOP]
    colour = G[base + M_COLOUR]
    for k in range(C.N_TYPES):
        if _fits(k, top, colour):
            _set_bound(G, q, p, k, 0)
        else:
            v = get_bound(G, q, p, k) + n
            u = _unseen(G, q, k)
            _set_bound(G, q, p, k, v if v < u else u)


# ------------------------------------------------------------------ events


@kernel
def counter_observe(G, q, kind, who, a, b):
    """Seat ``q`` hears one public event (kind, who, a, b)."""
    base = _base(q)
    if kind == Event.flip:
        _set_up(G, q)  # the deal is over when the events are heard; a second flip redoes it
        return
    if G[base + M_READY] == 0:
        return
    if kind == Event.play:
        _heard_play(G, q, who, a, b)
    elif kind == Event.draw:
        if who == q:
            _clamp_all(G, q)
        elif b == DrawReason.turn:
            G[base + M_DRAWN] = a
        else:
            _add_all(G, q, who, a)
    elif kind == Event.keep:
        if who != q:
            _kept(G, q, who, max(G[base + M_DRAWN], 1))
    elif kind == Event.colour:
        G[base + M_COLOUR] = a
    elif kind == Event.reshuffle:
        for t in range(C.TYPE_SLOTS):
            G[base + M_LEFT + t] = G[base + M_DECK + t]
        G[base + M_LEFT + G[base + M_TOP]] -= 1
    else:
        _heard_house(G, q, kind, who, a, b)


@kernel
def _heard_play(G, q, p, move, ph):
    """``p`` played ``move`` in phase ``ph``."""
    base = _base(q)
    t = type_of(move)
    top = G[base + M_TOP]
    colour = G[base + M_COLOUR]
    if G[base + M_LEFT + t] > 0:
        G[base + M_LEFT + t] -= 1
    G[base + M_TOP] = t
    G[base + M_COLOUR] = named_colour(move) if t >= C.WILD else colour_of(t)
    if p == q:
        return
    for r in range(G[L.R_PLAYERS]):
        if r == q:
            continue
        if r == p:
            if ph == L.PH_DRAWN:
                # it drew for want of a play, so held nothing that fit the old top
                for k in range(C.N_TYPES):
                    if _fits(k, top, colour):
                        _set_bound(G, q, p, k, 0)
            else:
                v = get_bound(G, q, p, t)
                if v > 0:
                    _set_bound(G, q, p, t, v - 1)
        else:
            u = _unseen(G, q, t)
            if get_bound(G, q, r, t) > u:
                _set_bound(G, q, r, t, u)


@kernel
def _heard_house(G, q, kind, who, a, b):
    """The house rules' events: hands that change owners are forgotten (a swap
    between two other seats swaps their bounds), a card taken back is counted."""
    base = _base(q)
    if kind == Event.takeback:
        G[base + M_LEFT + C.WILD_DRAW_FOUR] += 1
        G[base + M_TOP] = G[L.S_TOP]
        G[base + M_COLOUR] = G[L.S_COLOUR]
        if who != q:
            v = get_bound(G, q, who, C.WILD_DRAW_FOUR) + 1
            u = _unseen(G, q, C.WILD_DRAW_FOUR)
            _set_bound(G, q, who, C.WILD_DRAW_FOUR, v if v < u else u)
    elif kind == Event.swap and a >= 0:
        if b == TargetKind.five:
            for s in (who, a):
                if s != q:
                    _add_all(G, q, s, _ONE)
        elif who != q and a != q:
            for w in range(K_WORDS):
                i = base + M_K + who * K_WORDS + w
                j = base + M_K + a * K_WORDS + w
                x = G[i]
                G[i] = G[j]
                G[j] = x
        else:
            _forget(G, q, a if who == q else who)
        _clamp_all(G, q)
    elif kind == Event.rotate:
        for p in range(G[L.R_PLAYERS]):
            if p != q:
                _forget(G, q, p)


# ------------------------------------------------------------------ decisions


@kernel_inline
def type_index(G, t):
    """0 number, 1 Reverse, 2 Skip (a Reverse too where it skips), 3 Draw Two, 4 Wild
    (and the other wilds), 5 Wild Draw Four."""
    if t == C.WILD_DRAW_FOUR:
        return 5
    if t >= C.WILD:
        return 4
    r = rank_of(t)
    if r == C.RANK_SKIP:
        return 2
    if r == C.RANK_REVERSE:
        return 2 if two_left(G) else 1
    if r == C.RANK_DRAW_TWO:
        return 3
    return 0


@kernel
def _seat_after_play(G, p, t):
    """The seat that acts after ``p`` plays ``t``: the next, the one after for a Skip
    or a draw card (its victim never plays), the previous for a Reverse."""
    ti = type_index(G, t)
    if ti == 2 or ti == 3 or ti == 5 or penalty_of(G, t) > 0:
        return next_seat(G, p, _TWO)
    if ti == 1:
        return next_seat(G, p, G[L.S_ACTIVE] - 1)
    return next_seat(G, p, _ONE)


@kernel
def no_follow_chance(G, q, v, t, colour, CW, world):
    """The chance that seat ``v`` holds nothing it can play on ``t`` naming
    ``colour``, by ``q``'s counts: a hand of ``v``'s size drawn from the cards ``v``
    may hold (the sum of its bounds, N), none of them among the M that fit. In a
    rollout world (``world``) the bounds are what the world shows (``_bound``)."""
    n = 0
    m = 0
    for k in range(C.N_TYPES):
        x = _bound(G, q, v, k, CW, world)
        if x > 0:
            n += x
            if _fits(k, t, colour):
                m += x
    if n == 0:
        return 0.0
    if m == 0:
        return 1.0
    d = min(G[hu(v, L.HC_SIZE)], n)
    if n - m < d:
        return 0.0
    chance_none = 1.0
    for i in range(d):
        chance_none *= (n - m - i) / (n - i)
    return chance_none


@kernel
def follow_score(G, p, t, colour, CW, world):
    """The last tie-break: how unlikely the seat to act next is to follow ``t``
    (naming ``colour``). When that seat is ``p`` itself (a Skip heads-up), 1 if ``p``
    holds nothing else that fits it, else 0, as in the original."""
    v = _seat_after_play(G, p, t)
    if v == p:
        for k in range(C.N_TYPES):
            held = G[hu(p, k)] - (1 if k == t else 0)
            if held > 0 and _fits(k, t, colour):
                return 0.0
        return 1.0
    return no_follow_chance(G, p, v, t, colour, CW, world)


@kernel_inline
def _can_play(G, p, t, anything, bluff_ok):
    if anything:
        return True
    if t == C.WILD_DRAW_FOUR:
        return wd4_is_legal(G, p) or (bluff_ok and G[L.R_WD4_BLUFF] != 0)
    return is_match(G, t)


@kernel
def _colour_rank(G, p, t, c, most):
    """1 for a play in a preferred colour: a coloured card of a colour held most
    (``most`` cards), a wild naming a colour held within SLACK of the most (any
    colour if none is held)."""
    k = G[hu(p, L.HC_COLOUR + c)]
    if t < C.WILD:
        return 1 if k == most and most > 0 else 0
    if most == 0:
        return 1
    return 1 if k > 0 and k >= most - SLACK else 0


@kernel
def counter_play(G, p, rng, anything, bluff_ok, CW, world):
    """The counter's play on its turn (a wild's with its colour), or -1 to draw.
    ``anything``: the top card names no colour, so every card may be played (but a
    last card that finish_on_action bars, never). ``world``: a rollout's, its
    counts in ``CW`` (``_bound``)."""
    if last_card_barred(G, p):
        return -1
    endgame = G[hu(next_seat(G, p, _ONE), L.HC_SIZE)] == 1
    free = 0
    for t in range(C.N_TYPES):
        k = G[hu(p, t)]
        if k > 0:
            lim = END_LIMITS[type_index(G, t)] if endgame else LIMITS[type_index(G, t)]
            if lim < 0:
                free += k
    most = 0
    for c in range(4):
        most = max(most, G[hu(p, L.HC_COLOUR + c)])
    # the best rank among the plays it allows itself (all, when drawing is not allowed)
    best = -1
    for relax in range(2):
        for t in range(C.N_TYPES):
            if G[hu(p, t)] == 0 or not _can_play(G, p, t, anything, bluff_ok):
                continue
            ti = type_index(G, t)
            lim = END_LIMITS[ti] if endgame else LIMITS[ti]
            if relax == 0 and lim >= 0 and free > lim:
                continue
            r = END_RANKS[ti] if endgame else RANKS[ti]
            if r > best:
                best = r
        if best >= 0 or anything or relax == 1:
            break
        if G[L.R_VOLUNTARY_DRAW] != 0 or count_playable(G, p, False) == 0:
            return -1
    if best < 0:
        return -1
    # then the colour, then the counts; ties at random among the options
    best_colour = 0
    options = 0
    for t in range(C.N_TYPES):
        if G[hu(p, t)] == 0 or not _can_play(G, p, t, anything, bluff_ok):
            continue
        ti = type_index(G, t)
        if (END_RANKS[ti] if endgame else RANKS[ti]) != best:
            continue
        for c in range(4 if t >= C.WILD else 1):
            cc = c if t >= C.WILD else colour_of(t)
            r = _colour_rank(G, p, t, cc, most)
            if r > best_colour:
                best_colour = r
                options = 1
            elif r == best_colour:
                options += 1
    # one option left: it is played, with no tie-break to compute (nor a draw)
    counts = options > 1
    if counts and world:
        world_counts(G, CW)
    best_follow = -1.0
    ties = 0
    for t in range(C.N_TYPES):
        if G[hu(p, t)] == 0 or not _can_play(G, p, t, anything, bluff_ok):
            continue
        ti = type_index(G, t)
        if (END_RANKS[ti] if endgame else RANKS[ti]) != best:
            continue
        for c in range(4 if t >= C.WILD else 1):
            cc = c if t >= C.WILD else colour_of(t)
            if _colour_rank(G, p, t, cc, most) != best_colour:
                continue
            f = follow_score(G, p, t, cc, CW, world) if counts else 0.0
            if f > best_follow:
                best_follow = f
                ties = 1
            elif f == best_follow:
                ties += 1
    pick = rand_below(rng, 1, ties) if ties > 1 else 0
    for t in range(C.N_TYPES):
        if G[hu(p, t)] == 0 or not _can_play(G, p, t, anything, bluff_ok):
            continue
        ti = type_index(G, t)
        if (END_RANKS[ti] if endgame else RANKS[ti]) != best:
            continue
        for c in range(4 if t >= C.WILD else 1):
            cc = c if t >= C.WILD else colour_of(t)
            if _colour_rank(G, p, t, cc, most) != best_colour:
                continue
            if not counts or follow_score(G, p, t, cc, CW, world) == best_follow:
                if pick == 0:
                    return with_colour(t, cc)
                pick -= 1
    return -1


@kernel
def counter_drawn(G, p, rng, bluff_ok):
    """The card just drawn: played unless its type is held back at this hand size
    (a wild while the hand holds more than 2 cards, the drawn one included); a wild
    names the colour held most (ties at random)."""
    t = G[L.S_DRAWN]
    lim = DRAWN_LIMITS[type_index(G, t)]
    if lim >= 0 and G[hu(p, L.HC_SIZE)] > lim:
        return L.MV_PASS
    if t == C.WILD_DRAW_FOUR and not wd4_is_legal(G, p) and not bluff_ok:
        return L.MV_PASS
    if t >= C.WILD:
        return with_colour(t, most_held_colour(G, p, rng))
    return t


@kernel
def counter_move(G, rng):
    """The counter's move for the seat to act."""
    p = G[L.S_ACTOR]
    if G[_base(p) + M_READY] == 0:
        _set_up(G, p)  # a table that recorded no deal (a crafted state)
    return _decide(G, rng, G, False)


@kernel
def counter_world_move(W, rng, CW):
    """The counter's move for the seat to act in a search's rollout world ``W``,
    from what that world shows the seat (its counts in ``CW``, no memory: see the
    module's docstring)."""
    return _decide(W, rng, CW, True)


@kernel_inline
def _decide(G, rng, CW, world):
    """The counter's decision, its bounds from its memory or (``world``) from the
    rollout world and ``CW``."""
    ph = G[L.S_PHASE]
    p = G[L.S_ACTOR]
    if ph == L.PH_TURN or ph == L.PH_DRAWN:
        bluff_ok = free_bluff(G) or chance(rng, 1, seat_param(G, p, L.SF_BLUFF))
        if ph == L.PH_DRAWN:
            return counter_drawn(G, p, rng, bluff_ok)
        m = counter_play(G, p, rng, False, bluff_ok, CW, world)
        return L.MV_DRAW if m < 0 else m
    if ph == L.PH_COLOUR:
        # a first flipped Wild: its authors' engine leaves it naming no colour, so the
        # first player may play anything; name the colour of the card it would play
        m = counter_play(G, p, rng, True, True, CW, world)
        if m < 0:
            return L.MV_COLOUR + most_held_colour(G, p, rng)
        t = type_of(m)
        return L.MV_COLOUR + (named_colour(m) if t >= C.WILD else colour_of(t))
    return _choose_rest(_OFFENSIVE, G, rng, ph, p)


@kernel
def observe_builtin(sid, G, q, kind, who, a, b):
    """Built-in ``sid`` at seat ``q`` hears one event (only the ones that observe do)."""
    if sid == COUNTER:
        counter_observe(G, q, kind, who, a, b)


@kernel
def hear_events(G):
    """The built-ins' ears: hand every event the table recorded since they last heard
    (``OFF_EV_READ``) to each seat whose built-in observes (``observe_builtin``), in
    order, a seat's private events to that seat alone; a deal first clears every
    seat's memory. What the dispatch of the built-ins (search_nb.choose_move) calls
    before a decision while the table records events, so that every seat has heard
    everything before any seat decides; a plug-in table's chooser calls it too when
    only built-ins observe (strategies/plugins.py)."""
    n = G[L.OFF_EV_N]
    players = G[L.R_PLAYERS]
    for i in range(G[L.OFF_EV_READ], n):
        e = L.OFF_EV + (i % L.EV_CAP) * L.EV_WIDTH
        kind = G[e]
        who = G[e + 1]
        a = G[e + 2]
        b = G[e + 3]
        for q in range(players):
            if kind == Event.got and q != who:
                continue  # a private event: its own seat's alone
            sid = G[L.OFF_STRAT + q]
            if kind == Event.deal:
                for j in range(L.MEM_WORDS):
                    G[L.OFF_MEM + q * L.MEM_WORDS + j] = 0
            if sid < PLUGIN_BASE and kind != Event.got:
                observe_builtin(sid, G, np.int64(q), kind, who, a, b)
    G[L.OFF_EV_READ] = n
