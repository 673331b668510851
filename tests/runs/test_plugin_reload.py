"""A compiled plug-in is known by its file's path and content, not its name: a file
edited since it was loaded is loaded again (new functions, so a new chooser and a new
specialisation of the compiled loop), and a worker rebuilding a table plays the code
the run started with, whatever held the name there before.

The Dask side, with Python plug-ins on a real cluster, is test_dask_plugin_files.py.

Each version's loop compiles at NUMBA_OPT=0 (Numba reads the variable at each compile):
what is checked is which code plays, not how fast, and the two specialisations take
about 5 s each instead of 13 (the engine's steps come from the cache as usual).
"""

from __future__ import annotations

import pytest

from unosim.runs.tables import Table
from unosim.simulate.rules import resolve
from unosim.strategies.plugins import load_plugins, plugin_of
from unosim.strategies.registry import PLUGINS, parse_strategy, register_plugin
from unosim.studies.run.play import run

CODE = '''
import numba

from unosim.strategies import api


@numba.njit
def twin(G, rng):
    """The built-in {what}, as a plug-in."""
    return api.builtin_move(api.{what}, G, rng)
'''
GAMES = 300


def _figures(rules, seats):
    return run(rules, seats, GAMES, 2).agg


@pytest.mark.compile
def test_an_edited_compiled_plugin_plays_its_new_code(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_OPT", "0")
    rules = resolve([], [("players", 3)])
    rest = [parse_strategy("random"), parse_strategy("random")]
    f = tmp_path / "twin.py"

    f.write_text(CODE.format(what="RANDOM"))
    (v1,) = load_plugins([f"{f}:twin"])
    seats1 = [parse_strategy("twin"), *rest]
    shipped1 = Table(rules, seats1).payload()
    first = _figures(rules, seats1)
    assert first.same_as(_figures(rules, [parse_strategy("random"), *rest]))

    f.write_text(CODE.format(what="OFFENSIVE"))
    (v2,) = load_plugins([f"{f}:twin"])
    assert v2.fn is not v1.fn and v2.sha256 != v1.sha256
    seats2 = [parse_strategy("twin"), *rest]
    shipped2 = Table(rules, seats2).payload()
    assert shipped2["seats"][0]["plugin"]["sha256"] == v2.sha256
    second = _figures(rules, seats2)
    assert second.same_as(_figures(rules, [parse_strategy("offensive"), *rest]))
    assert not second.same_as(first)

    # a table made before the edit keeps its own code, hooks and origin
    assert plugin_of(seats1[0].plugin) is v1
    assert Table(rules, seats1).payload() == shipped1
    assert _figures(rules, seats1).same_as(first)

    # a worker whose name "twin" still plays the old file: the task's table gets the
    # code of the run's version (the same functions: loaded once per path and content)
    register_plugin(v1)
    table = Table.__new__(Table)
    table.__setstate__(shipped2)  # what unpickling does on a worker
    assert table.seats[0].plugin is v2.fn
    assert PLUGINS["twin"] is v2 or PLUGINS["twin"].fn is v2.fn

    # the old version, which the file no longer holds, from this process's memory
    table = Table.__new__(Table)
    table.__setstate__(shipped1)
    assert table.seats[0].plugin is v1.fn

