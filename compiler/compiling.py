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
bar's) before it compiles, and how long it took after.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from unosim.runs import tiers

#: every path, in the order ``unosim compile`` builds them, with what it serves (the
#: tiers, the plug-in and the game paths declare them: runs/tiers.py)
PATHS: dict[str, str] = {name: p.serves for name, p in tiers.PATHS.items()}
#: about how long each path takes to compile, in seconds, on 2 cores: a recent
#: desktop processor to a slow shared virtual machine (``unosim bench`` measures it)
ESTIMATE_S: dict[str, tuple[int, int]] = {
    name: p.estimate_s for name, p in {**tiers.PATHS, **tiers.ENV_PATHS}.items()}

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


def path_of(mode: str, tier: str) -> str:
    """The path of a mode (round, match) and kernel tier (plain, param, search)."""
    return tiers.BY_NAME[tier].entries[mode].path.name


def _stderr_listener(path: str, event: str, seconds: float | None) -> None:
    if event == "start":
        print(notice(path), file=sys.stderr, flush=True)
    else:
        print(compiled(seconds or 0.0, path), file=sys.stderr, flush=True)


_listener: list[Listener] = [_stderr_listener]


#: the paths Numba compiles again in every process (a plug-in table's loop is
#: specialised to its functions there; the steps it calls come from the cache)
EVERY_PROCESS = frozenset({tiers.PLUGINS.name, tiers.VECTOR_ENV_BOUND.name})


def notice(path: str) -> str:
    """The line shown before a path compiles."""
    lo, hi = ESTIMATE_S.get(path, (10, 60))
    if path in EVERY_PROCESS:
        return (f"unosim: compiling your strategies into the engine ({path}); once per run, "
                f"up to {lo} to {hi} s...")
    return (f"unosim: compiling the engine for this machine ({path}); first run only, "
            f"{lo} to {hi} s...")


def compiled(seconds: float, path: str = "") -> str:
    """The line shown after a path compiled."""
    if path in EVERY_PROCESS:
        return f"unosim: compiled in {seconds:.0f} s"
    return f"unosim: compiled in {seconds:.0f} s; later runs start at once"


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send compile notices to ``listener`` inside the block (the progress bar)."""
    _listener.append(listener)
    try:
        yield
    finally:
        _listener.remove(listener)


def is_compiled(path: str, entries: Entries | None = None) -> bool:
    """Whether ``path`` is compiled for this machine and these sources: compiled in
    this process already, or every one of its entry points (``entries``, by default
    the path's declared ones, runs/tiers.py) is in Numba's cache."""
    if path in _done:
        return True
    from unosim.compiler.cache import all_cached

    try:
        return all_cached((entries or (lambda: tiers.entry_points(path)))())
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


#: the longest the plain round path waits for the helper's share before it
#: compiles what is still missing itself
HELPER_WAIT_S = 300.0


def _start_prime(path: str) -> subprocess.Popen[bytes] | None:
    """On a machine with a second core, compile the path's helper share (runs/tiers.py:
    the rule steps of the plain round path) in a helper process (compiler/prime.py)
    while this one compiles the rest."""
    declared = tiers.PATHS.get(path)
    if declared is None or not declared.helper or (os.cpu_count() or 1) < 2:
        return None
    try:
        return subprocess.Popen([sys.executable, "-m", "unosim.compiler.prime", path],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
    except OSError:
        return None


def _share(path: str, helper: subprocess.Popen[bytes]) -> None:
    """The command's share beside the helper (prime.BESIDE: the paths that declare
    one, runs/tiers.py), then the wait for the helper's (until it prints
    prime.READY), so that the entry point compiles none of the helper's kernels
    again. Nothing here is needed for the result: what fails or is missing
    compiles when the entry point calls it."""
    from unosim.compiler import prime

    share = prime.BESIDE.get(path)
    if share is None:
        return
    try:
        share()
    except Exception:  # noqa: BLE001 - the entry point's compile reports it
        pass
    # the helper prints prime.READY when its share is cached (or ends): wait for the
    # line, not for the process, which goes on with what a search seat steps with
    heard = threading.Event()

    def listen() -> None:
        try:
            if helper.stdout is not None:
                helper.stdout.readline()
        except (OSError, ValueError):
            pass
        finally:
            heard.set()

    threading.Thread(target=listen, daemon=True).start()
    heard.wait(HELPER_WAIT_S)


@contextmanager
def first_use(path: str, entries: Entries | None = None) -> Iterator[None]:
    """Around a call that may compile ``path`` (whose entry points ``entries``
    returns): on its first use in this process, if Numba's cache does not hold it,
    tell the listener before and after."""
    with _lock:
        first = path not in _seen
        _seen.add(path)
    if not first or is_compiled(path, entries) or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        yield
        return
    _listener[-1](path, "start", None)
    t0 = time.perf_counter()
    _now.append(path)
    helper = _start_prime(path)
    if helper is not None:
        _helpers.append(helper)
    from unosim.compiler import inlining

    inlining.install()  # after the notice: it imports Numba's inliner (a tenth of a second)
    try:
        if helper is not None:
            _share(path, helper)
        yield
    finally:
        _now.remove(path)
        if helper is not None:
            _helpers.remove(helper)
            if helper.poll() is None:
                helper.terminate()  # what it compiled is cached; the rest compiles when used
    seconds = time.perf_counter() - t0
    _done.add(path)
    _listener[-1](path, "done", seconds)
