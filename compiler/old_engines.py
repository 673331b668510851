"""The engines other versions of unosim compiled into the cache folder.

Each engine (one fingerprint of the compiled sources) has a folder of its own,
``<cache>/unosim/numba-<fingerprint>``, so an upgrade or an edit of the engine
compiles into a new folder and leaves the old one (tens of megabytes) behind.
Nothing of this version reads those folders again; another installed version
would compile again without its own.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

#: the prefix of an engine's folder (unosim/__init__.py names it)
PREFIX = "numba-"


@dataclass(frozen=True)
class OldEngines:
    """The other engines' folders beside ``current`` and the bytes they hold."""

    current: Path
    folders: tuple[Path, ...]
    size: int


def _size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def find(current: Path) -> OldEngines | None:
    """The engines beside ``current`` (this engine's folder); None when ``current``
    is not a folder unosim named (NUMBA_CACHE_DIR chosen by the user: what else is
    beside it is not ours to judge)."""
    if not current.name.startswith(PREFIX) or current.parent.name != "unosim":
        return None
    folders = tuple(sorted(p for p in current.parent.glob(PREFIX + "*")
                           if p.is_dir() and p.name != current.name))
    return OldEngines(current, folders, sum(_size(p) for p in folders))


def remove(old: OldEngines) -> int:
    """Delete the folders of ``old``; the number removed (one another process is
    deleting at the same time counts as removed)."""
    for folder in old.folders:
        shutil.rmtree(folder, ignore_errors=True)
    return sum(not f.exists() for f in old.folders)


def megabytes(n: int) -> str:
    return f"{n / 1e6:,.0f} MB"
