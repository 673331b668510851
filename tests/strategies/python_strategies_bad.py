"""Python strategies that fail, each in its own way (tests/strategies/test_python_strategies.py)."""

import time

not_a_strategy = 42


def raises(view):
    raise ValueError("no idea")


def wrong_type(view):
    return 3


def illegal(view):
    return "take"


def slow(view):
    time.sleep(0.1)
    return view.legal[0]


def two_args(view, extra):
    return view.legal[0]


class NoChoose:
    pass


class observe_raises:  # noqa: N801 - named as the command line names it
    def observe(self, event):
        return {}[event.kind]

    def choose(self, view):
        return view.legal[0]


class bad_params:  # noqa: N801
    PARAMS = {"w": (1.0, 0.0, 0.5)}

    def choose(self, view):
        return view.legal[0]


class fails_later:  # noqa: N801
    """Fails at its 2,000th decision, some games into a run."""

    calls = 0

    def choose(self, view):
        type(self).calls += 1
        if type(self).calls > 2000:
            raise RuntimeError("tired")
        return view.legal[0]


def exits(view):
    import sys

    sys.exit(3)


def base_exception(view):
    raise BaseException("out")


def interrupts(view):
    raise KeyboardInterrupt


class ctor_fails:  # noqa: N801
    """Its constructor fails in play (not when loaded: the first round fails)."""

    made = 0

    def __init__(self):
        type(self).made += 1
        if type(self).made > 1:
            raise RuntimeError("no more")

    def choose(self, view):
        return view.legal[0]


def helper_score(card):
    """A helper of one argument, not a strategy: not listed when a name is missing."""
    return len(card)


def helper_pair(a, b):
    return a + b


def ctrl_c_twice(view):
    """Ctrl-C pressed twice while it decides: a real stop, not the strategy's failure."""
    import os
    import signal

    os.kill(os.getpid(), signal.SIGINT)
    os.kill(os.getpid(), signal.SIGINT)
    return view.legal[0]
