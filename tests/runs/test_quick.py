"""The quick round kernel (runs/quick.py): the same games as the plain round path at
every table it serves, an error (never a figure) where a stand-in is reached, and
lean copies (compiler/lean.py) that swap exactly the kernels named."""

from __future__ import annotations

import types

import numpy as np
import pytest
from numba import njit

from unosim.compiler.lean import lean, reaches
from unosim.runs import batches, quick
from unosim.runs.runner import play_records
from unosim.runs.tables import Table
from unosim.simulate import standins_nb, step_nb
from unosim.simulate.rules import preset_names, resolve
from unosim.strategies import standins_nb as choices
from unosim.strategies.registry import parse_strategy

#: seat mixes of the built-ins the quick kernel may seat, and one it may not
SERVED_SEATS = (("random",) * 4, ("random", "first", "defensive", "offensive"),
                ("offensive", "random"), ("defensive", "first", "random"))


def _seats(names: tuple[str, ...]) -> list:
    return [parse_strategy(n) for n in names]


@pytest.fixture
def quick_on(monkeypatch):
    """Tables of plain built-ins play on the quick kernel, as on a first run (the
    test processes compile the plain round path first: tests/conftest.py)."""
    monkeypatch.setattr(batches, "is_compiled", lambda path, entries=None: False)
    monkeypatch.setattr(quick, "_played", [0])


def test_the_quick_kernel_plays_the_same_games(quick_on, monkeypatch):
    """Every preset it serves, with each seat mix, several player counts: the same
    records, column for column, as the plain round path (a crafted table of every
    rule it leaves out is refused)."""
    served = 0
    for name in preset_names():
        for names in SERVED_SEATS:
            rules = resolve([name], [("players", len(names))])
            seats = _seats(names)
            if not quick.serves(Table(rules, seats).template):
                continue
            served += 1
            fast = play_records(rules, seats, 7, 0, 300, chunks=2)
            with quick.suspended():
                plain = play_records(rules, seats, 7, 0, 300, chunks=2)
            np.testing.assert_array_equal(fast, plain, err_msg=f"{name} {names}")
    assert served >= 60
    assert quick._played[0] == served * 300  # each played on the quick kernel


@pytest.mark.parametrize("preset", ["seven-o", "jump-in", "swap-on-five", "silent-twos",
                                    "reverse-deflect", "elimination", "edition112"])
def test_tables_that_reach_a_left_out_step_are_not_served(preset):
    rules = resolve([preset])
    assert not quick.serves(Table(rules, _seats(("random",) * 4)).template)


@pytest.mark.parametrize("seat", ["colour-keeper", "attacker", "random-colour"])
def test_seats_that_make_a_left_out_choice_are_not_served(seat):
    rules = resolve([])
    assert not quick.serves(Table(rules, _seats((seat, "random", "random"))).template)


def test_a_stand_in_reached_is_an_error(quick_on, monkeypatch):
    """Seven-O forced onto the quick kernel reaches the house rules' stand-in on the
    first 7 played: the batch raises instead of folding a wrong round."""
    monkeypatch.setattr(quick, "serves", lambda template: True)
    with pytest.raises(RuntimeError, match="reached a step it leaves out"):
        play_records(resolve(["seven-o"]), _seats(("random",) * 4), 1, 0, 200)


def test_a_process_switches_to_the_plain_path_after_its_quick_games(quick_on, monkeypatch):
    monkeypatch.setattr(quick, "QUICK_GAMES", 500)
    template = Table(resolve([]), _seats(("random",) * 4)).template
    assert quick.plays(template, 400, False)
    assert quick.plays(template, 400, False)  # 400 played: below the 500
    assert not quick.plays(template, 400, False)  # 800 played
    assert not quick.plays(template, 1, True)  # the plain path compiled: never


def test_a_long_run_compiles_the_plain_path_before_its_first_game(quick_on):
    """``warm`` with the run's games: a short run starts on the quick kernel, one of
    ``QUICK_GAMES`` or more on the plain round path."""
    from unosim.runs.runner import warm

    table = Table(resolve(["stacking"]), _seats(("random",) * 4))
    warm(table, "round", 1, games=quick.QUICK_GAMES)
    assert quick._played[0] == 0
    warm(table, "round", 1, games=1_000_000)
    assert quick._played[0] == 1  # its one warming game


def test_the_quick_kernel_reaches_no_step_it_leaves_out():
    reached = quick.reached()
    left_out = {**standins_nb.standins(), **choices.standins()}
    assert not reached & set(left_out)
    assert set(left_out.values()) <= reached
    # the steps it keeps are shared with the plain path, not copied
    assert step_nb._face_penalty in reached and step_nb.deal in reached
    names = {k.py_func.__qualname__ for k in reached}
    assert "apply_called__quick" in names and "apply_called" not in names


@njit
def _leaf(x):
    return x + 1


@njit
def _other(x):
    return x * 2


@njit
def _middle(x):
    return _leaf(x) + _other(x)


@njit
def _stand_in(x):
    return -x


def test_a_lean_copy_swaps_only_the_kernels_on_the_way():
    copy = lean(_middle, {_leaf: _stand_in}, "test")
    assert copy is not _middle and copy.py_func.__qualname__ == "_middle__test"
    assert copy(3) == -3 + 6 and _middle(3) == 4 + 6
    assert lean(_other, {_leaf: _stand_in}, "test") is _other  # nothing to swap
    assert reaches(copy) == {copy, _stand_in, _other}


def test_a_kernel_in_a_closure_cannot_be_copied():
    def outer(callee):
        @njit
        def inner(x):
            return callee(x)

        return inner

    with pytest.raises(ValueError, match="called by their own names"):
        lean(outer(_leaf), {_leaf: _stand_in}, "test")


def test_a_kernel_called_as_a_module_attribute_cannot_be_copied():
    box = types.ModuleType("box")
    box.leaf = _leaf

    scope = {"box": box}
    exec("def calls(x):\n    return box.leaf(x)\n", scope)  # box is a global there
    calls = njit(scope["calls"])
    with pytest.raises(ValueError, match="called by their own names"):
        lean(calls, {_leaf: _stand_in}, "test")
