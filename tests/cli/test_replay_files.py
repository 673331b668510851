"""Files that replay: a ``--save-games`` file (Parquet, CSV or JSON) carries the seed,
each variant's rules and seats and the mode, so ``unosim replay FILE --game K`` plays
game K again from the file alone and ends with the file's row; a table of n seats
writes seat columns 0..n-1 only."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_helpers import assert_one_line_error, invoke

import unosim
from unosim.cli import main
from unosim.runs.match import play_match_records
from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate.match_nb import MATCH_FIELDS
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy

SEATS = {4: ["random", "defensive:bluff=0.5", "random", "random"],
         3: ["random", "defensive:bluff=0.5", "random"]}
ROWS = (0, 17, 58, 119)  # games checked, the last one included


def run_quietly(argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` outside a test function (module fixtures have no capsys)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
            code = 0
        except SystemExit as e:
            code = e.code or 0
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A comparison of stacking (4 seats) and a 3-seat variant file, a non-default
    seat, written once as Parquet, CSV and JSON."""
    folder = tmp_path_factory.mktemp("saved")
    three = folder / "three.toml"
    three.write_text('description = "three seats"\n[rules]\nplayers = 3\nhand_size = 6\n')
    files = {}
    for form in ("parquet", "csv", "json"):
        files[form] = folder / f"games.{form}"
        code, _, err = run_quietly(["compare", "stacking", str(three), "--games", "120",
                                    "--seed", "9", "--seat", "1=defensive:bluff=0.5",
                                    "--save-games", str(files[form]), "--no-progress"])
        assert code == 0, err
    return files, three


def rows_of(path) -> pd.DataFrame:
    if path.suffix == ".parquet":
        df = pd.read_parquet(path)
        if "variant" in df:
            df["variant"] = df["variant"].astype(str)
        return df
    if path.suffix == ".csv":
        return pd.read_csv(path, comment="#")
    doc = json.loads(path.read_text(encoding="utf-8"))
    return pd.DataFrame(doc["games"], columns=doc["columns"])


def test_the_forms_hold_the_same_rows_and_only_the_seats_a_table_has(saved):
    files, _ = saved
    frames = {form: rows_of(path) for form, path in files.items()}
    df = frames["parquet"]
    assert len(df) == 240
    assert "points_3" in df and "points_4" not in df and "stage_4" not in df
    three = df[df.variant == "three"]
    assert three["points_3"].isna().all() and three["place_3"].isna().all()
    assert not df[df.variant == "stacking"]["points_3"].isna().any()
    for form in ("csv", "json"):
        other = frames[form]
        assert list(other.columns) == list(df.columns)
        for c in df.columns:
            a, b = df[c].to_numpy(), other[c].to_numpy()
            if c == "variant":
                assert list(a) == list(b)
            else:
                assert np.allclose(a.astype(float), b.astype(float), equal_nan=True), (form, c)


def test_the_header_is_the_same_in_every_form_and_names_the_run(saved):
    files, three = saved
    pq_header = json.loads(pq.read_schema(files["parquet"]).metadata[b"unosim"])
    first = files["csv"].read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# unosim: ")
    csv_header = json.loads(first[len("# unosim: "):])
    json_header = json.loads(files["json"].read_text(encoding="utf-8"))["unosim"]
    assert pq_header == csv_header == json_header
    h = pq_header
    assert (h["seed"], h["mode"], h["engine"], h["unosim_version"]) == (
        9, "round", unosim.ENGINE, unosim.__version__)
    assert [v["name"] for v in h["variants"]] == ["stacking", "three"]
    assert h["variants"][0]["rules"] == resolve(["stacking"]).as_dict()
    assert h["variants"][1]["rules"] == resolve([str(three)]).as_dict()
    assert h["variants"][1]["seats"][1] == {"name": "defensive", "params": {"bluff": 0.5}}
    assert h["columns"] == list(rows_of(files["parquet"]).columns)


