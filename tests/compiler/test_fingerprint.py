"""The engine fingerprint (``unosim.ENGINE``) covers every module compiled into a
cached kernel and every module whose constants those freeze, found by reading the
sources: a one-byte change to any of them changes it, a change elsewhere does not,
and the same sources give the same fingerprint wherever they are installed.

Each test works on a copy of the package laid out as ``pip install .`` lays it out
(every subpackage inside ``unosim/``), so the checkout is never touched."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import unosim
from unosim.compiler import fingerprint as F

#: modules the old hand-made list (the ``*_nb`` files of simulate/ and strategies/
#: and three more) left out, though compiled or frozen into cached kernels
MISSED_BEFORE = {"unosim.runs.entries_nb", "unosim.env.vector_nb", "unosim.env.prefetch_nb",
                 "unosim.env.actions", "unosim.env.observation", "unosim.simulate.moves",
                 "unosim.strategies.api"}
#: modules with ``cache=True`` kernels (directly or through simulate/jit.py's decorators)
KERNEL_MODULES = {"unosim.runs.entries_nb", "unosim.env.vector_nb",
                  "unosim.simulate.step_nb", "unosim.simulate.feel_nb",
                  "unosim.strategies.search_nb", "unosim.simulate.moves"}
#: a reports module, a command, the command line and a study: compiled into nothing
NOT_COMPILED = ["unosim.reports.export", "unosim.commands.run", "unosim.cli",
                "unosim.studies.compare.play"]
LONG_AGO = 1_000_000_000  # a time stamp in 2001: far from "recently written"


def aged(root: Path) -> None:
    """Give every module under ``root`` an old time stamp (see LONG_AGO)."""
    for f in root.rglob("*.py"):
        os.utime(f, ns=(LONG_AGO * 10**9, LONG_AGO * 10**9))


def copy_installed(dest: Path) -> Path:
    """The package's sources at ``dest/unosim``, as a regular install lays them out."""
    found = F.scan(Path(unosim.__file__).resolve().parent, "unosim", unosim._locate)
    root = dest / "unosim"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(found["folders"]["unosim"], root, ignore=ignore)
    for name, folder in found["folders"].items():
        if name != "unosim":
            shutil.copytree(folder, root / name.split(".", 1)[1], ignore=ignore)
    aged(root)
    return root


def file_of(root: Path, module: str) -> Path:
    rel = Path(*module.split(".")[1:])
    return root / rel / "__init__.py" if (root / rel).is_dir() else root / f"{rel}.py"


def one_byte_changed(path: Path) -> bytes:
    """Change the file's last byte (its closing newline becomes a space: the module
    still parses) and return what it held."""
    old = path.read_bytes()
    assert old.endswith(b"\n")
    path.write_bytes(old[:-1] + b" ")
    return old


def restore(path: Path, old: bytes) -> None:
    """Put the file back as it was, time stamp included."""
    path.write_bytes(old)
    os.utime(path, ns=(LONG_AGO * 10**9, LONG_AGO * 10**9))


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = copy_installed(tmp_path_factory.mktemp("installed"))
    return root, F.scan(root), tmp_path_factory.mktemp("store")


@pytest.mark.slow
def test_the_same_sources_installed_elsewhere_give_the_same_fingerprint(tree):
    root, _, _ = tree
    assert F.fingerprint_of(root) == unosim.ENGINE


def test_the_scan_finds_the_kernel_modules_and_what_they_freeze(tree):
    _, found, _ = tree
    assert KERNEL_MODULES <= found["kernels"]
    assert MISSED_BEFORE | {"unosim.simulate.layout", "unosim.simulate.cards",
                            "unosim.simulate.jit"} <= found["closure"]
    assert found["kernels"] <= found["closure"]
    assert not set(NOT_COMPILED) & found["closure"]


@pytest.mark.slow
def test_one_byte_in_any_compiled_or_frozen_module_changes_the_fingerprint(tree):
    root, found, store = tree
    base = F.fingerprint(root, "unosim", None, store)
    assert base == F.fingerprint_of(root)
    for module in sorted(found["closure"]):
        path = file_of(root, module)
        old = one_byte_changed(path)
        try:
            assert F.fingerprint(root, "unosim", None, store) != base, module
        finally:
            restore(path, old)
    assert F.fingerprint(root, "unosim", None, store) == base


@pytest.mark.parametrize("module", NOT_COMPILED)
def test_a_change_to_a_module_compiled_into_nothing_keeps_it(tree, module):
    root, _, store = tree
    base = F.fingerprint_of(root)
    path = file_of(root, module)
    old = one_byte_changed(path)
    try:
        assert F.fingerprint(root, "unosim", None, store) == base
    finally:
        restore(path, old)


