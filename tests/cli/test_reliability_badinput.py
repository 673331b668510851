"""The bad-input catalogue: every option and every config key given a wrong value
gets one line ``unosim: error: ...`` naming what was wrong, exit code 2, and no
traceback.

tests/cli/test_cli.py already covers (BAD_INPUT there, not repeated here): --variant
nope, --games 0 / -5 / 1e6.5 / abc / 1e20, --players 1 / 11 / four, --rule
no_such_key=1 / stacking=maybe / hand_size=many / players=12 / stacking (no =),
--strategy nope / random:bluff=2, --seat 1=nope / x / 9=random / a=random,
--workers 1000 / -1 / 0 / more than the cores, --format xml, --seed -1, an unknown
option, --out under a regular file, `rules` with a bad variant or rule, `bench
--games abc`. tests/strategies/test_strategies_plugins.py covers loading broken plug-ins
(plain function, wrong signature, float return, compile errors, missing name,
a file that does not import, a built-in's name) and an illegal move from the CLI.

This file holds everything else, in one place: CATALOGUE (argv -> words the
message must contain), every rule key given a wrong value on the command line
and in a TOML file, variant files that are wrong in every way we know of,
--resume with bad checkpoints, plug-ins that misbehave in play, and a check that
every option of run, compare, replay, selfcheck, rules and bench appears in
some catalogue entry (here or in test_cli.BAD_INPUT).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import click
import pytest
from cli_helpers import assert_one_line_error, invoke
from test_cli import BAD_INPUT

from unosim.cli import COMMANDS, cli
from unosim.simulate.rules import SCHEMA

TESTS = Path(__file__).resolve().parents[1]
PLUGINS = TESTS / "plugins_for_tests.py"

# ---------------------------------------------------------------- the catalogue
# (argv, words the one-line message must contain); "{tmp}" is a folder holding the
# files made by `bad_files`. A `run` entry without --games gets `--games 100`.

CATALOGUE: list[tuple[list[str], list[str]]] = [
    # --games
    (["--games", ""], ["--games"]),
    (["--games", "1.5"], ["--games", "1.5"]),
    (["--games", "inf"], ["--games", "inf"]),
    (["--games", "nan"], ["--games", "nan"]),
    (["--games", "_1"], ["--games", "_1"]),
    (["--games", "1__0"], ["--games", "1__0"]),
    (["--games", "\u0661\u0662"], ["--games"]),  # Arabic-Indic digits
    (["--games", "1e-3"], ["--games", "1e-3"]),
    (["--games", "99999999999999999999999"], ["--games", "at most"]),
    # --players
    (["--players", "0"], ["--players", "0"]),
    (["--players", "-3"], ["--players", "-3"]),
    (["--players", "2.5"], ["--players", "2.5"]),
    # --variant: presets and files
    (["--variant", ""], ["unknown variant", "''"]),
    (["--variant", "stacking.toml"], ["stacking.toml", "no such file", "without .toml"]),
    (["--variant", "{tmp}/missing.toml"], ["missing.toml", "no such file"]),
    (["--variant", "{tmp}/folder.toml"], ["folder.toml", "is a directory"]),
    (["--variant", "{tmp}/malformed.toml"], ["malformed.toml", "malformed TOML"]),
    (["--variant", "{tmp}/latin1.toml"], ["latin1.toml", "not UTF-8"]),
    (["--variant", "{tmp}/rules-not-table.toml"], ["rules-not-table.toml", "[rules]",
                                                   "table"]),
    (["--variant", "{tmp}/typo.toml"], ["typo.toml", "unknown top-level key", "'rule'"]),
    (["--variant", "{tmp}/desc.toml"], ["desc.toml", "description", "string"]),
    (["--variant", "{tmp}/unknown-key.toml"], ["unknown-key.toml", "stackin"]),
    (["--variant", "{tmp}/bad-value.toml"], ["bad-value.toml", "hand_size", "'seven'"]),
    (["--variant", "{tmp}/combo.toml"], ["stack_cards=mixed", "stacking"]),
    (["--variant", "{tmp}/nested.toml"], ["nested.toml", "deck.zeros", "99"]),
    # --rule
    (["--rule", "uno_forget_prob=nan"], ["uno_forget_prob", "finite"]),
    (["--rule", "silent_twos=inf"], ["silent_twos", "finite"]),
    (["--rule", "turn_cap=inf"], ["turn_cap", "inf"]),
    (["--rule", "=1"], ["unknown rule key", "''"]),
    (["--rule", "hand_size=1.5"], ["hand_size", "integer"]),
    (["--rule", "stack_cards=mixed"], ["stack_cards=mixed", "stacking"]),
    (["--rule", "draw_ten=blanks"], ["draw_ten=blanks", "blank"]),
    (["--rule", "hand_size=20", "--players", "10"], ["hand_size", "too few"]),
    (["--rule", "players=3", "--players", "5"], ["--rule players=3", "contradicts",
                                                "--players 5"]),
    (["--rule", "first_card=number_only", "--rule", "hand_size=8", "--players", "10"],
     ["first_card", "76 number cards", "80 cards dealt"]),
    # --strategy and --seat
    (["--strategy", ""], ["unknown strategy", "''"]),
    (["--strategy", "random:bluff"], ["random", "bad parameter", "bluff"]),
    (["--strategy", "random:bluff=x"], ["bluff", "number", "'x'"]),
    (["--strategy", "random:foo=1"], ["bad parameter", "foo"]),
    (["--strategy", "random:challenge=sometimes"], ["challenge", "sometimes"]),
    (["--strategy", "random:forget=-0.5"], ["forget", "0..1"]),
    (["--strategy", "weighted:wild=-2,wild=3"], ["weighted", "wild", "given twice"]),
    (["--strategy", "random:bluff=0.1,bluff=0.1"], ["bluff", "given twice"]),
    (["--seat", "1="], ["unknown strategy"]),
    (["--seat", "-1=random"], ["--seat", "-1=random"]),
    (["--seat", "=random"], ["--seat", "'=random'"]),
    # --seed, --workers, --format
    (["--seed", "abc"], ["--seed", "abc"]),
    (["--seed", "1.5"], ["--seed", "1.5"]),
    (["--workers", "abc"], ["--workers", "abc"]),
    (["--format", ""], ["--format"]),
    # --out
    (["--out", "/sys/unosim-test-out"], ["--out", "/sys/unosim-test-out", "cannot write"]),
    (["--out", "{tmp}/a-file"], ["--out", "a-file"]),
    (["--out", "{tmp}/unfinished"], ["--out", "unfinished run", "--resume"]),
    # --mode, --target-score, --max-rounds
    (["--mode", "tournament"], ["--mode", "tournament"]),
    (["--target-score", "100"], ["--target-score", "--mode match"]),
    (["--target-score", "0", "--mode", "match"], ["--target-score", "0"]),
    (["--target-score", "abc", "--mode", "match"], ["--target-score", "abc"]),
    (["--max-rounds", "10"], ["--max-rounds", "--mode match"]),
    (["--max-rounds", "0", "--mode", "match"], ["--max-rounds", "0"]),
    (["--max-rounds", "x", "--mode", "match"], ["--max-rounds", "x"]),
    (["--mode", "match", "--rule", "scoring=lazy"], ["scoring=lazy", "--max-rounds"]),
    # --save-games, --report
    (["--save-games", "{tmp}/games.txt"], ["--save-games", ".parquet", ".csv", ".json"]),
    (["--save-games", "{tmp}/folder.parquet"], ["--save-games", "is a directory"]),
    (["--save-games", "{tmp}/no/such/games.parquet"], ["--save-games", "does not exist"]),
    (["--save-games", "/sys/unosim-test-games.parquet"], ["--save-games", "cannot write",
                                                         "'/sys'"]),
    (["--save-games", "{tmp}/a-file/games.parquet"], ["--save-games", "'{tmp}/a-file'",
                                                      "is a file, not a folder"]),
    (["--save-games", "{tmp}/a-file/sub/games.parquet"], ["'{tmp}/a-file'",
                                                          "is a file, not a folder"]),
    (["--report"], ["--report", "--out"]),
    # --dry-run checks as the command does: the same line, exit 2
    (["--dry-run", "--report"], ["--report", "--out"]),
    (["--dry-run", "--games", "1.5"], ["--games", "1.5"]),
    # --precision, --backend, --scheduler
    (["--precision", "0"], ["--precision", "0"]),
    (["--precision", "0.7"], ["--precision", "0.7"]),
    (["--precision", "abc"], ["--precision", "abc"]),
    (["--precision", "0.01", "--mode", "match"], ["--precision", "rounds"]),
    (["--backend", "cloud"], ["--backend", "cloud"]),
    (["--precision", "0.01", "--report", "--out", "{tmp}/o"], ["--precision", "--report"]),
    (["--scheduler", "tcp://head:8786"], ["--scheduler", "--backend dask"]),
    (["--scheduler", "nowhere:1", "--backend", "dask", "--precision", "0.01"],
     ["--precision", "--backend local"]),
    # --resume
    (["--resume", "{tmp}/no-such-folder"], ["--resume", "no-such-folder", "no such folder"]),
    (["--resume", "{tmp}/empty"], ["--resume", "empty", "no checkpoint.json"]),
    (["--resume", "{tmp}/not-json"], ["--resume", "cannot read checkpoint.json"]),
    (["--resume", "{tmp}/wrong-format"], ["--resume", "not a unosim checkpoint"]),
    (["--resume", "{tmp}/edited"], ["--resume", "damaged", "checksum"]),
    (["--resume", "{tmp}/unfinished", "--games", "200"], ["--resume", "drop --games"]),
    (["--resume", "{tmp}/unfinished", "--seed", "1"], ["--resume", "drop --seed"]),
    (["--resume", "{tmp}/unfinished", "--variant", "stacking"], ["drop --variant"]),
    (["--resume", "{tmp}/a-file"], ["--resume", "a-file"]),
    # plug-ins that load but misbehave in play (loading errors: test_strategies_plugins)
    (["--strategy-file", f"{PLUGINS}:raises", "--seat", "0=raises", "--games", "300",
      "--seed", "1", "--workers", "1"], ["plug-in", "raises", "ValueError: boom", "seed 1"]),
    (["--strategy-file", f"{PLUGINS}:illegal", "--seat", "2=illegal", "--games", "300",
      "--seed", "1", "--workers", "1"], ["illegal move", "illegal", "seed 1"]),
    (["--strategy-file", f"{PLUGINS}:three_args", "--seat", "0=three_args"],
     ["--strategy-file", "three_args", "does not compile"]),
    (["--strategy-file", f"{PLUGINS}:nope"], ["--strategy-file", "has no 'nope'"]),
    (["--strategy-file", "{tmp}/broken_plugin.py:f"], ["--strategy-file", "importing",
                                                       "RuntimeError"]),
    (["--strategy-file", "no-colon"], ["--strategy-file", "PATH.py:NAME"]),
    (["--strategy-file", f"{PLUGINS}:raises", "--seat", "0=raises", "--mode", "match"],
     ["plug-in", "match"]),
    # compare
    (["compare", "official"], ["at least two"]),
    (["compare", "official", "official"], ["given twice"]),
    (["compare", *[f"v{i}" for i in range(9)]], ["at most 8"]),
    (["compare", "official", "stacking++jump-in"], ["bad variant name"]),
    (["compare", "official", "{tmp}/malformed.toml"], ["malformed.toml", "malformed TOML"]),
    (["compare", "official", "stacking", "--games", "0"], ["--games"]),
    (["compare", "official", "stacking", "--players", "1"], ["--players"]),
    (["compare", "official", "stacking", "--rule", "x=1"], ["unknown rule key", "'x'"]),
    (["compare", "official", "stacking", "--strategy", "nope"], ["unknown strategy"]),
    (["compare", "official", "stacking", "--seat", "7=random"], ["--seat", "0..3"]),
    (["compare", "official", "stacking", "--seed", "-2"], ["--seed"]),
    (["compare", "official", "stacking", "--workers", "0"], ["--workers"]),
    (["compare", "official", "stacking", "--format", "yaml"], ["--format", "yaml"]),
    (["compare", "official", "stacking", "--out", "{tmp}/a-file"], ["--out", "a-file"]),
    (["compare", "official", "stacking", "--mode", "x"], ["--mode"]),
    (["compare", "official", "stacking", "--target-score", "9"], ["--target-score"]),
    (["compare", "official", "stacking", "--max-rounds", "9"], ["--max-rounds"]),
    (["compare", "official", "stacking", "--save-games", "x.txt"], ["--save-games"]),
    (["compare", "official", "stacking", "--strategy-file", "{tmp}/none.py:f"],
     ["--strategy-file", "no file"]),
    (["compare", "official", "stacking", "--backend", "grid"], ["--backend", "grid"]),
    (["compare", "--resume", "{tmp}/no-such-folder"], ["--resume", "no such folder"]),
    (["compare", "--resume", "{tmp}/empty"], ["--resume", "no checkpoint.json"]),
    (["compare", "--resume", "{tmp}/unfinished"], ["--resume", "belongs to `unosim run`",
                                                    "unosim run --resume"]),
    (["compare", "official", "stacking", "--resume", "{tmp}/empty"], ["--resume",
                                                                      "drop VARIANT"]),
    (["compare", "official", "stacking", "--scheduler", "tcp://head:8786"],
     ["--scheduler", "--backend dask"]),
    (["compare", "official", "stacking", "--backend", "dask", "--save-games", "{tmp}/g.parquet"],
     ["--save-games", "--backend dask"]),
    (["tournament", "random", "first", "--scheduler", "tcp://head:8786"],
     ["--scheduler", "--backend dask"]),
    # --field: an unknown or malformed strategy, a seating it has no use for, no strategy
    (["tournament", "random", "--field", "rnadom", "--seed", "1"],
     ["--field rnadom", "unknown strategy", "'random'"]),
    (["tournament", "random", "--field", "random:bluff=2", "--seed", "1"],
     ["--field random:bluff=2", "bluff"]),
    (["tournament", "random", "--field", "random", "--seating", "permutations", "--seed", "1"],
     ["--seating permutations", "--field"]),
    (["tournament", "random", "--seed", "1"], ["at least two strategies", "--field"]),
    (["tournament", "random", "--field", "random", "--rule", "players=3", "--players", "2",
      "--seed", "1"], ["--rule players=3", "contradicts", "--players 2"]),
    (["skill", "official", "--strategy", "offensive", "--field", "nope", "--seed", "1"],
     ["--field nope", "unknown strategy"]),
    (["tournament", "random", "first", "--rule", "players=3", "--players", "2", "--seed", "1"],
     ["--rule players=3", "contradicts", "--players 2"]),
    # --players against --rule players=, and skill's smallest game count
    (["compare", "official", "stacking", "--rule", "players=3", "--players", "5"],
     ["--rule players=3", "contradicts", "--players 5"]),
    (["skill", "official", "--strategy", "first", "--rule", "players=3", "--players", "5",
      "--seed", "1"], ["--rule players=3", "contradicts", "--players 5"]),
    (["skill", "official", "--strategy", "offensive", "--games", "2", "--seed", "1"],
     ["--games 2", "at least 8 games", "4 players"]),
    (["skill", "official", "--strategy", "offensive", "--games", "5", "--players", "3",
      "--seed", "1"], ["--games 5", "at least 6 games", "3 players"]),
    (["atlas", "--games", "7", "--players", "2,4", "--seed", "1"],
     ["--games 7", "at least 8 games", "4 players"]),
    (["atlas", "--games", "1", "--players", "2", "--strategy", "none", "--seed", "1"],
     ["--games 1", "at least 2 games"]),
    # sweep: a LO..HI range steps by 1, so only whole-number keys take one
    (["sweep", "--rule", "uno_forget_prob=0..1", "--games", "100", "--seed", "1"],
     ["uno_forget_prob=0..1", "whole-number", "uno_forget_prob=0,0.25,0.5"]),
    (["sweep", "--rule", "voluntary_draw=0..1", "--games", "100", "--seed", "1"],
     ["voluntary_draw=0..1", "voluntary_draw=true,false"]),
    (["sweep", "--rule", "stacking=0..1", "--games", "100", "--seed", "1"],
     ["stacking=0..1", "list the values"]),
    (["skill", "official", "--strategy", "first", "--backend", "grid"], ["--backend", "grid"]),
    # replay
    (["replay", "--game", "1"], ["--seed"]),
    (["replay", "--seed", "1"], ["--game"]),
    (["replay", "--seed", "-1", "--game", "1"], ["--seed", "-1"]),
    (["replay", "--seed", "1", "--game", "-1"], ["--game", "-1"]),
    (["replay", "--seed", "1", "--game", "abc"], ["--game", "abc"]),
    (["replay", "--seed", "1", "--game", "1000000000000"], ["--game"]),
    (["replay", "--seed", "1", "--game", "1", "--players", "11"], ["--players", "11"]),
    (["replay", "--seed", "1", "--game", "1", "--variant", "nope"], ["unknown variant"]),
    (["replay", "--seed", "1", "--game", "1", "--rule", "hand_size=0"], ["hand_size"]),
    (["replay", "--seed", "1", "--game", "1", "--strategy", "x"], ["unknown strategy"]),
    (["replay", "--seed", "1", "--game", "1", "--seat", "5=first"], ["--seat", "0..3"]),
    (["replay", "--seed", "1", "--game", "1", "--format", "csv"], ["--format", "csv"]),
    (["replay", "--seed", "1", "--game", "1", "--strategy-file", "x.py"],
     ["--strategy-file", "PATH.py:NAME"]),
    # selfcheck
    (["selfcheck", "--minutes", "0"], ["--minutes", "0"]),
    (["selfcheck", "--minutes", "-1"], ["--minutes", "-1"]),
    (["selfcheck", "--minutes", "nan"], ["--minutes", "nan"]),
    (["selfcheck", "--minutes", "abc"], ["--minutes", "abc"]),
    (["selfcheck", "--minutes", "99999"], ["--minutes", "1440"]),
    (["selfcheck", "--seed", "-4"], ["--seed", "-4"]),
    (["selfcheck", "--combo", "-1"], ["--combo", "-1"]),
    (["selfcheck", "--games", "0"], ["--games"]),
    (["selfcheck", "--games", "1e6"], ["--games", "100000"]),
    (["selfcheck", "--python-games", "5000"], ["--python-games", "5000"]),
    (["selfcheck", "--python-games", "20", "--games", "10"], ["--python-games", "--games"]),
    (["selfcheck", "--hang-seconds", "0"], ["--hang-seconds", "0"]),
    # rules, bench
    (["rules", "{tmp}/typo.toml"], ["typo.toml", "unknown top-level key"]),
    (["rules", "--rule", "players=1"], ["players", "outside 2..10"]),
    (["bench", "--games", "0"], ["--games"]),
    (["bench", "--memory-games", "lots"], ["--memory-games", "lots"]),
    (["bench", "--format", "xml"], ["--format", "xml"]),
    (["compile", "everything"], ["unknown path", "everything", "rounds/search"]),
    (["bench", "--repeat", "0"], ["--repeat", "0"]),
    (["bench", "--repeat", "many"], ["--repeat", "many"]),
]

# commands whose every option must appear in some catalogue entry
CHECKED_COMMANDS = ("run", "compare", "replay", "selfcheck", "rules", "bench")


@pytest.fixture
def bad_files(tmp_path: Path) -> Path:
    """Every broken file and folder the catalogue refers to, under ``tmp_path``."""
    t = tmp_path
    (t / "folder.toml").mkdir()
    (t / "folder.parquet").mkdir()
    (t / "malformed.toml").write_text('description = "x"\n[rules\nstacking = 1\n')
    (t / "latin1.toml").write_bytes('description = "caf\xe9"\n'.encode("latin-1"))
    (t / "rules-not-table.toml").write_text('description = "x"\nrules = 5\n')
    (t / "typo.toml").write_text('description = "x"\n[rule]\nstacking = "progressive"\n')
    (t / "desc.toml").write_text("description = 5\n[rules]\n")
    (t / "unknown-key.toml").write_text('description = "x"\n[rules]\nstackin = "none"\n')
    (t / "bad-value.toml").write_text('description = "x"\n[rules]\nhand_size = "seven"\n')
    (t / "combo.toml").write_text('description = "x"\n[rules]\nstack_cards = "mixed"\n')
    (t / "nested.toml").write_text('description = "x"\n[rules]\ndeck.zeros = 99\n')
    (t / "a-file").write_text("x")
    (t / "empty").mkdir()
    (t / "not-json").mkdir()
    (t / "not-json" / "checkpoint.json").write_text("{not json")
    (t / "wrong-format").mkdir()
    (t / "wrong-format" / "checkpoint.json").write_text('{"format": "something-else"}')
    (t / "broken_plugin.py").write_text("import numba\nraise RuntimeError('nope')\n")
    _checkpoint(t / "unfinished")
    _checkpoint(t / "edited")
    doc = json.loads((t / "edited" / "checkpoint.json").read_text())
    doc["checkpoint"]["params"]["seed"] += 1  # edited by hand: the checksum no longer matches
    (t / "edited" / "checkpoint.json").write_text(json.dumps(doc))
    return t


def _checkpoint(folder: Path) -> None:
    """A real, valid checkpoint: 64 of 1000 games of seed 3."""
    from unosim.runs.backend import Progress
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy
    from unosim.studies import checkpoints as ck
    from unosim.studies.run.play import run

    folder.mkdir()
    rules = resolve()
    seats = [parse_strategy("random")] * 4
    res = run(rules, seats, 64, 3, workers=1)
    params = {"games_text": "1000", "players": None, "variant": [], "rule": [],
              "strategy": "random", "seat": [], "seed": 3, "out": None, "mode": "round",
              "target_score": None, "max_rounds": None, "save_games": None, "report": False,
              "precision": None}
    ck.Keeper(folder, "run", params, {"run": Progress(64, res.agg, {0})}, 1.0).save()


def _argv(entry: list[str], tmp: Path) -> list[str]:
    argv = [a.replace("{tmp}", str(tmp)) for a in entry]
    commands = set(COMMANDS) - {"run"}
    if argv and argv[0] not in commands and "--games" not in argv and "--resume" not in argv:
        argv += ["--games", "100"]
    return argv


def _plays(argv: list[str]) -> bool:
    """Whether the entry's plug-in plays (its loop compiles in this process)."""
    return any(a.startswith(f"{PLUGINS}:") for a in argv) and "--seat" in argv and \
        "three_args" not in " ".join(argv)


