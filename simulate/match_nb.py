"""Whole matches, compiled: rounds in a row under a scoring method, to a target.

A match is a loop over rounds (``match_loop``, shared by built-in and plug-in
tables), which takes its round player as an argument: the built-ins' match entry
points bind it in runs/entries_nb.py. The loop is four public steps, and a match
whose rounds are played from Python (a table with Python strategies,
runs/python_batch.py; a person's match, runs/played.py) runs the same steps, so
the rules of a match live here only:

* ``start_match``: open the record; it returns what the match carries from round
  to round, (ended, off, wp, rounds, turns);
* ``round_due``: whether another round is played (the round cap); if so
  ``seat_players`` seats the players for it, and the round is played;
* ``settle_round``: score the round, decide whether the match ended and who leads
  the next round;
* ``finish_match``: the totals and the winner.

Between rounds the players move seats: seat
``s`` holds player ``(s + off) % n``, and the strategy id and seat parameters of
that player are copied into the seat's slots of the game array.
Seat 0 (left of the dealer) plays first, so ``off`` says who leads:

* ``dealer_rotation=clockwise``: the dealer moves one seat clockwise, so the
  player who led the last round deals and the one after leads (``off + 1``);
  a round without a winner (turn cap) rotates the same way;
* ``dealer_rotation=winner_leads``: the round winner leads the next round.

Players are numbered by their seat in the first round: player 0 leads it.

Scoring (docs/matches.md#scoring), ``score`` per player:

* ``winner_takes``: the round winner scores the points left in the other hands;
  the match ends once someone has ``target_score``; that player wins.
* ``losers_score``: everyone adds the points in their own hand; the match ends
  once someone has ``target_score``; the lowest total wins.
* ``game101``: as ``losers_score``, but the match ends once someone *passes*
  the target (more than ``target_score``, 101 in the preset); lowest total wins.
* ``lazy``: a round records only its winner (first out) and its loser (most
  points left in hand); ``score`` counts round wins and the match ends when a
  player has won ``target_score`` rounds (first to N). Round losses are kept
  per player in the record (the ledger's second column).

Ties for the lowest total are broken uniformly at random (stream 1) and flagged.
A round stopped at the turn cap scores nothing. A match that reaches
``max_rounds`` rounds without an end is stopped: no winner, flagged capped.
Everything lives in arrays passed in; the kernels never allocate.
"""

from __future__ import annotations

from numba import njit

from unosim.simulate import layout as L
from unosim.simulate.feel_nb import feel_finish, feel_value
from unosim.simulate.jit import kernel, kernel_inline
from unosim.simulate.layout import (  # noqa: F401 - the record's columns, read here
    M_CAPPED,
    M_CAPPED_ROUNDS,
    M_FEEL_HIST,
    M_FEEL_ROUNDS,
    M_FEEL_SUM,
    M_LOSER,
    M_ROUND_LOSSES,
    M_ROUND_WINS,
    M_ROUNDS,
    M_SCORE,
    M_TIED,
    M_TURNS,
    M_WINNER,
    MATCH_FIELDS,
    N_M,
    DealerRotation,
    Scoring,
)
from unosim.simulate.rng_nb import rand_below, seed_game
from unosim.simulate.round_nb import play_round_with

N_FEEL = len(L.FEEL_METRICS)


@kernel
def seat_players(G, T, off):
    """Copy each player's strategy and parameters from ``T`` into the seat they
    take this round: seat ``s`` gets player ``(s + off) % n``."""
    n = T[L.R_PLAYERS]
    for s in range(n):
        pl = (s + off) % n
        G[L.OFF_STRAT + s] = T[L.OFF_STRAT + pl]
        for k in range(L.N_SEATF):
            G[L.OFF_SEATF + s * L.N_SEATF + k] = T[L.OFF_SEATF + pl * L.N_SEATF + k]
        for k in range(L.N_SP):
            G[L.OFF_SP + s * L.N_SP + k] = T[L.OFF_SP + pl * L.N_SP + k]


