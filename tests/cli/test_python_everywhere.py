"""A Python strategy of a dozen lines is named like a built-in in every command that
plays games: run, --seat, compare, tournament (one against five), skill against a
field, a settle claim file, sweep, atlas, replay and tune."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import invoke

FIRST = Path(__file__).resolve().parents[2] / "strategies" / "examples" / "first.py"
LOAD = ["--strategy-file", f"{FIRST}:keep_wilds"]


def _ok(capsys, argv):
    code, out, err = invoke(capsys, argv)
    assert code == 0, err
    return out


def test_the_example_is_at_most_fifteen_lines():
    body = FIRST.read_text().split("def keep_wilds", 1)[1]
    assert len(body.strip().splitlines()) + 1 <= 15


def test_run_and_seat(capsys):
    out = _ok(capsys, ["run", *LOAD, "--seat", "1=keep_wilds", "--games", "400", "--seed",
                       "2", "--format", "json", "--no-progress"])
    d = json.loads(out)
    assert "keep_wilds" in str(d["strategies"]) and sum(d["seat_wins"]) == 400


def test_compare(capsys):
    out = _ok(capsys, ["compare", "official", "stacking", *LOAD, "--seat", "0=keep_wilds",
                       "--games", "300", "--seed", "2", "--no-progress"])
    assert "stacking" in out


def test_tournament_one_against_five(capsys):
    out = _ok(capsys, ["tournament", "keep_wilds", "--field", "random", "--players", "6",
                       *LOAD, "--games", "600", "--seed", "2", "--format", "json",
                       "--no-progress"])
    d = json.loads(out)
    names = [r["strategy"] for r in d["results"]] if "results" in d else json.dumps(d)
    assert "keep_wilds" in str(names)


def test_skill_against_a_field(capsys):
    out = _ok(capsys, ["skill", "official", "--strategy", "keep_wilds", "--field",
                       "attacker", *LOAD, "--games", "300", "--seed", "2", "--no-progress"])
    assert "keep_wilds" in out and "attacker" in out


def test_settle_a_claim_file(capsys, tmp_path):
    claim = tmp_path / "mine.toml"
    claim.write_text('claim = "Keeping the wilds beats random heads-up"\n'
                     'source = "a test"\nstudy = "tournament"\nmetric = "ahead"\n'
                     'direction = "higher"\nstrategies = ["keep_wilds", "random"]\n'
                     "players = 2\ngames = 2000\n")
    out = _ok(capsys, ["settle", str(claim), *LOAD, "--seed", "1", "--no-progress"])
    assert "TRUE" in out and "--strategy-file" in out


def test_sweep(capsys):
    out = _ok(capsys, ["sweep", "--rule", "hand_size=5,7", *LOAD, "--seat", "0=keep_wilds",
                       "--games", "200", "--seed", "2", "--no-progress"])
    assert "hand_size" in out


def test_replay(capsys):
    out = _ok(capsys, ["replay", *LOAD, "--seat", "0=keep_wilds", "--seed", "3", "--game",
                       "1"])
    assert "wins" in out


def test_tune_a_declared_parameter(capsys, tmp_path):
    pytest.importorskip("optuna")
    counting = FIRST.with_name("counting.py")
    out = _ok(capsys, ["tune", "ColourCounter", "--strategy-file",
                       f"{counting}:ColourCounter", "--trials", "3", "--games-per-trial",
                       "90", "--seed", "1", "--storage", f"sqlite:///{tmp_path}/t.db"])
    assert "ColourCounter:weight=" in out


def test_atlas(capsys):
    out = _ok(capsys, ["atlas", "--strategy", "keep_wilds", *LOAD, "--players", "2",
                       "--games", "100", "--seed", "1", "--no-progress"])
    assert "zero-fifty" in out
