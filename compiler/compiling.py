"""What compiles when, and telling the user.

Numba compiles a kernel on its first call and keeps the machine code in its cache
(unosim sets the folder, see unosim/__init__.py), so the cost is paid once per
machine and engine version. The engine is split into paths that compile
separately, each on first use: rounds and matches, each for tables of the
built-ins without parameters, with a parametric strategy, or with a search seat,
the step functions plug-in tables call, and those ``Game`` drives one game with.
Whether a path is compiled is read from Numba's own cache index for the path's
entry points (compiler/cache.py), so that every real compile is announced: one
line on stderr (unless a command installs its own listener, such as the progress
bar's) before it compiles, and how long it took after. The paths, their notices
and their helper processes are the run layer's (runs/compile_notice.py): this
module takes what it needs of them as arguments.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

Listener = Callable[[str, str, float | None], None]
#: the entry points of a path, as a function that imports and returns them
Entries = Callable[[], list[Any]]
_seen: set[str] = set()
#: the paths this process compiled (Numba holds them in memory from then on)
_done: set[str] = set()
_lock = threading.Lock()
#: the path being compiled now and the helper process beside it, if any (a stop
#: during a compile ends the process at once: see ``compiling_now``)
_now: list[str] = []
_helpers: list[subprocess.Popen[bytes]] = []


#: the listeners of compile notices (``listening``): the latest hears them; none:
#: the caller's own (``first_use``'s ``announce``)
_listener: list[Listener] = []


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send compile notices to ``listener`` inside the block (the progress bar)."""
    _listener.append(listener)
    try:
        yield
    finally:
        _listener.remove(listener)


def is_compiled(path: str, entries: Entries) -> bool:
    """Whether ``path`` is compiled for this machine and these sources: compiled in
    this process already, or every one of its entry points (``entries``) is in Numba's
    cache."""
    if path in _done:
        return True
    from unosim.compiler.cache import all_cached

    try:
        return all_cached(entries())
    except Exception:  # noqa: BLE001 - an entry that cannot be found compiles
        return False


def compiled_here() -> set[str]:
    """The paths this process compiled so far (a run compares before and after)."""
    return set(_done)


def compiling_now() -> str | None:
    """The path this process is compiling now, if any."""
    return _now[-1] if _now else None


def abandon() -> None:
    """End the helper processes of a compile that is being given up (a stop): what
    they compiled is cached, the rest compiles on the next first use."""
    for helper in _helpers:
        if helper.poll() is None:
            helper.terminate()


def _tell(announce: Listener) -> Listener:
    return _listener[-1] if _listener else announce


@contextmanager
def first_use(path: str, entries: Entries, announce: Listener,
              helper: Callable[[], subprocess.Popen[bytes] | None] = lambda: None,
              beside: Callable[[subprocess.Popen[bytes]], None] = lambda h: None
              ) -> Iterator[None]:
    """Around a call that may compile ``path`` (whose entry points ``entries``
    returns): on its first use in this process, if Numba's cache does not hold it,
    tell the listener (``announce`` unless a block is ``listening``) before and after.
    ``helper`` may start a process that compiles part of the path meanwhile, and
    ``beside`` is what this one compiles beside it before the call."""
    with _lock:
        first = path not in _seen
        _seen.add(path)
    if not first or is_compiled(path, entries) or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        yield
        return
    _tell(announce)(path, "start", None)
    t0 = time.perf_counter()
    _now.append(path)
    process = helper()
    if process is not None:
        _helpers.append(process)
    from unosim.compiler import frontend, inlining

    inlining.install()  # after the notice: it imports Numba's inliner (a tenth of a second)
    frontend.install()
    try:
        if process is not None:
            beside(process)
        yield
    finally:
        frontend.clear()
        _now.remove(path)
        if process is not None:
            _helpers.remove(process)
            if process.poll() is None:
                process.terminate()  # what it compiled is cached; the rest compiles when used
    seconds = time.perf_counter() - t0
    _done.add(path)
    _tell(announce)(path, "done", seconds)
