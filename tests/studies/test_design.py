"""``unosim design``: a planted problem whose front is known, a stopped design resumed to
the uninterrupted front, the front's files load as variants, the re-measurement plays
deals the search never saw, a question no candidate meets says so, and bad input is
one line with exit code 2.

Sizes: the planted space has 4 candidates (hand_size 5 or 7, seven_o off or on). On
100,000 rounds each (4 players, random seats) they measure turns 46.5 / 47.5 / 34.4 /
35.2 and comeback 45.7% / 76.9% / 34.5% / 59.9% (7 / 7+7-0 / 5 / 5+7-0), so the front
(lower turns, raise comeback) is {5}, {5, 7-0} and {7-0}, and official is dominated by
5+7-0. The closest pair, 5 against 5+7-0, differs by 0.8 turns; its second pass plays
16,000 games each, where the turns' standard error is about 0.16 per candidate (the
deals are shared, so the difference's error is smaller still), five standard errors.
"""

from __future__ import annotations

import json
import signal
import tomllib

import pytest

from unosim import api
from unosim.cli import main

pytest.importorskip("optuna")

PLANTED = ["hand_size=5,7", "seven_o"]
SMALL = ["--keys", "hand_size=5..7", "--keys", "jump_in,seven_o,stacking",
         "--minimize", "turns", "--maximize", "comeback", "--trials", "10", "--games", "400",
         "--seed", "4", "--no-progress", "--workers", "1"]


