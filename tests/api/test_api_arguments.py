"""The API checks its arguments at its door: a wrong type or value is one
``UnosimError`` (a ``ValueError``) naming the argument, raised before anything plays,
never a ``TypeError`` from inside a study (tests/cli/test_bad_input_sweep.py sweeps
every keyword of every function; these are the cases that used to escape)."""

from __future__ import annotations

import numpy as np
import pytest

from unosim import api
from unosim.errors import UnosimError


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"seed": "x"}, ["seed", "'x'"]),
    ({"variant": 123}, ["variant", "123"]),
    ({"variant": ["official", None]}, ["variant", "None"]),
    ({"games": None}, ["games", "None"]),
    ({"players": "4"}, ["players", "'4'"]),
    ({"rule": 5}, ["rule", "5"]),
    ({"seat": {1: object()}}, ["seat[1]"]),
    ({"rules": 5}, ["rule", "5"]),  # the earlier spelling is checked the same
    ({"workers": 2.0}, ["workers", "2.0"]),
    ({"keep_games": "no"}, ["keep_games", "'no'"]),
    ({"seed": np.bool_(True)}, ["seed"]),
])
def test_simulate_names_the_wrong_argument(kwargs, words):
    with pytest.raises(UnosimError) as e:
        api.simulate(**{"games": 100, **kwargs})
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_numpy_integers_are_whole_numbers():
    r = api.simulate(games=np.int64(50), seed=np.int64(3), players=np.int32(2),
                     keep_games=False)
    assert r.summary()  # played


def test_every_function_checks_before_it_plays(monkeypatch):
    """The check is at the door: nothing below the API is reached."""
    from unosim.studies.compare import play as compare

    def never(*args, **kwargs):
        raise AssertionError("played")

    monkeypatch.setattr(compare, "run_compare", never)
    with pytest.raises(UnosimError, match="variants"):
        api.compare(["official", 7], games=100)
    with pytest.raises(UnosimError, match="mode"):
        api.simulate(games=100, mode=2)
    with pytest.raises(UnosimError, match="seating"):
        api.tournament(["random", "first"], seating=None)
