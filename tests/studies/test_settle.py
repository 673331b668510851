"""``unosim settle``: each verdict kind on a claim built to give it, a user's claim
file, malformed claims refused in one line, the files it writes, the looks, and the
catalogue. (The browser, the interrupt and the Dask checks are test_settle_more.py;
the margins, looks and the catalogue's error on hand-made intervals are
test_settle_margins.py.)"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import assert_one_line_error, invoke

from unosim.studies.settle.claims import catalogue
from unosim.studies.settle.verdicts import CUT_SHORT, VERDICTS

STACKING = """
claim = "{sentence}"
source = "a test"
study = "compare"
metric = "turns"
direction = "{direction}"
variant = ["{variant}"]
games = 2000
looks = {looks}
"""


def claim_file(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / f"{name}.toml"
    p.write_text(text, encoding="utf-8")
    return p


def settle_json(capsys, *args: str) -> dict:
    code, out, err = invoke(capsys, ["settle", *args, "--seed", "3", "--format", "json",
                                     "--no-progress"])
    assert code == 0, err
    assert "Traceback" not in out + err
    return json.loads(out)


def one(capsys, path: Path, *args: str) -> dict:
    return settle_json(capsys, str(path), *args)["verdicts"][0]


# ---------------------------------------------------------------- each verdict kind


def test_a_true_claim_is_true_and_stops_at_its_first_look(capsys, tmp_path):
    """Drawing until playable adds about 40 turns a round: far beyond the first look's
    O'Brien-Fleming boundary (z = 4.33), so it is decided at once. (Stacking's 3 turns
    used to stop there under the Bonferroni z of 2.39; the first look now keeps its
    error for effects that any seed would see.) 2,048 games at the first look, se of
    the paired difference about 1.8 turns: deciding there needs more than 1 + 4.33 se =
    9 turns, which 41 turns passes by 17 se (no seed fails it); an effect of 10.5 turns
    would still be decided at once with 80% power."""
    p = claim_file(tmp_path, "longer", STACKING.format(
        sentence="Drawing until you can play makes rounds longer", direction="higher",
        variant="draw-until-playable", looks=3))
    v = one(capsys, p)
    assert v["verdict"] == "TRUE"
    (c,) = v["cells"]
    assert c["low"] > 1 and c["effect"] > 10  # turns, beyond the 1-turn margin
    assert c["look"] == 1 and c["games"] == 2048  # decided at once: no more games played
    assert c["z"] == pytest.approx(4.3326, abs=1e-4)
    assert v["line"].startswith("TRUE: Drawing until you can play makes rounds longer")
    assert "seed 3" in v["line"] and f"unosim settle {p} --seed 3" in v["line"]


def test_a_claim_stated_backwards_is_false(capsys, tmp_path):
    """Drawing until playable makes rounds about 40 turns longer, so "shorter" is
    FALSE. 2,048 games, one look (z = 1.96), se of the paired difference about 1.8
    turns: FALSE needs the whole interval above the 1-turn margin, an estimate over 4.6
    turns, which 40 passes by 19 se (no seed fails it); an effect of 3.1 turns or less
    would fail with 80% power. (It read stacking, whose 3 turns lay only 2.4 se past
    that edge: about 1 seed in 120 failed it.) Seed 3 reads +39.9."""
    p = claim_file(tmp_path, "shorter", STACKING.format(
        sentence="Drawing until you can play makes rounds shorter", direction="lower",
        variant="draw-until-playable", looks=1))
    v = one(capsys, p)
    assert v["verdict"] == "FALSE"
    assert v["cells"][0]["low"] > 0  # the opposite holds: the interval is above 0


def test_a_variant_against_itself_is_no_real_difference_at_the_first_look(capsys, tmp_path):
    """The same games both ways: the interval is exactly 0, inside any margin. (Before
    claims had margins this read NOT SHOWN after every look: no interval can lie on one
    side of 0 when the effect is 0; with the 1-turn margin it is decided at once.)"""
    p = claim_file(tmp_path, "itself", STACKING.format(
        sentence="Official rounds are longer than official rounds", direction="higher",
        variant="official", looks=3))
    v = one(capsys, p)
    assert v["verdict"] == "NO REAL DIFFERENCE"
    (c,) = v["cells"]
    assert c["effect"] == 0 and c["low"] == 0 and c["high"] == 0  # the same games
    assert c["look"] == 1 and c["games"] == 2048  # decided at once
    assert v["margin"] == 1.0 and v["margin_from"] == "metric default"
    assert "margin ±1 turn;" in v["line"] and v["games_needed"] is None


def test_not_shown_says_how_many_games_would_decide_it(capsys, tmp_path):
    """Jump-in moves seat 0's win rate by well under a point; 200 games cannot tell
    that from the half-point margin, and the line says about how many games would.
    (It used to name the smallest effect the run could detect, a figure that ignored
    the margin.) 200 games, se of the paired difference about 4.1 points, run at
    --alpha 0.0001 (z = 3.89): the 99.99% interval spans both edges unless the estimate
    lies beyond +-15.5 points, 3.8 se, which a null effect does about once in 6,000
    (at the default 95%, edges at +-7.6 points, it did in 6.6% of seeds; no interval
    can hold a near-null effect more surely than its level); an effect of 19 points
    would be decided, failing the test, with 80% power. Seed 3 reads -5.5 points
    (interval -22 to +11)."""
    text = STACKING.format(sentence="Jump-in helps the first seat", direction="higher",
                           variant="jump-in", looks=1)
    text = text.replace("games = 2000", "games = 200").replace('"turns"', '"seat_win_0"')
    v = one(capsys, claim_file(tmp_path, "tiny", text), "--alpha", "0.0001")
    assert v["verdict"] == "NOT SHOWN"
    (c,) = v["cells"]
    assert c["low"] < -0.005 and 0.005 < c["high"]  # across both edges of the margin
    assert v["games_needed"] > v["games_played"] == 200
    assert v["games_suggested"] > 200
    assert f"about {v['games_needed']:,} games would likely decide it (--games " \
           f"{v['games_suggested']})" in v["line"]
    assert "margin ±0.5 pp" in v["line"] and v["z"] == [pytest.approx(3.890592)]
    assert "intervals 99.99% (z = 3.89)" in v["line"]


def test_a_claim_across_seats_that_holds_at_some_depends(capsys, tmp_path):
    """Seat 0 wins more than its fair share at 4 players, seat 3 less (RULES: seat
    effects are real): "every seat wins its fair share or more" depends on the seat.
    200,704 games, one look, z = 2.50 over the 4 seats, se about 0.10 points a seat,
    margin 0.1 point: TRUE needs an estimate above +0.35 points, FALSE below -0.35.
    Seat 0 is +1.14 points and seat 3 -0.79 (1,600,512 games, se 0.035), 8 and 4.5 se
    past their edges: about 1 seed in 300,000 fails. An edge of 0.44 points or more is
    called with 80% power. (It was 100,352 games and margin 0.2 point, where seat 3 lay
    only 1.2 se past its edge: about 1 seed in 9 failed.) Seed 3 reads +1.07 and -0.75."""
    p = claim_file(tmp_path, "seats", """
