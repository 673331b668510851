"""The result objects of ``unosim tournament`` and ``unosim skill``: strategies
against each other, and one strategy's skill edge under each variant."""

from __future__ import annotations

from typing import Any

from unosim.reports.render import render_json
from unosim.reports.report_base import Report, tidy_row
from unosim.studies.lineups import skill_edge as K
from unosim.studies.lineups import tournament_summary as T
from unosim.studies.lineups.tournament_totals import METRICS


class TournamentReport(Report):
    """``unosim tournament``: each entrant's win rate, points and place with 95%
    intervals, and head to head (metric ``ahead``: the share of rounds the strategy
    finished ahead of ``opponent``). ``result`` is the
    :class:`~unosim.studies.lineups.tournament_summary.TournamentResult`."""

    command = "tournament"

    def __init__(self, result: T.TournamentResult) -> None:
        self.result = result
        self._summary = T.summarize_tournament(result)

    def to_dict(self) -> dict[str, Any]:
        return self._summary

    def to_json(self) -> str:
        return T.render_json(self._summary)

    def summary(self) -> str:
        return T.render_tournament(self._summary)

    def rows(self) -> list[dict[str, Any]]:
        s = self._summary
        out = []
        for r in s["results"]:
            who = {"variant": s["variant"], "players": s["players"], "strategy": r["strategy"]}
            extra = {"role": r["role"], "rank": r["rank"], "fair_share": r["fair_share"]}
            lo, hi = r["win_rate_ci95"]
            out.append(tidy_row(**who, metric="win_rate", statistic="value",
                                estimate=r["win_rate"], ci_low=lo, ci_high=hi,
                                games=r["games"], **extra))
            for key in METRICS:
                lo, hi = r[key + "_ci95"]
                out.append(tidy_row(**who, metric=key, statistic="value",
                                    estimate=r[key + "_mean"], ci_low=lo, ci_high=hi,
                                    games=r["games"], **extra))
        for a, row in s["head_to_head"].items():
            for b, cell in row.items():
                lo, hi = cell["ci95"]
                out.append(tidy_row(variant=s["variant"], players=s["players"], strategy=a,
                                    metric="ahead", statistic="value", estimate=cell["ahead"],
                                    ci_low=lo, ci_high=hi, games=cell["rounds"], opponent=b))
        return out

    def figures(self) -> dict[str, Any]:
        from unosim.studies.lineups.charts import tournament_figure

        return {"tournament_win_rates": tournament_figure(self._summary)}

    @property
    def partial(self) -> bool:
        return self.result.partial


class SkillReport(Report):
    """``unosim skill``: the strategy's win rate and skill edge under each variant
    (``value``), and the skill edge's paired difference from the first (``diff``).
    ``result`` is the :class:`~unosim.studies.lineups.skill_edge.SkillResult`."""

    command = "skill"

    def __init__(self, result: K.SkillResult) -> None:
        self.result = result
        self._summary = K.summarize_skill(result)

    def to_dict(self) -> dict[str, Any]:
        return self._summary

    def to_json(self) -> str:
        return render_json(self._summary)

    def summary(self) -> str:
        return K.render_skill(self._summary)

    def rows(self) -> list[dict[str, Any]]:
        s = self._summary
        out = []
        for r in s["variants"]:
            who = {"variant": r["variant"], "players": s["players"], "strategy": s["strategy"]}
            extra = {"against": s["against"]}
            lo, hi = r["win_rate_ci95"]
            out.append(tidy_row(**who, metric="win_rate", statistic="value",
                                estimate=r["win_rate"], ci_low=lo, ci_high=hi,
                                games=r["rounds"], **extra))
            lo, hi = r["skill_edge_ci95"]
            out.append(tidy_row(**who, metric="skill_edge", statistic="value",
                                estimate=r["skill_edge"], ci_low=lo, ci_high=hi,
                                games=r["deals"], **extra))
            if "diff_ci95" in r:
                lo, hi = r["diff_ci95"]
                out.append(tidy_row(**who, metric="skill_edge", statistic="diff",
                                    estimate=r["diff_from_baseline"], ci_low=lo, ci_high=hi,
                                    games=r["deals"], **extra))
        return out

    def figures(self) -> dict[str, Any]:
        from unosim.studies.lineups.charts import skill_figure

        return {"skill_edge": skill_figure(self._summary)}

    @property
    def partial(self) -> bool:
        return self.result.partial
