"""pyarrow is the ``parquet`` extra, not a dependency: a plain install runs every
command, and a run asked for Parquet without pyarrow stops before playing with one line
naming the extra (exit code 2). The missing module is simulated by blocking its import
(``sys.modules[name] = None`` makes ``import name`` raise ImportError)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from cli_helpers import invoke

from unosim.errors import UnosimError

ROOT = Path(__file__).resolve().parents[2]
LINE = 'unosim: error: Parquet needs pyarrow: pip install "unosim[parquet]"\n'


@pytest.fixture
def no_pyarrow(monkeypatch):
    for name in ("pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(__import__("sys").modules, name, None)


def test_pyarrow_is_an_extra_that_the_tests_install():
    with open(ROOT / "pyproject.toml", "rb") as f:
        project = tomllib.load(f)["project"]
    assert not any(d.startswith("pyarrow") for d in project["dependencies"])
    extras = project["optional-dependencies"]
    assert any(d.startswith("pyarrow") for d in extras["parquet"])
    assert any(d.startswith("pyarrow") for d in extras["test"])


@pytest.mark.parametrize("argv", [
    ["--games", "200", "--seed", "1", "--workers", "1"],
    ["compare", "official", "seven-o", "--games", "200", "--seed", "1", "--workers", "1"],
], ids=["run", "compare"])
def test_save_games_without_pyarrow_is_one_line_naming_the_extra(no_pyarrow, capsys, tmp_path,
                                                                  argv):
    target = tmp_path / "x.parquet"
    code, out, err = invoke(capsys, [*argv, "--no-progress", "--save-games", str(target)])
    assert (code, out, err) == (2, "", LINE)
    assert list(tmp_path.iterdir()) == [], "nothing is written, no game is played"


def test_a_run_without_parquet_needs_no_pyarrow(no_pyarrow, capsys):
    code, out, err = invoke(capsys, ["--games", "200", "--seed", "1", "--workers", "1",
                                     "--no-progress", "--format", "json"])
    assert code == 0, err
    assert '"games": 200' in out


def test_the_writer_itself_names_the_extra(no_pyarrow, tmp_path):
    from unosim.reports.parquet import RecordWriter
    from unosim.reports.records import Columns
    from unosim.runs import modes

    with pytest.raises(UnosimError) as e:
        RecordWriter(tmp_path / "x.parquet", {}, Columns.of(modes.ROUND, [("official", 4)]))
    assert str(e.value) == 'Parquet needs pyarrow: pip install "unosim[parquet]"'


def test_with_pyarrow_the_check_passes(tmp_path):
    pytest.importorskip("pyarrow")
    from unosim.reports.saved_games import check_records_path

    assert check_records_path(str(tmp_path / "x.parquet")) == tmp_path / "x.parquet"


def test_csv_and_json_records_need_no_pyarrow(no_pyarrow, capsys, tmp_path):
    for name in ("g.csv", "g.json"):
        code, out, err = invoke(capsys, ["--games", "200", "--seed", "1", "--workers", "1",
                                         "--no-progress", "--save-games",
                                         str(tmp_path / name)])
        assert code == 0, err
        assert (tmp_path / name).read_text(encoding="utf-8").count("\n") >= 201
