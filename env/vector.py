"""UNO as a natively batched Gymnasium vector environment: N rounds at once, one
learning seat per game, every other seat a built-in or compiled plug-in strategy,
all stepped inside the compiled engine between two decisions of the learner
(vector_nb.py), so no Python runs per decision.

Conventions (Gymnasium 1.x vector API): the observation is a float32 Box per game
(observation.py's layout), the action a Discrete per game (actions.py's layout); the
legal actions are in ``info["action_mask"]`` (int8, one row per game). An action the
mask refuses raises ``IllegalAction`` and nothing is applied. Autoreset is
same-step: a game that ends reports its reward and termination (truncation at the
turn cap) and the observation returned is already the next game's; the last
observation of the ended game is in ``info["final_obs"]`` where
``info["_final_obs"]`` is set (its other rows mean nothing). Game ``i`` deals game
0, 1, 2 ... of its own seed, as an AEC environment seeded alike would; the
generators live in the engine's arrays, which no observation reads.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from numba import njit

from unosim.env import vector_nb as V
from unosim.env.aec import REWARDS, IllegalAction, player_count, table_rules, whole_seed
from unosim.env.observation import OBS_SIZE, bounds
from unosim.errors import UnosimError, is_whole
from unosim.runs import tiers
from unosim.runs.compile_notice import first_use
from unosim.runs.failures import illegal_message
from unosim.runs.plugin_loops import cached_loops
from unosim.runs.runner import base_seed, game_template
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules
from unosim.strategies.plugins import chooser_for, has_plugins, python_seats
from unosim.strategies.registry import SEARCH, SeatStrategy, parse_strategy
from unosim.strategies.search_nb import choose_move

_BOUND: dict[int, tuple[Any, Any, Any]] = {}

#: the pair around the opponents' chooser, cached with it (runs/plugin_loops.py):
#: compiled once for a set of opponents and loaded by every later process
_BODY = """
@njit(_nrt=False, cache=True)
def vector_reset(Gs, RNGs, keys, games, learner, rotate, obs, masks, bad):
    return reset_with(chosen(), Gs, RNGs, keys, games, learner, rotate, obs, masks, CHECKED,
                      bad)


@njit(_nrt=False, cache=True)
def vector_step(Gs, RNGs, keys, games, learner, rotate, reward_kind, actions, obs, masks,
                rewards, terms, truncs, final_obs, done, bad):
    return step_with(chosen(), Gs, RNGs, keys, games, learner, rotate, reward_kind, actions,
                     obs, masks, rewards, terms, truncs, final_obs, done, CHECKED, bad)
