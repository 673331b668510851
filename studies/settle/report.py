"""The result object of ``unosim settle``: each claim's verdict with its effect and
interval, its card, and the run's JSON."""

from __future__ import annotations

import re
from typing import Any

from unosim.reports.report_base import Report, tidy_row
from unosim.studies.settle.verdicts import CUT_SHORT, Verdict, verdict_line

_WHERE = re.compile(r"(seat (?P<seat>\d+)|(?P<players>\d+) players)$")


class SettleReport(Report):
    """``unosim settle``: ``verdicts`` (:class:`~unosim.studies.settle.verdicts.Verdict`) and
    the run's JSON summary. Each row of :meth:`to_frame` is a claim at one place
    (player count or seat): the effect (the claim's subject minus its reference,
    rates as shares) with its interval, the verdict and the margin."""

    command = "settle"

    def __init__(self, verdicts: list[Verdict], summary: dict[str, Any],
                 asked: int | None = None) -> None:
        self.verdicts = verdicts
        self._summary = summary
        #: the claims asked (a stopped run has verdicts for fewer)
        self.asked = len(verdicts) if asked is None else asked

    def to_dict(self) -> dict[str, Any]:
        return self._summary

    def closing(self) -> str:
        """The line the command ends with: claims, time, counts, error and method."""
        s = self._summary
        counts = ", ".join(f"{n} {'cut short' if k == CUT_SHORT else k}"
                           for k, n in s["counts"].items() if n)
        settled = sum(not v.partial for v in self.verdicts)
        of = f"{settled} of {self.asked}" if settled < self.asked else f"{settled}"
        return (f"{of} claims settled in {s['elapsed_s']:.0f} s ({counts}); "
                f"{s['error']}; method: {s['method']}")

    def summary(self) -> str:
        return "\n".join([*(verdict_line(v) for v in self.verdicts), self.closing()])

    def title(self) -> str:
        return self.closing()

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for v in self.verdicts:
            for c in v.cells:
                m = _WHERE.search(c.where)
                seat = m.group("seat") if m else None
                players = m.group("players") if m else None
                out.append(tidy_row(
                    players=int(players) if players else None,
                    seat=int(seat) if seat else None, metric=v.metric, statistic="effect",
                    estimate=c.effect, ci_low=c.low, ci_high=c.high, games=c.games,
                    claim=v.name, verdict=c.verdict, claim_verdict=v.verdict,
                    margin=v.margin, where=c.where, look=c.look))
        return out

    def figures(self) -> dict[str, Any]:
        """One card per claim, by the claim's name."""
        from unosim.studies.settle.cards import card_figure

        return {v.name: card_figure(v) for v in self.verdicts}

    @property
    def partial(self) -> bool:
        return bool(self._summary["partial"])
