"""Rule keys, variant presets and their lowering to the engine's flat arrays.

Every rule key (docs/rules.md#every-key) is declared once in ``SCHEMA`` (type, default =
official rule, allowed values, one line of help). Presets in ``configs/*.toml`` and
``--rule KEY=VALUE`` overrides are parsed against it, validated with one-line
errors that name the key, and frozen into a :class:`Rules`. ``lower`` turns that
into the numeric arrays the compiled engine reads, so no string crosses into it.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from unosim.errors import UnosimError, did_you_mean
from unosim.simulate import layout as L
from unosim.simulate.cards import (
    COLOUR_TABLE,
    DOWNPOUR_ONE,
    DOWNPOUR_TWO,
    POINTS,
    RANK_NIB,
    RANK_TABLE,
    WILD,
    WILD_DRAW_FOUR,
    deck_cards,
    deck_counts,
)
from unosim.simulate.rng_nb import probability_threshold


@dataclass(frozen=True)
class Key:
    """One rule key: its kind, official default, allowed values and meaning."""

    name: str
    kind: str  # "choice", "bool", "int", "float"
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    lo: float | None = None
    hi: float | None = None
    # values the engine plays today; anything else is refused, never ignored
    implemented: tuple[Any, ...] | None = None

    def kind_word(self) -> str:
        return "an integer" if self.kind == "int" else "a number"


def _k(*args: Any, **kw: Any) -> Key:
    return Key(*args, **kw)


def _choice(name: str, default: str, help: str, **kw: Any) -> Key:
    """A choice key whose values are those the engine has ids for (layout.CHOICES)."""
    return Key(name, "choice", default, help, L.CHOICES[name]._fields, **kw)


SCHEMA: dict[str, Key] = {
    k.name: k
    for k in [
        _k("deck", "choice", "classic108", "deck: classic108 or edition112 (+Swap Hands, 3 blanks)",
           ("classic108", "edition112")),
        _k("deck.zeros", "int", 1, "copies of 0 per colour", lo=0, hi=8),
        _k("deck.numbers", "int", 2, "copies of each 1-9 per colour", lo=0, hi=8),
        _k("deck.skips", "int", 2, "Skips per colour", lo=0, hi=8),
        _k("deck.reverses", "int", 2, "Reverses per colour", lo=0, hi=8),
        _k("deck.draw_twos", "int", 2, "Draw Twos per colour", lo=0, hi=8),
        _k("deck.wilds", "int", 4, "Wild cards", lo=0, hi=16),
        _k("deck.wild_draw_fours", "int", 4, "Wild Draw Four cards", lo=0, hi=16),
        _k("deck.swap_hands", "int", 0, "Swap Hands wilds", lo=0, hi=4),
        _k("deck.blanks", "int", 0, "blank wilds", lo=0, hi=8),
        _k("players", "int", 4, "players at the table", lo=2, hi=10),
        _k("hand_size", "int", 7, "cards dealt to each player", lo=1, hi=20),
        _choice("first_card", "official", "first flipped card: official table or number_only"),
        _choice("draw_rule", "draw_one", "what a player without a play draws"),
        _k("voluntary_draw", "bool", True, "may draw while holding a playable card"),
        _k("wd4_bluff", "bool", True, "a strategy may play Wild Draw Four illegally"),
        _k("wd4_challenge", "bool", True, "the victim of a Wild Draw Four may challenge it"),
        _k("wd4_challenge_takeback", "bool", False, "a caught bluffer also takes the card back"),
        _k("two_player_reverse_skips", "bool", True, "with two players Reverse acts as Skip"),
        _k("uno_penalty", "int", 2, "cards drawn when caught not calling UNO", lo=0, hi=10),
        _k("uno_forget_prob", "float", 0.0, "chance a player forgets to call UNO", lo=0, hi=1),
        _k("uno_catch_prob", "float", 1.0, "chance a forgotten call is caught", lo=0, hi=1),
        _k("uno_in_center", "bool", False, "calling UNO makes another player draw 2"),
        _k("silent_twos", "float", 0.0, "chance each player breaks the silence after a 2",
           lo=0, hi=1),
        _choice("stacking", "none", "stack draw cards: none, progressive or deflect"),
        _choice("stack_cards", "same", "which draw cards stack on which"),
        _k("finish_on_action", "bool", True, "a player may go out on an action card or wild"),
        _k("final_draw", "bool", True,
           "a Draw card that ends the round still makes the next player draw"),
        _k("skip_deflect", "bool", False, "a skipped player may pass the Skip on"),
        _k("reverse_deflect", "bool", False, "a Reverse sends a draw penalty back"),
        _k("jump_in", "bool", False, "play an identical card out of turn"),
        _choice("jump_in_order", "random", "who jumps in first"),
        _k("seven_o", "bool", False, "7 swaps hands, 0 rotates all hands"),
        _k("swap_on_five", "bool", False, "a 5 trades one card with a chosen player"),
        _k("zero_fifty", "bool", False, "a lone 0 left at scoring is worth 50"),
        _choice("draw_ten", "none", "+10 cards: none, blanks or zeros"),
        _k("color_rotation", "bool", False, "a wild sets the next colour in the cycle"),
        _k("elimination", "bool", False, "play on until one player is left"),
        _k("seven_rounds", "bool", False, "refill the hand 6, 5 .. 1 cards before winning"),
        _k("swap_hands_wild", "bool", False, "the Swap Hands wild swaps hands"),
        _k("downpour", "bool", False, "UNO H2O Downpour wilds"),
        _choice("scoring", "winner_takes", "how a round is scored", implemented=L.Scoring._fields),
        _k("target_score", "int", 500, "match target score", lo=1, hi=100000),
        _choice("dealer_rotation", "clockwise", "who deals the next round"),
        _k("turn_cap", "int", 5000, "safety cap: a round is stopped (capped) after this many turns",
           lo=10, hi=1000000),
    ]
}


@dataclass(frozen=True)
class Rules:
    """A resolved, validated rule set: every key of ``SCHEMA`` with its value."""

    values: MappingProxyType = field(default_factory=lambda: MappingProxyType(defaults()))

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def changed(self) -> dict[str, Any]:
        """Keys whose value differs from the official rules."""
        return {k: v for k, v in self.values.items() if v != SCHEMA[k].default}

    def as_dict(self) -> dict[str, Any]:
        return dict(self.values)


def defaults() -> dict[str, Any]:
    return {k.name: k.default for k in SCHEMA.values()}


# ---------------------------------------------------------------- parsing


def parse_value(key: str, raw: Any) -> Any:
    """Check and convert one value for ``key`` (strings from the CLI or TOML values)."""
    if key not in SCHEMA:
        raise UnosimError(f"unknown rule key {key!r}{did_you_mean(key, SCHEMA)}; see "
                          "`unosim rules --keys`")
    k = SCHEMA[key]
    if k.kind == "bool":
        if isinstance(raw, bool):
            return raw
        s = str(raw).strip().lower()
        if s in ("true", "1", "yes", "on"):
            return True
        if s in ("false", "0", "no", "off"):
            return False
        raise UnosimError(f"rule {key}: expected true or false, got {raw!r}")
    if k.kind == "choice":
        s = str(raw).strip()
        if s not in k.choices:
            raise UnosimError(f"rule {key}: {raw!r} is not one of {', '.join(k.choices)}"
                              + did_you_mean(s, k.choices))
        return s
    if isinstance(raw, bool):
        raise UnosimError(f"rule {key}: expected a number, got {raw!r}")
    try:
        v = int(raw) if k.kind == "int" and not isinstance(raw, float) else float(raw)
    except (TypeError, ValueError):
        raise UnosimError(f"rule {key}: expected {k.kind_word()}, got {raw!r}") from None
    if not math.isfinite(v):
        raise UnosimError(f"rule {key}: expected a finite number, got {raw!r}")
    if k.kind == "int" and v != int(v):
        raise UnosimError(f"rule {key}: expected an integer, got {raw!r}")
    v = int(v) if k.kind == "int" else float(v)
    if (k.lo is not None and v < k.lo) or (k.hi is not None and v > k.hi):
        raise UnosimError(f"rule {key}: {v} is outside {_num(k.lo)}..{_num(k.hi)}")
    return v


def _num(x: float | None) -> str:
    return str(int(x)) if x is not None and x == int(x) else str(x)


def parse_assignment(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` from the command line."""
    if "=" not in text:
        raise UnosimError(f"--rule expects KEY=VALUE, got {text!r}")
    key, raw = text.split("=", 1)
    key = key.strip()
    return key, parse_value(key, raw)