def _marked(entry: tuple[list[str], list[str]]):
    """An entry whose plug-in plays (its loop compiles in this process, about 10 s at
    Numba's default optimisation, 3 s at NUMBA_OPT=0) is slow; the rest are refused
    before any game."""
    argv, needles = entry
    return pytest.param(argv, needles, marks=[pytest.mark.slow, pytest.mark.compile]
                        if _plays(argv) else [],
                        id=f'{" ".join(argv)[:70]}-{" ".join(needles)[:70]}')


@pytest.mark.parametrize(("argv", "needles"), [_marked(e) for e in CATALOGUE])
def test_catalogue_entry_is_one_line_exit_2(capsys, monkeypatch, bad_files, argv, needles):
    if "/sys/" in " ".join(argv) and not _sys_refuses_writes():
        pytest.skip("needs a /sys that refuses new folders")
    if _plays(argv):
        # the error is what is checked, not the speed of the plug-in's loop: compiled
        # without LLVM's optimisations (Numba reads the variable at each compile; the
        # engine itself comes from the cache, compiled as usual)
        monkeypatch.setenv("NUMBA_OPT", "0")
    code, out, err = invoke(capsys, _argv(argv, bad_files))
    needles = [n.replace("{tmp}", str(bad_files)) for n in needles]
    assert_one_line_error(code, out, err, *needles)


