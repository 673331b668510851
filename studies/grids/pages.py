"""``sweep.html`` and ``atlas.html``: self-contained pages (tables, verdicts, the charts
as inline SVG), like report.html."""

from __future__ import annotations

import html
from typing import Any

from unosim.reports.html import figure_blocks, page, table_block


def sweep_html(summary: dict[str, Any], svgs: dict[str, str], text: str) -> str:
    e = html.escape
    dims = " × ".join(f"{d['key']} ({', '.join(map(str, d['values']))})"
                      for d in summary["dims"])
    body = [f"<h1>unosim sweep: {e(dims)}</h1>",
            f"<p class=\"note\">{summary['games']:,} games per point, seed {summary['seed']}, "
            f"on {e(summary.get('variant', 'official'))}; every point plays the same game "
            "indices (common random numbers). Intervals are 95% (Wilson for rates).</p>"]
    keys = [d["key"] for d in summary["dims"]]
    header = [*keys, "metric", "mean", "95% CI", "n"]
    rows = [[str(r[k]) for k in keys] + [summary["metrics"].get(r["metric"], r["metric"]),
                                         _num(r["mean"]), f"{_num(r['ci_low'])} to "
                                         f"{_num(r['ci_high'])}", f"{r['n']:,}"]
            for r in summary["rows"] if not r["refused"]]
    refused = summary["points_refused"]
    if refused:
        body.append("<h2>Refused points (not played)</h2><ul>")
        body += [f"<li>{e(str(p['point']))}: {e(p['reason'])}</li>" for p in refused]
        body.append("</ul>")
    body += figure_blocks(svgs)
    body += ["<h2>Every point and metric</h2>", table_block(header, rows),
             "<h2>As printed</h2>", f"<pre>{e(text)}</pre>"]
    return page("unosim sweep", body)


def atlas_html(summary: dict[str, Any], svgs: dict[str, str], text: str) -> str:
    e = html.escape
    body = ["<h1>unosim atlas: every preset against official</h1>",
            f"<p class=\"note\">{summary['games']:,} games per preset and player count, seed "
            f"{summary['seed']}; every preset plays the same deals as official; effects are "
            "paired differences with 95% intervals (% for means, percentage points for "
            "rates, seat balance and skill edge); * marks an interval that excludes 0.</p>"]
    for players, verdicts in summary["verdicts"].items():
        body.append(f"<h2>{e(players)} players: verdicts</h2><ul class=\"verdicts\">")
        body += [f"<li>{e(v)}</li>" for v in verdicts]
        body.append("</ul>")
        refused = summary["refused"].get(players) or {}
        if refused:
            body.append("<p class=\"note\">Refused and skipped: " + "; ".join(
                f"{e(p)}: {e(r)}" for p, r in refused.items()) + "</p>")
    body += figure_blocks(svgs)
    header = ["players", "preset", "metric", "value", "official", "effect", "95% CI", "*"]
    rows = [[str(r["players"]), r["preset"], summary["metrics"][r["metric"]], _num(r["value"]),
             _num(r["official"]), f"{r['effect']:+.2f} {r['effect_unit']}",
             f"{r['effect_ci_low']:+.2f} to {r['effect_ci_high']:+.2f}",
             "*" if r["significant"] else ""] for r in summary["rows"]]
    body += ["<h2>Full table</h2>", table_block(header, rows), "<h2>As printed</h2>",
             f"<pre>{e(text)}</pre>"]
    return page("unosim atlas", body)


def _num(x: Any) -> str:
    if x is None:
        return "n/a"
    return f"{x:.4g}"
