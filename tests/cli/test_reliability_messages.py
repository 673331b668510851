"""Messages that say what is wrong: ``unosim replay FILE`` without ``--game`` says what
is wrong with a file that is missing, empty, binary or not a records file (not that it
"needs --game"), and every one-line error ends its line."""

from __future__ import annotations

import pytest
from cli_helpers import assert_one_line_error, invoke


@pytest.mark.parametrize(("name", "content", "words"), [
    ("MISSING.json", None, ["MISSING.json", "no such file"]),
    ("empty.json", b"", ["empty.json", "an empty file"]),
    ("binary.json", bytes(range(256)), ["binary.json", "not valid JSON"]),
    ("list.json", b"[1, 2, 3]", ["list.json", "header"]),
    ("rows.csv", b"a,b\n1,2\n", ["rows.csv", "header"]),
    ("notes.txt", b"hello", ["notes.txt", ".parquet"]),
    ("fake.parquet", b"not parquet at all", ["fake.parquet"]),
])
def test_replay_says_what_is_wrong_with_the_file(capsys, tmp_path, name, content, words):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    code, out, err = invoke(capsys, ["replay", str(path)])
    assert_one_line_error(code, out, err, *words)
    assert "--game" not in err


def test_a_good_records_file_without_game_still_asks_for_it(capsys, tmp_path):
    records = tmp_path / "g.csv"
    code, out, err = invoke(capsys, ["--games", "20", "--seed", "1", "--save-games",
                                     str(records)])
    assert code == 0, err
    code, out, err = invoke(capsys, ["replay", str(records)])
    assert_one_line_error(code, out, err, "needs --game K")


def test_an_unknown_strategy_line_ends_its_line(capsys, tmp_path):
    plug = tmp_path / "p.py"
    plug.write_text("def mine(view):\n    return view.legal[0]\n")
    for argv in (["--strategy-file", f"{plug}:nope"], ["--seat", "0=never_loaded"],
                 ["--strategy-file", f"{plug}:mine", "--seat", "0=mien"],
                 ["tournament", "never_loaded", "random"]):
        code, out, err = invoke(capsys, [*argv, "--games", "10"])
        assert code == 2 and err.endswith("\n") and err.count("\n") == 1, (argv, err)


def test_a_sweep_of_an_unknown_variant_names_the_variant_not_a_point(capsys):
    code, out, err = invoke(capsys, ["sweep", "--variant", "", "--rule", "hand_size=5,7",
                                     "--games", "10"])
    assert_one_line_error(code, out, err, "unknown variant ''")
    assert "every point" not in err
