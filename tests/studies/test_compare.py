"""``unosim compare`` and the comparison engine (studies/compare/) on the real engine:
paired sums equal the per-game differences, outputs are complete, bad input is a
one-line error. Game counts are small; the interval arithmetic itself is tested in
test_reports_stats.py."""

from __future__ import annotations

import csv
import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from unosim import api
from unosim.cli import main
from unosim.reports.metrics import HEADLINES
from unosim.runs.runner import play_records
from unosim.runs.variants import build_variants
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy
from unosim.studies.compare.play import run_compare


def invoke(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    return (exc.value.code or 0), out, err


def specs(*names, players=4):
    return build_variants(list(names), lambda presets: resolve(list(presets),
                                                               [("players", players)]),
                          lambda n: [parse_strategy("random")] * n)


def test_paired_sums_are_the_per_game_differences():
    cmp = run_compare(specs("official", "stacking"), 1500, seed=4, workers=1, batch=512)
    a = play_records(resolve(["official"]), [parse_strategy("random")] * 4, 4, 0, 1500)
    b = play_records(resolve(["stacking"]), [parse_strategy("random")] * 4, 4, 0, 1500)
    d = b[:, L.G_TURNS].astype(np.int64) - a[:, L.G_TURNS]
    p = cmp.paired[1]
    assert p.n["turns"] == 1500
    assert p.s["turns"] == int(d.sum()) and p.ss["turns"] == int((d * d).sum())
    won = (a[:, L.G_CAPPED] == 0) & (b[:, L.G_CAPPED] == 0)
    dw = (b[won, L.G_WINNER] == 0).astype(int) - (a[won, L.G_WINNER] == 0)
    assert p.s["seat_win_0"] == int(dw.sum())
    drawn = lambda r: r[:, L.G_DRAWN_NO_PLAY].astype(np.int64) + r[:, L.G_PEN_DRAWN]  # noqa: E731
    assert p.s["cards_drawn"] == int((drawn(b) - drawn(a)).sum())
    # the per-variant figures agree with the run's own totals
    assert cmp.moments[1].s["turns"] == cmp.results[1].agg.sums["turns"] == int(b[:, 0].sum())
    assert cmp.summaries[0]["games"] == 1500


def test_a_variant_against_itself_differs_by_exactly_zero():
    cmp = run_compare(specs("official", "official+official"), 1000, seed=1, workers=2)
    for m in cmp.metrics:
        d = cmp.diff(1, m.name)
        if d["pairs"]:
            assert d["diff"] == 0 and d["se"] == 0 and not d["detected"], m.name
    assert all("no detectable difference" in v for v in cmp.verdicts())


def test_compare_writes_table_verdicts_charts_and_data(capsys, tmp_path):
    out_dir = tmp_path / "cmp"
    code, out, err = invoke(capsys, ["compare", "official", "stacking", "--games", "3000",
                                     "--seed", "5", "--out", str(out_dir), "--save-games",
                                     str(out_dir / "games.parquet"), "--no-progress"])
    assert code == 0, err
    assert "Common random numbers" in out and "paired" in out
    verdicts = [ln.strip() for ln in out.split("Verdicts")[1].splitlines()
                if ln.strip().startswith("stacking: ")]
    assert len(verdicts) == len(HEADLINES["round"])
    assert any("turns" in v for v in verdicts)
    names = {p.name for p in out_dir.iterdir()}
    for chart in ("differences", "seat_win_rates", "round_length", "winner_points",
                  "cards_drawn"):
        assert f"{chart}.png" in names and f"{chart}.svg" in names
    assert {"summary.json", "summary.csv", "report.html", "games.parquet"} <= names
    s = json.loads((out_dir / "summary.json").read_text(encoding="utf-8"))
    assert s["baseline"] == "official" and s["games"] == 3000 and s["seed"] == 5
    assert s["verdicts"] == verdicts
    assert "paired" in s["interval"]
    assert [v["name"] for v in s["variants"]] == ["official", "stacking"]
    assert s["summaries"][1]["rules"]["stacking"] == "progressive"
    with (out_dir / "summary.csv").open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    turns = [r for r in rows if r["metric"] == "turns"]
    assert [r["variant"] for r in turns] == ["official", "stacking"]
    assert float(turns[1]["diff_ci_low"]) <= float(turns[1]["diff"]) <= float(
        turns[1]["diff_ci_high"])
    html = (out_dir / "report.html").read_text(encoding="utf-8")
    assert html.count("<svg") == 7 and verdicts[0].split(":")[0] in html  # + feel, comeback
    # the main chart first: the paired differences the verdicts read
    assert html.index('id="fig-differences"') < html.index('id="fig-seat_win_rates"')
    assert "difference from official, paired on the same deals" in html
    t = pq.read_table(out_dir / "games.parquet")
    assert t.num_rows == 6000
    unused = {f"{b}_{p}" for b in ("points", "place", "stage") for p in range(4, 10)}
    assert t.column_names == ["game", "variant", *(f for f in L.GAME_FIELDS
                                                   if f not in unused)]
    df = t.to_pandas()
    assert set(df.variant.astype(str)) == {"official", "stacking"}
    # the same seed and game index give the same game as a plain run
    ref = play_records(resolve(["stacking"]), [parse_strategy("random")] * 4, 5, 0, 3000)
    mine = df[df.variant == "stacking"].sort_values("game")
    assert np.array_equal(mine["turns"].to_numpy(), ref[:, L.G_TURNS])
    assert np.array_equal(mine["points_3"].to_numpy(), ref[:, L.G_POINTS + 3])


def test_compare_json_and_match_mode(capsys):
    code, out, err = invoke(capsys, ["compare", "official", "losers-score", "--mode", "match",
                                     "--games", "200", "--seed", "3", "--format", "json",
                                     "--players", "3"])
    assert code == 0, err
    s = json.loads(out)
    assert s["mode"] == "match" and s["unit"] == "matches" and s["players"] == [3, 3]
    metrics = {r["metric"] for r in s["rows"]}
    assert {"rounds", "winner_score", "player_win_0", "player_win_2"} <= metrics
    assert any("not comparable" in v for v in s["verdicts"])  # points to 500 vs 200
    assert any("rounds shorter" in v or "rounds longer" in v or "no detectable" in v
               for v in s["verdicts"])


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["official"], "at least two"),
        (["official", "nope"], "nope"),
        (["official", "official"], "twice"),
        (["official", "stacking+"], "bad variant"),
        (["official", "stacking", "--target-score", "100"], "--mode match"),
        (["official", "stacking", "--save-games", "x.tsv"], ".parquet, .csv or .json"),
        (["official", "stacking", "--games", "0"], "--games"),
        (["official", "stacking", "--mode", "season"], "--mode"),
        (["official", "stacking", "--workers", "999"], "--workers"),
        ([*["official"] * 1, "a", "b", "c", "d", "e", "f", "g", "h"], "at most"),
    ],
)
def test_bad_compare_input_is_a_one_line_error(capsys, argv, needle):
    code, out, err = invoke(capsys, ["compare", *argv, "--games", "100", "--seed", "1"]
                            if "--games" not in argv else ["compare", *argv])
    assert code == 2 and out == "", err
    assert len(err.splitlines()) == 1 and err.startswith("unosim: error: ")
    assert needle in err


