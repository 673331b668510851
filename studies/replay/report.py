"""The result object of ``unosim replay``: one game, move by move."""

from __future__ import annotations

from typing import Any

from unosim.reports.report_base import Report, tidy_row


class ReplayReport(Report):
    """``unosim replay``: ``replay`` is the command's JSON object (the deal, every
    decision, the final record), ``text`` its text. :meth:`to_frame` has one row per
    figure of the final record (a single game: no interval); :meth:`moves` one row
    per decision."""

    command = "replay"

    def __init__(self, replay: dict[str, Any], text: str) -> None:
        self.replay = replay
        self._text = text

    def to_dict(self) -> dict[str, Any]:
        return self.replay

    def summary(self) -> str:
        return self._text

    def rows(self) -> list[dict[str, Any]]:
        r = self.replay
        out = []
        for k, v in r["result"].items():
            head, _, tail = k.rpartition("_")
            seat = int(tail) if head and tail.isdigit() else None
            if seat is not None and seat >= r["players"]:
                continue  # a seat not at the table
            out.append(tidy_row(players=r["players"], seat=seat,
                                strategy=r["strategies"][seat] if seat is not None else None,
                                metric=k, statistic="value", estimate=v, games=1))
        return out

    def moves(self) -> Any:
        """One row per decision: step, turn, seat, phase, top card, colour, the move
        and its effects."""
        import pandas as pd

        return pd.DataFrame([{**{k: v for k, v in s.items() if k != "hand_sizes"},
                              "hand": " ".join(s["hand"]),
                              "effects": "; ".join(s["effects"])}
                             for s in self.replay["steps"]])

    def figures(self) -> dict[str, Any]:
        from unosim.studies.replay.charts import replay_figure

        return {"hand_sizes": replay_figure(self.replay)}

    @property
    def partial(self) -> bool:
        return False
