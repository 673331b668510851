"""What a run prints and keeps: its report as a table or one JSON object on stdout,
and ``summary.json`` / ``summary.csv`` in ``--out`` (shared by every path of ``run``
and by ``--resume``, so they all print and write the same thing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


def print_summary(summary: dict[str, Any], text: str, fmt: str, out_dir: Path | None) -> None:
    """Echo ``text`` (or the JSON of ``summary``) and write the ``--out`` files."""
    from unosim.reports.export import write_summary_files
    from unosim.reports.render import render_json

    click.echo(render_json(summary) if fmt == "json" else text)
    if out_dir is not None:
        write_summary_files(out_dir, summary)


def run_report(result: Any, name: str, mode: str, backend: str,
               precision: float | None = None) -> tuple[dict[str, Any], str]:
    """(summary, table text) of a run of rounds or of matches; the summary carries
    its provenance (version, engine, schema) first."""
    from unosim import provenance
    from unosim.runs import modes

    if not modes.of(mode).by_rounds:
        from unosim.reports.render import render_table
        from unosim.reports.summary import run_summary

        summary = {"provenance": provenance(), **run_summary(result, name, backend, precision)}
        return summary, render_table(summary)
    from unosim.reports.match_report import render_match_table, summarize_matches

    summary = {"provenance": provenance(), **summarize_matches(result, name)}
    return summary, render_match_table(summary)
