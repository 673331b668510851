"""A sweep's dimensions: the values of ``KEY=VALUES`` (``5..10``, ``5,7,9``,
``true,false`` or a list of choices) and of the player counts, each checked against
its key's domain, and the swept dimensions and fixed overrides they make."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from unosim.errors import UnosimError

#: the most values one swept dimension takes
MAX_VALUES = 64


@dataclass(frozen=True)
class Dim:
    """One swept dimension: a rule key, or ``players`` for the player count."""

    key: str
    values: tuple[Any, ...]


def parse_values(key: str, text: str) -> list[Any]:
    """``5..10``, ``5,7,9``, ``true,false`` or a list of choices, each value checked
    against the key's domain (a value outside it is bad input, not a refused point)."""
    from unosim.simulate.rules import SCHEMA, parse_value

    raw = text.strip()
    m = re.fullmatch(r"(-?\d+)\s*\.\.\s*(-?\d+)", raw)
    schema = SCHEMA.get(key)
    if m and key != "players" and schema is not None and schema.kind != "int":
        # a range steps by 1: on 0..1 of a probability it would sweep only 0 and 1
        what, example = {"float": ("any number, not only whole ones", "0,0.25,0.5"),
                         "bool": ("true or false", "true,false")}.get(
            schema.kind, ("a choice", ",".join(schema.choices[:2])))
        raise UnosimError(f"{key}={text}: a LO..HI range is for whole-number keys and {key} "
                          f"takes {what}; list the values instead, e.g. {key}={example}")
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if hi < lo:
            raise UnosimError(f"{key}={text}: the range is reversed; write {hi}..{lo}")
        items = [str(v) for v in range(lo, hi + 1)]
    elif ".." in raw:
        raise UnosimError(f"{key}={text}: a range is LO..HI with two whole numbers, e.g. 5..10")
    else:
        items = [x.strip() for x in raw.split(",")]
        if not raw or any(not x for x in items):
            raise UnosimError(f"{key}={text}: an empty value; give VALUES as 5..10, 5,7,9 or "
                              "true,false")
    if len(items) > MAX_VALUES:
        raise UnosimError(f"{key}={text}: {len(items)} values; a sweep takes at most "
                          f"{MAX_VALUES} per dimension")
    values = [parse_value(key, x) if key != "players" else player_count(x) for x in items]
    if len(set(map(str, values))) != len(values):
        raise UnosimError(f"{key}={text}: a value is given twice")
    return values


def player_count(text: str) -> int:
    """One player count (2..10) of ``--players VALUES``."""
    if not re.fullmatch(r"\d+", text) or not 2 <= int(text) <= 10:
        raise UnosimError(f"--players: {text!r} is not a player count (2..10)")
    return int(text)


def sweep_dims(rule: tuple[str, ...], players: str | None) -> tuple[list[Dim], dict[str, Any]]:
    """(swept dimensions, fixed overrides) of ``--rule KEY=VALUES`` and ``--players``:
    a key with one value is a fixed override, with several a swept dimension."""
    dims: list[Dim] = []
    fixed: dict[str, Any] = {}
    given = []
    for item in rule:
        key, eq, text = item.partition("=")
        if not eq:
            raise UnosimError(f"--rule expects KEY=VALUES, got {item!r}")
        if key.strip() == "players":
            raise UnosimError("sweep the player count with --players VALUES, not --rule")
        given.append((key.strip(), text))
    if players is not None:
        given.append(("players", players))
    for key, text in given:
        if key in fixed or any(d.key == key for d in dims):
            raise UnosimError(f"{key} is given twice")
        values = parse_values(key, text)
        if len(values) == 1:
            fixed[key] = values[0]
        else:
            dims.append(Dim(key, tuple(values)))
    if not dims:
        raise UnosimError("nothing to sweep: give --rule KEY=VALUES or --players VALUES with "
                          "two or more values, e.g. --rule hand_size=5..10")
    if len(dims) > 2:
        raise UnosimError(f"a sweep takes at most two swept dimensions, got {len(dims)}: "
                          f"{', '.join(d.key for d in dims)}")
    return dims, fixed
