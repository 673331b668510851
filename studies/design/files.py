"""What ``unosim design --out`` writes: each front member as a variant file
(``front-N.toml``, ready for ``--variant``) and its answer as claims settle checks
(``claims/``), design.json, design.csv, the Pareto chart (PNG and SVG) and the
self-contained design.html."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from unosim.reports.render import render_json
from unosim.studies.design.report import changes_text, show, span, variant_text


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    return json.dumps(str(v))


def variant_toml(rules: Any, description: str) -> str:
    """A variant file of ``rules``: every key that differs from official."""
    lines = [f"description = {json.dumps(description)}", "", "[rules]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in rules.changed().items()]
    return "\n".join(lines) + "\n"


def front_files(report: Any) -> dict[str, str]:
    """The text of each front member's variant file, by file name."""
    s = report.to_dict()
    space = report.result.setup.space
    p = s["players"]
    out = {}
    for f, c in zip(s["front"], report.result.front, strict=True):
        figs = ", ".join(f"{m} {show(m, x['remeasured'], p)}" for m, x in f["figures"].items())
        desc = (f"unosim design: {s['base']} with {changes_text(f['changes'])} "
                f"({p} players; on fresh deals: {figs})")
        out[f["file"]] = variant_toml(space.resolve(c.values), desc)
    return out


def _toml_list(items: list[str] | tuple[str, ...]) -> str:
    return "[" + ", ".join(json.dumps(x) for x in items) + "]"


def claim_files(report: Any) -> dict[str, str]:
    """Each front member's answer as claims settle can check (``unosim settle
    DIR/claims/*.toml``): per objective, that it moves the metric the asked way from
    the base (a compare or skill claim against the base, paired); per requirement,
    that its figure lies beyond the value. By file name under ``claims/``."""
    from unosim.studies.design.objectives import SKILL

    s = report.to_dict()
    setup = report.result.setup
    space, q = setup.space, setup.question
    presets = list(space.base) or ["official"]
    common = {"players": str(space.players), "games": str(s["games_remeasured"])}
    out = {}
    for f in s["front"]:
        i = f["rank"]
        changes = [f"{k}={v}" for k, v in f["changes"].items()]
        if not changes:
            continue
        who = variant_text(s["base"], f["changes"])
        for g in q.goals:
            lower = g.sense == "minimize"
            fields = {
                "claim": json.dumps(f"{who}: {g.metric} {'lower' if lower else 'higher'} "
                                    f"than in {s['base']}"),
                "source": json.dumps(f"unosim design, seed {s['seed']}: front member {i}"),
                "study": json.dumps("skill" if g.metric == SKILL else "compare"),
                "metric": json.dumps(g.metric),
                "direction": json.dumps("lower" if lower else "higher"),
                "baseline": _toml_list(presets), "variant": _toml_list(presets),
                "baseline_rules": _toml_list(space.base_rules),
                "variant_rules": _toml_list([*space.base_rules, *changes]), **common}
            if g.metric == SKILL:
                fields["strategy"] = json.dumps(setup.strategy.label())
            out[f"front-{i}-{g.metric}.toml"] = _claim_text(f"front-{i}-{g.metric}", fields)
        for r in q.requirements:
            bound = "at most" if r.op == "<=" else "at least"
            fields = {
                "claim": json.dumps(f"{who}: {r.metric} {bound} {r.value:g}"),
                "source": json.dumps(f"unosim design, seed {s['seed']}: front member {i}"),
                "study": json.dumps("skill" if r.metric == SKILL else "compare"),
                "metric": json.dumps(r.metric),
                "direction": json.dumps("lower" if r.op == "<=" else "higher"),
                "value": repr(float(r.value)),
                "baseline": _toml_list(presets),
                "baseline_rules": _toml_list([*space.base_rules, *changes]), **common}
            if r.metric == SKILL:
                fields["strategy"] = json.dumps(setup.strategy.label())
            name = f"front-{i}-requires-{r.metric}"
            out[f"{name}.toml"] = _claim_text(name, fields)
    return out


def _claim_text(name: str, fields: dict[str, str]) -> str:
    return "\n".join([f"name = {json.dumps(name)}",
                      *(f"{k} = {v}" for k, v in fields.items())]) + "\n"


def design_html(s: dict[str, Any], svgs: dict[str, str], text: str) -> str:
    """The self-contained page of a design: the recommendation, the front table, the
    chart and the text report."""
    from unosim.reports.html import figure_blocks, page, table_block

    e = html.escape
    p = s["players"]
    goals = ", ".join(f"{'raise' if g['sense'] == 'maximize' else 'lower'} {g['metric']}"
                      for g in s["question"]["objectives"])
    body = [f"<h1>unosim design: {e(s['base'])}, {p} players</h1>",
            f"<p>{e(goals)}"
            + (" · require " + e(", ".join(f"{r['metric']}{r['op']}{r['value']:g}"
                                           for r in s["question"]["require"]))
               if s["question"]["require"] else "")
            + f" · seed {s['seed']}{' · <b>PARTIAL RESULT</b>' if s['partial'] else ''}</p>"]
    if s["recommendation"]:
        body.append(f"<h2>Recommendation</h2><p>{e(s['recommendation'])}</p>")
    metrics = list(s["front"][0]["figures"]) if s["front"] else []
    rows = []
    for f in s["front"]:
        row = [str(f["rank"]), changes_text(f["changes"])]
        for m in metrics:
            x = f["figures"][m]
            row.append(f"{show(m, x['remeasured'], p)} {span(m, x['ci95'], p)}")
        row.append(", ".join(f"{r['require']}: {r['verdict']}" for r in f["requirements"]))
        row.append(f["file"])
        rows.append(row)
    if rows:
        body.append("<h2>Front, re-measured on fresh deals</h2>")
        body.append(table_block(["#", "changes from the base", *metrics, "requirements",
                                 "file"], rows, [f["meets_all"] for f in s["front"]]))
    body += figure_blocks(svgs, {"pareto": "trials (grey), the front on fresh deals with "
                                           "95% intervals, its search-time figures (x) and "
                                           "the base (star)"})
    body.append(f"<h2>Text report</h2><pre>{e(text)}</pre>")
    return page(f"unosim design: {s['base']}", body)


def write_design_files(report: Any, out_dir: Path, text: str) -> list[str]:
    """front-N.toml, design.json, design.csv, pareto.png and .svg and design.html."""
    from unosim.common import write_text_atomic
    from unosim.reports.chart_kit import save_figures
    from unosim.reports.export import csv_rows

    s = report.to_dict()
    names = []
    for name, body in front_files(report).items():
        write_text_atomic(out_dir / name, body)
        names.append(name)
    (out_dir / "claims").mkdir(exist_ok=True)
    for name, body in claim_files(report).items():
        write_text_atomic(out_dir / "claims" / name, body)
        names.append(f"claims/{name}")
    write_text_atomic(out_dir / "design.json", render_json(s) + "\n")
    write_text_atomic(out_dir / "design.csv", csv_rows(report.rows()))
    svgs = save_figures(report.figures(), out_dir)
    write_text_atomic(out_dir / "design.html", design_html(s, svgs, text))
    return [*names, "design.json", "design.csv", *(f"{n}.png" for n in svgs),
            *(f"{n}.svg" for n in svgs), "design.html"]
