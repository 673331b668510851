"""``unosim ladder``: the fit pinned on hand-made results, its intervals, and the
command and the API end to end on tiny ladders."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from cli_helpers import assert_one_line_error, invoke

from unosim import api
from unosim.studies.ladder import fit as F

LN3 = math.log(3)


def test_a_75_25_pair_is_ln3_apart_and_its_error_is_the_binomial_one():
    seats = np.array([[1, 1]])
    f = F.fit(seats, np.array([[75, 25]]), np.array([100]), anchor=1)
    assert f.theta[1] == 0
    assert f.theta[0] == pytest.approx(LN3, abs=1e-9)
    # the Fisher error of a log-odds from 100 games at 75%: 1 / sqrt(n p (1 - p))
    assert f.se_model[0] == pytest.approx(1 / math.sqrt(100 * 0.75 * 0.25), rel=1e-6)
    assert F.ELO * f.theta[0] == pytest.approx(190.85, abs=0.01)


def test_three_transitive_pairs_give_the_sum_of_their_gaps():
    # a beats b 75%, b beats c 75%, a beats c 90% (odds 9 = 3 x 3): an exact BT solution
    seats = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]])
    wins = np.array([[75, 25, 0], [0, 75, 25], [90, 0, 10]])
    f = F.fit(seats, wins, np.array([100, 100, 100]), anchor=2)
    assert f.theta == pytest.approx([2 * LN3, LN3, 0], abs=1e-9)
    mean0 = F.fit(seats, wins, np.array([100, 100, 100]), anchor=None)
    assert mean0.theta == pytest.approx([LN3, 0, -LN3], abs=1e-9)


def test_against_three_seats_of_a_field_half_the_wins_is_ln3():
    # Luce's rule with seats: e^t / (e^t + 3) = 1/2 at t = ln 3; level with the field: 1/4
    f = F.fit(np.array([[1, 3]]), np.array([[50, 50]]), np.array([100]), anchor=1)
    assert f.theta[0] == pytest.approx(LN3, abs=1e-9)
    f = F.fit(np.array([[1, 3]]), np.array([[25, 75]]), np.array([100]), anchor=1)
    assert f.theta[0] == pytest.approx(0, abs=1e-9)


def test_a_pair_won_every_time_stays_finite():
    f = F.fit(np.array([[1, 1]]), np.array([[10, 0]]), np.array([10]), anchor=1)
    assert math.isfinite(f.theta[0]) and f.theta[0] > 5


def _blocks(games_per_block: int, blocks: int, seed: int) -> tuple[np.ndarray, ...]:
    """Blocks of a three-strategy round robin drawn from known strengths (0, 0.5, 1)."""
    rng = np.random.default_rng(seed)
    seats = np.array([[1, 1, 0], [1, 0, 1], [0, 1, 1]])
    theta = np.array([0.0, 0.5, 1.0])
    wins = np.zeros((blocks, 3, 3), np.int64)
    for li in range(3):
        a, b = np.flatnonzero(seats[li])
        p = 1 / (1 + math.exp(theta[b] - theta[a]))
        w = rng.binomial(games_per_block, p, blocks)
        wins[:, li, a], wins[:, li, b] = w, games_per_block - w
    return seats, wins, np.full((blocks, 3), games_per_block)


def test_intervals_shrink_with_games_and_cover_the_truth():
    """16 times the games per block: the bootstrap interval is about 4 times narrower
    (the ratio of widths is within 2.5..6.5 with 400 replicates on 30 blocks)."""
    widths = []
    for per in (50, 800):
        seats, wins, rounds = _blocks(per, 30, seed=per)
        f = F.fit(seats, wins.sum(0), rounds.sum(0), anchor=0)
        ci = F.intervals(f.theta, F.bootstrap(seats, wins, rounds, 0, seed=1))
        assert ci[0] == pytest.approx([0, 0])
        assert ci[2, 0] < 1.0 < ci[2, 1] or per == 50 and abs(f.theta[2] - 1) < 0.5
        widths.append(ci[2, 1] - ci[2, 0])
    assert 2.5 < widths[0] / widths[1] < 6.5


def test_the_bootstrap_is_seeded():
    seats, wins, rounds = _blocks(40, 10, seed=3)
    a = F.bootstrap(seats, wins, rounds, 0, seed=7, replicates=20)
    b = F.bootstrap(seats, wins, rounds, 0, seed=7, replicates=20)
    assert np.array_equal(a, b)
    assert F.bootstrap(seats, wins[:1], rounds[:1], 0, seed=7).shape[0] == 0


def test_the_command_rates_three_strategies(capsys):
    code, out, err = invoke(capsys, ["ladder", "random", "offensive", "defensive",
                                     "--games", "200", "--seed", "1"])
    assert code == 0, err
    assert "Bradley-Terry" in out and "random = 0" in out
    for name in ("random", "offensive", "defensive"):
        assert name in out


def test_json_parses_and_anchors_random(capsys):
    code, out, err = invoke(capsys, ["ladder", "random", "offensive", "defensive",
                                     "--games", "200", "--seed", "1", "--format", "json"])
    assert code == 0, err
    s = json.loads(out)
    assert s["anchor"] == "random" and s["players"] == 2
    assert [r["rank"] for r in s["ladder"]] == [1, 2, 3]
    rows = {r["strategy"]: r for r in s["ladder"]}
    assert rows["random"]["rating"] == 0
    assert all(r["games"] == 2 * s["deals_per_lineup"] * 2 for r in s["ladder"])
    assert len(s["pairs"]) == 3
    for r in s["ladder"]:
        lo, hi = r["rating_ci95"]
        assert lo <= r["rating"] <= hi


def test_at_four_players_each_plays_the_field(capsys):
    code, out, err = invoke(capsys, ["ladder", "offensive", "defensive", "--players", "4",
                                     "--games", "400", "--seed", "2", "--format", "json"])
    assert code == 0, err
    s = json.loads(out)
    assert s["field"] == "random" and s["anchor"] == "field: random"
    assert s["lineups"] == 8 and s["players"] == 4


@pytest.mark.parametrize("argv, needle", [
    (["ladder", "random", "nope"], "nope"),
    (["ladder", "random"], "at least two strategies"),
    (["ladder", "random", "first", "--games", "0"], "--games"),
    (["ladder", "random", "first", "--field", "nope"], "--field"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = invoke(capsys, argv)
    assert_one_line_error(code, out, err, needle)


def test_dry_run_plays_nothing(capsys):
    code, out, err = invoke(capsys, ["ladder", "random", "first", "--games", "1e9",
                                     "--dry-run"])
    assert code == 0, err
    assert "nothing played" in out and "2 lineups" in out


def test_out_writes_the_page_and_the_api_gives_the_same_ladder(capsys, tmp_path):
    argv = ["ladder", "random", "first", "--games", "100", "--seed", "3",
            "--out", str(tmp_path / "o")]
    code, out, err = invoke(capsys, argv)
    assert code == 0, err
    names = {p.name for p in (tmp_path / "o").iterdir()}
    assert {"ladder.json", "ladder.csv", "ladder.png", "ladder.svg", "ladder.html"} <= names
    saved = json.loads((tmp_path / "o" / "ladder.json").read_text())
    r = api.ladder(["random", "first"], games=100, seed=3)
    assert [x["rating"] for x in r.to_dict()["ladder"]] == [x["rating"] for x in
                                                           saved["ladder"]]
    frame = r.to_frame()
    assert list(frame["metric"].unique()) == ["rating"] and len(frame) == 2
    assert r.plot() is not None


@pytest.fixture
def stop_after(monkeypatch):
    """``stop_after(n)``: the command stops once ``n`` tasks have merged."""
    import signal

    from unosim.runs import backend, stopping

    real = backend.LocalBackend.map
    state = {"n": 0, "ran": 0}

    def map(self, fn, tasks, request=None):  # noqa: ANN001, ANN202
        for item in real(self, fn, tasks, request):
            yield item
            state["ran"] += 1
            if state["ran"] == state["n"]:
                stopping.current().set(signal.SIGINT)

    monkeypatch.setattr(backend.LocalBackend, "map", map)

    def arm(n: int) -> dict:
        state.update(n=n, ran=0)
        return state
    return arm


def test_a_stopped_ladder_resumes_to_the_uninterrupted_one(capsys, stop_after, tmp_path,
                                                          monkeypatch):
    """Tasks of 20 deals (UNOSIM_BATCH), 100 deals a lineup: a stop after 2 tasks keeps
    40 deals, and the resume gives the uninterrupted ratings and intervals exactly."""
    monkeypatch.setenv("UNOSIM_BATCH", "20")
    argv = ["ladder", "random", "first", "offensive", "--games", "600", "--seed", "5",
            "--format", "json", "--no-progress", "--workers", "1"]
    code, out, err = invoke(capsys, argv)
    assert code == 0, err
    whole = json.loads(out)
    stop_after(2)
    code, out, err = invoke(capsys, [*argv, "--out", str(tmp_path / "o")])
    assert code == 130, err
    part = json.loads(out)
    assert part["partial"] is True and part["deals_per_lineup"] == 40
    assert "--resume" in err
    stop_after(0)
    code, out, err = invoke(capsys, ["ladder", "--resume", str(tmp_path / "o"), "--format",
                                     "json", "--no-progress"])
    assert code == 0, err
    done = json.loads(out)
    keys = ("strategy", "rating", "rating_ci95", "games", "wins")
    assert [[r[k] for k in keys] for r in done["ladder"]] == \
        [[r[k] for k in keys] for r in whole["ladder"]]
