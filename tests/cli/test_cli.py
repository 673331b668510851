"""Command-line tests of ``unosim`` (unosim/cli.py).

Most tests call ``unosim.cli.main(argv)`` in-process (it always ends with
``sys.exit``); a few run the real program as a subprocess, both as
``python -m unosim`` and through the ``unosim`` console script. Game counts are
kept small so the whole file runs in seconds.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from cli_helpers import assert_one_line_error, invoke
from click.testing import CliRunner

from unosim.cli import cli

REPO = Path(__file__).resolve().parents[2]
CONFIGS = REPO / "configs"

# the keys the issue requires of `--format json`
REQUIRED_KEYS = [
    "variant", "rules", "players", "games", "seed", "strategies", "seat_win_rate",
    "seat_win_rate_ci95", "turns_mean", "turns_se", "turns_median", "cards_played_mean",
    "drawn_no_play_mean", "penalty_drawn_mean", "winner_points_mean", "winner_points_se",
    "reshuffles_mean", "capped", "games_per_sec", "elapsed_s",
]
# keys that legitimately differ between runs with the same seed
#: what depends on the machine, its load and its cache, not on the seed
TIMING_KEYS = ("games_per_sec", "elapsed_s", "compile_s", "compiled", "workers")

SMALL = ["--games", "2000"]


# ---------------------------------------------------------------- helpers


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    code, out, err = invoke(capsys, [*argv, "--format", "json"])
    assert code == 0, err
    assert "Traceback" not in out + err
    return json.loads(out)


def stats(summary: dict) -> dict:
    """A summary without its timing keys: what must be identical for one seed."""
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


def unosim_script() -> str:
    exe = shutil.which("unosim")
    if exe is None:
        pytest.skip("the unosim console script is not on PATH")
    return exe


def run_proc(argv: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=REPO)


def preset_files() -> dict[str, str]:
    """name -> description of every configs/*.toml."""
    found = {}
    for path in sorted(CONFIGS.glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        found[path.stem] = str(doc.get("description", ""))
    return found


# ---------------------------------------------------------------- run: output


def test_json_output_has_every_required_key(capsys):
    s = run_json(capsys, ["run", "--variant", "stacking", *SMALL, "--seed", "1"])
    missing = [k for k in REQUIRED_KEYS if k not in s]
    assert not missing
    assert s["variant"] == "stacking"
    assert s["games"] == 2000
    assert s["seed"] == 1
    assert s["players"] == 4
    assert s["rules"]["stacking"] == "progressive"
    assert s["strategies"] == ["random"] * 4
    assert len(s["seat_win_rate"]) == 4
    assert len(s["seat_win_rate_ci95"]) == 4
    for rate, (lo, hi) in zip(s["seat_win_rate"], s["seat_win_rate_ci95"], strict=True):
        assert 0 <= lo <= rate <= hi <= 1
    assert sum(s["seat_win_rate"]) + s["capped"] / s["games"] == pytest.approx(1.0)
    assert s["turns_mean"] > 0 and s["turns_se"] >= 0
    assert s["cards_played_mean"] > 0
    assert s["games_per_sec"] > 0 and s["elapsed_s"] >= 0


def test_default_subcommand_is_run(capsys):
    a = run_json(capsys, ["--variant", "stacking", *SMALL, "--seed", "7"])
    b = run_json(capsys, ["run", "--variant", "stacking", *SMALL, "--seed", "7"])
    assert stats(a) == stats(b)
    assert a["rules"]["stacking"] == "progressive"


def test_table_format_is_default(capsys):
    code, out, err = invoke(capsys, [*SMALL, "--seed", "3"])
    assert code == 0, err
    assert "2,000 games" in out
    assert "seed 3" in out
    assert "Seat win rate" in out
    assert "rules changed from official: none" in out
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


def test_seed_is_chosen_and_reported_when_missing(capsys):
    s = run_json(capsys, ["--games", "500"])
    assert isinstance(s["seed"], int) and s["seed"] >= 0


def test_players_option(capsys):
    s = run_json(capsys, [*SMALL, "--players", "6", "--seed", "2"])
    assert s["players"] == 6
    assert s["rules"]["players"] == 6
    assert len(s["seat_win_rate"]) == 6
    assert s["strategies"] == ["random"] * 6


# ---------------------------------------------------------------- run: --games


@pytest.mark.parametrize("spelling", ["1000", "1_000"])
def test_games_spellings_are_the_same_run(capsys, spelling):
    ref = run_json(capsys, ["--games", "1e3", "--seed", "11"])
    other = run_json(capsys, ["--games", spelling, "--seed", "11"])
    assert ref["games"] == 1000
    assert stats(other) == stats(ref)


def test_same_seed_same_statistics(capsys):
    a = run_json(capsys, [*SMALL, "--seed", "99"])
    b = run_json(capsys, [*SMALL, "--seed", "99"])
    c = run_json(capsys, [*SMALL, "--seed", "100"])
    assert stats(a) == stats(b)
    assert stats(a) != stats(c)


def test_workers_do_not_change_statistics(capsys):
    # more games than one batch (runner.DEFAULT_BATCH), so batching is covered too
    argv = ["--variant", "stacking", "--games", "1e5", "--seed", "5"]
    one = run_json(capsys, [*argv, "--workers", "1"])
    two = run_json(capsys, [*argv, "--workers", "2"])
    assert one["workers"] == 1 and two["workers"] == 2
    assert stats(one) == stats(two)


# ---------------------------------------------------------------- run: rules


def test_variants_compose_in_order(capsys):
    a = run_json(capsys, ["--variant", "draw-one-pass", "--variant", "draw-until-playable",
                          *SMALL, "--seed", "1"])
    b = run_json(capsys, ["--variant", "draw-until-playable", "--variant", "draw-one-pass",
                          *SMALL, "--seed", "1"])
    assert a["rules"]["draw_rule"] == "draw_until_playable"
    assert b["rules"]["draw_rule"] == "draw_one_pass"


def test_official_then_stacking_stacks(capsys):
    s = run_json(capsys, ["--variant", "official", "--variant", "stacking", *SMALL, "--seed", "1"])
    assert s["rules"]["stacking"] == "progressive"


def test_official_preset_changes_nothing(capsys):
    # docs/rules.md#presets: a preset sets only the keys it changes; `official` changes none,
    # so composing it after another preset keeps that preset's keys.
    s = run_json(capsys, ["--variant", "stacking", "--variant", "official", *SMALL, "--seed", "1"])
    assert s["rules"]["stacking"] == "progressive"


def test_rule_is_applied_after_variants(capsys):
    s = run_json(capsys, ["--rule", "stacking=none", "--variant", "stacking",
                          "--rule", "hand_size=5", *SMALL, "--seed", "1"])
    assert s["rules"]["stacking"] == "none"
    assert s["rules"]["hand_size"] == 5
    s = run_json(capsys, ["--variant", "stacking", "--rule", "scoring=losers_score",
                          *SMALL, "--seed", "1"])
    assert s["rules"]["stacking"] == "progressive"
    assert s["rules"]["scoring"] == "losers_score"


def test_repeated_rule_last_one_wins(capsys):
    s = run_json(capsys, ["--rule", "hand_size=5", "--rule", "hand_size=9", *SMALL,
                          "--seed", "1"])
    assert s["rules"]["hand_size"] == 9


# ---------------------------------------------------------------- run: strategies


def test_seat_sets_one_strategy(capsys):
    s = run_json(capsys, [*SMALL, "--seed", "1", "--seat", "1=offensive"])
    assert s["strategies"] == ["random", "offensive", "random", "random"]


def test_strategy_sets_every_seat_and_seat_overrides(capsys):
    s = run_json(capsys, [*SMALL, "--seed", "1", "--players", "3", "--strategy", "defensive",
                          "--seat", "0=first", "--seat", "2=offensive:bluff=0.3"])
    assert s["strategies"] == ["first", "defensive", "offensive:bluff=0.3"]


# ---------------------------------------------------------------- run: --out


def test_out_writes_summary_json_and_csv(capsys, tmp_path):
    out_dir = tmp_path / "new" / "results"
    code, out, err = invoke(capsys, [*SMALL, "--seed", "4", "--format", "json",
                                     "--out", str(out_dir)])
    assert code == 0, err
    printed = json.loads(out)
    assert sorted(p.name for p in out_dir.iterdir()) == ["summary.csv", "summary.json"]
    written = json.loads((out_dir / "summary.json").read_text(encoding="utf-8"))
    assert set(written) == set(printed)
    assert all(k in written for k in REQUIRED_KEYS)
    assert stats(written) == stats(printed)
    with (out_dir / "summary.csv").open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["key", "value"]
    table = dict(rows[1:])
    assert table["games"] == "2000"
    assert table["seed"] == "4"
    assert table["rule.stacking"] == "none"
    assert "seat_win_rate_0" in table


def test_out_with_table_format_still_writes_json(capsys, tmp_path):
    code, out, err = invoke(capsys, [*SMALL, "--seed", "4", "--out", str(tmp_path)])
    assert code == 0, err
    assert "Seat win rate" in out
    written = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert all(k in written for k in REQUIRED_KEYS)
    assert (tmp_path / "summary.csv").is_file()


# ---------------------------------------------------------------- bad input


BAD_INPUT = [
    (["--variant", "nope"], ["nope", "variant"]),
    (["--games", "0"], ["--games"]),
    (["--games", "-5"], ["--games"]),
    (["--games", "1e6.5"], ["--games", "1e6.5"]),
    (["--games", "abc"], ["--games", "abc"]),
    (["--games", "1e20"], ["--games", "1e20"]),
    (["--players", "1"], ["--players"]),
    (["--players", "11"], ["--players"]),
    (["--players", "four"], ["--players", "four"]),
    (["--rule", "no_such_key=1"], ["no_such_key"]),
    (["--rule", "stacking=maybe"], ["stacking", "maybe"]),
    (["--rule", "hand_size=many"], ["hand_size", "many"]),
    (["--rule", "players=12"], ["players"]),
    (["--rule", "stacking"], ["--rule"]),
    (["--strategy", "nope"], ["strategy", "nope"]),
    (["--strategy", "random:bluff=2"], ["bluff"]),
    (["--seat", "1=nope"], ["nope"]),
    (["--seat", "x"], ["--seat"]),
    (["--seat", "9=random"], ["--seat", "9"]),
    (["--seat", "a=random"], ["--seat"]),
    (["--workers", "1000"], ["--workers"]),
    (["--workers", "-1"], ["--workers"]),
    (["--format", "xml"], ["--format"]),
    (["--seed", "-1"], ["--seed"]),
    (["--no-such-option"], ["--no-such-option"]),
]


@pytest.mark.parametrize(("argv", "needles"), BAD_INPUT, ids=lambda v: " ".join(v))
def test_bad_input_is_one_line_exit_2(capsys, argv, needles):
    code, out, err = invoke(capsys, [*argv, "--games", "100"] if "--games" not in argv else argv)
    assert_one_line_error(code, out, err, *needles)


def test_bad_input_through_run_subcommand(capsys):
    code, out, err = invoke(capsys, ["run", "--variant", "nope", "--games", "100"])
    assert_one_line_error(code, out, err, "nope")


def test_workers_zero_is_refused(capsys):
    code, out, err = invoke(capsys, ["--games", "100", "--workers", "0"])
    assert_one_line_error(code, out, err, "--workers")


def test_workers_more_than_cores_is_refused(capsys):
    import numba

    too_many = numba.config.NUMBA_NUM_THREADS + 1
    code, out, err = invoke(capsys, ["--games", "100", "--workers", str(too_many)])
    assert_one_line_error(code, out, err, "--workers", str(too_many))


def test_out_under_a_regular_file_is_refused(capsys, tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x", encoding="utf-8")
    target = blocker / "sub"
    code, out, err = invoke(capsys, ["--games", "100", "--out", str(target)])
    assert_one_line_error(code, out, err, "--out", str(target))
    assert blocker.read_text(encoding="utf-8") == "x"


def test_rules_command_bad_variant_and_rule(capsys):
    code, out, err = invoke(capsys, ["rules", "nope"])
    assert_one_line_error(code, out, err, "nope")
    code, out, err = invoke(capsys, ["rules", "stacking", "--rule", "stacking=sideways"])
    assert_one_line_error(code, out, err, "stacking", "sideways")


def test_bench_bad_games(capsys):
    code, out, err = invoke(capsys, ["bench", "--games", "abc", "--skip-compile"])
    assert_one_line_error(code, out, err, "--games", "abc")


# ---------------------------------------------------------------- other commands


def test_variants_lists_every_preset_with_description(capsys):
    code, out, err = invoke(capsys, ["variants"])
    assert code == 0, err
    presets = preset_files()
    assert presets, "no configs/*.toml found"
    listed = {}
    for line in out.splitlines():
        name, _, desc = line.partition(" ")
        listed[name] = desc.strip()
    assert set(listed) == set(presets)
    for name, desc in presets.items():
        assert desc, f"configs/{name}.toml has no description"
        assert listed[name] == desc


def test_rules_marks_changed_keys(capsys):
    code, out, err = invoke(capsys, ["rules", "stacking"])
    assert code == 0, err
    marks = {}
    for line in out.splitlines():
        mark, key = line[0], line[2:].split()[0]
        marks[key] = mark
    assert marks["stacking"] == "*"
    assert marks["stack_cards"] == " "  # same as official
    assert {k for k, m in marks.items() if m == "*"} == {"stacking"}
    assert set(marks.values()) <= {"*", " "}
    assert "progressive" in next(ln for ln in out.splitlines() if ln[2:].startswith("stacking "))


def test_rules_official_marks_nothing_and_rule_override_is_marked(capsys):
    code, out, err = invoke(capsys, ["rules"])
    assert code == 0, err
    assert not any(line.startswith("*") for line in out.splitlines())
    code, out, err = invoke(capsys, ["rules", "stacking", "--rule", "hand_size=5"])
    assert code == 0, err
    starred = {line[2:].split()[0] for line in out.splitlines() if line.startswith("*")}
    assert starred == {"stacking", "hand_size"}


def test_rules_keys_lists_schema():
    from unosim.simulate.rules import SCHEMA

    result = CliRunner().invoke(cli, ["rules", "--keys"])
    assert result.exit_code == 0, result.output
    names = {line.split()[0] for line in result.output.splitlines() if line.strip()}
    assert names == set(SCHEMA)


def test_strategies_lists_random(capsys):
    code, out, err = invoke(capsys, ["strategies"])
    assert code == 0, err
    names = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert "random" in names
    assert {"first", "defensive", "offensive"} <= set(names)


def test_help_and_version():
    runner = CliRunner()
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    for sub in ("run", "variants", "rules", "strategies", "bench"):
        assert sub in result.output
    result = runner.invoke(cli, ["run", "--help"])
    assert result.exit_code == 0
    for opt in ("--games", "--players", "--variant", "--rule", "--strategy", "--seat",
                "--seed", "--workers", "--format", "--out"):
        assert opt in result.output
    result = runner.invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert "unosim" in result.output


@pytest.mark.slow
def test_bench_small_json(capsys):
    """The report's headline figures (official rules at 4 players) at a size of the
    user's; every row of the matrix and the repeats are checked in tests/runs/test_scale.py."""
    code, out, err = invoke(capsys, ["bench", "--games", "2e4", "--skip-compile", "--quick",
                                     "--repeat", "1", "--format", "json"])
    assert code == 0, err
    r = json.loads(out)
    assert r["games"] == 20000
    for key in ("games_per_sec_1_core", "games_per_sec_all_cores", "cores", "speedup",
                "compile_warm_s", "start_to_first_game_s"):
        assert key in r, key
    assert r["games_per_sec_1_core"] > 0
    assert r["games_per_sec_all_cores"] > 0
    assert r["cores"] >= 1
    assert r["identical_results"] is True
    assert "compile_cold_s" not in r



def test_bench_stopped_keeps_what_it_measured(capsys, monkeypatch):
    """A stop during the search's measurement (after the rates): the report holds the
    rates, is marked PARTIAL and the exit status is 130; a rate whose run was cut
    short is not reported at all (bench._rate)."""
    from unosim.commands import bench

    def stopped(players: int, games: int, spec: str = "search") -> dict:
        raise KeyboardInterrupt

    monkeypatch.setattr(bench, "search_rates", stopped)
    code, out, err = invoke(capsys, ["bench", "--games", "2e4", "--skip-compile", "--quick",
                                     "--repeat", "1"])
    assert code == 130, err
    assert "PARTIAL" in out and "official         4" in out and "search (" not in out
    assert "bench interrupted" in err
    code, out, err = invoke(capsys, ["bench", "--games", "2e4", "--skip-compile", "--quick",
                                     "--repeat", "1", "--format", "json"])
    r = json.loads(out)
    assert code == 130 and r["partial"] is True and len(r["rows"]) == 1 and r["search"] == []

    class Cut:  # a run the stop cut between its batches
        partial = True

    monkeypatch.setattr("unosim.api.play_run", lambda *a, **k: Cut())
    from unosim.runs.stopping import Stopped

    with pytest.raises(Stopped):
        bench._rate("official", 4, 1000, 1)

# ---------------------------------------------------------------- real processes


@pytest.mark.subprocess
def test_subprocess_issue_example_as_written():
    """`unosim --variant stacking --games 1e6` exactly as the issue writes it."""
    proc = run_proc([unosim_script(), "--variant", "stacking", "--games", "1e6"])
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "1,000,000 games" in proc.stdout
    assert "stacking=progressive" in proc.stdout


@pytest.mark.subprocess
def test_subprocess_python_m_json():
    proc = run_proc([sys.executable, "-m", "unosim", "--variant", "stacking", "--games", "1e4",
                     "--format", "json", "--seed", "1"])
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    s = json.loads(proc.stdout)
    missing = [k for k in REQUIRED_KEYS if k not in s]
    assert not missing
    assert s["games"] == 10000
    assert s["seed"] == 1
    assert s["variant"] == "stacking"
    assert s["rules"]["stacking"] == "progressive"


@pytest.mark.subprocess
def test_subprocess_console_script_json_matches_python_m(capsys):
    """The console script's default command gives the figures of ``run`` (played in
    this process: the same ``cli.main`` the script calls)."""
    exe = unosim_script()
    argv = ["--variant", "stacking", "--games", "1e4", "--format", "json", "--seed", "1"]
    a = run_proc([exe, *argv])
    assert a.returncode == 0, a.stderr
    code, out, err = invoke(capsys, ["run", *argv])
    assert code == 0, err
    sa, sb = json.loads(a.stdout), json.loads(out)
    assert all(k in sa for k in REQUIRED_KEYS)
    assert stats(sa) == stats(sb)


@pytest.mark.subprocess
@pytest.mark.parametrize("how", ["script", "python -m"])
def test_subprocess_bad_input_one_line(how):
    head = [unosim_script()] if how == "script" else [sys.executable, "-m", "unosim"]
    proc = run_proc([*head, "--variant", "stacking", "--games", "1e6.5"])
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("unosim: error: ")
    assert "--games" in lines[0]


@pytest.mark.subprocess
def test_subprocess_unknown_variant_one_line():
    proc = run_proc([unosim_script(), "--variant", "nope", "--games", "100"])
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert "nope" in proc.stderr