#: tune (needs optuna): a study that would be lost at exit, or has no name
TUNE_CATALOGUE: list[tuple[list[str], list[str]]] = [
    (["tune", "weighted", "--storage", "sqlite:///"],
     ["--storage sqlite:///", "in-memory", "lost", "sqlite:///unosim-tune.db"]),
    (["tune", "weighted", "--storage", "sqlite://"], ["--storage sqlite://", "in-memory"]),
    (["tune", "weighted", "--storage", "sqlite:///:memory:"], [":memory:", "in-memory"]),
    (["tune", "weighted", "--study", ""], ["--study", "''"]),
    (["tune", "weighted", "--study", "  "], ["--study", "'  '"]),
]


@pytest.mark.parametrize(("argv", "needles"), TUNE_CATALOGUE, ids=lambda v: " ".join(v)[:70])
def test_tune_catalogue_entry_is_one_line_exit_2(capsys, argv, needles):
    pytest.importorskip("optuna")
    code, out, err = invoke(capsys, [*argv, "--trials", "1", "--games-per-trial", "100"])
    assert_one_line_error(code, out, err, *needles)


def _sys_refuses_writes() -> bool:
    try:
        Path("/sys/unosim-test-out").mkdir()
    except OSError:
        return True
    Path("/sys/unosim-test-out").rmdir()
    return False


