"""The invariants every game of every rule set keeps, checked from outside the engine.

Per move (:func:`check_state`): cards are conserved, each hand's derived columns
(colour and wild counts, size, points) agree with its cards, and the O(1) playable
count agrees with the legal-move list. Per round (:func:`check_end`): one winner with
no cards (places 1..n under elimination) and consistent points. Per compiled batch
(:func:`check_records`): winners, caps, points and empty seats consistent. Per
batch of matches (:func:`check_matches`): decided or capped, and independent of
chunks and offsets.

They live in the engine side, not in the ``selfcheck`` command, because the tests
(tests/simulate/test_playouts.py, tests/simulate/test_properties.py) run the same checks, and a test
should not reach into a command module for them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate.cards import N_RANKS, POINTS, WILD, WILD_DRAW_FOUR

#: column index of each field of a game record
GAME_COL = {name: i for i, name in enumerate(L.GAME_FIELDS)}


class CheckFailure(AssertionError):
    """An invariant that did not hold; the message says which and where."""



def check_state(g: Any, deck_size: int) -> None:
    """The per-move invariants: cards conserved, each hand's derived columns
    (colour and wild counts, packed colour columns, size, points) agree with its
    cards, the O(1) playable count and the k-th playable card agree with the
    legal-move list (tests/simulate/test_playouts.py runs the same checks)."""
    from unosim.simulate.feel_nb import feel_word
    from unosim.simulate.step_nb import count_allowed, legal_moves, nth_playable, wd4_is_legal

    G = g.G
    n = g.players
    if g.total_cards() != deck_size:
        raise CheckFailure(f"{g.total_cards()} cards in play, the deck has {deck_size}")
    hands = np.asarray(G[L.OFF_H : L.OFF_H + n * L.HW]).reshape(n, L.HW)
    counts = hands[:, : L.HC_COLOUR]
    if (counts < 0).any():
        raise CheckFailure("a negative card count in a hand")
    if not np.array_equal(counts.sum(1), hands[:, L.HC_SIZE]):
        raise CheckFailure("a hand's size column disagrees with its cards")
    by_colour = counts[:, : 4 * N_RANKS].reshape(n, 4, N_RANKS).sum(2)
    if not np.array_equal(by_colour, hands[:, L.HC_COLOUR : L.HC_COLOUR + 4]):
        raise CheckFailure("a hand's colour columns disagree with its cards")
    if not np.array_equal(counts[:, WILD:].sum(1), hands[:, L.HC_WILDS]):
        raise CheckFailure("a hand's wild-card column disagrees with its cards")
    packed = (counts[:, : 4 * N_RANKS].reshape(n, 4, N_RANKS)
              << (4 * np.arange(N_RANKS))).sum(2)
    if (not np.array_equal(packed, hands[:, L.HC_NIBS : L.HC_NIBS + 4])
            or hands[:, L.HC_NIBS + 4].any()):
        raise CheckFailure("a hand's packed colour columns disagree with its cards")
    if not np.array_equal(counts @ POINTS[: L.HC_COLOUR], hands[:, L.HC_POINTS]):
        raise CheckFailure("a hand's points column disagrees with its cards")
    if G[L.OFF_FEEL_SIZES] != feel_word(G):
        raise CheckFailure("the packed hand sizes (game-feel samples) disagree with the hands")
    if G[L.S_PENDING] < 0:
        raise CheckFailure(f"negative pending penalty {G[L.S_PENDING]}")
    if not 0 <= g.actor < n:
        raise CheckFailure(f"actor {g.actor} is not a seat")
    if g.phase == "turn":
        p = g.actor
        k = legal_moves(G)
        plays = [(int(G[L.OFF_MOVES + i]), int(G[L.OFF_WEIGHTS + i])) for i in range(k)
                 if G[L.OFF_MOVES + i] < L.MV_PLAY_END]
        with_bluff = sum(w for _, w in plays)
        without = sum(w for t, w in plays if t != WILD_DRAW_FOUR or wd4_is_legal(G, p))
        # count_allowed: the O(1) count less a last card finish_on_action bars (the
        # built-ins read the same as count_playable plus last_card_barred at a count of 1)
        if count_allowed(G, p, True) != with_bluff or count_allowed(G, p, False) != without:
            raise CheckFailure("the O(1) playable count disagrees with the legal moves")
        # nth_playable (random's pick, from the packed colour columns) walks the cards
        # in the legal moves' order, each physical card once
        cards = [t for t, w in plays for _ in range(w)]
        for bluff in (True, False):
            seq = [t for t in cards if bluff or t != WILD_DRAW_FOUR or wd4_is_legal(G, p)]
            if [nth_playable(G, p, bluff, k) for k in range(len(seq))] != seq:
                raise CheckFailure("the k-th playable card disagrees with the legal moves")


def check_end(g: Any, rules: Any) -> None:
    """One winner with no cards (places 1..n under elimination), consistent points."""
    n = g.players
    if rules["elimination"]:
        if sorted(g.place(p) for p in range(n)) != list(range(1, n + 1)):
            raise CheckFailure("places are not 1..n at the end of an elimination round")
        if g.place(g.winner) != 1:
            raise CheckFailure("the winner is not in place 1")
        if sum(g.hand_size(p) > 0 for p in range(n)) > 1:
            raise CheckFailure("more than one seat still holds cards after elimination")
    else:
        if not 0 <= g.winner < n or g.hand_size(g.winner) != 0:
            raise CheckFailure(f"winner {g.winner} does not have an empty hand")
        if sum(g.hand_size(p) == 0 for p in range(n)) != 1:
            raise CheckFailure("more than one seat has an empty hand")
        others = sum(g.hand_value(p) for p in range(n) if p != g.winner)
        expected = others if rules["scoring"] == "winner_takes" else 0
        if g.winner_points() != expected:
            raise CheckFailure(f"winner points {g.winner_points()}, expected {expected}")
    if rules["seven_rounds"] and g.G[L.OFF_H + g.winner * L.HW + L.HC_STAGE] != 1:
        raise CheckFailure("the seven_rounds winner did not finish stage 1")


def play_game_checked(rules: Any, seats: list[Any], seed: int, index: int) -> tuple[Any, int]:
    """Play one game move by move with every check; return (record row, moves)."""
    from unosim.runs.game import Game
    from unosim.simulate.round_nb import record_round
    from unosim.simulate.step_nb import cap_round

    g = Game(rules, seats, seed=seed, game_index=index)
    deck_size = int(g.G[L.R_DECK_SIZE])
    check_state(g, deck_size)
    moves = 0
    cap = rules["turn_cap"]
    while not g.over:
        if g.stat("turns") >= cap:
            cap_round(g.G)
            break
        g.step()  # Game.apply raises IllegalMove for a move legal_moves does not offer
        moves += 1
        check_state(g, deck_size)
    if not g.stat("capped"):
        check_end(g, rules)
    elif g.stat("turns") != cap:
        raise CheckFailure(f"capped after {g.stat('turns')} turns, the cap is {cap}")
    out = np.zeros((1, L.N_G), dtype=np.int32)
    record_round(g.G, g.winner_points(), out, 0)
    return out[0], moves


def check_records(rec: np.ndarray, rules: Any, first: int = 0) -> None:
    """Record-level invariants of a compiled batch (games ``first ..``)."""
    n = rules["players"]
    col = GAME_COL
    capped = rec[:, col["capped"]]
    winner = rec[:, col["winner"]]
    wp = rec[:, col["winner_points"]]
    bad = np.nonzero(~np.isin(capped, (0, 1)))[0]
    if bad.size:
        raise CheckFailure(f"game {first + bad[0]}: capped flag {capped[bad[0]]}")
    bad = np.nonzero((capped == 1) & ((winner != -1) | (wp != 0)))[0]
    if bad.size:
        raise CheckFailure(f"game {first + bad[0]}: capped, but winner {winner[bad[0]]}")
    bad = np.nonzero((capped == 0) & ((winner < 0) | (winner >= n)))[0]
    if bad.size:
        raise CheckFailure(f"game {first + bad[0]}: winner {winner[bad[0]]} is not a seat")
    turns = rec[:, col["turns"]]
    bad = np.nonzero((turns < 0) | (turns > rules["turn_cap"]) | (
        (capped == 1) & (turns != rules["turn_cap"])))[0]
    if bad.size:
        raise CheckFailure(f"game {first + bad[0]}: {turns[bad[0]]} turns, cap "
                           f"{rules['turn_cap']}")
    counters = [col[f] for f in L.GAME_FIELDS[: col["points_0"]] if f != "winner"]
    bad = np.nonzero((rec[:, counters] < 0).any(1))[0]
    if bad.size:
        raise CheckFailure(f"game {first + bad[0]}: a negative counter")
    for name in ("points", "place", "stage"):
        c0 = col[f"{name}_0"]
        if n < L.MAX_PLAYERS and rec[:, c0 + n : c0 + L.MAX_PLAYERS].any():
            raise CheckFailure(f"{name} columns of empty seats are not zero")
    points = rec[:, col["points_0"] : col["points_0"] + n].astype(np.int64)
    won = np.nonzero(capped == 0)[0]
    if rules["elimination"]:
        places = np.sort(rec[won, col["place_0"] : col["place_0"] + n], axis=1)
        bad = np.nonzero((places != np.arange(1, n + 1)).any(1))[0]
        if bad.size:
            raise CheckFailure(f"game {first + won[bad[0]]}: places are not 1..{n}")
        first_place = rec[won, col["place_0"] + winner[won]]
        if won.size and (first_place != 1).any():
            raise CheckFailure("the winner is not in place 1")
    elif rules["scoring"] == "winner_takes":
        others = points[won].sum(1) - points[won, winner[won]]
        bad = np.nonzero(wp[won] != others)[0]
        if bad.size:
            g = won[bad[0]]
            raise CheckFailure(f"game {first + g}: winner points {wp[g]}, the other hands "
                               f"hold {others[bad[0]]}")
    else:
        bad = np.nonzero(wp[won] != 0)[0]
        if bad.size:
            raise CheckFailure(f"game {first + won[bad[0]]}: winner points under "
                               f"{rules['scoring']}")



def check_matches(rules: Any, seats: list[Any], seed: int, n: int = 8,
                  max_rounds: int = 40) -> int:
    """Whole matches of the table (short target): decided or capped, consistent."""
    from unosim.runs.match import play_match_records
    from unosim.simulate import match_nb as M
    from unosim.simulate.rules import resolve

    target = 3 if rules["scoring"] == "lazy" else 150
    rules = resolve([], [*rules.as_dict().items(), ("target_score", target)])
    p = rules["players"]
    rec = play_match_records(rules, seats, seed, 0, n, max_rounds=max_rounds, chunks=2)
    rounds, winner, capped = rec[:, M.M_ROUNDS], rec[:, M.M_WINNER], rec[:, M.M_CAPPED]
    won = rec[:, M.M_ROUND_WINS : M.M_ROUND_WINS + p].sum(1)
    for m in range(n):
        if not 1 <= rounds[m] <= max_rounds or (capped[m] == 1) != (winner[m] == -1) or (
                capped[m] and rounds[m] != max_rounds) or not -1 <= winner[m] < p:
            raise CheckFailure(f"match {m}: {rounds[m]} rounds, winner {winner[m]}, capped "
                               f"{capped[m]} (max_rounds {max_rounds})")
        if won[m] != rounds[m] - rec[m, M.M_CAPPED_ROUNDS]:
            raise CheckFailure(f"match {m}: {won[m]} rounds won of {rounds[m]} played")
    again = play_match_records(rules, seats, seed, n // 2, n - n // 2, max_rounds=max_rounds,
                               chunks=3)
    if not np.array_equal(again, rec[n // 2 :]):
        raise CheckFailure("matches depend on the chunking or where the batch starts")
    return n
