"""``unosim sweep`` and ``unosim atlas``: grids of rule values, refused points, the same
seed everywhere, effects against official, and the bad-input catalogue."""

from __future__ import annotations

import csv
import json

import pytest
from cli_helpers import assert_one_line_error, invoke

from unosim.errors import UnosimError
from unosim.runs.variants import VariantSpec
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy
from unosim.studies.grids.dimensions import Dim, parse_values, sweep_dims
from unosim.studies.grids.play import atlas_variants, grid, run_sweep


def _json(capsys, argv):
    code, out, err = invoke(capsys, [*argv, "--no-progress", "--format", "json"])
    assert code == 0, err
    return json.loads(out)


def test_values_as_ranges_lists_and_choices():
    assert parse_values("hand_size", "5..10") == [5, 6, 7, 8, 9, 10]
    assert parse_values("hand_size", "5,7,9") == [5, 7, 9]
    assert parse_values("seven_o", "true,false") == [True, False]
    assert parse_values("stacking", "none,progressive") == ["none", "progressive"]
    assert parse_values("players", "2..4") == [2, 3, 4]
    assert parse_values("uno_forget_prob", "0,0.5") == [0.0, 0.5]


@pytest.mark.parametrize("key, text, needle", [
    ("hand_size", "9..5", "reversed"),
    ("hand_size", "", "empty"),
    ("hand_size", "5,,6", "empty"),
    ("hand_size", "5..", "LO..HI"),
    ("hand_size", "0..3", "hand_size"),
    ("hand_size", "5,5", "twice"),
    ("stacking", "none,sometimes", "sometimes"),
    ("players", "2..11", "11"),
    ("players", "1,2", "'1'"),
    ("hand_sise", "5,6", "did you mean 'hand_size'"),
])
def test_bad_values_are_refused(key, text, needle):
    with pytest.raises(UnosimError, match=None) as e:
        parse_values(key, text)
    assert needle in str(e.value)


def test_one_value_is_a_fixed_rule_and_three_sweeps_are_too_many():
    dims, fixed = sweep_dims(("hand_size=5..6", "stacking=progressive"), "4")
    assert dims == [Dim("hand_size", (5, 6))] and fixed == {"stacking": "progressive",
                                                            "players": 4}
    with pytest.raises(UnosimError, match="at most two"):
        sweep_dims(("hand_size=5..6", "seven_o=true,false"), "2,4")
    with pytest.raises(UnosimError, match="nothing to sweep"):
        sweep_dims(("hand_size=5",), None)


def _spec(coords):
    n = coords.get("players", 4)
    rules = resolve([], [(k, v) for k, v in coords.items() if k != "players"] + [("players", n)])
    return VariantSpec(str(coords), rules, [parse_strategy("random")] * n)


def test_a_refused_point_is_listed_and_the_others_run():
    dims = [Dim("hand_size", (7, 15)), Dim("players", (2, 10))]
    points = grid(dims, _spec)
    refused = [p for p in points if p.refused]
    assert [p.coords for p in refused] == [{"hand_size": 15, "players": 10}]
    assert "deck" in refused[0].refused or "cards" in refused[0].refused
    with pytest.raises(UnosimError, match="every point"):
        grid([Dim("hand_size", (15, 20)), Dim("players", (10,) * 1)], _spec)


def test_every_point_plays_the_seed_of_a_plain_run(capsys):
    # a sweep point is exactly the run with those rules and the same seed
    s = _json(capsys, ["sweep", "--rule", "hand_size=5,7", "--games", "3000", "--seed", "4"])
    got = {r["hand_size"]: r["mean"] for r in s["rows"] if r["metric"] == "turns"}
    for hs in (5, 7):
        run = _json(capsys, ["run", "--rule", f"hand_size={hs}", "--games", "3000", "--seed",
                             "4"])
        assert got[hs] == pytest.approx(run["turns_mean"], rel=0, abs=1e-12)


def test_workers_do_not_change_a_sweep():
    dims = [Dim("stacking", ("none", "progressive"))]
    a = run_sweep(grid(dims, _spec), dims, 4000, 3, workers=1)
    b = run_sweep(grid(dims, _spec), dims, 4000, 3, workers=2)
    assert a.stats == b.stats


