"""The encodings an environment can speak: unosim's own (every rule, any player count,
actions.py and observation.py, written by encode_nb.py's kernels) and RLCard's
(rlcard_encoding.py). One record per
encoding, so the environment picks its observation, actions and the decisions it
takes for the learner by name, with no branch per encoding in its code."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces

from unosim.env import actions as A
from unosim.env import encode_nb as E
from unosim.env import observation as O
from unosim.env import rlcard_encoding as R
from unosim.errors import UnosimError
from unosim.simulate.rules import Rules


class Encoding(NamedTuple):
    """How one encoding reads a game and writes an action."""

    n_actions: int
    space: Callable[[Rules], spaces.Space]  # one observation's space
    encode: Callable[[np.ndarray, int], np.ndarray]  # (G, seat) -> observation
    fill_mask: Callable[[np.ndarray, np.ndarray, int, int], np.ndarray]
    to_move: Callable[[int, int, int], int]  # (action, actor, players) -> move or -1
    auto_move: Callable[[np.ndarray, np.ndarray], int]  # a move taken for the learner, -1
    rules: Mapping[str, Any]  # rule values applied on top of the variant
    check: Callable[[Rules], None]  # refuses a table the encoding cannot play


def _box(rules: Rules) -> spaces.Box:
    low, high = O.bounds(int(rules["turn_cap"]))
    return spaces.Box(low, high, (O.OBS_SIZE,), np.float32)


def _observe(G: np.ndarray, seat: int) -> np.ndarray:
    o = np.zeros(O.OBS_SIZE, np.float32)
    E.observe(G, seat, o)
    return o


def _fill_mask(mask: np.ndarray, moves: np.ndarray, actor: int, players: int) -> np.ndarray:
    E.mask_of_moves(moves, actor, players, mask)
    return mask


def _to_move(action: int, actor: int, players: int) -> int:
    return int(E.move_of(action, actor, players))


ENCODINGS = {
    "unosim": Encoding(A.N_ACTIONS, _box, _observe, _fill_mask, _to_move,
                       lambda G, RNG: -1, {}, lambda rules: None),
    "rlcard": Encoding(R.N_ACTIONS, R.observation_space, R.encode,
                       lambda mask, moves, actor, players: R.fill_mask(mask, moves),
                       lambda action, actor, players: R.to_move(action), R.auto_move,
                       R.RULES, R.check_rules),
}


def encoding_of(name: str) -> Encoding:
    """The encoding called ``name``; a one-line error for any other."""
    if name not in ENCODINGS:
        raise UnosimError(f"encoding must be one of {', '.join(ENCODINGS)}, not {name!r}")
    return ENCODINGS[name]
