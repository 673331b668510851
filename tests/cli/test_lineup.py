"""Any lineup from the command line: the same strategy listed several times, and
`--format json` in the order given with each entrant's rank."""

from __future__ import annotations

import json

from cli_helpers import invoke

QUIET = ["--seed", "5", "--workers", "1", "--no-progress"]


def _json(capsys, argv):
    code, out, err = invoke(capsys, [*argv, *QUIET, "--format", "json"])
    assert code == 0, err
    return json.loads(out)


def test_the_same_strategy_in_several_seats(capsys):
    s = _json(capsys, ["tournament", "random", "random", "random", "attacker",
                       "--games", "800"])
    names = ["random", "random#2", "random#3", "attacker"]
    assert s["strategies"] == names and [r["strategy"] for r in s["results"]] == names
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