@pytest.mark.parametrize("form", ["parquet", "csv"])
@pytest.mark.parametrize("variant, players", [("stacking", 4), ("three", 3)])
def test_a_row_replays_to_the_same_result(capsys, saved, form, variant, players):
    files, three = saved
    path = files[form]
    df = rows_of(path)
    rules = resolve(["stacking"] if variant == "stacking" else [str(three)])
    seats = [parse_strategy(s) for s in SEATS[players]]
    for k in ROWS:
        code, out, err = invoke(capsys, ["replay", str(path), "--game", str(k), "--variant",
                                         variant, "--format", "json"])
        assert code == 0, err
        r = json.loads(out)
        row = df[(df.game == k) & (df.variant == variant)].iloc[0]
        # the replay ends as the file's row and as the batch played it
        want = play_records(rules, seats, seed=9, start=k, n=1)[0]
        assert [r["result"][f] for f in L.GAME_FIELDS] == [int(x) for x in want]
        for f in ("turns", "winner", "winner_points", "capped", "cards_played",
                  *(f"points_{p}" for p in range(players))):
            assert r["result"][f] == int(row[f]), (k, f)
        assert r["strategies"] == SEATS[players] and r["seed"] == 9
    code, out, err = invoke(capsys, ["replay", str(path), "--game", "58", "--variant",
                                     variant])
    assert code == 0, err
    row = df[(df.game == 58) & (df.variant == variant)].iloc[0]
    assert f"variant {variant} · {players} players · seed 9 · game 58" in out
    if not row["capped"]:
        assert f"seat {row['winner']} wins {row['winner_points']} points after " \
               f"{row['turns']} turns" in out
    assert f"the same record as the row of game 58 in {path}" in out


def test_a_match_file_replays_its_matches(capsys, tmp_path):
    path = tmp_path / "m.json"
    code, _, err = invoke(capsys, ["run", "--mode", "match", "--players", "3",
                                   "--target-score", "150", "--games", "30", "--seed", "4",
                                   "--save-games", str(path), "--no-progress"])
    assert code == 0, err
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["unosim"]["mode"] == "match" and doc["unosim"]["max_rounds"] == 1000
    assert "score_2" in doc["columns"] and "score_3" not in doc["columns"]
    assert "winner_max_deficit_hist_16" in doc["columns"]  # not a seat column
    rules = resolve([], [("players", 3), ("target_score", 150)])
    seats = [parse_strategy("random")] * 3
    for k in (0, 29):
        code, out, err = invoke(capsys, ["replay", str(path), "--game", str(k),
                                         "--format", "json"])
        assert code == 0, err
        got = json.loads(out)["result"]
        want = play_match_records(rules, seats, 4, k, 1)[0]
        assert [got[f] for f in MATCH_FIELDS] == [int(x) for x in want]
    code, out, err = invoke(capsys, ["replay", str(path), "--game", "29"])
    assert code == 0, err
    assert "match 29" in out and "the same record as the row of game 29" in out


def test_a_plugin_seat_replays_from_its_file_and_a_changed_file_is_refused(capsys,
                                                                           tmp_path):
    plug = tmp_path / "mine.py"
    plug.write_text("def mine(view):\n    return view.legal[0]\n")
    path = tmp_path / "g.csv"
    code, _, err = invoke(capsys, ["run", "--games", "40", "--seed", "2", "--strategy-file",
                                   f"{plug}:mine", "--seat", "2=mine", "--save-games",
                                   str(path), "--no-progress"])
    assert code == 0, err
    header = json.loads(path.read_text().splitlines()[0][len("# unosim: "):])
    seat = header["variants"][0]["seats"][2]
    assert seat["plugin"]["spec"] == f"{plug}:mine" and len(seat["plugin"]["sha256"]) == 64
    code, out, err = invoke(capsys, ["replay", str(path), "--game", "39"])
    assert code == 0, err
    assert "2 mine" in out and "the same record as the row of game 39" in out


# ---------------------------------------------------------------- bad input


def rewrite_header(src, dst, **changes) -> None:
    """A copy of a CSV records file with its header changed."""
    lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0][len("# unosim: "):])
    header.update(changes)
    dst.write_text("# unosim: " + json.dumps(header) + "\n" + "".join(lines[1:]),
                   encoding="utf-8")


def test_a_row_that_differs_from_its_replay_is_refused(capsys, saved, tmp_path):
    files, _ = saved
    df = pd.read_csv(files["csv"], comment="#")
    at = df.index[(df.game == 17) & (df.variant == "stacking")][0]
    df.loc[at, "turns"] += 1
    header = files["csv"].read_text(encoding="utf-8").splitlines()[0]
    bad = tmp_path / "bad.csv"
    bad.write_text(header + "\n" + df.to_csv(index=False), encoding="utf-8")
    code, out, err = invoke(capsys, ["replay", str(bad), "--game", "17", "--variant",
                                     "stacking"])
    assert_one_line_error(code, out, err, "game 17", "another record than its row",
                          f"turns is {df.loc[at, 'turns'] - 1} here")
    # the same file's other rows still replay
    code, _, err = invoke(capsys, ["replay", str(bad), "--game", "18", "--variant",
                                   "stacking"])
    assert code == 0, err


