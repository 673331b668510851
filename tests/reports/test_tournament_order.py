"""The tournament names the figure that ranks it and says where win rate, net points
and head to head order a pair differently, and whether beyond noise: crafted round
records (known winners, points and hands) folded into the totals, then summarised."""

from __future__ import annotations

import json

import numpy as np
import pytest

from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy
from unosim.studies.lineups.tournament_summary import (
    TournamentResult,
    render_json,
    render_tournament,
    summarize_tournament,
)
from unosim.studies.lineups.tournament_totals import Totals, add_records

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
    from unosim.studies.lineups.tournament import lineups

    rules = resolve([], [("players", players)])
    table = lineups(1, players, field=True)
    t = Totals(2, players)
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
    """3 strategies at 4 seats, each holding the extra seat in turn, lineups played for
    unequal rounds: the paired figures are per seat over all the rounds, whoever doubles
    up. Seat 0 wins every round: a's paired wins are a's wins over a's seat-rounds minus
    b's over b's (the difference of the win rates per seat), seat for seat the share of
    all the seat pairs a's seat finished ahead, and each standard error that of the
    per-round d_r = R (A_r / N_a - B_r / N_b), computed here round by round."""
    from unosim.studies.lineups.tournament import lineups
    from unosim.studies.lineups.tournament_totals import paired_wins, seat_for_seat

    rules = resolve([], [("players", 4)])
    table = lineups(3, 4)
    t = Totals(3, 4)
    pairs = [(a, b) for a in range(3) for b in range(3) if a != b]
    per_round = {p: [] for p in pairs}  # (A_r, B_r, a's seats, b's seats, H_r)
    for g, lu in enumerate(table):
        rounds = 10 + g  # unequal rounds per lineup: pooled over seat-rounds
        rec = np.zeros((rounds, L.N_G), np.int32)
        rec[:, L.G_WINNER] = 0
        rec[:, L.G_WINNER_POINTS] = 30
        rec[:, L.G_POINTS + 1 : L.G_POINTS + 4] = [5, 10, 20]  # ranks 1, 2, 3, 4 by seat
        add_records(t, lu, rec, rules)
        for (a, b) in pairs:
            sa = [i for i, x in enumerate(lu) if x == a]
            sb = [i for i, x in enumerate(lu) if x == b]
            h = sum(2 * (i < j) for i in sa for j in sb)
            per_round[a, b] += [(0 in sa, 0 in sb, len(sa), len(sb), h)] * rounds
    for a, b in pairs:
        x = np.array(per_round[a, b], float)
        r = len(x)
        na, nb = x[:, 2].sum(), x[:, 3].sum()
        d = r * (x[:, 0] / na - x[:, 1] / nb)
        mean, se, n = paired_wins(t, a, b)
        assert n == r
        assert mean == pytest.approx(x[:, 0].sum() / na - x[:, 1].sum() / nb, abs=1e-12)
        assert mean == pytest.approx(d.mean(), abs=1e-12)
        assert se == pytest.approx(d.std(ddof=1) / np.sqrt(r), rel=1e-9)
        share = x[:, 4].sum() / (2 * (x[:, 2] * x[:, 3]).sum())
        d = r * x[:, 4] / (2 * (x[:, 2] * x[:, 3]).sum())
        assert seat_for_seat(t, a, b) == pytest.approx((share, d.std(ddof=1) / np.sqrt(r)),
                                                       abs=1e-12)


