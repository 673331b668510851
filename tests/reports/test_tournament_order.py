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


# ------------------------------------------------- several seats: like with like


def fielded(x_wins: int, x_hand: int, rounds: int = 100, players: int = 6) -> dict:
    """``attacker`` in one seat against a field of ``random`` in the other five, its seat
    rotated through all six (the lineups of ``--field``): it wins ``x_wins`` of every
    ``rounds`` rounds; in the others the field's next seat wins and attacker keeps
    ``x_hand`` points in hand, the field's losing seats 5, 10, 15 and 20."""
    from unosim.studies.tournament import lineups

    rules = resolve([], [("players", players)])
    table = lineups(1, players, field=True)
    t = Totals(2, players, table)
    for lu in table:
        x = lu.index(0)
        rec = np.zeros((rounds, L.N_G), np.int32)
        for i in range(rounds):
            if i < x_wins:
                winner, hands = x, {s: 5 * (j + 1) for j, s in enumerate(
                    s for s in range(players) if s != x)}
            else:
                winner = (x + 1) % players
                others = [s for s in range(players) if s not in (x, winner)]
                hands = {x: x_hand, **{s: 5 * (j + 1) for j, s in enumerate(others)}}
            rec[i, L.G_WINNER] = winner
            rec[i, L.G_WINNER_POINTS] = 50
            for s, pts in hands.items():
                rec[i, L.G_POINTS + s] = pts
        add_records(t, lu, rec, rules)
    r = TournamentResult(rules, [parse_strategy("attacker"), parse_strategy("random")],
                         "rotations", table, rounds, rounds * len(table), 1, t,
                         field=parse_strategy("random"))
    return summarize_tournament(r)


def test_a_field_pooled_in_five_seats_is_no_disagreement():
    """attacker wins 20% of rounds (fair 1/6) and, when it loses, finishes second with
    2 points in hand. The field's best seat is ahead of it in the 80% it does not win
    (the table's head to head), but seat for seat attacker is ahead of 84% of the
    field's seats: no figure puts the field ahead, so nothing disagrees."""
    s = fielded(x_wins=20, x_hand=2)
    rows = {r["strategy"]: r for r in s["results"]}
    assert rows["attacker"]["rank"] == 1
    assert s["head_to_head"]["field: random"]["attacker"]["ahead"] == pytest.approx(0.8)
    assert s["disagreements"] == []
    text = render_tournament(s)
    assert "win rate, net points and head to head order every pair that met" in text
    assert ("  (an entrant in several seats counts as ahead when its best-placed seat is; "
            "where the figures disagree, head to head is seat for seat)") in text.splitlines()


def test_a_real_disagreement_with_a_field_is_seat_for_seat():
    """attacker wins 20% of rounds but, when it loses, holds the heaviest hand (99):
    every field seat finishes ahead of it then, so seat for seat attacker is ahead of
    20% of the field's seats, a real disagreement, said per seat."""
    s = fielded(x_wins=20, x_hand=99)
    (d,) = s["disagreements"]
    assert (d["above"], d["below"]) == ("attacker", "field: random")
    assert d["head_to_head"]["ahead"] == pytest.approx(0.2)
    assert d["head_to_head"]["seat_for_seat"] and d["beyond_noise"]
    assert d["win_rate"]["diff"] == pytest.approx(0.2 - 0.8 / 5)
    assert "in head to head seat for seat (80.00% of seat pairs, beyond noise)" in d["line"]


def test_one_seat_each_keeps_the_tables_head_to_head():
    """With one seat each, seat for seat is the table's head to head to the last digit,
    and the disagreement does not say "seat for seat"."""

    pattern = ([(0, 10, {1: 4, 2: 6})] * 4 + [(1, 40, {0: 30, 2: 10})] * 3
               + [(2, 40, {0: 30, 1: 10})] * 3)
    s = crafted(pattern, 50, 3)
    d = next(d for d in s["disagreements"] if d["below"] == "defensive")
    assert "seat_for_seat" not in d["head_to_head"]
    assert d["head_to_head"]["ahead"] == s["head_to_head"]["attacker"]["defensive"]["ahead"]


def test_fewer_strategies_than_seats_pair_per_seat_across_lineups():
    """3 strategies at 4 seats, each holding the extra seat in turn: the paired figures
    are per seat in every lineup, on one denominator, whoever doubles up. Seat 0 wins
    every round: each strategy wins per seat what its seats win, and the paired
    difference is the mean over rounds of a's wins / a's seats - b's / b's seats."""
    from unosim.reports.tournament import paired_wins, seat_for_seat
    from unosim.studies.tournament import lineups

    rules = resolve([], [("players", 4)])
    table = lineups(3, 4)
    t = Totals(3, 4, table)
    expected = {(a, b): [] for a in range(3) for b in range(3) if a != b}
    ahead = {(a, b): [] for a in range(3) for b in range(3) if a != b}
    for g, lu in enumerate(table):
        rounds = 10 + g  # unequal rounds per lineup: a mean over rounds, not lineups
        rec = np.zeros((rounds, L.N_G), np.int32)
        rec[:, L.G_WINNER] = 0
        rec[:, L.G_WINNER_POINTS] = 30
        rec[:, L.G_POINTS + 1 : L.G_POINTS + 4] = [5, 10, 20]  # ranks 1, 2, 3, 4 by seat
        add_records(t, lu, rec, rules)
        for (a, b) in expected:
            sa = [i for i, x in enumerate(lu) if x == a]
            sb = [i for i, x in enumerate(lu) if x == b]
            expected[a, b] += [(0 in sa) / len(sa) - (0 in sb) / len(sb)] * rounds
            share = sum((i < j) for i in sa for j in sb) / (len(sa) * len(sb))
            ahead[a, b] += [share] * rounds
    assert set(map(int, t.pair_den[~np.eye(3, dtype=bool)])) == {2}
    for a, b in expected:
        mean, _, n = paired_wins(t, a, b)
        assert n == len(expected[a, b])
        assert mean == pytest.approx(np.mean(expected[a, b]), abs=1e-12)
        assert seat_for_seat(t, a, b)[0] == pytest.approx(np.mean(ahead[a, b]), abs=1e-12)


def test_totals_without_their_table_refuse_a_lineup_of_another_shape():
    """Totals fixed by one lineup's seats cannot take a lineup whose seats give a
    denominator that does not divide it: a clear error, not a wrong mean."""
    rules = resolve([], [("players", 4)])
    t = Totals(3, 4)
    rec = np.zeros((2, L.N_G), np.int32)
    add_records(t, (0, 1, 2, 2), rec, rules)  # 0 and 1 hold one seat each: 1
    with pytest.raises(ValueError, match="give Totals its table"):
        add_records(t, (0, 0, 1, 2), rec, rules)  # 0 and 1 now 2 x 1
