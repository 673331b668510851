"""Files a run writes: a flat CSV of the summary (JSON is written by render)."""

from __future__ import annotations

import csv
import io
from typing import Any


def flatten(summary: dict[str, Any]) -> dict[str, Any]:
    """One scalar per key: lists become ``key_0, key_1 ...``, rules become ``rule.KEY``."""
    flat: dict[str, Any] = {}
    for k, v in summary.items():
        if k == "rules_changed":
            continue
        if k == "rules":
            flat.update({f"rule.{rk}": rv for rk, rv in v.items()})
        elif isinstance(v, list):
            for i, item in enumerate(v):
                if isinstance(item, list):
                    flat[f"{k}_{i}_low"], flat[f"{k}_{i}_high"] = item
                else:
                    flat[f"{k}_{i}"] = item
        else:
            flat[k] = v
    return flat


def summary_csv(summary: dict[str, Any]) -> str:
    """A two-column ``key,value`` table, easy to read and to load in a notebook."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["key", "value"])
    for k, v in flatten(summary).items():
        w.writerow([k, v])
    return buf.getvalue()