"""


def _kernels(seats: list[SeatStrategy]) -> tuple[Any, Any, str]:
    """(reset, step, compile path) for the opponents ``seats``: the cached pair for
    built-ins without parameters, else the pair bound to their chooser, cached with
    it (or compiled in this process, for plug-ins no hash can know)."""
    choose = chooser_for(seats)
    if choose is choose_move and not any(t.selects(seats) for t in tiers.TIERS[1:]):
        return V.reset_builtin, V.step_builtin, tiers.VECTOR_ENV.name
    # plug-ins' moves are checked (as a run checks them); parametric built-ins'
    # need not be, but one pair serves both
    checked = has_plugins(seats)
    loops = cached_loops(seats, _BODY.replace("CHECKED", repr(checked)),
                         {"reset_with": V.reset_with, "step_with": V.step_with})
    if loops is not None:
        return loops.vector_reset, loops.vector_step, tiers.VECTOR_ENV_BOUND.name
    if id(choose) not in _BOUND:

        def reset(Gs, RNGs, keys, games, learner, rotate, obs, masks, bad):  # noqa: ANN001, ANN202
            return V.reset_with(choose, Gs, RNGs, keys, games, learner, rotate, obs, masks,
                                checked, bad)

        def step(Gs, RNGs, keys, games, learner, rotate, reward_kind, actions,  # noqa: ANN001, ANN202
                 obs, masks, rewards, terms, truncs, final_obs, done, bad):
            return V.step_with(choose, Gs, RNGs, keys, games, learner, rotate, reward_kind,
                               actions, obs, masks, rewards, terms, truncs, final_obs, done,
                               checked, bad)

        _BOUND[id(choose)] = (choose, njit(_nrt=False)(reset), njit(_nrt=False)(step))
    return (*_BOUND[id(choose)][1:], tiers.VECTOR_ENV_BOUND.name)


def _row_width(seats: list[SeatStrategy], template: np.ndarray) -> int:
    """Words of ``G`` each game keeps: the game itself (``G_CORE``, what a step reads
    and writes) when every seat is a built-in that neither searches nor observes
    events, as in a search's worlds; else all of it (the search's scratch space, the
    event ring, the strategies' memory). A fifth of the memory, so more games stay in
    the caches."""
    plain = all(s.builtin and s.kind != SEARCH for s in seats)
    return L.G_CORE if plain and template[L.RF_EVENTS] == 0 else L.G_SIZE


def _seeds(seed: int | Sequence[int] | None, n: int, name: str = "reset(seed=...)"
           ) -> list[int]:
    """One seed per game: ``seed + i`` for an int (as Gymnasium seeds its sub-envs),
    the list itself, or fresh entropy. Every seed is a whole number 0 or more; a float,
    a string or a negative number is refused in one line naming ``name``."""
    if seed is None:
        first = int(np.random.SeedSequence().entropy % (1 << 62))
        return [first + i for i in range(n)]
    if isinstance(seed, np.ndarray) and seed.ndim == 0:  # np.array(3): one seed
        seed = seed[()]
    if not isinstance(seed, (Sequence, np.ndarray)) or isinstance(seed, (str, bytes)):
        return [whole_seed(seed, name) + i for i in range(n)]
    if len(seed) != n:
        raise UnosimError(f"{name} needs one seed or {n} seeds, one per game, not "
                          f"{len(seed)}")
    return [whole_seed(s, f"{name} item {i}") for i, s in enumerate(seed)]


def _actions(actions: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(the actions as given, as the kernel's contiguous int64): ``n`` whole numbers, a
    NumPy integer array or a list of ints. Checked by dtype and shape, no loop over
    the games: a float array (which a cast would round), strings (which it would
    parse), None or the wrong count is one ``IllegalAction`` naming the argument."""
    try:
        given = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
    except (TypeError, ValueError):  # a ragged list
        raise IllegalAction(f"step(actions) needs {n} whole numbers, one action per game, "
                            "not a ragged sequence") from None
    if given.dtype.kind not in "iu" and given.shape == (n,) and not isinstance(
            actions, np.ndarray):
        # a list of ints past int64 comes out float or object: the kernel refuses the
        # number (as -1) and the message names it as given
        items = list(actions)
        if all(is_whole(x) for x in items):
            big = 1 << 63
            return (np.array(items, object),
                    np.array([x if -big <= x < big else -1 for x in items], np.int64))
    if given.dtype.kind not in "iu" or given.shape != (n,):
        what = (repr(actions) if given.ndim == 0 else
                f"an array of {given.dtype} and shape {given.shape}")
        raise IllegalAction(f"step(actions) needs {n} whole numbers, one action per game, "
                            f"not {what}")
    # an unsigned number past int64 turns negative here, which no mask allows, and the
    # message names the number given
    return given, np.ascontiguousarray(given, dtype=np.int64)


class _Recycled:
    """The arrays of one output, each handed out again once nobody but this holds
    it (its reference count, as NumPy reuses temporaries): a new 3.7 MB observation
    array every step cost as much as the step itself (the pages the allocator had
    given back are faulted in and zeroed again), while an array a caller keeps stays
    untouched, as a copy would. At most ``keep`` are kept; past them a new array is
    made."""

    def __init__(self, shape: tuple[int, ...], dtype: Any, keep: int = 3) -> None:
        self.shape, self.dtype, self.keep = shape, dtype, keep
        self.arrays: list[np.ndarray] = []

    def take(self) -> np.ndarray:
        for a in self.arrays:
            if sys.getrefcount(a) <= _HELD_HERE:
                return a
        a = np.zeros(self.shape, self.dtype)
        if len(self.arrays) < self.keep:
            self.arrays.append(a)
        return a


