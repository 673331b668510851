"""The per-round metrics are declared once (simulate/round_metrics.py): the record's
layout, the state slots it is copied from, the run totals, the labels, the table rows,
the summary keys, the margins and the docs entries all follow the declaration, and a
new counter needs no line anywhere else but its kernel, its docs and its test."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from unosim.reports.metrics import feel_metrics, round_metrics
from unosim.runs.aggregate import METRICS
from unosim.simulate import layout as L
from unosim.simulate import round_metrics as RM
from unosim.stats import verdicts as V

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_record_starts_with_the_declared_fields_copied_from_their_slots():
    names = [f.name for f in RM.ROUND_FIELDS]
    assert list(L.GAME_FIELDS[: len(names)]) == names
    assert L.GAME_FIELDS[L.G_FEEL:] == tuple(m.name for m in RM.FEEL) == L.FEEL_METRICS
    assert L.RECORD_SLOTS == tuple(getattr(L, f.slot) for f in RM.ROUND_FIELDS)
    assert len(set(L.RECORD_SLOTS)) == len(L.RECORD_SLOTS)
    assert all(0 <= s < L.N_STATE for s in L.RECORD_SLOTS)
    assert L.FEEL_FIXED == tuple(m.name for m in RM.FEEL if m.fixed)
    assert L.FEEL_RATES == tuple(m.name for m in RM.FEEL if m.rate)


def test_every_declaration_is_whole():
    assert [f.name for f in RM.TOTALLED] == list(METRICS)
    for f in RM.TOTALLED:
        assert f.label and f.unit and f.margin and f.margin > 0, f.name
        assert f.figures[0] == "mean" and set(f.figures) <= {"mean", "se", "median", "p90"}
        assert (f.show in RM.SHOWN) == bool(f.row), f.name
        if f.show:
            assert "se" in f.figures, f.name
        if f.show == "spread":
            assert f.figures == ("mean", "se", "median", "p90"), f.name
    for m in RM.FEEL:
        assert m.label and m.unit and m.margin > 0 and not (m.rate and m.fixed), m.name


def test_labels_and_margins_come_from_the_declaration():
    shown = {m.name: m for m in round_metrics(4)}
    for f in RM.TOTALLED:
        assert (shown[f.name].label, shown[f.name].unit) == (f.label, f.unit)
        assert V.default_margin(f.name) == f.margin
    for m, d in zip(feel_metrics(), RM.FEEL, strict=True):
        assert (m.name, m.label, m.unit, m.rate) == (d.name, d.label, d.unit, d.rate)
        assert V.default_margin(d.name) == d.margin


def test_every_declared_metric_has_its_docs_entry():
    """docs/metrics.md gives each declared metric a row with the anchor metric-NAME."""
    text = (DOCS / "metrics.md").read_text(encoding="utf-8")
    for name in [f.name for f in RM.ROUND_FIELDS] + [m.name for m in RM.FEEL]:
        assert re.search(rf"\| `{name}`\{{ #metric-{name} \}} \|", text), name


def test_a_new_counter_gets_a_state_slot_and_a_column(monkeypatch):
    """A declared counter whose slot layout does not lay out takes the next state slot
    and the next scalar column; every other index keeps its value."""
    new = RM.RoundField("wilds_named", "S_WILDS_NAMED", "wilds named per round", "wilds",
                        0.1, "wilds named", "seen")
    monkeypatch.setattr(RM, "ROUND_FIELDS", (*RM.ROUND_FIELDS, new))
    spec = importlib.util.spec_from_file_location("layout_with_a_new_counter", L.__file__)
    grown = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(grown)
    assert grown.S_WILDS_NAMED == L.N_STATE and grown.N_STATE == L.N_STATE + 1
    k = len(RM.ROUND_FIELDS) - 1  # the new one, last of the scalar fields
    assert grown.GAME_FIELDS[k] == "wilds_named" and grown.RECORD_SLOTS[k] == L.N_STATE
    assert grown.N_G == L.N_G + 1
    assert all(getattr(grown, n) == getattr(L, n) for n in ("S_TURNS", "S_SILENT", "S_FEEL_AT",
                                                            "G_WINNER", "G_CAPPED"))


@pytest.mark.parametrize("show", RM.SHOWN)
def test_the_run_table_prints_the_declared_rows(show):
    from unosim.reports.render import render_table

    fields = [f for f in RM.TOTALLED if f.show == show]
    assert fields
    s = _summary()
    text = render_table(s)
    rows = [line.strip() for line in text.splitlines()]
    at = [next(i for i, r in enumerate(rows) if r.startswith(f.row + "  ")) for f in fields]
    assert at == sorted(at)


def _summary() -> dict:
    """A summary with every figure set, so every row (``seen`` ones too) prints."""
    import numpy as np

    from unosim.reports.summary import summarize
    from unosim.runs.aggregate import Aggregate, RunResult
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    agg = Aggregate(players=2)
    rec = np.ones((5, L.N_G), np.int32)
    rec[:, L.G_CAPPED] = 0
    rec[:, L.G_WINNER] = 0
    agg.add_records(rec)
    rules = resolve([], [("players", 2)])
    res = RunResult(rules, [parse_strategy("random")] * 2, 1, 5, agg, 1.0, 1)
    s = summarize(res, "official")
    assert [k for k in s if k.endswith(("_mean", "_se", "_median", "_p90"))
            and k.rsplit("_", 1)[0] in METRICS] == [
        f"{f.name}_{fig}" for f in RM.TOTALLED for fig in f.figures]
    return s
