"""The one exception type the CLI turns into a one-line message and exit code 2,
and the "did you mean" hint every unknown name gets. Imports nothing of the project,
so the engine, the strategies, the reports and the face can all raise it."""

from __future__ import annotations

import difflib
import numbers
from collections.abc import Iterable


class UnosimError(ValueError):
    """Bad user input: a rule, a variant, a strategy, an option value."""


def is_whole(v: object) -> bool:
    """A whole number as the API and the environments take one: a Python or NumPy
    integer, never a bool (True would be seat 1) nor a float that happens to be whole."""
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'stacking'?)"`` for the closest choices, or ``""`` when none is
    close: a mistyped name should point at the one the user meant, not only list all."""
    close = difflib.get_close_matches(word, list(choices), n=2, cutoff=0.6)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"
