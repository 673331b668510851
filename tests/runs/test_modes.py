"""The mode of play is one declared object (runs/modes.py): what differs between
rounds and matches is read from it, never from a compared string."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from unosim.errors import UnosimError
from unosim.runs import modes
from unosim.runs.aggregate import Aggregate, RunResult
from unosim.runs.match import MatchAggregate, MatchResult
from unosim.simulate import layout as L
from unosim.simulate import match_nb as M

REPO = Path(__file__).resolve().parents[2]
#: the declaration itself
ALLOWED = {"runs/modes.py"}


def test_the_two_modes_are_declared_once():
    assert modes.of("round") is modes.ROUND and modes.of(modes.MATCH) is modes.MATCH
    assert (modes.ROUND.width, modes.MATCH.width) == (L.N_G, M.N_M)
    assert (modes.ROUND.totals, modes.MATCH.totals) == (Aggregate, MatchAggregate)
    assert (modes.ROUND.result, modes.MATCH.result) == (RunResult, MatchResult)
    assert (modes.ROUND.unit, modes.MATCH.unit) == ("games", "matches")
    assert isinstance(modes.MATCH.new_totals(3), MatchAggregate)
    assert str(modes.MATCH) == "match"
    with pytest.raises(UnosimError, match="--mode must be one of round, match"):
        modes.of("tournament")


def _compares_a_mode_word(node: ast.AST) -> bool:
    if not isinstance(node, ast.Compare):
        return False
    sides = [node.left, *node.comparators]
    words = [s for s in sides if isinstance(s, ast.Constant) and s.value in ("round", "match")]
    named = [s for s in sides if "mode" in ast.unparse(s)]
    return bool(words and named)


def test_no_mode_is_compared_as_a_string():
    found = []
    for folder in ("runs", "studies", "reports", "unosim", "compiler", "checks", "simulate",
                   "strategies"):
        for path in sorted((REPO / folder).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            if rel in ALLOWED:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found += [f"{rel}:{n.lineno}" for n in ast.walk(tree) if _compares_a_mode_word(n)]
    assert found == []
