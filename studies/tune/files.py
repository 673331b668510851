"""What ``unosim tune --out`` writes: summary.json and summary.csv (the result),
trials.csv, and the charts as PNG and SVG."""

from __future__ import annotations

import json
from typing import Any

from unosim.studies.tune.charts import tune_figures


def flat_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """One CSV key per figure: counts, ranges and the re-evaluated candidates."""
    flat = {k: v for k, v in summary.items()
            if k not in ("counts", "space", "reevaluation", "rules_changed")}
    flat.update({f"trials.{k}": v for k, v in summary["counts"].items()})
    for k, (lo, hi) in summary["space"].items():
        flat[f"range.{k}.low"], flat[f"range.{k}.high"] = lo, hi
    for i, row in enumerate(summary["reevaluation"]):
        for k, v in row.items():
            if k == "win_rate_ci95":
                flat[f"candidate_{i}.win_rate_low"], flat[f"candidate_{i}.win_rate_high"] = v
            else:
                flat[f"candidate_{i}.{k}"] = v
    return flat


def write_files(hist: Any, summary: dict[str, Any], out: Any) -> list[str]:
    """summary.json (the result), summary.csv (the same, one key a row), trials.csv,
    and the history and importance charts (PNG and SVG) of a study's ``history``."""
    from unosim.common import save_figure_atomic, write_text_atomic
    from unosim.reports.export import summary_csv

    written = []
    write_text_atomic(out / "trials.csv", hist.trials_csv)
    write_text_atomic(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    write_text_atomic(out / "summary.csv", summary_csv(flat_summary(summary)))
    written += ["trials.csv", "summary.json", "summary.csv"]
    for name, fig in tune_figures(hist, summary).items():
        for ext in ("png", "svg"):
            save_figure_atomic(fig, out / f"{name}.{ext}")
            written.append(f"{name}.{ext}")
    return written
