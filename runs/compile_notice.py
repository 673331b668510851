"""The engine's compile paths and their notices: which path a mode and tier compile,
whether one is compiled, the lines the user sees before and after, and the helper
process that compiles part of a path beside the command (runs/prime.py).

The paths are declared in runs/tiers.py; the first-use machinery that tells the
listener is compiler/compiling.py, which gets from here what it needs as arguments.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from contextlib import AbstractContextManager

from unosim.common import module_command
from unosim.compiler import compiling
from unosim.compiler.compiling import Entries
from unosim.runs import tiers

#: every path, in the order ``unosim compile`` builds them, with what it serves (the
#: tiers, the plug-in and the game paths declare them: runs/tiers.py)
PATHS: dict[str, str] = {name: p.serves for name, p in tiers.PATHS.items()}
#: about how long each path takes to compile, in seconds, on 2 cores: a recent
#: desktop processor to a slow shared virtual machine (``unosim bench`` measures it)
ESTIMATE_S: dict[str, tuple[int, int]] = {
    name: p.estimate_s
    for name, p in {**tiers.HELPED_PATHS, **tiers.ENV_PATHS}.items()}


def path_of(mode: str, tier: str) -> str:
    """The path of a mode (round, match) and kernel tier (plain, param, search)."""
    return tiers.BY_NAME[tier].entries[mode].path.name


def _stderr_listener(path: str, event: str, seconds: float | None) -> None:
    if event == "start":
        print(notice(path), file=sys.stderr, flush=True)
    else:
        print(compiled(seconds or 0.0, path), file=sys.stderr, flush=True)


#: the paths that compile around the strategies a user seats: a plug-in table's
#: loops and the vector environment's pair against other than plain built-ins, once
#: per version of them (runs/plugin_loops.py); the steps they call are the engine's
EVERY_PROCESS = frozenset({tiers.PLUGINS.name, tiers.VECTOR_ENV_BOUND.name})


def notice(path: str) -> str:
    """The line shown before a path compiles."""
    lo, hi = ESTIMATE_S.get(path, (10, 60))
    if path in EVERY_PROCESS:
        return (f"unosim: compiling your strategies into the engine ({path}); once per "
                f"version of them, up to {lo} to {hi} s...")
    return (f"unosim: compiling the engine for this machine ({path}); first run only, "
            f"{lo} to {hi} s...")


def compiled(seconds: float, path: str = "") -> str:
    """The line shown after a path compiled."""
    if path in EVERY_PROCESS:
        return f"unosim: compiled in {seconds:.0f} s"
    return f"unosim: compiled in {seconds:.0f} s; later runs start at once"


def _entries(path: str, entries: Entries | None) -> Entries:
    return entries or (lambda: tiers.entry_points(path))


def is_compiled(path: str, entries: Entries | None = None) -> bool:
    """Whether ``path`` is compiled for this machine and these sources: compiled in
    this process already, or every one of its entry points (``entries``, by default
    the path's declared ones, runs/tiers.py) is in Numba's cache."""
    return compiling.is_compiled(path, _entries(path, entries))


#: the longest the plain round path waits for the helper's share before it
#: compiles what is still missing itself
HELPER_WAIT_S = 300.0


def _start_prime(path: str) -> subprocess.Popen[bytes] | None:
    """On a machine with a second core, compile the path's helper share (runs/tiers.py:
    the rule steps of the plain round path) in a helper process (runs/prime.py)
    while this one compiles the rest."""
    declared = tiers.HELPED_PATHS.get(path)
    if declared is None or not declared.helper or (os.cpu_count() or 1) < 2:
        return None
    try:
        return subprocess.Popen(module_command("unosim.runs.prime", path),
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
    from unosim.runs import prime

    share = prime.BESIDE.get(path)
    if share is None:
        return
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
    try:
        prime.steal(path, heard.is_set, first=True)
        share()
        prime.steal(path, heard.is_set)
    except Exception:  # noqa: BLE001 - the entry point's compile reports it
        pass
    heard.wait(HELPER_WAIT_S)


def first_use(path: str, entries: Entries | None = None) -> AbstractContextManager[None]:
    """Around a call that may compile ``path`` (whose entry points ``entries``
    returns, by default the path's declared ones): on its first use in this process,
    if Numba's cache does not hold it, tell the listener before and after (by
    default one line each on stderr), with the path's helper process beside it."""
    return compiling.first_use(path, _entries(path, entries), _stderr_listener,
                               lambda: _start_prime(path), lambda h: _share(path, h))
