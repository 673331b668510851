"""The design's report: the front re-measured on fresh deals (rule changes from the
base, each objective with its 95% interval, the paired difference from the base,
each requirement's verdict), the search-time figures beside the re-measured ones
(the shrinkage), the recommendation and the command that reproduces it; its JSON,
text, tidy frame and Pareto chart."""

from __future__ import annotations

import math
from typing import Any

from unosim import provenance
from unosim.reports.render import render_json
from unosim.reports.report_base import Report, tidy_row
from unosim.studies.design.objectives import SKILL, TRUE, is_rate

# ---------------------------------------------------------------- numbers


def show(metric: str, x: float | None, players: int, signed: bool = False) -> str:
    """A figure as a table reads it: rates in percent, the skill edge to 3 places."""
    if x is None or not math.isfinite(x):
        return "n/a"
    sign = "+" if signed else ""
    if is_rate(metric, players):
        return f"{100 * x:{sign}.1f}%"
    if metric == SKILL:
        return f"{x:{sign}.3f}"
    return f"{x:{sign}.2f}" if abs(x) < 10 else f"{x:{sign}.1f}"


def span(metric: str, ci: list[float], players: int) -> str:
    return f"[{show(metric, ci[0], players)}, {show(metric, ci[1], players)}]"


def changes_text(changes: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in changes.items()) or "no change (the base)"


# ---------------------------------------------------------------- the summary


def summarize(r: Any) -> dict[str, Any]:
    """The JSON-able summary of a design (``--format json``)."""
    from unosim.studies.design.plan import REMEASURE_START, SECOND, population

    s = r.setup
    q, space = s.question, s.space
    p = space.players
    front = []
    for i, c in enumerate(r.front, 1):
        figs = {}
        for m in q.metrics:
            re_ = c.remeasured[m]
            figs[m] = {"first_pass": c.search[m]["mean"], "search": c.second[m]["mean"],
                       "remeasured": re_["mean"], "ci95": re_["ci95"], "se": re_["se"],
                       "diff": re_["diff"]["mean"], "diff_ci95": re_["diff"]["ci95"],
                       "base": r.base["remeasured"][m]["mean"]}
            lo, hi = re_["ci95"]
            figs[m]["search_inside_ci95"] = bool(lo <= figs[m]["search"] <= hi)
        reqs = [{"require": rq.text, "verdict": rq.verdict(*c.remeasured[rq.metric]["ci95"]),
                 "margin": rq.margin} for rq in q.requirements]
        front.append({"rank": i, "trial": c.trial, "changes": c.changes,
                      "variant": variant_text(space.base_label, c.changes),
                      "figures": figs, "requirements": reqs,
                      "meets_all": all(x["verdict"] == TRUE for x in reqs),
                      "file": f"front-{i}.toml"})
    second_feasible = any(_feasible(q, c.second) for c in r.second)
    out = {
        "provenance": provenance(),
        "question": q.to_dict(),
        "base": space.base_label,
        "players": p,
        "keys": {k: list(v) for k, v in space.keys.items()},
        "left_out": space.dropped,
        "space_size": space.size,
        "strategy": s.strategy.label() if q.needs_skill else None,
        "seed": s.seed,
        "sampler": f"NSGA-II (population {population(r.trials)})",
        "games_first_pass": s.games,
        "games_second_pass": SECOND * s.games,
        "second_pass_candidates": len(r.second),
        "games_remeasured": SECOND * s.games,
        "remeasured_from": REMEASURE_START,
        "trials_requested": r.trials,
        "counts": r.counts,
        "refused": r.refused,
        "partial": bool(r.interrupted),
        "feasible_found": bool(second_feasible or not q.requirements),
        "base_figures": {m: {"search": r.base["second"][m]["mean"],
                             "remeasured": r.base["remeasured"][m]["mean"],
                             "ci95": r.base["remeasured"][m]["ci95"]}
                         for m in q.metrics} if r.front else {},
        "front": front,
        "shrinkage": shrinkage(q, front),
        "command_line": s.command_line,
        "elapsed_s": r.elapsed_s,
        "games_played": r.games_played,
        "trials": r.history,
    }
    out["recommendation"] = recommend(out) if front else ""
    return out


def _feasible(q: Any, figures: dict[str, Any]) -> bool:
    return all(rq.violation(figures[rq.metric]["mean"]) <= 0 for rq in q.requirements)


