"""``unosim tune``: a tiny study finds parameters and writes its storage, running it
again continues it, two processes share one SQLite file, the best string plays,
Ctrl-C keeps the finished trials, and bad input is one line with exit code 2."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from unosim.cli import main
from unosim.strategies.registry import parse_strategy

pytest.importorskip("optuna")

REPO = Path(__file__).resolve().parents[2]
TINY = ["--players", "2", "--games-per-trial", "1800", "--seed", "3",
        "--param", "wild=-5..5", "--param", "draw=-20..-5", "--param", "mobility=0..2"]


def invoke(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    code = exc.value.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def tune_json(capsys, tmp_path, *extra):
    code, out, err = invoke(capsys, ["tune", "weighted", *TINY, "--storage",
                                     f"sqlite:///{tmp_path / 'study.db'}", "--study", "tiny",
                                     "--format", "json", *extra])
    assert code == 0, err
    return json.loads(out)


def test_a_tiny_study_finds_parameters_writes_storage_and_continues(capsys, tmp_path):
    first = tune_json(capsys, tmp_path, "--trials", "4", "--out", str(tmp_path / "out"))
    assert (tmp_path / "study.db").stat().st_size > 0
    assert first["counts"]["trials"] == 4
    c = first["counts"]
    assert c["complete"] + c["pruned"] + c["skipped"] + c["failed"] == 4
    best = parse_strategy(first["best"])
    assert best.name == "weighted" and set(best.params) == {"wild", "draw", "mobility"}
    rows = first["reevaluation"]
    assert rows[-1]["trial"] == "defaults"
    for r in rows:
        lo, hi = r["win_rate_ci95"]
        assert lo <= r["win_rate"] <= hi
    for name in ("history.png", "history.svg", "importances.png", "importances.svg",
                 "trials.csv", "summary.json", "summary.csv"):
        assert (tmp_path / "out" / name).stat().st_size > 0
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["best"] == first["best"]
    rows_csv = dict(csv.reader((tmp_path / "out" / "summary.csv").open()))
    assert rows_csv["best"] == first["best"]
    # the same command continues the same study
    second = tune_json(capsys, tmp_path, "--trials", "3")
    assert second["counts"]["trials"] == 7
    assert second["study"] == "tiny"


def test_without_a_seed_a_study_continues_with_its_own(capsys, tmp_path):
    db = f"sqlite:///{tmp_path / 'seedless.db'}"
    args = ["tune", "weighted", "--players", "2", "--games-per-trial", "900", "--param",
            "wild=-5..5", "--storage", db, "--study", "s", "--trials", "1", "--format", "json"]
    code, out, err = invoke(capsys, args)
    assert code == 0, err
    seed = json.loads(out)["seed"]
    assert f"seed {seed} (drawn at random" in err
    code, out, err = invoke(capsys, args)
    assert code == 0, err
    again = json.loads(out)
    assert again["seed"] == seed and again["counts"]["trials"] == 2
    assert "drawn at random" not in err


def test_the_best_string_plays(capsys, tmp_path):
    best = tune_json(capsys, tmp_path, "--trials", "2")["best"]
    code, out, err = invoke(capsys, ["--games", "400", "--players", "2", "--seed", "1",
                                     "--seat", f"0={best}", "--format", "json"])
    assert code == 0, err
    code, out, err = invoke(capsys, ["tournament", best, "random", "--games", "400",
                                     "--players", "2", "--seed", "1"])
    assert code == 0, err
    assert best in out


@pytest.mark.subprocess
def test_two_processes_share_one_sqlite_study(tmp_path):
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    cmd = [sys.executable, "-m", "unosim", "tune", "weighted", *TINY, "--trials", "3",
           "--storage", f"sqlite:///{tmp_path / 'shared.db'}", "--study", "shared",
           "--workers", "1", "--format", "json"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env, cwd=tmp_path) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (_out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
    import optuna

    study = optuna.load_study(study_name="shared", storage=f"sqlite:///{tmp_path / 'shared.db'}")
    assert len(study.trials) == 6
    assert all(t.state.is_finished() for t in study.trials)


def test_ctrl_c_keeps_the_finished_trials(tmp_path):
    from unosim.simulate.rules import resolve
    from unosim.studies.tune.space import search_space
    from unosim.studies.tune.study import TuneSetup, run_study
    from unosim.studies.tune.trials import TrialTable

    rules = resolve([], [("players", 2)])
    space = search_space("weighted", ["wild=-5..5"])
    setup = TuneSetup("weighted", space, TrialTable(rules, [parse_strategy("random")], seed=1),
                      900)
    from unosim.runs import stopping

    calls = []
    stop = stopping.StopRequest()

    def stop_on_second() -> None:
        calls.append(1)
        if len(calls) == 2:
            stop.set()  # as Ctrl-C does: read before the next task

    storage = f"sqlite:///{tmp_path / 'c.db'}"
    with stopping.listening(stop):
        study, result = run_study(setup, storage, "c", 10, on_trial=stop_on_second)
    assert result.interrupted
    assert result.counts["complete"] >= 1 and result.counts["trials"] < 10
    assert result.best
    # and the study continues from there
    _, again = run_study(setup, storage, "c", 1)
    assert again.counts["trials"] == result.counts["trials"] + 1


@pytest.mark.parametrize("args, words", [
    (["weighted", "--param", "nope=1..2"], "no parameter 'nope'"),
    (["weighted", "--param", "wild=3..1"], "above HI"),
    (["weighted", "--param", "wild=-50..0"], "outside the domain"),
    (["weighted", "--param", "wild"], "NAME=LO..HI"),
    (["weighted", "--storage", "nodb://nowhere"], "cannot open"),
    (["weighted", "--storage", "sqlite:////nonexistent/dir/x.db"], "cannot open"),
    (["random"], "nothing to tune"),
    (["weighted:wild=1"], "without parameters"),
    (["nope"], "unknown strategy"),
    (["weighted", "--against", "nope"], "unknown strategy"),
    (["weighted", "--games-per-trial", "0"], "--games-per-trial"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, args, words):
    code, out, err = invoke(capsys, ["tune", *args, "--trials", "1", "--games-per-trial", "500"]
                            if "--games-per-trial" not in args else ["tune", *args])
    assert code == 2
    assert err.startswith("unosim: error:") and err.count("\n") == 1, err
    assert words in err
    assert "Traceback" not in out + err


def test_a_study_name_reused_with_another_setup_is_refused(capsys, tmp_path):
    tune_json(capsys, tmp_path, "--trials", "1")
    code, out, err = invoke(capsys, ["tune", "weighted", *TINY, "--players", "3", "--storage",
                                     f"sqlite:///{tmp_path / 'study.db'}", "--study", "tiny",
                                     "--trials", "1"])
    assert code == 2 and "another setup" in err


def test_without_optuna_it_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", None)  # `import optuna` raises ImportError
    code, out, err = invoke(capsys, ["tune", "weighted"])
    assert code == 2
    assert err.count("\n") == 1 and 'pip install "unosim[tune]"' in err


def test_cma_es_sampler_runs_a_study(capsys, tmp_path):
    pytest.importorskip("cmaes")
    out = tune_json(capsys, tmp_path, "--trials", "3", "--sampler", "cmaes")
    assert out["sampler"] == "cmaes" and out["counts"]["trials"] == 3
    assert parse_strategy(out["best"]).name == "weighted"
