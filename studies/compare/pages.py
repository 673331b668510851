"""The ``report.html`` of a comparison (or of one run, a comparison of one variant):
the variants, the verdicts, every figure with its interval, the paired differences,
the charts inline and the text report."""

from __future__ import annotations

import html
import math
from typing import Any

from unosim.reports.html import figure_blocks, page, table_block
from unosim.runs import modes
from unosim.stats.intervals import Z95
from unosim.stats.numbers import decimals_for
from unosim.studies.compare.result import _cell, method_note, signed


def comparison_html(cmp: Any, svgs: dict[str, str], text: str) -> str:
    """The report of a comparison (or of a one-variant run when it has one variant)."""
    e = html.escape
    title = ("unosim compare: " + " vs ".join(cmp.names)) if len(cmp.variants) > 1 else (
        f"unosim run: {cmp.names[0]}")
    body = [f"<h1>{e(title)}</h1>"]
    body.append(
        f"<p>{cmp.mode} mode · {cmp.games:,} {cmp.unit} per variant · seed {cmp.seed} · "
        f"{cmp.workers} workers{' · <b>PARTIAL RESULT</b>' if cmp.partial else ''}</p>"
    )
    body.append("<ul>")
    for vi, v in enumerate(cmp.variants):
        role = "baseline" if vi == 0 and len(cmp.variants) > 1 else "variant"
        body.append(f'<li><span class="swatch" style="background:{cmp.colours[vi]}"></span>'
                    f"<b>{e(v.name)}</b> ({role}): rules changed: {e(v.changes())}; "
                    f"strategies: {e(', '.join(s.label() for s in v.seats))}</li>")
    body.append("</ul>")
    if len(cmp.variants) > 1:
        body.append("<h2>Verdicts</h2><ul class=\"verdicts\">"
                    + "".join(f"<li>{e(v)}</li>" for v in cmp.verdicts()) + "</ul>")
        feel = cmp.feel_verdicts()
        if feel:
            body.append("<h2>How the round unfolds</h2><ul class=\"verdicts\">"
                        + "".join(f"<li>{e(v)}</li>" for v in feel) + "</ul>")
        body.append(f'<p class="note">{e(method_note(cmp.mode))}</p>')
    body.append(f"<h2>Per {modes.of(cmp.mode).name}</h2>")
    header = ["metric"] + [f"{n}: mean ± se / rate [95% CI]" for n in cmp.names]
    rows = []
    for m in cmp.shown_metrics():
        cells = [_cell(cmp.stat(vi, m.name), m) for vi in range(len(cmp.variants))]
        if all(c == "n/a" for c in cells):
            continue
        rows.append([m.label, *cells])
    body.append(table_block(header, rows))
    for vi in range(1, len(cmp.variants)):
        body.append(f"<h2>{e(cmp.names[vi])} − {e(cmp.names[0])} (paired; rates in "
                    "percentage points)</h2>")
        hdr = ["metric", "difference", "95% CI (paired)", "95% CI (independent)", "pairs"]
        drows, strong = [], []
        for m in cmp.shown_metrics():
            d = cmp.diff(vi, m.name)
            if d["pairs"] == 0:
                continue
            sc = 100.0 if m.rate else 1.0
            dec = decimals_for(max(Z95 * d["se"] * sc, 1e-12)) if math.isfinite(d["se"]) else 2
            drows.append([
                m.label, signed(d["diff"] * sc, dec),
                f"{signed(d['ci_low'] * sc, dec)} to {signed(d['ci_high'] * sc, dec)}",
                f"{signed(d['indep_ci_low'] * sc, dec)} to "
                f"{signed(d['indep_ci_high'] * sc, dec)}",
                f"{d['pairs']:,}",
            ])
            strong.append(d["detected"])
        body.append(table_block(hdr, drows, strong))
        body.append('<p class="note">Bold: the paired 95% interval excludes zero.</p>')
    from unosim.studies.compare.charts import captions  # matplotlib: when a page is written

    body += figure_blocks(svgs, captions(cmp))
    body.append("<h2>Text report</h2><pre>" + e(text) + "</pre>")
    return page(title, body)
