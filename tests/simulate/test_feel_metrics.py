"""Game-feel metrics (docs/metrics.md#game-feel): every definition on hand-made distance
sequences, the compiled accumulator against the plain definitions, where the
engine's samples fall (crafted tables), and the engine's record against the
definitions applied to samples watched from Python, under many rules."""

from __future__ import annotations

import random

import numpy as np
import pytest
from scenario import craft, rules

from reference_engine import FEEL_METRICS, feel_metrics
from unosim.runs.game import Game
from unosim.simulate import layout as L
from unosim.simulate.feel_nb import feel_buffered, feel_of_distances
from unosim.simulate.round_nb import record_round
from unosim.simulate.step_nb import score_hands

SCALE = L.FEEL_SCALE


def compiled(samples, winner, seven=0) -> dict:
    out = np.zeros(len(L.FEEL_METRICS), np.int64)
    feel_of_distances(np.array(samples, np.int64), winner, out, seven)
    assert (out >= 0).all(), "feel_value and feel_record disagree"
    return {m: int(v) / (SCALE if m in L.FEEL_FIXED else 1)
            for m, v in zip(L.FEEL_METRICS, out, strict=True)}


def agree(got: dict, want: dict) -> None:
    """Integers exactly, fractions to the fixed-point rounding (half a unit)."""
    for m in FEEL_METRICS:
        tol = 0.5 / SCALE + 1e-12 if m in L.FEEL_FIXED else 0
        assert abs(got[m] - want[m]) <= tol, (m, got[m], want[m])


def both(samples, winner) -> dict:
    py = feel_metrics(samples, winner)
    agree(compiled(samples, winner), py)
    return py


# ------------------------------------------------------------ definitions


def test_lead_changes_ties_change_nothing():
    s = [[7, 7, 7], [6, 7, 7], [6, 6, 7], [6, 6, 5], [5, 6, 5], [4, 6, 5], [0, 6, 5]]
    f = both(s, 0)
    # sole leaders: -, 0, -, 2, -, 0, 0: the first is no change, 0 -> 2 -> 0 are two
    assert f["lead_changes"] == 2
    assert f["winner_max_deficit"] == 1 and f["comeback"] == 0
    assert f["winner_mean_deficit"] == pytest.approx(1 / 7)
    assert f["winner_behind_share"] == pytest.approx(1 / 7)
    assert f["lock_in"] == pytest.approx(1 / 6)  # alone in the lead from t = 5 of T = 6
    assert f["leader_gap"] == pytest.approx((0 + 1 + 0 + 1 + 0 + 1 + 5) / 7)


def test_same_sole_leader_after_a_tie_is_no_change():
    s = [[5, 6], [5, 5], [4, 5], [4, 4], [3, 4], [0, 4]]
    assert both(s, 0)["lead_changes"] == 0


def test_lock_in_one_when_led_alone_from_the_deal():
    f = both([[3, 5, 5], [2, 5, 5], [1, 5, 6], [0, 5, 6]], 0)
    assert f["lock_in"] == 1.0 and f["lead_changes"] == 0
    assert f["winner_max_deficit"] == 0 and f["winner_behind_share"] == 0
    assert f["first_uno_wins"] == 1 and f["rival_on_uno"] == 0
    assert f["leader_gap"] == pytest.approx((2 + 3 + 4 + 5) / 4)


def test_lock_in_zero_when_the_lead_comes_only_by_going_out():
    f = both([[5, 4, 5], [5, 3, 5], [4, 3, 5], [2, 2, 5], [0, 2, 5]], 0)
    assert f["lock_in"] == 0.0
    assert f["lead_changes"] == 1  # 1 leads alone, then 0 at the end


def test_comeback_from_three_behind():
    f = both([[7, 7], [7, 4], [8, 4], [6, 3], [3, 3], [1, 2], [0, 2]], 0)
    assert f["winner_max_deficit"] == 4 and f["comeback"] == 1
    assert f["winner_mean_deficit"] == pytest.approx((0 + 3 + 4 + 3 + 0 + 0 + 0) / 7)
    assert f["winner_behind_share"] == pytest.approx(3 / 7)


