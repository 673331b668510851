"""User plug-in strategies: loading and checking them, and the chooser that calls them.

A plug-in is an ``@numba.njit`` function ``f(G, rng) -> move`` written to the
interface of ``unosim.strategies.api``, loaded with ``--strategy-file
PATH.py:NAME``. Loading checks, each failure a one-line ``UnosimError``: the file
imports; NAME exists and is compiled (a Numba dispatcher); it compiles for
``(int64[:], uint64[:])``; it returns an integer.

Tables with plug-ins run on ``round_nb.play_games_with`` (matches: on
``match_nb.play_matches_with``): a small chooser,
generated per set of plug-ins, sends a seat whose id is ``PLUGIN_BASE + k`` to
the k-th plug-in and every other seat to the built-ins (``search_nb.strategy_move``).
Passing the chooser as an argument compiles one specialisation per set of
plug-ins in each process (seconds, not cached across processes); tables of
built-ins never touch this path and keep the cached, integer-dispatched
rows kernels (runs/batches.py). Chunks of games run on threads (the kernel releases the GIL).

Moves are checked: every move a plug-in table plays is first tested with
``step_nb.is_legal``. An illegal move stops the batch with an error naming the
strategy, the move, the phase, the seat, and the seed and game index that replay
it (``Game(rules, seats, seed=S, game_index=I)``). An exception raised inside a
plug-in is reported with the plug-in's name. The batches themselves live with the
other runners, in ``runs/plugin_batch.py``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, types
from numba.core.dispatcher import Dispatcher

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.strategies import builtin_nb as B
from unosim.strategies import search_nb as S
from unosim.strategies.registry import SeatStrategy, plugin_functions, register_plugin

#: the argument types a plug-in is compiled for: the game array and the generators
SIGNATURE = (types.Array(types.int64, 1, "C"), types.Array(types.uint64, 1, "C"))



class PluginError(UnosimError):
    """A plug-in that cannot be loaded, or that misbehaved in play."""


@dataclass(frozen=True)
class Plugin:
    """A loaded, checked plug-in: its name, compiled function and where it came from."""

    name: str
    fn: Any
    source: str


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def first_line(e: BaseException) -> str:
    lines = [s.strip() for s in _ANSI.sub("", str(e)).splitlines() if s.strip()]
    text = lines[0] if lines else ""
    # Numba's typing errors open with a generic line; the useful one follows it
    if text.startswith(("Failed in nopython mode pipeline", "No implementation")) and len(
        lines
    ) > 1:
        text = lines[1]
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def check_function(fn: Any, where: str) -> Any:
    """Check that ``fn`` is a compiled strategy; return it. ``where`` opens errors."""
    if not isinstance(fn, Dispatcher):
        kind = "a plain Python function" if callable(fn) else f"a {type(fn).__name__}"
        raise PluginError(f"{where} is {kind}, not a compiled strategy: decorate it with "
                          "@numba.njit (see `unosim strategies`)")
    try:
        fn.compile(SIGNATURE)
    except Exception as e:  # noqa: BLE001 - any compile failure is the user's to see
        raise PluginError(f"{where} does not compile as f(G: int64[:], rng: uint64[:]): "
                          f"{first_line(e)}") from None
    ret = fn.overloads[SIGNATURE].signature.return_type
    if not isinstance(ret, types.Integer):
        raise PluginError(f"{where} must return an integer move, but it returns {ret}")
    return fn


def load_plugin(spec: str) -> Plugin:
    """Load and check ``PATH.py:NAME``."""
    path_text, sep, name = spec.strip().rpartition(":")
    if not sep or not path_text or not name.isidentifier():
        raise PluginError(f"--strategy-file expects PATH.py:NAME, got {spec!r}")
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise PluginError(f"--strategy-file {spec}: no file {path_text}")
    key = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]
    mod_name = f"unosim_plugin_{path.stem}_{key}"
    module = sys.modules.get(mod_name)
    if module is None:
        spec_obj = importlib.util.spec_from_file_location(mod_name, path)
        if spec_obj is None or spec_obj.loader is None:
            raise PluginError(f"--strategy-file {spec}: cannot import {path_text}")
        module = importlib.util.module_from_spec(spec_obj)
        sys.modules[mod_name] = module
        try:
            spec_obj.loader.exec_module(module)
        except Exception as e:  # noqa: BLE001
            del sys.modules[mod_name]
            raise PluginError(f"--strategy-file {spec}: importing {path_text} failed: "
                              f"{first_line(e)}") from None
    if not hasattr(module, name):
        found = sorted(k for k, v in vars(module).items() if isinstance(v, Dispatcher))
        hint = f" (compiled functions there: {', '.join(found)})" if found else ""
        raise PluginError(f"--strategy-file {spec}: {path_text} has no {name!r}{hint}")
    fn = check_function(getattr(module, name), f"--strategy-file {spec}")
    return Plugin(name, fn, spec)


def load_plugins(specs: tuple[str, ...] | list[str]) -> list[Plugin]:
    """Load and register each ``PATH.py:NAME`` so its NAME works like a built-in's."""
    out = []
    for spec in specs:
        p = load_plugin(spec)
        register_plugin(p)
        out.append(p)
    return out


def plugin(fn: Any, name: str | None = None) -> Plugin:
    """Register a compiled function from Python (notebooks, tests) as a strategy."""
    name = name or getattr(fn, "__name__", "plugin")
    p = Plugin(name, check_function(fn, f"strategy {name}"), f"<python>:{name}")
    register_plugin(p)
    return p


# ------------------------------------------------------------------ running them

_CHOOSERS: dict[tuple[int, ...], tuple[list[Any], Any]] = {}


def chooser(fns: list[Any]) -> Any:
    """A compiled ``choose(G, rng)``: plug-in k for seats with id PLUGIN_BASE + k,
    the built-ins (through the cached ``search_nb.strategy_move``) for every other seat."""
    key = tuple(id(f) for f in fns)
    if key in _CHOOSERS:
        return _CHOOSERS[key][1]
    ns: dict[str, Any] = {"np": np, "strategy_move": S.strategy_move,
                          "OFF_STRAT": L.OFF_STRAT, "S_ACTOR": L.S_ACTOR}
    lines = ["def choose(G, rng):", "    sid = G[OFF_STRAT + G[S_ACTOR]]"]
    for k, f in enumerate(fns):
        ns[f"_plugin{k}"] = f
        lines.append(f"    if sid == {B.PLUGIN_BASE + k}:")
        lines.append(f"        return np.int64(_plugin{k}(G, rng))")
    lines.append("    return strategy_move(sid, G, rng)")
    exec(compile("\n".join(lines), "<unosim plug-in chooser>", "exec"), ns)  # noqa: S102
    fn = njit(_nrt=False)(ns["choose"])
    _CHOOSERS[key] = (list(fns), fn)  # keeps the functions alive, so ids stay unique
    return fn


def chooser_for(seats: list[SeatStrategy]) -> Any:
    """The compiled chooser of a table: ``choose_move`` when it has no plug-ins."""
    fns = plugin_functions(seats)
    return chooser(fns) if fns else S.choose_move


def has_plugins(seats: list[SeatStrategy]) -> bool:
    return any(s.plugin is not None for s in seats)
