"""Whole matches (simulate/match_nb.py, runs/match.py, ``run --mode match``).

The compiled match loop is checked match by match against a plain-Python loop
written from docs/matches.md#scoring that calls the same compiled ``play_round``:
seating, dealer rotation, every scoring method, the end of a match and the
tie-break must agree exactly. Then the properties the issue asks for: a match
ends exactly when the target is reached, and the scores add up.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from unosim.cli import main
from unosim.errors import UnosimError
from unosim.runs.entries_nb import play_round
from unosim.runs.match import (
    MATCH_FIELDS,
    MatchAggregate,
    match_values,
    play_match_records,
)
from unosim.runs.runner import base_seed, game_template, play_records
from unosim.simulate import layout as L
from unosim.simulate import match_nb as M
from unosim.simulate.rng_nb import rand_below, seed_game
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy
from unosim.studies.run.play import run_matches

PRESETS = ["official", "losers-score", "lazy-scoring", "game-101"]
MIXED = ["random", "first", "defensive", "random"]  # asymmetric, so seating matters


def seats(names=MIXED):
    return [parse_strategy(n) for n in names]


def reference_match(rules, seat_list, seed, m, max_rounds=1000):
    """One match in plain Python, from the rules as docs/matches.md#scoring states them,
    around the compiled play_round."""
    T = game_template(rules, seat_list)
    G = T.copy()
    RNG = np.zeros(8, np.uint64)
    key = base_seed(seed)
    seed_game(key, m, RNG)
    n, scoring, target = rules["players"], rules["scoring"], rules["target_score"]
    score, wins, losses = [0] * n, [0] * n, [0] * n
    dealer = n - 1  # player numbers = seats of round 1; the dealer sits right of seat 0
    rounds = capped_rounds = turns = 0
    winner = -1
    while True:
        if rounds == max_rounds:
            break
        lead = (dealer + 1) % n  # left of the dealer, plays first (seat 0)
        for s in range(n):
            p = (lead + s) % n
            G[L.OFF_STRAT + s] = T[L.OFF_STRAT + p]
            G[L.OFF_SEATF + s * L.N_SEATF: L.OFF_SEATF + (s + 1) * L.N_SEATF] = \
                T[L.OFF_SEATF + p * L.N_SEATF: L.OFF_SEATF + (p + 1) * L.N_SEATF]
        awarded = play_round(G, RNG)
        rounds += 1
        turns += int(G[L.S_TURNS])
        w = int(G[L.S_WINNER])
        if w < 0:
            capped_rounds += 1
            dealer = (dealer + 1) % n
            continue
        hand = [int(G[L.OFF_H + s * L.HW + L.HC_POINTS]) for s in range(n)]
        player = [(lead + s) % n for s in range(n)]
        wins[player[w]] += 1
        loser_seat = max((s for s in range(n) if s != w), key=lambda s: (hand[s], -s))
        losses[player[loser_seat]] += 1
        if scoring == "winner_takes":
            gained = sum(hand) - hand[w]
            assert gained == awarded  # the match adds up what the engine awards
            score[player[w]] += gained
        elif scoring == "lazy":
            score[player[w]] += 1
        else:
            for s in range(n):
                score[player[s]] += hand[s]
        over = max(score) > target if scoring == "game101" else max(score) >= target
        if over:
            if scoring in ("winner_takes", "lazy"):
                winner = player[w]
            else:
                low = min(score)
                tied = [p for p in range(n) if score[p] == low]
                winner = tied[rand_below(RNG, 1, len(tied))] if len(tied) > 1 else tied[0]
            break
        if rules["dealer_rotation"] == "clockwise":
            dealer = (dealer + 1) % n  # the deal passes to the left
        else:
            dealer = (player[w] - 1) % n  # the winner leads: the one on their right deals
    return {"rounds": rounds, "winner": winner, "capped": int(winner < 0 and rounds == max_rounds),
            "capped_rounds": capped_rounds, "turns": turns, "score": score[:n],
            "round_wins": wins[:n], "round_losses": losses[:n]}


def as_dict(row, n):
    return {
        "rounds": int(row[M.M_ROUNDS]), "winner": int(row[M.M_WINNER]),
        "capped": int(row[M.M_CAPPED]), "capped_rounds": int(row[M.M_CAPPED_ROUNDS]),
        "turns": int(row[M.M_TURNS]),
        "score": [int(x) for x in row[M.M_SCORE:M.M_SCORE + n]],
        "round_wins": [int(x) for x in row[M.M_ROUND_WINS:M.M_ROUND_WINS + n]],
        "round_losses": [int(x) for x in row[M.M_ROUND_LOSSES:M.M_ROUND_LOSSES + n]],
    }


@pytest.mark.parametrize("preset", PRESETS)
def test_compiled_matches_equal_the_reference_loop(preset):
    rules = resolve([preset])
    rec = play_match_records(rules, seats(), 11, 0, 12, chunks=2)
    for m in range(12):
        assert as_dict(rec[m], 4) == reference_match(rules, seats(), 11, m), (preset, m)


def test_winner_leads_rotation_equals_the_reference():
    rules = resolve(["losers-score"], [("dealer_rotation", "winner_leads"), ("players", 3)])
    s3 = seats(["first", "random", "defensive"])
    rec = play_match_records(rules, s3, 5, 100, 10)
    for i in range(10):
        assert as_dict(rec[i], 3) == reference_match(rules, s3, 5, 100 + i)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_match_ends_exactly_when_the_target_is_reached(preset):
    rules = resolve([preset])
    target, scoring = rules["target_score"], rules["scoring"]
    rec = play_match_records(rules, seats(), 3, 0, 40)
    for m, row in enumerate(rec):
        d = as_dict(row, 4)
        assert d["capped"] == 0 and d["winner"] >= 0
        top = max(d["score"])
        assert top > target if scoring == "game101" else top >= target
        # the same match stopped one round earlier has not reached the target yet
        if d["rounds"] > 1:
            early = as_dict(play_match_records(rules, seats(), 3, m, 1,
                                               max_rounds=d["rounds"] - 1)[0], 4)
            assert early["capped"] == 1 and early["winner"] == -1
            assert early["rounds"] == d["rounds"] - 1
            top = max(early["score"])
            assert top <= target if scoring == "game101" else top < target


@pytest.mark.parametrize("preset", PRESETS)
def test_scores_add_up_and_the_right_player_wins(preset):
    rules = resolve([preset])
    scoring = rules["scoring"]
    rec = play_match_records(rules, seats(), 4, 0, 200, chunks=4)
    for row in rec:
        d = as_dict(row, 4)
        assert sum(d["round_wins"]) + d["capped_rounds"] == d["rounds"]
        assert sum(d["round_losses"]) == sum(d["round_wins"])
        w = d["winner"]
        if scoring == "winner_takes":
            assert d["score"][w] == max(d["score"]) >= rules["target_score"]
            assert all(s < rules["target_score"] for p, s in enumerate(d["score"]) if p != w)
        elif scoring == "lazy":
            assert d["score"] == d["round_wins"]
            assert d["score"][w] == rules["target_score"]
        else:
            assert d["score"][w] == min(d["score"])
            assert int(row[M.M_LOSER]) == int(np.argmax(d["score"]))
            assert row[M.M_TIED] == (d["score"].count(min(d["score"])) > 1)


def test_the_first_round_of_match_m_is_game_m():
    rules = resolve()
    games = play_records(rules, seats(), 9, 30, 5)
    first = play_match_records(rules, seats(), 9, 30, 5, max_rounds=1)
    for g, row in zip(games, first, strict=True):
        assert row[M.M_TURNS] == g[L.G_TURNS]
        assert row[M.M_ROUND_WINS + g[L.G_WINNER]] == 1
        assert row[M.M_CAPPED] == 1  # one round never reaches 500


def test_capped_matches_are_counted():
    rules = resolve()
    res = run_matches(rules, seats(), 50, seed=1, workers=1, max_rounds=2)
    assert res.agg.capped == 50 and res.agg.wins.sum() == 0
    assert res.agg.sums["rounds"] == 100


def test_totals_equal_the_records_and_do_not_depend_on_threads_or_batches():
    rules = resolve(["losers-score"])
    recs = []
    a = run_matches(rules, seats(), 300, seed=2, workers=1, batch=300,
                    on_records=lambda first, r: recs.append(r.copy()))
    b = run_matches(rules, seats(), 300, seed=2, workers=2, batch=64)
    rec = np.concatenate(recs)
    for agg in (a.agg, b.agg):
        assert agg.games == 300
        assert np.array_equal(agg.wins[:4], np.bincount(rec[:, M.M_WINNER], minlength=4))
        for m, v in match_values(rec, 4).items():
            assert agg.sums[m] == int(v.sum()) and agg.sumsq[m] == int((v * v).sum())
        assert agg.tied == int(rec[:, M.M_TIED].sum())
    half = MatchAggregate(players=4)
    half.add_records(rec[:100])
    rest = MatchAggregate(players=4)
    rest.add_records(rec[100:])
    merged = half.merge(rest)
    assert merged.sums == a.agg.sums and np.array_equal(merged.wins, a.agg.wins)


def test_matches_that_cannot_end_are_refused():
    with pytest.raises(UnosimError, match="lazy"):
        run_matches(resolve([], [("scoring", "lazy")]), seats(), 1, seed=0)
    with pytest.raises(UnosimError, match="max-rounds"):
        run_matches(resolve(), seats(), 1, seed=0, max_rounds=0)


# ---------------------------------------------------------------- command line


def invoke(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    return (exc.value.code or 0), out, err


@pytest.mark.parametrize("preset", PRESETS)
def test_run_mode_match_for_every_scoring(capsys, preset):
    code, out, err = invoke(capsys, ["run", "--mode", "match", "--variant", preset, "--games",
                                     "200", "--seed", "1", "--format", "json"])
    assert code == 0, err
    s = json.loads(out)
    assert s["mode"] == "match" and s["matches"] == 200
    assert s["scoring"] == resolve([preset])["scoring"]
    assert sum(s["player_wins"]) + s["capped"] == 200
    for (lo, hi), rate in zip(s["player_win_rate_ci95"], s["player_win_rate"], strict=True):
        assert lo <= rate <= hi
    assert s["rounds_mean"] >= 1


def test_run_mode_match_table_target_and_files(capsys, tmp_path):
    code, out, err = invoke(capsys, ["run", "--mode", "match", "--target-score", "100",
                                     "--games", "120", "--seed", "2", "--seat", "1=defensive",
                                     "--out", str(tmp_path / "o"), "--report", "--save-games",
                                     str(tmp_path / "m.parquet")])
    assert code == 0, err
    assert "Match win rate by player" in out and "first to 100 wins" in out
    assert "Matches won by strategy" in out
    written = {p.name for p in (tmp_path / "o").iterdir()}
    assert {"summary.json", "summary.csv", "report.html", "match_win_rates.png",
            "final_scores.svg"} <= written
    t = pq.read_table(tmp_path / "m.parquet")
    unused = {f"{b}_{p}" for b in ("score", "round_wins", "round_losses")
              for p in range(4, L.MAX_PLAYERS)}
    assert t.num_rows == 120 and t.column_names == ["game", *(f for f in MATCH_FIELDS
                                                              if f not in unused)]
    assert max(t.column("score_0").to_pylist() + t.column("score_1").to_pylist()
               + t.column("score_2").to_pylist() + t.column("score_3").to_pylist()) >= 100


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--target-score", "100"], "--mode match"),
        (["--mode", "match", "--target-score", "0"], "--target-score"),
        (["--mode", "match", "--max-rounds", "0"], "--max-rounds"),
        (["--max-rounds", "5"], "--mode match"),
        (["--mode", "tournament"], "--mode"),
        (["--mode", "match", "--rule", "scoring=lazy"], "lazy"),
        (["--report"], "--out"),
    ],
)
def test_bad_match_options_are_one_line_errors(capsys, argv, needle):
    code, out, err = invoke(capsys, ["run", "--games", "10", *argv])
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("unosim: error: ")
    assert needle in err
