"""``unosim settle --error-rate`` end to end on a tiny configuration: the report, its
files, the options that go with it or not, a stop and ``--resume``; and the synthetic
procedure against settle itself on the same looks of real games."""

from __future__ import annotations

import csv
import json
import signal
from dataclasses import replace

import pytest
from cli_helpers import assert_one_line_error, invoke
from test_interrupt_studies import EXIT, files_whole, in_process, stop_midway

from unosim.runs.backend import LocalBackend
from unosim.stats import verdicts as V
from unosim.studies.checkpoints import Keeper
from unosim.studies.settle import error_rate as er
from unosim.studies.settle.looks import plan, settle_claim

TINY = ["settle", "--error-rate", "--seeds", "2", "--replications", "40", "--games", "300",
        "--seed", "3", "--no-progress"]


def _counts(s: dict) -> dict:
    return {p: {t["name"]: t["counts"] for t in s[p]} for p in ("synthetic", "real")}


def test_the_mode_reports_every_known_claim_and_setting(capsys, tmp_path):
    code, out, err = invoke(capsys, [*TINY, "--format", "json", "--out", str(tmp_path)])
    assert code == 0, err
    s = json.loads(out)
    assert s["seeds"] == s["seeds_done"] == 2 and s["partial"] is False
    assert [t["name"] for t in s["real"]] == [k.name for k in er.KNOWN]
    assert [t["name"] for t in s["synthetic"]] == [x.name for x in er.SETTINGS]
    for t in s["real"]:
        assert t["n"] == 2 and sum(t["counts"].values()) == 2
        assert t["wrong"] == sum(n for v, n in t["counts"].items()
                                 if v != "NOT SHOWN" and v not in t["right"])
    for t in s["synthetic"]:
        assert t["n"] == 40
    kinds = {t["name"]: t["kind"] for t in s["real"]}
    assert {"null", "planted"} == set(kinds.values())
    # each study settle uses among the nulls
    assert {k.fields["study"] for k in er.KNOWN if k.kind == "null"} == {
        "compare", "tournament", "skill"}
    files = json.loads((tmp_path / "error-rate.json").read_text())
    assert _counts(files) == _counts(s)
    rows = list(csv.DictReader((tmp_path / "error-rate.csv").open()))
    assert len(rows) == len(er.KNOWN) + len(er.SETTINGS)
    assert not (tmp_path / "checkpoint.json").exists()
    # the same seed, the same verdicts; the text report says what it measured
    code, text, err = invoke(capsys, TINY)
    assert code == 0, err
    assert "Real games: settle on claims with a known answer, 2 of 2 seeds" in text
    assert "sign null (margin 0)" in text and "power [95% interval]" in text
    assert "null claims with a margin pooled" in text


@pytest.mark.parametrize(("args", "needle"), [
    (["settle", "--seeds", "3"], "--seeds goes with --error-rate"),
    (["settle", "stacking-longer", "--replications", "3"], "--replications goes with"),
    (["settle", "--error-rate", "stacking-longer"], "drop the claim names"),
    (["settle", "--error-rate", "--all"], "drop --all"),
    (["settle", "--error-rate", "--players", "3"], "drop --players"),
    (["settle", "--error-rate", "--seeds", "-1"], "--seeds"),
    (["settle", "--error-rate", "--alpha", "2"], "--alpha"),
    (["settle", "--error-rate", "--seeds", "0", "--replications", "0"], "measures nothing"),
])
def test_what_goes_with_error_rate(capsys, args, needle):
    code, out, err = invoke(capsys, args)
    assert_one_line_error(code, out, err, needle)


@pytest.mark.subprocess
def test_a_stopped_error_rate_run_resumes_to_the_uninterrupted_figures(tmp_path, capsys,
                                                                       monkeypatch):
    """Stopped at its first checkpoint, written once the first of its 88 tasks of real
    games has merged (after the synthetic draws); the resume and the uninterrupted run
    play here (see test_interrupt_studies.py)."""
    argv = ["settle", "--error-rate", "--seeds", "2", "--replications", "30", "--seed", "8",
            "--format", "json", "--no-progress"]
    out = tmp_path / "out"
    code, stdout, err, _ = stop_midway([*argv, "--out", str(out)], signal.SIGINT,
                                       out / "checkpoint.json", 500)
    assert code == EXIT[signal.SIGINT], err[-3000:]
    partial = json.loads(stdout)
    assert partial["partial"] is True and partial["seeds_done"] < 2
    assert "interrupted after" in err and f"unosim settle --resume {out}" in err
    files_whole(out)
    code, done, err = in_process(capsys, monkeypatch, ["settle", "--resume", str(out),
                                                       "--format", "json", "--no-progress"],
                                 4000)
    assert code == 0, err[-3000:]
    assert not (out / "checkpoint.json").exists()
    resumed = json.loads(done)
    assert resumed["partial"] is False and resumed["seeds_done"] == 2
    code, whole, err = in_process(capsys, monkeypatch, argv, 4000)
    assert code == 0, err[-3000:]
    assert _counts(resumed) == _counts(json.loads(whole))


# ---------------------------------------------------------------- the same procedure


@pytest.fixture(scope="module")
def backend():
    b = LocalBackend(1)
    yield b
    b.close()


def _look(c, seed: int, games: int, backend) -> list[tuple[float, float]]:
    """Each place's (effect, standard error) after the first ``games`` games: the claim
    settled with one look of that size plays exactly the games of that look."""
    v = settle_claim(replace(c, games=games, looks=1), seed, backend,
                     Keeper(None, "settle", {}, None))
    return [(x.effect, (x.high - x.low) / (2 * x.z)) for x in v.cells]


@pytest.mark.parametrize("name", ["planted-longer", "planted-inside", "null-turns-sign",
                                  "null-turns-places"])
def test_the_synthetic_procedure_is_settles(name, backend):
    """``sequential_verdict`` fed with each look's intervals of real games reaches the
    verdict settle reaches on those games, and stops at the same look. (Games of 250
    at the first look: 4x that stays under 1,024, where a one-look claim of the same
    size plays exactly the games of the look.)"""
    (c,) = [c for k, c in er.known_claims() if k.name == name]
    c = replace(c, games=250)
    z = list(plan(c).z)
    for seed in range(1, 5):
        v = settle_claim(c, seed, backend, Keeper(None, "settle", {}, None))
        looks = [_look(c, seed, c.games << j, backend) for j in range(c.looks)]
        verdict, places, last = V.sequential_verdict(
            c.direction, c.margin, z,
            lambda look, zk, looks=looks: [(e - zk * se, e + zk * se)
                                           for e, se in looks[look - 1]])
        assert verdict == v.verdict, (seed, places, [x.verdict for x in v.cells])
        assert places == [x.verdict for x in v.cells]
        if len(v.cells) == 1:  # one stage: the same looks played
            assert last == v.cells[0].look or v.cells[0].verdict == "NOT SHOWN"
            assert v.games_total == c.games << (last - 1)
