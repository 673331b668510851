"""A tuning study's result as one dict (the keys of ``--format json``) and as text
(the study itself, on Optuna, is ``study.py``)."""

from __future__ import annotations

from typing import Any

from unosim import provenance


def summarize(r: Any) -> dict[str, Any]:
    """The result of a tuning study (``study.TuneResult``) as one dict."""
    s = r.setup
    return {
        "provenance": provenance(),
        "strategy": s.strategy,
        "study": r.study_name,
        "storage": r.storage,
        "players": s.table.players,
        "variant": s.variant,
        "rules_changed": {k: str(v) for k, v in s.table.rules.changed().items()},
        "field": s.field_text,
        "mode": s.table.mode,
        "sampler": s.sampler,
        "pruner": f"successive halving (reduction {r.reduction}), rungs "
                  + ", ".join(str(g) for g in r.rungs) + " games",
        "games_per_trial": r.rungs[-1],
        "seed": s.table.seed,
        "space": {k: [lo, hi] for k, (lo, hi, _) in s.space.items()},
        "counts": r.counts,
        "interrupted": r.interrupted,
        "reevaluation": r.reeval,
        "reevaluation_games_from": r.reeval_from,
        "best": r.best,
        "elapsed_s": r.elapsed_s,
        "games_played": r.games_played,
    }


def render(s: dict[str, Any]) -> str:
    from unosim.runs import modes

    c = s["counts"]
    lines = [
        f"unosim tune {s['strategy']} · {s['players']} players · field {s['field']} · "
        f"{'matches' if modes.of(s['mode']).by_rounds else 'rounds'} · variant {s['variant']} · "
        f"seed {s['seed']}",
        f"study {s['study']} in {s['storage']} · sampler {s['sampler']} · pruner {s['pruner']}",
        f"trials: {c['trials']} in the study: {c['complete']} complete, {c['pruned']} pruned, "
        f"{c['skipped']} skipped (parameters already played), {c['failed']} failed"
        + (f", {c['interrupted']} interrupted" if c.get("interrupted") else "")
        + (f", {c['running']} running or left unfinished" if c["running"] else ""),
    ]
    if s["interrupted"]:
        lines.append("interrupted: the finished trials are kept in the study; run the same "
                     "command again to continue it")
    if s["reevaluation"]:
        r0 = s["reevaluation"][0]
        lines.append("")
        lines.append(f"Re-evaluated on fresh deals ({r0['games']:,} games each, game indices "
                     f"from {s['reevaluation_games_from']:,}; fair share "
                     f"{100 * r0['fair_share']:.2f}%):")
        lines.append(f"  {'trial':>8}  {'search':>7}  {'win rate':>8}  {'95% CI':<18} strategy")
        for r in s["reevaluation"]:
            lo, hi = r["win_rate_ci95"]
            sw = "" if r["search_win_rate"] is None else f"{100 * r['search_win_rate']:.2f}%"
            lines.append(f"  {r['trial']!s:>8}  {sw:>7}  {100 * r['win_rate']:7.2f}%  "
                         f"[{100 * lo:.2f}, {100 * hi:.2f}]    {r['strategy']}")
    if s["best"]:
        lines.append("")
        lines.append(f"best: {s['best']}")
    if s["elapsed_s"]:
        lines.append(f"time: {s['elapsed_s']:.1f} s, {s['games_played']:,} games played")
    return "\n".join(lines)