def test_bad_replay_files_are_one_line_errors(capsys, saved, tmp_path):
    files, _ = saved
    other_engine = tmp_path / "old.csv"
    rewrite_header(files["csv"], other_engine, engine="0123456789ab", unosim_version="0.1.0")
    bare_csv = tmp_path / "bare.csv"
    bare_csv.write_text("".join(files["csv"].read_text().splitlines(keepends=True)[1:]))
    bare_parquet = tmp_path / "bare.parquet"
    pq.write_table(pa.table({"game": [0, 1], "turns": [3, 4]}), bare_parquet)
    not_json = tmp_path / "x.json"
    not_json.write_text("{")
    cases = [
        ([str(files["parquet"]), "--game", "120", "--variant", "three"],
         ["holds no game 120 of variant three"]),
        ([str(files["csv"]), "--game", "3"], ["holds 2 variants", "--variant NAME"]),
        ([str(files["json"]), "--game", "3", "--variant", "stacknig"],
         ["no variant 'stacknig'", "did you mean 'stacking'"]),
        ([str(files["csv"]), "--game", "3", "--variant", "three", "--seed", "9",
          "--seat", "0=first"], ["drop --seed, --seat"]),
        ([str(other_engine), "--game", "3", "--variant", "three"],
         ["unosim 0.1.0 with engine 0123456789ab", f"engine {unosim.ENGINE}",
          "may differ"]),
        ([str(bare_csv), "--game", "0"], ["no '# unosim:' header line"]),
        ([str(bare_parquet), "--game", "0"], ["no unosim header in its metadata"]),
        ([str(not_json), "--game", "0"], ["is not valid JSON"]),
        ([str(tmp_path / "none.csv"), "--game", "0"], ["no such file"]),
        ([str(tmp_path / "games.txt"), "--game", "0"], ["no such file"]),
        (["--game", "0"], ["--seed S", "unosim replay FILE --game K"]),
    ]
    (tmp_path / "games.txt").write_text("x")
    cases[-2] = ([str(tmp_path / "games.txt"), "--game", "0"], ["replay reads --save-games"])
    for argv, needles in cases:
        code, out, err = invoke(capsys, ["replay", *argv])
        assert_one_line_error(code, out, err, *needles)


# ---------------------------------------------------------------- resuming


@pytest.mark.parametrize("form", ["parquet", "csv", "json"])
def test_a_resumed_file_keeps_its_header_and_rows(tmp_path, form):
    """--resume appends to the file the stopped run left: its rows first, the same
    header; a file another run wrote is refused."""
    from unosim.errors import UnosimError
    from unosim.reports.saved_games import RecordSaver
    from unosim.runs import modes

    path = tmp_path / f"g.{form}"
    header = {"format": "t", "seed": 3, "variants": [{"name": "official", "players": 2}]}
    rng = np.random.default_rng(1)
    batches = [rng.integers(0, 50, (n, L.N_G)).astype(np.int32) for n in (4, 6, 5)]
    first = RecordSaver(path, modes.ROUND, header)
    first.hook(0, 0, batches[0])
    first.hook(0, 4, batches[1])
    first.close(True)
    again = RecordSaver(path, modes.ROUND, header, resumed=True)
    again.hook(0, 10, batches[2])
    again.close(True)
    df = rows_of(path)
    assert df["game"].tolist() == list(range(15))
    assert np.array_equal(df["turns"].to_numpy(), np.concatenate(batches)[:, L.G_TURNS])
    assert "points_1" in df and "points_2" not in df
    with pytest.raises(UnosimError, match="another run"):
        RecordSaver(path, modes.ROUND, {**header, "seed": 4}, resumed=True)
    assert len(rows_of(path)) == 15  # the refused run left the file as it was
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_the_api_replays_a_file_as_the_command_does(capsys, saved):
    """``api.replay(FILE, game=K)``: the command's JSON and text; what the file holds
    cannot be given beside it."""
    from unosim import api
    from unosim.errors import UnosimError

    files, _ = saved
    path = files["json"]
    r = api.replay(path, game=17, variant="stacking")
    code, out, err = invoke(capsys, ["replay", str(path), "--game", "17", "--variant",
                                     "stacking", "--format", "json"])
    assert code == 0, err
    assert json.loads(r.to_json()) == json.loads(out)
    code, out, err = invoke(capsys, ["replay", str(path), "--game", "17", "--variant",
                                     "stacking"])
    assert code == 0 and r.summary() == out.rstrip("\n")
    assert r.moves().shape[0] == len(r.replay["steps"])
    with pytest.raises(UnosimError, match="drop seed, strategy"):
        api.replay(path, game=17, seed=3, strategy="offensive")
    with pytest.raises(UnosimError, match="needs --game K"):
        api.replay(str(path))
