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
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from numba import njit, types

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.strategies import builtin_nb as B
from unosim.strategies import search_nb as S
from unosim.strategies.counter_nb import hear_events, observe_builtin
from unosim.strategies.registry import (
    OBSERVER,
    PLUGIN,
    PLUGINS,
    PYTHON,
    SeatStrategy,
    function_kind,
    plugin_functions,
    register_plugin,
)

#: the argument types a plug-in is compiled for: the game array and the generators
SIGNATURE = (types.Array(types.int64, 1, "C"), types.Array(types.uint64, 1, "C"))
#: the hooks a compiled plug-in may define beside it, ``NAME_observe`` and
#: ``NAME_new_game``, and the arguments each is compiled for
HOOKS = {
    "observe": (SIGNATURE[0], *(types.int64,) * 5),  # (G, seat, kind, who, a, b)
    "new_game": (SIGNATURE[0], types.int64),  # (G, seat)
}



class PluginError(UnosimError):
    """A plug-in that cannot be loaded, or that misbehaved in play."""


@dataclass(frozen=True)
class Plugin:
    """A loaded, checked plug-in: its name, its function (compiled, or a Python
    ``strategies.python.PythonStrategy``), where it came from, and a compiled
    plug-in's hooks (``HOOKS``: None when it has none)."""

    name: str
    fn: Any
    source: str
    observe: Any = None
    new_game: Any = None
    sha256: str = ""  # of the file's bytes it was made from ("" when not from a file)

    @property
    def python(self) -> bool:
        return function_kind(self.fn) == PYTHON

    @property
    def watches(self) -> bool:
        """Whether the table must record events for it."""
        return self.python or self.observe is not None or self.new_game is not None


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
    if function_kind(fn) != PLUGIN:
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


def file_digest(source: bytes) -> str:
    """The SHA-256 of a plug-in file's bytes: what a plug-in is known by, beside its path."""
    return hashlib.sha256(source).hexdigest()


#: the plug-ins loaded from files in this process, by (absolute path, name, SHA-256):
#: the same bytes give the same functions (and the loops compiled around them),
#: other bytes at the same path a module of their own
_FILES: dict[tuple[str, str, str], Plugin] = {}
#: the plug-ins registered from Python in this process
_FROM_PYTHON: list[Plugin] = []


def loaded_plugin(spec: str, sha256: str) -> Plugin | None:
    """The plug-in this process made of ``PATH.py:NAME`` when the file's bytes had
    ``sha256``, if it did: the very code, whatever the file holds now."""
    path_text, _, name = spec.strip().rpartition(":")
    return _FILES.get((str(Path(path_text).expanduser().resolve()), name, sha256))


def load_plugin(spec: str, source: bytes | None = None) -> Plugin:
    """Load and check ``PATH.py:NAME``: the module made of ``source`` (the file's bytes,
    read now when None), which is what the plug-in's ``sha256`` names. A module is
    kept per path and content, never per path alone, so a file edited since it was
    first loaded in this process is loaded again, not served from the old module."""
    path_text, sep, name = spec.strip().rpartition(":")
    if not sep or not path_text or not name.isidentifier():
        raise PluginError(f"--strategy-file expects PATH.py:NAME, got {spec!r}")
    path = Path(path_text).expanduser()
    if source is None:
        if not path.is_file():
            raise PluginError(f"--strategy-file {spec}: no file {path_text}")
        try:
            source = path.read_bytes()
        except OSError as e:
            raise PluginError(f"--strategy-file {spec}: cannot read {path_text} "
                              f"({e.strerror or e})") from None
    digest = file_digest(source)
    where = str(path.resolve())
    known = _FILES.get((where, name, digest))
    if known is not None:  # the same functions, whatever the spec's spelling
        return known if known.source == spec else replace(known, source=spec)
    key = hashlib.sha1(where.encode()).hexdigest()[:10]
    mod_name = f"unosim_plugin_{path.stem}_{key}_{digest[:16]}"
    module = sys.modules.get(mod_name)
    if module is None:
        spec_obj = importlib.util.spec_from_file_location(mod_name, path)
        if spec_obj is None or spec_obj.loader is None:
            raise PluginError(f"--strategy-file {spec}: cannot import {path_text}")
        module = importlib.util.module_from_spec(spec_obj)
        sys.modules[mod_name] = module
        try:  # the bytes that were hashed, not whatever the file holds a moment later
            exec(compile(source, str(path), "exec"), module.__dict__)  # noqa: S102
        except Exception as e:  # noqa: BLE001
            del sys.modules[mod_name]
            raise PluginError(f"--strategy-file {spec}: importing {path_text} failed: "
                              f"{first_line(e)}") from None
    if not hasattr(module, name):
        found = sorted(k for k, v in vars(module).items()
                       if not k.startswith("_") and looks_like_strategy(k, v, mod_name))
        hint = f" (strategies there: {', '.join(found)})" if found else ""
        raise PluginError(f"--strategy-file {spec}: {path_text} has no {name!r}{hint}")
    p = make_plugin(getattr(module, name), name, spec, module, f"--strategy-file {spec}")
    p = replace(p, sha256=digest)
    _FILES[(where, name, digest)] = p
    return p


