"""How settle reads intervals against margins, without the engine: each place's
interval is made by hand (a stage that "plays" a look and reads back an estimate with a
standard error that shrinks as 1/sqrt(games)), so the verdict rules, the looks and their
z, the games needed and the catalogue's error are checked on known numbers."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from cli_helpers import invoke

from unosim.runs.checkpoint import Keeper
from unosim.stats import verdicts as V
from unosim.studies.settle import looks as S
from unosim.studies.settle.claims import catalogue, load_claim_file, parse_claim
from unosim.studies.settle.stages import Stage
from unosim.studies.settle.verdicts import Verdict, margin_text, to_dict, verdict_line, verdicts_csv

TURNS = {"claim": "Stacking makes rounds longer", "source": "a test", "study": "compare",
         "metric": "turns", "direction": "higher", "variant": ["stacking"], "games": 1000}


def claim(**changes):
    data = {**TURNS, **changes}
    return parse_claim({k: v for k, v in data.items() if v is not None}, "test.toml", "t")


def fake_stages(places: list[tuple[str, float, float]], played: list[int]):
    """One stage whose places have (where, true estimate, spread per game): a look of
    ``units`` games reads estimate +- z * spread / sqrt(units); ``played`` records the
    looks actually played."""

    def play(units, keep):
        played.append(units)
        return units

    def read(units, z):
        out = []
        for where, x, sd in places:
            se = sd / math.sqrt(units)
            out.append((where, x, x - z * se, x + z * se, math.nan, math.nan, units))
        return out

    def stages_of(c, seed, backend, on_batch):
        return [Stage(f"{c.name}@4", play, read, lambda u: u, lambda step: None)]

    return stages_of


def settle_fake(monkeypatch, c, places, alpha=0.05) -> tuple[Verdict, list[int]]:
    played: list[int] = []
    monkeypatch.setattr(S, "stages_of", fake_stages(places, played))
    return S.settle_claim(c, 1, None, Keeper(None, "settle", {}), alpha=alpha), played


# ---------------------------------------------------------------- the four readings


def test_an_interval_inside_the_margin_is_no_real_difference(monkeypatch):
    """Rounds 0.1 turn longer, known to +-0.05 after 1,000 games: inside the 1-turn
    margin from the first look, whatever the claim's direction."""
    for direction in ("higher", "lower"):
        v, played = settle_fake(monkeypatch, claim(direction=direction),
                                [("", 0.1, 1.0)])
        assert v.verdict == V.NO_DIFFERENCE == v.cells[0].verdict
        assert v.margin == 1.0 and not v.own_margin
        assert played == [1000] and v.cells[0].look == 1
        assert v.games_needed is None
        line = verdict_line(v)
        assert line.startswith("NO REAL DIFFERENCE: ") and "margin ±1 turn;" in line


def test_an_interval_beyond_the_margin_is_true_or_false(monkeypatch):
    v, _ = settle_fake(monkeypatch, claim(), [("", 3.0, 5.0)])
    assert v.verdict == V.TRUE and v.cells[0].low > 1.0
    v, _ = settle_fake(monkeypatch, claim(direction="lower"), [("", 3.0, 5.0)])
    assert v.verdict == V.FALSE
    # beyond 0 but not beyond the margin is not TRUE: 0.6 turns +- 0.06 reads as no
    # real difference, where the old reading (0 as the edge) said TRUE
    v, _ = settle_fake(monkeypatch, claim(), [("", 0.6, 1.0)])
    assert v.verdict == V.NO_DIFFERENCE and v.cells[0].low > 0


