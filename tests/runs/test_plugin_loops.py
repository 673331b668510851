"""The loops of plug-in tables, cached across processes (runs/plugin_loops.py): named
by everything their machine code depends on, cacheable, and playing the same games
as the loop made in a process."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np

from unosim.runs import plugin_loops
from unosim.runs.runner import play_records
from unosim.simulate.rules import resolve
from unosim.strategies.plugins import load_plugins, plugin
from unosim.strategies.registry import parse_strategy

EXAMPLES = Path(__file__).parents[2] / "strategies" / "examples" / "plugins.py"

PLUG = """
import numba
from unosim.strategies import api
import helper_{tag}


@numba.njit
def mine_{tag}(G, rng):
    return helper_{tag}.pick(G, rng)
"""
HELPER = """
import numba
from unosim.strategies import api


@numba.njit
def pick(G, rng):
    return api.builtin_move(api.{builtin}, G, rng)
"""


def _files(tmp_path: Path, monkeypatch, tag: str, builtin: str = "RANDOM") -> str:
    """A plug-in file that imports a helper module of the user's (on sys.path)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / f"helper_{tag}.py").write_text(textwrap.dedent(HELPER.format(builtin=builtin)))
    (tmp_path / f"plug_{tag}.py").write_text(textwrap.dedent(PLUG.format(tag=tag)))
    return f"{tmp_path / f'plug_{tag}.py'}:mine_{tag}"


def _seats(name: str) -> list:
    return [parse_strategy(name)] + [parse_strategy("random")] * 3


def _source(spec: str) -> str:
    (p,) = load_plugins([spec])
    made = plugin_loops.chooser_part(_seats(p.name))
    assert made is not None
    return made[0]


def test_the_module_is_named_by_the_plug_ins_code_and_the_users_code_it_reads(
        tmp_path, monkeypatch):
    spec = _files(tmp_path, monkeypatch, "a")
    text = _source(spec)
    assert f"{spec} " in text  # the plug-in's file and the hash of its bytes
    assert _source(spec) == text  # the same code: the same module, the same cache


def test_the_same_file_in_two_places_makes_two_modules(tmp_path, monkeypatch):
    """Numba's cached code names the module of each function it compiled, and a
    plug-in file's module is named after the file's place: the same bytes elsewhere,
    given by the same relative path, must not load a loop that names a module this
    process never loaded (the control: the same place twice gives the same module)."""
    texts = []
    for where in ("a", "b", "a"):
        folder = tmp_path / where
        folder.mkdir(exist_ok=True)
        (folder / "plugins.py").write_bytes(EXAMPLES.read_bytes())
        monkeypatch.chdir(folder)
        texts.append(_source("plugins.py:random_copy"))
    assert texts[0] != texts[1] and texts[0] == texts[2]


def test_an_edited_helper_module_makes_another_module(tmp_path, monkeypatch):
    """A helper module the plug-in imports, changed and imported again, changes the
    loop's name, so a stale cached loop can never play (the control: the same code
    keeps the name)."""
    import sys

    spec = _files(tmp_path, monkeypatch, "b")
    before = _source(spec)
    assert _source(spec) == before
    (tmp_path / "helper_b.py").write_text(
        textwrap.dedent(HELPER.format(builtin="OFFENSIVE")))
    assert _source(spec) == before  # edited, not imported again: the code that plays
    sys.modules.pop("helper_b")
    # the plug-in file's new bytes load it again, importing the new helper
    (tmp_path / "plug_b.py").write_text((tmp_path / "plug_b.py").read_text() + "\n")
    after = _source(spec)

    def code(text: str) -> str:
        return next(line for line in text.splitlines() if "their code" in line)

    assert code(after) != code(before)