def looks_like_strategy(name: str, obj: Any, module: str) -> bool:
    """Whether a name the file defines is listed as a strategy when the one asked for
    is missing: a compiled function of two arguments ``(G, rng)`` that is not a hook
    (``NAME_observe``, ``NAME_new_game``), a class with ``choose``, or a plain
    function whose one argument is named ``view``. Helpers are left out."""
    import inspect

    if getattr(obj, "__module__", module) != module:
        return False
    if function_kind(obj) == PLUGIN:
        if name.endswith(tuple(f"_{h}" for h in HOOKS)):
            return False
        obj = obj.py_func
        want = 2
    elif inspect.isclass(obj):
        return callable(getattr(obj, "choose", None))
    elif inspect.isfunction(obj):
        want = 1
    else:
        return False
    try:
        params = list(inspect.signature(obj).parameters)
    except (TypeError, ValueError):
        return False
    return len(params) == want and (want == 2 or params[0] == "view")


def make_plugin(obj: Any, name: str, source: str, module: Any, where: str) -> Plugin:
    """Check ``obj`` as a strategy: compiled (with the hooks ``NAME_observe`` and
    ``NAME_new_game`` that ``module`` holds beside it) or plain Python."""
    if function_kind(obj) == PYTHON:
        from unosim.strategies.python import check_python

        try:
            return Plugin(name, check_python(obj, where), source)
        except UnosimError as e:
            raise PluginError(str(e)) from None
    fn = check_function(obj, where)
    hooks = {}
    for hook, sig in HOOKS.items():
        h = getattr(module, f"{name}_{hook}", None)
        if h is None:
            continue
        if function_kind(h) != PLUGIN:
            raise PluginError(f"{where}: {name}_{hook} must be compiled (@numba.njit) too")
        try:
            h.compile(sig)
        except Exception as e:  # noqa: BLE001
            args = "G, seat, kind, who, a, b" if hook == "observe" else "G, seat"
            raise PluginError(f"{where}: {name}_{hook} does not compile as "
                              f"{hook}({args}): {first_line(e)}") from None
        hooks[hook] = h
    return Plugin(name, fn, source, **hooks)


def load_plugins(specs: tuple[str, ...] | list[str]) -> list[Plugin]:
    """Load and register each ``PATH.py:NAME`` so its NAME works like a built-in's."""
    out = []
    for spec in specs:
        p = load_plugin(spec)
        register_plugin(p)
        out.append(p)
    return out