def variant_text(base: str, changes: dict[str, str]) -> str:
    return f"{base} + {changes_text(changes)}" if changes else base


def shrinkage(q: Any, front: list[dict[str, Any]]) -> dict[str, Any]:
    """How the front's search-time figures (the second pass, on which it was chosen)
    fare on fresh deals: how many lie outside the re-measured 95% interval (about 5%
    by chance alone), and each objective's mean move, positive when the fresh figure
    is worse than the search said (the winner's curse)."""
    n = out = 0
    moves: dict[str, float] = {}
    for g in q.goals:
        sign = -1 if g.sense == "maximize" else 1
        d = [sign * (f["figures"][g.metric]["remeasured"] - f["figures"][g.metric]["search"])
             for f in front]
        moves[g.metric] = sum(d) / len(d) if d else math.nan
    for f in front:
        for fig in f["figures"].values():
            n += 1
            out += not fig["search_inside_ci95"]
    return {"figures": n, "outside_ci95": out, "expected_outside": 0.05 * n,
            "mean_move_worse": moves}


def gains(s: dict[str, Any], f: dict[str, Any]) -> list[float]:
    """Each objective's change from the base on fresh deals, relative to the base's
    figure and signed so that a gain is positive (rounds 10% shorter: +0.1)."""
    out = []
    for g in s["question"]["objectives"]:
        x = f["figures"][g["metric"]]
        base = x["base"]
        d = (x["remeasured"] - base) / abs(base) if base else x["remeasured"] - base
        out.append(d if g["sense"] == "maximize" else -d)
    return out