def test_an_interval_across_the_margin_plays_every_look_then_is_not_shown(monkeypatch):
    """1.05 turns +- about 1.4 at the cap straddles +1: undecided after 1x, 2x, 4x;
    the verdict is NOT SHOWN and says how many games would likely decide it."""
    v, played = settle_fake(monkeypatch, claim(), [("", 1.05, 20.0)])
    assert played == [1000, 2000, 4000]
    assert v.verdict == V.NOT_SHOWN and v.cells[0].look == 3
    assert v.games_played == 4000
    z = V.boundary([1, 2, 4]).z[-1]
    se = 20.0 / math.sqrt(4000)
    want = V.games_needed(1.05, se, 4000, 1.0, z)
    assert v.games_needed == pytest.approx(want) and v.games_needed > v.games_played
    assert v.games_suggested >= 1000 * want / 4000
    line = verdict_line(v)
    assert "would likely decide it (--games " in line
    assert f"{S._round_up(want) if want > 100 else math.ceil(want):,}" in line
    d = to_dict(v)
    assert d["games_needed"] >= want and d["games_suggested"] == v.games_suggested


def test_a_claim_stops_at_the_first_look_that_decides(monkeypatch):
    """An effect of 1.5 turns with spread 5: the first look (z = 4.33) cannot clear
    the margin, the second (z = 2.96) can."""
    v, played = settle_fake(monkeypatch, claim(), [("", 1.5, 5.0)])
    b = V.boundary([1, 2, 4])
    assert 1.5 - b.z[0] * 5 / math.sqrt(1000) < 1.0 < 1.5 - b.z[1] * 5 / math.sqrt(2000)
    assert played == [1000, 2000] and v.verdict == V.TRUE and v.cells[0].look == 2
    assert v.cells[0].z == pytest.approx(b.z[1])


def test_a_place_keeps_the_verdict_of_the_look_that_decided_it(monkeypatch):
    """Two seats: seat 0 decided at the first look, seat 1 only at the cap; seat 0's
    cell is the one of its first look (later looks do not reopen it)."""
    c = claim(metric="seat_win", seats="all", value="fair", variant=None, players=2)
    v, played = settle_fake(monkeypatch, c, [("seat 0", 0.10, 0.5), ("seat 1", 0.0056, 0.5)])
    assert played == [1000, 2000, 4000]
    s0, s1 = v.cells
    assert (s0.verdict, s0.look, s0.games) == (V.TRUE, 1, 1000)
    assert s1.look == 3
    assert v.games_played == 4000


def test_true_at_one_place_and_false_at_another_depends(monkeypatch):
    c = claim(metric="seat_win", seats="all", value="fair", variant=None, players=2)
    v, played = settle_fake(monkeypatch, c, [("seat 0", 0.1, 0.5), ("seat 1", -0.1, 0.5)])
    assert v.verdict == V.DEPENDS and played == [1000]
    assert "holds at seat 0" in verdict_line(v)


# ---------------------------------------------------------------- the level printed


def test_the_printed_level_is_the_boundarys(monkeypatch):
    v, _ = settle_fake(monkeypatch, claim(), [("", 3.0, 5.0)])
    b = V.boundary([1, 2, 4], 0.05, "obrien-fleming")
    assert v.z == pytest.approx(list(b.z)) and v.level == pytest.approx(b.level)
    assert v.boundary == "obrien-fleming" and v.alpha == 0.05
    zs = ", ".join(f"{z:.2f}" for z in b.z)
    assert v.confidence == f"95% over 3 looks (O'Brien-Fleming: z = {zs})"
    assert zs == "4.33, 2.96, 1.97"
    line = verdict_line(v)
    assert f"intervals {v.confidence}" in line and "95% CI" not in line
    # one look: the plain interval; a claim asked at 4 places splits its error
    one, _ = settle_fake(monkeypatch, claim(looks=1), [("", 3.0, 5.0)])
    assert one.confidence == "95% (z = 1.96)"
    c = claim(metric="seat_win", seats="all", value="fair", variant=None)
    four, _ = settle_fake(monkeypatch, c, [(f"seat {s}", 0.1, 0.5) for s in range(4)])
    b4 = V.boundary([1, 2, 4], 0.05 / 4)
    assert four.z == pytest.approx(list(b4.z)) and four.places == 4
    assert four.confidence.startswith("98.75% at each of 4 places over 3 looks")
    # the catalogue's share: the level each claim then has
    fam, _ = settle_fake(monkeypatch, claim(), [("", 3.0, 5.0)], alpha=0.05 / 22)
    assert fam.level == pytest.approx(V.boundary([1, 2, 4], 0.05 / 22).level)
    assert fam.confidence.startswith("99.77% over 3 looks")


