"""Files the reports write: atomic replacement, streamed Parquet, run --save-games."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from unosim.cli import main
from unosim.common import write_text_atomic
from unosim.errors import UnosimError
from unosim.reports.records import Columns
from unosim.reports.saved_games import check_records_path, open_writer
from unosim.runs import modes
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


#: a comparison of a 4-seat and a 3-seat table: the widest table's seat columns
TWO_TABLES = [("official", 4), ("three", 3)]
HEADER = {"format": "test", "seed": 1, "variants": [{"name": n, "players": k}
                                                    for n, k in TWO_TABLES]}


def read_back(path):
    """A records file of any form as a DataFrame, read the way the docs show."""
    if path.suffix == ".parquet":
        return pd.read_parquet(path)
    if path.suffix == ".csv":
        return pd.read_csv(path, comment="#")
    doc = json.loads(path.read_text(encoding="utf-8"))
    return pd.DataFrame(doc["games"], columns=doc["columns"])


@pytest.mark.parametrize("form", ["parquet", "csv", "json"])
def test_record_writer_streams_batches_and_renames_on_close(tmp_path, form):
    path = tmp_path / f"g.{form}"
    columns = Columns.of(modes.ROUND, TWO_TABLES)
    w = open_writer(path, HEADER, columns)
    rng = np.random.default_rng(0)
    batches = [rng.integers(0, 100, (n, L.N_G)).astype(np.int32) for n in (5, 7)]
    w.write(0, batches[0], 0)
    assert not path.exists()  # only the temporary file exists while writing
    w.write(5, batches[1], 1)
    w.close()
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    df = read_back(path)
    unused = {f"{b}_{p}" for b in ("points", "place", "stage") for p in range(4, 10)}
    assert list(df.columns) == ["game", "variant", *(f for f in L.GAME_FIELDS
                                                     if f not in unused)]
    assert df["game"].tolist() == list(range(12))
    assert df["variant"].astype(str).tolist() == ["official"] * 5 + ["three"] * 7
    both = np.concatenate(batches)
    assert np.array_equal(df["turns"].to_numpy(), both[:, L.G_TURNS])
    # fixed point is written as its value
    assert np.allclose(df["lock_in"].to_numpy(), both[:, L.GAME_FIELDS.index("lock_in")]
                       / L.FEEL_SCALE)
    # seat 3 of the 3-seat table is empty, not 0; seat 2 is there
    assert df["points_3"].isna().tolist() == [False] * 5 + [True] * 7
    assert np.array_equal(df["points_3"][:5].to_numpy(), batches[0][:, L.G_POINTS + 3])
    assert np.array_equal(df["place_2"].to_numpy(), both[:, L.G_PLACES + 2])
    if form == "parquet":
        assert pq.ParquetFile(path).num_row_groups == 2


@pytest.mark.parametrize("form", ["parquet", "csv", "json"])
def test_aborted_writer_leaves_nothing(tmp_path, form):
    w = open_writer(tmp_path / f"g.{form}", HEADER, Columns.of(modes.ROUND, TWO_TABLES))
    w.write(0, np.zeros((3, L.N_G), np.int32))
    w.abort()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, needle", [("g.txt", ".parquet, .csv or .json"),
                                          ("g", ".parquet, .csv or .json"),
                                          ("no/such/g.csv", "does not exist")])
def test_bad_record_paths(tmp_path, name, needle):
    with pytest.raises(UnosimError, match=needle):
        check_records_path(str(tmp_path / name))


@pytest.mark.slow
def test_run_save_games_and_report(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["run", "--games", "700", "--seed", "3", "--format", "json", "--save-games",
              str(tmp_path / "g.parquet"), "--out", str(tmp_path / "o"), "--report"])
    out, err = capsys.readouterr()
    assert (exc.value.code or 0) == 0, err
    s = json.loads(out)
    t = pq.read_table(tmp_path / "g.parquet")
    assert t.num_rows == 700 and t.column_names[:19] == ["game", *L.GAME_FIELDS[:18]]
    assert "points_3" in t.column_names and "points_4" not in t.column_names
    wins = np.bincount(t.column("winner").to_numpy()[t.column("capped").to_numpy() == 0],
                       minlength=4)
    assert list(wins[:4]) == s["seat_wins"]
    names = {p.name for p in (tmp_path / "o").iterdir()}
    assert {"summary.json", "summary.csv", "report.html", "seat_win_rates.png",
            "round_length.svg", "winner_points.png", "cards_drawn.svg"} <= names
    html = (tmp_path / "o" / "report.html").read_text(encoding="utf-8")
    assert "unosim run: official" in html and html.count("<svg") == 6  # + feel, comeback
