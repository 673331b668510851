"""Files that replay: the header a ``--save-games`` file carries (seed, mode, each
variant's rule values and seats, provenance), and the table of one of its games
rebuilt from that header alone, for ``unosim replay FILE --game K``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from unosim import provenance
from unosim.errors import UnosimError

#: what the header calls itself (a reader can tell a records file by it)
FORMAT = "unosim game records"


def records_header(variants: list[Any], seed: int, mode: Any, max_rounds: int | None,
                   games: int, command: str) -> dict[str, Any]:
    """The header of a ``--save-games`` file: ``variants`` are ``VariantSpec``s
    (label, rules, seats), ``mode`` a ``modes.Mode``."""
    from unosim.runs.match import DEFAULT_MAX_ROUNDS
    from unosim.runs.tables import seats_of

    return {
        "format": FORMAT,
        **provenance(),
        "command": command,
        "seed": seed,
        "mode": mode.name,
        "unit": mode.unit,
        "max_rounds": (max_rounds or DEFAULT_MAX_ROUNDS) if mode.by_rounds else None,
        "games": games,
        "variants": [{"name": v.name, "players": int(v.rules["players"]),
                      "rules": v.rules.as_dict(), "seats": seats_of(v.seats)}
                     for v in variants],
    }


def check_header(header: dict[str, Any], path: Path) -> None:
    """Refuse a file this unosim cannot replay to the same record: another engine
    (its compiled sources differ) or another layout of the outputs."""
    from unosim import ENGINE, SCHEMA_VERSION

    if header.get("format") != FORMAT or not header.get("variants"):
        raise UnosimError(f"{path}: its header is not that of a --save-games file")
    if header.get("schema_version") != SCHEMA_VERSION:
        raise UnosimError(f"{path}: written with file layout {header.get('schema_version')}, "
                          f"this unosim reads layout {SCHEMA_VERSION}")
    if header.get("engine") != ENGINE:
        raise UnosimError(
            f"{path}: written by unosim {header.get('unosim_version')} with engine "
            f"{header.get('engine')}; this is unosim {provenance()['unosim_version']} with "
            f"engine {ENGINE}, whose games may differ: replay it with the unosim that wrote it")


def pick_variant(header: dict[str, Any], name: str | None, path: Path) -> int:
    """The index of the variant ``--variant NAME`` names (needed when there are several)."""
    names = [v["name"] for v in header["variants"]]
    if name is None:
        if len(names) > 1:
            raise UnosimError(f"{path} holds {len(names)} variants ({', '.join(names)}): "
                              "choose one with --variant NAME")
        return 0
    if name not in names:
        from unosim.errors import did_you_mean

        raise UnosimError(f"{path} holds no variant {name!r}{did_you_mean(name, names)}; "
                          f"it holds {', '.join(names)}")
    return names.index(name)


def table_of(variant: dict[str, Any], path: Path) -> tuple[Any, list[Any]]:
    """The rules and seat strategies of a header's variant; a plug-in seat is loaded
    from the file it names, refused when that file changed since."""
    from unosim.runs.tables import load_plugin_seats, seat_text
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    load_plugin_seats(variant["seats"], f"since {path} was written")
    rules = resolve([], list(variant["rules"].items()))
    return rules, [parse_strategy(seat_text(s)) for s in variant["seats"]]
