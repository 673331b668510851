"""unosim: a Monte Carlo simulator and analytics CLI for UNO.

Importing the package fixes a writable Numba cache directory before any kernel is
compiled: when the package lives in an unwritable site-packages, Numba's
``cache=True`` otherwise fails with "no locator available".
"""

from __future__ import annotations

import os
from pathlib import Path

__version__ = "0.1.0"


def _default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return str(Path(base) / "unosim" / "numba")


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = _default_cache_dir()
