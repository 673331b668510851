"""Helpers both sides of the house need: atomic file output (the reports and the
engine's checkpoints) and the interval maths (the reports and a run's ``--precision``
stop). It imports nothing of the project, so importing it never pulls the face or
the reports into the engine.

Atomic output writes a temporary file next to the target, then ``os.replace``: a
reader (or a crash) never sees half a file, only the old file or the complete new one.
Win rates use the Wilson score interval (sound near 0 and 1 and for small samples);
means use the normal interval from the standard error, accurate at the sample sizes
a simulation produces.
"""

from __future__ import annotations

import math
import os
import uuid
from pathlib import Path

#: where the documentation lives: user-facing text (help, report headers, chart
#: titles) points here, at a page of it, or at `unosim rules`
DOCS_URL = "https://unosim.github.io/unosim/"

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials."""
    if n <= 0:
        return (math.nan, math.nan)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and standard error of the mean from a sum and a sum of squares."""
    if n <= 0:
        return (math.nan, math.nan)
    mean = total / n
    if n == 1:
        return (mean, math.nan)
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    return (mean, math.sqrt(var / n))


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
