"""The play clock: seconds of this process less the time it spent suspended (Ctrl-Z).

A speed line divides the games by the seconds they took; a run suspended with Ctrl-Z
for an hour and continued with ``fg`` did not take that hour. The wall clock counts
it, and a process's CPU time is no fix (it counts every thread and leaves out the
worker processes of a Python seat), so the commands handle SIGTSTP themselves: the
process stops itself with SIGSTOP (what Ctrl-Z would have done), and the time until
it is continued is added to :func:`suspended`, which :func:`now` leaves out. A stop
by SIGSTOP sent from outside (``kill -STOP``) cannot be caught, so it still counts.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from types import FrameType

_lock = threading.Lock()
_suspended = 0.0


def suspended() -> float:
    """Seconds this process has spent suspended by Ctrl-Z (SIGTSTP) so far."""
    return _suspended


def now() -> float:
    """``time.perf_counter()`` less the time suspended by Ctrl-Z: the clock of play."""
    return time.perf_counter() - _suspended


def suspend() -> None:
    """Stop this process as Ctrl-Z does, and count the time until it is continued
    (``fg``, SIGCONT) as suspended. SIGSTOP stops every thread at once."""
    global _suspended
    t0 = time.perf_counter()
    os.kill(os.getpid(), signal.SIGSTOP)
    with _lock:
        _suspended += time.perf_counter() - t0


def on_suspend(signum: int, frame: FrameType | None) -> None:
    """The SIGTSTP handler: suspend, timed. It runs in the main thread, the one that
    times the play, so the time is counted before that thread reads the clock again
    (a Ctrl-Z lands between two compiled calls, as a stop does)."""
    suspend()


def handle_suspend() -> object:
    """Install :func:`on_suspend` for SIGTSTP (main thread, where job control exists);
    returns the handler it replaced (None where nothing was installed)."""
    tstp = getattr(signal, "SIGTSTP", None)
    if tstp is None or threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(tstp, on_suspend)
