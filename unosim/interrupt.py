"""Ctrl-C and SIGTERM during a run: stop between tasks, never inside one.

Python's default Ctrl-C raises ``KeyboardInterrupt`` wherever the main thread
happens to be, which could be halfway through folding a batch into the totals
(or through writing a file). While a run is going, :class:`StopSignals` instead
only *sets* a :class:`~unosim.runs.stopping.StopRequest`; the backend reads it
before it hands out the next task, so the run ends at a clean point with the
finished tasks kept and the study returns its partial result. Numba's parallel
region cannot be interrupted anyway, so a signal always takes effect between
tasks. A second signal stops at once with :class:`StopNow`, which the runners do
not catch: the totals in memory are then abandoned (they may be half updated), the
last checkpoint on disk is kept, and since files are only ever replaced
atomically, none is left half written.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from unosim.runs import clock
from unosim.runs.stopping import StopRequest, listening

#: exit status of a run stopped by a signal: 128 + the signal's number
EXIT_INTERRUPTED = 128 + signal.SIGINT  # 130
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143

#: the last stop signal seen by this process (SIGINT or SIGTERM), or None
last_signal: int | None = None


#: the line a run's first stop signal prints at once: a task can take many seconds
#: (an atlas task plays every preset, a Python seat's batch is slow), and a bar that
#: keeps moving with no word invites the second signal that drops the report
STOPPING = ("unosim: stopping after the current task (it can take some seconds); a second "
            "Ctrl-C or SIGTERM stops at once, without a report")

#: how that line is printed: the progress bar's console while a bar shows (above it),
#: else straight to stderr
_say: list[Callable[[str], None]] = []


@contextmanager
def saying(print_line: Callable[[str], None]) -> Iterator[None]:
    """Print the stopping line with ``print_line`` while the block runs."""
    _say.append(print_line)
    try:
        yield
    finally:
        _say.remove(print_line)


def _tell_stopping() -> None:
    try:
        if _say:
            _say[-1](STOPPING)
        else:
            sys.stderr.write(STOPPING + "\n")
            sys.stderr.flush()
    except Exception:  # noqa: BLE001, S110 - a notice must never break the stop itself
        pass


class StopNow(BaseException):
    """A second stop signal during a run: leave at once, keep nothing in memory."""


def _note(signum: int) -> None:
    global last_signal
    last_signal = signum


def reset() -> None:
    """Forget the last signal (the CLI calls this at the start of each command)."""
    global last_signal
    last_signal = None


class StopSignals:
    """Context manager: while active, SIGINT and SIGTERM set its stop request, which
    it makes the current one (``runs.stopping.current``) for the backend to read.

    Outside the main thread (where handlers cannot be installed) the request is
    still current, and Ctrl-C keeps Python's default behaviour.
    """

    def __init__(self, notice: bool = True) -> None:
        self.request = StopRequest()
        #: print the stopping line on the first signal (not once the play is over)
        self.notice = notice
        self._old: dict[int, Any] = {}
        self._listen: Any = None

    def __enter__(self) -> StopSignals:
        self._listen = listening(self.request)
        self._listen.__enter__()
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._handler)
            # Ctrl-Z still suspends, timed, so that speed lines leave that time out
            tstp = clock.handle_suspend()
            if tstp is not None:
                self._old[signal.SIGTSTP] = tstp
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old.clear()
        self._listen.__exit__(*exc)

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        first = not self.request.requested
        self.request.set(signum)
        _note(signum)
        if not first:
            raise StopNow  # a second signal: stop now
        if self.notice:
            _tell_stopping()

    @property
    def signum(self) -> int | None:
        return self.request.signum

    @property
    def requested(self) -> bool:
        return self.request.requested


def terminate_as_interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGINT or SIGTERM outside a run's batches (start-up, compiling, writing): exit
    like Ctrl-C, with a one-line message instead of dying silently, and noted, so
    that a stop the compiler swallowed is still told from a failure (cli.main)."""
    _note(signum)
    raise KeyboardInterrupt


def _stop_during_compile(signum: int) -> None:
    """A stop while the engine compiles and before this process finished any task:
    there is nothing to keep (a checkpoint on disk stays as it is, and what Numba
    compiled so far is in its cache), so end now instead of when the compile ends,
    which can be a minute away."""
    from unosim.compiler import compiling
    from unosim.runs import stopping

    path = compiling.compiling_now()
    if path is None or stopping.current().merged:
        return
    _note(signum)
    compiling.abandon()
    sys.stderr.write(f"\nunosim: stopped while compiling the engine ({path}); no game was "
                     "played yet, and what compiled so far stays in the cache\n")
    sys.stderr.flush()
    os._exit(EXIT_TERMINATED if signum == signal.SIGTERM else EXIT_INTERRUPTED)


_watching: list[bool] = []


def watch_compiles() -> None:
    """Hear SIGINT and SIGTERM at once, even while Numba's compiler is inside LLVM
    (where the main thread runs no Python for seconds and a Python handler waits):
    the C-level handler writes the signal to a pipe (``signal.set_wakeup_fd``) that a
    thread reads. Installed once per process, from the main thread; the Python
    handlers still run as before for everything but a stop during a compile."""
    if _watching or threading.current_thread() is not threading.main_thread():
        return
    r, w = os.pipe()
    os.set_blocking(w, False)
    try:
        signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    except ValueError:  # not the main thread of the main interpreter
        return
    _watching.append(True)

    def watch() -> None:
        while True:
            for signum in os.read(r, 64):
                if signum in (signal.SIGINT, signal.SIGTERM):
                    _stop_during_compile(signum)

    threading.Thread(target=watch, name="unosim-stop-watch", daemon=True).start()


def exit_code() -> int:
    """130 after Ctrl-C, 143 after SIGTERM."""
    return EXIT_TERMINATED if last_signal == signal.SIGTERM else EXIT_INTERRUPTED
