"""The result object of ``unosim tune``: the best parameter strings re-evaluated on
fresh deals, the optimisation history and the parameter importances."""

from __future__ import annotations

from typing import Any

from unosim.reports.report_base import SummaryReport, tidy_row
from unosim.studies.tune.charts import tune_figures
from unosim.studies.tune.summary import render, summarize


class TuneReport(SummaryReport):
    """``unosim tune``: ``result`` is the study's result, ``history`` what its charts
    show (or a function that reads it from the study, on first use: the importances
    take a while to fit), ``study`` the Optuna study itself (``study.trials_dataframe()``, Optuna's
    ``plot_*`` functions). Each row of :meth:`to_frame` is a re-evaluated candidate's
    win rate on fresh deals."""

    command = "tune"
    render = staticmethod(render)

    def __init__(self, result: Any, history: Any, study: Any = None) -> None:
        self.result = result
        self._history = history
        self.study = study
        self._summary = summarize(result)

    @property
    def history(self) -> Any:
        if callable(self._history):
            self._history = self._history()
        return self._history

    def rows(self) -> list[dict[str, Any]]:
        s = self._summary
        return [tidy_row(variant=s["variant"], players=s["players"], strategy=r["strategy"],
                         metric="win_rate", statistic="value", estimate=r["win_rate"],
                         ci_low=r["win_rate_ci95"][0], ci_high=r["win_rate_ci95"][1],
                         games=r["games"], trial=r["trial"],
                         search_win_rate=r["search_win_rate"], fair_share=r["fair_share"])
                for r in s["reevaluation"]]

    def figures(self) -> dict[str, Any]:
        return tune_figures(self.history, self._summary)

    @property
    def partial(self) -> bool:
        return bool(self.result.interrupted)
