"""Every output says where it came from: the unosim version, the engine fingerprint
(the hash of the compiled sources) and the schema version of its layout.

JSON outputs carry them as one ``provenance`` object, CSV as three columns (long
tables) or three keys (``key,value`` tables), Parquet as file metadata; a
checkpoint or a tuning study made by another engine is refused with one line,
since the games left would not play as the ones already played.
"""

from __future__ import annotations

import csv
import importlib.metadata
import json
from pathlib import Path

import pytest

import unosim
from unosim.cli import main

PROV = {"unosim_version": unosim.__version__, "engine": unosim.ENGINE,
        "schema_version": unosim.SCHEMA_VERSION}


def invoke(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    """``unosim ARGS`` in-process, as the console script runs it (one-line errors,
    exit 2): (exit status, stdout, stderr)."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, err
    return exc.value.code or 0, out, err


def json_of(capsys: pytest.CaptureFixture[str], args: list[str]) -> dict:
    code, out, err = invoke(capsys, [*args, "--format", "json"])
    assert code == 0, err
    return json.loads(out)


def csv_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_the_provenance_is_the_package_and_its_engine():
    assert unosim.provenance() == PROV
    assert len(unosim.ENGINE) == 12 and int(unosim.ENGINE, 16) >= 0
    # the fingerprint names the compiled cache (computed once, at import: comparing
    # it with a fresh hash would race with an edit of the sources)
    assert unosim._default_cache_dir().endswith(f"numba-{unosim.ENGINE}")


def test_version_is_the_installed_package_version(capsys):
    code, out, _ = invoke(capsys, ["--version"])
    assert code == 0
    assert out.strip() == f"unosim, version {importlib.metadata.version('unosim')}"
    assert importlib.metadata.version("unosim") == unosim.__version__


@pytest.mark.parametrize("args", [
    ["run", "--games", "400", "--seed", "1"],
    ["run", "--mode", "match", "--games", "10", "--seed", "1"],
    ["compare", "official", "stacking", "--games", "300", "--seed", "1"],
    ["sweep", "--rule", "hand_size=5,7", "--games", "200", "--seed", "1"],
    ["atlas", "--players", "2", "--games", "200", "--seed", "1"],
    ["skill", "official", "--strategy", "offensive", "--games", "200", "--seed", "1"],
    ["tournament", "random", "offensive", "--players", "2", "--games", "100", "--seed", "1"],
    ["replay", "--seed", "1", "--game", "0"],
], ids=lambda a: "run-match" if "match" in a else a[0])
def test_every_json_output_carries_the_provenance(capsys, args):
    assert json_of(capsys, args)["provenance"] == PROV


def test_the_files_of_run_carry_it_json_and_csv(capsys, tmp_path):
    s = json_of(capsys, ["run", "--games", "400", "--seed", "2", "--out", str(tmp_path)])
    assert s["provenance"] == PROV
    written = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert written["provenance"] == PROV
    table = {r["key"]: r["value"] for r in csv_rows(tmp_path / "summary.csv")}
    assert {k: table[k] for k in PROV} == {k: str(v) for k, v in PROV.items()}


def test_long_csv_tables_end_in_provenance_columns(capsys, tmp_path):
    json_of(capsys, ["sweep", "--rule", "hand_size=5,7", "--games", "200", "--seed", "1",
                     "--out", str(tmp_path)])
    assert json.loads((tmp_path / "sweep.json").read_text())["provenance"] == PROV
    rows = csv_rows(tmp_path / "sweep.csv")
    assert rows and list(rows[0])[-3:] == list(PROV)
    assert all({k: r[k] for k in PROV} == {k: str(v) for k, v in PROV.items()} for r in rows)


def test_skill_files_carry_it(capsys, tmp_path):
    json_of(capsys, ["skill", "official", "--strategy", "offensive", "--games", "200",
                     "--seed", "1", "--out", str(tmp_path)])
    assert json.loads((tmp_path / "skill.json").read_text())["provenance"] == PROV
    table = {r["key"]: r["value"] for r in csv_rows(tmp_path / "skill.csv")}
    assert table["engine"] == unosim.ENGINE and table["unosim_version"] == unosim.__version__


def test_parquet_records_carry_it_as_file_metadata(capsys, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    games = tmp_path / "games.parquet"
    json_of(capsys, ["run", "--games", "300", "--seed", "1", "--save-games", str(games)])
    meta = pq.read_schema(games).metadata
    assert {k.decode(): v.decode() for k, v in meta.items() if k.decode() in PROV} == {
        k: str(v) for k, v in PROV.items()}
    assert pq.read_table(games).num_rows == 300


def test_tune_outputs_and_study_carry_it_and_another_engine_is_refused(capsys, tmp_path):
    optuna = pytest.importorskip("optuna")
    db = f"sqlite:///{tmp_path / 'study.db'}"
    args = ["tune", "weighted", "--players", "2", "--games-per-trial", "450", "--seed", "3",
            "--param", "wild=-5..5", "--trials", "1", "--storage", db, "--study", "s"]
    s = json_of(capsys, [*args, "--out", str(tmp_path / "out")])
    assert s["provenance"] == PROV
    out = tmp_path / "out"
    assert json.loads((out / "summary.json").read_text())["provenance"] == PROV
    table = {r["key"]: r["value"] for r in csv_rows(out / "summary.csv")}
    assert table["engine"] == unosim.ENGINE
    trials = csv_rows(out / "trials.csv")
    assert trials and all(r["engine"] == unosim.ENGINE for r in trials)
    study = optuna.load_study(study_name="s", storage=db)
    setup = study.user_attrs["setup"]
    assert (setup["unosim_version"], setup["engine"]) == (unosim.__version__, unosim.ENGINE)
    study.set_user_attr("setup", {**setup, "engine": "0123456789ab"})
    code, stdout, err = invoke(capsys, [*args, "--format", "json"])
    assert code == 2 and stdout == ""
    assert err.count("\n") == 1 and "another engine" in err and "0123456789ab" in err
    assert "use another --study name" in err


def _one_line_refusal(capsys: pytest.CaptureFixture[str], args: list[str], folder: Path
                      ) -> str:
    code, out, err = invoke(capsys, args)
    assert code == 2 and out == "", err
    assert err.startswith(f"unosim: error: --resume {folder}: ") and err.count("\n") == 1
    return err


def _edit_engine(folder: Path, digest) -> None:
    path = folder / "checkpoint.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["checkpoint"]["engine"] == unosim.ENGINE
    assert doc["checkpoint"]["unosim_version"] == unosim.__version__
    doc["checkpoint"]["engine"] = "0123456789ab"
    doc["sha256"] = digest(doc["checkpoint"])
    path.write_text(json.dumps(doc), encoding="utf-8")


def test_a_run_checkpoint_of_another_engine_is_refused(capsys, tmp_path):
    from unosim.runs.backend import Progress
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy
    from unosim.studies import checkpoints as ck
    from unosim.studies.run.play import run

    rules = resolve()
    seats = [parse_strategy("random")] * 4
    res = run(rules, seats, 200, seed=1, workers=1)
    params = {"games_text": "500", "players": None, "variant": [], "rule": [],
              "strategy": "random", "seat": [], "seed": 1, "out": None, "mode": "round",
              "target_score": None, "max_rounds": None, "save_games": None, "report": False,
              "precision": None}
    ck.save(tmp_path, "run", params, {"run": Progress(200, res.agg, {0})})
    assert ck.load(tmp_path, "run")[0] == params
    _edit_engine(tmp_path, ck.digest)
    err = _one_line_refusal(capsys, ["run", "--resume", str(tmp_path)], tmp_path)
    assert "another engine (0123456789ab" in err and "cannot be finished exactly" in err


def test_a_study_checkpoint_of_another_engine_is_refused(capsys, tmp_path):
    from unosim.studies import checkpoints

    checkpoints.save(tmp_path, "compare", {}, {})
    assert checkpoints.load(tmp_path, "compare") == ({}, {})
    _edit_engine(tmp_path, checkpoints.digest)
    err = _one_line_refusal(capsys, ["compare", "--resume", str(tmp_path)], tmp_path)
    assert "another engine (0123456789ab" in err and "the compare cannot be finished" in err