def _free_count() -> int:
    """The reference count ``_Recycled.take`` reads for an array nobody else holds
    (the list, the loop's name, getrefcount's argument: 3 on CPython 3.11), measured
    the same way rather than assumed, since newer interpreters borrow some references."""
    probe = _Recycled((1,), np.int8)
    probe.arrays.append(np.zeros(1, np.int8))
    for a in probe.arrays:
        return sys.getrefcount(a)
    raise AssertionError("unreachable")


_HELD_HERE = _free_count()


class UnoVectorEnv(VectorEnv):
    """``num_envs`` UNO rounds stepped together; see the module's docstring."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, rules: Rules, seats: list[SeatStrategy], learner_seat: int | str,
                 num_envs: int, reward: str, seed: int | Sequence[int] | None) -> None:
        if reward not in REWARDS:
            raise UnosimError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if num_envs < 1:
            raise UnosimError(f"num_envs must be at least 1, not {num_envs}")
        if python_seats(seats):
            raise UnosimError("the vector environment steps games compiled: opponents must "
                              "be built-in or compiled plug-in strategies, not Python ones")
        self.rules = rules
        self.num_envs = int(num_envs)
        self.players = int(rules["players"])
        self.rotate = learner_seat == "rotate"
        self._reset_nb, self._step_nb, self._path = _kernels(seats)
        self._reward = V.WIN if reward == "win" else V.POINTS
        low, high = bounds(int(rules["turn_cap"]))
        self.single_observation_space = spaces.Box(low, high, (OBS_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(V.A.N_ACTIONS)
        self.observation_space = spaces.Box(np.tile(low, (self.num_envs, 1)),
                                            np.tile(high, (self.num_envs, 1)),
                                            (self.num_envs, OBS_SIZE), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, V.A.N_ACTIONS))
        template = game_template(rules, seats)
        template[L.R_FEEL_OFF] = 1  # no game-feel samples: the environment reports none
        self._G = np.tile(template[:_row_width(seats, template)], (self.num_envs, 1))
        self._RNG = np.zeros((self.num_envs, 8), np.uint64)
        self._keys = np.zeros(self.num_envs, np.uint64)
        self._games = np.zeros(self.num_envs, np.int64)
        seat = 0 if self.rotate else int(learner_seat)
        self._learner = np.full(self.num_envs, seat, np.int64)
        self._refused = np.full(self.num_envs, -1, np.int64)  # no action: nothing is applied
        self._bad = np.zeros(4, np.int64)  # an opponent's illegal move: move, phase, seat, row
        self._seats = seats
        self._buf = V.empty_buffers(self.num_envs)
        rows = (self.num_envs, OBS_SIZE)
        self._out = {"obs": _Recycled(rows, np.float32), "final_obs": _Recycled(rows, np.float32),
                     "masks": _Recycled(self._buf["masks"].shape, np.int8)}
        if seed is not None:
            _seeds(seed, self.num_envs, "vector_env(seed=...)")  # refused now, not at reset
        self._seed = seed
        self._dealt = False

    @property
    def learner_seats(self) -> np.ndarray:
        """The learner's seat in each game now."""
        return self._learner.copy()

    @property
    def game_indices(self) -> np.ndarray:
        """The index of the game each row plays now, in its own seed."""
        return self._games.copy()

    def _outputs(self) -> tuple[np.ndarray, np.ndarray]:
        """Where the kernel writes this call's observations and the ended games' last
        ones: arrays no caller holds. The kernel writes every row of the first and the
        ended games' rows of the second, so nothing is copied after."""
        return self._out["obs"].take(), self._out["final_obs"].take()

    def _info(self, final_obs: np.ndarray | None) -> dict[str, Any]:
        """The action masks (a copy: the kernel checks actions against its own), and
        the ended games' last observations where ``final_obs`` is given."""
        b = self._buf
        masks = self._out["masks"].take()
        np.copyto(masks, b["masks"])
        info: dict[str, Any] = {"action_mask": masks}
        if final_obs is not None:
            info["final_obs"] = final_obs
            info["_final_obs"] = b["done"].copy()
        return info

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal game 0 of each game's seed (``seed + i``, or a list of N seeds); without
        a seed, every game deals the next index of its last seed."""
        if seed is not None or not self._dealt:
            seeds = _seeds(seed if seed is not None else self._seed, self.num_envs)
            self._keys[:] = [base_seed(s) for s in seeds]
            self._row_seeds = seeds
            self._games[:] = 0
        else:
            self._games += 1
        obs, final_obs = self._outputs()
        b = self._buf
        with first_use(self._path, lambda: [self._reset_nb, self._step_nb]):
            result = self._reset_nb(self._G, self._RNG, self._keys, self._games,
                                    self._learner, self.rotate, obs, b["masks"], self._bad)
            if not self._dealt and result != V.ILLEGAL:
                # step compiles under the notice too: actions it refuses
                self._step_nb(self._G, self._RNG, self._keys, self._games, self._learner,
                              self.rotate, self._reward, self._refused, obs, b["masks"],
                              b["rewards"], b["terms"], b["truncs"], final_obs, b["done"],
                              self._bad)
        self._check(result)
        self._dealt = True
        return obs, self._info(None)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Apply one action per game; see the module's docstring for autoreset."""
        if not self._dealt:
            raise UnosimError("call reset() before step()")
        given, a = _actions(actions, self.num_envs)
        b = self._buf
        obs, final_obs = self._outputs()
        bad = self._step_nb(self._G, self._RNG, self._keys, self._games, self._learner,
                            self.rotate, self._reward, a, obs, b["masks"], b["rewards"],
                            b["terms"], b["truncs"], final_obs, b["done"], self._bad)
        self._check(bad)
        if bad >= 0:
            raise IllegalAction(f"action {int(given[bad])} is not legal in game {bad} now "
                                f"(legal: {np.flatnonzero(b['masks'][bad]).tolist()})")
        return (obs, b["rewards"].copy(), b["terms"].copy(), b["truncs"].copy(),
                self._info(final_obs if b["done"].any() else None))

    def _check(self, result: int) -> None:
        """An opponent's illegal move (a plug-in's) as one line naming the game that
        replays it; the games are left mid-step, so the environment must be reset."""
        if result != V.ILLEGAL:
            return
        move, phase, seat, row = (int(x) for x in self._bad)
        self._dealt = False
        where = illegal_message(self._seats, int(self._games[row]), move, phase, seat,
                                self._row_seeds[row])
        raise UnosimError(f"{where} (row {row} of the vector environment; reset() to go on)")

    def close_extras(self, **kwargs: Any) -> None:
        self._G = np.zeros((0, L.G_SIZE), np.int64)


