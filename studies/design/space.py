"""The space a design searches: which rule keys may change and over which values, on
top of a base variant at a fixed player count; a candidate's rules and its changes
from the base.

``--keys`` items are key names (``jump_in,seven_o``: each over its default values)
or one key with its values as a sweep reads them (``hand_size=5..9``,
``stacking=none,progressive``). A value the rules refuse on the base alone is left
out of the space before the search (and said); a combination of values the rules
refuse is a refused candidate, counted and skipped, never an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from unosim.errors import UnosimError, did_you_mean
from unosim.runs import inputs
from unosim.runs.variants import VariantSpec

#: the keys a design may change by default: the house rules that shape a round, and
#: the hand size, with the values searched when a key is named without values. Left
#: out: the player count (fixed), the deck, scoring and the match keys (a round's
#: figures do not read them), and elimination and seven_rounds, which make a round
#: a game of several stages, ten to forty times as long to play (name them in --keys
#: to search them too)
DEFAULT_VALUES: dict[str, tuple[Any, ...]] = {
    "hand_size": (4, 5, 6, 7, 8, 9, 10),
    "draw_rule": ("draw_one", "draw_until_playable", "draw_one_pass"),
    "voluntary_draw": (True, False),
    "wd4_bluff": (True, False),
    "wd4_challenge": (True, False),
    "wd4_challenge_takeback": (False, True),
    "uno_in_center": (False, True),
    "silent_twos": (0.0, 0.3),
    "stacking": ("none", "progressive", "deflect"),
    "stack_cards": ("same", "mixed", "wd4_on_d2"),
    "finish_on_action": (True, False),
    "final_draw": (True, False),
    "skip_deflect": (False, True),
    "reverse_deflect": (False, True),
    "jump_in": (False, True),
    "jump_in_order": ("random", "nearest"),
    "seven_o": (False, True),
    "swap_on_five": (False, True),
    "draw_ten": ("none", "zeros"),
    "color_rotation": (False, True),
    "downpour": (False, True),
    "first_card": ("official", "number_only"),
}

#: keys a design never changes: the table itself
FIXED = ("players", "turn_cap")


def text(v: Any) -> str:
    """A rule value as ``--rule`` writes it (``true``, ``5``, ``progressive``)."""
    return str(v).lower() if isinstance(v, bool) else f"{v:g}" if isinstance(v, float) \
        else str(v)


@dataclass
class Space:
    """The keys and their values (each as text, in search order), the base they
    change and the values left out because the base alone refuses them."""

    base: tuple[str, ...]
    base_rules: tuple[str, ...]
    players: int
    keys: dict[str, tuple[str, ...]]
    dropped: dict[str, str] = field(default_factory=dict)

    @property
    def size(self) -> int:
        n = 1
        for v in self.keys.values():
            n *= len(v)
        return n

    def base_spec(self) -> VariantSpec:
        return VariantSpec(self.base_label, self.resolve({}), self.seats())

    @property
    def base_label(self) -> str:
        from unosim.runs.variants import variant_label

        label = variant_label(self.base)
        return label + (" with " + ", ".join(self.base_rules) if self.base_rules else "")

    def seats(self) -> list[Any]:
        return inputs.seats_for(self.players, "random", ())

    def resolve(self, values: dict[str, str]) -> Any:
        """The rules of a candidate: the base, its rules, then ``values``; raises
        UnosimError when the rules refuse the combination."""
        return inputs.resolve_rules(self.base, (*self.base_rules,
                                                *(f"{k}={v}" for k, v in values.items())),
                                    self.players)

    def changes(self, values: dict[str, str]) -> dict[str, str]:
        """The values of a candidate that differ from the base's rules."""
        base = self.resolve({})
        return {k: v for k, v in values.items() if text(base[k]) != v}

    def spec(self, name: str, values: dict[str, str]) -> VariantSpec:
        return VariantSpec(name, self.resolve(values), self.seats())

    def fingerprint(self) -> dict[str, Any]:
        return {"base": list(self.base), "base_rules": list(self.base_rules),
                "players": self.players, "keys": {k: list(v) for k, v in self.keys.items()}}


def parse_keys(items: tuple[str, ...] | list[str]) -> dict[str, tuple[Any, ...] | None]:
    """``--keys`` items: names separated by commas (None: their default values), or one
    ``KEY=VALUES``; none: every key of :data:`DEFAULT_VALUES`."""
    from unosim.simulate.rules import SCHEMA
    from unosim.studies.grids.dimensions import parse_values

    if not items:
        return dict.fromkeys(DEFAULT_VALUES)
    out: dict[str, tuple[Any, ...] | None] = {}
    for item in items:
        key, eq, vals = item.partition("=")
        names = [key.strip()] if eq else [k.strip() for k in item.split(",")]
        for k in names:
            if not k:
                raise UnosimError(f"--keys {item!r}: an empty key name")
            if k in FIXED:
                raise UnosimError(f"--keys {k}: a design keeps the {k} fixed"
                                  + (" (give --players N)" if k == "players" else ""))
            if k not in SCHEMA:
                raise UnosimError(f"--keys: unknown rule key {k!r}"
                                  + (did_you_mean(k, SCHEMA) or "; `unosim rules --keys` "
                                     "lists them"))
            if k in out:
                raise UnosimError(f"--keys: {k} is given twice")
            if eq:
                try:
                    out[k] = tuple(parse_values(k, vals))
                except UnosimError as e:
                    raise UnosimError(f"--keys {item}: {e}") from None
            elif k in DEFAULT_VALUES or SCHEMA[k].kind in ("bool", "choice"):
                out[k] = None
            else:
                raise UnosimError(f"--keys {k}: give its values, e.g. {k}=1..3 or "
                                  f"{k}=0,0.5 (it has no default values to search)")
    return out


def make_space(base: tuple[str, ...], base_rules: tuple[str, ...], players: int,
               keys: dict[str, tuple[Any, ...] | None]) -> Space:
    """The space of ``keys`` on the base: each key's values (its defaults when None),
    the base's own value first; values the base alone refuses are dropped (with the
    reason); a space with no key left that has two values is bad input."""
    from unosim.simulate.rules import SCHEMA

    space = Space(base, base_rules, players, {})
    rules = space.resolve({})  # an unknown base or a bad base rule: its own error
    for k, given in keys.items():
        schema = SCHEMA[k]
        values = list(given) if given is not None else list(
            DEFAULT_VALUES.get(k, (False, True) if schema.kind == "bool" else schema.choices))
        own = text(rules[k])
        texts = [own] + [t for t in map(text, values) if t != own]
        kept = []
        for t in texts:
            try:
                space.resolve({k: t})
                kept.append(t)
            except UnosimError as e:
                space.dropped[f"{k}={t}"] = str(e)
        if len(kept) > 1:
            space.keys[k] = tuple(kept)
    if not space.keys:
        raise UnosimError("the design space is empty: no key in --keys has a value other "
                          "than the base's that the rules accept"
                          + (f" (refused: {next(iter(space.dropped.values()))})"
                             if space.dropped else ""))
    return space
