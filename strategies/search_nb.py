"""The ``search`` strategy: flat Monte Carlo over sampled worlds, compiled.

At a decision with more than one candidate move, the seat samples worlds that
agree with what it has seen (``_sample_world``), plays each candidate in each
world and rolls the round out with a rollout policy (a non-search built-in, for
every seat), through the same step contract as the real game; it plays the
candidate that won the most rollouts. With ``tree=1`` the same rollouts go to a
tree over the seat's own decisions instead (information-set Monte Carlo tree
search, ``_tree_search``). A card counter in the rollouts
(``policy=card-counter``, ``model=card-counter``) plays from what its world shows
it, with no memory of events (``counter_nb.counter_world_move``).

Where it sits. The search must call the play loop, and the play loop must call
the search: a call-graph cycle, which Numba compiles badly. So the arrows are
one way: ``builtin_nb._choose`` knows only the non-search built-ins and is what
rollouts call; this module imports it and ``step_nb``, and its ``choose_move``
(the dispatch a search table's round calls, runs/entries_nb.py) sends the search id here,
the card counter's to counter_nb and every other id to ``_choose``. Strategies may
import the engine's kernels (builtin_nb does) and the engine imports no strategy, so
this makes no import circle.

What it reads (the observation; nothing else, which tests/strategies/test_search.py checks
by changing the hidden cards): its own hand; the discard pile since the last
reshuffle; every hand size, place and stage; the draw pile's size; the public
inference ``OFF_PUB`` (never ``HC_LACKS``, which is set from the hand itself);
the top card, colour, direction, pending penalty and the rules. The unseen cards
(the deck less its hand and the discard pile) are dealt at random into the
opponents' hands, keeping their sizes, and the draw pile. Inference from draws:
a seat whose last draw turn showed it held no card of a colour, of a rank or no
wild (OFF_PUB, which assumes a player draws only without a playable card) is
dealt its hand from the cards it may hold first, then the others and the pile
get the rest (exact for one opponent, close for several; a seat that cannot
be dealt under its constraints gets any cards).

Pruning, before searching (docs/findings-search.md#how-it-decides: with few rollouts
per move, noise otherwise picks dominated moves):
no voluntary draw while a card can be played; a playable drawn card is played;
no plain Wild while a non-wild card fits; a wild names only colours the seat
holds (any colour when it holds none); no bluffed Wild Draw Four unless the
seat's ``bluff`` chance fires; no challenge of a Wild Draw Four whose player
the table infers held none of the replaced colour (OFF_PUB: the engine infers
it from the play itself, assuming players do not bluff, so the search does not
challenge unless ``challenge=P`` makes it challenge by chance); a jump-in is
always taken (deciding it would need the other candidates' hidden cards). A
decision with one candidate left is not searched.

No allocation: the worlds, generators, candidates and unseen cards live in the
scratch tail of the game array (layout.OFF_W0 ..), which every batch makes once
per thread. Randomness: one draw from the game's strategy stream (stream 1) seeds
the worlds' generators, so a decision depends on the game's seed alone.
"""

from __future__ import annotations

import numpy as np

