"""What compiles when, and telling the user.

Numba compiles a kernel on its first call and keeps the machine code in its cache
(unosim sets the folder, see unosim/__init__.py), so the cost is paid once per
machine and engine version. The engine is split into paths that compile
separately, each on first use: rounds and matches, each for tables of the
built-ins without parameters, with a parametric strategy, or with a search seat,
and the step functions plug-in tables call. A marker file beside Numba's cache
says that a path was compiled on this machine; without it the first call tells
the listener (one line on stderr unless a command installs its own, such as the
progress bar's) before it compiles, and how long it took after.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from unosim.runs import tiers

#: every path, in the order ``unosim compile`` builds them, with what it serves (the
#: tiers and the plug-in path declare them: runs/tiers.py)
PATHS: dict[str, str] = {name: p.serves for name, p in tiers.PATHS.items()}
#: about how long each path takes to compile, in seconds, on 2 cores: a recent
#: desktop processor to a slow shared virtual machine (``unosim bench`` measures it)
ESTIMATE_S: dict[str, tuple[int, int]] = {name: p.estimate_s for name, p in tiers.PATHS.items()}

Listener = Callable[[str, str, float | None], None]
_seen: set[str] = set()
_lock = threading.Lock()


def path_of(mode: str, tier: str) -> str:
    """The path of a mode (round, match) and kernel tier (plain, param, search)."""
    return tiers.BY_NAME[tier].entries[mode].path.name


def _stderr_listener(path: str, event: str, seconds: float | None) -> None:
    if event == "start":
        print(notice(path), file=sys.stderr, flush=True)
    else:
        print(compiled(seconds or 0.0), file=sys.stderr, flush=True)


_listener: list[Listener] = [_stderr_listener]


def notice(path: str) -> str:
    """The line shown before a path compiles."""
    lo, hi = ESTIMATE_S.get(path, (10, 60))
    return (f"unosim: compiling the engine for this machine ({path}); first run only, "
            f"{lo} to {hi} s...")


def compiled(seconds: float) -> str:
    """The line shown after a path compiled."""
    return f"unosim: compiled in {seconds:.0f} s; later runs start at once"


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send compile notices to ``listener`` inside the block (the progress bar)."""
    _listener.append(listener)
    try:
        yield
    finally:
        _listener.remove(listener)


def _marker(path: str) -> Path:
    from numba import config

    # the CPU Numba builds for (NUMBA_CPU_NAME, else this machine's): a cache folder
    # shared by machines of different kinds holds one set of kernels per kind
    cpu = config.CPU_NAME or _host_cpu()
    return Path(config.CACHE_DIR) / f"compiled-{path.replace('/', '-')}-{cpu}"


def _host_cpu() -> str:
    import llvmlite.binding as ll

    return str(ll.get_host_cpu_name())


def is_compiled(path: str) -> bool:
    """Whether ``path`` was compiled on this machine for this engine."""
    try:
        return _marker(path).exists()
    except (OSError, ImportError, AttributeError):
        return False


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
def first_use(path: str) -> Iterator[None]:
    """Around a call that may compile ``path``: on its first use on this machine,
    tell the listener before and after, and leave the marker."""
    with _lock:
        first = path not in _seen
        _seen.add(path)
    if not first or is_compiled(path) or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        yield
        return
    _listener[-1](path, "start", None)
    t0 = time.perf_counter()
    helper = _start_prime(path)
    from unosim.compiler import inlining

    inlining.install()  # after the notice: it imports Numba's inliner (a tenth of a second)
    try:
        if helper is not None:
            _share(path, helper)
        yield
    finally:
        if helper is not None and helper.poll() is None:
            helper.terminate()  # what it compiled is cached; the rest compiles when used
    seconds = time.perf_counter() - t0
    try:
        _marker(path).parent.mkdir(parents=True, exist_ok=True)
        _marker(path).write_text(f"{seconds:.1f}\n")
    except OSError:
        pass
    _listener[-1](path, "done", seconds)