claim = "Every seat wins more than its fair share"
source = "a test"
study = "compare"
metric = "seat_win"
seats = "all"
value = "fair"
direction = "higher"
margin = 0.001
games = 200000
looks = 1
""")
    v = one(capsys, p)
    assert v["verdict"] == "DEPENDS"
    kinds = {c["where"]: c["verdict"] for c in v["cells"]}
    assert kinds["seat 0"] == "TRUE" and kinds["seat 3"] == "FALSE"
    assert "holds at seat 0" in v["line"] and "not at" in v["line"]
    for c in v["cells"]:  # against the fair share 1/4
        assert c["reference"] == pytest.approx(0.25)
        assert c["effect"] == pytest.approx(c["subject"] - 0.25)


def test_same_within_a_margin_needs_the_whole_interval_inside(capsys, tmp_path):
    """2,048 games, one look, se of stacking's paired difference about 0.46 turns. Wide
    (margin 20): TRUE unless the interval reaches +-20, which no seed does. Narrow
    (margin 0.5): FALSE needs an estimate over 1.4 turns; stacking's 3.0 lies 3.5 se
    above it (about 1 seed in 4,000 fails), and an effect of 1.0 turn or less would fail
    with 80% power. Seed 3 reads +2.9."""
    base = STACKING.format(sentence="Stacking leaves round length alone",
                           direction="same", variant="stacking", looks=1)
    wide = one(capsys, claim_file(tmp_path, "wide", base + "margin = 20\n"))
    assert wide["verdict"] == "TRUE"
    assert -20 <= wide["cells"][0]["low"] and wide["cells"][0]["high"] <= 20
    narrow = one(capsys, claim_file(tmp_path, "narrow", base + "margin = 0.5\n"))
    assert narrow["verdict"] == "FALSE"  # about 3 turns longer: outside +-0.5
    assert narrow["cells"][0]["low"] > 0.5


# ---------------------------------------------------------------- the other studies


def test_a_tournament_and_a_skill_claim(capsys, tmp_path):
    """Tournament: 16,384 heads-up games, one look, se of the share ahead about 0.39
    points; TRUE needs the interval above the 1-point margin, an estimate over 1.76
    points. Offensive finishes ahead of random in 53.6% (+3.63 points; a 200,704-game
    run, se 0.11), 4.8 se past that: a false alarm about 1e-6; an edge of 1.4 points or
    less fails with 80% power. (It was 4,096 games, 1.4 se past the edge: about 1 seed
    in 11 failed.) Seed 3 reads +3.91. Skill: 400 games, an edge of about 0.04 against
    the bound 0.5, about 20 se past it (no seed fails it)."""
    t = claim_file(tmp_path, "holds", """