def test_no_variant_at_all_is_a_one_line_error(capsys):
    code, out, err = invoke(capsys, ["compare"])
    assert code == 2 and len(err.splitlines()) == 1


def test_python_api_returns_dataframes():
    games = api.simulate("stacking", games=500, seed=2, seat={1: "defensive"}).games
    assert len(games) == 500 and list(games.columns[:2]) == ["game", "turns"]
    assert "points_3" in games.columns and "points_4" not in games.columns
    assert games.attrs["summary"]["strategies"][1] == "defensive"
    assert int((games.winner == 0).sum()) == games.attrs["summary"]["seat_wins"][0]
    matches = api.simulate("losers-score", games=50, seed=2, mode="match", players=3).games
    assert len(matches) == 50 and "score_2" in matches.columns and "score_3" not in matches
    table = api.compare(["official", "stacking"], games=500, seed=2).table()
    assert {"variant", "metric", "mean", "ci_low", "ci_high", "diff", "diff_ci_low",
            "diff_ci_high", "indep_ci_low"} <= set(table.columns)
    assert len(table.attrs["verdicts"]) == len(HEADLINES["round"])
    row = table[(table.variant == "stacking") & (table.metric == "turns")].iloc[0]
    assert row.diff_ci_low <= row["diff"] <= row.diff_ci_high
