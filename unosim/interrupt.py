"""Ctrl-C and SIGTERM during a run: stop between batches, never inside one.

Python's default Ctrl-C raises ``KeyboardInterrupt`` wherever the main thread
happens to be, which could be halfway through folding a batch into the totals
(or through writing a file). While a run is going, :class:`StopSignals` instead
only *records* SIGINT or SIGTERM; the run's per-batch callback then raises
``KeyboardInterrupt`` at a clean point, after a batch has been folded in, and the
runners turn that into a ``partial`` result. Numba's parallel region cannot be
interrupted anyway, so a signal always takes effect between batches. A second
signal stops at once with :class:`StopNow`, which the runners do not catch: the
totals in memory are then abandoned (they may be half updated), the last
checkpoint on disk is kept, and since files are only ever replaced atomically,
none is left half written.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

#: exit status of a run stopped by a signal: 128 + the signal's number
EXIT_INTERRUPTED = 128 + signal.SIGINT  # 130
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143

#: the last stop signal seen by this process (SIGINT or SIGTERM), or None
last_signal: int | None = None


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
    """Context manager: while active, SIGINT and SIGTERM set a flag that
    :meth:`check` turns into ``KeyboardInterrupt`` between batches.

    Outside the main thread (where handlers cannot be installed) it does nothing
    and Ctrl-C keeps Python's default behaviour.
    """

    def __init__(self) -> None:
        self.signum: int | None = None
        self._old: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old.clear()

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        first = self.signum is None
        self.signum = signum if first else self.signum
        _note(signum)
        if not first:
            raise StopNow  # a second signal: stop now

    @property
    def requested(self) -> bool:
        return self.signum is not None

    def check(self) -> None:
        """Raise ``KeyboardInterrupt`` if a stop was requested."""
        if self.signum is not None:
            raise KeyboardInterrupt

    def wrap(self, on_batch: Callable[[int], None] | None, total: int
             ) -> Callable[[int], None]:
        """A per-batch callback: call ``on_batch(n)``, then stop if asked to, unless
        this was the last batch (``total`` units in all), so a finished run is
        never reported as partial."""
        seen = 0

        def cb(n: int) -> None:
            nonlocal seen
            seen += n
            if on_batch is not None:
                on_batch(n)
            if seen < total:
                self.check()

        return cb


def terminate_as_interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGINT or SIGTERM outside a run's batches (start-up, compiling, writing): exit
    like Ctrl-C, with a one-line message instead of dying silently, and noted, so
    that a stop the compiler swallowed is still told from a failure (cli.main)."""
    _note(signum)
    raise KeyboardInterrupt


def exit_code() -> int:
    """130 after Ctrl-C, 143 after SIGTERM."""
    return EXIT_TERMINATED if last_signal == signal.SIGTERM else EXIT_INTERRUPTED
