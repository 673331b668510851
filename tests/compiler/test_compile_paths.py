"""What compiles when: a plain run reaches neither the search, nor the parametric
strategies, nor matches; a first use tells the user, terminal or not; ``unosim
compile`` builds the paths ahead of time.

Reachability is read from the kernels' Python code (every global name a kernel's
code refers to, followed through the kernels it names), which is what Numba
compiles from an entry point; timing the compile itself belongs to ``unosim bench``.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from unosim.cli import cli
from unosim.compiler import compiling
from unosim.runs import compile_notice
from unosim.runs import entries_nb as E
from unosim.runs.prime import code_names
from unosim.simulate import match_nb as M
from unosim.strategies import builtin_nb as B
from unosim.strategies import search_nb as S


def reachable(entry: object) -> set[str]:
    """The kernels (``module.name``) an entry point's code can reach."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        fn = todo.pop()
        py = getattr(fn, "py_func", None)
        if py is None:
            continue
        key = f"{py.__module__}.{py.__qualname__}"
        if key in seen:
            continue
        seen.add(key)
        for name in code_names(py.__code__):
            target = py.__globals__.get(name)
            if hasattr(target, "py_func"):
                todo.append(target)
    return seen


SEARCH = f"{S.__name__}.search_move"
PARAM = f"{B.__name__}.choose_param"
MATCH = f"{M.__name__}.match_loop"


def test_a_plain_run_reaches_neither_search_nor_parameters_nor_matches():
    plain = reachable(E.play_rows)
    assert f"{E.__name__}.play_round" in plain
    assert SEARCH not in plain and PARAM not in plain
    assert not any(k.startswith(M.__name__) for k in plain)


def test_each_tier_reaches_what_it_plays():
    """The walk finds the search and the parametric strategies where they are used,
    so the test above can fail."""
    assert PARAM in reachable(E.play_rows_param) and SEARCH not in reachable(E.play_rows_param)
    assert SEARCH in reachable(E.play_rows_search) and PARAM in reachable(E.play_rows_search)
    match = reachable(E.play_match_rows)
    assert MATCH in match and SEARCH not in match and PARAM not in match
    assert SEARCH in reachable(E.play_match_rows_search)


def test_first_use_tells_before_and_after_once(nothing_cached):
    heard = []
    with compiling.listening(lambda path, event, s: heard.append((path, event))):
        with compile_notice.first_use("matches"):
            pass
        with compile_notice.first_use("matches"):
            pass
    assert heard == [("matches", "start"), ("matches", "done")]
    assert compile_notice.is_compiled("matches") and not compile_notice.is_compiled("rounds")


def test_a_path_is_compiled_when_numba_caches_its_entry_points(nothing_cached):
    assert not compile_notice.is_compiled("rounds")
    nothing_cached.add("rounds")
    assert compile_notice.is_compiled("rounds") and not compile_notice.is_compiled("rounds/param")


@pytest.mark.slow
def test_the_notice_reaches_stderr_without_a_terminal(nothing_cached):
    res = CliRunner().invoke(cli, ["run", "--games", "200", "--seed", "1", "--no-progress",
                                   "--workers", "1"])
    assert res.exit_code == 0, res.output
    first = res.stderr.splitlines()[0]
    # a first run of the default table compiles the quick kernel (runs/quick.py)
    assert first.startswith("unosim: compiling the engine for this machine (rounds/quick)")
    assert "first run only" in first and "compiling" not in res.stdout
    again = CliRunner().invoke(cli, ["run", "--games", "200", "--seed", "1", "--no-progress"])
    assert "compiling" not in again.stderr


def test_matches_and_parameters_are_their_own_paths(nothing_cached):
    res = CliRunner().invoke(cli, ["run", "--mode", "match", "--games", "3", "--seed", "1",
                                   "--no-progress", "--seat", "1=tuned"])
    assert res.exit_code == 0, res.output
    assert "(matches/param)" in res.stderr and "(rounds" not in res.stderr


def test_compile_builds_what_is_missing_and_skips_the_rest(nothing_cached):
    nothing_cached.add("rounds")
    res = CliRunner().invoke(cli, ["compile", "rounds", "matches"])
    assert res.exit_code == 0, res.output
    assert "[1/2] rounds          already compiled" in res.output
    assert "[2/2] matches         compiling" in res.output
    assert "1 of 2 paths compiled" in res.output
    assert compile_notice.is_compiled("matches")


def test_a_plug_in_table_that_cannot_be_cached_announces_its_compile_in_every_process(
        nothing_cached):
    """A loop specialised in this process (plug-ins registered from Python, which
    the cache cannot know by their files) is not cached, so a process that plays
    them says so even when the steps it calls are cached."""
    from numba import njit, typeof

    from unosim.runs import plugin_batch
    from unosim.runs.tiers import PLUGINS, entry_points

    nothing_cached.add(PLUGINS.name)
    choose = njit(lambda G, rng: 0)
    loop = type("Loop", (), {"signatures": []})()
    entries = plugin_batch._entries(loop, choose, None, "rows")
    assert entries()[:-1] == entry_points(PLUGINS.name) and entries()[-1] is loop
    assert not compile_notice.is_compiled(PLUGINS.name, entries)
    loop.signatures.append((typeof(choose),))  # specialised in this process
    assert entries() == entry_points(PLUGINS.name)
    assert compile_notice.is_compiled(PLUGINS.name, entries)


