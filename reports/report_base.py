"""What every study's result object offers a notebook: its command's JSON
(``to_json``), its command's text (``summary``), a tidy DataFrame (``to_frame``),
the command's charts (``plot``, ``figures``) and a compact HTML table
(``_repr_html_``). The commands print these same objects, so a result in Python and
the command's output cannot drift apart.

``to_frame`` is in long form, one row per figure: the columns of :data:`TIDY`
(variant, players, seat, strategy: what the row is about, empty where it does not
apply; metric and statistic: which figure, ``value`` for the figure itself and
``diff`` for its paired difference from the baseline; estimate and its 95%
interval; games: the sample behind it), then the columns a study adds.
"""

from __future__ import annotations

import html
import math
from typing import Any

from unosim.errors import UnosimError
from unosim.reports.render import render_json

#: the columns every ``to_frame()`` starts with, in this order
TIDY = ("variant", "players", "seat", "strategy", "metric", "statistic", "estimate",
        "ci_low", "ci_high", "games")
#: rows shown by ``_repr_html_`` before it points at ``to_frame()``
HTML_ROWS = 40


def tidy_row(**fields: Any) -> dict[str, Any]:
    """One ``to_frame`` row: the :data:`TIDY` columns (None where not given), then
    the extra ones in the order given."""
    row = {k: fields.pop(k, None) for k in TIDY}
    row.update(fields)
    return row


class Report:
    """The result of one study, as its command reports it (subclasses fill in
    :meth:`to_dict`, :meth:`summary`, :meth:`rows` and :meth:`figures`)."""

    #: the command that prints this object
    command = ""

    # ------------------------------------------------------------ what subclasses give

    def to_dict(self) -> dict[str, Any]:
        """The command's ``--format json`` object."""
        raise NotImplementedError

    def summary(self) -> str:
        """The command's text report (what it prints without ``--format json``)."""
        raise NotImplementedError

    def rows(self) -> list[dict[str, Any]]:
        """The rows of :meth:`to_frame` (see :func:`tidy_row`)."""
        raise NotImplementedError

    def figures(self) -> dict[str, Any]:
        """Every chart of the command, by the name of its file (without extension)."""
        raise NotImplementedError

    @property
    def partial(self) -> bool:
        """True when the study was stopped (Ctrl-C) before it finished."""
        return bool(self.to_dict().get("partial", False))

    # ------------------------------------------------------------ the same for all

    def to_json(self) -> str:
        """The command's ``--format json`` output for the same options and seed, as
        text (only the timings, ``elapsed_s`` and speeds, differ from run to run)."""
        return render_json(self.to_dict())

    def to_frame(self) -> Any:
        """Every figure with its 95% interval as a tidy (long) DataFrame."""
        import pandas as pd

        rows = self.rows()
        extra = [k for r in rows for k in r if k not in TIDY]
        return pd.DataFrame(rows, columns=[*TIDY, *dict.fromkeys(extra)])

    def plot(self, chart: str | None = None) -> Any:
        """One of the command's charts as a matplotlib Figure: ``chart`` names it
        (see :meth:`figures`; default the first)."""
        figs = self.figures()
        if not figs:
            raise UnosimError(f"{self.command}: nothing to plot (no figure was played)")
        if chart is None:
            return next(iter(figs.values()))
        if chart not in figs:
            raise UnosimError(f"no chart {chart!r}; this result has {', '.join(figs)}")
        return figs[chart]

    def title(self) -> str:
        """The first line of the text report."""
        return self.summary().split("\n", 1)[0]

    def __repr__(self) -> str:
        mark = " (partial)" if self.partial else ""
        return f"<{type(self).__name__}{mark}: {self.title()}>"

    def _repr_html_(self) -> str:
        """A compact table: each row's figure with its 95% interval."""
        return html_table(self.title() + (" · PARTIAL" if self.partial else ""), self.rows())


class SummaryReport(Report):
    """A report whose JSON is one summary made when the study ends (``_summary``) and
    whose text renders that summary (``render``), so the two cannot disagree."""

    _summary: dict[str, Any]

    @staticmethod
    def render(summary: dict[str, Any]) -> str:
        """The text of ``summary``."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        return self._summary

    def summary(self) -> str:
        return self.render(self._summary)


def _num(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return str(x)
    if isinstance(x, float) and not math.isfinite(x):
        return "n/a"
    if isinstance(x, int):
        return f"{x:,}"
    return f"{x:.4g}"


def html_table(title: str, rows: list[dict[str, Any]]) -> str:
    """``title`` over a table of ``rows``: the columns that hold something, the
    interval as one ``[low, high]`` cell."""
    keys = [k for k in (*TIDY, *(k for r in rows for k in r if k not in TIDY))
            if k not in ("ci_low", "ci_high") and any(r.get(k) not in (None, "") for r in rows)]
    keys = list(dict.fromkeys(keys))
    if "estimate" in keys and any(r.get("ci_low") is not None for r in rows):
        keys.insert(keys.index("estimate") + 1, "95% interval")
    head = "".join(f"<th>{html.escape(k)}</th>" for k in keys)
    body = []
    for r in rows[:HTML_ROWS]:
        cells = []
        for k in keys:
            if k == "95% interval":
                lo, hi = r.get("ci_low"), r.get("ci_high")
                text = "" if lo is None else f"[{_num(lo)}, {_num(hi)}]"
            else:
                text = _num(r.get(k))
            cells.append(f"<td>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = (f"<p>{len(rows) - HTML_ROWS:,} more rows: <code>.to_frame()</code></p>"
            if len(rows) > HTML_ROWS else "")
    return (f"<div><p><b>{html.escape(title)}</b></p><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>{more}</div>")