def pick(s: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The member to recommend and why. Among the members that change something and
    meet every requirement (else those with no FALSE, else all): one that gains on
    every objective over the base, the most even such gain (its worst objective's
    relative gain highest); else the best trade, the highest sum of relative gains;
    None (keep the base) when no trade gains in sum."""
    front = [f for f in s["front"] if f["changes"]]
    pool = ([f for f in front if f["meets_all"]]
            or [f for f in front if all(x["verdict"] != "FALSE" for x in f["requirements"])]
            or front)
    better = [f for f in pool if min(gains(s, f)) > 0]
    if better:
        return max(better, key=lambda f: (min(gains(s, f)), -len(f["changes"]))), "all"
    trades = [f for f in pool if sum(gains(s, f)) > 0]
    if trades:
        return max(trades, key=lambda f: (sum(gains(s, f)), -len(f["changes"]))), "trade"
    return None, "none"


def recommend(s: dict[str, Any]) -> str:
    """One paragraph a table can use, with the command that reproduces it."""
    p = s["players"]
    f, why = pick(s)
    if f is None:
        return (f"Keep {s['base']}: no variant on the front gains over it in sum on fresh "
                f"deals. Reproduce: {s['command_line']}")
    figs = []
    for g in s["question"]["objectives"]:
        m = g["metric"]
        x = f["figures"][m]
        figs.append(f"{m} {show(m, x['remeasured'], p)} {span(m, x['ci95'], p)} instead of "
                    f"{show(m, x['base'], p)}")
    text = ("" if why == "all" else
            "No variant on the front gains on every objective on fresh deals; the best "
            "trade: ")
    text += f"play {s['base']} with {changes_text(f['changes'])}: " + "; ".join(figs) + "."
    text = text[0].upper() + text[1:]
    if f["requirements"]:
        met = [f"{x['require']} {x['verdict']}" for x in f["requirements"]]
        text += " Requirements: " + ", ".join(met) + "."
    if not s["feasible_found"]:
        text += (" No candidate met the requirements on the search's figures; this is "
                 "among the closest.")
    elif not f["meets_all"]:
        text += (" No variant on the front meets every requirement beyond its margin on "
                 "fresh deals.")
    text += (f" Measured on {s['games_remeasured']:,} fresh games at {p} players. Rules in "
             f"{f['file']} (unosim --variant {f['file']}); reproduce: {s['command_line']}")
    return text


# ---------------------------------------------------------------- the text


def render(s: dict[str, Any]) -> str:
    """The human report of ``unosim design``."""
    p = s["players"]
    q = s["question"]
    goals = ", ".join(f"{'raise' if g['sense'] == 'maximize' else 'lower'} {g['metric']}"
                      for g in q["objectives"])
    reqs = ", ".join(f"{r['metric']}{r['op']}{r['value']:g}" for r in q["require"])
    c = s["counts"]
    lines = [
        f"unosim design · {s['base']} · {p} players · {goals}"
        + (f" · require {reqs}" if reqs else "") + f" · seed {s['seed']}",
        f"space: {len(s['keys'])} keys, {s['space_size']:,} combinations · {s['sampler']} · "
        f"{c['trials']} trials: {c['played']} played ({s['games_first_pass']:,} games each), "
        f"{c['repeat']} repeats, {c['refused']} refused by the rules"
        + (f", {c['undefined']} without a figure" if c["undefined"] else "")
        + (f" (and {c['interrupted']} more cut short by a stop, not counted)"
           if c["interrupted"] else ""),
    ]
    if s["left_out"]:
        lines.append("left out (the base alone refuses them): " + ", ".join(s["left_out"]))
    if s["refused"]:
        top = sorted(s["refused"].items(), key=lambda kv: -kv[1])[:3]
        lines.append("refused: " + "; ".join(f"{n} x {why}" for why, n in top))
    if s["partial"]:
        lines.append("PARTIAL: stopped; the trials so far are kept"
                     + ("" if s["front"] else ", and no front was measured yet"))
    if not s["front"]:
        if s["trials"]:
            lines += ["", "Trials so far (first pass):"]
            lines += [f"  trial {t['trial']:>4}  {changes_text(t['changes'])}"
                      for t in s["trials"][-5:]]
        return "\n".join(lines)
    metrics = [g["metric"] for g in q["objectives"]] + [
        r["metric"] for r in q["require"]
        if r["metric"] not in [g["metric"] for g in q["objectives"]]]
    n = len(s["front"])
    lines += ["", f"Front: {n} variant{'s' * (n != 1)}, re-measured on {s['games_remeasured']:,} "
                  f"fresh games each (95% intervals; base {s['base']} on the same deals)"]
    if not s["feasible_found"]:
        lines.append("No candidate met the requirements on the search's figures: the "
                     "front shows the closest.")
    base = s["base_figures"]
    lines.append("  " + "  ".join(f"{m}: base {show(m, base[m]['remeasured'], p)} "
                                  f"{span(m, base[m]['ci95'], p)}" for m in metrics))
    for f in s["front"]:
        lines.append(f"  {f['rank']}. {changes_text(f['changes'])}  ({f['file']})")
        for m in metrics:
            x = f["figures"][m]
            lines.append(f"       {m:<16} {show(m, x['remeasured'], p):>8} "
                         f"{span(m, x['ci95'], p):<20} vs base "
                         f"{show(m, x['diff'], p, True):>8} {span(m, x['diff_ci95'], p):<20} "
                         f"search {show(m, x['search'], p)}")
        for r in f["requirements"]:
            lines.append(f"       {r['require']}: {r['verdict']}")
    sh = s["shrinkage"]
    moves = ", ".join(f"{m} {show(m, v, p, True)}" for m, v in sh["mean_move_worse"].items())
    lines += ["", f"Search-time vs fresh deals: {sh['outside_ci95']} of {sh['figures']} "
                  f"search figures lie outside their re-measured 95% interval (about "
                  f"{sh['expected_outside']:.1f} by chance alone); mean move towards worse: "
                  f"{moves}",
              "", "Recommendation: " + s["recommendation"]]
    lines.append(f"time: {s['elapsed_s']:.1f} s, {s['games_played']:,} games played")
    return "\n".join(lines)


# ---------------------------------------------------------------- the chart


def pareto_figure(s: dict[str, Any]) -> Any:
    """Every trial's first-pass figures, the front re-measured with 95% intervals and
    the base: the first two objectives (one objective: against the trial number)."""
    from unosim.reports.chart_kit import PALETTE, new_figure

    p = s["players"]
    goals = s["question"]["objectives"]
    mx = goals[0]["metric"]
    my = goals[1]["metric"] if len(goals) > 1 else None
    scale = {m: 100.0 if is_rate(m, p) else 1.0 for m in (mx, my) if m}
    fig, (ax,) = new_figure(7.5, 5.2)
    reqs = s["question"]["require"]

    def meets(t: dict[str, Any]) -> bool:
        return all(t["figures"][r["metric"]][0] <= r["value"] if r["op"] == "<="
                   else t["figures"][r["metric"]][0] >= r["value"] for r in reqs)

    for ok in (True, False):
        ts = [t for t in s["trials"] if meets(t) == ok]
        if not ts:
            continue
        xs = [t["figures"][mx][0] * scale[mx] for t in ts]
        ys = ([t["figures"][my][0] * scale[my] for t in ts] if my else [t["trial"] for t in ts])
        ax.plot(xs, ys, "o", markersize=3.5, color="#b0b0b0",
                markerfacecolor="#b0b0b0" if ok else "none",
                label="trial (first pass)" if ok else "trial missing a requirement")
    spanx = [t["figures"][mx][0] for t in s["trials"] if t["figures"][mx][0] > 0]
    if spanx and max(spanx) > 8 * min(spanx):
        from matplotlib.ticker import ScalarFormatter

        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(ScalarFormatter())
    for i, f in enumerate(s["front"]):
        fx = f["figures"][mx]
        x = fx["remeasured"] * scale[mx]
        xerr = [[x - fx["ci95"][0] * scale[mx]], [fx["ci95"][1] * scale[mx] - x]]
        if my:
            fy = f["figures"][my]
            y = fy["remeasured"] * scale[my]
            yerr = [[y - fy["ci95"][0] * scale[my]], [fy["ci95"][1] * scale[my] - y]]
        else:
            y, yerr = f["trial"], None
        ax.errorbar([x], [y], xerr=xerr, yerr=yerr, fmt="o", capsize=3,
                    color=PALETTE[i % len(PALETTE)],
                    label=_short(f"{f['rank']}. {changes_text(f['changes'])}"))
        if my:
            ax.plot([fx["search"] * scale[mx]], [f["figures"][my]["search"] * scale[my]],
                    "x", color=PALETTE[i % len(PALETTE)], alpha=0.7)
    if s["base_figures"]:
        b = s["base_figures"]
        ax.plot([b[mx]["remeasured"] * scale[mx]],
                [b[my]["remeasured"] * scale[my]] if my else [0], "*", color="black",
                markersize=12, label=f"base: {s['base']}")

    def label(m: str) -> str:
        better = "higher" if _sense(goals, m) == "maximize" else "lower"
        return f"{m}{', %' if scale[m] == 100 else ''} ({better} is better)"

    ax.set_xlabel(label(mx))
    ax.set_ylabel(label(my) if my else "trial")
    ax.set_title(f"Design front: {s['base']}, {p} players (x: search-time figure, "
                 "dot: fresh deals)", fontsize=10)
    ax.legend(fontsize=7, loc="best")
    return fig


def _short(text: str, most: int = 64) -> str:
    return text if len(text) <= most else text[:most - 3] + "..."


def _sense(goals: list[dict[str, Any]], m: str) -> str:
    return next(g["sense"] for g in goals if g["metric"] == m)


# ---------------------------------------------------------------- the object


class DesignReport(Report):
    """``unosim design``: the front of house rules for the question, re-measured on
    fresh deals. ``result`` is the :class:`~unosim.studies.design.play.DesignResult`,
    ``study`` the Optuna study (``study.trials_dataframe()``, Optuna's
    ``plot_pareto_front``). Each row of :meth:`to_frame` is one figure of a front
    member (``value``) or its paired difference from the base (``diff``)."""

    command = "design"

    def __init__(self, result: Any, study: Any = None) -> None:
        self.result = result
        self.study = study
        self._summary = summarize(result)

    def to_dict(self) -> dict[str, Any]:
        return self._summary

    def to_json(self) -> str:
        return render_json(self._summary)

    def summary(self) -> str:
        return render(self._summary)

    def rows(self) -> list[dict[str, Any]]:
        s = self._summary
        out = []
        for f in s["front"]:
            for m, x in f["figures"].items():
                common = {"variant": f["variant"], "players": s["players"], "metric": m,
                          "games": s["games_remeasured"], "rank": f["rank"],
                          "trial": f["trial"], "file": f["file"]}
                out.append(tidy_row(**common, statistic="value", estimate=x["remeasured"],
                                    ci_low=x["ci95"][0], ci_high=x["ci95"][1],
                                    search=x["search"]))
                out.append(tidy_row(**common, statistic="diff", estimate=x["diff"],
                                    ci_low=x["diff_ci95"][0], ci_high=x["diff_ci95"][1],
                                    search=None))
        return out

    def figures(self) -> dict[str, Any]:
        return {"pareto": pareto_figure(self._summary)} if self._summary["front"] else {}

    @property
    def partial(self) -> bool:
        return bool(self.result.interrupted)
