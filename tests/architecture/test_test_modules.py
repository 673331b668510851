"""Test files have unique names: pytest imports them by basename (tests/ holds no
packages), so a second ``test_x.py`` in another folder fails to collect, and only a
full run shows it."""

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_module_name_is_unique():
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []
