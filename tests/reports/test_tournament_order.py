"""The tournament names the figure that ranks it and says where win rate, net points
and head to head order a pair differently, and whether beyond noise: crafted round
records (known winners, points and hands) folded into the totals, then summarised."""

from __future__ import annotations

import json

import numpy as np
import pytest

from unosim.reports.tournament import (
    Totals,
    TournamentResult,
    add_records,
    render_json,
    render_tournament,
    summarize_tournament,
)
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy

NAMES = ("attacker", "defensive", "random")


def crafted(pattern: list[tuple[int, int, dict[int, int]]], repeat: int, k: int
            ) -> dict:
    """Play ``pattern`` (winner, winner's points, {loser: points left in hand}), by
    strategy, ``repeat`` times in every cyclic rotation of the k strategies."""
    rules = resolve([], [("players", k)])
    lineups = [tuple((s + r) % k for s in range(k)) for r in range(k)]
    t = Totals(k, k)
    for lu in lineups:
        rec = np.zeros((len(pattern) * repeat, L.N_G), np.int32)
        for i, (winner, wp, hands) in enumerate(pattern * repeat):
            rec[i, L.G_WINNER] = lu.index(winner)
            rec[i, L.G_WINNER_POINTS] = wp
            for s, pts in hands.items():
                rec[i, L.G_POINTS + lu.index(s)] = pts
        add_records(t, lu, rec, rules)
    r = TournamentResult(rules, [parse_strategy(n) for n in NAMES[:k]], "rotations", lineups,
                         len(pattern) * repeat, len(pattern) * repeat * k, 1, t)
    return summarize_tournament(r)


def test_the_header_names_the_figure_that_ranks():
    s = crafted([(0, 50, {1: 50})] * 6 + [(1, 10, {0: 10})] * 4, 10, 2)
    assert s["ranked_by"] == "win_rate_vs_fair"
    text = render_tournament(s)
    lines = text.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("rank strategy"))
    assert lines[head - 1] == ("ranked by win rate against fair share (ties by mean rank); "
                               "net points and head to head are shown, not ranked on")


def test_figures_that_agree_say_so():
    """attacker wins more rounds, more points and finishes ahead more often."""
    s = crafted([(0, 50, {1: 50})] * 6 + [(1, 10, {0: 10})] * 4, 10, 2)
    assert s["disagreements"] == []
    assert ("  win rate, net points and head to head order every pair that met the same way"
            in render_tournament(s).splitlines())


def test_a_disagreement_beyond_noise_names_both_figures():
    """attacker wins the most rounds (40%) with cheap ones and keeps a heavy hand when
    it loses; defensive wins 30% for 40 points and finishes ahead of attacker in 60%
    of rounds: first by win rate, behind on net points and head to head."""
    pattern = ([(0, 10, {1: 4, 2: 6})] * 4 + [(1, 40, {0: 30, 2: 10})] * 3
               + [(2, 40, {0: 30, 1: 10})] * 3)
    s = crafted(pattern, 50, 3)
    ranks = {r["strategy"]: r["rank"] for r in s["results"]}
    assert ranks["attacker"] == 1
    first = [d for d in s["disagreements"] if d["above"] == "attacker"]
    assert [d["below"] for d in first] == ["defensive", "random"]
    d = first[0]
    assert d["contrary"] == ["net_points", "head_to_head"] and d["beyond_noise"]
    # win rate: 0.4 - 0.3 a seat; net points: -14 - 7.4; head to head: ahead in 40%
    assert d["win_rate"]["diff"] == pytest.approx(0.1)
    assert d["win_rate"]["beyond_noise"] and not d["win_rate"]["contrary"]
    assert d["net_points"]["diff"] == pytest.approx(-14 - 7.4)
    assert d["net_points"]["ci95"][1] < 0
    assert d["head_to_head"]["ahead"] == pytest.approx(0.4)
    assert d["head_to_head"]["ci95"][1] < 0.5
    line = ("attacker ranks above defensive by win rate (beyond noise), but defensive is "
            "ahead on net points (+21.40 a seat and round, beyond noise) and in head to head "
            "(60.00% of rounds, beyond noise)")
    assert d["line"] == line
    assert f"  {line}" in render_tournament(s).splitlines()
    # the JSON keeps every earlier key and adds these
    out = json.loads(render_json(s))
    assert out["disagreements"][0]["line"] == line
    assert {"results", "head_to_head", "seat_rotation_exact"} <= set(out)


def test_a_disagreement_within_noise_is_one_line_of_pairs():
    """51 rounds to 49 for 10 and 12 points: defensive leads on net points, far inside
    the noise of 100 rounds a lineup."""
    s = crafted([(0, 10, {1: 10})] * 51 + [(1, 12, {0: 12})] * 49, 1, 2)
    (d,) = s["disagreements"]
    assert d["contrary"] == ["net_points"] and not d["beyond_noise"]
    assert not d["win_rate"]["beyond_noise"]
    lines = render_tournament(s).splitlines()
    assert ("  within noise only: attacker / defensive (net points or head to head lean the "
            "other way; the JSON's disagreements give each figure)") in lines
    assert not any(ln.startswith("  attacker ranks above") for ln in lines)


def test_an_old_summary_without_the_new_keys_still_renders():
    s = crafted([(0, 50, {1: 50})] * 6 + [(1, 10, {0: 10})] * 4, 10, 2)
    for key in ("ranked_by", "ranked_by_text", "disagreements"):
        s.pop(key)
    text = render_tournament(s)
    assert "ranked by win rate" in text and "Where the figures disagree" not in text