from unosim.simulate.cards import (
    N_RANKS,
    N_TYPES,
    POINTS,
    RANK_DRAW_TWO,
    RANK_NIB,
    RANK_REVERSE,
    RANK_SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.layout import (
    CW_DECK,
    CW_DISC,
    CW_LEFT,
    CW_RESHUFFLES,
    HC_COLOUR,
    HC_LACKS,
    HC_NIBS,
    HC_PLACE,
    HC_POINTS,
    HC_SIZE,
    HC_STAGE,
    HW,
    MAX_MOVES,
    MAX_PLAYERS,
    MV_ACCEPT,
    MV_CHALLENGE,
    MV_COLOUR,
    MV_DRAW,
    MV_PASS,
    MV_PLAY_END,
    N_SP,
    N_SPARAM,
    OFF_ALIVE,
    OFF_CAND,
    OFF_CW,
    OFF_DECK,
    OFF_DISC,
    OFF_DRAW,
    OFF_EV_N,
    OFF_EV_READ,
    OFF_FEEL_MODE,
    OFF_H,
    OFF_HOUSE,
    OFF_MOVES,
    OFF_MPARAM,
    OFF_POOL,
    OFF_PUB,
    OFF_SCORE,
    OFF_SCOUNT,
    OFF_SP,
    OFF_SPARAM,
    OFF_STRAT,
    OFF_TCAND,
    OFF_TPATH,
    OFF_TREE,
    OFF_TRIED,
    OFF_W,
    OFF_W0,
    OFF_WRNG,
    PH_CHALLENGE,
    PH_COLOUR,
    PH_DRAWN,
    PH_GIVE,
    PH_JUMP,
    PH_OVER,
    PH_PENALTY,
    PH_TURN,
    R_COLOR_ROTATION,
    R_DECK_SIZE,
    R_PLAYERS,
    R_SEVEN_ROUNDS,
    R_TURN_CAP,
    RF_EVENTS,
    S_ACTOR,
    S_BLUFF,
    S_COLOUR,
    S_DIR,
    S_DISC_LEN,
    S_DRAW_LEN,
    S_DRAWN,
    S_EFF_SEAT,
    S_GIVE,
    S_LAST,
    S_PEND_KIND,
    S_PHASE,
    S_PREV_COLOUR,
    S_RESHUFFLES,
    S_TURNS,
    S_WINNER,
    SF_BLUFF,
    SF_CHALLENGE,
    SP_DEPTH,
    SP_HALVING,
    SP_INFER,
    SP_MODEL,
    SP_POLICY,
    SP_ROLLOUTS,
    SP_TREE,
    SP_VALUE,
    TN_A,
    TN_CHILD,
    TN_MOVE,
    TN_N,
    TN_NEXT,
    TN_V,
    TREE_NODES,
    TREE_PATH,
    TREE_W,
    Penalty,
)
from unosim.simulate.moves import with_colour
from unosim.simulate.rng_nb import chance, next_u64, rand_below, seed_game, splitmix64
from unosim.simulate.step_nb import (
    apply_called,
    hx,
    legal_moves,
    play_loop,
    seat_param,
    wd4_is_legal,
)
from unosim.strategies.builtin_nb import (
    COUNTER,
    PARAM_SID,
    SEARCH,
    SLOT_STRIDE,
    _choose,
    most_held_colour,
    param_base,
)
from unosim.strategies.counter_nb import (
    counter_move,
    counter_world_move,
    hear_events,
    pub_forbids,
)

_POINTS = POINTS
#: rollout turns after the decision before a rollout is scored by the lead in cards
#: (an official round takes some 40 turns; a seven_rounds one many hundreds)
HORIZON = 300
#: a rollout's value: a win is VALUE_UNIT, a cut rollout the share ``_value`` gives it
VALUE_UNIT = 1 << 20
#: how steeply ``_value`` favours the seat with fewer cards to play
LEAF_POWER = 2.0
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
# constant arguments of called kernels as plain int64, not literals, so that each
# compiles once (a literal argument compiles a copy per value; see step_nb._ZERO)
_ZERO = np.int64(0)
_ONE = np.int64(1)
_FALSE = np.bool_(False)
_TRUE = np.bool_(True)
_AT_W0 = np.int64(OFF_W0)
_AT_W = np.int64(OFF_W)


@kernel_inline
def _dispatch(sid, G, rng):
    """Built-in strategy ``sid``, any of them, picks a legal move for the seat to act:
    the search, the card counter, or another built-in (builtin_nb)."""
    if sid == SEARCH:
        return search_move(G, rng)
    if sid == COUNTER:
        return counter_move(G, rng)
    return _choose(sid, G, rng)


@kernel_inline
def choose_move(G, rng):
    """The strategy of the seat to act picks a legal move: the dispatch of every
    built-in (runs/entries_nb.py's search tier, a Python seat's table, a game
    driven from Python). While the table records events, the built-ins that
    observe first hear those not heard yet (``counter_nb.hear_events``)."""
    if G[RF_EVENTS] != 0 and G[OFF_EV_READ] < G[OFF_EV_N]:
        hear_events(G)
    return _dispatch(G[OFF_STRAT + G[S_ACTOR]], G, rng)


@kernel
def strategy_move(sid, G, rng):
    """The move of built-in strategy ``sid``, the search included, for the seat to
    act: what a plug-in table's chooser plays for its built-in seats, after its own
    watcher handed them the events (``builtin_nb.builtin_move``, which plug-ins
    call, knows every built-in but the search and the card counter, which plays only
    where events are recorded)."""
    return _dispatch(sid, G, rng)


# ------------------------------------------------------------------ candidates


@kernel_inline
def _add(C, k, m):
    C[k] = m
    return k + 1


@kernel
def _add_play(G, C, k, p, t):
    """Candidates for playing type ``t``: a coloured card once; a wild once per
    colour ``p`` holds (every colour if it holds none; once when the colour is
    set by ``color_rotation``)."""
    if t < WILD:
        return _add(C, k, t)
    if G[R_COLOR_ROTATION] != 0 and (t == WILD or t == WILD_DRAW_FOUR):
        return _add(C, k, t)
    held = False
    for c in range(4):
        if G[hx(p, HC_COLOUR + c)] > 0:
            k = _add(C, k, with_colour(t, c))
            held = True
    if not held:
        for c in range(4):
            k = _add(C, k, with_colour(t, c))
    return k


@kernel(share="search-beside", kinds="GR")
def candidates(G, rng):
    """Write the moves worth searching to G[OFF_CAND ..]; return how many."""
    return candidates_in(G, rng, G[OFF_CAND:OFF_CAND + MAX_MOVES])


@kernel(share="search-beside", kinds="GRG")
def candidates_in(G, rng, C):
    """Write the moves worth searching, for the seat to act in ``G`` (the game or a
    world), to ``C``; return how many."""
    ph = G[S_PHASE]
    p = G[S_ACTOR]
    n = legal_moves(G)
    k = _ZERO
    if ph == PH_TURN or ph == PH_PENALTY:
        bluff_ok = chance(rng, 1, seat_param(G, p, SF_BLUFF))
        coloured = False
        for i in range(n):
            if G[OFF_MOVES + i] < WILD:
                coloured = True
        for i in range(n):
            m = G[OFF_MOVES + i]
            if m >= MV_PLAY_END:
                if ph == PH_PENALTY:
                    k = _add(C, k, m)  # take the penalty
                continue
            if m == WILD and coloured and ph == PH_TURN:
                continue
            if m == WILD_DRAW_FOUR and not bluff_ok and not wd4_is_legal(G, p):
                continue
            k = _add_play(G, C, k, p, m)
        if k == 0:
            k = _add(C, k, MV_DRAW)
        return k
    if ph == PH_DRAWN:
        t = G[S_DRAWN]
        if t == WILD_DRAW_FOUR and not wd4_is_legal(G, p):
            if not chance(rng, 1, seat_param(G, p, SF_BLUFF)):
                return _add(C, k, MV_PASS)
        return _add_play(G, C, k, p, t)
    if ph == PH_COLOUR:
        for c in range(4):
            if G[hx(p, HC_COLOUR + c)] > 0:
                k = _add(C, k, MV_COLOUR + c)
        if k == 0:
            for c in range(4):
                k = _add(C, k, MV_COLOUR + c)
        return k
    if ph == PH_CHALLENGE:
        th = seat_param(G, p, SF_CHALLENGE)
        if th > 0:  # challenge=P or always: by chance, as every strategy
            return _add(C, k, MV_CHALLENGE if chance(rng, 1, th) else MV_ACCEPT)
        if G[OFF_PUB + G[S_LAST]] & (1 << G[S_PREV_COLOUR]):
            # the table infers (assuming no bluff) that it held none of the colour: in
            # every world a challenge fails and costs 2 more cards
            return _add(C, k, MV_ACCEPT)
    if ph == PH_JUMP:
        t = G[OFF_MOVES]
        if t < WILD:
            return _add(C, k, t)
        if t < MV_PLAY_END:
            return _add(C, k, with_colour(t, most_held_colour(G, p, rng)))
        return _add(C, k, t)
    # challenge, skip pass-on, swap or trade target, card to give: every legal move
    for i in range(n):
        k = _add(C, k, G[OFF_MOVES + i])
    return k


# ------------------------------------------------------------------ worlds


@kernel(share="search-beside", kinds="Gi")
def _unseen_pool(G, p):
    """List the cards ``p`` has not seen (the deck less its hand and the discard
    pile) at G[OFF_POOL ..]; return how many. The counts per type behind it go to
    OFF_CW for a card counter in the rollouts (layout.CW_DECK, CW_LEFT): the deck's
    and those not on the discard pile, both public."""
    base = OFF_POOL
    for t in range(N_TYPES):
        G[OFF_CW + CW_DECK + t] = 0
    for i in range(G[R_DECK_SIZE]):
        G[OFF_CW + CW_DECK + G[OFF_DECK + i]] += 1
    for t in range(N_TYPES):
        G[OFF_CW + CW_LEFT + t] = G[OFF_CW + CW_DECK + t]
    for i in range(G[S_DISC_LEN]):
        G[OFF_CW + CW_LEFT + G[OFF_DISC + i]] -= 1
    G[OFF_CW + CW_DISC] = G[S_DISC_LEN]
    G[OFF_CW + CW_RESHUFFLES] = G[S_RESHUFFLES]
    m = 0
    for t in range(N_TYPES):
        c = G[OFF_CW + CW_LEFT + t] - G[hx(p, t)]
        for _ in range(c):
            G[base + m] = t
            m += 1
    return m


@kernel_inline
def _give_card(W, q, t):
    W[hx(q, t)] += 1
    W[hx(q, HC_COLOUR + t // N_RANKS)] += 1
    W[hx(q, HC_NIBS + t // N_RANKS)] += RANK_NIB[t]
    W[hx(q, HC_SIZE)] += 1
    W[hx(q, HC_POINTS)] += _POINTS[t]


@kernel
def _deal_hand(G, W, R, q, pos, m, pub):
    """Deal seat ``q``'s hand in world ``W`` from the pool G[OFF_POOL + pos ..
    OFF_POOL + m], avoiding the types ``pub`` rules out while any is left;
    the dealt cards are moved to the front. Returns the new ``pos``."""
    h = W[hx(q, HC_SIZE)]
    for t in range(N_TYPES):
        W[hx(q, t)] = 0
    for c in range(5):
        W[hx(q, HC_COLOUR + c)] = 0
        W[hx(q, HC_NIBS + c)] = 0
    W[hx(q, HC_SIZE)] = 0
    W[hx(q, HC_POINTS)] = 0
    for _ in range(h):
        if pos >= m:
            break
        allowed = 0
        if pub != 0:
            for i in range(pos, m):
                if not pub_forbids(pub, G[OFF_POOL + i]):
                    allowed += 1
        if allowed == 0:
            j = pos + rand_below(R, 0, m - pos)
        else:
            r = rand_below(R, 0, allowed)
            j = pos
            for i in range(pos, m):
                if not pub_forbids(pub, G[OFF_POOL + i]):
                    if r == 0:
                        j = i
                        break
                    r -= 1
        t = G[OFF_POOL + j]
        G[OFF_POOL + j] = G[OFF_POOL + pos]
        G[OFF_POOL + pos] = t
        pos += 1
        _give_card(W, q, t)
    return pos


@kernel(share="search-beside", kinds="Giii")
def _copy_world(G, src, dst, n_players):
    """Copy a world (state, rules, seats, hands, piles, inference, whether the
    house rules act on played cards) ``src`` -> ``dst`` (offsets into G); the deck
    is copied once per decision."""
    for i in range(OFF_H + n_players * HW):
        G[dst + i] = G[src + i]
    for i in range(G[src + S_DRAW_LEN]):
        G[dst + OFF_DRAW + i] = G[src + OFF_DRAW + i]
    for i in range(G[src + S_DISC_LEN]):
        G[dst + OFF_DISC + i] = G[src + OFF_DISC + i]
    for i in range(MAX_PLAYERS):
        G[dst + OFF_PUB + i] = G[src + OFF_PUB + i]
    # set by the deal beyond the hands: without it a rollout skips Seven-O's and
    # swap on five's swaps, jump-ins and silent twos
    G[dst + OFF_HOUSE] = G[src + OFF_HOUSE]


@kernel(share="search-beside", kinds="GGRii")
def _sample_world(G, W, R, p, m):
    """Write into ``W`` (already holding the game's public part, from
    ``_copy_world``) a world consistent with what ``p`` has seen: the unseen cards
    G[OFF_POOL .. + m] dealt to the opponents (those with an inference first) and
    the draw pile."""
    n = G[R_PLAYERS]
    infer = G[OFF_SP + p * N_SP + SP_INFER] != 0
    pos = _ZERO
    for rnd in range(2):  # constrained seats first
        for j in range(1, n):
            q = (p + j) % n
            pub = G[OFF_PUB + q] if infer else 0
            if (pub != 0) == (rnd == 0):
                pos = _deal_hand(G, W, R, q, pos, m, pub)
    d = W[S_DRAW_LEN]
    for i in range(d):
        W[OFF_DRAW + i] = G[OFF_POOL + pos + i] if pos + i < m else 0
    for q in range(n):
        # the public colours, for attacker rollouts
        W[hx(q, HC_LACKS)] = G[OFF_PUB + q] & 15 if infer else 0
    if W[S_PEND_KIND] == Penalty.wild_draw_four or W[S_PHASE] == PH_CHALLENGE:
        off = W[S_LAST]
        W[S_BLUFF] = 1 if W[hx(off, HC_COLOUR + W[S_PREV_COLOUR])] > 0 else 0
    if W[S_PHASE] == PH_GIVE and W[S_EFF_SEAT] != p:
        # the trading player's card is hidden: one of its cards in this world
        giver = W[S_EFF_SEAT]
        r = rand_below(R, 0, max(1, W[hx(giver, HC_SIZE)]))
        for t in range(N_TYPES):
            r -= W[hx(giver, t)]
            if r < 0:
                W[S_GIVE] = t
                break
    if W[S_PHASE] != PH_DRAWN:
        W[S_DRAWN] = 0


@kernel
def _distance(W, q):
    """Cards ``q`` still has to play to win if it never drew again
    (docs/metrics.md#distance)."""
    d = W[hx(q, HC_SIZE)]
    if W[R_SEVEN_ROUNDS] != 0:
        k = W[hx(q, HC_STAGE)]
        d += k * (k - 1) // 2
    return d


@kernel
def _lead(W, p, placing):
    """A rollout cut at the horizon, scored by the lead in cards: 1 if ``p`` is
    the sole leader (``placing``: the seats still playing that are further away)."""
    dp = _distance(W, p)
    ahead = 0
    for q in range(W[R_PLAYERS]):
        if q != p and W[hx(q, HC_PLACE)] == 0:
            dq = _distance(W, q)
            if placing:
                ahead += 1 if dq > dp else 0
            elif dq <= dp:
                return 0
    return ahead if placing else 1


#: ``value=learned``: the weights of each seat's score (bench/leaf_value.py fits them,
#: by maximum likelihood, to who won rounds of ``random`` players, official rules, from a
#: state at a random turn; a row for 2, 3 and 4 or more players), over: the log of its
#: cards to play (the seat to act half a card closer), whether it is to act, its wild
#: cards, Draw Twos, Skips and Reverses, whether it holds the current colour, how many
#: colours it holds, whether it acts next
LEARNED_WEIGHTS = np.array([[-0.66, -0.015, 0.711, 0.355, 0.155, 0.491, -0.356, 0.015],
                            [-0.964, -0.029, 0.806, 0.187, 0.034, 0.481, -0.262, 0.0],
                            [-1.295, -0.026, 0.776, 0.16, 0.027, 0.413, -0.12, 0.055]])


@kernel_inline
def leaf_features(W, q, a):
    """Seat ``q``'s features for ``value=learned`` (``a`` the seat to act), in the
    order of LEARNED_WEIGHTS' columns (bench/leaf_value.py fits on the same)."""
    act = 1.0 if q == a else 0.0
    wild = 0
    draw_twos = 0
    skips = 0
    colours = 0
    for c in range(4):
        draw_twos += W[hx(q, c * N_RANKS + RANK_DRAW_TWO)]
        skips += W[hx(q, c * N_RANKS + RANK_SKIP)] + W[hx(q, c * N_RANKS + RANK_REVERSE)]
        if W[hx(q, HC_COLOUR + c)] > 0:
            colours += 1
    for t in range(WILD, N_TYPES):
        wild += W[hx(q, t)]
    n = W[R_PLAYERS]
    return (np.log(max(1.0, _distance(W, q) - 0.5 * act)), act, float(wild),
            float(draw_twos), float(skips),
            1.0 if W[hx(q, HC_COLOUR + W[S_COLOUR])] > 0 else 0.0, float(colours),
            1.0 if q == (a + W[S_DIR] + n) % n else 0.0)


@kernel
def _share(W, p, learned):
    """What a rollout cut after its ``depth`` turns is worth to ``p``, in VALUE_UNITs:
    an estimate of its chance to go out first, p's share over the seats still playing
    of a weight each. By the cards each has still to play (the seat to act one half
    closer), 1 / d**LEAF_POWER; ``learned`` (``value=learned``): exp of the weighted
    sum of its ``leaf_features`` (LEARNED_WEIGHTS)."""
    n = W[R_PLAYERS]
    actor = W[S_ACTOR]
    w = LEARNED_WEIGHTS[min(n, 4) - 2]
    mine = 0.0
    total = 0.0
    for q in range(n):
        if W[hx(q, HC_PLACE)] == 0:
            if learned:
                f = leaf_features(W, q, actor)
                v = np.exp(w[0] * f[0] + w[1] * f[1] + w[2] * f[2] + w[3] * f[3]
                           + w[4] * f[4] + w[5] * f[5] + w[6] * f[6] + w[7] * f[7])
            else:
                d = max(1.0, _distance(W, q) - (0.5 if q == actor else 0.0))
                v = d ** -LEAF_POWER
            total += v
            if q == p:
                mine = v
    if total <= 0.0:
        return 0
    return int(VALUE_UNIT * mine / total)


@kernel_inline
def _value(W, p):
    """``_share`` by the cards left (the default, ``value=cards``)."""
    return _share(W, p, _FALSE)


@kernel_inline
def _value_learned(W, p):
    """``_share`` under ``value=learned``."""
    return _share(W, p, _TRUE)


@kernel_inline
def _rollout_move(W, CW, R):
    """The move of the rollout seat to act: its built-in, the card counter from
    what the world shows it (``counter_nb.counter_world_move``, its counts in
    ``CW``)."""
    sid = W[OFF_STRAT + W[S_ACTOR]]
    if sid == COUNTER:
        return counter_world_move(W, R, CW)
    return _choose(sid, W, R)


@kernel(share="search", kinds="GGRiibibib")
def _rollout(W, CW, R, move, p, placing, depth, learned, limit, pause):
    """Play ``move`` in world ``W``, then the rollout policies to the first seat
    out: VALUE_UNIT if ``p`` went out first, else 0. With ``depth`` > 0 a rollout
    still going ``depth`` turns after ``move`` is valued by ``_value`` instead
    (``learned``: the learned weights, ``_share``). With ``placing`` (elimination, once the round
    has its winner) play to the end: the number of seats ``p`` finished ahead of. A
    rollout still going HORIZON turns after the decision (very long rounds:
    seven_rounds, big hands) is scored by the lead in cards; one that reaches the
    turn cap scores 0. The tree (``pause``) stops it at ``p``'s next decision before
    the cut and takes the move there itself: it returns -1 - the turn of the cut,
    which the next call gets as ``limit`` (0: counted from this move)."""
    apply_called(W, R, move)
    if limit == 0:
        limit = _limit(W, placing, depth)
    while _going(W, placing):
        if W[S_TURNS] >= limit:
            return _cut_value(W, p, placing, depth, limit, learned)
        if pause and W[S_ACTOR] == p:
            return -1 - limit
        apply_called(W, R, _rollout_move(W, CW, R))
    return _end_value(W, p, placing)


@kernel_inline
def _limit(W, placing, depth):
    """The turn at which a rollout just past its first move stops."""
    cut = depth > 0 and not placing
    return min(W[R_TURN_CAP], W[S_TURNS] + (depth if cut else HORIZON))


@kernel_inline
def _going(W, placing):
    return W[S_PHASE] != PH_OVER and (placing or W[S_WINNER] < 0)


@kernel_inline
def _cut_value(W, p, placing, depth, limit, learned):
    """A rollout stopped at ``limit``: valued by ``_share`` (the cards left, or the
    learned weights), scored by the lead past the horizon, 0 at the turn cap."""
    if limit < W[R_TURN_CAP]:
        if depth > 0 and not placing:
            return _share(W, p, learned)
        return _lead(W, p, placing) * VALUE_UNIT
    return _end_value(W, p, placing)


@kernel_inline
def _end_value(W, p, placing):
    """A rollout played out: VALUE_UNIT if ``p`` went out first (``placing``: per
    seat it finished ahead of)."""
    if placing:
        place = W[hx(p, HC_PLACE)]
        return (W[R_PLAYERS] - place) * VALUE_UNIT if place > 0 else 0
    return VALUE_UNIT if W[S_WINNER] == p else 0


@kernel
def _play_worlds(G, W0, W, CW, R, SAVE, p, m, k, worlds, placing, depth, learned):
    """Sample ``worlds`` worlds and roll each candidate still in (OFF_ALIVE) out in
    each, adding to its score; return the rollouts played."""
    played = 0
    n = G[R_PLAYERS]
    for _ in range(worlds):
        _sample_world(G, W0, R, p, m)
        for i in range(8):
            SAVE[i] = R[i]
        for i in range(k):
            if G[OFF_ALIVE + i] == 0:
                continue
            _copy_world(G, _AT_W0, _AT_W, n)
            for j in range(8):
                R[j] = SAVE[j]  # common random numbers: every candidate sees the same future
            G[OFF_SCORE + i] += _rollout(W, CW, R, G[OFF_CAND + i], p, placing, depth,
                                          learned, _ZERO, _FALSE)
            played += 1
    return played


@kernel(share="search-beside", kinds="Giii")
def _drop_worst(G, k, left, keep):
    """Take the candidates still in down from ``left`` to ``keep``, dropping the
    lowest score first (of equal scores the later candidate)."""
    for _ in range(left - keep):
        worst = -1
        for i in range(k):
            if G[OFF_ALIVE + i] != 0 and (worst < 0 or G[OFF_SCORE + i] <= G[OFF_SCORE + worst]):
                worst = i
        G[OFF_ALIVE + worst] = 0


@kernel(share="search-beside", kinds="GGGii")
def _seat_rollout_policies(G, W0, W, p, n):
    """The seats of the rollouts: ``p`` plays its policy, every other seat the
    opponent model; a parametric one reads its parameters from the world's slot of
    the seat it plays (so the policy and the model never share a slot, in matches
    too, where players change seats); the card counter keeps no memory in a world
    (``_rollout_move``)."""
    policy = G[OFF_SP + p * N_SP + SP_POLICY]
    model = G[OFF_SP + p * N_SP + SP_MODEL]
    for q in range(MAX_PLAYERS):
        sid = policy if q == p else model
        if sid >= PARAM_SID and sid != COUNTER:
            src = param_base(policy) if q == p else OFF_MPARAM + (model // SLOT_STRIDE) * N_SPARAM
            dst = OFF_SPARAM + q * N_SPARAM
            if q < n:
                for i in range(N_SPARAM):
                    W[dst + i] = G[src + i]
            sid = sid % SLOT_STRIDE + SLOT_STRIDE * q
        W0[OFF_STRAT + q] = sid


@kernel
def _begin(G, rng, p):
    """Set the worlds up for a decision of ``p``: their generators seeded by one draw
    from the game's strategy stream, the public part and the deck copied, the
    rollout seats, no game-feel samples nor events; return how many cards ``p`` has
    not seen (listed at OFF_POOL)."""
    n = G[R_PLAYERS]
    W0 = G[OFF_W0:OFF_W]
    W = G[OFF_W:OFF_WRNG]
    R = G[OFF_WRNG:OFF_WRNG + 8].view(np.uint64)
    x = next_u64(rng, 1)
    for i in range(8):
        x = x + _GOLDEN
        R[i] = splitmix64(x)
    _copy_world(G, _ZERO, _AT_W0, n)
    for i in range(G[R_DECK_SIZE]):
        W0[OFF_DECK + i] = G[OFF_DECK + i]
        W[OFF_DECK + i] = G[OFF_DECK + i]
    _seat_rollout_policies(G, W0, W, p, n)
    W0[OFF_FEEL_MODE] = 0  # rollouts take no game-feel samples (those are the real
    W[OFF_FEEL_MODE] = 0  # round's, docs/metrics.md#game-feel); _copy_world leaves these alone
    # nor record events: a world is G_CORE words, and the event ring lies beyond it
    # (a table that records events copies RF_EVENTS = 1 into every world)
    W0[RF_EVENTS] = 0
    W[RF_EVENTS] = 0
    return _unseen_pool(G, p)


@kernel
def _worlds(G, p, m, k, worlds, placing, depth):
    """Roll every candidate still in out in ``worlds`` more worlds (_play_worlds),
    counting them in its OFF_TRIED; return the rollouts played."""
    W0 = G[OFF_W0:OFF_W]
    W = G[OFF_W:OFF_WRNG]
    R = G[OFF_WRNG:OFF_WRNG + 8].view(np.uint64)
    SAVE = G[OFF_WRNG + 8:OFF_WRNG + 16].view(np.uint64)
    for i in range(k):
        if G[OFF_ALIVE + i] != 0:
            G[OFF_TRIED + i] += worlds
    CW = G[OFF_CW:OFF_CW + CW_RESHUFFLES + 1]
    learned = G[OFF_SP + p * N_SP + SP_VALUE] != 0
    return _play_worlds(G, W0, W, CW, R, SAVE, p, m, k, worlds, placing, depth, learned)


# ------------------------------------------------------------------ the tree

#: the exploration constant of the tree's upper confidence bounds, on values in [0, 1]
TREE_C = 0.7


@kernel_inline
def _tchild(T, node, move):
    """The child of ``node`` reached by ``move``; -1 if none yet."""
    c = T[node * TREE_W + TN_CHILD]
    while c >= 0 and T[c * TREE_W + TN_MOVE] != move:
        c = T[c * TREE_W + TN_NEXT]
    return c


@kernel_inline
def _tnew(T, node, n, move):
    """Make node ``n``, reached from ``node`` by ``move``."""
    b = n * TREE_W
    T[b + TN_MOVE] = move
    T[b + TN_N] = 0
    T[b + TN_V] = 0
    T[b + TN_A] = 1
    T[b + TN_CHILD] = -1
    T[b + TN_NEXT] = T[node * TREE_W + TN_CHILD]
    T[node * TREE_W + TN_CHILD] = n


@kernel
def _tree_pick(T, node, C, k, used, R):
    """The move at tree ``node`` among the ``k`` moves ``C`` open in this world (the
    seat's own decision): a move not tried here yet (at random) grows the node
    ``used``; else the child with the highest upper confidence bound, its
    availability (how often it was open when its parent was passed) in place of
    the parent's visits. Returns (move, its node or -1 with the tree full, whether
    it is new)."""
    untried = 0
    for i in range(k):
        c = _tchild(T, node, C[i])
        if c >= 0:
            T[c * TREE_W + TN_A] += 1
        else:
            untried += 1
    if untried > 0 and used < TREE_NODES:
        r = rand_below(R, 1, untried)
        for i in range(k):
            if _tchild(T, node, C[i]) < 0:
                if r == 0:
                    _tnew(T, node, used, C[i])
                    return C[i], used, True
                r -= 1
    best = -1
    best_c = -1
    best_u = -1.0
    for i in range(k):
        c = _tchild(T, node, C[i])
        if c >= 0:
            n = T[c * TREE_W + TN_N]
            u = 1e9
            if n > 0:
                u = (T[c * TREE_W + TN_V] / (n * VALUE_UNIT)
                     + TREE_C * np.sqrt(np.log(T[c * TREE_W + TN_A]) / n))
            if u > best_u:
                best = i
                best_c = c
                best_u = u
    if best < 0:  # the tree is full: a move at random, out of the tree
        return C[rand_below(R, 1, k)], -1, False
    return C[best], best_c, False


@kernel
def _tree_rollout(G, W, CW, R, p, k, used, placing, depth, learned):
    """One rollout of the tree search in world ``W``: down the tree over ``p``'s own
    decisions from the root's ``k`` candidates (OFF_CAND), growing it by one node,
    then the rollout policies (``_rollout``, paused at each of ``p``'s decisions
    while in the tree); its value added to every node it passed. Returns the nodes
    used."""
    T = G[OFF_TREE:OFF_TREE + TREE_NODES * TREE_W]
    P = G[OFF_TPATH:OFF_TPATH + TREE_PATH]
    TC = G[OFF_TCAND:OFF_TCAND + MAX_MOVES]
    move, c, new = _tree_pick(T, _ZERO, G[OFF_CAND:OFF_CAND + MAX_MOVES], k, used, R)
    P[0] = 0
    n_path = 1
    if c >= 0:
        P[1] = c
        n_path = 2
    if new:
        used += 1
    down = c >= 0 and not new
    limit = _ZERO
    v = _rollout(W, CW, R, move, p, placing, depth, learned, limit, down)
    while v < 0:  # paused at p's decision, in the tree
        limit = -1 - v
        kk = candidates_in(W, R, TC)
        move = TC[0]
        if kk > 1:
            move, c, new = _tree_pick(T, P[n_path - 1], TC, kk, used, R)
            if new:
                used += 1
            if c >= 0 and n_path < TREE_PATH:
                P[n_path] = c
                n_path += 1
            down = c >= 0 and not new and n_path < TREE_PATH
        v = _rollout(W, CW, R, move, p, placing, depth, learned, limit, down)
    for i in range(n_path):
        T[P[i] * TREE_W + TN_N] += 1
        T[P[i] * TREE_W + TN_V] += v
    return used


@kernel
def _tree_search(G, p, m, k, rollouts, placing, depth):
    """Spend ``rollouts`` rollouts on the tree over ``p``'s own decisions (``tree=1``:
    information-set Monte Carlo tree search, one world sampled a rollout, the
    opponents played by the model), then give each root candidate its value sum in
    OFF_SCORE and its rollouts in OFF_TRIED, and keep in (OFF_ALIVE) the one most
    tried. Returns the rollouts played."""
    n = G[R_PLAYERS]
    W0 = G[OFF_W0:OFF_W]
    W = G[OFF_W:OFF_WRNG]
    R = G[OFF_WRNG:OFF_WRNG + 8].view(np.uint64)
    CW = G[OFF_CW:OFF_CW + CW_RESHUFFLES + 1]
    T = G[OFF_TREE:OFF_TREE + TREE_NODES * TREE_W]
    for i in range(TREE_W):
        T[i] = 0
    T[TN_CHILD] = -1
    T[TN_NEXT] = -1
    used = _ONE
    learned = G[OFF_SP + p * N_SP + SP_VALUE] != 0
    for _ in range(rollouts):
        _sample_world(G, W0, R, p, m)
        _copy_world(G, _AT_W0, _AT_W, n)
        used = _tree_rollout(G, W, CW, R, p, k, used, placing, depth, learned)
    most = -1
    for i in range(k):
        c = _tchild(T, _ZERO, G[OFF_CAND + i])
        tried = T[c * TREE_W + TN_N] if c >= 0 else 0
        G[OFF_TRIED + i] = tried
        G[OFF_SCORE + i] = T[c * TREE_W + TN_V] if c >= 0 else 0
        G[OFF_ALIVE + i] = 0
        if most < 0 or tried > G[OFF_TRIED + most]:
            most = i
    G[OFF_ALIVE + most] = 1
    return rollouts


@kernel
def _evaluate(G, rng, p, k):
    """Score the ``k`` candidates at G[OFF_CAND ..] for the seat ``p`` to act: their
    rollouts' values summed in OFF_SCORE, their rollouts in OFF_TRIED, the ones
    sequential halving kept in OFF_ALIVE; return the rollouts played."""
    rollouts = G[OFF_SP + p * N_SP + SP_ROLLOUTS]
    depth = G[OFF_SP + p * N_SP + SP_DEPTH]
    placing = G[S_WINNER] >= 0  # elimination goes on after the first seat out
    m = _begin(G, rng, p)
    for i in range(k):
        G[OFF_SCORE + i] = 0
        G[OFF_ALIVE + i] = 1
        G[OFF_TRIED + i] = 0
    if G[OFF_SP + p * N_SP + SP_TREE] != 0:
        return _tree_search(G, p, m, k, rollouts, placing, depth)
    played = 0
    if G[OFF_SP + p * N_SP + SP_HALVING] != 0 and k > 2:
        # sequential halving: the budget split evenly over ceil(log2 k) rounds, each
        # round's share over the candidates still in; the worse half leaves after each
        rounds = 0
        while (1 << rounds) < k:
            rounds += 1
        left = k
        for r in range(rounds):
            played += _worlds(G, p, m, k, max(1, rollouts // (rounds * left)), placing, depth)
            keep = (left + 1) // 2
            if r < rounds - 1:
                _drop_worst(G, k, left, keep)
                left = keep
    else:
        played = _worlds(G, p, m, k, max(1, rollouts // k), placing, depth)
    return played


@kernel
def _best(G, k):
    """The candidate still in with the highest score (of equal ones the first)."""
    best = -1
    for i in range(k):
        if G[OFF_ALIVE + i] != 0 and (best < 0 or G[OFF_SCORE + i] > G[OFF_SCORE + best]):
            best = i
    return best


@kernel
def search_move(G, rng):
    """The search's move for the seat to act (see the module's docstring)."""
    k = candidates(G, rng)
    if k == 1:
        return G[OFF_CAND]
    played = _evaluate(G, rng, G[S_ACTOR], k)
    G[OFF_SCOUNT] += 1
    G[OFF_SCOUNT + 1] += played
    return G[OFF_CAND + _best(G, k)]


@kernel
def search_figures(G, rng):
    """What the search computes at this decision, for a person's hint: the
    candidates, each one's summed rollout values and rollouts, and the index of the
    move it plays, as ``search_move`` does from the same ``G`` and ``rng`` (a
    decision with one candidate, which the search plays unsearched, is rolled out
    all the same, for its figure). Returns (candidates, the index played)."""
    k = candidates(G, rng)
    _evaluate(G, rng, G[S_ACTOR], k)
    return k, _best(G, k)


@kernel
def move_figure(G, rng, move, worlds):
    """A move the search prunes, scored as the search would score a candidate: the
    same draws from ``rng``, then ``move`` alone rolled out in ``worlds`` worlds
    (summed value in OFF_SCORE, rollouts in OFF_TRIED)."""
    p = G[S_ACTOR]
    candidates(G, rng)
    G[OFF_CAND] = move
    m = _begin(G, rng, p)
    G[OFF_SCORE] = 0
    G[OFF_ALIVE] = 1
    G[OFF_TRIED] = 0
    _worlds(G, p, m, 1, worlds, G[S_WINNER] >= 0, G[OFF_SP + p * N_SP + SP_DEPTH])


@kernel
def play_counted(template, base_seed, start, n, G, RNG):
    """Play rounds ``start .. start + n`` one after another on ``G`` (the game
    loop of a search table's round, with ``apply_move`` behind a call as in the
    rollouts) and return (searched decisions, rollouts) summed over them: what
    ``unosim bench`` reports for the search."""
    for k in range(G.shape[0]):
        G[k] = template[k]
    for g in range(start, start + n):
        seed_game(base_seed, g, RNG)
        play_loop(choose_move, apply_called, G, RNG, False)
    return G[OFF_SCOUNT], G[OFF_SCOUNT + 1]
