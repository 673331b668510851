"""Where Numba caches the engine's kernels: a locator of the project's own, keyed by
the engine fingerprint rather than by where the sources are installed.

Numba's own locators pick the cache folder from the source file's path (a hash of
its folder) and check the file alone (its time stamp and size, or its content in
recent versions), so the same engine installed twice (``pip install .``, then
``pip install -e .``; a moved checkout; a new virtual environment) compiled again,
for minutes, and left a second set of folders. For the modules of the ``unosim``
package this locator files each kernel under ``$NUMBA_CACHE_DIR/<module name>``
(unosim/__init__.py names that folder after ``unosim.ENGINE``) and stamps it with
the fingerprint and the content of the file: neither depends on the path or the
time stamps, and any change to a compiled module or a constant it freezes changes
the fingerprint (compiler/fingerprint.py), hence the folder. Other libraries'
kernels keep Numba's locators: ``from_function`` declines every file that is not
a module of the package.

simulate/jit.py installs it with ``unosim.ENGINE`` (every kernel module imports the
decorators there), so it is in place before the first kernel is defined. It imports
nothing of the project, so that the engine may import it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from typing import Any

from numba.core import caching, config

#: the package whose modules this locator serves
PACKAGE = "unosim"
#: the engine fingerprint the stamps carry (``install`` sets it: ``unosim.ENGINE``)
_engine: list[str] = []


@functools.cache
def _content(path: str, size: int, mtime_ns: int) -> str:
    """The hash of a source file (remembered per size and time stamp in this process)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _is_package_module(py_func: Any, py_file: str) -> str | None:
    """The module's name if ``py_file`` is the file of a loaded module of the package."""
    name = getattr(py_func, "__module__", None) or ""
    if name != PACKAGE and not name.startswith(PACKAGE + "."):
        return None
    module = sys.modules.get(name)
    file = getattr(module, "__file__", None)
    if not file or os.path.realpath(file) != os.path.realpath(py_file):
        return None
    return name


class EngineCacheLocator(caching._CacheLocator):
    """Caches a kernel of the package under ``$NUMBA_CACHE_DIR/<module>``, valid for
    the engine fingerprint and the file's content, wherever the package lives."""

    def __init__(self, py_func: Any, py_file: str, module: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(config.CACHE_DIR, module)

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> Any:
        st = os.stat(self._py_file)
        return ("unosim-engine", _engine[-1],
                _content(self._py_file, st.st_size, st.st_mtime_ns))

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> EngineCacheLocator | None:
        if not _engine or not config.CACHE_DIR or not os.path.isfile(py_file):
            return None
        module = _is_package_module(py_func, py_file)
        if module is None:
            return None  # another library's kernel: Numba's locators
        self = cls(py_func, py_file, module)
        try:
            self.ensure_cache_path()
        except OSError:
            return None  # an unwritable cache folder: Numba's locators try theirs
        return self


def _impl_classes() -> list[type]:
    """Numba's cache implementations (the class is ``_CacheImpl`` before 0.60)."""
    return [c for c in (getattr(caching, "CacheImpl", None), getattr(caching, "_CacheImpl", None))
            if c is not None and hasattr(c, "_locator_classes")]


def install(engine: str) -> bool:
    """Put the locator first in Numba's list (once), stamping with the fingerprint
    ``engine``; whether it is there."""
    _engine.append(engine)
    impls = _impl_classes()
    for impl in impls:
        if EngineCacheLocator not in impl._locator_classes:
            impl._locator_classes = [EngineCacheLocator, *impl._locator_classes]
    return bool(impls)
