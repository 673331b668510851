"""Files a study writes: summary JSON and CSV, the long CSV of rows with the provenance."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from unosim import provenance
from unosim.common import write_text_atomic


def flatten(summary: dict[str, Any]) -> dict[str, Any]:
    """One scalar per key: lists become ``key_0, key_1 ...``, rules become ``rule.KEY``,
    the provenance its three keys (``unosim_version``, ``engine``, ``schema_version``)."""
    flat: dict[str, Any] = {}
    for k, v in summary.items():
        if k == "rules_changed":
            continue
        if k == "provenance":
            flat.update(v)
        elif k == "rules":
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


def flat_strategies(summary: dict[str, Any]) -> dict[str, Any]:
    """Match summaries hold a list of per-strategy records: one CSV key per field."""
    if "strategy_wins" not in summary:
        return summary
    out = {k: v for k, v in summary.items() if k != "strategy_wins"}
    for row in summary["strategy_wins"]:
        name = row["strategy"]
        out[f"strategy.{name}.wins"] = row["wins"]
        out[f"strategy.{name}.win_share"] = row["win_share"]
        out[f"strategy.{name}.win_share_low"], out[f"strategy.{name}.win_share_high"] = (
            row["win_share_ci95"])
        out[f"strategy.{name}.fair_share"] = row["fair_share"]
    return out


def write_summary_files(out_dir: Path, summary: dict[str, Any]) -> None:
    """``summary.json`` and ``summary.csv`` of a run (rounds or matches)."""
    from unosim.reports.render import render_json

    write_text_atomic(out_dir / "summary.json", render_json(summary) + "\n")
    write_text_atomic(out_dir / "summary.csv", summary_csv(flat_strategies(summary)))


def csv_rows(rows: list[dict[str, Any]]) -> str:
    """A long table, one row per record, ending in the provenance columns
    (``unosim_version``, ``engine``, ``schema_version``: the same on every row)."""
    buf = io.StringIO()
    if rows:
        prov = provenance()
        w = csv.DictWriter(buf, fieldnames=[*rows[0], *prov])
        w.writeheader()
        for r in rows:
            w.writerow({**r, **prov})
    return buf.getvalue()
