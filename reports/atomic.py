"""Atomic file output: write a temporary file next to the target, then ``os.replace``.

A reader (or a crash) never sees half a file: the target is either the old file
or the complete new one.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path


def temp_path(path: Path) -> Path:
    """A fresh hidden name next to ``path`` (same folder, so ``os.replace`` is atomic)."""
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")


def write_bytes_atomic(path: Path | str, data: bytes) -> None:
    path = Path(path)
    tmp = temp_path(path)
    try:
        with open(tmp, "xb") as fh:  # created with the usual permissions (umask)
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path | str, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))
