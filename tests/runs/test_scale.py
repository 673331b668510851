"""Scale features: precision stopping, flat totals, the benchmark report's shape."""

from __future__ import annotations

import json

import pytest

from unosim.cli import main
from unosim.simulate.rules import resolve
from unosim.stats.intervals import wilson
from unosim.strategies.registry import parse_strategy
from unosim.studies.run.play import run, seat0_half_width

RANDOM4 = [parse_strategy("random")] * 4


def test_precision_stops_at_the_first_batch_under_the_target():
    res = run(resolve(), RANDOM4, 10**9, seed=2, batch=10_000, precision=0.003)
    assert res.precision_reached
    lo, hi = wilson(int(res.agg.wins[0]), res.agg.games)
    assert (hi - lo) / 2 <= 0.003
    assert res.agg.games % 10_000 == 0 and res.agg.games > 10_000
    # one batch fewer would not have been enough (the rule is honest about n)
    fewer = run(resolve(), RANDOM4, res.agg.games - 10_000, seed=2, batch=10_000)
    assert seat0_half_width(fewer.agg) > 0.003


def test_precision_through_the_cli(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--games", "1e9", "--precision", "0.01", "--seed", "4", "--format", "json"])
    assert e.value.code == 0
    s = json.loads(capsys.readouterr().out)
    assert s["precision_reached"] is True and s["precision_target"] == 0.01
    lo, hi = s["seat_win_rate_ci95"][0]
    assert (hi - lo) / 2 <= 0.01
    assert s["games"] < 1e9


@pytest.mark.parametrize("bad", ["0", "-0.1", "0.7"])
def test_bad_precision_is_one_line(capsys, bad):
    with pytest.raises(SystemExit) as e:
        main(["--games", "1e3", "--precision", bad])
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert err.count("\n") == 1 and "--precision" in err


def test_totals_do_not_grow_with_games():
    """Memory is flat: the totals are the same size after 2e3 and 2e5 games."""
    small = run(resolve(), RANDOM4, 2_000, seed=1).agg
    large = run(resolve(), RANDOM4, 200_000, seed=1).agg

    def size(agg):
        return sum(h.nbytes for h in agg.hist.values()) + agg.wins.nbytes + agg.place_counts.nbytes

    assert size(small) == size(large)


@pytest.mark.slow
def test_bench_report_has_every_figure(capsys):
    """The smallest size that still splits each all-core run into chunks on every
    thread (a batch of 1,000 games is cut in 8 per worker): the report's shape and
    its identical results do not depend on the size."""
    with pytest.raises(SystemExit) as e:
        main(["bench", "--games", "1e3", "--skip-compile", "--format", "json"])
    assert e.value.code == 0
    r = json.loads(capsys.readouterr().out)
    combos = {(row["variant"], row["players"]) for row in r["rows"]}
    assert combos == {(v, p) for v in ("official", "stacking", "seven-o", "jump-in")
                      for p in (2, 4, 6)}
    for row in r["rows"]:
        assert row["games_per_sec_1_core"] > 0 and row["games_per_sec_all_cores"] > 0
        assert row["identical_results"] is True
        assert row["parallel_efficiency"] == pytest.approx(row["speedup"] / r["cores"])
        assert len(row["runs_1_core"]) == r["repeat"] == 3
        assert row["games_per_sec_1_core"] == sorted(row["runs_1_core"])[1]  # the median
    for key in ("compile_warm_s", "start_to_first_game_s", "targets"):
        assert key in r
    v = r["vector_env"]  # measured where the rl extra is installed (the test extra has it)
    assert v["target_steps_per_sec"] == 1_000_000 and (v["envs"], v["players"]) == (4096, 2)
    if "missing" not in v:
        assert "failed" not in v, v.get("failed")
        assert len(v["runs"]) == 3 and all(x["steps"] == 20 * 4096 for x in v["runs"])
        assert v["steps_per_sec"] == sorted(x["steps_per_sec"] for x in v["runs"])[1]