def test_sweep_files_have_a_row_per_point_and_metric(capsys, tmp_path):
    code, out, err = invoke(capsys, ["sweep", "--rule", "hand_size=7,15", "--players", "2,10",
                                     "--games", "1000", "--seed", "1", "--no-progress",
                                     "--out", str(tmp_path)])
    assert code == 0, err
    assert "refused by the rules and not played: 1 of 4 points" in out
    assert "hand_size=15, players=10" in out
    rows = list(csv.DictReader((tmp_path / "sweep.csv").open()))
    assert {"hand_size", "players", "metric", "mean", "ci_low", "ci_high"} <= set(rows[0])
    played = {(r["hand_size"], r["players"]) for r in rows if not r["refused"]}
    assert played == {("7", "2"), ("7", "10"), ("15", "2")}
    for point in played:
        metrics = {r["metric"] for r in rows if (r["hand_size"], r["players"]) == point}
        assert {"turns", "seat_win_0", "seat_balance", "winner_points", "cards_drawn",
                "capped"} <= metrics
    s = json.loads((tmp_path / "sweep.json").read_text())
    assert s["points_refused"][0]["point"] == {"hand_size": 15, "players": 10}
    for name in ("sweep_turns", "sweep_seat_win_0"):
        assert (tmp_path / f"{name}.png").stat().st_size > 1000
        assert (tmp_path / f"{name}.svg").exists()
    assert (tmp_path / "sweep.html").exists()


@pytest.mark.parametrize("argv, needles", [
    (["sweep", "--rule", "hand_sise=5..7"], ["hand_sise", "did you mean 'hand_size'"]),
    (["sweep", "--rule", "hand_size=9..5"], ["reversed"]),
    (["sweep", "--rule", "hand_size=0..3"], ["hand_size"]),
    (["sweep", "--rule", "hand_size=5..7", "--players", "2..11"], ["11"]),
    (["sweep", "--rule", "hand_size=5..7", "--rule", "seven_o=true,false", "--players",
      "2,4"], ["at most two"]),
    (["sweep", "--rule", "hand_size=15..20", "--players", "10"], ["every point"]),
    (["sweep", "--rule", "hand_size=7"], ["nothing to sweep"]),
    (["sweep", "--rule", "players=2..4"], ["--players"]),
    (["sweep", "--rule", "hand_size=5,6", "--strategy", "ofensive"], ["'offensive'"]),
    (["sweep", "--rule", "hand_size=5,6", "--games", "0"], ["--games"]),
    (["sweep", "--rule", "hand_size=5,6", "--scheduler", "x:1"], ["--backend dask"]),
    (["atlas", "--players", "1"], ["player count"]),
    (["atlas", "--players", "6..2"], ["reversed"]),
    (["atlas", "--strategy", "ofensive"], ["'offensive'"]),
    (["atlas", "--games", "-1"], ["--games"]),
    (["atlas", "--workers", "99"], ["--workers"]),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, needles):
    code, out, err = invoke(capsys, argv)
    assert_one_line_error(code, out, err, *needles)


def test_atlas_lists_a_refused_preset_and_keeps_official_first():
    def make(name, n):
        if name == "seven-o":
            raise UnosimError("refused for the test")
        return VariantSpec(name, resolve([name], [("players", n)]),
                           [parse_strategy("random")] * n)

    specs, refused = atlas_variants(["stacking", "seven-o", "official"], 4, make)
    assert [s.name for s in specs] == ["official", "stacking"]
    assert refused == {"seven-o": "refused for the test"}


def test_atlas_effects_verdicts_and_files(capsys, tmp_path):
    """2,000 heads-up games a preset. Draw-until-playable makes rounds about 61% longer
    (21.7 turns on 35.9; se of the relative effect about 3.4 points at seed 3): the
    effect must pass 20%, which lies 12 se below it, and be significant (18 se); no
    seed fails them. A true effect of 23% passes the 20% bar with 80% power."""
    code, out, err = invoke(capsys, ["atlas", "--players", "2", "--games", "2000", "--seed",
                                     "3", "--no-progress", "--out", str(tmp_path)])
    assert code == 0, err
    assert "2 players" in out and "shortest rounds: " in out
    s = json.loads((tmp_path / "atlas.json").read_text())
    presets = {r["preset"] for r in s["rows"]}
    assert "official" not in presets and {"stacking", "seven-o", "jump-in"} <= presets
    by = {(r["preset"], r["metric"]): r for r in s["rows"]}
    # no-bluff changes nothing random players do (they never play an illegal Wild Draw
    # Four), and the deals are the same: its effect on round length is exactly 0
    assert by[("no-bluff", "turns")]["diff"] == 0.0
    assert by[("draw-until-playable", "turns")]["significant"] is True
    assert by[("draw-until-playable", "turns")]["effect"] > 20
    assert {m for (_, m) in by} >= {"turns", "seat_balance", "winner_points", "cards_drawn",
                                    "skill_edge"}
    assert (tmp_path / "atlas_2p.png").exists() and (tmp_path / "atlas.html").exists()
    assert (tmp_path / "atlas.csv").read_text().startswith("players,preset,metric")