def test_totals_merge_the_same_in_any_order():
    """Totals of lineups of different shapes (who holds two seats changes) merged in
    either order hold the same integers and give the same paired figures, to the bit."""
    from unosim.studies.lineups.tournament_totals import paired_points, paired_wins, seat_for_seat

    rules = resolve([], [("players", 4)])
    rng = np.random.default_rng(5)
    parts = []
    for lu in [(0, 1, 2, 0), (1, 2, 0, 1), (2, 0, 1, 2), (0, 1, 2, 2)]:
        rec = np.zeros((40, L.N_G), np.int32)
        rec[:, L.G_WINNER] = rng.integers(0, 4, 40)
        rec[:, L.G_WINNER_POINTS] = rng.integers(1, 200, 40)
        rec[:, L.G_POINTS : L.G_POINTS + 4] = rng.integers(0, 60, (40, 4))
        rec[::7, L.G_CAPPED] = 1
        part = Totals(3, 4)
        add_records(part, lu, rec, rules)
        parts.append(part)
    one, two = Totals(3, 4), Totals(3, 4)
    for p in parts:
        one.merge(p)
    for p in reversed(parts):
        two.merge(p)
    def figures(t: Totals, a: int, b: int) -> list:
        return [paired_points(t, "net_points", a, b), paired_points(t, "points_won", a, b),
                paired_wins(t, a, b), seat_for_seat(t, a, b)]

    for a, b in [(0, 1), (1, 0), (0, 2), (2, 1)]:
        assert figures(one, a, b) == figures(two, a, b)
        assert not any(np.isnan(x) for f in figures(one, a, b) for x in f)
    assert (one.pair_cross["net_points"] == one.pair_cross["net_points"].T).all()


def test_paired_points_over_lineups_of_different_shapes_match_a_direct_computation():
    """2 strategies at 3 seats (A B A, B A B), random winners, points and capped rounds
    under winner-takes scoring: paired net points and points won are a's points over
    its uncapped seat-rounds minus b's, the difference of the two means the report
    shows, and the standard error that of d_r = R (A_r / N_a - B_r / N_b), computed
    here round by round from the records."""
    from unosim.studies.lineups.tournament_totals import paired_points

    rules = resolve([], [("players", 3)])
    assert rules["scoring"] == "winner_takes"
    rng = np.random.default_rng(11)
    t = Totals(2, 3)
    rows = {"net_points": [], "points_won": []}  # (A_r, B_r, a's seats, b's seats)
    lineups = [(0, 1, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 0)]
    for g, lu in enumerate(lineups):
        m = 30 + 7 * g
        rec = np.zeros((m, L.N_G), np.int32)
        rec[:, L.G_WINNER] = rng.integers(0, 3, m)
        rec[:, L.G_WINNER_POINTS] = rng.integers(1, 300, m)
        rec[:, L.G_POINTS : L.G_POINTS + 3] = rng.integers(0, 80, (m, 3))
        rec[rng.random(m) < 0.1, L.G_CAPPED] = 1
        add_records(t, lu, rec, rules)
        for i in range(m):
            if rec[i, L.G_CAPPED]:
                continue
            won = [rec[i, L.G_WINNER] == s for s in range(3)]
            got = [int(rec[i, L.G_WINNER_POINTS]) * w for w in won]
            net = [got[s] - (0 if won[s] else int(rec[i, L.G_POINTS + s])) for s in range(3)]
            for key, v in (("net_points", net), ("points_won", got)):
                rows[key].append((sum(v[s] for s in range(3) if lu[s] == 0),
                                  sum(v[s] for s in range(3) if lu[s] == 1),
                                  lu.count(0), lu.count(1)))
    r = TournamentResult(rules, [parse_strategy("attacker"), parse_strategy("random")],
                         "rotations", lineups, 30, 30 * len(lineups), 1, t)
    means = {row["strategy"]: row for row in summarize_tournament(r)["results"]}
    for key, got in rows.items():
        x = np.array(got, float)
        n = len(x)
        na, nb = x[:, 2].sum(), x[:, 3].sum()
        d = n * (x[:, 0] / na - x[:, 1] / nb)
        mean, se, rounds = paired_points(t, key, 0, 1)
        assert rounds == n and mean == pytest.approx(d.mean(), abs=1e-12)
        assert se == pytest.approx(d.std(ddof=1) / np.sqrt(n), rel=1e-9)
        want = means["attacker"][f"{key}_mean"] - means["random"][f"{key}_mean"]
        assert mean == pytest.approx(want, abs=1e-12)
        back, back_se, _ = paired_points(t, key, 1, 0)
        assert back == pytest.approx(-mean, abs=1e-12) and back_se == pytest.approx(se)