def test_a_plug_in_table_with_cached_loops_is_compiled_when_its_loop_is(nothing_cached):
    """Plug-ins from files play on loops cached across processes
    (runs/plugin_loops.py): the path counts as compiled exactly when Numba's cache
    holds the table's own loop for its mode, beside the steps."""
    from numba import njit

    from unosim.runs import plugin_batch
    from unosim.runs.tiers import PLUGINS, entry_points

    nothing_cached.add(PLUGINS.name)
    rows, match_rows = object(), object()
    loops = type("Loops", (), {"play_rows": rows, "play_match_rows": match_rows})()
    choose = njit(lambda G, rng: 0)
    for mode, loop in (("rows", rows), ("match_rows", match_rows)):
        entries = plugin_batch._entries(None, choose, loops, mode)
        assert entries() == [*entry_points(PLUGINS.name), loop]
        assert not compile_notice.is_compiled(PLUGINS.name, entries)
        nothing_cached.kernels.add(loop)
        assert compile_notice.is_compiled(PLUGINS.name, entries)


@pytest.mark.subprocess
def test_the_helper_process_runs():
    """The process a first run starts beside itself to compile the rule steps
    (runs/prime.py) compiles with explicit types; a wrong one would fail here.
    That the command then finds its work in the cache is what ``unosim bench``'s cold
    compile shows."""
    import subprocess
    import sys

    for path in ("rounds", "rounds/search"):
        res = subprocess.run([sys.executable, "-m", "unosim.runs.prime", path],
                             capture_output=True, text=True, timeout=600)
        assert res.returncode == 0, res.stderr


def test_the_shares_are_kernels_the_plain_round_path_calls():
    """What the helper and the command compile beside each other for the plain round
    path (the shares "steps", "deal" and "strategies") is in what ``play_rows`` reaches (a kernel
    renamed or dropped would otherwise be compiled for nothing on every first run),
    and compiles with the types given."""
    from unosim.runs import prime
    from unosim.simulate import step_nb as N

    plain = reachable(E.play_rows)
    for module, share in ((N, "steps"), (N, "deal"), (B, "strategies")):
        assert prime.kernels(share), share
        for k in prime.kernels(share):
            name = k.py_func.__name__
            assert k.py_func.__module__ == module.__name__
            assert f"{module.__name__}.{name}" in plain, name
    prime.BESIDE["rounds"]()  # explicit types: a wrong one fails here


def test_the_shares_are_kernels_the_search_path_calls():
    """The search path's shares ("search" for the helper, "search-beside" for the
    command) are kernels ``play_rows_search`` reaches and the plain path does
    not, and compile with the types given."""
    from unosim.runs import prime
    from unosim.strategies import search_nb as S

    search, plain = reachable(E.play_rows_search), reachable(E.play_rows)
    assert prime.kernels("search") and prime.kernels("search-beside")
    for k in prime.kernels("search") + prime.kernels("search-beside"):
        name = k.py_func.__name__
        assert k.py_func.__module__ == S.__name__
        assert f"{S.__name__}.{name}" in search, name
        assert f"{S.__name__}.{name}" not in plain, name
    prime.BESIDE["rounds/search"]()  # explicit types: a wrong one fails here


def test_every_share_a_path_names_is_declared_by_kernels():
    """The shares of runs/tiers.py and the kernels that declare them
    (``@kernel(share=...)``) agree: none named without kernels, none declared for
    nothing; the shares compile largest first."""
    from unosim.runs import prime, tiers

    named = {s for p in tiers.HELPED_PATHS.values()
             for s in (*p.helper, *p.helper_then, *(p.beside or ()))}
    declared = {obj.share.name for m in prime.kernel_modules()
                for obj in vars(m).values() if getattr(obj, "share", None) is not None}
    assert named == declared
    for share in named:
        sizes = [prime.size(k) for k in prime.kernels(share)]
        assert sizes and sizes == sorted(sizes, reverse=True), share


def test_json_says_whether_the_run_compiled(nothing_cached, capsys):
    from cli_helpers import invoke

    argv = ["run", "--games", "200", "--seed", "1", "--no-progress", "--format", "json"]
    code, out, err = invoke(capsys, argv)
    assert code == 0 and json.loads(out)["compiled"] is True, err
    code, out, err = invoke(capsys, argv)
    assert code == 0 and json.loads(out)["compiled"] is False, err
    code, out, err = invoke(capsys, argv[:-2])
    assert "engine loaded from the cache, nothing compiled, before that" in out