def test_first_uno_shared_by_two_players_at_one_sample():
    # a 0 rotation under seven-O hands two players a single card at the same time
    s = [[3, 3, 5], [2, 2, 5], [1, 1, 5], [0, 1, 5]]
    f = both(s, 0)
    assert f["first_uno_wins"] == 1 and f["rival_on_uno"] == 1
    s = [[3, 3, 5], [2, 2, 5], [1, 1, 5], [1, 0, 5]]
    assert both(s, 1)["first_uno_wins"] == 1
    # the winner reached one card later than a rival
    s = [[3, 2, 5], [2, 1, 5], [1, 2, 5], [0, 2, 5]]
    f = both(s, 0)
    assert f["first_uno_wins"] == 0 and f["rival_on_uno"] == 1


def test_tie_for_the_lead_gives_gap_zero():
    f = both([[4, 4, 6], [0, 4, 6]], 0)
    assert f["leader_gap"] == pytest.approx((0 + 4) / 2)


def _won(rng: random.Random, out: list[list[int]], final: list[int]) -> tuple[list[list[int]], int]:
    """``out`` and a last sample: ``final`` with a random winner gone out."""
    w = rng.randrange(len(final))
    last = list(final)
    last[w] = 0
    return out + [last], w


def _agrees_on_both_paths(s: list[list[int]], w: int) -> None:
    want = feel_metrics(s, w)
    agree(compiled(s, w), want)
    agree(compiled(s, w, seven=1), want)  # the general sampling path


def _random_round(rng: random.Random, n: int, length: int) -> tuple[list[list[int]], int]:
    d = [rng.randint(1, 9) for _ in range(n)]
    out = []
    for _ in range(length):
        out.append(list(d))
        q = rng.randrange(n)
        d[q] = max(1, d[q] + rng.choice((-1, -1, -1, 1, 2, 4)))
        if rng.random() < 0.05:
            a, b = rng.sample(range(n), 2)
            d[a], d[b] = d[b], d[a]
    return _won(rng, out, d)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 10])
def test_compiled_matches_the_definitions(n):
    rng = random.Random(n)
    for length in (1, 2, 5, 40, 300, 770, 2000):  # past the buffer: folded in parts
        for _ in range(3):
            _agrees_on_both_paths(*_random_round(rng, n, length))


def _tie_heavy_round(rng: random.Random, n: int, length: int) -> tuple[list[list[int]], int]:
    """Distances of 2 or 3 only, held for runs of samples: long runs of ties for
    the lead and sole leads that come back after them, also across the buffer's
    folds (up to 4 players at 761 samples, keeping room for the padding; layout.FEEL_BUF
    words in all) and the vector loop's steps."""
    out = []
    while len(out) < length:
        d = [rng.choice((2, 3)) for _ in range(n)]
        out.extend(list(d) for _ in range(rng.choice((1, 1, 2, 5, 30, 70))))
    out = out[:length]
    return _won(rng, out, out[-1])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_compiled_matches_the_definitions_through_long_ties(n):
    rng = random.Random(100 + n)
    for length in (63, 64, 65, 127, 128, 129, 200, 759, 760, 761, 762, 767, 768, 769, 1600):
        for _ in range(4):
            _agrees_on_both_paths(*_tie_heavy_round(rng, n, length))


# ------------------------------------------------------------ where samples fall


