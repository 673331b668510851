"""Files the reports write: atomic replacement, streamed Parquet, run --save-games."""

from __future__ import annotations

import json
import os

import numpy as np
import pyarrow.parquet as pq
import pytest

from unosim.cli import main
from unosim.common import write_text_atomic
from unosim.errors import UnosimError
from unosim.reports.parquet import RecordWriter, check_parquet_path
from unosim.simulate import layout as L


def test_atomic_write_replaces_whole_files_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "a.json"
    write_text_atomic(target, "old")
    write_text_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]
    mode = target.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask


def test_record_writer_streams_batches_and_renames_on_close(tmp_path):
    path = tmp_path / "g.parquet"
    w = RecordWriter(path, L.GAME_FIELDS, {"variant": ""})
    rng = np.random.default_rng(0)
    batches = [rng.integers(0, 100, (n, L.N_G)).astype(np.int32) for n in (5, 7)]
    w.write(0, batches[0], {"variant": "official"})
    assert not path.exists()  # only the temporary file exists while writing
    w.write(5, batches[1], {"variant": "stacking"})
    w.close()
    t = pq.read_table(path)
    assert t.column_names == ["game", "variant", *L.GAME_FIELDS]
    assert t.column("game").to_pylist() == list(range(12))
    assert t.column("variant").to_pylist() == ["official"] * 5 + ["stacking"] * 7
    assert np.array_equal(t.column("turns").to_numpy(), np.concatenate(batches)[:, L.G_TURNS])
    assert pq.ParquetFile(path).num_row_groups == 2
    assert [p.name for p in tmp_path.iterdir()] == ["g.parquet"]


def test_aborted_writer_leaves_nothing(tmp_path):
    w = RecordWriter(tmp_path / "g.parquet", L.GAME_FIELDS)
    w.write(0, np.zeros((3, L.N_G), np.int32))
    w.abort()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, needle", [("g.csv", ".parquet"), ("no/such/g.parquet",
                                                                   "does not exist")])
def test_bad_parquet_paths(tmp_path, name, needle):
    with pytest.raises(UnosimError, match=needle):
        check_parquet_path(str(tmp_path / name))


def test_run_save_games_and_report(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["run", "--games", "700", "--seed", "3", "--format", "json", "--save-games",
              str(tmp_path / "g.parquet"), "--out", str(tmp_path / "o"), "--report"])
    out, err = capsys.readouterr()
    assert (exc.value.code or 0) == 0, err
    s = json.loads(out)
    t = pq.read_table(tmp_path / "g.parquet")
    assert t.num_rows == 700 and t.column_names == ["game", *L.GAME_FIELDS]
    wins = np.bincount(t.column("winner").to_numpy()[t.column("capped").to_numpy() == 0],
                       minlength=4)
    assert list(wins[:4]) == s["seat_wins"]
    names = {p.name for p in (tmp_path / "o").iterdir()}
    assert {"summary.json", "summary.csv", "report.html", "seat_win_rates.png",
            "round_length.svg", "winner_points.png", "cards_drawn.svg"} <= names
    html = (tmp_path / "o" / "report.html").read_text(encoding="utf-8")
    assert "unosim run: official" in html and html.count("<svg") == 6  # + feel, comeback