# ---------------------------------------------------------------- presets


def preset_names() -> list[str]:
    files = resources.files("unosim.configs")
    return sorted(p.name[:-5] for p in files.iterdir() if p.name.endswith(".toml"))


def is_variant_file(name: str) -> bool:
    """``--variant`` names a TOML file (rather than a preset) when it ends in
    ``.toml`` or contains a path separator."""
    return name.lower().endswith(".toml") or "/" in name or "\\" in name


def load_preset(name: str) -> tuple[str, dict[str, Any]]:
    """(description, rule values) of a preset in configs/, or of a TOML file of the
    same format when ``name`` is a path (``my-rules.toml``, ``configs/x.toml``)."""
    if is_variant_file(name):
        return load_variant_file(name)
    path = resources.files("unosim.configs") / f"{name}.toml"
    if not name or not path.is_file():
        raise UnosimError(
            f"unknown variant {name!r}{did_you_mean(name, preset_names())}; known variants: "
            f"{', '.join(preset_names())} (or a path to a .toml file)"
        )
    return parse_variant(path.read_text(encoding="utf-8"), f"variant {name}")


def load_variant_file(name: str) -> tuple[str, dict[str, Any]]:
    """A user's variant file: ``description = "..."`` and a ``[rules]`` table."""
    label = f"variant file {name}"
    path = Path(name).expanduser()
    if not path.exists():
        stem = Path(name).stem
        hint = f" (the preset is named {stem!r}, without .toml)" if (
            stem in preset_names() and not path.parent.parts) else ""
        raise UnosimError(f"{label}: no such file{hint}")
    if path.is_dir():
        raise UnosimError(f"{label}: is a directory, not a TOML file")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise UnosimError(f"{label}: cannot read it ({e.strerror or e})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnosimError(f"{label}: not UTF-8 text") from None
    return parse_variant(text, label)


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``deck.zeros = 2`` written without quotes is a nested table in TOML; read it as
    the dotted key it means."""
    out: dict[str, Any] = {}
    for k, v in table.items():
        name = prefix + str(k)
        if isinstance(v, dict):
            out.update(_flatten(v, name + "."))
        else:
            out[name] = v
    return out


def parse_variant(text: str, label: str) -> tuple[str, dict[str, Any]]:
    """Parse and check the text of a variant file; errors start with ``label``."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UnosimError(f"{label}: malformed TOML ({e})") from None
    unknown = sorted(set(doc) - {"description", "rules"})
    if unknown:
        raise UnosimError(
            f"{label}: unknown top-level key {unknown[0]!r} (a variant file has "
            'description = "..." and a [rules] table)'
        )
    desc = doc.get("description", "")
    if not isinstance(desc, str):
        raise UnosimError(f"{label}: description must be a string, got {desc!r}")
    rules = doc.get("rules", {})
    if not isinstance(rules, dict):
        raise UnosimError(f"{label}: [rules] must be a table, got {rules!r}")
    values = {}
    for k, v in _flatten(rules).items():
        try:
            values[k] = parse_value(k, v)
        except UnosimError as e:
            raise UnosimError(f"{label}: {e}") from None
    return desc, values


def resolve(
    variants: list[str] | tuple[str, ...] = (),
    overrides: list[tuple[str, Any]] | tuple[tuple[str, Any], ...] = (),
) -> Rules:
    """Official rules, then each preset in order, then ``--rule`` overrides."""
    values = defaults()
    for name in variants:
        values.update(load_preset(name)[1])
    for key, v in overrides:
        values[key] = parse_value(key, v)
    validate(values)
    return Rules(MappingProxyType(values))


def validate(values: dict[str, Any]) -> None:
    """Refuse unimplemented values and impossible combinations, naming the key."""
    for key, k in SCHEMA.items():
        v = values[key]
        if k.implemented is not None and v not in k.implemented:
            raise UnosimError(f"rule {key}={_show(v)} is not implemented yet")
    _check_combinations(values)
    counts = deck_counts_for(values)
    size = int(counts.sum())
    need = values["players"] * values["hand_size"] + 1
    if size < need:
        raise UnosimError(
            f"rule hand_size: the deck has {size} cards, too few for "
            f"{values['players']} players x {values['hand_size']} cards + 1"
        )
    if size > L.MAX_DECK:
        raise UnosimError(f"rule deck: {size} cards is more than the engine holds ({L.MAX_DECK})")
    numbers = int(counts[: 4 * 13].reshape(4, 13)[:, :10].sum())
    starters = numbers if values["first_card"] == "number_only" else int(counts[: WILD + 1].sum())
    dealt = values["players"] * values["hand_size"]
    if starters <= dealt:
        # otherwise every card that may start a round could be in the hands
        number_only = values["first_card"] == "number_only"
        kind = "number cards" if number_only else "coloured cards and Wilds"
        raise UnosimError(
            f"rule first_card: the deck has {starters} {kind} that can start a round; "
            f"it needs more than the {dealt} cards dealt"
        )


def _check_combinations(v: dict[str, Any]) -> None:
    """Combinations the rule book rules out or that have nothing to act on."""
    e112 = v["deck"] == "edition112"
    if v["draw_ten"] == "blanks" and v["deck.blanks"] == 0 and not e112:
        raise UnosimError(
            "rule draw_ten=blanks needs blank cards (deck=edition112 or deck.blanks>0)"
        )
    if v["swap_hands_wild"] and v["deck.swap_hands"] == 0 and not e112:
        raise UnosimError(
            "rule swap_hands_wild needs Swap Hands cards (deck=edition112 or deck.swap_hands>0)"
        )
    if v["draw_ten"] == "zeros" and v["seven_o"]:
        raise UnosimError("rule draw_ten=zeros cannot be combined with seven_o (both use the 0s)")
    if v["reverse_deflect"] and v["jump_in"]:
        raise UnosimError(
            "rule reverse_deflect cannot be combined with jump_in (the sources give no reading)"
        )
    if v["stack_cards"] == "mixed" and v["stacking"] == "none":
        raise UnosimError("rule stack_cards=mixed needs stacking=progressive or deflect")
    if v["stack_cards"] == "wd4_on_d2" and v["stacking"] != "progressive":
        raise UnosimError("rule stack_cards=wd4_on_d2 needs stacking=progressive (a Wild "
                          "Draw Four answers a penalty only when penalties add up)")
    if v["downpour"] and (v["deck.wilds"] < 2 or v["deck.wild_draw_fours"] < 2):
        raise UnosimError("rule downpour needs at least 2 Wilds and 2 Wild Draw Fours in the deck")


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def deck_counts_for(values: dict[str, Any] | Rules) -> np.ndarray:
    """Copies per card type: the ``deck.*`` counts, plus one Swap Hands and three
    blank wilds for ``edition112``; ``downpour`` turns two Wilds into Downpour
    Draw 1 and two Wild Draw Fours into Downpour Draw 2 (UNO H2O)."""
    e112 = values["deck"] == "edition112"
    counts = deck_counts(
        zeros=values["deck.zeros"],
        numbers=values["deck.numbers"],
        skips=values["deck.skips"],
        reverses=values["deck.reverses"],
        draw_twos=values["deck.draw_twos"],
        wilds=values["deck.wilds"],
        wild_draw_fours=values["deck.wild_draw_fours"],
        swap_hands=values["deck.swap_hands"] + (1 if e112 else 0),
        blanks=values["deck.blanks"] + (3 if e112 else 0),
    )
    if values["downpour"]:
        counts[WILD] -= 2
        counts[WILD_DRAW_FOUR] -= 2
        counts[DOWNPOUR_ONE] = 2
        counts[DOWNPOUR_TWO] = 2
    return counts


# ---------------------------------------------------------------- lowering

#: rule key -> {value: id}: the ids declared once in layout.py, which the kernels read
_CHOICE_IDS = {key: ids._asdict() for key, ids in L.CHOICES.items()}

#: rule key -> its slot in the game array, for the keys played as whole numbers (the
#: lowering below writes them; a Python strategy's ``view.rules`` reads them)
INT_SLOTS = {
    "players": L.R_PLAYERS,
    "hand_size": L.R_HAND_SIZE,
    "first_card": L.R_FIRST_CARD,
    "draw_rule": L.R_DRAW_RULE,
    "voluntary_draw": L.R_VOLUNTARY_DRAW,
    "wd4_bluff": L.R_WD4_BLUFF,
    "wd4_challenge": L.R_WD4_CHALLENGE,
    "wd4_challenge_takeback": L.R_WD4_TAKEBACK,
    "two_player_reverse_skips": L.R_TWO_P_REVERSE_SKIPS,
    "uno_penalty": L.R_UNO_PENALTY,
    "uno_in_center": L.R_UNO_IN_CENTER,
    "stacking": L.R_STACKING,
    "stack_cards": L.R_STACK_CARDS,
    "finish_on_action": L.R_FINISH_ON_ACTION,
    "final_draw": L.R_FINAL_DRAW,
    "skip_deflect": L.R_SKIP_DEFLECT,
    "reverse_deflect": L.R_REVERSE_DEFLECT,
    "jump_in": L.R_JUMP_IN,
    "jump_in_order": L.R_JUMP_IN_ORDER,
    "seven_o": L.R_SEVEN_O,
    "swap_on_five": L.R_SWAP_ON_FIVE,
    "zero_fifty": L.R_ZERO_FIFTY,
    "draw_ten": L.R_DRAW_TEN,
    "color_rotation": L.R_COLOR_ROTATION,
    "elimination": L.R_ELIMINATION,
    "seven_rounds": L.R_SEVEN_ROUNDS,
    "swap_hands_wild": L.R_SWAP_HANDS_WILD,
    "downpour": L.R_DOWNPOUR,
    "scoring": L.R_SCORING,
    "target_score": L.R_TARGET_SCORE,
    "dealer_rotation": L.R_DEALER_ROTATION,
    "turn_cap": L.R_TURN_CAP,
}

_PROB_SLOTS = {
    "uno_catch_prob": L.RF_UNO_CATCH,
    "silent_twos": L.RF_SILENT_TWOS,
}


def card_tables() -> np.ndarray:
    """The constant tables the template carries at layout.OFF_CARD_COLOUR ..
    OFF_SEAT_LANE (see there), laid end to end."""
    lane = np.array([1 << (16 * p) if p < 4 else 0 for p in range(L.MAX_PLAYERS)])
    return np.concatenate([COLOUR_TABLE, RANK_TABLE, RANK_NIB, POINTS, lane]).astype(np.int64)


def lower(rules: Rules) -> np.ndarray:
    """The game array ``G`` with the rules, the table probabilities and the deck
    filled in (state, hands and piles zero; seats are added by the runner)."""
    G = np.zeros(L.G_SIZE, dtype=np.int64)
    for key, slot in INT_SLOTS.items():
        v = rules[key]
        G[slot] = _CHOICE_IDS[key][v] if key in _CHOICE_IDS else int(v)
    for key, slot in _PROB_SLOTS.items():
        G[slot] = probability_threshold(float(rules[key]))
    deck = deck_cards(deck_counts_for(rules))
    G[L.R_DECK_SIZE] = deck.shape[0]
    G[L.OFF_DECK : L.OFF_DECK + deck.shape[0]] = deck
    tables = card_tables()
    for world in (0, L.OFF_W0, L.OFF_W):  # the game's and the search's worlds'
        G[world + L.OFF_CARD_COLOUR : world + L.OFF_SEAT_LANE + L.MAX_PLAYERS] = tables
    return G