# ---------------------------------------------------------------- every rule key


def _wrong_values(key: str) -> list[tuple[object, str]]:
    """(a wrong value for ``key``, a word the error must contain)."""
    k = SCHEMA[key]
    if k.kind == "bool":
        return [("maybe", "true or false")]
    if k.kind == "choice":
        return [("no-such-choice", "is not one of")]
    word = k.kind_word().split()[-1]  # "integer" or "number"
    wrong: list[tuple[object, str]] = [("lots", word),
                                       ("nan", "finite" if k.kind == "float" else word)]
    if k.kind == "int":
        wrong.append(("1.5", "integer"))
    if k.hi is not None:
        wrong.append((str(k.hi + 1 if k.kind == "int" else k.hi + 0.5), "outside"))
    if k.lo is not None:
        wrong.append((str(k.lo - 1), "outside"))
    return wrong


RULE_CASES = [(key, v, word) for key in SCHEMA for v, word in _wrong_values(key)]


@pytest.mark.parametrize(("key", "value", "word"), RULE_CASES,
                         ids=[f"{k}={v}" for k, v, _ in RULE_CASES])
def test_every_rule_key_with_a_wrong_value_on_the_command_line(capsys, key, value, word):
    code, out, err = invoke(capsys, ["--rule", f"{key}={value}", "--games", "100"])
    assert_one_line_error(code, out, err, f"rule {key}", word)


