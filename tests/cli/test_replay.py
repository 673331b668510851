"""``unosim replay``: game K of the run with seed S, move by move, is exactly the
game the compiled batch played (its final record equals ``play_records``')."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import invoke

from unosim.runs.runner import play_records
from unosim.simulate.layout import GAME_FIELDS
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy
from unosim.studies.replay.play import replay
from unosim.studies.replay.text import render_replay

EXAMPLES = Path(__file__).resolve().parents[2] / "strategies" / "examples" / "plugins.py"

TABLES = [
    ([], [], ["random"] * 4),
    (["stacking"], [], ["random", "defensive:bluff=0.5", "offensive:challenge=1", "first"]),
    (["jump-in"], [("players", 5)], ["random"] * 5),
    (["seven-o"], [("players", 3)], ["offensive", "random", "defensive"]),
    (["elimination"], [("players", 6)], ["random"] * 6),
    (["uno-h2o"], [("uno_forget_prob", 0.5)], ["random", "colour-keeper", "attacker",
                                               "random"]),
    (["edition112"], [("players", 2)], ["random", "attacker:bluff=1"]),
    (["seven-rounds", "skip-deflect"], [], ["random"] * 4),
    ([], [("turn_cap", 10)], ["random"] * 4),  # every game capped
]


@pytest.mark.parametrize(("variant", "overrides", "seats"), TABLES,
                         ids=["+".join(t[0]) or str(t[1]) for t in TABLES])
def test_replay_ends_with_the_batch_record(variant, overrides, seats):
    rules = resolve(variant, overrides)
    table = [parse_strategy(s) for s in seats]
    rec = play_records(rules, table, seed=21, start=100, n=12, chunks=3)
    for i in range(12):
        r = replay(rules, table, seed=21, game=100 + i)
        expected = dict(zip(GAME_FIELDS, (int(x) for x in rec[i]), strict=True))
        assert r["result"] == expected, (variant, 100 + i)
        assert len(r["steps"]) >= r["result"]["turns"] > 0
        if r["result"]["capped"]:
            assert r["result"]["turns"] == rules["turn_cap"]
        else:
            assert r["final_hands"][r["result"]["winner"]] == [] or rules["elimination"]


def test_replay_shows_each_move_and_its_effect():
    rules = resolve(["stacking"])
    r = replay(rules, [parse_strategy("random")] * 4, seed=7, game=3)
    assert [len(h) for h in r["deal"]["hands"]] == [7, 7, 7, 7]
    first = r["steps"][0]
    assert set(first) >= {"step", "turn", "seat", "phase", "top", "colour", "hand", "move",
                          "effects"}
    assert first["seat"] == r["deal"]["actor"] and first["hand"] == r["deal"]["hands"][
        first["seat"]]
    assert all(s["effects"] for s in r["steps"])
    assert "round over" in r["steps"][-1]["effects"][-1]
    text = render_replay(r, "stacking")
    assert text.splitlines()[0].startswith("unosim replay · variant stacking")
    assert "seed 7 · game 3" in text
    assert f"seat {r['result']['winner']} wins {r['result']['winner_points']} points" in text
    assert text.count(" -> ") == len(r["steps"])


def test_cli_replay_json_equals_play_records(capsys, tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('description = "mine"\n[rules]\nstacking = "progressive"\nhand_size = 5\n')
    argv = ["replay", "--seed", "5", "--game", "77", "--variant", str(f), "--players", "3",
            "--seat", "1=defensive", "--format", "json"]
    code, out, err = invoke(capsys, argv)
    assert code == 0, err
    r = json.loads(out)
    rules = resolve([str(f)], [("players", 3)])
    seats = [parse_strategy(s) for s in ("random", "defensive", "random")]
    rec = play_records(rules, seats, seed=5, start=77, n=1)[0]
    assert [r["result"][k] for k in GAME_FIELDS] == [int(x) for x in rec]
    assert r["strategies"] == ["random", "defensive", "random"]


def test_cli_replay_table_is_the_game_run_played(capsys):
    """The game `unosim run --save-games` lists is the one replay prints."""
    code, out, err = invoke(capsys, ["replay", "--seed", "3", "--game", "0"])
    assert code == 0, err
    assert "deal: top" in out and "   1. turn 1" in out
    rec = play_records(resolve(), [parse_strategy("random")] * 4, seed=3, start=0, n=1)[0]
    col = {k: i for i, k in enumerate(GAME_FIELDS)}
    if rec[col["capped"]]:
        assert "capped" in out
    else:
        assert f"seat {rec[col['winner']]} wins {rec[col['winner_points']]} points after " \
               f"{rec[col['turns']]} turns" in out


@pytest.mark.compile
def test_cli_replay_with_a_plugin(capsys):
    code, out, err = invoke(capsys, ["replay", "--seed", "1", "--game", "4", "--strategy-file",
                                     f"{EXAMPLES}:hybrid", "--seat", "0=hybrid",
                                     "--format", "json"])
    assert code == 0, err
    r = json.loads(out)
    seats = [parse_strategy("hybrid")] + [parse_strategy("random")] * 3
    rec = play_records(resolve(), seats, seed=1, start=4, n=1)[0]
    assert np.array_equal([r["result"][k] for k in GAME_FIELDS], rec)
