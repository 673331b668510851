"""Validation of house-rule combinations (rules.py ``_check_combinations`` and the
deck checks; docs/rules.md#combinations-that-are-refused, docs/rules.md#rule-deck).

Every impossible combination is refused with a ``UnosimError`` whose one-line
message names the key; on the command line that is exit status 2 and one line on
stderr. The presets (docs/rules.md#presets) all resolve.
"""

from __future__ import annotations

import pytest
from scenario import rules

from unosim.cli import main
from unosim.errors import UnosimError
from unosim.simulate.rules import preset_names, resolve

REFUSED = [
    ({"draw_ten": "blanks"}, ["draw_ten", "blank"]),
    ({"swap_hands_wild": True}, ["swap_hands_wild"]),
    ({"draw_ten": "zeros", "seven_o": True}, ["draw_ten", "seven_o"]),
    ({"reverse_deflect": True, "jump_in": True}, ["reverse_deflect", "jump_in"]),
    ({"stack_cards": "mixed"}, ["stack_cards", "stacking"]),
    ({"stack_cards": "wd4_on_d2"}, ["stack_cards", "stacking"]),
    ({"stack_cards": "wd4_on_d2", "stacking": "deflect"}, ["stack_cards", "progressive"]),
    ({"downpour": True, "deck__wilds": 1}, ["downpour"]),
    ({"downpour": True, "deck__wild_draw_fours": 0}, ["downpour"]),
    ({"players": 10, "hand_size": 11}, ["hand_size"]),
    ({"players": 4, "hand_size": 7, "deck__numbers": 0, "deck__skips": 0, "deck__reverses": 0,
      "deck__draw_twos": 0}, ["hand_size"]),
    ({"deck__zeros": 0, "deck__numbers": 0}, ["deck"]),
]


@pytest.mark.parametrize(("overrides", "needles"), REFUSED,
                         ids=lambda v: ",".join(v) if isinstance(v, list) else None)
def test_impossible_combination_is_refused_naming_the_key(overrides, needles):
    with pytest.raises(UnosimError) as e:
        rules(**overrides)
    msg = str(e.value)
    assert "\n" not in msg
    for needle in needles:
        assert needle in msg


@pytest.mark.parametrize(("variants", "needles"), [
    (["seven-o", "draw-ten"], None),
    (["jump-in", "reverse-deflect"], ["reverse_deflect", "jump_in"]),
])
def test_presets_that_cannot_combine(variants, needles):
    if needles is None:
        # draw-ten is the blanks reading, which does combine with seven-o
        rules(*variants)
        with pytest.raises(UnosimError, match="seven_o"):
            rules(*variants, draw_ten="zeros")
        return
    with pytest.raises(UnosimError) as e:
        rules(*variants)
    for needle in needles:
        assert needle in str(e.value)


@pytest.mark.parametrize("overrides", [
    {"draw_ten": "blanks", "deck__blanks": 2},
    {"draw_ten": "blanks", "deck": "edition112"},
    {"swap_hands_wild": True, "deck__swap_hands": 1},
    {"swap_hands_wild": True, "deck": "edition112"},
    {"stack_cards": "mixed", "stacking": "deflect"},
    {"stack_cards": "mixed", "stacking": "progressive"},
    {"stack_cards": "wd4_on_d2", "stacking": "progressive"},
    {"finish_on_action": False, "final_draw": False, "seven_rounds": True, "elimination": True},
    {"downpour": True, "deck__wilds": 2, "deck__wild_draw_fours": 2},
    {"reverse_deflect": True, "stacking": "progressive"},
    {"jump_in": True, "seven_o": True, "swap_on_five": True},
    {"draw_ten": "zeros", "stacking": "progressive"},
    {"players": 10, "hand_size": 10},
])
def test_possible_combinations_are_accepted(overrides):
    rules(**overrides)


RULES_MD_PRESETS = [
    "official", "stacking", "stacking-mixed", "deflect", "seven-o", "jump-in",
    "draw-until-playable", "draw-one-pass", "skip-deflect", "reverse-deflect", "swap-on-five",
    "zero-fifty", "draw-ten", "color-rotation", "elimination", "seven-rounds",
    "number-only-start", "no-bluff", "losers-score", "lazy-scoring", "edition112", "ultra",
    "game-101", "russian-booklet",
]


@pytest.mark.parametrize("name", RULES_MD_PRESETS)
def test_every_preset_of_the_rule_book_exists_and_resolves(name):
    assert name in preset_names()
    rules(name)


@pytest.mark.parametrize(("name", "expect"), [
    ("deflect", {"stacking": "deflect"}),
    ("stacking-mixed", {"stacking": "progressive", "stack_cards": "mixed"}),
    ("ultra", {"stacking": "deflect", "stack_cards": "mixed", "skip_deflect": True}),
    ("skip-deflect", {"skip_deflect": True}),
    ("reverse-deflect", {"reverse_deflect": True}),
    ("seven-o", {"seven_o": True}),
    ("swap-on-five", {"swap_on_five": True}),
    ("zero-fifty", {"zero_fifty": True}),
    ("color-rotation", {"color_rotation": True}),
    ("elimination", {"elimination": True}),
    ("seven-rounds", {"seven_rounds": True}),
    ("edition112", {"deck": "edition112", "swap_hands_wild": True}),
    ("jump-in", {"jump_in": True}),
])
def test_preset_sets_its_keys(name, expect):
    r = rules(name)
    for key, value in expect.items():
        assert r[key] == value


def test_house_rules_are_off_by_default():
    r = resolve()
    assert (r["stacking"], r["stack_cards"], r["draw_ten"], r["jump_in_order"]) == (
        "none", "same", "none", "random")
    for key in ("skip_deflect", "reverse_deflect", "jump_in", "seven_o", "swap_on_five",
                "zero_fifty", "color_rotation", "elimination", "seven_rounds",
                "swap_hands_wild", "downpour", "uno_in_center", "wd4_challenge_takeback"):
        assert r[key] is False, key
    assert r["silent_twos"] == 0.0


# ======================================================================== CLI


def cli(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    return e.value.code, out, err


@pytest.mark.parametrize(("argv", "needles"), [
    (["--rule", "draw_ten=blanks"], ["draw_ten"]),
    (["--rule", "swap_hands_wild=true"], ["swap_hands_wild"]),
    (["--rule", "draw_ten=zeros", "--rule", "seven_o=true"], ["draw_ten", "seven_o"]),
    (["--variant", "jump-in", "--variant", "reverse-deflect"], ["reverse_deflect", "jump_in"]),
    (["--rule", "stack_cards=mixed"], ["stack_cards"]),
    (["--rule", "downpour=true", "--rule", "deck.wilds=1"], ["downpour"]),
    (["--rule", "jump_in_order=sideways"], ["jump_in_order", "sideways"]),
    (["--rule", "silent_twos=1.5"], ["silent_twos"]),
])
def test_cli_refuses_with_exit_2_and_one_line_naming_the_key(capsys, argv, needles):
    code, out, err = cli(capsys, [*argv, "--games", "10"])
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    for needle in needles:
        assert needle in lines[0]
