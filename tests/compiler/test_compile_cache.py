"""compiler/cache.py reads Numba's own index: a kernel is cached only for the source
stamp, bytecode and CPU it was compiled from. Outside the package Numba's locator also
keys on the file's path (a file elsewhere is not cached); the engine's own locator does
not (tests/compiler/test_engine_cache.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from unosim.compiler.cache import all_cached, is_cached

KERNEL = "from numba import njit\n\n@njit(cache=True)\ndef f(x):\n    return x + {k}\n"

PROBE = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    import kmod
    from unosim.compiler.cache import is_cached
    before = is_cached(kmod.f)
    if sys.argv[2] == "call":
        kmod.f(1)
    print(before, is_cached(kmod.f))
""")


def probe(folder, cache, call=True) -> str:
    env = {"NUMBA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", PROBE, str(folder), "call" if call else "no"],
                         capture_output=True, text=True, env=env, check=True)
    return out.stdout.strip()


@pytest.mark.subprocess
def test_cached_after_the_first_call_and_in_the_next_process(tmp_path):
    src = tmp_path / "a"
    src.mkdir()
    (src / "kmod.py").write_text(KERNEL.format(k=1))
    assert probe(src, tmp_path / "cache") == "False True"
    assert probe(src, tmp_path / "cache", call=False) == "True True"


@pytest.mark.subprocess
def test_same_source_elsewhere_or_changed_is_not_cached(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        d.mkdir()
        (d / "kmod.py").write_text(KERNEL.format(k=1))
    cache = tmp_path / "cache"
    assert probe(a, cache) == "False True"
    # the same file at another path (another install of the same engine) compiles again
    assert probe(b, cache, call=False) == "False False"
    # a changed source at the first path compiles again
    (a / "kmod.py").write_text(KERNEL.format(k=2))
    assert probe(a, cache, call=False) == "False False"


def test_a_function_without_a_cache_is_never_cached():
    assert not is_cached(len)
    assert not all_cached([len])
    assert all_cached([])


@pytest.mark.parametrize("name", ["play_rows"])
def test_the_engine_entry_points_are_cached_once_compiled(name):
    # the session compiled every path first (conftest), so the entry point is cached
    from unosim.runs import entries_nb

    assert is_cached(getattr(entries_nb, name))


def test_game_announces_its_compile_once(nothing_cached, monkeypatch):
    from unosim.compiler import compiling
    from unosim.runs import game

    monkeypatch.setattr(game, "_warmed", [])
    # the session compiled these paths: forget that, as a fresh process would
    monkeypatch.setattr(compiling, "_done", set())
    heard = []
    with compiling.listening(lambda path, event, s: heard.append((path, event))):
        g = game.Game(seed=3)
        game.Game(seed=4)
        g.step()
    assert heard == [("game", "start"), ("game", "done"),
                     ("game/strategies", "start"), ("game/strategies", "done")]


def test_game_compiles_every_kernel_it_calls_inside_its_notice():
    """The kernels a Game calls are all in its path's list, so none compiles after
    the notice said 'compiled' (a kernel missing here would compile silently)."""
    import ast
    import inspect

    from unosim.runs import game

    listed = {f.__name__ for f in game._step_kernels()}
    tree = ast.parse(inspect.getsource(game))
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call)
              and isinstance(n.func, ast.Name) and hasattr(getattr(game, n.func.id, None),
                                                           "py_func")}
    assert called and called <= listed, called - listed
