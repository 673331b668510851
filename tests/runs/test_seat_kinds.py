"""The kind of a seat is asked in one place (``SeatStrategy.kind``), and it decides
where a table plays: a tier of cached entry points for built-ins only, the card
counter included (it hears the table's events in the dispatch of every built-in,
search_nb.choose_move), the per-process plug-in loop only for compiled plug-ins,
the Python driver for Python strategies."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

from unosim.runs import batches, compile_notice, plugin_batch, tiers
from unosim.runs.runner import base_seed, game_template, play_records
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies import registry as R
from unosim.strategies.plugins import chooser, chooser_for, plugin
from unosim.strategies.registry import parse_strategy
from unosim.strategies.search_nb import choose_move

REPO = Path(__file__).resolve().parents[2]


def _seats(*names: str) -> list[R.SeatStrategy]:
    return [parse_strategy(n) for n in names]


def test_every_built_in_says_its_kind():
    kinds = {name: parse_strategy(name).kind for name in R.BUILTINS}
    assert kinds["card-counter"] == R.OBSERVER and kinds["search"] == R.SEARCH
    assert {n for n, k in kinds.items() if k == R.PARAM} == set(R.STRATEGY_PARAMS)
    assert {n for n, k in kinds.items() if k == R.PLAIN} == {
        "random", "random-colour", "first", "defensive", "offensive", "colour-keeper",
        "attacker"}
    assert all(parse_strategy(n).builtin for n in R.BUILTINS)
    # a search rolls out with any built-in but itself (the card counter from what the
    # rollout's world shows its seat)
    assert set(R.ROLLOUT_POLICIES) == {n for n, k in kinds.items() if k != R.SEARCH}


def test_a_users_strategy_says_its_kind():
    import numba

    @numba.njit
    def kind_test_compiled(G, rng):
        return L.MV_DRAW

    def kind_test_python(view):
        return view.legal[0]

    plugin(kind_test_compiled)
    plugin(kind_test_python)
    try:
        compiled, python = _seats("kind_test_compiled", "kind_test_python")
        assert (compiled.kind, python.kind) == (R.PLUGIN, R.PYTHON)
        assert not compiled.builtin and not python.builtin
        assert python.cost == R.PYTHON_COST and compiled.cost == 0
        assert plugin_batch.table_path([*_seats("card-counter"), compiled]) == R.PLUGIN
        assert plugin_batch.table_path([compiled, python]) == R.PYTHON
    finally:
        R.PLUGINS.pop("kind_test_compiled", None)
        R.PLUGINS.pop("kind_test_python", None)


@pytest.mark.parametrize("names,tier", [
    (("random", "first"), "plain"),
    (("random", "tuned"), "param"),
    (("search:rollouts=2", "tuned"), "search"),
    (("card-counter", "random"), "search"),
    (("card-counter", "tuned", "random-colour"), "search"),
    (("card-counter", "search:rollouts=2"), "search"),
])
def test_a_table_of_built_ins_plays_on_its_tier(names, tier):
    seats = _seats(*names)
    assert tiers.tier_of(seats).name == tier == plugin_batch.table_path(seats)
    assert chooser_for(seats) is choose_move


@pytest.mark.parametrize("mode", ["round", "match"])
def test_a_card_counter_table_needs_no_plug_in_compile(monkeypatch, mode):
    """A table seating the card counter plays on a cached tier: the plug-in chooser is
    never made and the only path it uses is the tier's (``rounds/search``, cached by
    ``unosim compile``), not the per-process ``plug-ins`` path."""
    used: list[str] = []
    real = batches.first_use

    def recording(path, entries=None):
        used.append(path)
        return real(path, entries)

    def no_plug_ins(*args, **kwargs):
        raise AssertionError("a table of built-ins made a plug-in chooser")

    monkeypatch.setattr(batches, "first_use", recording)
    monkeypatch.setattr(plugin_batch, "first_use", recording)
    monkeypatch.setattr(plugin_batch, "chooser_for", no_plug_ins)
    rules = resolve([], [("players", 3)])
    seats = _seats("card-counter", "tuned", "random")
    if mode == "round":
        rec = play_records(rules, seats, 3, 0, 40, chunks=2)
    else:
        from unosim.runs.match import play_match_records

        rec = play_match_records(rules, seats, 3, 0, 4, chunks=2)
    assert len(rec) == (40 if mode == "round" else 4)
    assert used == [compile_notice.path_of(mode, "search")]
    assert tiers.PLUGINS.name not in used


def _generated(rules, seats, seed: int, games: int) -> np.ndarray:
    """The games as the plug-in loop played them before the tier served the card
    counter: ``play_games_with`` and a chooser made with the built-ins' watcher."""
    from unosim.simulate.round_nb import play_games_with

    template = game_template(rules, seats)
    out = np.zeros((games, L.N_G), np.int32)
    bad = np.full(4, -1, np.int64)
    play_games_with(chooser([], True), template, base_seed(seed), 0, out, 0, games, True,
                    bad, np.empty(L.G_SIZE, np.int64), np.zeros(8, np.uint64))
    assert bad[0] == -1
    return out


@pytest.mark.compile
@pytest.mark.parametrize("variants,names", [
    ((), ("card-counter", "tuned", "random")),
    (("unoai",), ("random-colour", "card-counter")),
    (("seven-o",), ("card-counter", "card-counter", "offensive", "adaptive")),
])
def test_the_tier_plays_the_counter_as_the_plug_in_loop_did(variants, names):
    """Bit for bit: the cached tier hears the events as the generated watcher did."""
    rules = resolve(list(variants), [("players", len(names))])
    seats = _seats(*names)
    mine = play_records(rules, seats, 5, 0, 300, chunks=1)
    assert (mine == _generated(rules, seats, 5, 300)).all()


#: where the kind of a seat may be asked from its parts: the registry that says it
#: (and strategies/plugins.py, which defines what a plug-in is); kernels dispatch on ids
ASKS = re.compile(r"\.plugin is (not )?None|isinstance\([^)]*Dispatcher\)|"
                  r"\.name [!=]= \"search\"|observes\(|PARAM_SID")
ALLOWED = {"strategies/registry.py"}


def test_the_kind_of_a_seat_is_asked_in_one_place():
    found = []
    for folder in ("unosim", "runs", "compiler", "checks", "strategies", "studies",
                   "reports", "stats", "env", "play"):
        for path in sorted((REPO / folder).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            if rel in ALLOWED or path.name.endswith("_nb.py"):
                continue
            text = path.read_text(encoding="utf-8")
            ast.parse(text)  # a module, not a fragment
            found += [f"{rel}:{i}" for i, line in enumerate(text.splitlines(), 1)
                      if ASKS.search(line)]
    assert found == []
