"""A self-contained ``report.html``: tables, verdicts and the charts inline (SVG).

No external files, scripts or fonts: the page opens offline and can be mailed.
"""

from __future__ import annotations

import html
import re

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


def table_block(header: list[str], rows: list[list[str]], strong: list[bool] | None = None) -> str:
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


def figure_blocks(svgs: dict[str, str], captions: dict[str, str] | None = None) -> list[str]:
    out = ["<h2>Charts</h2>"]
    for name, svg in svgs.items():
        cap = html.escape((captions or {}).get(name, name.replace("_", " ")))
        out.append(f'<figure id="fig-{html.escape(name)}">{inline_svg(svg, name + "-")}'
                   f"<figcaption class=\"note\">{cap} (also {html.escape(name)}.png, "
                   f"{html.escape(name)}.svg)</figcaption></figure>")
    return out