def test_percent_shows_what_the_level_misses():
    assert [S.percent(p) for p in (0.95, 0.9875, 1 - 0.05 / 22, 0.999)] == [
        "95%", "98.75%", "99.77%", "99.9%"]


# ---------------------------------------------------------------- margins


def test_a_claim_files_own_margin_is_used(monkeypatch, tmp_path):
    p = tmp_path / "mine.toml"
    p.write_text("\n".join(f"{k} = {v!r}".replace("'", '"') for k, v in TURNS.items()
                           if k != "variant") + '\nvariant = ["stacking"]\nmargin = 0.05\n',
                 encoding="utf-8")
    c = load_claim_file(p)
    assert c.margin == 0.05 and c.own_margin
    # 0.2 turns +- 0.07 is inside the default 1-turn margin but beyond this one
    v, _ = settle_fake(monkeypatch, c, [("", 0.2, 0.5)])
    assert v.verdict == V.TRUE and v.margin == 0.05 and v.own_margin
    assert "margin ±0.05 turns" in verdict_line(v)
    assert to_dict(v)["margin_from"] == "claim"
    assert "margin" in verdicts_csv([v]).splitlines()[0].split(",")


def test_every_claim_has_a_margin_by_default():
    for c in catalogue():
        assert c.margin == V.default_margin(c.metric, c.mode) > 0, c.name
        assert not c.own_margin
    assert claim(margin=0).margin == 0 and claim(margin=0).own_margin  # a plain test
    assert claim(direction="same").margin == 1.0  # "same" takes the default too


def test_margin_text_in_the_claims_units():
    v = Verdict("x", "s", "src", "compare", "turns", "turns per round", "turns", 1.0,
                "higher", 2.0, "TRUE", [], 1, 1000, 3, "95%", "cmd", "about")
    assert margin_text(v) == "margin ±2 turns"
    assert margin_text(replace(v, margin=1.0)) == "margin ±1 turn"
    assert margin_text(replace(v, margin=0.005, unit="pp", scale=100.0)) == "margin ±0.5 pp"
    assert margin_text(replace(v, margin=0.01, unit="", scale=1.0)) == "margin ±0.01"


# ---------------------------------------------------------------- the catalogue's error


def test_all_shares_the_error_over_the_claims():
    claims = catalogue()
    alone = S.claim_alphas(claims, 0.05)
    assert set(alone.values()) == {0.05}
    shared = S.claim_alphas(claims, 0.05, family=True)
    assert all(a == pytest.approx(0.05 / len(claims)) for a in shared.values())
    assert V.familywise_error(list(shared.values())) == pytest.approx(0.05)
    assert S.family_text(len(claims), 0.05, True) == (
        f"family-wise error at most 5% over {len(claims)} claims (Bonferroni: each claim "
        f"at {S._pct(0.05 / len(claims))})")
    assert S.family_text(1, 0.05, True) == S.family_text(3, 0.05, False) == \
        "each claim's error at most 5%"


def test_alpha_reproduces_a_claims_share(capsys):
    from unosim.studies.settle.play import parse_alpha

    assert parse_alpha(None) == 0.05 and parse_alpha("0.01") == 0.01
    assert parse_alpha("0.05/22") == 0.05 / 22  # the same number the family gives
    n = len(catalogue())
    assert S.claim_alphas(catalogue(), 0.05, True)["stacking-longer"] == parse_alpha(
        f"0.05/{n}")
    for bad in ("0", "1.5", "x", "0.05/0", "0.05/x"):
        code, out, err = invoke(capsys, ["settle", "stacking-longer", "--alpha", bad])
        assert code == 2 and "--alpha" in err and "Traceback" not in err


def test_the_docs_table_of_margins_is_verdict_stats():
    """docs/settle.md lists every default margin as MARGINS has it."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "settle.md").read_text()
    for name, m in {**V.MARGINS}.items():
        assert f"| `{name}` |" in text, name
        row = next(line for line in text.splitlines() if line.startswith(f"| `{name}` |"))
        assert f"{m:g}" in row, (name, row)