try:  # the engine's own hand value (house rules such as zero_fifty adjust it)
    from unosim.simulate.step_nb import hand_value as _hand_value
except ImportError:  # an engine without it: the plain card points of the hand
    _hand_value = None

if _hand_value is not None:

    @kernel
    def hand_points(G, s):
        """What seat ``s``'s hand counts at scoring."""
        return _hand_value(G, s)

else:

    @kernel
    def hand_points(G, s):
        """What seat ``s``'s hand counts at scoring (the card points in it)."""
        return G[L.OFF_H + s * L.HW + L.HC_POINTS]


@kernel
def start_match(out, row):
    """Open the record of a match in ``out[row]``; return what the match carries from
    round to round: (ended, off, wp, rounds, turns): not ended, player 0 leads the
    first round (seat ``s`` holds player ``(s + off) % n``), no round winner yet, no
    rounds or turns played."""
    for c in range(N_M):
        out[row, c] = 0
    out[row, M_WINNER] = -1
    out[row, M_LOSER] = -1
    return False, 0, -1, 0, 0


@kernel
def round_due(out, row, ended, rounds, max_rounds):
    """Whether the match plays another round: not once it has ended, nor once it has
    played ``max_rounds`` rounds (then it is stopped, flagged capped). The players
    take their seats for it with ``seat_players``."""
    if ended:
        return False
    if rounds >= max_rounds:
        out[row, M_CAPPED] = 1
        return False
    return True


@kernel
def _feel_round(G, out, row):
    """Add the game-feel metrics of the round just won into the match's sums."""
    feel_finish(G)
    out[row, M_FEEL_ROUNDS] += 1
    for k in range(N_FEEL):
        out[row, M_FEEL_SUM + k] += feel_value(G, k)
    b = feel_value(G, 1)
    out[row, M_FEEL_HIST + (b if b < L.FEEL_HIST_BINS - 1 else L.FEEL_HIST_BINS - 1)] += 1


@kernel
def settle_round(G, T, out, row, off, wp, rounds, turns):
    """Score the round just played on ``G`` (seat ``s`` held player ``(s + off) %
    n``) into ``out[row]``, given what the match carries (``start_match``); return
    it after the round: (ended, off of the next round, last round winner, rounds,
    turns)."""
    n = T[L.R_PLAYERS]
    scoring = T[L.R_SCORING]
    rounds += 1
    turns += G[L.S_TURNS]
    w = G[L.S_WINNER]
    if w < 0:
        out[row, M_CAPPED_ROUNDS] += 1
        return False, (off + 1) % n, wp, rounds, turns
    wp = (w + off) % n
    out[row, M_ROUND_WINS + wp] += 1
    _feel_round(G, out, row)
    # the round's loser: most points left in hand, first in seat order on ties
    ls = -1
    best = -1
    for s in range(n):
        if s != w and hand_points(G, s) > best:
            best = hand_points(G, s)
            ls = s
    if ls >= 0:
        out[row, M_ROUND_LOSSES + (ls + off) % n] += 1
    if scoring == Scoring.winner_takes:
        gained = 0
        for s in range(n):
            if s != w:
                gained += hand_points(G, s)
        out[row, M_SCORE + wp] += gained
    elif scoring == Scoring.lazy:
        out[row, M_SCORE + wp] += 1
    else:
        for s in range(n):
            out[row, M_SCORE + (s + off) % n] += hand_points(G, s)
    top = 0
    for p in range(n):
        if out[row, M_SCORE + p] > top:
            top = out[row, M_SCORE + p]
    if scoring == Scoring.game101:
        ended = top > T[L.R_TARGET_SCORE]
    else:
        ended = top >= T[L.R_TARGET_SCORE]
    if not ended:
        off = (off + 1) % n if T[L.R_DEALER_ROTATION] == DealerRotation.clockwise else wp
    return ended, off, wp, rounds, turns


