"""A self-contained ``report.html``: tables, verdicts and the charts inline (SVG).

No external files, scripts or fonts: the page opens offline and can be mailed.
"""

from __future__ import annotations

import html
import math
import re
from typing import Any

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;
max-width:1100px;padding:0 1em;color:#222;line-height:1.4}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}
th,td{padding:.25em .7em;text-align:right;border-bottom:1px solid #eee}
th:first-child,td:first-child{text-align:left}
thead th{border-bottom:2px solid #999}
td.yes{font-weight:600}
ul.verdicts li{margin:.2em 0}
figure{margin:1em 0}figure svg{max-width:100%;height:auto}
pre{background:#f6f6f6;padding:.8em;overflow-x:auto;font-size:.85em}
.note{color:#555;font-size:.9em}
.swatch{display:inline-block;width:.9em;height:.9em;margin-right:.4em;vertical-align:middle}
"""


def inline_svg(svg: str, prefix: str = "") -> str:
    """An SVG document as an element to put inside HTML (no XML prolog or doctype).

    Every id (and every reference to one: ``url(#..)``, ``href="#.."``) gets
    ``prefix``, so several charts on one page never share an id; matplotlib numbers
    clip paths and markers per figure, and a clash would clip one chart by another's
    path."""
    svg = re.sub(r"<\?xml[^>]*\?>", "", svg)
    svg = re.sub(r"<!DOCTYPE[^>]*>", "", svg, flags=re.S)
    if prefix:
        svg = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', svg)
        svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", svg)
        svg = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}{m.group(1)}"', svg)
    return svg.strip()


def _table(header: list[str], rows: list[list[str]], strong: list[bool] | None = None) -> str:
    e = html.escape
    out = ["<table><thead><tr>", *[f"<th>{e(h)}</th>" for h in header], "</tr></thead><tbody>"]
    for i, row in enumerate(rows):
        cls = ' class="yes"' if strong and strong[i] else ""
        out.append("<tr>" + "".join(f"<td{cls if j else ''}>{e(c)}</td>"
                                    for j, c in enumerate(row)) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def page(title: str, body: list[str]) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
        + "\n".join(body) + "\n</body></html>\n"
    )


def _figures(svgs: dict[str, str], captions: dict[str, str] | None = None) -> list[str]:
    out = ["<h2>Charts</h2>"]
    for name, svg in svgs.items():
        cap = html.escape((captions or {}).get(name, name.replace("_", " ")))
        out.append(f'<figure id="fig-{html.escape(name)}">{inline_svg(svg, name + "-")}'
                   f"<figcaption class=\"note\">{cap} (also {html.escape(name)}.png, "
                   f"{html.escape(name)}.svg)</figcaption></figure>")
    return out


def comparison_html(cmp: Any, svgs: dict[str, str], text: str) -> str:
    """The report of a comparison (or of a one-variant run when it has one variant)."""
    from unosim.reports.compare import Z95, decimals_for, method_note, signed

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
    from unosim.runs import modes

    body.append(f"<h2>Per {modes.of(cmp.mode).name}</h2>")
    header = ["metric"] + [f"{n}: mean ± se / rate [95% CI]" for n in cmp.names]
    rows = []
    from unosim.reports.compare import _cell

    for m in cmp.shown_metrics():
        cells = [_cell(cmp.stat(vi, m.name), m) for vi in range(len(cmp.variants))]
        if all(c == "n/a" for c in cells):
            continue
        rows.append([m.label, *cells])
    body.append(_table(header, rows))
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
        body.append(_table(hdr, drows, strong))
        body.append('<p class="note">Bold: the paired 95% interval excludes zero.</p>')
    from unosim.reports.charts import captions

    body += _figures(svgs, captions(cmp))
    body.append("<h2>Text report</h2><pre>" + e(text) + "</pre>")
    return page(title, body)
