"""The engine's kernels are cached by fingerprint and module name, not by where the
package is installed: the same sources at another path with other time stamps (as
after ``pip install .`` then ``pip install -e .``, a moved checkout or a new virtual
environment) load what the first copy compiled, compile nothing and say nothing
about compiling; a changed source compiles again. Other libraries' kernels keep
Numba's own locators."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_fingerprint import copy_installed

import unosim
import unosim.simulate.jit  # noqa: F401 - installs the engine's locator, as any kernel module does
from unosim.compiler import fingerprint as F
from unosim.compiler.locator import EngineCacheLocator

#: a small kernel of the engine, compiled through the compile notice's machinery
PROBE = textwrap.dedent("""
    import os, sys
    import unosim
    assert unosim.__file__.startswith(sys.argv[1]), unosim.__file__
    from unosim.runs import compile_notice
    from unosim.simulate import rng_nb
    k = rng_nb.splitmix64
    before = compile_notice.is_compiled("probe", lambda: [k])
    with compile_notice.first_use("probe", lambda: [k]):
        k(1)
    print(unosim.ENGINE, before, sum(k.stats.cache_hits.values()),
          sum(k.stats.cache_misses.values()), k.stats.cache_path)
""")


def run_probe(root: Path, cache: Path, xdg: Path) -> tuple[list[str], str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(PYTHONPATH=str(root.parent), NUMBA_CACHE_DIR=str(cache),
               XDG_CACHE_HOME=str(xdg))
    res = subprocess.run([sys.executable, "-c", PROBE, str(root)], capture_output=True,
                         text=True, env=env, cwd=root.parent, timeout=600)
    assert res.returncode == 0, res.stderr
    return res.stdout.split(), res.stderr


def folders(cache: Path) -> set[str]:
    return {p.name for p in cache.iterdir()}


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    a = copy_installed(tmp_path_factory.mktemp("site-packages"))
    b = copy_installed(tmp_path_factory.mktemp("checkout"))
    for f in b.rglob("*.py"):  # other time stamps too, as a reinstall gives
        os.utime(f, ns=(2_000_000_000 * 10**9, 2_000_000_000 * 10**9))
    return a, b


@pytest.mark.subprocess
def test_a_second_install_of_the_same_engine_loads_from_the_cache(copies, tmp_path):
    a, b = copies
    cache, xdg = tmp_path / "numba", tmp_path / "xdg"
    first, err = run_probe(a, cache, xdg)
    engine, before, hits, misses, where = first
    assert (before, hits, misses) == ("False", "0", "1")
    assert "unosim: compiling" in err
    assert Path(where) == cache / "unosim.simulate.rng_nb"  # by module, not by path
    made = folders(cache)
    assert made and all(name.startswith("unosim.") for name in made)

    second, err = run_probe(b, cache, xdg)
    assert second[0] == engine
    assert second[1:4] == ["True", "1", "0"]  # cached before the call, loaded, not compiled
    assert "compiling" not in err
    assert folders(cache) == made  # no second set of folders


@pytest.mark.subprocess
def test_a_changed_engine_compiles_again(copies, tmp_path):
    """The stamp is the fingerprint: a change to a module the kernel freezes (not its
    own file) makes the same cache folder miss."""
    a, _ = copies
    cache, xdg = tmp_path / "numba", tmp_path / "xdg"
    engine = run_probe(a, cache, xdg)[0][0]
    layout = a / "simulate" / "layout.py"
    old = layout.read_bytes()
    layout.write_bytes(old + b"# changed\n")
    try:
        out, err = run_probe(a, cache, xdg)
    finally:
        layout.write_bytes(old)
    assert out[0] != engine
    assert out[1:4] == ["False", "0", "1"] and "unosim: compiling" in err


def test_every_cached_kernel_of_the_package_uses_the_engine_locator():
    """Each loaded module of the package that holds ``cache=True`` kernels is one the
    fingerprint scan found, and its kernels are filed by the project's locator."""
    found = F.scan(Path(unosim.__file__).resolve().parent, "unosim", unosim._locate)
    for name in sorted(found["kernels"]):
        importlib.import_module(name)
    seen = 0
    for name, module in list(sys.modules.items()):
        if not (name == "unosim" or name.startswith("unosim.")):
            continue
        for obj in list(vars(module).values()):
            impl = getattr(getattr(obj, "_cache", None), "_impl", None)
            py = getattr(obj, "py_func", None)
            if impl is None or py is None or py.__module__ != name:
                continue
            seen += 1
            assert name in found["kernels"], name
            assert isinstance(impl.locator, EngineCacheLocator), (name, py.__name__)
    assert seen > 50


def test_other_libraries_keep_numbas_locator(tmp_path):
    (tmp_path / "locator_probe_mod.py").write_text("from numba import njit\n\n@njit(cache=True)\n"
                                      "def f(x):\n    return x + 1\n")
    sys.path.insert(0, str(tmp_path))
    try:
        locator_probe_mod = importlib.import_module("locator_probe_mod")
        assert not isinstance(locator_probe_mod.f._cache._impl.locator, EngineCacheLocator)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("locator_probe_mod", None)
