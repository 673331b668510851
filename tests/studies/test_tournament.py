"""Tournaments: exact seat rotation, reproducibility, the figures, and the
strategy effects the sources describe (the built-ins of docs/strategies.md)."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import pytest

from unosim.cli import main
from unosim.errors import UnosimError
from unosim.simulate.rules import resolve
from unosim.strategies.registry import BUILTINS, parse_strategy
from unosim.studies.lineups.tournament import lineups, run_tournament
from unosim.studies.lineups.tournament_summary import (
    entrant_labels,
    render_tournament,
    summarize_tournament,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "strategies" / "examples" / "plugins.py"
TIMING = ("elapsed_s", "workers")


def strats(*names):
    return [parse_strategy(n) for n in names]


@pytest.mark.parametrize("seating", ["rotations", "permutations"])
@pytest.mark.parametrize("k,n", [(4, 4), (6, 4), (3, 2), (5, 2), (2, 4), (3, 4), (5, 3), (2, 2),
                                 (3, 6)])
def test_every_strategy_plays_every_seat_equally_often(k, n, seating):
    table = lineups(k, n, seating)
    seat_counts = Counter((s, seat) for lu in table for seat, s in enumerate(lu))
    for s in range(k):
        counts = {seat_counts[(s, seat)] for seat in range(n)}
        assert len(counts) == 1 and counts != {0}, (s, counts)
    # and every strategy the same number of seats in all: equal fair shares
    assert len({seat_counts[(s, 0)] for s in range(k)}) == 1
    if k >= n:
        # every pair of strategies meets equally often, every lineup seats n different ones
        pairs = Counter(frozenset(p) for lu in table for p in itertools.combinations(lu, 2))
        assert len(set(pairs.values())) == 1
        assert len(pairs) == k * (k - 1) // 2
        assert all(len(set(lu)) == n for lu in table)


def test_k_equal_n_is_the_cyclic_rotations():
    assert lineups(4, 4) == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    assert len(lineups(4, 4, "permutations")) == 24
    # two-player tables: every pair in both seat orders
    assert sorted(lineups(3, 2)) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]


def test_fewer_strategies_than_seats_take_turns_at_the_extra_seat():
    """3 strategies at 4 seats: A B C A, then B C A B, then C A B C, each rotated, so no
    strategy holds two seats in every lineup; a multiple (2 at 4) needs one cycle."""
    assert lineups(3, 4) == [(0, 1, 2, 0), (1, 2, 0, 0), (2, 0, 0, 1), (0, 0, 1, 2),
                             (1, 2, 0, 1), (2, 0, 1, 1), (0, 1, 1, 2), (1, 1, 2, 0),
                             (2, 0, 1, 2), (0, 1, 2, 2), (1, 2, 2, 0), (2, 2, 0, 1)]
    assert lineups(2, 4) == [(0, 1, 0, 1), (1, 0, 1, 0), (0, 1, 0, 1), (1, 0, 1, 0)]
    doubled = Counter(next(x for x in set(lu) if lu.count(x) == 2) for lu in lineups(3, 4))
    assert doubled == {0: 4, 1: 4, 2: 4}
    assert len(lineups(2, 3, "permutations")) == 6  # A A B and A B B, 3 orders each


def test_three_strategies_at_four_players_have_equal_fair_shares():
    r = run_tournament(resolve(), strats("offensive", "defensive", "attacker"), 1200,
                       seed=3, workers=1)
    s = summarize_tournament(r)
    assert len(r.lineups) == 12 and s["games_per_lineup"] == 100 and s["seat_rotation_exact"]
    for row in s["results"]:
        assert row["games"] == 1200 and row["seat_counts"] == [400] * 4
        assert row["fair_share"] == pytest.approx(1 / 3)
    assert sum(row["wins"] for row in s["results"]) + s["capped"] == 1200
    assert "from each in turn, so each holds the extra seats equally often" in s["seating_note"]


def test_too_many_lineups_and_bad_input_are_errors():
    with pytest.raises(UnosimError, match="--field"):
        lineups(1, 4)
    with pytest.raises(UnosimError):
        lineups(9, 9, "permutations")
    with pytest.raises(UnosimError, match="141,120 lineups"):
        lineups(7, 8, "permutations")
    with pytest.raises(UnosimError, match="at least one"):
        lineups(0, 4, field=True)
    with pytest.raises(UnosimError, match="--seating permutations does not apply"):
        lineups(2, 4, "permutations", field=True)


# ---------------------------------------------------------------- a field, duplicates


def test_a_field_lineup_seats_each_strategy_once_in_every_seat():
    # index k (here 2) is the field: strategy 0 in seats 0, 1, 2, then strategy 1
    assert lineups(2, 3, field=True) == [(0, 2, 2), (2, 0, 2), (2, 2, 0),
                                         (1, 2, 2), (2, 1, 2), (2, 2, 1)]
    assert lineups(1, 2, field=True) == [(0, 1), (1, 0)]
    # one against five
    table = lineups(1, 6, field=True)
    assert len(table) == 6
    for seat, lu in enumerate(table):
        assert lu[seat] == 0 and lu.count(1) == 5


def test_one_against_a_field_reports_both_with_their_fair_shares():
    rules = resolve([], [("players", 6)])
    r = run_tournament(rules, strats("attacker"), 1200, seed=4, workers=1,
                       field=parse_strategy("random"))
    s = summarize_tournament(r)
    assert s["strategies"] == ["attacker"] and s["field"] == "random"
    assert s["games"] == 1200 and s["games_per_lineup"] == 200 and s["seat_rotation_exact"]
    assert s["lineups"][2] == ["field: random"] * 2 + ["attacker"] + ["field: random"] * 3
    a, f = s["results"]
    assert (a["strategy"], a["role"], f["strategy"], f["role"]) == (
        "attacker", "listed", "field: random", "field")
    # win rate: the share of the rounds it played that it won; fair share 1/players
    assert a["games"] == f["games"] == 1200
    assert a["win_rate"] == a["wins"] / 1200 and a["fair_share"] == pytest.approx(1 / 6)
    assert a["seat_counts"] == [200] * 6
    assert f["fair_share"] == pytest.approx(5 / 6) and f["seat_counts"] == [1000] * 6
    # every round is won by the strategy, by the field, or by nobody (capped)
    assert a["wins"] + f["wins"] + s["capped"] == 1200
    assert sorted([a["rank"], f["rank"]]) == [1, 2]
    text = render_tournament(s)
    assert "field: random" in text and "the share of its rounds a strategy won (fair: 1/6)" in text


def test_strategies_against_a_field_play_the_same_deals():
    # each listed strategy gets its own rotation on deals 0 .. m-1: alone or with others
    # against the field, its figures are the same
    rules, field = resolve([], [("players", 3)]), parse_strategy("random")
    both = run_tournament(rules, strats("offensive", "attacker"), 2 * 3 * 150, seed=8,
                          workers=1, field=field)
    alone = run_tournament(rules, strats("attacker"), 3 * 150, seed=8, workers=1, field=field)
    rows = {r["strategy"]: r for r in summarize_tournament(both)["results"]}
    solo = {r["strategy"]: r for r in summarize_tournament(alone)["results"]}
    for key in ("games", "wins", "seat_counts", "points_won_mean", "place_mean"):
        assert rows["attacker"][key] == solo["attacker"][key], key
    assert rows["field: random"]["games"] == 2 * 3 * 150
    # the two listed strategies never share a table
    h = summarize_tournament(both)["head_to_head"]
    assert set(h["offensive"]) == {"field: random"} and set(h["attacker"]) == {"field: random"}


def test_the_same_strategy_listed_again_is_its_own_entrant():
    assert entrant_labels(strats("random", "attacker", "random", "random")) == [
        "random", "attacker", "random#2", "random#3"]
    assert entrant_labels(strats("random"), parse_strategy("random")) == [
        "random", "field: random"]
    s = summarize_tournament(run_tournament(resolve(), strats("random", "random", "random",
                                                               "attacker"), 800, seed=6,
                                            workers=1))
    names = ["random", "random#2", "random#3", "attacker"]
    assert s["strategies"] == names and [r["strategy"] for r in s["results"]] == names
    assert s["seat_rotation_exact"] and all(r["seat_counts"] == [200] * 4
                                            for r in s["results"])
    assert set(s["head_to_head"]["random"]) == {"random#2", "random#3", "attacker"}
    # fewer entrants than seats: each holds two seats (A B A B)
    s = summarize_tournament(run_tournament(resolve(), strats("offensive", "offensive"), 400,
                                            seed=6, workers=1))
    assert [r["strategy"] for r in s["results"]] == ["offensive", "offensive#2"]
    assert all(r["fair_share"] == 0.5 for r in s["results"])


def test_results_are_in_the_order_given_with_their_rank():
    s = summarize_tournament(run_tournament(resolve([], [("players", 3)]),
                                            strats("random", "offensive", "attacker"), 1500,
                                            seed=2, workers=1))
    rows = s["results"]
    assert [r["strategy"] for r in rows] == ["random", "offensive", "attacker"]
    ranked = sorted(rows, key=lambda r: (-r["win_rate_vs_fair"], r["place_mean"],
                                         r["strategy"]))
    assert [r["rank"] for r in ranked] == [1, 2, 3]
    # the table lists them by rank
    text = render_tournament(s).splitlines()
    first = [line.split()[:2] for line in text if line[:1] in "123" and "%" in line]
    assert first == [[str(r["rank"]), r["strategy"]] for r in ranked]


def test_all_builtins_at_four_players_rotate_exactly():
    # the rule-based built-ins: search is as slow as its rollouts and has its own
    # tournament test (tests/strategies/test_search.py)
    names = [n for n in BUILTINS if n != "search"]
    k = len(names)  # 6 built-ins made 15 sets of 4, 60 lineups, 20 games each
    sets = math.comb(k, 4)
    per = -(-1200 // (4 * sets))
    r = run_tournament(resolve(), strats(*names), 1200, seed=5, workers=1)
    s = summarize_tournament(r)
    assert s["seat_rotation_exact"]
    assert len(r.lineups) == sets * 4 and s["games"] == sets * 4 * per
    for row in s["results"]:
        # C(k-1,3) sets hold each strategy, 4 rotations, one seat each: C(k-1,3) x per
        assert row["seat_counts"] == [math.comb(k - 1, 3) * per] * 4
        assert row["games"] == math.comb(k - 1, 3) * 4 * per
        assert row["fair_share"] == pytest.approx(0.25)
    assert sorted(row["rank"] for row in s["results"]) == list(range(1, k + 1))
    # net points are zero-sum under winner_takes; head to head is complementary
    assert sum(row["net_points_mean"] for row in s["results"]) == pytest.approx(0, abs=1e-9)
    h = s["head_to_head"]
    for a, b in itertools.permutations(names, 2):
        assert h[a][b]["ahead"] + h[b][a]["ahead"] == pytest.approx(1.0)
    text = render_tournament(s)
    assert "seat rotation exact: yes" in text and "Head to head" in text


def test_same_seed_same_numbers_on_any_number_of_workers():
    args = (resolve(), strats("offensive", "defensive", "attacker"), 3000)
    a = summarize_tournament(run_tournament(*args, seed=9, workers=1))
    b = summarize_tournament(run_tournament(*args, seed=9, workers=2))
    c = summarize_tournament(run_tournament(*args, seed=10, workers=2))
    for k in TIMING:
        a.pop(k), b.pop(k), c.pop(k)
    assert a == b
    assert a != c


def test_two_player_head_to_head_is_the_pairwise_win_rate():
    r = run_tournament(resolve([], [("players", 2)]),
                       strats("offensive", "colour-keeper"), 4000, seed=3, workers=1)
    s = summarize_tournament(r)
    by = {row["strategy"]: row for row in s["results"]}
    h = s["head_to_head"]
    assert h["offensive"]["colour-keeper"]["ahead"] == pytest.approx(
        by["offensive"]["wins"] / by["offensive"]["games"])
    assert by["offensive"]["place_mean"] == pytest.approx(2 - by["offensive"]["win_rate"])


def test_mean_place_under_elimination():
    rules = resolve(["elimination"], [("players", 3)])
    s = summarize_tournament(run_tournament(rules, strats("random", "offensive", "defensive"),
                                            900, seed=2, workers=1))
    assert s["place_kind"] == "place"
    assert sum(row["place_mean"] for row in s["results"]) == pytest.approx(6.0)


# ------------------------------------------------------- effects (docs/strategies.md)


def test_holding_wilds_beats_uniform_random_play_at_four_players():
    """20,000 games; the lower end of offensive's 95% Wilson interval must pass 50%, so
    its rate must exceed 50.7%. It is about 54% (se 0.35 points), 9.4 se above that: the
    correct engine fails about once in 10^20. A bug that shrinks the edge to 0.4 points
    or less fails with 80% power (no edge at all: 97.5%). 4,000 games would still keep
    the false alarm under 1e-3."""
    # two seats each, A B A B rotated: offensive's fair share of wins is 50%
    s = summarize_tournament(run_tournament(resolve(), strats("offensive", "random"), 20_000,
                                            seed=2026))
    off = next(r for r in s["results"] if r["strategy"] == "offensive")
    assert off["win_rate_ci95"][0] > 0.5  # about 54% with 1e6 games
    assert off["rank"] == 1


def test_dumping_high_cards_wins_more_points_per_round_in_two_player_scored_games():
    """40,000 heads-up games. Net points: the 95% interval must lie above 0 (se about
    0.30 points a round, sd about 59), so the estimate must pass 0.58; defensive nets
    about +3.3, 9 se beyond (no seed fails it), and an edge of 0.33 points or less fails
    with 80% power. Win rate: defensive wins about 46.5% (se 0.25 points), 14 se under
    1/2. About 8,300 games would keep the false alarm under 1e-3."""
    rules = resolve([], [("players", 2)])
    s = summarize_tournament(run_tournament(rules, strats("defensive", "offensive"), 40_000,
                                            seed=2026))
    d = next(r for r in s["results"] if r["strategy"] == "defensive")
    # defensive wins fewer rounds but leaves fewer points in its hand: it nets
    # more points per round (about +3.3 with 1e6 games)
    assert d["net_points_ci95"][0] > 0
    assert d["win_rate"] < 0.5


# ---------------------------------------------------------------- command line


def invoke(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    return exc.value.code or 0, out, err


def test_cli_tournament_json_and_table(capsys):
    argv = ["tournament", "offensive", "defensive:bluff=0.2", "--players", "2", "--games",
            "2000", "--seed", "4", "--workers", "1"]
    code, out, err = invoke(capsys, [*argv, "--format", "json"])
    assert code == 0, err
    s = json.loads(out)
    assert s["strategies"] == ["offensive", "defensive:bluff=0.2"]
    assert s["games"] == 2000 and s["seat_rotation_exact"]
    assert {"win_rate", "win_rate_ci95", "points_won_mean", "net_points_mean", "place_mean",
            "rank"} <= set(s["results"][0])
    code, out, err = invoke(capsys, argv)
    assert code == 0 and "win rate" in out and "Head to head" in out


@pytest.mark.parametrize("argv,words", [
    (["tournament", "random"], ["at least two"]),
    (["tournament", "random", "nope"], ["unknown strategy"]),
    (["tournament", "random", "first", "--games", "1e6.5"], ["--games"]),
])
def test_cli_tournament_bad_input(capsys, argv, words):
    code, out, err = invoke(capsys, [*argv, "--seed", "1"])
    assert code == 2 and err.count("\n") == 1
    for w in words:
        assert w in err


@pytest.mark.compile
def test_cli_tournament_with_a_plugin(capsys):
    code, out, err = invoke(capsys, [
        "tournament", "hybrid", "random", "--players", "2", "--games", "600", "--seed", "1",
        "--strategy-file", f"{EXAMPLES}:hybrid", "--format", "json", "--workers", "1"])
    assert code == 0, err
    assert json.loads(out)["seat_rotation_exact"]
