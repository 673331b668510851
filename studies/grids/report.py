"""The result objects of ``unosim sweep`` and ``unosim atlas``."""

from __future__ import annotations

from typing import Any

from unosim.reports.report_base import Report, tidy_row
from unosim.studies.grids import atlas as A
from unosim.studies.grids import sweep as S


def _seat(metric: str) -> int | None:
    return 0 if metric in ("seat_win_0", "seat_0_edge") else None


class SweepReport(Report):
    """``unosim sweep``: every point of the grid with every metric; ``result`` is the
    :class:`~unosim.studies.grids.sweep.SweepResult`, ``variant`` what was swept on."""

    command = "sweep"

    def __init__(self, result: S.SweepResult, variant: str = "official") -> None:
        self.result = result
        self.variant = variant

    def to_dict(self) -> dict[str, Any]:
        out = S.to_dict(self.result)
        out["variant"] = self.variant
        return out

    def summary(self) -> str:
        text = S.render_sweep(self.result)
        if self.variant != "official":
            text = text.replace("unosim sweep · ", f"unosim sweep · on {self.variant} · ", 1)
        return text

    def rows(self) -> list[dict[str, Any]]:
        """A row per point and metric, the swept keys as extra columns (refused points
        as one row with the reason)."""
        out = []
        keys = [d.key for d in self.result.dims]
        for p, st in zip(self.result.points, self.result.stats, strict=True):
            coords = {f"{k}_value" if k == "players" else k: p.coords[k] for k in keys}
            players = p.coords.get("players") or (
                int(p.spec.rules["players"]) if p.spec is not None else None)
            if st is None:
                out.append(tidy_row(variant=p.label, players=players, **coords,
                                    refused=p.refused))
                continue
            for m, s in st.items():
                out.append(tidy_row(variant=p.label, players=players, seat=_seat(m), metric=m,
                                    statistic="value", estimate=s["mean"], ci_low=s["ci_low"],
                                    ci_high=s["ci_high"], games=s["n"], **coords,
                                    label=S.LABELS[m]))
        return out

    def figures(self) -> dict[str, Any]:
        from unosim.studies.grids.charts import sweep_figures

        return sweep_figures(self.result)

    @property
    def partial(self) -> bool:
        return self.result.cmp.partial


class AtlasReport(Report):
    """``unosim atlas``: every preset against official at each player count; each row
    the paired difference from official (``diff``) with the preset's and official's
    own figures beside it."""

    command = "atlas"

    def __init__(self, atlas: A.Atlas) -> None:
        self.atlas = atlas

    def to_dict(self) -> dict[str, Any]:
        return A.to_dict(self.atlas)

    def summary(self) -> str:
        return A.render_atlas(self.atlas)

    def rows(self) -> list[dict[str, Any]]:
        games = {a.players: a.games for a in self.atlas.by_players}
        return [tidy_row(variant=r["preset"], players=r["players"], seat=_seat(r["metric"]),
                         metric=r["metric"], statistic="diff", estimate=r["diff"],
                         ci_low=r["diff_ci_low"], ci_high=r["diff_ci_high"],
                         games=games[r["players"]], value=r["value"], official=r["official"],
                         effect=r["effect"], effect_unit=r["effect_unit"],
                         significant=r["significant"])
                for r in A.rows(self.atlas)]

    def figures(self) -> dict[str, Any]:
        from unosim.studies.grids.charts import atlas_figures

        return atlas_figures(self.atlas)

    @property
    def partial(self) -> bool:
        return self.atlas.partial
