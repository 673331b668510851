"""A stop request: what Ctrl-C or SIGTERM asks of a run, read between tasks.

A stop never travels as an exception through the run. The signal handler (the
commands' ``interrupt.StopSignals``) only sets the request; the backend reads it
before it hands out the next task, stops submitting, keeps what finished and says
the run was cut short; a study sees that in its outcome and returns its partial
result. A run that is not listening for signals holds a request nobody sets.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


class StopRequest:
    """Set once by a signal handler (or a test), read by the backend between tasks."""

    def __init__(self) -> None:
        self.signum: int | None = None
        #: tasks merged in this process: with none, a stop has nothing to keep
        self.merged = 0

    def set(self, signum: int = signal.SIGINT) -> None:
        """Ask the run to stop at its next task boundary (the first signal counts)."""
        if self.signum is None:
            self.signum = signum

    @property
    def requested(self) -> bool:
        return self.signum is not None


class Stopped(Exception):  # noqa: N818 - named for what happened, like StopIteration
    """A stop came before anything was finished, so there is no partial result to
    show: the command says "interrupted" and exits 130 or 143."""


_current = StopRequest()


def current() -> StopRequest:
    """The request the running command listens on (a never-set one outside a run)."""
    return _current


@contextmanager
def listening(request: StopRequest) -> Iterator[StopRequest]:
    """Make ``request`` the current one while the block runs."""
    global _current
    before, _current = _current, request
    try:
        yield request
    finally:
        _current = before