def _toml_value(value: object) -> str:
    """The wrong value as TOML: numbers as numbers, the rest as strings."""
    if value == "nan":
        return "nan"
    try:
        float(str(value))
        return str(value)
    except ValueError:
        return json.dumps(value)


@pytest.mark.parametrize(("key", "value", "word"), RULE_CASES,
                         ids=[f"{k}={v}" for k, v, _ in RULE_CASES])
def test_every_rule_key_with_a_wrong_value_in_a_variant_file(capsys, tmp_path, key, value,
                                                              word):
    f = tmp_path / "mine.toml"
    f.write_text(f'description = "wrong {key}"\n[rules]\n"{key}" = {_toml_value(value)}\n')
    code, out, err = invoke(capsys, ["--variant", str(f), "--games", "100"])
    assert_one_line_error(code, out, err, "mine.toml", f"rule {key}")


@pytest.mark.parametrize("key", list(SCHEMA))
def test_every_rule_key_with_a_wrong_type_in_a_variant_file(capsys, tmp_path, key):
    """TOML has types: a table or an array where a value belongs."""
    f = tmp_path / "mine.toml"
    f.write_text(f'description = "x"\n[rules]\n"{key}" = [1, 2]\n')
    code, out, err = invoke(capsys, ["--variant", str(f), "--games", "100"])
    assert_one_line_error(code, out, err, "mine.toml", key)


