"""Game-feel totals (docs/metrics.md#game-feel): exact integer sums that do not depend on
workers, batches, mode or checkpoints; the compiled engine against the plain
reference engine; and the keys the reports give."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from reference_engine import FEEL_METRICS, run_many
from unosim.cli import main
from unosim.reports.feel import feel_figures, seat_balance
from unosim.runs.aggregate import Aggregate
from unosim.runs.checkpoint import decode, encode
from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate import match_nb as M
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy
from unosim.studies.run.play import run, run_matches

RANDOM4 = [parse_strategy("random")] * 4


def _feel_of(agg) -> tuple:
    return (agg.feel_rounds, agg.feel_sums, getattr(agg, "feel_sumsq", None),
            getattr(agg, "feel_ss", None), agg.feel_hist.tolist())


@pytest.mark.parametrize("variant", ["seven-o", "elimination"])
def test_feel_totals_do_not_depend_on_workers_or_batches(variant):
    rules = resolve([variant])
    a = run(rules, RANDOM4, 12_000, seed=4, workers=1, batch=12_000)
    b = run(rules, RANDOM4, 12_000, seed=4, workers=2, batch=2_999)
    assert a.agg.same_as(b.agg) and _feel_of(a.agg) == _feel_of(b.agg)
    assert a.agg.feel_rounds == a.agg.games - a.agg.capped
    assert int(a.agg.feel_hist.sum()) == a.agg.feel_rounds


def test_feel_totals_equal_the_records():
    rules = resolve(["jump-in"], [("players", 3)])
    rec = play_records(rules, [parse_strategy("random")] * 3, seed=8, start=0, n=3_000,
                       chunks=4)
    agg = Aggregate(players=3)
    agg.add_records(rec)
    won = rec[:, L.G_CAPPED] == 0
    for k, m in enumerate(L.FEEL_METRICS):
        v = rec[won, L.G_FEEL + k].astype(np.int64)
        assert agg.feel_sums[m] == int(v.sum()) and agg.feel_sumsq[m] == int((v * v).sum())
    dmax = rec[won, L.G_FEEL + 1]
    assert agg.feel_hist.tolist() == np.bincount(np.minimum(dmax, 16), minlength=17).tolist()
    assert (rec[won, L.G_FEEL + 2] == (dmax >= 3)).all()  # comeback is max deficit >= 3


def test_capped_rounds_are_left_out():
    rules = resolve([], [("turn_cap", 30)])
    res = run(rules, RANDOM4, 2_000, seed=1, workers=1)
    assert 0 < res.agg.capped < 2_000
    assert res.agg.feel_rounds == 2_000 - res.agg.capped
    s = feel_figures(res.agg)
    assert s["feel_rounds"] == res.agg.feel_rounds and s["feel_rounds_capped"] == res.agg.capped


def test_match_feel_totals_do_not_depend_on_threads_or_batches():
    rules = resolve(["seven-o"])
    recs = []
    a = run_matches(rules, RANDOM4, 120, seed=5, workers=1, batch=120,
                    on_records=lambda first, r: recs.append(r.copy()))
    b = run_matches(rules, RANDOM4, 120, seed=5, workers=2, batch=17)
    assert _feel_of(a.agg) == _feel_of(b.agg) and a.agg.feel_sn == b.agg.feel_sn
    rec = np.concatenate(recs)
    rounds = rec[:, M.M_ROUNDS] - rec[:, M.M_CAPPED_ROUNDS]
    assert a.agg.feel_rounds == int(rounds.sum()) == int(a.agg.feel_hist.sum())
    f = feel_figures(a.agg)
    for m in L.FEEL_METRICS:
        assert math.isfinite(f[f"{m}_mean"]) and f[f"{m}_se"] > 0


def test_match_and_round_feel_agree_statistically():
    """Rounds of matches are rounds like any other (random players): same means. 20,000
    rounds against 1,500 official matches (about 10 rounds each, so about 15,000
    rounds); each of the 9 feel metrics fails at 4 combined standard errors (a false
    alarm once in about 16,000 a metric, 6e-4 for the 9), so a shift of 4.84 * sqrt(1/
    20,000 + 1/15,000) = 0.052 sd of the metric fails with 80% power (for the comeback
    rate, about 46%: 2.6 points)."""
    rules = resolve()
    r = feel_figures(run(rules, RANDOM4, 20_000, seed=2, workers=2).agg)
    m = feel_figures(run_matches(rules, RANDOM4, 1_500, seed=3, workers=2).agg)
    for k in L.FEEL_METRICS:
        se = math.hypot(r[f"{k}_se"], m[f"{k}_se"])
        assert abs(r[f"{k}_mean"] - m[f"{k}_mean"]) <= 4 * se, k


def test_checkpoint_json_carries_the_feel_totals():
    rules = resolve(["stacking"])
    agg = run(rules, RANDOM4, 3_000, seed=6, workers=1).agg
    back = decode(json.loads(json.dumps(encode(agg))))
    assert back.same_as(agg) and _feel_of(back) == _feel_of(agg)
    bad = encode(agg)
    bad["feel_rounds"] += 1
    with pytest.raises(ValueError, match="feel_rounds"):
        decode(bad)


# ------------------------------------------------------------ reference engine


SETTINGS = [
    # (reference rules, compiled rules, players, reference games)
    ({}, [], 4, 3000),
    ({"stacking": "progressive"}, [("stacking", "progressive")], 4, 3000),
    ({"seven_o": True}, [("seven_o", True)], 4, 3000),
    ({"jump_in": True}, [("jump_in", True)], 4, 3000),
    ({}, [], 2, 2000),
]


@pytest.mark.slow
@pytest.mark.parametrize("ref_rules,overrides,players,n_ref", SETTINGS)
def test_feel_matches_the_reference_engine(ref_rules, overrides, players, n_ref):
    """The feel metrics (and turns, cards played, penalty cards) of ``n_ref`` reference
    games (2,000 or 3,000) against 60,000 engine games. A comparison fails at 4 combined
    standard errors (a false alarm once in about 16,000 comparisons), so it detects a
    shift of 4.84 combined standard errors with 80% power: 4.84 * sqrt(1/n_ref + 1/60,000)
    standard deviations of the metric, 0.091 sd at 3,000 reference games, 0.110 sd at
    2,000."""
    ref = run_many(n_ref, seed=17, players=players, **ref_rules)
    rules = resolve([], [("players", players), *overrides])
    rec = play_records(rules, [parse_strategy("random")] * players, seed=7, start=0,
                       n=60_000, chunks=4)
    won = rec[:, L.G_CAPPED] == 0
    failures = []
    for m in ("turns", "cards_played", "penalty_drawn"):  # the rules themselves agree too
        r = np.array([g[m] for g in ref], float)
        e = rec[:, L.GAME_FIELDS.index(m)].astype(float)
        se = math.hypot(r.std(ddof=1) / math.sqrt(len(r)), e.std(ddof=1) / math.sqrt(len(e)))
        if abs(r.mean() - e.mean()) > 4 * se + 1e-9:
            failures.append(f"{m}: reference {r.mean():.4f}, engine {e.mean():.4f} (se {se:.4f})")
    for k, m in enumerate(FEEL_METRICS):
        r = np.array([g[m] for g in ref if g["winner"] >= 0], float)
        e = rec[won, L.G_FEEL + k] / (L.FEEL_SCALE if m in L.FEEL_FIXED else 1)
        se = math.hypot(r.std(ddof=1) / math.sqrt(len(r)), e.std(ddof=1) / math.sqrt(len(e)))
        if abs(r.mean() - e.mean()) > 4 * se + 1e-9:
            failures.append(f"{m}: reference {r.mean():.4f}, engine {e.mean():.4f} (se {se:.4f})")
    assert not failures, "; ".join(failures)


# ------------------------------------------------------------ reports


def test_seat_balance():
    assert seat_balance([25, 25, 25, 25], 100) == 1.0
    assert seat_balance([40, 20, 20, 20], 100) == pytest.approx(0.8)
    assert math.isnan(seat_balance([0, 0], 0))


def _invoke(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    assert (exc.value.code or 0) == 0, err
    return out


def test_run_json_table_and_csv_have_the_feel_keys(capsys, tmp_path):
    s = json.loads(_invoke(capsys, ["run", "--games", "3000", "--seed", "2", "--format",
                                    "json", "--out", str(tmp_path / "o")]))
    for m in L.FEEL_METRICS:
        assert math.isfinite(s[f"{m}_mean"]) and s[f"{m}_se"] > 0
    for m in L.FEEL_RATES:
        lo, hi = s[f"{m}_ci95"]
        assert lo < s[f"{m}_mean"] < hi
    assert len(s["winner_max_deficit_hist"]) == 17
    assert s["feel_rounds"] == sum(s["winner_max_deficit_hist"]) == 3000 - s["capped"]
    rates = s["seat_win_rate"]
    assert s["seat_balance"] == pytest.approx(1 - (max(rates) - min(rates)))
    csv_text = (tmp_path / "o" / "summary.csv").read_text()
    for key in ("comeback_mean", "lead_changes_se", "winner_max_deficit_hist_16",
                "feel_rounds", "seat_balance"):
        assert f"\n{key}," in csv_text
    table = _invoke(capsys, ["run", "--games", "2000", "--seed", "2"])
    assert "How the round unfolds" in table and "seat balance" in table
    assert "comeback (winner 3+ cards behind)" in table


def test_match_json_and_table_have_the_feel_section(capsys):
    s = json.loads(_invoke(capsys, ["run", "--mode", "match", "--games", "30", "--seed", "1",
                                    "--format", "json"]))
    for m in L.FEEL_METRICS:
        assert f"{m}_mean" in s and f"{m}_se" in s
    assert s["feel_rounds"] == sum(s["winner_max_deficit_hist"]) > 30
    table = _invoke(capsys, ["run", "--mode", "match", "--games", "30", "--seed", "1"])
    assert "How the round unfolds" in table


def test_parquet_and_dataframe_hold_the_metric_values(tmp_path):
    from unosim.api import simulate

    df = simulate("official", 500, seed=3).games  # the per-game table
    for m in L.FEEL_METRICS:
        assert m in df.columns
    assert df["lock_in"].between(0, 1).all() and df["lock_in"].dtype == float
    assert set(df["comeback"].unique()) <= {0, 1}


# ------------------------------------------------------------ compare


def _specs(*names):
    from unosim.runs.variants import build_variants

    return build_variants(list(names), lambda presets: resolve(list(presets)),
                          lambda n: [parse_strategy("random")] * n)


@pytest.fixture(scope="module")
def feel_cmp():
    from unosim.studies.compare.play import run_compare

    recs: dict[int, list] = {0: [], 1: []}
    cmp = run_compare(_specs("official", "seven-o"), 6000, seed=3, workers=2, batch=2048,
                      on_records=lambda vi, first, r: recs[vi].append(r.copy()))
    return cmp, [np.concatenate(recs[0]), np.concatenate(recs[1])]


def test_compare_pairs_every_feel_metric_per_game(feel_cmp):
    cmp, (base, other) = feel_cmp
    both = (base[:, L.G_CAPPED] == 0) & (other[:, L.G_CAPPED] == 0)
    for k, m in enumerate(L.FEEL_METRICS):
        sc = L.FEEL_SCALE if m in L.FEEL_FIXED else 1
        d = (other[both, L.G_FEEL + k].astype(np.int64) - base[both, L.G_FEEL + k]) / sc
        got = cmp.diff(1, m)
        assert got["pairs"] == int(both.sum())
        assert got["diff"] == pytest.approx(d.mean(), abs=1e-12)
        assert got["se"] == pytest.approx(d.std(ddof=1) / math.sqrt(len(d)), rel=1e-9)
        assert got["ci_low"] < got["diff"] < got["ci_high"]
    # seat balance: the paired difference is the difference of the two balances
    n = len(base)
    bal = [seat_balance(np.bincount(r[r[:, L.G_CAPPED] == 0, L.G_WINNER], minlength=4), n)
           for r in (base, other)]
    assert cmp.stat(0, "seat_balance")["mean"] == pytest.approx(bal[0])
    assert cmp.diff(1, "seat_balance")["diff"] == pytest.approx(bal[1] - bal[0], abs=1e-12)


def test_compare_feel_verdicts_read_plainly(feel_cmp):
    import re

    cmp, _ = feel_cmp
    lines = cmp.feel_verdicts()
    assert len(lines) == 4 and all(v.startswith("seven-o: ") for v in lines)
    assert re.fullmatch(r"seven-o: the winner came back from 3 or more cards behind in "
                        r"[\d.]+% of rounds, [\d.]+ percentage points more than official "
                        r"\(95% CI [\d.]+ to [\d.]+\)", lines[0]), lines[0]
    assert "the lead changed" in lines[1] and "more than official" in lines[1]
    assert "the first player to reach one card won" in lines[2] and "fewer" in lines[2]
    assert cmp.to_dict()["feel_verdicts"] == lines
    table = cmp.render_table()
    assert "How the round unfolds: Verdicts" in table and lines[0] in table


def test_compare_feel_verdict_when_nothing_changes():
    from unosim.studies.compare.play import run_compare

    cmp = run_compare(_specs("official", "official+official"), 1500, seed=1, workers=2)
    for line in cmp.feel_verdicts():
        assert "no detectable difference" in line, line


def test_feel_and_comeback_charts(feel_cmp, tmp_path):
    from unosim.reports.chart_kit import save_figures
    from unosim.studies.compare.charts import figures

    cmp, _ = feel_cmp
    figs = figures(cmp)
    assert {"feel", "comeback"} <= set(figs)
    assert len(figs["feel"].axes) == 10  # nine metrics and seat balance, a panel each
    for ax in figs["feel"].axes:
        assert ax.get_title() and ax.get_ylabel()
        lo, hi = ax.get_ylim()
        assert lo <= 0 <= hi, ax.get_title()  # every panel holds 0: none zooms in
        gids = {(a.get_gid() or "")[:8] for a in ax.lines}
        assert {"series-0", "series-1"} <= gids
    assert "n = 6,000" in figs["comeback"].get_suptitle() + figs["comeback"].axes[0].get_title()
    # the main chart: headlines and game feel, seat balance paired on the joint winners
    diffs = figs["differences"]
    assert [ax.get_title().split("\n")[0] for ax in diffs.axes] == [
        cmp.metric(m).label for m in ("turns", "cards_drawn", "winner_points", "seat_win_0",
                                      "comeback", "lead_changes", "first_uno_wins",
                                      "seat_balance")]
    for ax in diffs.axes:
        lo, hi = ax.get_xlim()
        assert lo < 0 < hi and ax.containers, ax.get_title()
    svgs = save_figures({k: figs[k] for k in ("feel", "comeback")}, tmp_path)
    assert (tmp_path / "feel.png").exists() and (tmp_path / "comeback.svg").exists()
    assert all("series-1" in svg for svg in svgs.values())


def test_the_internal_switch_leaves_the_game_alone():
    """R_FEEL_OFF (for work that never reports the feel, such as search rollouts)
    skips the samples: the same games, the feel columns 0."""
    from unosim.runs.batches import builtin_batch
    from unosim.runs.runner import base_seed, game_template

    play_batch = builtin_batch("round", "plain")
    rules = resolve(["seven-o"])
    t = game_template(rules, RANDOM4)
    on = np.zeros((500, L.N_G), np.int32)
    off = np.zeros((500, L.N_G), np.int32)
    play_batch(t, base_seed(5), 0, on, 2)
    t[L.R_FEEL_OFF] = 1
    play_batch(t, base_seed(5), 0, off, 2)
    assert np.array_equal(on[:, : L.G_FEEL], off[:, : L.G_FEEL])
    assert on[:, L.G_FEEL:].any() and not off[:, L.G_FEEL:].any()


def test_seat_helpers_for_a_skill_command():
    from unosim.reports.feel import seat_balance_of, seat_win_rates

    agg = run(resolve(), RANDOM4, 2_000, seed=3, workers=1).agg
    rates = seat_win_rates(agg)
    assert rates == [int(w) / 2_000 for w in agg.wins[:4]]
    assert seat_balance_of(agg) == pytest.approx(1 - (max(rates) - min(rates)))