@pytest.mark.slow
def test_a_new_kernel_module_joins_the_fingerprint(tree):
    """A module that starts to use the project's decorator is found without any list,
    and so are the constants it imports."""
    root, _, store = tree
    base = F.fingerprint_of(root)
    extra = root / "runs" / "extra_kernels.py"
    consts = root / "runs" / "extra_consts.py"
    consts.write_text("LIMIT = 3\n")
    extra.write_text("from unosim.runs.extra_consts import LIMIT\n"
                     "from unosim.simulate.jit import kernel\n\n\n"
                     "@kernel\ndef cap(x):\n    return min(x, LIMIT)\n")
    try:
        found = F.scan(root)
        assert "unosim.runs.extra_kernels" in found["kernels"]
        assert "unosim.runs.extra_consts" in found["closure"]
        with_extra = F.fingerprint(root, "unosim", None, store)
        assert with_extra != base
        consts.write_text("LIMIT = 4\n")
        assert F.fingerprint(root, "unosim", None, store) != with_extra
    finally:
        extra.unlink()
        consts.unlink()


def test_the_quick_check_trusts_only_old_time_stamps(tree, tmp_path):
    """The stored scan is reused while no file changed (a touched file scans again
    and gives the same fingerprint); a file written just now is never trusted, since
    a rewrite of the same size within the clock's tick keeps its time stamp."""
    root, found, _ = tree
    store = tmp_path / "store"
    base = F.fingerprint(root, "unosim", None, store)
    manifests = list(store.glob("engine-scan-*.txt"))
    assert len(manifests) == 1
    assert F.fingerprint(root, "unosim", None, store) == base  # from the stored scan
    layout = file_of(root, "unosim.simulate.layout")
    os.utime(layout)  # touched now: scanned again, same content, same fingerprint
    assert F.fingerprint(root, "unosim", None, store) == base
    assert not manifests[0].exists()  # a file written in the last seconds: not stored
    old = one_byte_changed(layout)
    try:
        assert F.fingerprint(root, "unosim", None, store) != base
    finally:
        restore(layout, old)
    assert F.fingerprint(root, "unosim", None, store) == base
    assert manifests[0].exists()


def test_the_stored_scan_is_not_reused_for_another_checkouts_subpackages(tree, tmp_path):
    """The same ``unosim/`` folder paired with another checkout's subpackages (a
    second editable install, a PYTHONPATH) is scanned again: the stored scan's files
    are not the ones imported, and its fingerprint would name stale kernels."""
    root, _, _ = tree
    top = tmp_path / "unosim"
    shutil.copytree(root, top, ignore=lambda d, names: [n for n in names if
                                                         (Path(d) / n).is_dir()])
    subs = sorted(p.name for p in root.iterdir() if (p / "__init__.py").is_file())
    one, two = tmp_path / "one", tmp_path / "two"
    for checkout in (one, two):
        for name in subs:
            shutil.copytree(root / name, checkout / name)
        aged(checkout)
    aged(top)
    one_byte_changed(two / "strategies" / "search_nb.py")

    def at(checkout):
        return lambda name: checkout / name if (checkout / name).is_dir() else None

    store = tmp_path / "store"
    first = F.fingerprint(top, "unosim", at(one), store)
    assert first == F.fingerprint_of(root)
    assert F.fingerprint(top, "unosim", at(one), store) == first  # the stored scan
    second = F.fingerprint(top, "unosim", at(two), store)
    assert second == F.fingerprint_of(top, "unosim", at(two)) != first
    assert F.fingerprint(top, "unosim", at(one), store) == first


def test_decorators_of_the_project_are_followed_through_imports():
    """The summary sees a decorator bound to ``njit(cache=True)``, a function that
    calls one, and their use under another name; ``njit`` without a cache is not
    a cached kernel."""
    src = (b"from numba import njit\nfrom .jit import kernel as k\nimport numba as nb\n"
           b"fast = nb.njit(cache=True)\n\n"
           b"def wrap(f):\n    return fast(f)\n\n"
           b"@k\ndef a(x):\n    return x\n\n"
           b"@njit\ndef b(x):\n    return x\n")
    s = F.summarise(src)
    assert s["bind"]["k"] == ["from", 1, "jit", "kernel"]
    assert s["assign"]["fast"] == [["nb", "njit"], True]
    assert [["fast"], False] in s["funcs"]["wrap"]
    assert [["k"], False] in s["uses"] and [["njit"], False] in s["uses"]
