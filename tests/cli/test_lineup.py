"""Any lineup from the command line: `tournament STRATEGY... --field F` (each strategy
against a field), the same strategy listed several times, `--format json` in the
order given with each entrant's rank, `skill --field F`, and their bad input."""

from __future__ import annotations

import json

import pytest
from cli_helpers import assert_one_line_error, invoke

QUIET = ["--seed", "5", "--workers", "1", "--no-progress"]


def _json(capsys, argv):
    code, out, err = invoke(capsys, [*argv, *QUIET, "--format", "json"])
    assert code == 0, err
    return json.loads(out)


def test_one_against_five_random_players(capsys):
    argv = ["tournament", "attacker", "--field", "random", "--players", "6", "--games", "1200"]
    s = _json(capsys, argv)
    assert (s["strategies"], s["field"], s["games_per_lineup"]) == (["attacker"], "random", 200)
    assert s["lineups"] == [["attacker" if i == seat else "field: random" for i in range(6)]
                            for seat in range(6)]
    a, f = s["results"]
    assert (a["strategy"], a["role"], a["fair_share"]) == ("attacker", "listed",
                                                           pytest.approx(1 / 6))
    assert (f["strategy"], f["role"], f["fair_share"]) == ("field: random", "field",
                                                           pytest.approx(5 / 6))
    assert a["seat_counts"] == [200] * 6 and s["seat_rotation_exact"]
    code, out, err = invoke(capsys, [*argv, *QUIET])
    assert code == 0, err
    assert "the strategy in one seat against the field (random) in the other 5" in out
    assert "field: random" in out and "(fair: 1/6)" in out


def test_several_strategies_each_against_the_field(capsys):
    s = _json(capsys, ["tournament", "offensive", "defensive", "--field", "attacker",
                       "--players", "3", "--games", "1200"])
    assert [r["strategy"] for r in s["results"]] == ["offensive", "defensive",
                                                     "field: attacker"]
    assert len(s["lineups"]) == 6 and s["games_per_lineup"] == 200
    assert [r["games"] for r in s["results"]] == [600, 600, 1200]
    assert sorted(r["rank"] for r in s["results"]) == [1, 2, 3]


def test_the_same_strategy_in_several_seats(capsys):
    s = _json(capsys, ["tournament", "random", "random", "random", "attacker",
                       "--games", "800"])
    names = ["random", "random#2", "random#3", "attacker"]
    assert s["strategies"] == names and [r["strategy"] for r in s["results"]] == names
    assert s["field"] is None and {r["role"] for r in s["results"]} == {"listed"}
    assert s["lineups"][1] == ["random#2", "random#3", "attacker", "random"]
    assert set(s["head_to_head"]["random#3"]) == {"random", "random#2", "attacker"}
    # two spellings of one strategy are two entrants too
    s = _json(capsys, ["tournament", "weighted", "weighted:wild=-3", "--players", "2",
                       "--games", "400"])
    assert s["strategies"] == ["weighted", "weighted:wild=-3"]


def test_json_lists_the_order_given_and_the_table_the_ranking(capsys):
    argv = ["tournament", "random", "first", "offensive", "attacker", "--games", "2000"]
    s = _json(capsys, argv)
    rows = s["results"]
    assert [r["strategy"] for r in rows] == ["random", "first", "offensive", "attacker"]
    ranked = sorted(rows, key=lambda r: r["rank"])
    assert [r["rank"] for r in ranked] == [1, 2, 3, 4]
    ratios = [r["win_rate_vs_fair"] for r in ranked]
    assert ratios == sorted(ratios, reverse=True)
    code, out, err = invoke(capsys, [*argv, *QUIET])
    assert code == 0, err
    table = [line.split()[:2] for line in out.splitlines()
             if line[:1].isdigit() and "%" in line]
    assert table == [[str(r["rank"]), r["strategy"]] for r in ranked]


@pytest.mark.parametrize("argv, needles", [
    (["tournament", "random", "--field", "nope"], ["--field nope", "unknown strategy"]),
    (["tournament", "random", "--field", "random:forget=3"], ["--field random:forget=3",
                                                             "forget"]),
    (["tournament", "random", "attacker", "--field", "random", "--seating", "permutations"],
     ["--seating permutations does not apply with --field"]),
    (["tournament", "attacker"], ["at least two strategies", "--field STRATEGY"]),
    (["tournament", "attacker", "--field"], ["--field"]),
    (["skill", "official", "--strategy", "offensive", "--field", "nope"],
     ["--field nope", "unknown strategy"]),
])
def test_bad_lineups_are_one_line_exit_2(capsys, argv, needles):
    # no --seed: the error comes before a seed would be drawn and announced
    code, out, err = invoke(capsys, argv)
    assert_one_line_error(code, out, err, *needles)


def test_help_says_what_the_field_and_the_win_rate_are(capsys):
    code, out, _ = invoke(capsys, ["tournament", "--help"])
    assert code == 0
    flat = " ".join(out.split())
    assert "--field STRATEGY" in flat and "one against five" in flat
    assert "its fair share is the share of the seats it holds, 1/players" in flat
    code, out, _ = invoke(capsys, ["skill", "--help"])
    flat = " ".join(out.split())
    assert "--field STRATEGY" in flat and "measured against the field" in flat