@kernel
def finish_match(T, RNG, out, row, ended, wp, rounds, turns):
    """Write the match's totals and decide its winner (ties at random), from what
    the match carried to its end (``settle_round``)."""
    n = T[L.R_PLAYERS]
    scoring = T[L.R_SCORING]
    out[row, M_ROUNDS] = rounds
    out[row, M_TURNS] = min(turns, 2147483647)
    if not ended:
        return
    if scoring == Scoring.winner_takes or scoring == Scoring.lazy:
        out[row, M_WINNER] = wp
        return
    # lowest total wins; the highest total is the match loser
    low = out[row, M_SCORE]
    high = out[row, M_SCORE]
    loser = 0
    for p in range(1, n):
        v = out[row, M_SCORE + p]
        if v < low:
            low = v
        if v > high:
            high = v
            loser = p
    out[row, M_LOSER] = loser
    tied = 0
    for p in range(n):
        if out[row, M_SCORE + p] == low:
            tied += 1
    pick = 0
    if tied > 1:
        out[row, M_TIED] = 1
        pick = rand_below(RNG, 1, tied)
    for p in range(n):
        if out[row, M_SCORE + p] == low:
            if pick == 0:
                out[row, M_WINNER] = p
                break
            pick -= 1


@kernel_inline
def match_loop(play, choose, G, T, RNG, max_rounds, out, row, checked):
    """The one match loop: play a match on ``G`` (rules and seats from template
    ``T``) into ``out[row]``, each round by ``play(choose, G, RNG, checked) ->
    (illegal, move)`` (the built-ins' rounds of runs/entries_nb.py, or
    round_nb.play_round_with). An illegal
    move stops the match unplayed: returns (illegal, move, round, off) with ``off``
    the seat rotation of that round (seat ``s`` held player ``(s + off) % n``)."""
    ended, off, wp, rounds, turns = start_match(out, row)
    while round_due(out, row, ended, rounds, max_rounds):
        seat_players(G, T, off)
        illegal, m = play(choose, G, RNG, checked)
        if illegal:
            return True, m, rounds + 1, off
        ended, off, wp, rounds, turns = settle_round(G, T, out, row, off, wp, rounds, turns)
    finish_match(T, RNG, out, row, ended, wp, rounds, turns)
    return False, 0, rounds, off


@njit(_nrt=False)
def play_match_with(choose, G, T, RNG, max_rounds, out, row, checked):
    """``play_match`` with the strategies of ``choose(G, RNG) -> move`` (tables
    with plug-ins; see round_nb.play_round_with); returns as ``match_loop``."""
    return match_loop(play_round_with, choose, G, T, RNG, max_rounds, out, row, checked)


@njit(nogil=True, _nrt=False)
def play_matches_with(choose, template, base_seed, start, max_rounds, out, lo, hi, checked,
                      bad, G, RNG):
    """Rows ``lo .. hi`` of ``play_match_rows`` with the chooser ``choose``, on the
    buffers ``G`` and ``RNG``; it releases the GIL so threads run chunks side by
    side (as round_nb.play_games_with). In checked mode it stops at the first
    illegal move and writes (match, move, phase, seat, round, player) into ``bad``
    (int64[6])."""
    matches_with(choose, template, base_seed, start, max_rounds, out, lo, hi, checked, bad, G,
                 RNG)


@kernel_inline
def matches_with(choose, template, base_seed, start, max_rounds, out, lo, hi, checked, bad, G,
                 RNG):
    """The body of ``play_matches_with``, inlined where it is called (as
    round_nb.games_with, for the cached loops of plug-ins)."""
    for k in range(L.G_SIZE):
        G[k] = template[k]
    for i in range(lo, hi):
        g = start + i
        seed_game(base_seed, g, RNG)
        illegal, m, rnd, off = play_match_with(choose, G, template, RNG, max_rounds, out, i,
                                               checked)
        if illegal:
            bad[0] = g
            bad[1] = m
            bad[2] = G[L.S_PHASE]
            bad[3] = G[L.S_ACTOR]
            bad[4] = rnd
            bad[5] = (G[L.S_ACTOR] + off) % template[L.R_PLAYERS]
            return
