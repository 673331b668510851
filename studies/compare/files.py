"""The files of a comparison's ``--out`` (and of ``run --report``): the summary JSON
and CSV, the charts as PNG and SVG and the self-contained report.html."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from unosim.common import write_text_atomic
from unosim.reports.chart_kit import save_figures
from unosim.reports.export import csv_rows
from unosim.reports.render import render_json
from unosim.studies.compare.pages import comparison_html


def write_report_files(cmp: Any, out_dir: Path, text: str) -> list[str]:
    """Charts (PNG and SVG) and the self-contained report.html of a comparison (or of
    one run, as a comparison of one variant)."""
    from unosim.studies.compare.charts import figures  # matplotlib: when files are written

    svgs = save_figures(figures(cmp), out_dir)
    write_text_atomic(out_dir / "report.html", comparison_html(cmp, svgs, text))
    return [*(f"{n}.png" for n in svgs), *(f"{n}.svg" for n in svgs), "report.html"]


def write_compare_outputs(cmp: Any, out_dir: Path, text: str) -> list[str]:
    """Every file of ``compare --out``; returns their names."""
    write_text_atomic(out_dir / "summary.json", render_json(cmp.to_dict()) + "\n")
    write_text_atomic(out_dir / "summary.csv", csv_rows(cmp.rows()))
    return ["summary.json", "summary.csv", *write_report_files(cmp, out_dir, text)]
