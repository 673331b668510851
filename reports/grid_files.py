"""Files of a sweep and of the atlas: JSON, CSV (one row per point or preset and
metric), the charts as PNG and SVG, and the HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from unosim.common import write_text_atomic
from unosim.reports.export import csv_rows
from unosim.reports.render import render_json


def write_sweep_files(result: Any, summary: dict[str, Any], text: str, out_dir: Path
                      ) -> list[str]:
    from unosim.reports.charts import save_figures
    from unosim.reports.grid_charts import sweep_figures
    from unosim.reports.grid_pages import sweep_html

    write_text_atomic(out_dir / "sweep.json", render_json(summary) + "\n")
    write_text_atomic(out_dir / "sweep.csv", csv_rows(summary["rows"]))
    svgs = save_figures(sweep_figures(result), out_dir)
    write_text_atomic(out_dir / "sweep.html", sweep_html(summary, svgs, text))
    return ["sweep.json", "sweep.csv", *(f"{n}.png" for n in svgs),
            *(f"{n}.svg" for n in svgs), "sweep.html"]


def write_atlas_files(atlas: Any, summary: dict[str, Any], text: str, out_dir: Path
                      ) -> list[str]:
    from unosim.reports.atlas import atlas_figures
    from unosim.reports.charts import save_figures
    from unosim.reports.grid_pages import atlas_html

    write_text_atomic(out_dir / "atlas.json", render_json(summary) + "\n")
    write_text_atomic(out_dir / "atlas.csv", csv_rows(summary["rows"]))
    svgs = save_figures(atlas_figures(atlas), out_dir)
    write_text_atomic(out_dir / "atlas.html", atlas_html(summary, svgs, text))
    return ["atlas.json", "atlas.csv", *(f"{n}.png" for n in svgs),
            *(f"{n}.svg" for n in svgs), "atlas.html"]
