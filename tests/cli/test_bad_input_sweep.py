"""A sweep of bad input over every surface: every option of every command given wrong
values (words for numbers, negative and zero counts, unknown names, missing files,
malformed assignments), every keyword of every ``unosim.api`` function given wrong
types and values, and the RL environments' constructors, ``reset`` and ``step``.

The promise (docs/reliability.md): a command answers bad input with one line
``unosim: error: ...`` and exit code 2, never a traceback; the API and the
environments raise one ``UnosimError`` (a ``ValueError``) whose message names the
argument or the value. The cases are generated from the commands' own parameters and
the functions' signatures, so a new option or keyword is swept without a new line
here (an option with no bad value to give is listed in ``NO_BAD_VALUE``).
``test_the_sweep_is_large_enough`` counts them.

tests/cli/test_reliability_badinput.py checks the exact words of many messages; this
sweep checks the shape of every answer over many more inputs.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import numpy as np
import pytest
from cli_helpers import invoke

from unosim import api
from unosim.cli import COMMANDS, cli
from unosim.errors import UnosimError

# ---------------------------------------------------------------- the commands

CLAIM = "bluff-pays"

#: a valid, fast command line of each command: a case changes or adds one option
BASE: dict[str, list[str]] = {
    "run": ["run", "--games", "100", "--seed", "1"],
    "compare": ["compare", "official", "stacking", "--games", "100", "--seed", "1"],
    "tournament": ["tournament", "random", "first", "--games", "100", "--seed", "1"],
    "ladder": ["ladder", "random", "first", "--games", "100", "--seed", "1"],
    "design": ["design", "--minimize", "turns", "--keys", "hand_size=5,7", "--trials", "2",
               "--games", "100", "--seed", "1"],
    "skill": ["skill", "official", "--strategy", "offensive", "--games", "100", "--seed", "1"],
    "sweep": ["sweep", "--rule", "hand_size=5..6", "--games", "100", "--seed", "1"],
    "atlas": ["atlas", "--players", "2", "--games", "100", "--seed", "1", "--strategy", "none"],
    "settle": ["settle", CLAIM, "--games", "100", "--seed", "1"],
    "tune": ["tune", "weighted", "--trials", "1", "--games-per-trial", "100", "--seed", "1",
             "--storage", "sqlite:///{tmp}/t.db"],
    "replay": ["replay", "--seed", "1", "--game", "0"],
    "rules": ["rules"],
    "variants": ["variants"],
    "strategies": ["strategies"],
    "bench": ["bench", "--quick", "--skip-compile"],
    "compile": ["compile"],
    "selfcheck": ["selfcheck", "--minutes", "0.01"],
    "play": ["play", "--seed", "1"],
}

#: wrong values of each option, by name; {tmp} holds the files of ``bad_files``
BAD_VALUES: dict[str, list[str]] = {
    "--games": ["abc", "0", "-5", "1.5", "1e20", ""],
    "--players": ["1", "11", "abc", "-2", "2.5"],
    "--variant": ["nope", "{tmp}/missing.toml", "{tmp}/malformed.toml", ""],
    "--rule": ["nope=1", "stacking", "hand_size=abc", "hand_size=0", "=1"],
    "--strategy": ["nope", "random:bluff=2", "random:nope=1", ""],
    "--seat": ["x", "9=random", "0=nope", "-1=random"],
    "--seed": ["abc", "-1", "1.5"],
    "--workers": ["abc", "0", "-1"],
    "--backend": ["cloud", ""],
    "--scheduler": ["tcp://head:8786"],
    "--format": ["xml", ""],
    "--out": ["{tmp}/a-file", "{tmp}/a-file/sub"],
    "--strategy-file": ["no-colon", "{tmp}/none.py:f", "{tmp}/broken.py:f"],
    "--resume": ["{tmp}/no-such-folder", "{tmp}/empty", "{tmp}/not-json", "{tmp}/a-file"],
    "--mode": ["x", ""],
    "--target-score": ["abc", "0", "-3"],
    "--max-rounds": ["abc", "0", "-3"],
    "--save-games": ["{tmp}/g.txt", "{tmp}/no/such/g.csv", "{tmp}/folder.parquet"],
    "--precision": ["abc", "0", "-1", "0.7"],
    "--field": ["nope", "random:bluff=2"],
    "--seating": ["x"],
    "--alpha": ["abc", "0", "2", "-0.1"],
    "--seeds": ["0", "abc", "-1"],
    "--replications": ["0", "abc"],
    "--param": ["nope=1..2", "wild", "wild=3..1"],
    "--against": ["nope", ""],
    "--trials": ["-1", "abc", "1.5"],
    "--games-per-trial": ["0", "abc", "-1"],
    "--sampler": ["x"],
    "--storage": ["nodb://nowhere", "sqlite:///", "sqlite:///{tmp}/no/such/t.db"],
    "--study": ["", "  "],
    "--minutes": ["0", "abc", "nan", "-1"],
    "--combo": ["-1", "abc"],
    "--python-games": ["abc", "-1"],
    "--hang-seconds": ["0", "abc"],
    "--memory-games": ["lots", "0"],
    "--repeat": ["0", "x"],
    "--game": ["-1", "abc", "1000000000000"],
    "--hint-rollouts": ["0", "abc"],
    "--match": ["-5", "abc", "0"],
    "--save": ["{tmp}/no/such/p.json", "{tmp}/folder.parquet"],
    "--port": ["0", "abc", "70000"],
    "--maximize": ["nope", ""],
    "--minimize": ["nope", ""],
    "--require": ["turns", "nope<=3", "turns<=abc", "skill_edge>=5%"],
    "--question": ["{tmp}/missing.toml", "{tmp}/malformed.toml", "{tmp}/a-file"],
    "--base": ["nope", "{tmp}/missing.toml", "{tmp}/malformed.toml", ""],
}

#: per command, a different list where the shared one does not fit
COMMAND_VALUES: dict[tuple[str, str], list[str]] = {
    ("sweep", "--players"): ["1..3", "abc", "11", "2..1"],
    ("sweep", "--rule"): ["nope=1..2", "hand_size", "hand_size=9..5", "uno_forget_prob=0..1"],
    ("atlas", "--players"): ["1", "abc", "2,11", ""],
    ("atlas", "--strategy"): ["nope", "random:bluff=2"],
}

#: positional arguments: wrong values of each command's own
BAD_ARGUMENTS: dict[str, list[list[str]]] = {
    "compare": [["official"], ["official", "nope"], ["official", "official"],
                ["official", "{tmp}/malformed.toml"]],
    "tournament": [["nope", "random"], ["random"], ["random:bluff=2", "first"]],
    "ladder": [["nope", "random"], ["random"], ["random:bluff=2", "first"]],
    "skill": [["nope"], ["{tmp}/missing.toml"]],
    "settle": [["nope"], ["{tmp}/missing.toml"], ["{tmp}/malformed.toml"]],
    "tune": [["nope"], ["random"], ["weighted:wild=1"], [""]],
    "replay": [["{tmp}/missing.json"], ["{tmp}/empty.json"], ["{tmp}/binary.json"],
               ["{tmp}/list.json"], ["{tmp}/a-file"], ["{tmp}/empty"]],
    "rules": [["nope"], ["{tmp}/malformed.toml"]],
    "compile": [["nope"], ["rounds", "nope"]],
    "strategies": [["nope"]],
    "variants": [["nope"]],
}

#: the word a command's messages use for its positional arguments
ARGUMENT_WORDS = {"compare": "variant", "skill": "variant", "tournament": "strateg",
                  "settle": "claim", "tune": "strateg", "rules": "variant",
                  "compile": "path", "replay": "file", "ladder": "strateg"}

#: options with no wrong value to give (flags), per name
NO_BAD_VALUE = {"--help", "--progress", "--keys", "--quick", "--skip-compile", "--report",
                "--all", "--error-rate", "--training", "--call-uno", "--serve"}


def _options(name: str) -> list[click.Parameter]:
    return [p for p in cli.get_command(click.Context(cli), name).params
            if p.param_type_name == "option"]


def _with(base: list[str], opt: str, value: str) -> list[str]:
    """``base`` with ``opt`` set to ``value`` (replaced where ``base`` gives it)."""
    if opt == "--resume":  # takes nothing else from the command line
        return [base[0], opt, value]
    argv = list(base)
    if opt in argv:
        i = argv.index(opt)
        argv[i + 1] = value
        return argv
    return [*argv, f"{opt}={value}" if value.startswith("-") else opt, *(
        [] if value.startswith("-") else [value])]


def _cli_cases() -> list[tuple[str, list[str], list[str]]]:
    """(label, command line, the option and value or the arguments it changed)."""
    cases = []
    for name in sorted(COMMANDS):
        base = BASE[name]
        for p in _options(name):
            opt = p.opts[0]
            if opt in NO_BAD_VALUE or getattr(p, "is_flag", False):
                continue
            values = COMMAND_VALUES.get((name, opt), BAD_VALUES.get(opt))
            assert values, f"no bad values for {name} {opt}: add them to BAD_VALUES"
            for v in values:
                cases.append((f"{name} {opt} {v!r}", _with(base, opt, v), [opt, v]))
        for args in BAD_ARGUMENTS.get(name, []):
            argv = [name, *args, *_base_options(base)]  # the base's options, not its names
            words = [*args, *([ARGUMENT_WORDS[name]] if name in ARGUMENT_WORDS else [])]
            cases.append((f"{name} {' '.join(args)!r}", argv, words))
    return cases


def _base_options(base: list[str]) -> list[str]:
    """The options of a base command line, without its positional arguments."""
    out, i = [], 1
    while i < len(base):
        if base[i].startswith("-"):
            out.append(base[i])
            if i + 1 < len(base) and not base[i + 1].startswith("-"):
                out.append(base[i + 1])
                i += 1
        i += 1
    return out


CLI_CASES = _cli_cases()


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory) -> Path:
    t = tmp_path_factory.mktemp("bad")
    (t / "a-file").write_text("x")
    (t / "empty").mkdir()
    (t / "folder.parquet").mkdir()
    (t / "not-json").mkdir()
    (t / "not-json" / "checkpoint.json").write_text("{not json")
    (t / "malformed.toml").write_text('description = "x"\n[rules\n')
    (t / "broken.py").write_text("raise RuntimeError('nope')\n")
    (t / "empty.json").write_text("")
    (t / "binary.json").write_bytes(bytes(range(256)) * 2)
    (t / "list.json").write_text("[1, 2, 3]")
    return t


def _names_it(line: str, words: list[str]) -> bool:
    """The line names the option (``--rule`` or its word, "unknown rule key"), or a
    word of the wrong value or argument."""
    for w in words:
        if w == "" and "''" in line:
            return True
        if w.startswith("--") and (w in line or w[2:].replace("-", " ") in line
                                   or w[2:].replace("-", "_") in line):
            return True
        for token in re.split(r"[=:,/ ]|\.\.", w):
            if len(token.strip("-")) >= 2 and token in line:
                return True
    return False


@pytest.mark.parametrize(("label", "argv", "words"), CLI_CASES,
                         ids=[c[0][:80] for c in CLI_CASES])
def test_a_bad_command_line_is_one_line_exit_2(capsys, bad_files, label, argv, words):
    argv = [a.replace("{tmp}", str(bad_files)) for a in argv]
    words = [w.replace("{tmp}", str(bad_files)) for w in words]
    code, out, err = invoke(capsys, argv)
    assert "Traceback" not in out + err, err
    assert code == 2, (code, err[-2000:])
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("unosim: error: "), err
    assert _names_it(lines[0], words), (label, lines[0])


# ---------------------------------------------------------------- the API

class _Opaque:
    """A value of no rule type, with a repr that is the same in every process (test ids
    must be, for pytest-xdist's workers to agree on what they collected)."""

    def __repr__(self) -> str:
        return "<opaque>"


OPAQUE = _Opaque()

#: wrong values of each keyword, by name
API_BAD: dict[str, list[Any]] = {
    "variant": [123, ["official", 3], "nope", {"a": 1}],
    "variants": [123, ["official", 3], ["official", "nope"]],
    "games": ["abc", -5, 0, 1.5, None, [1], float("nan")],
    "players": ["4", 1, 11, 2.5, True],
    "rule": [5, ["hand_size"], {"nope": 1}, {"hand_size": OPAQUE}, "hand_size=abc"],
    "seat": [5, {9: "random"}, ["x"], {0: "nope"}],
    "strategy": [3, "nope", None],
    "seed": ["x", -1, 1.5, True],
    "workers": ["2", 0, -1],
    "mode": ["x", 1],
    "target_score": ["x", 0],
    "max_rounds": ["x", 0],
    "keep_games": ["yes", None],
    "strategy_file": [3, "no-colon"],
    "progress": ["yes", None],
    "backend": ["cloud", 1],
    "scheduler": [5],
    "field": [5, "nope"],
    "seating": ["x"],
    "alpha": ["x", 0, 2, [1]],
    "all": ["yes"],
    "claims": [5, "nope"],
    "strategies": [5, "nope", []],
    "param": [5, {"nope": "1..2"}],
    "against": [5, "nope"],
    "trials": [-1, "x", 1.5],
    "games_per_trial": ["x", 0],
    "sampler": ["x"],
    "storage": [5, "nodb://x"],
    "study": [5, ""],
    "game": [-1, "x", None],
}

#: a valid, fast call of each function: a case changes one keyword
API_BASE: dict[str, dict[str, Any]] = {
    "simulate": {"games": 100},
    "compare": {"variants": ["official", "stacking"], "games": 100},
    "comparison": {"variants": ["official", "stacking"], "games": 100},
    "rules_for": {},
    "settle": {"claims": [CLAIM], "games": 100},
    "tournament": {"strategies": ["random", "first"], "games": 100},
    "ladder": {"strategies": ["random", "first"], "games": 100},
    "design": {"minimize": "turns", "keys": ["hand_size=5,7"], "trials": 2, "games": 100},
    "skill": {"variants": ["official"], "strategy": "offensive", "games": 100},
    "sweep": {"rule": {"hand_size": "5..6"}, "games": 100},
    "atlas": {"players": "2", "games": 100, "strategy": "none"},
    "tune": {"strategy": "weighted", "trials": 1, "games_per_trial": 100, "seed": 1},
    "replay": {"seed": 1, "game": 0},
}

API_OWN: dict[tuple[str, str], list[Any]] = {
    ("design", "games"): ["abc", -5, 0, 1.5, [1], float("nan")],
    ("design", "maximize"): [5, "nope", ["comeback", 3]],
    ("design", "minimize"): [5, "nope"],
    ("design", "require"): [5, "turns", "nope<=3"],
    ("design", "question"): [5, "missing-question.toml"],
    ("design", "base"): [5, "nope"],
    ("design", "keys"): [5, "nope", ["hand_size=abc"]],
    ("design", "out"): [5],
    ("design", "strategy"): [3, "nope"],
    ("sweep", "players"): ["1..3", "abc", [1, 2], 2.5, {"a": 1}],
    ("atlas", "players"): ["1", "abc", [2, 11], 2.5],
    ("tournament", "strategies"): [5, ["nope", "random"], [], ["random"]],
    ("ladder", "strategies"): [5, ["nope", "random"], ["random"]],
    ("replay", "file"): [5, ["games.json"], b"games.json"],
}


def _api_params(fn: Callable[..., Any]) -> list[str]:
    return [n for n, p in inspect.signature(fn).parameters.items()
            if p.kind is not inspect.Parameter.VAR_KEYWORD]


def _api_cases() -> list[tuple[str, str, Any]]:
    cases = []
    for name in sorted(API_BASE):
        fn = getattr(api, name)
        for arg in _api_params(fn):
            values = API_OWN.get((name, arg), API_BAD.get(arg))
            assert values is not None, f"no bad values for api.{name}({arg}=): add them"
            cases += [(name, arg, v) for v in values]
    return cases


API_CASES = _api_cases()


def _api_names_it(message: str, arg: str, value: Any) -> bool:
    names = {arg, arg.replace("_", "-"), arg.rstrip("s"), arg.replace("_", " ")}
    if arg.endswith("ies"):
        names.add(arg[:-3] + "y")  # strategies: "at least one strategy"
    if any(n in message for n in names):
        return True
    words = list(value.values()) if isinstance(value, dict) else (
        list(value) if isinstance(value, list) else [value])
    return any(isinstance(w, str) and len(w) >= 2 and repr(w) in message for w in words)


@pytest.mark.parametrize(("fn", "arg", "value"), API_CASES,
                         ids=[f"{f}({a}={v!r})"[:80] for f, a, v in API_CASES])
def test_a_bad_api_argument_is_one_error_naming_it(tmp_path, fn, arg, value):
    if fn == "tune":
        pytest.importorskip("optuna")
    kwargs = {**API_BASE[fn], "storage": f"sqlite:///{tmp_path / 't.db'}"} if fn == "tune" \
        else dict(API_BASE[fn])
    kwargs[arg] = value
    with pytest.raises(ValueError) as e:
        getattr(api, fn)(**kwargs)
    message = str(e.value)
    assert "\n" not in message, message
    assert _api_names_it(message, arg, value), (arg, value, message)


# ---------------------------------------------------------------- the environments


def _aec(**kw: Any) -> Any:
    from unosim.env.aec import aec_env

    return aec_env(**{"players": 2, "seed": 1, **kw})


def _vector(**kw: Any) -> Any:
    from unosim.env.vector import vector_env

    return vector_env(**{"players": 2, "num_envs": 4, "seed": 1, **kw})


def _aec_step(action: Any) -> Callable[[], Any]:
    def go() -> None:
        env = _aec()
        env.reset(seed=1)
        env.step(action)
    return go


def _aec_after_the_end(what: str) -> Callable[[], Any]:
    def go() -> None:
        env = _aec()
        env.reset(seed=1)
        for _ in range(10_000):
            if not env.agents:
                break
            agent = env.agent_selection
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if what == "step":
            env.step(0)
        else:
            env.last()
        del agent
    return go


def _vector_step(actions: Any) -> Callable[[], Any]:
    def go() -> None:
        env = _vector()
        env.reset(seed=1)
        env.step(actions)
    return go


def _vector_reset(**kw: Any) -> Callable[[], Any]:
    def go() -> None:
        _vector().reset(**kw)
    return go


def _aec_reset(**kw: Any) -> Callable[[], Any]:
    def go() -> None:
        _aec().reset(**kw)
    return go


#: (label, the call, a word the message must contain, or words one of which it must)
ENV_CASES: list[tuple[str, Callable[[], Any], str | tuple[str, ...]]] = [
    ("aec players='x'", lambda: _aec(players="x"), "players"),
    ("aec players=1", lambda: _aec(players=1), "players"),
    ("aec players=2.5", lambda: _aec(players=2.5), "players"),
    ("aec variant=123", lambda: _aec(variant=123), "variant"),
    ("aec variant='nope'", lambda: _aec(variant="nope"), "nope"),
    ("aec rule=5", lambda: _aec(rule=5), "rule"),
    ("aec rule={'nope': 1}", lambda: _aec(rule={"nope": 1}), "nope"),
    ("aec opponents={9: 'random'}", lambda: _aec(opponents={9: "random"}), "seat"),
    ("aec opponents={1: 'nope'}", lambda: _aec(opponents={1: "nope"}), "nope"),
    ("aec reward='x'", lambda: _aec(reward="x"), "reward"),
    ("aec encoding='x'", lambda: _aec(encoding="x"), "encoding"),
    ("aec seed='x'", lambda: _aec(seed="x"), "seed"),
    ("aec seed=-1", lambda: _aec(seed=-1), "seed"),
    ("aec reset(seed=1.5)", _aec_reset(seed=1.5), "seed"),
    ("aec reset(seed='x')", _aec_reset(seed="x"), "seed"),
    ("aec reset(seed=-1)", _aec_reset(seed=-1), "seed"),
    ("aec step(None)", _aec_step(None), "action"),
    ("aec step(1.5)", _aec_step(1.5), "action"),
    ("aec step('x')", _aec_step("x"), "action"),
    ("aec step(-1)", _aec_step(-1), "action"),
    ("aec step(2**63)", _aec_step(2**63), str(2**63)),
    ("aec step(array([1, 2]))", _aec_step(np.array([1, 2])), "action"),
    ("aec step after the end", _aec_after_the_end("step"), ("done", "over", "reset")),
    ("aec last after the end", _aec_after_the_end("last"), ("done", "over", "reset")),
    ("vector players='x'", lambda: _vector(players="x"), "players"),
    ("vector num_envs=0", lambda: _vector(num_envs=0), "num_envs"),
    ("vector num_envs='x'", lambda: _vector(num_envs="x"), "num_envs"),
    ("vector num_envs=-4", lambda: _vector(num_envs=-4), "num_envs"),
    ("vector learner_seat=5", lambda: _vector(learner_seat=5), "learner_seat"),
    ("vector opponents=['random']", lambda: _vector(opponents=["random"]), "opponents"),
    ("vector opponents='nope'", lambda: _vector(opponents="nope"), "nope"),
    ("vector reward='x'", lambda: _vector(reward="x"), "reward"),
    ("vector seed='x'", lambda: _vector(seed="x"), "seed"),
    ("vector reset(seed=1.5)", _vector_reset(seed=1.5), "seed"),
    ("vector reset(seed='x')", _vector_reset(seed="x"), "seed"),
    ("vector reset(seed=-1)", _vector_reset(seed=-1), "seed"),
    ("vector reset(seed=[1, 2])", _vector_reset(seed=[1, 2]), "seed"),
    ("vector reset(seed=array(1.5))", _vector_reset(seed=np.array(1.5)), "seed"),
    ("vector reset(seed=array(-1))", _vector_reset(seed=np.array(-1)), "seed"),
    ("vector step(None)", _vector_step(None), "action"),
    ("vector step(zeros(3))", _vector_step(np.zeros(3, np.int64)), "action"),
    ("vector step(floats)", _vector_step(np.full(4, 0.5)), ("0.5", "float", "whole")),
    ("vector step(strings)", _vector_step(np.array(["a"] * 4)), ("action", "'a'")),
    ("vector step(2**63)", _vector_step(np.full(4, 2**63, np.uint64)), str(2**63)),
    ("vector step(-1)", _vector_step(np.full(4, -1)), "action"),
]

#: the environment cases the environments do not pass yet: expected to fail, strictly
#: (a pass fails, so the list shrinks as they are fixed)
ENV_NOT_YET: set[str] = set()


def _env_params() -> list[Any]:
    return [pytest.param(*c, id=c[0], marks=[pytest.mark.xfail(
        strict=True, reason="the environment does not check this yet")]
        if c[0] in ENV_NOT_YET else []) for c in ENV_CASES]


@pytest.mark.parametrize(("label", "call", "word"), _env_params())
def test_a_bad_environment_argument_is_one_error_naming_it(label, call, word):
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    with pytest.raises(ValueError) as e:
        call()
    assert isinstance(e.value, UnosimError) or type(e.value) is ValueError, repr(e.value)
    words = (word,) if isinstance(word, str) else word
    assert any(w in str(e.value) for w in words), (label, str(e.value))


def test_the_sweep_is_large_enough():
    """At least 250 bad inputs in all; the counts are the report's figures."""
    counts = {"cli": len(CLI_CASES), "api": len(API_CASES), "env": len(ENV_CASES)}
    assert sum(counts.values()) >= 250, counts
    assert counts["cli"] >= 150 and counts["api"] >= 100 and counts["env"] >= 30, counts
