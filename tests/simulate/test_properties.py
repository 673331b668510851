"""Property tests: random rule combinations, player counts and strategies.

Hypothesis draws a table: any subset of the rule keys of ``SCHEMA`` set to
random allowed values (combinations that ``resolve`` refuses are skipped), 2-10
players, a hand size, a built-in strategy per seat with random bluff /
challenge / forget parameters, and a seed. For each table:

* games are played move by move with the invariants of tests/simulate/test_playouts.py
  after every move (cards conserved, hands consistent, the O(1) playable count
  agrees with the legal moves, only legal moves: ``Game.apply`` refuses any
  other), and each game ends with one winner and consistent points, or at the
  turn cap;
* each such game's final record equals the compiled batch's record of the same
  game (Python-driven and compiled engines agree move for move);
* a compiled batch keeps the record invariants of ``unosim.checks.invariants`` and does
  not depend on how the games are split into chunks or where the batch starts.

CI runs a bounded, deterministic version (``derandomize=True``, no example
database); ``unosim selfcheck --minutes N`` runs the same checks for as long as
asked.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from test_playouts import play_checked

from unosim.checks.invariants import check_records
from unosim.errors import UnosimError
from unosim.runs.aggregate import Aggregate
from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate.round_nb import record_round
from unosim.simulate.rules import SCHEMA, resolve
from unosim.simulate.step_nb import cap_round
from unosim.strategies.registry import BUILTINS, STRATEGY_PARAMS, parse_strategy

# bounded for CI: the whole file runs in about half a minute
CI = settings(deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])

probability = st.sampled_from([0.0, 1.0]) | st.floats(0, 1)


@st.composite
def strategy_labels(draw: st.DrawFn) -> str:
    # the rule-based built-ins: a search seat decides hundreds of times slower, and
    # these tables (turn caps of 5 000, matches of 60 rounds) would take hours with
    # one; its legality is checked by the playouts (tests/simulate/test_playouts.py, every
    # preset and random rule combinations) and selfcheck
    name = draw(st.sampled_from(sorted(set(BUILTINS) - {"search"})))
    params = []
    if draw(st.booleans()):
        params.append(f"bluff={draw(probability)!r}")
    if draw(st.booleans()):
        c = draw(st.sampled_from(["never", "always", "informed"]) | probability.map(repr))
        params.append(f"challenge={c}")
    if draw(st.booleans()):
        params.append(f"forget={draw(probability)!r}")
    for q in STRATEGY_PARAMS.get(name, ()):  # weights and triggers across their domain
        if draw(st.booleans()):
            v = draw(st.integers(int(q.lo), int(q.hi)) if q.integer
                     else st.floats(q.lo, q.hi).map(lambda x: round(x, 3)))
            params.append(f"{q.name}={v!r}")
    return name + (":" + ",".join(params) if params else "")


def _value(draw: st.DrawFn, key: str) -> object:
    k = SCHEMA[key]
    if k.kind == "bool":
        return draw(st.booleans())
    if k.kind == "choice":
        return draw(st.sampled_from(list(k.implemented or k.choices)))
    if k.kind == "float":
        return draw(probability)
    if key == "turn_cap":
        return draw(st.sampled_from([10, 37, 200, 5000]))
    return draw(st.integers(int(k.lo), int(k.hi)))


@st.composite
def tables(draw: st.DrawFn) -> tuple:
    keys = [k for k in SCHEMA if k not in ("players", "hand_size", "target_score")]
    chosen = draw(st.lists(st.sampled_from(keys), unique=True, max_size=len(keys)))
    overrides = {key: _value(draw, key) for key in chosen}
    players = draw(st.integers(2, 10))
    overrides["players"] = players
    overrides["hand_size"] = draw(st.integers(1, max(1, min(20, 100 // players))))
    try:
        rules = resolve([], list(overrides.items()))
    except UnosimError:
        reject()  # a combination the rule validation refuses
    seats = draw(st.lists(strategy_labels(), min_size=players, max_size=players))
    seed = draw(st.integers(0, 2**32 - 1))
    return rules, seats, seed


def _record(g) -> np.ndarray:
    if not g.over:  # stopped at the turn cap, as the compiled loop does
        cap_round(g.G)
    out = np.zeros((1, L.N_G), dtype=np.int32)
    record_round(g.G, g.winner_points(), out, 0)
    return out[0]


@pytest.mark.slow
@settings(CI, max_examples=200)
@given(tables(), st.integers(0, 10**6))
def test_random_tables_keep_every_invariant(table, first):
    rules, labels, seed = table
    seats = [parse_strategy(s) for s in labels]
    n = 64
    rec = play_records(rules, seats, seed, first, n, chunks=1)
    check_records(rec, rules, first)
    for k in range(2):
        g = play_checked(rules, seats, seed, first + k)  # per-move invariants, legal moves
        if not g.over:
            assert g.stat("turns") == rules["turn_cap"]
        assert np.array_equal(_record(g), rec[k]), (k, labels)
    assert np.array_equal(play_records(rules, seats, seed, first, n, chunks=5), rec)
    assert np.array_equal(play_records(rules, seats, seed, first + 20, n - 20, chunks=2),
                          rec[20:])


@pytest.mark.slow
@settings(CI, max_examples=150)
@given(tables())
def test_random_tables_in_matches(table):
    from unosim.runs.match import play_match_records
    from unosim.simulate import match_nb as M

    rules, labels, seed = table
    if rules["scoring"] == "lazy":
        rules = resolve([], [*rules.as_dict().items(), ("target_score", 3)])
    else:
        rules = resolve([], [*rules.as_dict().items(), ("target_score", 150)])
    seats = [parse_strategy(s) for s in labels]
    n = rules["players"]
    max_rounds = 60
    rec = play_match_records(rules, seats, seed, 0, 16, max_rounds=max_rounds, chunks=2)
    rounds, winner, capped = rec[:, M.M_ROUNDS], rec[:, M.M_WINNER], rec[:, M.M_CAPPED]
    assert ((rounds >= 1) & (rounds <= max_rounds)).all()
    assert ((capped == 1) == (winner == -1)).all()
    assert ((capped == 0) | (rounds == max_rounds)).all()
    assert ((winner >= -1) & (winner < n)).all()
    round_wins = rec[:, M.M_ROUND_WINS : M.M_ROUND_WINS + n].sum(1)
    assert (round_wins == rounds - rec[:, M.M_CAPPED_ROUNDS]).all()
    assert not rec[:, M.M_SCORE + n : M.M_SCORE + L.MAX_PLAYERS].any()
    again = play_match_records(rules, seats, seed, 8, 8, max_rounds=max_rounds, chunks=3)
    assert np.array_equal(again, rec[8:])


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(st.lists(st.integers(1, 400), min_size=1, max_size=6), st.integers(2, 10))
def test_totals_do_not_depend_on_how_games_are_split(cuts, players):
    """What makes resume exact: totals of consecutive slices, merged or folded in
    one after another, equal the totals of the whole."""
    rules = resolve([], [("players", players)])
    seats = [parse_strategy("random")] * players
    total = sum(cuts)
    rec = play_records(rules, seats, 1, 0, total)
    whole = Aggregate(players=players)
    whole.add_records(rec)
    merged, folded, lo = Aggregate(players=players), Aggregate(players=players), 0
    for c in cuts:
        part = Aggregate(players=players)
        part.add_records(rec[lo : lo + c])
        merged.merge(part)
        folded.add_records(rec[lo : lo + c])
        lo += c
    assert merged.same_as(whole) and folded.same_as(whole)
