"""The summary and table of a run of whole matches (``unosim run --mode match``)."""

from __future__ import annotations

import math
from typing import Any

from unosim.reports.feel import feel_figures, feel_lines
from unosim.runs.match import MatchAggregate, MatchResult
from unosim.stats.intervals import hist_quantile, mean_se, wilson
from unosim.stats.numbers import compile_words, plus_minus

SCORING_TEXT = {
    "winner_takes": "the round winner scores the other hands; first to {t} wins",
    "losers_score": "everyone scores their own hand; at {t} the lowest total wins",
    "game101": "everyone scores their own hand; passing {t} ends it, the lowest total wins",
    "lazy": "only round winner and loser are recorded; first to {t} round wins wins",
}
ROTATION_TEXT = {
    "clockwise": "the dealer moves one seat clockwise each round",
    "winner_leads": "the round winner leads the next round",
}


def _metric(agg: MatchAggregate, m: str) -> dict[str, float]:
    mean, se = mean_se(agg.sums[m], agg.sumsq[m], agg.count[m])
    return {"mean": mean, "se": se, "median": hist_quantile(agg.hist[m], 0.5),
            "p90": hist_quantile(agg.hist[m], 0.9), "n": agg.count[m]}


def summarize_matches(res: MatchResult, variant: str) -> dict[str, Any]:
    """The JSON-able summary of a run of matches."""
    agg = res.agg
    n = agg.games
    players = agg.players
    labels = [s.label() for s in res.seats]
    by_strategy = []
    for label in dict.fromkeys(labels):
        who = [p for p in range(players) if labels[p] == label]
        k = int(sum(agg.wins[p] for p in who))
        by_strategy.append({
            "strategy": label,
            "players": who,
            "wins": k,
            "win_share": k / n if n else math.nan,
            "win_share_ci95": list(wilson(k, n)),
            "fair_share": len(who) / players,
        })
    out: dict[str, Any] = {
        "mode": "match",
        "variant": variant,
        "rules": res.rules.as_dict(),
        "rules_changed": res.rules.changed(),
        "scoring": res.rules["scoring"],
        "target_score": res.rules["target_score"],
        "dealer_rotation": res.rules["dealer_rotation"],
        "max_rounds": res.max_rounds,
        "players": players,
        "matches": n,
        "matches_requested": res.requested,
        "partial": res.partial,
        "seed": res.seed,
        "strategies": labels,
        "player_wins": [int(w) for w in agg.wins[:players]],
        "player_win_rate": [agg.wins[p] / n if n else math.nan for p in range(players)],
        "player_win_rate_ci95": [list(wilson(int(agg.wins[p]), n)) for p in range(players)],
        "strategy_wins": by_strategy,
        "player_score_mean": [agg.score_sum[p] / n if n else math.nan for p in range(players)],
        "round_wins_mean": [agg.round_wins[p] / n if n else math.nan for p in range(players)],
        "round_losses_mean": [agg.round_losses[p] / n if n else math.nan
                              for p in range(players)],
        "match_losses": [int(x) for x in agg.losses[:players]],
        "capped": agg.capped,
        "capped_rounds": agg.capped_rounds,
        "tied": agg.tied,
        "workers": res.workers,
        "matches_per_sec": n / res.elapsed_s if res.elapsed_s > 0 else math.nan,
        "elapsed_s": res.elapsed_s,
        "compile_s": res.compile_s,
        "compiled": bool(res.compiled),
    }
    for key, m in (("rounds", "rounds"), ("turns", "turns"), ("winner_score", "winner_score"),
                   ("final_score", "score")):
        for stat, value in _metric(agg, m).items():
            out[f"{key}_{stat}"] = value
    out.update(feel_figures(agg))  # over the rounds the matches played
    return out


def _q(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:,.0f}"


def render_match_table(s: dict[str, Any]) -> str:
    n = s["matches"]
    lines = [
        f"unosim · match · variant {s['variant']} · {s['players']} players · {n:,} matches"
        f" · seed {s['seed']} · {s['workers']} worker{'s' if s['workers'] != 1 else ''}"
    ]
    if s["partial"]:
        lines.append(f"PARTIAL RESULT: interrupted after {n:,} of {s['matches_requested']:,} "
                     "matches")
    lines.append(f"scoring {s['scoring']}: "
                 + SCORING_TEXT[s["scoring"]].format(t=f"{s['target_score']:,}"))
    lines.append(f"dealer rotation {s['dealer_rotation']}: "
                 f"{ROTATION_TEXT[s['dealer_rotation']]}; at most {s['max_rounds']:,} rounds "
                 "a match")
    changed = s["rules_changed"]
    lines.append("rules changed from official: "
                 + (", ".join(f"{k}={v}" for k, v in changed.items()) if changed else "none"))
    lines.append("")
    lines.append("Match win rate by player (95% Wilson interval; player p sits in seat p "
                 "in the first round, player 0 leads it)")
    for p in range(s["players"]):
        lo, hi = s["player_win_rate_ci95"][p]
        rate = 100 * s["player_win_rate"][p]
        lines.append(f"  player {p:<2} {s['strategies'][p]:<16} {rate:6.2f}%"
                     f"   [{100 * lo:.2f}%, {100 * hi:.2f}%]")
    if len(s["strategy_wins"]) > 1:
        lines.append("")
        lines.append("Matches won by strategy (95% Wilson interval; fair share = its seats)")
        for row in s["strategy_wins"]:
            lo, hi = row["win_share_ci95"]
            lines.append(f"  {row['strategy']:<16} x{len(row['players']):<2}"
                         f" {100 * row['win_share']:6.2f}%   [{100 * lo:.2f}%, {100 * hi:.2f}%]"
                         f"   fair {100 * row['fair_share']:.1f}%")
    lines.append("")
    score_word = "round wins" if s["scoring"] == "lazy" else "points"
    lines.append(f"{'Per match':<34}{'mean ± se':>18}{'median':>9}{'p90':>8}")
    for label, key in (("rounds", "rounds"), ("turns", "turns"),
                       (f"winner's final score ({score_word})", "winner_score"),
                       (f"final score, all players ({score_word})", "final_score")):
        lines.append(f"  {label:<32}{plus_minus(s[key + '_mean'], s[key + '_se']):>18}"
                     f"{_q(s[key + '_median']):>9}{_q(s[key + '_p90']):>8}")
    lines.append("")
    lines.append("Per player, mean per match: final score / rounds won / rounds lost "
                 "(most points left in hand)")
    for p in range(s["players"]):
        lines.append(f"  player {p:<2} {s['player_score_mean'][p]:10.2f}"
                     f" {s['round_wins_mean'][p]:8.3f} {s['round_losses_mean'][p]:8.3f}")
    if "feel_rounds" in s:
        lines.append("")
        lines += feel_lines(s)
    lines.append("")
    share = 100 * s["capped"] / n if n else math.nan
    lines.append(f"capped matches (stopped at {s['max_rounds']:,} rounds, no winner): "
                 f"{s['capped']:,} of {n:,} ({share:.3f}%)")
    lines.append(f"rounds stopped at the turn cap (no round winner, nobody scores): "
                 f"{s['capped_rounds']:,}")
    if s["scoring"] in ("losers_score", "game101"):
        lines.append(f"ties for the lowest total, broken at random: {s['tied']:,}")
    lines.append(f"speed: {s['matches_per_sec']:,.0f} matches/s ({s['elapsed_s']:.2f} s;"
                 f" {compile_words(s)} {s['compile_s']:.2f} s)")
    return "\n".join(lines)