def buffered(g: Game) -> list[list[int]]:
    """The distance vectors the engine has sampled so far this round (unfolded)."""
    n = g.players
    wps = (n + 3) // 4
    out = []
    for i in range(feel_buffered(g.G)):
        words = g.G[L.OFF_FEEL_BUF + i * wps: L.OFF_FEEL_BUF + (i + 1) * wps]
        out.append([(int(words[q // 4]) >> (16 * (q % 4))) & 0xFFFF for q in range(n)])
    return out


H = {1: ["g7", "y8", "y9"], 2: ["g8", "y9", "y6"], 3: ["b7", "y6"]}


def test_draw_two_cards_are_seen_at_the_next_sample():
    g = craft(hands={0: ["rdraw2", "g1", "g2"], **H}, draw=("b1",) * 24)
    g.apply("rdraw2")  # seat 1 draws 2 and is skipped
    assert buffered(g) == [[3, 3, 3, 2]]
    assert g.actor == 2
    g.apply("draw")
    assert buffered(g) == [[3, 3, 3, 2], [2, 5, 3, 2]]


def test_winning_draw_two_is_sampled_before_its_penalty():
    g = craft(hands={0: ["rdraw2"], **H}, draw=("b1",) * 24)
    g.apply("rdraw2")
    assert g.over and g.winner == 0 and g.hand_size(1) == 5
    assert buffered(g) == [[1, 3, 3, 2], [0, 3, 3, 2]]


def test_seven_o_swap_is_seen_at_the_next_sample():
    g = craft(rules("seven-o"), hands={0: ["r7", "g1", "g2", "g3"], **H})
    g.apply("r7")
    g.apply("target:3")
    g.apply("draw")  # seat 1's turn starts with the hands swapped
    assert buffered(g) == [[4, 3, 3, 2], [2, 3, 3, 3]]


def test_seven_rounds_distance_counts_the_refills_to_come():
    g = craft(rules("seven-rounds"), hands={0: ["r5"], **H}, stages={0: 3},
              draw=("b1",) * 24)
    g.apply("r5")  # stage 3 emptied: draws 2, now at stage 2 (one refill of 1 to come)
    assert g.hand_size(0) == 2
    g.apply("draw")
    # stage 7 seats: 21 cards of refills still to come
    assert buffered(g) == [[1 + 3, 3 + 21, 3 + 21, 2 + 21], [2 + 1, 3 + 21, 3 + 21, 2 + 21]]


def test_elimination_stops_sampling_at_the_first_player_out():
    g = craft(rules("elimination"), hands={0: ["r5"], **H}, draw=("b1",) * 24)
    g.apply("r5")
    assert g.winner == 0 and not g.over
    before = buffered(g)
    assert before == [[1, 3, 3, 2], [0, 3, 3, 2]]
    for _ in range(6):
        if g.over:
            break
        g.step()
    assert buffered(g) == before and int(g.G[L.S_FEEL_N]) == 2


def test_jump_in_sample_leaves_out_the_penalty_waiting_for_the_window():
    g = craft(rules("jump-in", jump_in_order="nearest"),
              hands={0: ["rdraw2", "g1", "g2"], 2: ["rdraw2", "g8", "y9"],
                     1: ["g7", "y8", "y9"], 3: ["b7", "y6"]}, draw=("b1",) * 24)
    g.apply("rdraw2")
    assert g.phase == "jump" and g.actor == 2
    g.apply("rdraw2")  # seat 2 jumps in: its turn's sample has seat 1 still at 3
    assert buffered(g) == [[3, 3, 3, 2], [2, 3, 3, 2]]


# ------------------------------------------------------------ whole rounds


def _watch(g: Game) -> list[list[int]]:
    """Play the round out, sampling from Python: before each move that starts a
    turn (the turn counter moves), and when the winner's last card leaves."""
    seven = g.rules["seven_rounds"]

    def dist() -> list[int]:
        out = []
        for p in range(g.players):
            k = int(g.G[L.OFF_H + p * L.HW + L.HC_STAGE]) if seven else 0
            out.append(g.hand_size(p) + k * (k - 1) // 2)
        return out

    samples = []
    while not g.over:
        if g.G[L.S_TURNS] >= g.rules["turn_cap"]:
            return []
        before, turns, winner = dist(), int(g.G[L.S_TURNS]), g.winner
        g.step()
        if g.G[L.S_TURNS] > turns and winner < 0:
            samples.append(before)
        if winner < 0 and g.winner >= 0:
            last = list(before)
            last[g.winner] = 0
            samples.append(last)
    return samples


RULE_SETS = [
    ((), 4), (("stacking",), 4), (("seven-o",), 4), (("jump-in",), 4), (("seven-rounds",), 3),
    (("elimination",), 5), (("reverse-deflect",), 4), (("skip-deflect",), 4),
    (("swap-on-five",), 3), (("draw-until-playable",), 2), (("ultra",), 6),
    (("seven-o", "jump-in"), 4), (("deflect", "elimination"), 4), (("edition112",), 7),
]


@pytest.mark.parametrize("variants,players", RULE_SETS)
def test_engine_record_matches_samples_watched_from_python(variants, players):
    r = rules(*variants, players=players)
    out = np.zeros((1, L.N_G), np.int32)
    checked = 0
    for game in range(12):
        g = Game(r, seed=3, game_index=game)
        samples = _watch(g)
        record_round(g.G, score_hands(g.G), out, 0)
        if not samples:
            continue
        got = {m: int(out[0, L.G_FEEL + k]) / (SCALE if m in L.FEEL_FIXED else 1)
               for k, m in enumerate(L.FEEL_METRICS)}
        agree(got, feel_metrics(samples, g.winner))
        checked += 1
    assert checked >= 8