def plugin(fn: Any, name: str | None = None, observe: Any = None,
           new_game: Any = None) -> Plugin:
    """Register a strategy from Python (notebooks, tests): a compiled function
    (with its hooks, if any) or a plain Python function or class."""
    name = name or getattr(fn, "__name__", "plugin")
    hooks = SimpleNamespace(**{f"{name}_observe": observe, f"{name}_new_game": new_game})
    p = make_plugin(fn, name, f"<python>:{name}", hooks, f"strategy {name}")
    register_plugin(p)
    _FROM_PYTHON.append(p)
    return p


# ------------------------------------------------------------------ running them

_CHOOSERS: dict[tuple[int, ...], tuple[list[Any], Any]] = {}


def plugin_of(fn: Any) -> Plugin | None:
    """The plug-in whose function ``fn`` is: the one registered now, else one loaded
    earlier in this process under a name another file has taken since (a table
    built before keeps playing its own code, hooks and all)."""
    return next((p for p in (*PLUGINS.values(), *_FILES.values(), *_FROM_PYTHON)
                 if p.fn is fn), None)


def chooser(fns: list[Any], watch_builtins: bool = False) -> Any:
    """A compiled ``choose(G, rng)``: plug-in k for seats with id PLUGIN_BASE + k,
    the built-ins (through the cached ``search_nb.strategy_move``) for every other
    seat. While the table records events (``RF_EVENTS``) it first hands every event
    not yet observed to each seat that observes (a plug-in with hooks, and with
    ``watch_builtins`` the built-ins that count cards, as ``counter_nb.hear_events``
    does where no plug-in observes), so every seat has heard
    everything before any seat decides. A Python plug-in's seat is never asked
    here (the Python driver asks it)."""
    key = (*(id(f) for f in fns), int(watch_builtins))
    if key in _CHOOSERS:
        return _CHOOSERS[key][1]
    source, ns = chooser_source(fns, watch_builtins)
    exec(compile(source, "<unosim plug-in chooser>", "exec"), ns)  # noqa: S102
    fn = ns["choose"]
    _CHOOSERS[key] = (list(fns), fn)  # keeps the functions alive, so ids stay unique
    return fn


def ears_of(choose: Any) -> Any:
    """The compiled seats' ears of a table's chooser: what ``choose`` calls before
    a decision so that every seat has heard every event (``hear_events`` for the
    built-ins' dispatch, the ``watch`` of a plug-in chooser), or None. A Python
    seat's decision calls them first too (runs/python_batch.py, runs/game.py):
    the card counter's memory reads its own hand when it hears, so hearing at
    other moments would play other games than the same table all compiled."""
    if choose is S.choose_move:
        return hear_events
    return getattr(getattr(choose, "py_func", None), "__globals__", {}).get("watch")


def hear_now(ears: Any, G: np.ndarray) -> None:
    """Let the compiled seats hear what they have not heard yet, as ``choose``
    does before a decision (``ears`` from ``ears_of``; None: nobody listens)."""
    if ears is not None and G[L.RF_EVENTS] != 0 and G[L.OFF_EV_READ] < G[L.OFF_EV_N]:
        ears(G)


