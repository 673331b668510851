"""The arms of a comparison: a variant's label, rules and seats, and how variant names
(``NAME``, ``NAME+NAME`` or a TOML file) become labels and rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from unosim.errors import UnosimError
from unosim.simulate.rules import Rules
from unosim.strategies.registry import SeatStrategy

#: the most variants one comparison shows (the charts have a colour for each)
MAX_VARIANTS = 8


@dataclass(frozen=True)
class VariantSpec:
    """One arm of a comparison: its label, rules and seat strategies."""

    name: str
    rules: Rules
    seats: list[SeatStrategy]

    def changes(self) -> str:
        ch = self.rules.changed()
        return ", ".join(f"{k}={_show(v)}" for k, v in ch.items()) if ch else "none (official)"


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def split_variant(name: str) -> list[str]:
    """``stacking+no-bluff`` -> the presets applied in order."""
    parts = [p.strip() for p in name.split("+")]
    if not name.strip() or any(not p for p in parts):
        raise UnosimError(f"bad variant name {name!r} (use NAME or NAME+NAME)")
    return parts


def variant_label(parts: list[str] | tuple[str, ...]) -> str:
    """How a variant is named in tables, verdicts and charts: presets by name, a TOML
    file by its stem (``rules/my-rules.toml`` -> ``my-rules``), joined by ``+``."""
    from pathlib import Path

    from unosim.simulate.rules import is_variant_file

    return "+".join(Path(p).stem if is_variant_file(p) else p for p in parts) or "official"


def variant_labels(names: list[str] | tuple[str, ...]) -> list[str]:
    """Short labels for ``names``; a name whose short label another name shares keeps
    its full text, so two variants never get the same label."""
    short = [variant_label(split_variant(n)) for n in names]
    return [n.strip() if short.count(s) > 1 else s for n, s in zip(names, short, strict=True)]


def build_variants(
    names: tuple[str, ...] | list[str],
    resolve: Callable[[tuple[str, ...]], Any],
    seats_for: Callable[[int], list[Any]],
) -> list[VariantSpec]:
    """One VariantSpec per name; ``resolve(presets)`` gives its rules and
    ``seats_for(players)`` its seat strategies."""
    if len(names) > MAX_VARIANTS:
        raise UnosimError(f"compare takes at most {MAX_VARIANTS} variants, got {len(names)}")
    seen: set[str] = set()
    out = []
    for name, label in zip(names, variant_labels(names), strict=True):
        key = name.strip()
        if key in seen:
            raise UnosimError(f"variant {key!r} is given twice")
        seen.add(key)
        rules = resolve(tuple(split_variant(key)))
        out.append(VariantSpec(label, rules, seats_for(rules["players"])))
    return out
