"""The game array's layout is declared as blocks (layout.py): no two overlap, every
named index lies inside G and in its own block, and the checker that guards it at
import refuses a bad layout."""

from __future__ import annotations

import pytest

from unosim.simulate import layout as L
from unosim.simulate.cards import N_COLOURS, N_TYPES, TYPE_SLOTS
from unosim.simulate.rules import _PROB_SLOTS, INT_SLOTS, SCHEMA


def block(name: str) -> range:
    (offset, size), = [(o, s) for n, o, s in L.BLOCKS if n == name]
    return range(offset, offset + size)


def test_no_two_blocks_overlap_and_they_fill_g():
    spans = sorted((o, o + s) for _, o, s in L.BLOCKS)
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        assert end <= start
    assert spans[0][0] == 0 and spans[-1][1] == L.G_SIZE
    assert len({n for n, _, _ in L.BLOCKS}) == len(L.BLOCKS)


def test_every_named_index_lies_inside_g():
    names = L.indices()
    assert len(names) > 100
    for name, i in names.items():
        assert 0 <= i < L.G_SIZE, name
    offsets = {o for _, o, _ in L.BLOCKS}
    for name, i in names.items():
        if name.startswith("OFF_"):
            assert i in offsets, f"{name} is not where a block starts"


def test_each_name_lies_in_its_own_block():
    for prefix, name in (("S_", "state"), ("R_", "rules"), ("RF_", "table probabilities")):
        inside = [k for k in L.indices() if k.startswith(prefix)]
        assert inside
        for k in inside:
            assert getattr(L, k) in block(name), k
    # one slot a name, in the state and rule blocks
    for prefix in ("S_", "R_", "RF_"):
        values = [v for k, v in L.indices().items() if k.startswith(prefix)]
        assert len(values) == len(set(values)), prefix


def test_rule_slots_every_key_lowered_lies_in_the_rule_block():
    rules = block("rules")
    for key, slot in INT_SLOTS.items():
        assert key in SCHEMA and slot in rules, key
    for key, slot in _PROB_SLOTS.items():
        assert key in SCHEMA and slot in block("table probabilities"), key
    assert len({v for k, v in L.indices().items() if k.startswith("R_")}) <= L.N_RULES


def test_a_full_block_raises():
    f = L.Fields("tiny", start=10, capacity=2)
    assert (f(), f()) == (10, 11)
    with pytest.raises(L.LayoutError, match="tiny"):
        f()


def test_the_checker_refuses_overlaps_and_names_outside_g():
    good = [("a", 0, 4), ("b", 4, 6)]
    L.check_blocks(good, 10, {"X": 9})
    with pytest.raises(L.LayoutError, match="overlaps"):
        L.check_blocks([("a", 0, 4), ("b", 3, 6)], 10)
    with pytest.raises(L.LayoutError, match="overlaps"):
        L.check_blocks([("b", 4, 2), ("a", 0, 10)], 10)  # order does not hide it
    with pytest.raises(L.LayoutError, match="outside"):
        L.check_blocks([("a", 0, 4), ("b", 4, 7)], 10)
    with pytest.raises(L.LayoutError, match="outside"):
        L.check_blocks(good, 10, {"X": 10})
    with pytest.raises(L.LayoutError, match="outside"):
        L.check_blocks(good, 10, {"X": -1})


def test_hand_columns_and_move_codes_fit():
    assert L.HC_WILDS == L.HC_COLOUR + N_COLOURS  # a wild counts as the fifth colour
    assert L.HC_COLOUR == TYPE_SLOTS and L.HW > L.HC_LACKS
    assert L.MV_PLAY_END == L.MV_DRAW
    assert L.MV_ACCEPT < L.MV_COLOUR and L.MV_COLOUR + N_COLOURS <= L.MV_TARGET
    assert L.MV_TARGET + L.MAX_PLAYERS <= L.MV_GIVE
    assert L.MAX_MOVES >= N_TYPES  # the search counts the unseen cards by type in OFF_SCORE


def test_choice_ids_are_the_schema_choices():
    for key, ids in L.CHOICES.items():
        assert SCHEMA[key].choices == ids._fields, key
        assert len(set(ids)) == len(ids), key
