"""The loops of a table of compiled plug-ins, cached across processes.

A table with plug-ins plays on ``round_nb.play_games_with`` (matches:
``match_nb.play_matches_with``), given a chooser made for its plug-ins
(strategies/plugins.py). Passing the chooser as an argument specialises the loop to
it in every process, which took 15 to 45 s in each run, each Dask worker and each
process of the test suite. Here the chooser's source is written into a module of
its own in the engine's cache folder, with two loops that call it by name, and
Numba caches those loops like any kernel: a later process that plays the same
plug-ins loads them.

The module's name is a hash of everything its machine code depends on: the
chooser's source (which seats, which hooks, which built-ins listen), the code of
each plug-in as this process loaded it and of the user's functions and constants it
reads, followed through (an edited helper module is seen; a file edited after it
was imported is not mistaken for what was compiled), and Numba's version; the
engine fingerprint names the cache folder itself. A plug-in whose code reads values
that no hash can know (a closure's cells, a Python object of the user's) keeps the
loop made in its process, as every plug-in did before.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import sysconfig
import types
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from unosim.runs.prime import code_names

#: the folder of the generated modules, inside the engine's cache folder
FOLDER = "plug-in-loops"

_HEAD = '''\
"""Loops around one chooser of moves (made by unosim: runs/plugin_loops.py)."""
# {sources}

{chooser}

chosen = the(choose)

'''

#: the loops of runs: a table's games and matches (runs/plugin_batch.py)
RUNS = '''
@njit(nogil=True, _nrt=False, cache=True)
def play_rows(template, base_seed, start, out, lo, hi, checked, bad, G, RNG):
    games_with(chosen(), template, base_seed, start, out, lo, hi, checked, bad, G, RNG)


@njit(nogil=True, _nrt=False, cache=True)
def play_match_rows(template, base_seed, start, max_rounds, out, lo, hi, checked, bad, G,
                    RNG):
    matches_with(chosen(), template, base_seed, start, max_rounds, out, lo, hi, checked, bad,
                 G, RNG)
'''


def the(dispatcher: Any) -> Any:
    """A compiled function that returns ``dispatcher`` to compiled code, to pass it on
    as an argument. Numba gives a compiled function named as a value the address of
    its Python object, which it will not cache ("dynamic globals"); yet a function
    passed on is called by its type alone (the call links its machine code) and its
    value is never read, so a constant stands in for the address."""
    from numba import typeof
    from numba.extending import intrinsic

    kind = typeof(dispatcher)

    @intrinsic
    def chosen(typingctx: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return context.get_constant_null(kind)

        return kind(), codegen

    return chosen


def _is_library(module: types.ModuleType) -> bool:
    """A module of the engine (the fingerprint, which names the cache folder, has it),
    of Python or of an installed library (a new version of which changes nothing a
    plug-in's own code compiles into)."""
    name = module.__name__
    if name == "unosim" or name.startswith("unosim."):
        return True
    file = getattr(module, "__file__", None)
    return file is None or os.path.realpath(file).startswith(_library_roots())


@cache
def _library_roots() -> tuple[str, ...]:
    roots = {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots |= {sys.prefix, sys.base_prefix, sys.exec_prefix}
    return tuple(os.path.realpath(r) + os.sep for r in roots if r)


def _code_digest(fns: list[Any]) -> str | None:
    """A hash of the code the plug-ins compile into: each compiled function's code
    and, followed through, the functions and values of the user's that it reads
    (a helper module's compiled function, a constant). It hashes what this process
    loaded, not the files, so a file edited after it was imported cannot name a loop
    compiled from its old code. None: a value it cannot know by its content."""
    h = hashlib.sha256()
    seen: set[int] = set()
    todo = list(fns)
    while todo:
        fn = todo.pop()
        py = getattr(fn, "py_func", fn)
        if id(py) in seen:
            continue
        seen.add(id(py))
        if py.__closure__ or py.__kwdefaults__:
            return None  # values held outside its code and its module
        # the module's name too: Numba's cached code names the module of each function
        # it compiled in, and finds it by that name when it loads (a plug-in file's
        # module is named after the file's place and bytes)
        h.update(f"{py.__module__}:{py.__qualname__}".encode())
        h.update(marshal.dumps(py.__code__) + repr(py.__defaults__).encode())
        names = code_names(py.__code__)
        scopes = [py.__globals__]
        for name in sorted(names):
            value = py.__globals__.get(name)
            if isinstance(value, types.ModuleType) and not _is_library(value):
                scopes.append(vars(value))  # helper.pick: pick is read from helper
        for scope in scopes:
            for name in sorted(names & scope.keys()):
                value = scope[name]
                if isinstance(value, types.ModuleType):
                    continue
                if hasattr(value, "py_func"):
                    module = sys.modules.get(value.py_func.__module__)
                    if module is None or not _is_library(module):
                        todo.append(value)
                    continue
                if isinstance(value, np.ndarray):
                    h.update(f"{name}={value.dtype}{value.shape}".encode() + value.tobytes())
                elif isinstance(value, (int, float, complex, str, bytes, tuple, bool)) or \
                        value is None:
                    h.update(f"{name}={value!r}".encode())
                elif callable(value) or isinstance(value, type):
                    module = sys.modules.get(getattr(value, "__module__", "") or "")
                    if module is not None and not _is_library(module):
                        return None  # a Python object of the user's a kernel may read
    return h.hexdigest()


def chooser_part(seats: list[Any]) -> tuple[str, dict[str, Any]] | None:
    """The head of a generated module for a table's ``seats``: the source of its
    chooser (its header names each plug-in's file and the hash of its bytes,
    Numba's version and the hash of the code) and the names it needs; the cached
    dispatch of the built-ins where no compiled plug-in plays. None when the
    plug-ins' code reads what no hash can know."""
    import numba

    from unosim.strategies.plugins import chooser_for, chooser_source, plugin_of, watch_builtins
    from unosim.strategies.registry import plugin_functions
    from unosim.strategies.search_nb import choose_move

    head = [f"numba {numba.__version__}"]
    if chooser_for(seats) is choose_move:
        return _HEAD.format(sources=head[0], chooser="choose = choose_move"), {
            "choose_move": choose_move}
    fns = plugin_functions(seats)
    plugs = [plugin_of(f) for f in fns]
    if any(p is None for p in plugs):
        return None
    compiled = [(f, p) for f, p in zip(fns, plugs, strict=True)
                if p is not None and not p.python]
    hooks = [h for _, p in compiled for h in (p.observe, p.new_game) if h is not None]
    code = _code_digest([f for f, _ in compiled] + hooks)
    if code is None:
        return None
    head += [f"{p.source} {p.sha256}" for _, p in compiled]
    chooser, ns = chooser_source(fns, watch_builtins(seats))
    return _HEAD.format(sources="\n# ".join([*head, f"their code {code}"]),
                        chooser=chooser), ns


def _write_once(path: Path, text: str) -> None:
    """Write ``path`` if it does not exist, atomically and never over another
    process's copy: a rewritten file's new time stamp would void the cache."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_text(text)
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass  # another process wrote the same text first
    finally:
        tmp.unlink(missing_ok=True)


def cached_loops(seats: list[Any], body: str = RUNS,
                 names: dict[str, Any] | None = None) -> types.ModuleType | None:
    """The module of the loops ``body`` (``RUNS``: ``play_rows``, ``play_match_rows``)
    around the chooser of a table's ``seats``, with the names ``body`` needs beside
    it, made or found in the cache folder; None when the plug-ins cannot be cached
    or the folder cannot be written."""
    from numba.core import config

    if int(config.OPT) == 0:
        return None  # unoptimised code holds addresses Numba will not cache
    made = chooser_part(seats)
    if made is None:
        return None
    text, ns = made
    if names is None:
        from unosim.simulate.match_nb import matches_with
        from unosim.simulate.round_nb import games_with

        names = {"games_with": games_with, "matches_with": matches_with}
    return _load(text + body, tuple({**ns, **names}.items()))


def is_cached(seats: list[Any], match: bool = False) -> bool:
    """Whether Numba's cache holds the loops of a table's ``seats`` for this machine,
    found without writing anything (``--dry-run``; ``match``: the matches' loop);
    False for plug-ins that cannot be cached, which compile in every process."""
    from numba.core import config

    from unosim.compiler.cache import is_cached as cached

    made = chooser_part(seats)
    if made is None or not config.CACHE_DIR:
        return False
    text, _ = made
    name = _module_name(text + RUNS)
    if name not in sys.modules and not (Path(config.CACHE_DIR) / FOLDER / f"{name}.py").is_file():
        return False
    loops = cached_loops(seats)  # the file is there: loading it writes nothing
    return loops is not None and cached(loops.play_match_rows if match else loops.play_rows)


@cache
def _module_name(text: str) -> str:
    """The name of the generated module whose source is ``text``."""
    return f"unosim_plugin_loops_{hashlib.sha256(text.encode()).hexdigest()[:24]}"


def _load(text: str, names: tuple[tuple[str, Any], ...]) -> types.ModuleType | None:
    from numba.core import config

    name = _module_name(text)
    if name in sys.modules:
        return sys.modules[name]
    if not config.CACHE_DIR:
        return None
    path = Path(config.CACHE_DIR) / FOLDER / f"{name}.py"
    try:
        _write_once(path, text)
    except OSError:
        return None  # an unwritable cache: the loop of this process
    module = types.ModuleType(name)
    module.__file__ = str(path)
    from numba import njit

    module.__dict__.update(dict(names), the=the, njit=njit)
    sys.modules[name] = module
    exec(compile(text, str(path), "exec"), module.__dict__)  # noqa: S102
    return module
