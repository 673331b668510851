"""Files of a sweep and of the atlas: JSON, CSV (one row per point or preset and
metric), the charts as PNG and SVG, and the HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from unosim.common import write_text_atomic
from unosim.reports.export import csv_rows
from unosim.reports.render import render_json


def write_grid_files(kind: str, figures: dict[str, Any], page: Any, summary: dict[str, Any],
                     text: str, out_dir: Path) -> list[str]:
    """``KIND.json``, ``KIND.csv`` (the summary's rows), every figure as PNG and SVG and
    ``KIND.html`` made by ``page(summary, svgs, text)``; returns the names written."""
    from unosim.reports.chart_kit import save_figures

    write_text_atomic(out_dir / f"{kind}.json", render_json(summary) + "\n")
    write_text_atomic(out_dir / f"{kind}.csv", csv_rows(summary["rows"]))
    svgs = save_figures(figures, out_dir)
    write_text_atomic(out_dir / f"{kind}.html", page(summary, svgs, text))
    return [f"{kind}.json", f"{kind}.csv", *(f"{n}.png" for n in svgs),
            *(f"{n}.svg" for n in svgs), f"{kind}.html"]


def write_sweep_files(result: Any, summary: dict[str, Any], text: str, out_dir: Path
                      ) -> list[str]:
    from unosim.studies.grids.charts import sweep_figures
    from unosim.studies.grids.pages import sweep_html

    return write_grid_files("sweep", sweep_figures(result), sweep_html, summary, text, out_dir)


def write_atlas_files(atlas: Any, summary: dict[str, Any], text: str, out_dir: Path
                      ) -> list[str]:
    from unosim.studies.grids.charts import atlas_figures
    from unosim.studies.grids.pages import atlas_html

    return write_grid_files("atlas", atlas_figures(atlas), atlas_html, summary, text, out_dir)