claim = "Offensive finishes ahead of random"
source = "a test"
study = "tournament"
metric = "ahead"
direction = "higher"
strategies = ["offensive", "random"]
players = 2
games = 16000
looks = 1
""")
    s = claim_file(tmp_path, "luck", """
claim = "Offensive's edge is below one half"
source = "a test"
study = "skill"
metric = "skill_edge"
direction = "lower"
strategy = "offensive"
value = 0.5
games = 400
looks = 1
""")
    out = settle_json(capsys, str(t), str(s))
    vt, vs = out["verdicts"]
    assert vt["verdict"] == "TRUE" and vt["cells"][0]["subject"] > 0.5
    assert vs["verdict"] == "TRUE" and vs["cells"][0]["reference"] == 0.5
    assert out["counts"]["TRUE"] == 2


def test_players_and_games_override_a_claim(capsys, tmp_path):
    p = claim_file(tmp_path, "longer", STACKING.format(
        sentence="Stacking makes rounds longer", direction="higher", variant="stacking",
        looks=1))
    v = one(capsys, p, "--players", "3", "--games", "1000")
    assert "3 players" in v["about"] and v["cells"][0]["games"] == 1000
    assert "--games 1000 --players 3" in v["command"]


def test_all_bounds_the_catalogues_error_and_each_line_reproduces(capsys):
    """--all shares 5% over the claims (Bonferroni) and says so; each claim's command
    carries its share, and run alone gives the same verdict, figures and level."""
    out = settle_json(capsys, "--all", "--games", "100")
    n = len(catalogue())
    assert out["error"].startswith(f"family-wise error at most 5% over {n} claims")
    assert out["alpha"] == 0.05 and set(out["counts"]) == {*VERDICTS, CUT_SHORT}
    assert out["counts"][CUT_SHORT] == 0
    for v in out["verdicts"]:
        assert v["alpha"] == pytest.approx(0.05 / n)
        assert v["command"].endswith(f"--alpha 0.05/{n}")
        assert "intervals 99.82% " in v["line"] or v["places"] > 1  # 5% over 28 claims
    first = out["verdicts"][0]
    alone = settle_json(capsys, first["name"], "--games", "100", "--alpha", f"0.05/{n}")
    (again,) = alone["verdicts"]
    for v in (first, again):
        v.pop("elapsed_s")
    assert again == first
    assert alone["error"] == f"each claim's error at most {0.05 / n * 100:.2f}%"


# ---------------------------------------------------------------- malformed claims

GOOD = {"claim": '"Stacking makes rounds longer"', "source": '"a test"',
        "study": '"compare"', "metric": '"turns"', "direction": '"higher"',
        "variant": '["stacking"]'}


def _toml(**changes: str | None) -> str:
    fields = {**GOOD, **changes}
    return "".join(f"{k} = {v}\n" for k, v in fields.items() if v is not None)


MALFORMED = [  # (the field the one line must name, the claim)
    ("claim", _toml(claim=None)),
    ("source", _toml(source=None)),
    ("study", _toml(study='"poll"')),
    ("direction", _toml(direction='"up"')),
    ("margin", _toml(direction='"same"', margin="0")),
    ("metric", _toml(metric='"turnz"')),
    ("players", _toml(players="11")),
    ("variant", _toml(variant='["stackin"]')),
    ("strategies", _toml(study='"tournament"', metric='"ahead"', strategies='["offensive"]')),
    ("games", _toml(games="0")),
    ("colour", _toml(colour='"red"')),
    ("strategy", _toml(strategy='"genius"')),
    ("variant_rules", _toml(variant_rules='["hand_size=99"]')),
    ("looks", _toml(looks="9")),
    ("seats", _toml(seats='"all"')),
    ("metric", _toml(metric='"seat_win_5"')),
    ("margin", _toml(margin="-1")),
]


@pytest.mark.parametrize("field, text", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_claim_is_one_line_naming_its_field(capsys, tmp_path, field, text):
    p = claim_file(tmp_path, "bad", text)
    code, out, err = invoke(capsys, ["settle", str(p), "--no-progress"])
    assert_one_line_error(code, out, err, f"field '{field}'" if field != "variant_rules"
                          else "field 'variant (or its rules)'", str(p))


def test_bad_toml_an_unknown_name_and_both_all_and_names(capsys, tmp_path):
    p = claim_file(tmp_path, "broken", 'claim = "unclosed\n')
    assert_one_line_error(*invoke(capsys, ["settle", str(p)]), "not valid TOML")
    assert_one_line_error(*invoke(capsys, ["settle", "stacking-longr"]), "stacking-longer")
    assert_one_line_error(*invoke(capsys, ["settle", "--all", "stacking-longer"]),
                          "not both")


# ---------------------------------------------------------------- the catalogue


def test_the_catalogue_has_every_argument_with_its_source(capsys):
    claims = catalogue()
    assert len(claims) >= 28
    assert len({c.name for c in claims}) == len(claims)
    for c in claims:
        # a document's title and where in it
        assert "«" in c.source and ("section" in c.source or "summary box" in c.source), c.name
        assert c.sentence[0].isupper() and not c.sentence.endswith(".")
    asked = {"stacking-longer", "first-seat-advantage", "hold-wilds-wins-rounds",
             "dump-wins-points", "challenge-pays", "bluff-pays", "jump-in-shorter",
             "seven-o-comeback", "draw-until-playable-longer", "two-player-reverse-first",
             "scoring-rewards-skill", "mostly-luck", "stacking-luckier", "seven-o-luckier",
             "first-uno-wins", "gang-up-works", "switch-is-skill",
             "more-players-first-edge-vanishes", "no-action-finish-longer",
             "no-action-finish-comeback", "last-draw-counts-points", "cross-stacking-longer",
             "fishing-draw-pays", "draw-ten-unfinishable"}
    assert asked <= {c.name for c in claims}
    assert {c.study for c in claims} == {"compare", "tournament", "skill", "sweep"}
    code, out, _ = invoke(capsys, ["settle"])
    assert code == 0
    for c in claims:
        assert c.name in out and c.sentence in out


def test_the_catalogue_ships_as_package_data():
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert '"unosim.studies.settle" = ["claims/*.toml"]' in text


# ---------------------------------------------------------------- the files


def test_out_writes_verdicts_a_page_and_readable_cards(capsys, tmp_path):
    """The first line's TRUE: --games 1500 plays 2,048 (one look, z = 1.96), se of
    draw-until-playable's paired difference about 1.8 turns; TRUE needs an estimate over
    4.6 turns, which its 40 passes by 19 se (no seed fails it; 3.1 turns or less fails
    with 80% power). (It read stacking, whose 3.0 turns passed by 2.1 se: about 1 seed
    in 60 failed.) Seed 4 reads +38.1. The second line only has to be a verdict."""
    from PIL import Image

    p = claim_file(tmp_path, "longer", STACKING.format(
        sentence="Drawing until you can play makes rounds longer", direction="higher",
        variant="draw-until-playable", looks=1))
    out = tmp_path / "out"
    code, text, err = invoke(capsys, ["settle", str(p), "jump-in-shorter", "--games", "1500",
                                      "--seed", "4", "--no-progress", "--out", str(out)])
    assert code == 0, err
    lines = text.splitlines()
    assert lines[0].startswith("TRUE: Drawing until you can play makes rounds longer")
    assert lines[1].split(":")[0] in VERDICTS
    data = json.loads((out / "verdicts.json").read_text())
    assert [v["name"] for v in data["verdicts"]] == ["longer", "jump-in-shorter"]
    assert data["seed"] == 4 and "O'Brien-Fleming" in data["method"]
    assert data["error"] == "each claim's error at most 5%"
    rows = (out / "verdicts.csv").read_text().splitlines()
    assert len(rows) == 3 and rows[0].startswith("name,verdict,where,effect,low,high,unit,"
                                                 "margin,z,level")
    html = (out / "settle.html").read_text()
    assert html.count("data:image/png;base64,") == 2
    assert "Drawing until you can play makes rounds longer" in html
    assert "Margin: ±1 turn (the metric&#x27;s default)" in html
    assert "family-wise" not in html and "each claim&#x27;s error at most 5%" in html
    assert "<script" not in html and "src=\"http" not in html
    for name in ("longer", "jump-in-shorter"):
        img = Image.open(out / "cards" / f"{name}.png")
        assert img.size == (1200, 675)
        px = np.asarray(img.convert("RGB"))
        assert len(np.unique(px.reshape(-1, 3), axis=0)) > 20  # not blank
        assert (px < 100).any(axis=2).mean() > 0.003  # text and the interval drawn
    assert not (out / "checkpoint.json").exists()  # a finished run drops its checkpoint


def test_a_card_opens_in_matplotlib(tmp_path):
    import matplotlib.image as mpimg

    from unosim.studies.settle.cards import card_png
    from unosim.studies.settle.verdicts import Cell, Verdict

    v = Verdict("x", "A claim", "src", "compare", "turns", "turns per round", "turns", 1.0,
                "higher", 0.0, "TRUE", [Cell("", 3.0, 2.0, 4.0, 1000, 1, "TRUE")], 1, 1000,
                1, "95%", "unosim settle x --seed 1", "turns")
    img = mpimg.imread(io.BytesIO(card_png(v)), format="png")
    assert img.shape[:2] == (675, 1200)
    assert img[..., :3].std() > 0.05


def test_a_card_shows_the_margin_band_and_a_long_verdict():
    """NO REAL DIFFERENCE fits on the card, the band of +-margin is drawn around 0 and
    the axis holds both edges of it, even when the interval is far narrower."""
    from matplotlib.colors import to_hex

    from unosim.studies.settle.cards import MARGIN_COLOUR, card_figure
    from unosim.studies.settle.verdicts import Cell, Verdict

    v = Verdict("x", "A claim", "src", "skill", "skill_edge", "skill edge", "", 1.0,
                "lower", 0.01, "NO REAL DIFFERENCE",
                [Cell("", -0.002, -0.003, -0.001, 1000, 1, "NO REAL DIFFERENCE")], 1, 1000,
                3, "95% over 3 looks", "unosim settle x --seed 1", "skill edge")
    fig = card_figure(v)
    texts = [t.get_text() for t in fig.texts]
    assert "NO REAL DIFFERENCE" in texts
    ax = fig.axes[0]
    lo, hi = ax.get_xlim()
    assert lo < -0.01 and hi > 0.01
    assert "margin ±0.01" in ax.get_xlabel()
    assert any(to_hex(p.get_facecolor()) == MARGIN_COLOUR.lower() for p in ax.patches)


def test_paired_tournament_points_are_the_difference_of_the_strategies_means():
    """The paired points of a tournament (per round, one strategy's points per seat minus
    the other's) average to the difference of their own means over the same rounds."""
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy
    from unosim.studies.lineups.tournament import run_tournament
    from unosim.studies.lineups.tournament_summary import summarize_tournament
    from unosim.studies.lineups.tournament_totals import paired_points

    for players in (3, 4):
        r = run_tournament(resolve([], [("players", players)]),
                           [parse_strategy("defensive"), parse_strategy("offensive")], 3000, 9)
        rows = {row["strategy"]: row for row in summarize_tournament(r)["results"]}
        for key in ("net_points", "points_won"):
            d, se, n = paired_points(r.totals, key, 0, 1)
            want = rows["defensive"][f"{key}_mean"] - rows["offensive"][f"{key}_mean"]
            assert d == pytest.approx(want, abs=1e-9) and 0 < se < 10 and n > 2000
            back, _, _ = paired_points(r.totals, key, 1, 0)
            assert back == pytest.approx(-d)


def test_the_same_seed_gives_the_same_verdicts_on_any_number_of_workers(capsys):
    from unosim.runs.backend import max_workers

    if max_workers() < 2:
        pytest.skip("one core: nothing to compare")
    runs = [settle_json(capsys, "stacking-longer", "dump-wins-points", "seven-o-luckier",
                        "--games", "2000", "--workers", str(w)) for w in (1, 2)]
    for r in runs:
        for v in r["verdicts"]:
            v.pop("elapsed_s")
    assert runs[0]["verdicts"] == runs[1]["verdicts"]
