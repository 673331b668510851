"""User plug-in strategies: loading, checking, playing, and their one-line errors.

Each distinct set of plug-ins compiles its own game loop once per process (a few
seconds), so the tests reuse a handful of plug-ins.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest

from unosim.cli import main
from unosim.errors import UnosimError
from unosim.runs.game import Game, IllegalMove
from unosim.runs.match import play_match_records
from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate.round_nb import move_is_legal
from unosim.simulate.rules import resolve
from unosim.simulate.step_nb import is_legal
from unosim.strategies.plugins import load_plugins
from unosim.strategies.registry import parse_strategy
from unosim.studies.run.play import run

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "strategies" / "examples" / "plugins.py"
TESTS = Path(__file__).resolve().parents[1] / "plugins_for_tests.py"


#: loading compiles each plug-in (seconds): only the tests that play them ask for it,
#: and those compile a plug-in's loop too (marked compile: the fast tier leaves them out)
@pytest.fixture(scope="module")
def _plugins():
    load_plugins([f"{EXAMPLES}:random_copy", f"{EXAMPLES}:hybrid", f"{TESTS}:illegal",
                  f"{TESTS}:raises", f"{TESTS}:allocates"])


def invoke(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    return exc.value.code or 0, out, err


# ------------------------------------------------------------------ play


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
@pytest.mark.parametrize("variant", ["official", "stacking", "seven-o"])
def test_plugin_copy_of_random_plays_the_same_games_as_the_builtin(variant):
    rules = resolve([variant])
    ref = play_records(rules, [parse_strategy("random")] * 4, 11, 0, 1500, chunks=3)
    got = play_records(rules, [parse_strategy("random_copy")] * 4, 11, 0, 1500, chunks=3)
    assert np.array_equal(ref, got)
    # mixed tables go through the same chooser: plug-in seats and built-in seats
    mixed = [parse_strategy(s) for s in ("random", "random_copy", "random", "random_copy")]
    assert np.array_equal(ref, play_records(rules, mixed, 11, 0, 1500, chunks=2))


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
def test_plugin_results_do_not_depend_on_workers_or_batches():
    rules = resolve()
    seats = [parse_strategy(s) for s in ("hybrid", "offensive", "allocates", "random")]
    one = run(rules, seats, 3000, seed=4, workers=1, batch=3000)
    two = run(rules, seats, 3000, seed=4, workers=2, batch=700)
    assert one.agg.same_as(two.agg)
    assert one.agg.capped == 0


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
def test_game_api_plays_plugins_move_by_move():
    g = Game(resolve(), [parse_strategy("illegal")] + [parse_strategy("random")] * 3, seed=5)
    with pytest.raises(IllegalMove):
        g.play_out()
    g = Game(resolve(), [parse_strategy("hybrid")] * 4, seed=5).play_out()
    assert g.over


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
def test_plugins_take_parameters():
    s = parse_strategy("hybrid:bluff=0.2,challenge=informed")
    assert s.label() == "hybrid:bluff=0.2,challenge=informed"
    assert s.plugin is not None


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("name,words", [
    # a plain function is a Python strategy of the view; one of (G, rng) is neither
    ("plain", ["one argument, the view", "@numba.njit"]),
    ("three_args", ["does not compile", "int64[:]"]),
    ("returns_float", ["must return an integer", "float64"]),
    ("bad_types", ["does not compile", "no_such_attribute"]),
    ("missing", ["has no 'missing'", "random_copy"]),
])
def test_bad_plugins_are_refused_with_one_line(name, words):
    spec = f"{TESTS}:{name}" if name != "missing" else f"{EXAMPLES}:{name}"
    with pytest.raises(UnosimError) as e:
        load_plugins([spec])
    msg = str(e.value)
    assert "\n" not in msg and "\x1b" not in msg
    for w in words:
        assert w in msg, msg


def test_a_file_that_does_not_import_or_a_bad_spec(tmp_path):
    bad = tmp_path / "broken.py"
    bad.write_text("import numba\nraise RuntimeError('nope')\n")
    with pytest.raises(UnosimError, match="importing .* failed: RuntimeError: nope"):
        load_plugins([f"{bad}:f"])
    with pytest.raises(UnosimError, match="PATH.py:NAME"):
        load_plugins([str(EXAMPLES)])
    with pytest.raises(UnosimError, match="no file"):
        load_plugins([f"{tmp_path}/none.py:f"])


def test_a_plugin_named_like_a_builtin_is_refused(tmp_path):
    f = tmp_path / "clash.py"
    f.write_text("import numba\n\n@numba.njit\ndef offensive(G, rng):\n    return 256\n")
    with pytest.raises(UnosimError, match="built-in"):
        load_plugins([f"{f}:offensive"])


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
def test_an_illegal_move_names_the_game_to_replay():
    seats = [parse_strategy("random"), parse_strategy("illegal")] * 2
    with pytest.raises(UnosimError) as e:
        play_records(resolve(), seats, 7, 100, 50, chunks=4)
    msg = str(e.value)
    assert "illegal move 257 (pass)" in msg and "phase turn" in msg
    game = int(msg.split("game ")[1].split()[0])
    assert "seed 7" in msg and f"game_index={game}" in msg
    # the game named is the first one of the batch that goes wrong, and replays
    g = Game(resolve(), seats, seed=7, game_index=game)
    with pytest.raises(IllegalMove):
        g.play_out()
    for earlier in range(100, game):
        Game(resolve(), seats, seed=7, game_index=earlier).play_out()


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
def test_an_exception_in_a_plugin_is_reported_with_its_game():
    seats = [parse_strategy("raises")] + [parse_strategy("random")] * 3
    with pytest.raises(UnosimError) as e:
        play_records(resolve(), seats, 7, 0, 40, chunks=4)
    msg = str(e.value)
    assert "raised ValueError: boom" in msg and "seed 7" in msg and "game_index=" in msg


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
@pytest.mark.parametrize("variant", ["game-101", "lazy-scoring"])
def test_plugin_copy_of_random_plays_the_same_matches(variant):
    """Matches move players between seats every round; a plug-in follows its player."""
    rules = resolve([variant])
    ref = play_match_records(rules, [parse_strategy("random")] * 4, 5, 0, 300, chunks=3)
    mixed = [parse_strategy(s) for s in ("random_copy", "random", "random", "random_copy")]
    got = play_match_records(rules, mixed, 5, 0, 300, chunks=2)
    assert np.array_equal(ref, got)
    assert (ref[:, 0] > 1).sum() > 100  # players did change seats between rounds


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
def test_an_illegal_move_in_a_match_names_the_match_and_round():
    rules = resolve(["game-101"])
    seats = [parse_strategy("random"), parse_strategy("illegal")] * 2
    with pytest.raises(UnosimError) as e:
        play_match_records(rules, seats, 7, 20, 30, chunks=3)
    msg = str(e.value)
    assert "illegal move 257 (pass)" in msg and "strategy illegal at seat" in msg
    match = int(msg.split("round 1 of match ")[1].split()[0])
    assert "seed 7" in msg and f"game_index={match}" in msg
    # round 1 of match m is game m of a run of rounds: it replays
    with pytest.raises(IllegalMove):
        Game(rules, seats, seed=7, game_index=match).play_out()


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
def test_an_exception_in_a_plugin_is_reported_with_its_match():
    seats = [parse_strategy("raises")] + [parse_strategy("random")] * 3
    with pytest.raises(UnosimError) as e:
        play_match_records(resolve(["game-101"]), seats, 7, 0, 40, chunks=4)
    assert "raised ValueError: boom in match 0 of seed 7" in str(e.value)


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
def test_cli_runs_matches_with_a_plugin(capsys):
    code, out, err = invoke(capsys, ["run", "--mode", "match", "--variant", "game-101",
                                     "--strategy-file", f"{EXAMPLES}:hybrid", "--seat",
                                     "0=hybrid", "--games", "200", "--seed", "3",
                                     "--format", "json", "--no-progress"])
    assert code == 0, err
    s = json.loads(out)
    assert s["mode"] == "match" and s["matches"] == 200
    assert "hybrid" in json.dumps(s)


# ------------------------------------------------------------------ the O(1) check


def test_fast_legality_check_agrees_with_is_legal():
    rnd = random.Random(3)
    variants = [[], ["stacking"], ["no-bluff"], ["draw-until-playable"], ["seven-o"],
                [("voluntary_draw", False)]]
    checked = 0
    for k, v in enumerate(variants):
        presets = [x for x in v if isinstance(x, str)]
        rules = resolve(presets, [x for x in v if not isinstance(x, str)])
        for index in range(6):
            g = Game(rules, [parse_strategy("random:bluff=0.5")] * 4, seed=k, game_index=index)
            while not g.over and g.stat("turns") < 300:
                G = g.G
                if G[L.S_PHASE] in (L.PH_TURN, L.PH_DRAWN) or rnd.random() < 0.3:
                    for m in [*range(-1, 300, 1), *rnd.sample(range(300, 500), 20), 10**9]:
                        assert bool(move_is_legal(G, m)) == bool(is_legal(G, m)), (m, g.phase)
                    checked += 1
                g.step()
    assert checked > 300


# ------------------------------------------------------------------ the command line


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
def test_cli_runs_the_readme_example(capsys):
    code, out, err = invoke(capsys, [
        "--strategy-file", f"{EXAMPLES}:hybrid", "--seat", "0=hybrid", "--games", "2000",
        "--seed", "3", "--format", "json", "--workers", "1"])
    assert code == 0, err
    s = json.loads(out)
    assert s["strategies"] == ["hybrid", "random", "random", "random"]
    assert s["games"] == 2000


@pytest.mark.compile
@pytest.mark.usefixtures("_plugins")
def test_cli_bad_plugin_exits_2_with_one_line(capsys):
    code, out, err = invoke(capsys, ["--strategy-file", f"{TESTS}:returns_float", "--games",
                                     "10"])
    assert code == 2
    assert err.startswith("unosim: error: --strategy-file") and err.count("\n") == 1
    assert "Traceback" not in out + err
    code, out, err = invoke(capsys, ["--seat", "0=illegal", "--games", "200", "--seed", "2",
                                     "--workers", "1"])
    assert code == 2 and "illegal move" in err and "seed 2" in err


def test_cli_strategies_lists_plugins(capsys):
    code, out, err = invoke(capsys, ["strategies", "--strategy-file", f"{EXAMPLES}:hybrid"])
    assert code == 0
    # names are padded to the longest loaded in this process
    assert re.search(r"hybrid +\(plug-in", out) and "keep the wilds" in out
    assert "challenge = never, always" in out


def test_docs_example_is_the_example_file():
    readme = (REPO / "docs" / "strategies.md").read_text()
    block = readme.split("@numba.njit\ndef hybrid", 1)[1].split("```", 1)[0]
    assert "@numba.njit\ndef hybrid" + block in EXAMPLES.read_text()
