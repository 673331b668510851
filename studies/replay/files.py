"""Replays from files: game K of a file of --save-games, rebuilt from the file's
header alone and checked against the file's row; round K of a file ``unosim play``
saved, with the person's moves from the file, checked to end as the file says. A
difference is refused (exit 2), not shown."""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

from unosim import provenance
from unosim.errors import UnosimError
from unosim.studies.replay.report import ReplayReport


class OtherVersionWarning(UserWarning):
    """A file of ``unosim play`` another version of unosim wrote, with the same engine:
    its round replays, and is checked against the file, so this is said, not refused."""


def replay_file(file: str | os.PathLike[str], game: int | None, variant: tuple[str, ...]
                ) -> ReplayReport:
    """``unosim replay FILE``: round ``game`` of a file of ``unosim play`` (the last by
    default), or game ``game`` of a file of --save-games (``variant``: at most one name,
    one of a comparison's variants)."""
    from unosim.runs.played_file import is_played_file

    path = Path(file)
    if is_played_file(path):
        if variant:
            raise UnosimError(f"{os.fspath(file)} holds the rules of its table: drop "
                              "--variant")
        return from_played(path, game)
    if game is None:
        check_file(path)  # a file that is not one says so, not "needs --game"
        raise UnosimError("replay FILE needs --game K, the game's index in the file")
    if len(variant) > 1:
        raise UnosimError("with FILE, --variant names one of its variants: give it once")
    return from_saved_games(path, game, variant[0] if variant else None)


def check_file(path: Path) -> None:
    """What is wrong with a FILE that is not a file of ``unosim play``: missing, empty,
    or not a file of --save-games (its reader's one line)."""
    from unosim.reports.saved_games import read_game

    if not path.exists():
        raise UnosimError(f"{path}: no such file")
    if path.is_file() and path.stat().st_size == 0:
        raise UnosimError(f"{path}: an empty file; replay reads the files of --save-games "
                          "and of unosim play --save")
    read_game(path, 0)


def from_played(path: Path, game: int | None) -> ReplayReport:
    """Round ``game`` (the last by default) of a file of ``unosim play``, played again
    with the person's moves from the file; it must end as the file says. A file another
    version of unosim wrote (with the same engine) is replayed, with an
    :class:`OtherVersionWarning`."""
    from unosim.runs import played_file
    from unosim.studies.replay.moves import trace
    from unosim.studies.replay.text import render_replay

    doc = played_file.read(path)
    wrote = doc.get("unosim_version")
    if wrote != provenance()["unosim_version"]:
        # the same engine (read refuses another): the round replays, and is checked
        # against the file, so another version is said, not refused
        warnings.warn(f"{path} was written by unosim {wrote}, this is unosim "
                      f"{provenance()['unosim_version']} with the same engine",
                      OtherVersionWarning, stacklevel=2)
    if game is None and doc["rounds"]:
        game = doc["rounds"][-1].index
    r, s = played_file.replay_round(doc, -1 if game is None else game, path, trace)
    labels = [s.seats[s.player(p)].label() for p in range(s.n)]
    labels[s.me] = "you"
    out = {"provenance": provenance(), "file": str(path), "seed": s.seed, "game": game,
           "players": s.n, "rules_changed": s.rules.changed(), "strategies": labels, **r}
    if s.match:
        out["match"] = {"seat_of_player": [(p - s.off) % s.n for p in range(s.n)],
                        "scores": list(s.scores()), "over": s.over, "winner": s.winner}
    text = render_replay(out, doc["variant"])
    if s.match:
        scores = ", ".join(f"{'you' if p == 0 else f'player {p}'} {v}"
                           for p, v in enumerate(s.scores()))
        end = (" · the match is over: " + ("nobody wins" if s.winner < 0 else "you win"
               if s.winner == 0 else f"player {s.winner} wins")) if s.over else ""
        text += (f"\n\nmatch scores after this round (player k sits k seats to your left): "
                 f"{scores}{end}")
    return ReplayReport(out, f"{text}\n\nthe same round as round {game} in {path}: your "
                             "moves, the winner, the points and the final hands")


def from_saved_games(path: Path, game: int, variant: str | None) -> ReplayReport:
    """Game ``game`` of a file of --save-games, rebuilt from the file's header alone
    (``variant`` names one of a comparison's variants), its record checked against the
    file's row."""
    from unosim.reports.saved_games import read_game
    from unosim.runs import modes
    from unosim.runs.game_files import check_header, pick_variant, table_of
    from unosim.studies.replay.play import replay, replay_match
    from unosim.studies.replay.text import render_match, render_replay

    header, rows = read_game(path, game)
    check_header(header, path)
    vi = pick_variant(header, variant, path)
    spec = header["variants"][vi]
    name = spec["name"]
    several = len(header["variants"]) > 1
    row = next((r for r in rows if not several or r.get("variant") == name), None)
    if row is None:
        raise UnosimError(f"{path} holds no game {game}" + (f" of variant {name}" if several
                                                            else ""))
    rules, seats = table_of(spec, path)
    seed = int(header["seed"])
    by_rounds = modes.of(header["mode"]).by_rounds  # a match: replayed as its result
    if by_rounds:
        r = replay_match(rules, seats, seed, game, int(header["max_rounds"]))
    else:
        r = replay(rules, seats, seed, game)
    check_row(r["result"], row, path, game)
    text = render_match(r, name) if by_rounds else render_replay(r, name)
    return ReplayReport({**r, "variant": name, "file": str(path), "row": row},
                        f"{text}\n\nthe same record as the row of game {game} in {path} "
                        f"(all {len(row) - 1 - several} columns)")


def check_row(record: dict[str, int], row: dict[str, Any], path: Path, game: int) -> None:
    """The replayed record must be the file's row, column by column (an absent seat's
    empty value is skipped; fixed-point values are compared in fixed point)."""
    from unosim.simulate.layout import FEEL_SCALE, FIXED_POINT_FIELDS

    for column, value in row.items():
        if column in ("game", "variant") or value is None:
            continue
        if column not in record:
            raise UnosimError(f"{path}: column {column!r} is not one of a record of "
                              "this unosim")
        mine = record[column]
        theirs = (round(float(value) * FEEL_SCALE) if column in FIXED_POINT_FIELDS
                  else int(value))
        if mine != theirs:
            shown = mine / FEEL_SCALE if column in FIXED_POINT_FIELDS else mine
            raise UnosimError(f"game {game} of {path} replays to another record than its "
                              f"row: {column} is {shown} here, {value} in the file")