def vector_env(variant: str | Sequence[str] = "official", *,
               rule: Mapping[str, Any] | None = None, players: int = 2,
               opponents: str | Sequence[str | None] = "random", num_envs: int = 4096,
               learner_seat: int | str = 0, reward: str = "win",
               seed: int | Sequence[int] | None = None) -> UnoVectorEnv:
    """A Gymnasium vector environment of ``num_envs`` UNO rounds.

    ``variant``, ``rule``, ``players``, ``reward``: as ``aec_env``; ``opponents``: one
    strategy for every other seat, or a list by seat (the learner's entry is
    ignored); ``learner_seat``: the learner's seat, or "rotate" (game k of a seat's
    row seats the learner at k mod players); ``seed``: the seed of the first
    ``reset`` without one (game ``i`` uses ``seed + i``)."""
    players = player_count(players)
    if not is_whole(num_envs):
        raise UnosimError(f"num_envs must be a whole number of games, not {num_envs!r}")
    if learner_seat != "rotate" and not (isinstance(learner_seat, (int, np.integer))
                                         and 0 <= learner_seat < players):
        raise UnosimError(f"learner_seat must be a seat of {players} players or 'rotate', "
                          f"not {learner_seat!r}")
    rules = table_rules(variant, rule, players)
    names = [opponents] * players if isinstance(opponents, str) else list(opponents)
    if len(names) != players:
        raise UnosimError(f"opponents: one strategy per seat ({players}), not {len(names)}")
    seats = [parse_strategy(s if s is not None else "random") for s in names]
    return UnoVectorEnv(rules, seats, learner_seat, int(num_envs), reward, seed)
