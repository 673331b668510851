"""One way to stop: a request the backend reads between tasks (runs/stopping.py);
the package raises no KeyboardInterrupt as control flow."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from unosim.runs.backend import LocalBackend, Progress, run_tasks
from unosim.runs.driver import Outcome, Study, drive
from unosim.runs.stopping import Stopped, StopRequest

REPO = Path(__file__).resolve().parents[2]


def double(x: int) -> int:
    return 2 * x


def test_the_backend_stops_submitting_and_keeps_what_finished():
    stop, got = StopRequest(), []

    def merge(part: int) -> None:
        got.append(part)
        if len(got) == 2:
            stop.set()

    cut = run_tasks(LocalBackend(1), double, ((k, (k,)) for k in range(5)), merge, stop=stop)
    assert cut and got == [0, 2]
    assert not run_tasks(LocalBackend(1), double, [(0, (1,))], got.append, stop=StopRequest())


class Doubles(Study):
    task = staticmethod(double)

    def step(self, backend):
        return 1

    def fresh(self):
        return []

    def tasks(self, step):
        return ((k, (k,)) for k in range(4))

    def merge(self, totals, part):
        totals.append(part)

    def played(self, totals):
        return bool(totals)

    def result(self, totals, outcome: Outcome):
        return totals, outcome.stopped


def test_the_driver_returns_the_partial_result_or_says_stopped():
    assert drive(Doubles(), LocalBackend(1)) == ([0, 2, 4, 6], False)
    stop = StopRequest()
    stop.set()
    with pytest.raises(Stopped):  # stopped before anything finished
        drive(Doubles(), LocalBackend(1), stop=stop)

    class Keep:  # a checkpoint that holds the first two tasks
        def __init__(self):
            self.stages = {"study": Progress(1, [0, 2], {0, 1})}

        def stage(self, name):
            return self.stages.get(name)

        def note(self, name, p):
            self.stages[name] = p

    assert drive(Doubles(), LocalBackend(1), keep=Keep(), stop=stop) == ([0, 2], True)
    assert drive(Doubles(), LocalBackend(1), keep=Keep()) == ([0, 2, 4, 6], False)


def test_no_keyboard_interrupt_is_raised_outside_the_signal_handler():
    raised = []
    for folder in ("runs", "studies", "reports", "unosim", "compiler", "checks", "simulate",
                   "strategies"):
        for path in sorted((REPO / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for fn in ast.walk(tree):
                if not isinstance(fn, ast.FunctionDef):
                    continue
                for node in ast.walk(fn):
                    if (isinstance(node, ast.Raise) and node.exc is not None
                            and "KeyboardInterrupt" in ast.unparse(node.exc)):
                        raised.append(f"{path.relative_to(REPO)}:{fn.name}")
    assert raised == ["unosim/interrupt.py:terminate_as_interrupt"]
