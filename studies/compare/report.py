"""The result object of ``unosim compare`` (``api.compare``), and the report over a
comparison it shares with ``run``'s: the figures in long form, the charts, the
JSON and text."""

from __future__ import annotations

import re
from typing import Any

from unosim.reports.report_base import Report, tidy_row
from unosim.studies.compare.result import Comparison

_SEAT = re.compile(r"seat_(?:win_)?(\d+)$")


def comparison_rows(cmp: Comparison) -> list[dict[str, Any]]:
    """Each variant's figures (``value``) and, after the baseline, their paired
    differences from it (``diff``), one row each."""
    players = {v.name: int(v.rules["players"]) for v in cmp.variants}
    out = []
    for r in cmp.rows():
        seat = _SEAT.search(r["metric"])
        who = {"variant": r["variant"], "players": players[r["variant"]],
               "seat": int(seat.group(1)) if seat else None, "metric": r["metric"]}
        extra = {"label": r["label"], "unit": r["unit"], "baseline": r["baseline"]}
        out.append(tidy_row(**who, statistic="value", estimate=r["mean"],
                            ci_low=r["ci_low"], ci_high=r["ci_high"], games=r["n"], **extra))
        if r["variant"] != r["baseline"]:
            out.append(tidy_row(**who, statistic="diff", estimate=r["diff"],
                                ci_low=r["diff_ci_low"], ci_high=r["diff_ci_high"],
                                games=r["pairs"], **extra))
    return out


class ComparisonReport(Report):
    """A report over a :class:`Comparison` (``self.comparison``): its tidy rows, its
    charts and whether it is partial, the same for ``run`` and ``compare``."""

    comparison: Comparison

    def rows(self) -> list[dict[str, Any]]:
        return comparison_rows(self.comparison)

    def figures(self) -> dict[str, Any]:
        from unosim.studies.compare.charts import figures

        return figures(self.comparison)

    @property
    def partial(self) -> bool:
        return self.comparison.partial


class CompareReport(ComparisonReport):
    """``unosim compare``: variants on the same deals, paired differences from the
    first (the baseline), verdicts. ``comparison`` is the full
    :class:`~unosim.studies.compare.result.Comparison`; :meth:`table` the wide table of
    ``summary.csv``; :attr:`verdicts` the plain-language verdicts."""

    command = "compare"

    def __init__(self, cmp: Comparison) -> None:
        self.comparison = cmp

    def to_dict(self) -> dict[str, Any]:
        return self.comparison.to_dict()

    def summary(self) -> str:
        return self.comparison.render_table()

    @property
    def verdicts(self) -> list[str]:
        return self.comparison.verdicts() + self.comparison.feel_verdicts()

    def table(self) -> Any:
        """One row per (variant, metric) with the difference in columns: the table of
        ``summary.csv`` (verdicts in ``.attrs``)."""
        return self.comparison.to_frame()
