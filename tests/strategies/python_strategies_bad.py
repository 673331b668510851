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
