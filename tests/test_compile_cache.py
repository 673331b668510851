"""compiler/cache.py reads Numba's own index: a kernel is cached only for the source
file, bytecode and CPU it was compiled from (the same engine at another path, as after
``pip install .`` then ``pip install -e .``, is not)."""

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


def test_cached_after_the_first_call_and_in_the_next_process(tmp_path):
    src = tmp_path / "a"
    src.mkdir()
    (src / "kmod.py").write_text(KERNEL.format(k=1))
    assert probe(src, tmp_path / "cache") == "False True"
    assert probe(src, tmp_path / "cache", call=False) == "True True"


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
    from unosim.simulate import round_nb

    assert is_cached(getattr(round_nb, name))