def chooser_source(fns: list[Any], watch_builtins: bool = False) -> tuple[str, dict[str, Any]]:
    """The source of ``chooser``'s compiled ``choose`` (and of ``watch``, its ears,
    when a seat observes), and the names it needs: one text for the chooser made in
    a process and for the loops cached across processes (runs/plugin_loops.py)."""
    plugs = [plugin_of(f) for f in fns]
    ns: dict[str, Any] = {"np": np, "strategy_move": S.strategy_move, "L": L,
                          "builtin_observe": observe_builtin, "njit": njit}
    watchers = [(k, p) for k, p in enumerate(plugs) if p is not None and not p.python
                and (p.observe is not None or p.new_game is not None)]
    w: list[str] = []
    lines = ["@njit(_nrt=False)", "def choose(G, rng):"]
    if watchers or watch_builtins:
        lines += ["    if G[L.RF_EVENTS] != 0 and G[L.OFF_EV_READ] < G[L.OFF_EV_N]:",
                  "        watch(G)"]
    if watch_builtins and not watchers:
        ns["watch"] = hear_events  # the built-ins' own ears (cached)
    elif watchers:
        # each event to each seat in turn: a seat's memory is cleared at a deal before
        # its plug-in's new_game hook runs
        w = ["@njit(_nrt=False)",
             "def watch(G):",
             "    n = G[L.OFF_EV_N]",
             "    players = G[L.R_PLAYERS]",
             "    for i in range(G[L.OFF_EV_READ], n):",
             "        e = L.OFF_EV + (i % L.EV_CAP) * L.EV_WIDTH",
             "        kind = G[e]",
             "        who = G[e + 1]",
             "        a = G[e + 2]",
             "        b = G[e + 3]",
             "        for q in range(players):",
             "            if kind == L.Event.got and q != who:",
             "                continue  # a private event: its own seat's alone",
             "            sid = G[L.OFF_STRAT + q]",
             "            if kind == L.Event.deal:",
             "                for j in range(L.MEM_WORDS):",
             "                    G[L.OFF_MEM + q * L.MEM_WORDS + j] = 0"]
        for k, p in watchers:
            ns[f"_observe{k}"] = p.observe
            ns[f"_new_game{k}"] = p.new_game
            w.append(f"            if sid == {B.PLUGIN_BASE + k}:")
            if p.new_game is not None:
                w += ["                if kind == L.Event.deal:",
                      f"                    _new_game{k}(G, np.int64(q))"]
            if p.observe is not None:
                w.append(f"                _observe{k}(G, np.int64(q), kind, who, a, b)")
            w.append("                continue")
        if watch_builtins:
            w += [f"            if sid < {B.PLUGIN_BASE} and kind != L.Event.got:",
                  "                builtin_observe(sid, G, np.int64(q), kind, who, a, b)"]
        w.append("    G[L.OFF_EV_READ] = n")
    lines.append("    sid = G[OFF_STRAT + G[S_ACTOR]]")
    ns.update(OFF_STRAT=L.OFF_STRAT, S_ACTOR=L.S_ACTOR)
    for k, (f, p) in enumerate(zip(fns, plugs, strict=True)):
        if p is not None and p.python:
            continue  # asked from Python, never here
        ns[f"_plugin{k}"] = f
        lines.append(f"    if sid == {B.PLUGIN_BASE + k}:")
        lines.append(f"        return np.int64(_plugin{k}(G, rng))")
    lines.append("    return strategy_move(sid, G, rng)")
    return "\n".join([*w, *([""] if w else []), *lines]) + "\n", ns


def watches(seats: list[SeatStrategy]) -> bool:
    """Whether a table must record its events: a seat observes them."""
    return any(_seat_watches(s) for s in seats)


def _seat_watches(s: SeatStrategy) -> bool:
    if s.builtin:
        return s.kind == OBSERVER
    p = plugin_of(s.plugin)
    return p is not None and p.watches


def python_seats(seats: list[SeatStrategy]) -> int:
    """The bit mask of the seats a Python strategy plays."""
    return sum(1 << q for q, s in enumerate(seats) if s.kind == PYTHON)


def chooser_for(seats: list[SeatStrategy]) -> Any:
    """The compiled chooser of a table: the cached ``choose_move``, the dispatch of
    every built-in (the card counter hearing the events), when no compiled plug-in
    plays a seat (Python seats are asked from Python); else one made for its
    plug-ins (``chooser``)."""
    fns = plugin_functions(seats)  # all of them: plug-in k has id PLUGIN_BASE + k
    if all(function_kind(f) == PYTHON for f in fns):
        return S.choose_move
    return chooser(fns, watch_builtins(seats))


def watch_builtins(seats: list[SeatStrategy]) -> bool:
    """Whether a plug-in table's built-ins hear its events (the card counter does)."""
    return any(s.kind == OBSERVER for s in seats)


def has_plugins(seats: list[SeatStrategy]) -> bool:
    """Whether a user's strategy (plug-in or Python) plays a seat of the table."""
    return any(not s.builtin for s in seats)