def test_a_plug_in_whose_code_reads_a_closure_keeps_the_loop_of_its_process():
    """A closure's cells are not in its code, so no hash can know it: it plays on the
    loop made in the process. The control: the same function without one is named."""
    from numba import njit

    move = 0

    def closed(G, rng):
        return move

    def open_(G, rng):
        return 0

    plugin(njit(closed), name="closed_loop")
    assert plugin_loops.chooser_part(_seats("closed_loop")) is None
    plugin(njit(open_), name="open_loop")
    assert plugin_loops.chooser_part(_seats("open_loop")) is not None


def test_the_cached_loop_plays_the_built_in_games_and_is_in_numbas_cache():
    """``random_copy`` on the cached loop plays the built-in ``random``'s games
    record for record, and Numba's cache now holds the loop for this machine: a
    later process loads it instead of compiling (nothing about it is a dynamic
    global, which Numba would refuse to cache)."""
    from unosim.compiler.cache import is_cached

    load_plugins([f"{EXAMPLES}:random_copy"])
    rules = resolve([])
    copy = play_records(rules, _seats("random_copy"), 5, 0, 300, chunks=2)
    builtin = play_records(rules, [parse_strategy("random")] * 4, 5, 0, 300, chunks=2)
    assert np.array_equal(copy, builtin)
    loops = plugin_loops.cached_loops(_seats("random_copy"))
    assert loops is not None and Path(loops.__file__).is_file()
    assert is_cached(loops.play_rows)
    (overload,) = loops.play_rows.overloads.values()
    assert not overload.library.has_dynamic_globals


def test_the_generated_module_is_written_once(tmp_path):
    """A second process finds the file and leaves it alone: a rewritten file's new
    time stamp would void what Numba cached for it."""
    path = tmp_path / "loops.py"
    plugin_loops._write_once(path, "first")
    stamp = path.stat().st_mtime_ns
    plugin_loops._write_once(path, "first")
    assert path.read_text() == "first" and path.stat().st_mtime_ns == stamp
    assert not [f for f in tmp_path.iterdir() if f.name.startswith(".")]


def test_a_dry_run_counts_the_plug_in_compile_only_while_the_table_s_loop_is_missing():
    """``--dry-run`` names the plug-in path while Numba's cache lacks the table's own
    loop, and not once it holds it; a plug-in no hash can know compiles every time."""
    from numba import njit

    from unosim.dry_run import Work, compile_paths

    load_plugins([f"{EXAMPLES}:random_copy"])
    play_records(resolve([]), _seats("random_copy"), 5, 0, 20, chunks=1)  # now cached
    assert plugin_loops.is_cached(_seats("random_copy"))
    assert "plug-ins" not in compile_paths([Work(100, _seats("random_copy"))])
    move = 0
    plugin(njit(lambda G, rng: move), name="closed_dry_run")
    assert not plugin_loops.is_cached(_seats("closed_dry_run"))
    assert "plug-ins" in compile_paths([Work(100, _seats("closed_dry_run"))])


def test_a_heads_up_search_is_estimated_per_decision():
    """A search seat costs per decision: heads-up it makes about 18 a round against
    about 12 at four players, so a heads-up round with one search seat is estimated
    at 1.5 times a four-player one, not half of it."""
    from unosim.dry_run import Work, seconds_per_game

    search = parse_strategy("search")
    four = seconds_per_game(Work(1, [search] + [parse_strategy("random")] * 3, 4))
    two = seconds_per_game(Work(1, [search, parse_strategy("random")], 2))
    assert 1.4 < two / four < 1.7


def test_unoptimised_code_keeps_the_loop_of_its_process(monkeypatch):
    """At ``NUMBA_OPT=0`` Numba bakes in addresses it will not cache (it would warn on
    every run): such a process plays on its own loop; the control, the default
    level, caches."""
    from numba.core import config

    load_plugins([f"{EXAMPLES}:random_copy"])
    assert plugin_loops.cached_loops(_seats("random_copy")) is not None
    monkeypatch.setattr(config, "OPT", 0)
    assert plugin_loops.cached_loops(_seats("random_copy")) is None
