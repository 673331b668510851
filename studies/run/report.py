"""The report of a run: the summary of its rounds (``reports/summary.py``) or of its
matches (``matches.py``) with its provenance first, and its table."""

from __future__ import annotations

from typing import Any

from unosim import provenance
from unosim.runs import modes


def summary_of(mode: str, res: Any, name: str) -> dict[str, Any]:
    """The JSON-able summary of one table's rounds or matches (no provenance)."""
    if not modes.of(mode).by_rounds:
        from unosim.reports.summary import summarize

        return summarize(res, name)
    from unosim.studies.run.matches import summarize_matches

    return summarize_matches(res, name)


def run_report(result: Any, name: str, mode: str, backend: str,
               precision: float | None = None) -> tuple[dict[str, Any], str]:
    """(summary, table text) of a run of rounds or of matches; the summary carries
    its provenance (version, engine, schema) first."""
    if not modes.of(mode).by_rounds:
        from unosim.reports.render import render_table
        from unosim.reports.summary import run_summary

        summary = {"provenance": provenance(), **run_summary(result, name, backend, precision)}
        return summary, render_table(summary)
    from unosim.studies.run.matches import render_match_table, summarize_matches

    summary = {"provenance": provenance(), **summarize_matches(result, name)}
    return summary, render_match_table(summary)