# ---------------------------------------------------------------- variant files that work


def test_a_variant_file_is_used_like_a_preset(capsys, tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('description = "our house rules"\n[rules]\nstacking = "progressive"\n'
                 'deck.zeros = 2\n"hand_size" = 5\n')
    code, out, err = invoke(capsys, ["--variant", str(f), "--games", "500", "--seed", "1",
                                     "--format", "json", "--workers", "1"])
    assert code == 0, err
    s = json.loads(out)
    assert s["rules"]["stacking"] == "progressive"
    assert s["rules"]["deck.zeros"] == 2 and s["rules"]["hand_size"] == 5
    code, out, err = invoke(capsys, ["rules", str(f), "--rule", "hand_size=6"])
    assert code == 0, err
    starred = {ln[2:].split()[0] for ln in out.splitlines() if ln.startswith("*")}
    assert starred == {"stacking", "deck.zeros", "hand_size"}


def test_a_copy_of_every_preset_gives_the_same_rules(tmp_path):
    from unosim.simulate.rules import preset_names, resolve

    for name in preset_names():
        copy = tmp_path / f"{name}-copy.toml"
        shutil.copy(TESTS.parent / "configs" / f"{name}.toml", copy)
        assert resolve([str(copy)]) == resolve([name]), name


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root reads any file")
def test_an_unreadable_variant_file(capsys, tmp_path):
    f = tmp_path / "secret.toml"
    f.write_text('description = "x"\n')
    f.chmod(0)
    code, out, err = invoke(capsys, ["--variant", str(f), "--games", "100"])
    assert_one_line_error(code, out, err, "secret.toml", "cannot read")


# ---------------------------------------------------------------- environment


@pytest.mark.parametrize(("name", "value"), [
    ("UNOSIM_BATCH", "abc"), ("UNOSIM_BATCH", "0"), ("UNOSIM_BATCH", "-5"),
    ("UNOSIM_CHECKPOINT_SECONDS", "soon"), ("UNOSIM_CHECKPOINT_SECONDS", "-1"),
])
def test_bad_environment_variables(capsys, monkeypatch, tmp_path, name, value):
    monkeypatch.setenv(name, value)
    code, out, err = invoke(capsys, ["--games", "100", "--out", str(tmp_path / "o")])
    assert_one_line_error(code, out, err, name, repr(value))


# ---------------------------------------------------------------- help texts

#: what each command writes into --out (its --out help must name these); `not` what
#: it does not write
OUT_FILES: dict[str, tuple[list[str], list[str]]] = {
    "run": (["summary.json", "summary.csv", "report.html"], []),
    "compare": (["summary.json", "summary.csv", "PNG", "SVG", "report.html"], []),
    "skill": (["skill.json", "skill.csv"], ["summary", "report.html"]),
    "sweep": (["sweep.json", "sweep.csv", "PNG", "SVG", "sweep.html"], ["summary"]),
    "atlas": (["atlas.json", "atlas.csv", "PNG", "SVG", "atlas.html"], ["summary"]),
    "tune": (["summary.json", "summary.csv", "trials.csv", "PNG", "SVG"], ["report.html"]),
}


@pytest.mark.parametrize("name", sorted(OUT_FILES))
def test_out_help_names_what_the_command_writes(name):
    params = cli.get_command(click.Context(cli), name).params
    help_text = next(p for p in params if p.name == "out").help
    named, absent = OUT_FILES[name]
    assert all(f in help_text for f in named), (name, help_text)
    assert not any(f in help_text for f in absent), (name, help_text)


def test_tournament_takes_out_and_resume_as_the_other_studies_do():
    """A tournament keeps a checkpoint with --out and finishes it with --resume (it had
    neither, so a stopped tournament could only be rerun)."""
    params = cli.get_command(click.Context(cli), "tournament").params
    assert {"out", "resume_dir"} <= {p.name for p in params}


@pytest.mark.parametrize("name", [None, *COMMANDS])
def test_no_help_shows_a_doubled_percent_sign(capsys, name):
    """click does not %-format help text: ``95%%`` would show as it is written."""
    code, out, err = invoke(capsys, ["--help"] if name is None else [name, "--help"])
    assert code == 0, err
    assert "%%" not in out, [ln for ln in out.splitlines() if "%%" in ln]


# ---------------------------------------------------------------- completeness


def _covered(argv_lists: list[list[str]], command: str, opts: list[str]) -> bool:
    for argv in argv_lists:
        is_command = (argv[:1] == [command]) if command != "run" else (
            not argv or argv[0] not in set(COMMANDS) - {"run"})
        if is_command and any(a == o or a.startswith(o + "=") for a in argv for o in opts):
            return True
    return False


def test_every_option_is_in_the_catalogue():
    entries = [a for a, _ in CATALOGUE] + [a for a, _ in BAD_INPUT]
    missing = []
    for name in CHECKED_COMMANDS:
        for p in cli.get_command(click.Context(cli), name).params:
            if p.param_type_name != "option" or getattr(p, "is_flag", False) and name != "run":
                continue
            if p.name in ("help", "progress", "keys", "quick", "skip_compile"):
                continue  # flags: there is no wrong value to give
            if not _covered(entries, name, list(p.opts)):
                missing.append(f"{name} {p.opts[0]}")
    assert not missing, f"options without a bad-input test: {missing}"
