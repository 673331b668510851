"""The arrows of the house, read from the imports of every module (ast), including
imports inside functions:

    unosim.cli -> commands (unosim/commands/) -> unosim.api -> studies (studies/)
    commands -> the face's helpers (options, output, progress, resuming, ...),
                the input layer and the run layer, the reports, the table (play/)
    studies (studies/) -> reports (reports/: the shared kit)
                       -> statistics (stats/)
                       -> run layer (runs/, compiler/, checks/) -> strategies -> engine
    reports -> statistics;  statistics -> nothing of the project
    environments (env/) -> run layer, strategies, engine; nothing imports them
    the table (play/) -> run layer, strategies, engine; only its command
                         (unosim/commands/play.py) imports it

The sides: nothing imports a command but the CLI, which loads them by name; a
command reaches the studies only through the API (unosim/api.py), and in the face
only the API and the helpers named in FACE_STUDIES reach a study; the studies reach
neither the face, the table nor an environment, and run games only through the run
layer; the reports never run a game (no runner, backend, plug-in batches, game
driver, Dask or Optuna) and never reach the studies or the face; the statistics lie
below the studies and the reports and import nothing of the project but the shared
helpers; the run layer reaches neither the studies, the reports, the statistics nor
the face (its composition root, runs/entries_nb.py, binds the engine and the
strategies); between the run layer and the compiler the arrows run one way: runs/
may use the compiler (its cache, locator, fingerprint and first-use notice), and
the compiler imports nothing of runs/ nor of anything above it (the studies, the
reports, the face, the environments, the table);
the strategies (strategies/) reach neither the run layer, the studies, the reports,
the statistics, the face nor click, pandas or matplotlib; the engine (simulate/)
reaches none of those and no strategy either: it takes its chooser as an argument;
the compiled kernels import only other kernels and their constants; the shared
helpers import nothing of the project but one another; and no two modules import
each other, even through others."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: folder -> the package it is installed as (pyproject's package-dir)
FOLDERS = {"unosim": "unosim", "simulate": "unosim.simulate",
           "runs": "unosim.runs", "compiler": "unosim.compiler", "checks": "unosim.checks",
           "strategies": "unosim.strategies", "studies": "unosim.studies",
           "reports": "unosim.reports", "stats": "unosim.stats", "configs": "unosim.configs",
           "env": "unosim.env", "play": "unosim.play"}
#: modules every side may use, which must import nothing of the project themselves
#: but one another (the package computes its engine fingerprint at import; the engine
#: installs the cache locator keyed by it before its first kernel; the per-round metrics'
#: declarations are read from the engine's layout up to the statistics' margins)
NEUTRAL = {"unosim", "unosim.errors", "unosim.common", "unosim.compiler.fingerprint",
           "unosim.compiler.locator", "unosim.simulate.round_metrics"}
ENGINE_FORBIDDEN = ("click", "pandas", "matplotlib")
#: the one module outside play/ that may import it: the command that opens it
PLAY_COMMAND = "unosim.commands.play"
#: what plays games: a report must reach none of it
#: the face's one door to the studies (the commands call it, and so do notebooks)
API = "unosim.api"
#: the face's helpers besides the API that reach a study: the CLI finds a checkpoint
#: for --resume, resuming keeps it, the progress bar shows the precision stop's width
FACE_STUDIES = {API, "unosim.cli", "unosim.resuming", "unosim.progress"}
#: the one module that imports the commands (by name, when one is called)
CLI = "unosim.cli"
#: the sides above the compiler, which it may not import (nor anything of runs/)
COMPILER_ABOVE = ("studies", "reports", "face", "env", "play")
RUNS_GAMES = {"unosim.runs.runner", "unosim.runs.backend",
              "unosim.runs.plugin_batch", "unosim.runs.game",
              "unosim.runs.tables"}
REPORTS_FORBIDDEN = ("click", "dask", "distributed", "optuna")
#: what a compiled kernel (a module named *_nb) may import of the project: other
#: kernels and the constants and helpers they are compiled with (moves: the move encoding)
KERNEL_DEPS = {"unosim.simulate.layout", "unosim.simulate.cards", "unosim.simulate.jit",
               "unosim.simulate.moves",
               "unosim.simulate", "unosim.strategies", "unosim.strategies.api"}


def project_sources() -> dict[str, str]:
    """module name -> source text, for every module of the project."""
    out = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT / folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([package, *parts])] = path.read_text(encoding="utf-8")
    return out


def imports_of(name: str, source: str, known: set[str]) -> set[str]:
    """Every module ``name`` imports: project modules by their full name (``from
    unosim import options`` is the module unosim.options), others by top name."""
    found: set[str] = set()
    is_pkg = any(k.startswith(name + ".") for k in known)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative import
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                mod = ".".join([*base, node.module] if node.module else base)
            else:
                mod = node.module or ""
            for a in node.names:
                sub = f"{mod}.{a.name}"
                found.add(sub if sub in known else mod)
    return {m if m in known else m.split(".")[0] for m in found}


def side(module: str) -> str:
    if module in NEUTRAL:
        return "neutral"
    if module.startswith("unosim.simulate"):
        return "engine"
    if module.startswith("unosim.strategies"):
        return "strategies"
    for part in ("runs", "compiler", "checks"):
        if module.startswith(f"unosim.{part}"):
            return "run"
    if module.startswith("unosim.studies"):
        return "studies"
    if module.startswith("unosim.reports"):
        return "reports"
    if module.startswith("unosim.stats"):
        return "stats"
    if module.startswith("unosim.configs"):
        return "data"
    if module.startswith("unosim.env"):
        return "env"
    if module.startswith("unosim.play"):
        return "play"
    return "face"


def is_kernel(module: str) -> bool:
    return module.endswith("_nb")


def is_command(module: str) -> bool:
    return module == "unosim.commands" or module.startswith("unosim.commands.")


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import against the arrows, as ``module -> imported (why)``."""
    bad = []
    for mod, deps in sorted(graph.items()):
        for dep in sorted(deps):
            s, d = side(mod), side(dep) if dep in graph else "outside"
            if s == "neutral" and d not in ("outside", "neutral"):
                bad.append(f"{mod} -> {dep} (a shared helper imports the project)")
            elif is_command(dep) and mod != CLI and not is_command(mod):
                bad.append(f"{mod} -> {dep} (nothing imports a command but the CLI)")
            elif is_command(mod) and d == "studies":
                bad.append(f"{mod} -> {dep} (a command reaches a study: through {API})")
            elif s == "face" and d == "studies" and mod not in FACE_STUDIES:
                bad.append(f"{mod} -> {dep} (the face reaches a study: through {API})")
            elif mod.startswith("unosim.compiler") and dep.startswith("unosim.runs"):
                bad.append(f"{mod} -> {dep} (the compiler reaches the run layer)")
            elif mod.startswith("unosim.compiler") and d in COMPILER_ABOVE:
                bad.append(f"{mod} -> {dep} (the compiler reaches {d})")
            elif s == "stats" and (d not in ("outside", "neutral", "stats")
                                   or dep in ENGINE_FORBIDDEN or dep in REPORTS_FORBIDDEN):
                bad.append(f"{mod} -> {dep} (the statistics reach "
                           f"{d if d != 'outside' else dep})")
            elif s == "run" and (d in ("reports", "studies", "face", "stats")
                                 or dep in ENGINE_FORBIDDEN):
                bad.append(f"{mod} -> {dep} (the run layer reaches {d if d != 'outside' else dep})")
            elif s == "engine" and d == "strategies":
                bad.append(f"{mod} -> {dep} (the engine reaches a strategy)")
            elif s in ("engine", "strategies") and (d in ("run", "reports", "studies", "face",
                                                          "stats")
                                                    or dep in ENGINE_FORBIDDEN):
                bad.append(f"{mod} -> {dep} (the {s} reach{'es' if s == 'engine' else ''} "
                           f"{d if d != 'outside' else dep})")
            elif (s in ("engine", "strategies") and is_kernel(mod) and d != "outside"
                  and not is_kernel(dep) and dep not in KERNEL_DEPS):
                bad.append(f"{mod} -> {dep} (a compiled kernel reaches the Python side)")
            elif d == "env" and s != "env":
                bad.append(f"{mod} -> {dep} (nothing may import an environment)")
            elif s == "env" and (d in ("studies", "reports", "face") or dep == "click"):
                bad.append(f"{mod} -> {dep} (an environment reaches "
                           f"{d if d != 'outside' else dep})")
            elif d == "play" and s != "play" and mod != PLAY_COMMAND:
                bad.append(f"{mod} -> {dep} (only its command may import the table)")
            elif s == "play" and (d in ("studies", "reports", "face", "env")
                                  or dep == "click"):
                bad.append(f"{mod} -> {dep} (the table reaches "
                           f"{d if d != 'outside' else dep})")
            elif s == "studies" and (d == "face" or dep == "click"):
                bad.append(f"{mod} -> {dep} (a study reaches the face)")
            elif s == "reports" and (d in ("face", "studies") or dep in REPORTS_FORBIDDEN
                                     or dep in RUNS_GAMES):
                bad.append(f"{mod} -> {dep} (the reports reach "
                           f"{d if d in ('face', 'studies') else dep})")
    return bad


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module, or a module importing
    itself (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def build_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    known = set(sources)
    return {m: imports_of(m, src, known) - {m} for m, src in sources.items()}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return build_graph(project_sources())


def test_every_import_follows_the_arrows(graph):
    assert violations(graph) == []


def test_no_import_circle(graph):
    assert cycles(graph) == []


def test_the_graph_sees_the_project(graph):
    # the checks above are only as good as the graph: it must hold every side
    assert {"unosim.cli", "unosim.commands.run", "unosim.runs.runner",
            "unosim.runs.backend", "unosim.strategies.registry", "unosim.studies.compare.play",
            "unosim.studies.tune", "unosim.studies.compare.result", "unosim.env.aec",
            "unosim.play.table", "unosim.play.app"} <= set(graph)
    assert {"unosim.runs.game", "unosim.strategies.python"} <= graph["unosim.play.table"]
    assert "unosim.play.app" in graph["unosim.commands.play"]
    assert {"unosim.runs.game", "unosim.strategies.plugins"} <= graph["unosim.env.aec"]
    assert "unosim.runs.backend" in graph["unosim.studies.compare.play"]
    assert "unosim.options" in graph["unosim.commands.run"]
    assert "click" in graph["unosim.cli"]
    # the commands' door, the statistics, and the seam of the run layer and the compiler
    assert "unosim.api" in graph["unosim.commands.sweep"]
    assert {"unosim.studies.grids.play", "unosim.studies.settle.play",
            "unosim.runs.inputs"} <= graph["unosim.api"]
    assert "unosim.stats.verdicts" in graph["unosim.studies.settle.looks"]
    assert "unosim.runs.compile_notice" in graph["unosim.runs.game"]
    assert {"unosim.compiler.compiling", "unosim.runs.tiers"} <= graph[
        "unosim.runs.compile_notice"]
    assert "unosim.runs.runner" in graph["unosim.runs.prebuild"]
    # the composition root binds the engine and the strategies
    assert {"unosim.simulate.round_nb", "unosim.simulate.match_nb",
            "unosim.strategies.builtin_nb"} <= graph["unosim.runs.entries_nb"]


def test_the_checks_catch_each_kind_of_wrong_arrow():
    sources = {
        "unosim": "",
        "unosim.errors": "",
        "unosim.common": "from unosim.stats import intervals\n",
        "unosim.cli": "import click\nfrom unosim.commands import run\n",
        "unosim.commands": "",
        "unosim.commands.run": "def f():\n    from unosim import cli\n",
        "unosim.simulate": "",
        "unosim.runs.runner": "def f():\n    import pandas\n    from unosim.stats.intervals "
                                  "import wilson\n",
        "unosim.strategies": "",
        "unosim.strategies.registry": "from unosim.cli import main\n",
        "unosim.reports": "",
        "unosim.stats.intervals": "import click\n",
        "unosim.stats.numbers": "from . import intervals\nfrom .intervals import wilson\n",
        "unosim.stats.verdicts": "from unosim.reports import summary\n",
        "unosim.reports.summary": "from unosim.stats import intervals\n",
        "unosim.reports.sweep": "from unosim.runs.runner import run\nimport optuna\n",
        "unosim.reports.atlas": "from unosim.studies import compare\n",
        "unosim.studies": "",
        "unosim.studies.compare": "from unosim.commands import run\n",
        "unosim.simulate.step_nb": "from unosim.simulate.rules import lower\n",
        "unosim.simulate.rules": "",
        "unosim.simulate.round_nb": "from unosim.strategies.builtin_nb import _choose\n",
        "unosim.simulate.match_nb": "def f():\n    from unosim.strategies import search_nb\n",
        "unosim.strategies.builtin_nb": "from unosim.simulate import step_nb\n",
        "unosim.strategies.search_nb": "from unosim.simulate.step_nb import apply_called\n",
        "unosim.runs.entries_nb": "from unosim.simulate.round_nb import rows_loop\n"
                                  "from unosim.strategies.builtin_nb import _choose\n",
        "unosim.env": "",
        "unosim.env.aec": "from unosim.runs.game import Game\nfrom unosim.cli import main\n",
        "unosim.runs.game": "def f():\n    from unosim.env import aec\n",
        "unosim.play": "",
        "unosim.play.table": "from unosim.runs.game import Game\nimport click\n",
        "unosim.play.app": "from unosim.play.table import Table\nfrom unosim import options\n",
        "unosim.options": "",
        "unosim.commands.play": "from unosim.play.app import PlayApp\n",
        "unosim.commands.replay": "from unosim.play.table import Table\n",
        # the commands reach the studies only through the API; nothing imports them
        "unosim.api": "from unosim.studies.grids import play\n"
                      "def f():\n    from unosim.commands import sweep\n",
        "unosim.commands.sweep": "from unosim.api import play_sweep\n"
                                 "def f():\n    from unosim.studies.grids.play import plan\n",
        "unosim.output": "def f():\n    from unosim.studies.grids import files\n",
        "unosim.resuming": "from unosim.studies import checkpoints\n",
        "unosim.studies.checkpoints": "",
        "unosim.studies.grids": "",
        "unosim.studies.grids.files": "",
        "unosim.studies.grids.play": "from unosim.env import vector\n"
                                     "from unosim.play.table import Table\n"
                                     "def f():\n    from unosim import progress\n"
                                     "from unosim.stats import verdicts\n",
        "unosim.progress": "",
        "unosim.env.vector": "",
        # the run layer and the compiler: one way, from runs/ to the compiler
        "unosim.runs.tiers": "",
        "unosim.runs.batches": "from unosim.compiler.compiling import first_use\n"
                               "def f():\n    from unosim.compiler.cache import all_cached\n",
        "unosim.compiler.compiling": "from unosim.runs.tiers import GAME\n"
                                     "def f():\n    from unosim.runs.runner import warm\n",
        "unosim.compiler.cache": "def f():\n    from unosim.studies import compare\n"
                                 "from unosim import options\n",
        "unosim.compiler.inlining": "from unosim.compiler import cache\n",
        # the engine reaches no statistics
        "unosim.simulate.feel": "from unosim.stats.intervals import wilson\n",
    }
    g = build_graph(sources)
    assert g["unosim.stats.numbers"] == {"unosim.stats.intervals"}
    bad = violations(g)
    assert "unosim.common -> unosim.stats.intervals (a shared helper imports the project)" in bad
    assert any(b.startswith("unosim.runs.runner -> pandas") for b in bad)
    assert any(b.startswith("unosim.runs.runner -> unosim.stats.intervals") for b in bad)
    assert any(b.startswith("unosim.strategies.registry -> unosim.cli") for b in bad)
    assert any(b.startswith("unosim.stats.intervals -> click") for b in bad)
    # the statistics lie below the studies and the reports
    assert ("unosim.stats.verdicts -> unosim.reports.summary (the statistics reach "
            "reports)") in bad
    assert not any(b.startswith(("unosim.reports.summary", "unosim.stats.numbers"))
                   for b in bad)
    assert any(b.startswith("unosim.reports.sweep -> unosim.runs.runner") for b in bad)
    assert any(b.startswith("unosim.reports.sweep -> optuna") for b in bad)
    assert any(b.startswith("unosim.reports.atlas -> unosim.studies.compare") for b in bad)
    assert any(b.startswith("unosim.studies.compare -> unosim.commands.run") for b in bad)
    assert any(b.startswith("unosim.simulate.step_nb -> unosim.simulate.rules") for b in bad)
    # the engine imports no strategy (not even inside a function); the strategies may
    # import the engine, and the composition root both
    assert ("unosim.simulate.round_nb -> unosim.strategies.builtin_nb (the engine reaches a "
            "strategy)") in bad
    assert ("unosim.simulate.match_nb -> unosim.strategies.search_nb (the engine reaches a "
            "strategy)") in bad
    assert not any(b.startswith(("unosim.strategies.builtin_nb", "unosim.strategies.search_nb",
                                 "unosim.runs.entries_nb")) for b in bad)
    # an environment drives games through the run layer; nothing reaches back into it
    assert "unosim.env.aec -> unosim.cli (an environment reaches face)" in bad
    assert "unosim.runs.game -> unosim.env.aec (nothing may import an environment)" in bad
    assert not any(b.startswith("unosim.env.aec -> unosim.runs") for b in bad)
    # the table drives games through the run layer; only its command opens it
    assert "unosim.play.table -> click (the table reaches click)" in bad
    assert "unosim.play.app -> unosim.options (the table reaches face)" in bad
    assert ("unosim.commands.replay -> unosim.play.table (only its command may import the "
            "table)") in bad
    assert not any(b.startswith(("unosim.commands.play", "unosim.play.table -> unosim.runs",
                                 "unosim.play.app -> unosim.play")) for b in bad)
    # the commands reach the studies only through the API, and nothing but the CLI
    # imports a command
    assert ("unosim.commands.sweep -> unosim.studies.grids.play (a command reaches a study: "
            "through unosim.api)") in bad
    assert ("unosim.api -> unosim.commands.sweep (nothing imports a command but the CLI)"
            ) in bad
    assert ("unosim.studies.compare -> unosim.commands.run (nothing imports a command but "
            "the CLI)") in bad
    assert ("unosim.output -> unosim.studies.grids.files (the face reaches a study: through "
            "unosim.api)") in bad
    assert not any(b.startswith(("unosim.cli ", "unosim.commands.sweep -> unosim.api",
                                 "unosim.api -> unosim.studies",
                                 "unosim.resuming -> unosim.studies")) for b in bad)
    # a study reaches neither an environment, the table nor the face; the statistics
    # lie below it
    assert ("unosim.studies.grids.play -> unosim.env.vector (nothing may import an "
            "environment)") in bad
    assert ("unosim.studies.grids.play -> unosim.play.table (only its command may import "
            "the table)") in bad
    assert "unosim.studies.grids.play -> unosim.progress (a study reaches the face)" in bad
    assert not any(b.startswith("unosim.studies.grids.play -> unosim.stats") for b in bad)
    assert ("unosim.simulate.feel -> unosim.stats.intervals (the engine reaches stats)"
            in bad)
    # the run layer may use the compiler; the compiler imports nothing of runs/ (not
    # even its tiers, not even inside a function) nor of anything above it
    assert ("unosim.compiler.compiling -> unosim.runs.tiers (the compiler reaches the run "
            "layer)") in bad
    assert ("unosim.compiler.compiling -> unosim.runs.runner (the compiler reaches the run "
            "layer)") in bad
    assert ("unosim.compiler.cache -> unosim.studies.compare (the compiler reaches studies)"
            ) in bad
    assert "unosim.compiler.cache -> unosim.options (the compiler reaches face)" in bad
    assert not any(b.startswith(("unosim.runs.batches", "unosim.compiler.inlining"))
                   for b in bad)
    assert sorted(cycles(g)) == [["unosim.api", "unosim.commands.sweep"],
                                 ["unosim.cli", "unosim.commands.run"],
                                 ["unosim.env.aec", "unosim.runs.game"]]