def invoke(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    code = exc.value.code or 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def fronts(s: dict) -> list[dict]:
    return [f["changes"] for f in s["front"]]


def test_the_planted_front_holds_the_known_best_combinations():
    r = api.design(minimize="turns", maximize="comeback", keys=PLANTED, trials=8, games=4000,
                   seed=1)
    s = r.to_dict()
    got = {tuple(sorted(c.items())) for c in fronts(s)}
    assert got == {(("hand_size", "5"),), (("hand_size", "5"), ("seven_o", "true")),
                   (("seven_o", "true"),)}
    assert s["counts"]["trials"] == 8 and s["counts"]["played"] == 4  # then repeats
    best = next(f for f in s["front"] if f["changes"] == {"hand_size": "5"})
    turns = best["figures"]["turns"]
    assert turns["diff_ci95"][1] < -10  # about 12 turns shorter than official, paired
    assert "hand_size=5" in s["recommendation"] and "unosim design" in s["recommendation"]
    frame = r.to_frame()
    assert set(frame["statistic"]) == {"value", "diff"}
    assert r.plot() is not None


def test_the_remeasurement_plays_deals_the_search_never_saw(monkeypatch):
    from unosim.runs.backend import LocalBackend
    from unosim.studies.design import play
    from unosim.studies.design.plan import REMEASURE_START, SECOND

    seen = []
    real = play.measure

    def spy(specs, metrics, seed, start, games, strategy, backend):
        seen.append((start, games, len(specs)))
        return real(specs, metrics, seed, start, games, strategy, backend)

    monkeypatch.setattr(play, "measure", spy)
    s = api.design(minimize="turns", keys=PLANTED, trials=4, games=200, seed=2).to_dict()
    fresh = seen[-1]
    # the trials, the second pass (and the check of each front member's changes): the
    # first game indices, as the base
    assert {(a, g) for a, g, _ in seen[:-1]} == {(0, 200), (0, SECOND * 200)}
    assert fresh[:2] == (REMEASURE_START, SECOND * 200) and REMEASURE_START > SECOND * 200
    assert s["remeasured_from"] == REMEASURE_START
    # the task of the comparison starts at the fresh index itself
    base = api.plan_design(minimize=("turns",), keys=("jump_in",)).space.base_spec()
    study = play._RangeCompare([base], 50, 2, REMEASURE_START)
    study.prepare(LocalBackend(1))
    assert [args[3] for _, args in study.tasks(50)] == [REMEASURE_START]


@pytest.mark.slow
def test_a_stopped_design_resumes_to_the_uninterrupted_front(capsys, monkeypatch, tmp_path):
    from unosim.runs import backend, stopping

    code, out, err = invoke(capsys, ["design", *SMALL, "--format", "json"])
    assert code == 0, err
    whole = json.loads(out)
    real = backend.LocalBackend.map
    state = {"ran": 0}

    def map(self, fn, tasks, request=None):  # noqa: ANN001, ANN202
        for item in real(self, fn, tasks, request):
            yield item
            state["ran"] += 1
            if state["ran"] == 4:
                stopping.current().set(signal.SIGINT)

    monkeypatch.setattr(backend.LocalBackend, "map", map)
    out_dir = tmp_path / "d"
    code, out, err = invoke(capsys, ["design", *SMALL, "--format", "json", "--out",
                                     str(out_dir)])
    assert code == 130, err
    part = json.loads(out)
    assert part["partial"] and part["counts"]["trials"] < 10 and not part["front"]
    assert f"unosim design --resume {out_dir}" in err
    monkeypatch.setattr(backend.LocalBackend, "map", real)
    code, out, err = invoke(capsys, ["design", "--resume", str(out_dir), "--format", "json",
                                     "--no-progress"])
    assert code == 0, err
    done = json.loads(out)
    keys = ("changes", "figures")
    assert [[f[k] for k in keys] for f in done["front"]] == \
        [[f[k] for k in keys] for f in whole["front"]]
    assert [t["changes"] for t in done["trials"]] == [t["changes"] for t in whole["trials"]]
    assert done["counts"]["interrupted"] == 1


@pytest.mark.slow
def test_the_front_files_run_as_variants(capsys, tmp_path):
    from unosim.simulate.rules import load_preset

    code, out, err = invoke(capsys, ["design", *SMALL, "--out", str(tmp_path)])
    assert code == 0, err
    assert "Recommendation: " in out
    s = json.loads((tmp_path / "design.json").read_text())
    assert s["front"] and (tmp_path / "pareto.png").stat().st_size > 0
    assert "<svg" in (tmp_path / "design.html").read_text()
    for f in s["front"]:
        text = (tmp_path / f["file"]).read_text()
        _, rules = load_preset(str(tmp_path / f["file"]))
        assert {k: v for k, v in tomllib.loads(text)["rules"].items()} == rules
        for k, v in f["changes"].items():
            assert str(rules[k]).lower() == v
    from unosim.studies.settle.claims import load_claim_file

    claims = sorted((tmp_path / "claims").glob("*.toml"))
    assert claims and all(load_claim_file(c).study == "compare" for c in claims)
    code, out, err = invoke(capsys, ["run", "--variant", str(tmp_path / s["front"][0]["file"]),
                                     "--games", "100", "--seed", "1"])
    assert code == 0, err


def test_a_question_nobody_meets_says_so_and_shows_the_closest():
    s = api.design(minimize="turns", require=["turns<=20"], keys=PLANTED, trials=4,
                   games=200, seed=3).to_dict()
    assert not s["feasible_found"]
    assert s["front"] and all(f["requirements"][0]["verdict"] == "FALSE" for f in s["front"])
    assert "No candidate met the requirements" in s["recommendation"]
    assert {"hand_size": "5"} in fronts(s)  # the closest: the shortest rounds


def test_a_question_file_reads_as_its_options(capsys, tmp_path):
    q = tmp_path / "q.toml"
    q.write_text('question = "Shorter rounds"\nminimize = ["turns"]\n'
                 'keys = ["hand_size=5,7"]\nplayers = 3\n')
    code, out, err = invoke(capsys, ["design", "--question", str(q), "--trials", "3",
                                     "--games", "100", "--seed", "1", "--format", "json",
                                     "--no-progress"])
    assert code == 0, err
    s = json.loads(out)
    assert s["players"] == 3 and s["question"]["question"] == "Shorter rounds"
    assert fronts(s) == [{"hand_size": "5"}]


def test_dry_run_plays_nothing(capsys, tmp_path):
    code, out, err = invoke(capsys, ["design", "--minimize", "turns", "--require",
                                     "skill_edge>=0.02", "--dry-run", "--out",
                                     str(tmp_path / "o")])
    assert code == 0, err
    assert "nothing played" in out and "combinations" in out
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


@pytest.mark.parametrize("argv, needle", [
    (["--minimize", "turnz"], "unknown metric"),
    (["--maximize", "comeback", "--require", "turns=<30"], "METRIC<=VALUE"),
    (["--maximize", "comeback", "--require", "nope<=3"], "unknown metric"),
    (["--minimize", "turns", "--keys", "jump_inn"], "unknown rule key"),
    (["--minimize", "turns", "--keys", "players"], "fixed"),
    (["--minimize", "turns", "--keys", "hand_size=7"], "space is empty"),
    (["--minimize", "turns", "--maximize", "turns"], "objective twice"),
    (["--require", "turns<=30"], "needs an objective"),
    (["--minimize", "turns", "--require", "turns<=30%"], "not a rate"),
    (["--minimize", "turns", "--keys", "uno_penalty"], "give its values"),
    (["--minimize", "turns", "--require", "comeback>=120%"], "no rules can meet it"),
    (["--minimize", "turns", "--require", "turns<=-1"], "no rules can meet it"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = invoke(capsys, ["design", *argv, "--games", "100", "--seed", "1"])
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1


def test_without_optuna_it_says_how_to_install_it(capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "optuna", None)  # import optuna raises ImportError
    code, out, err = invoke(capsys, ["design", "--minimize", "turns"])
    assert code == 2 and 'pip install "unosim[tune]"' in err and "design" in err


@pytest.mark.cluster
def test_dask_gives_the_same_front(capsys):
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, env={"NUMBA_NUM_THREADS": "1"})
    try:
        outs = []
        for extra in ([], ["--backend", "dask", "--scheduler", cluster.scheduler_address]):
            code, out, err = invoke(capsys, ["design", *SMALL, "--format", "json", *extra])
            assert code == 0, err
            outs.append(json.loads(out))
    finally:
        cluster.close()
    keys = ("changes", "figures")
    assert [[f[k] for k in keys] for f in outs[1]["front"]] == \
        [[f[k] for k in keys] for f in outs[0]["front"]]
