"""The result object of ``unosim run`` from Python (``api.simulate``): the run's
report, its charts (a comparison of one variant) and its games as rows."""

from __future__ import annotations

from typing import Any

from unosim.studies.compare.report import ComparisonReport
from unosim.studies.compare.result import Comparison


class SimulateReport(ComparisonReport):
    """``unosim run``: one variant's rounds (or matches). :attr:`games` holds one row
    per game (or match) when they were kept, ``None`` otherwise."""

    command = "run"

    def __init__(self, summary: dict[str, Any], text: str, cmp: Comparison,
                 games: Any = None) -> None:
        self._summary = summary
        self._text = text
        self.comparison = cmp
        #: one row per game (``mode="round"``) or match, for the seats at the table
        self.games = games

    def to_dict(self) -> dict[str, Any]:
        return self._summary

    def summary(self) -> str:
        return self._text
