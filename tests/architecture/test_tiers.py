"""The fast tier (``python -m pytest -m "not slow"``, docs/contributing.md) covers every
module of the project: each module is imported by a test file that has fast tests, directly
or through the modules that file imports (read from the sources with ast, as the arrows
are). A module reached only by slow tests would be left out of the edit loop's tier
without anyone noticing. Besides imports, a module is reached when its package is (Python
imports a package's ``__init__`` first), when the command group names it (unosim/cli.py
loads its commands by name), when a test names it as a string (``python -m
unosim.env.speed``; ``"unosim"`` runs ``unosim.__main__``), and, for the plug-in examples
that are loaded from their files, when a test names the file (``"first.py"``).

A test counts as fast unless it, its class or its module (``pytestmark``) is marked
slow, browser, cluster, subprocess or compile (tests/conftest.py makes the last four
slow)."""

from __future__ import annotations

import ast
from pathlib import Path

from test_architecture import imports_of, project_sources

TESTS = Path(__file__).resolve().parents[1]
#: marks that leave a test out of the fast tier
SLOW = {"slow", "browser", "cluster", "subprocess", "compile"}


def marks(nodes: list[ast.expr]) -> set[str]:
    """The names of the ``pytest.mark.NAME`` that the expressions use."""
    found = set()
    for node in nodes:
        for sub in ast.walk(node):
            if (isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute)
                    and sub.value.attr == "mark"):
                found.add(sub.attr)
    return found


def module_marks(tree: ast.Module) -> set[str]:
    return marks([n.value for n in tree.body if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                          for t in n.targets)])


def fast_tests(path: Path) -> list[str]:
    """The test functions of a file that the fast tier runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if module_marks(tree) & SLOW:
        return []
    found = []

    def visit(body: list[ast.stmt], inherited: set[str]) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                visit(node.body, inherited | marks(node.decorator_list))
            elif (isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.name.startswith("test")
                  and not (inherited | marks(node.decorator_list)) & SLOW):
                found.append(node.name)

    visit(tree.body, set())
    return found


#: the package whose modules are plug-in files, loaded from their paths
FILE_LOADED = "unosim.strategies.examples."


def named(source: str, known: set[str]) -> set[str]:
    """The modules a source names in its strings: a module's name (and its ``__main__``,
    which ``-m`` runs), or the file name of a plug-in example."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if text in known:
                found |= {text, f"{text}.__main__"} & known
            elif text.endswith(".py"):
                stem = text.rsplit("/", 1)[-1][:-3]
                found |= {FILE_LOADED + stem} & known
    return found


def commands() -> set[str]:
    """The command modules that unosim/cli.py loads by name (its COMMANDS, found from
    the files of unosim/commands/: "run": "run:run")."""
    from unosim.cli import COMMANDS

    return {"unosim.commands." + target.partition(":")[0] for target in COMMANDS.values()}


def reached(start: set[str], graph: dict[str, set[str]]) -> set[str]:
    seen, todo = set(), list(start)
    while todo:
        mod = todo.pop()
        if mod in seen or mod not in graph:
            continue
        seen.add(mod)
        todo.extend(graph[mod])
        parts = mod.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
    return seen


def test_every_module_is_imported_by_a_test_file_with_fast_tests():
    sources = project_sources()
    # the helper modules of tests/ (scenario, cli_helpers, ...) by their own names
    helpers = {p.stem: p.read_text(encoding="utf-8") for p in TESTS.glob("*.py")
               if not p.name.startswith(("test_", "conftest"))}
    known = set(sources) | set(helpers)
    graph = {name: (imports_of(name, text, known) | named(text, known)) & known
             for name, text in {**sources, **helpers}.items()}
    graph["unosim.cli"] |= commands()
    start: set[str] = set()
    fast_files = 0
    for path in sorted(TESTS.rglob("test_*.py")):
        if fast_tests(path):
            fast_files += 1
            text = path.read_text(encoding="utf-8")
            start |= (imports_of(path.stem, text, known) | named(text, known)) & known
    assert fast_files > 0
    missed = sorted(set(sources) - reached(start, graph))
    assert missed == []


def test_the_tier_reader_sees_marks_where_pytest_does():
    tree = ast.parse(
        "import pytest\n"
        "pytestmark = [pytest.mark.filterwarnings('ignore')]\n"
        "@pytest.mark.slow\n"
        "def test_a(): pass\n"
        "@pytest.mark.parametrize('x', [1])\n"
        "def test_b(x): pass\n")
    assert module_marks(tree) == {"filterwarnings"}
    tests = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert [marks(t.decorator_list) for t in tests] == [{"slow"}, {"parametrize"}]
