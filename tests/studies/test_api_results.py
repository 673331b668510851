"""Every study from Python: each function of ``unosim.api`` returns its command's
result object, whose ``to_json()`` is the command's ``--format json`` for the same
options and seed (timings aside), with a tidy frame, the command's chart as a
Figure and an HTML table; a Ctrl-C returns the partial result."""

from __future__ import annotations

import json
import math
import os
import signal

import pytest
from cli_helpers import invoke
from matplotlib.figure import Figure

from unosim import api
from unosim.errors import UnosimError
from unosim.reports.report_base import TIDY

#: the figures that differ from run to run: how long it took
TIMING = {"elapsed_s", "compile_s", "games_per_sec", "matches_per_sec"}


def untimed(x):
    if isinstance(x, dict):
        return {k: untimed(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [untimed(v) for v in x]
    return x


def cli_json(capsys, args: list[str]) -> dict:
    code, out, err = invoke(capsys, [*args, "--format", "json"])
    assert code == 0, err
    return json.loads(out)


#: study -> (the command's arguments, the same call from Python)
SAME = {
    "compare": (["compare", "official", "stacking", "--games", "300", "--seed", "5",
                 "--workers", "2", "--no-progress"],
                lambda: api.compare(["official", "stacking"], games=300, seed=5, workers=2)),
    "settle": (["settle", "stacking-longer", "--games", "200", "--seed", "3", "--workers", "2",
                "--no-progress"],
               lambda: api.settle("stacking-longer", games=200, seed=3, workers=2)),
    "tournament": (["tournament", "random", "offensive", "--players", "3", "--games", "120",
                    "--seed", "2", "--workers", "2", "--no-progress"],
                   lambda: api.tournament(["random", "offensive"], players=3, games=120,
                                          seed=2, workers=2)),
    "skill": (["skill", "official", "stacking", "--strategy", "offensive", "--games", "80",
               "--seed", "4", "--workers", "2", "--no-progress"],
              lambda: api.skill(["official", "stacking"], strategy="offensive", games=80,
                                seed=4, workers=2)),
    "sweep": (["sweep", "--rule", "hand_size=5,7", "--rule", "stacking=progressive",
               "--games", "200", "--seed", "6", "--workers", "2", "--no-progress"],
              lambda: api.sweep(rule={"hand_size": [5, 7], "stacking": "progressive"},
                                games=200, seed=6, workers=2)),
    "replay": (["replay", "--seed", "7", "--game", "3", "--variant", "stacking",
                "--seat", "1=offensive"],
               lambda: api.replay(seed=7, game=3, variant="stacking", seat={1: "offensive"})),
}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Every study once, with tiny games."""
    out = {name: call() for name, (_, call) in SAME.items()}
    out["simulate"] = api.simulate("stacking", games=300, seed=1, workers=2)
    out["atlas"] = api.atlas(players=[2], games=20, strategy="none", seed=1, workers=2)
    pytest.importorskip("optuna")
    db = tmp_path_factory.mktemp("tune") / "study.db"
    out["tune"] = api.tune("gang-up", param={"cards": "1..5"}, trials=2,
                           games_per_trial=60, storage=f"sqlite:///{db}", seed=1, workers=2)
    return out


@pytest.mark.parametrize("study", list(SAME))
def test_to_json_is_the_commands_json(capsys, results, study):
    args, _ = SAME[study]
    assert untimed(json.loads(results[study].to_json())) == untimed(cli_json(capsys, args))


def test_simulate_is_the_run_commands_json_and_keeps_the_games(capsys, results):
    r = results["simulate"]
    cli = cli_json(capsys, ["--variant", "stacking", "--games", "300", "--seed", "1",
                            "--workers", "2", "--no-progress"])
    assert untimed(json.loads(r.to_json())) == untimed(cli)
    assert len(r.games) == 300 and list(r.games.columns[:2]) == ["game", "turns"]
    assert int((r.games.winner == 0).sum()) == cli["seat_wins"][0]


@pytest.mark.parametrize("study", ["simulate", "compare", "settle", "tournament", "skill",
                                   "sweep", "atlas", "tune", "replay"])
def test_every_result_has_the_four_views(results, study):
    r = results[study]
    assert not r.partial
    df = r.to_frame()
    assert list(df.columns[: len(TIDY)]) == list(TIDY) and len(df) > 0
    assert df.metric.notna().all() and df.estimate.notna().all()
    with_interval = df.dropna(subset=["ci_low", "ci_high"])
    if study != "replay":  # one game: no interval
        assert len(with_interval) > 0
    for row in with_interval.itertuples():
        if math.isfinite(row.ci_low):
            assert row.ci_low - 1e-12 <= row.estimate <= row.ci_high + 1e-12, row
    assert (df.games > 0).all()
    fig = r.plot()
    assert isinstance(fig, Figure) and len(fig.axes) >= 1
    html = r._repr_html_()
    assert "<table" in html and "</table>" in html
    text = r.summary()
    assert isinstance(text, str) and text.strip()
    assert isinstance(json.loads(r.to_json()), dict)
    assert repr(r).startswith(f"<{type(r).__name__}")


def test_the_frames_hold_what_the_commands_report(results):
    cmp = results["compare"].to_frame()
    diff = cmp[(cmp.variant == "stacking") & (cmp.metric == "turns")
               & (cmp.statistic == "diff")].iloc[0]
    row = next(r for r in results["compare"].to_dict()["rows"]
               if r["variant"] == "stacking" and r["metric"] == "turns")
    assert (diff.estimate, diff.ci_low, diff.ci_high) == (row["diff"], row["diff_ci_low"],
                                                          row["diff_ci_high"])
    t = results["tournament"].to_frame()
    win = t[(t.metric == "win_rate") & (t.strategy == "offensive")].iloc[0]
    rep = next(r for r in results["tournament"].to_dict()["results"]
               if r["strategy"] == "offensive")
    assert (win.estimate, [win.ci_low, win.ci_high]) == (rep["win_rate"], rep["win_rate_ci95"])
    s = results["settle"]
    (v,) = s.to_dict()["verdicts"]
    (cell,) = s.to_frame().itertuples()
    assert (cell.claim, cell.estimate, cell.verdict) == (v["name"], v["cells"][0]["effect"],
                                                         v["verdict"])
    assert isinstance(s.plot("stacking-longer"), Figure)
    sw = results["sweep"].to_frame()
    assert sorted(set(sw.hand_size)) == [5, 7]
    assert set(results["compare"].plot("round_length").axes) and results["compare"].verdicts


def test_a_chart_that_does_not_exist_is_named_in_the_error(results):
    with pytest.raises(UnosimError, match="seat_win_rates"):
        results["compare"].plot("nope")


def test_bad_input_is_the_commands_one_line_error():
    with pytest.raises(UnosimError, match="--games"):
        api.compare(["official", "stacking"], games="lots")
    with pytest.raises(UnosimError, match="stacking-longer|claim"):
        api.settle("no-such-claim", games=100)
    with pytest.raises(TypeError):
        api.simulate("official", games=10, colour="red")


def test_the_earlier_keywords_still_work(results):
    r = api.simulate("official", games=40, seed=2, workers=2, seats={1: "defensive"},
                     rules={"hand_size": 5})
    assert r.to_dict()["strategies"][1] == "defensive"
    assert r.to_dict()["rules_changed"] == {"hand_size": 5}


def test_ctrl_c_returns_the_partial_result(monkeypatch):
    """The first Ctrl-C stops between batches: the function returns what finished, the
    same games in every variant, marked partial, with a warning."""
    from unosim import progress

    monkeypatch.setenv("UNOSIM_BATCH", "64")
    sent = []

    def stop_once(n: int) -> None:
        if not sent:
            sent.append(n)
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(progress, "_ignore", stop_once)
    with pytest.warns(UserWarning, match="partial"):
        r = api.compare(["official", "stacking"], games=20_000, seed=1, workers=1)
    assert r.partial and json.loads(r.to_json())["partial"] is True
    assert 0 < r.comparison.games < 20_000
    assert {x.agg.games for x in r.comparison.results} == {r.comparison.games}
    assert "PARTIAL" in r._repr_html_()


def test_a_stop_before_any_batch_raises_interrupted_not_keyboard_interrupt():
    """Nothing finished, nothing to return: a one-line error of unosim's own (only the
    signal handler raises KeyboardInterrupt)."""
    from unosim.runs.stopping import Stopped

    def stopped_at_once():
        raise Stopped()

    with pytest.raises(api.Interrupted, match="nothing to keep"):
        api._play(stopped_at_once)
