"""unosim: a Monte Carlo simulator and analytics CLI for UNO.

Importing the package fixes a writable Numba cache directory before any kernel is
compiled: when the package lives in an unwritable site-packages, Numba's
``cache=True`` otherwise fails with "no locator available". The directory is
named after a hash of the compiled sources (``ENGINE``: every module that holds
cached kernels and every module they import constants from), because Numba checks
only the file that defines a function, not the functions and constants it takes
from other modules: a changed step function would otherwise run stale code. The
project's cache locator (compiler/locator.py) files the engine's kernels under
that folder by module name, so a reinstall of the same sources finds them.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

__version__ = "0.3.0"
#: the layout of every output (JSON, CSV, Parquet metadata): bumped when a key or a
#: column is renamed or removed or changes meaning, so a reader can tell files apart
SCHEMA_VERSION = 1


def _locate(name: str) -> Path | None:
    """The folder of the subpackage ``unosim.<name>`` (an editable install keeps it
    in the checkout's top-level folder), or None."""
    try:
        spec = importlib.util.find_spec(f"{__name__}.{name}")
    except (ImportError, ValueError):
        return None
    places = getattr(spec, "submodule_search_locations", None)
    return Path(next(iter(places))) if places else None


def _scan_store() -> Path:
    """Where the last scan of the package is kept (compiler/fingerprint.py)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "unosim"


def _source_hash() -> str:
    """The fingerprint of every module compiled into a cached kernel and of the
    modules whose constants they freeze (compiler/fingerprint.py finds them)."""
    from unosim.compiler.fingerprint import fingerprint

    return fingerprint(Path(__file__).resolve().parent, __name__, _locate, _scan_store())


#: the engine fingerprint: the hash of the compiled sources (it names the Numba cache
#: folder too); two runs of one version, seed and rules give the same results only
#: on the same engine
ENGINE = _source_hash()


def provenance() -> dict[str, object]:
    """Where a result came from, carried by every output and checkpoint: the unosim
    version, the engine fingerprint and the schema version of the output's layout."""
    return {"unosim_version": __version__, "engine": ENGINE, "schema_version": SCHEMA_VERSION}


def _default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return str(Path(base) / "unosim" / f"numba-{ENGINE}")


# an empty NUMBA_CACHE_DIR is unset to Numba too: it would cache beside the sources
# (unwritable in a site-packages) and the compile markers (compiler/compiling.py)
# would land in whatever folder the command ran from
if not os.environ.get("NUMBA_CACHE_DIR"):
    os.environ["NUMBA_CACHE_DIR"] = _default_cache_dir()
    _numba_config = sys.modules.get("numba.core.config")
    if _numba_config is not None:
        # numba was imported first and has read its settings already: without this
        # it would load kernels cached beside the sources, possibly stale ones
        _numba_config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
