"""The file ``unosim play`` saves a table's rounds in, and their replay.

It holds what the rounds are dealt and played from: the rules, the opponents' seats,
the seed, single rounds or a match, whether the person called UNO themselves, and per
round the person's seat and moves in order (the opponents' moves follow from the
seed), the moves played without the UNO call, and how the round ended, which a replay
must reach again. JSON, rewritten whole after each round; a file without
``call_uno`` or ``forgot`` (written before they were) reads as the engine calling.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

from unosim import provenance
from unosim.errors import UnosimError
from unosim.runs.game import Game
from unosim.runs.played import Calling, Round, Sitting
from unosim.simulate.step_nb import cap_round

#: what the file calls itself (a reader tells it from a --save-games file by it)
FORMAT = "unosim played games"
T = TypeVar("T")


def is_played_file(path: Path) -> bool:
    """Whether ``path`` is a file of ``unosim play`` (it names its format first)."""
    try:
        with path.open("rb") as f:
            head = f.read(200)
    except OSError:
        return False
    return f'"format": "{FORMAT}"'.encode() in head


def document(s: Sitting, variant: str, command: str) -> dict[str, Any]:
    """The file's content for the rounds of ``s`` kept so far."""
    from unosim.runs.tables import seats_of

    out: dict[str, Any] = {
        "format": FORMAT,
        **provenance(),
        "command": command,
        "variant": variant,
        "players": s.n,
        "rules": s.rules.as_dict(),
        "opponents": seats_of(s.seats[1:]),
        "seed": s.seed,
        "match": s.match,
        "call_uno": s.call_uno,
        "rounds": [asdict(r) for r in s.rounds],
    }
    if s.match:
        out["match_result"] = {"over": s.over, "winner": s.winner, "scores": list(s.scores()),
                               "tied": s.tied, "capped": s.capped}
    return out


def save(path: Path, s: Sitting, variant: str, command: str) -> None:
    """Write the file anew (through a temporary file, so a crash never leaves half)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(document(s, variant, command), indent=1) + "\n",
                       encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        # a full disk fails halfway through the temporary file: leave none behind
        # (the file itself still holds the rounds saved before)
        tmp.unlink(missing_ok=True)
        raise UnosimError(f"cannot save the game in {path}: {e.strerror or e}") from None


def read(path: Path) -> dict[str, Any]:
    """The file's content, checked: a file of another kind, a damaged one, one of
    another layout (``schema_version``) or one another engine wrote is refused in one
    line. Another ``unosim_version`` with the same engine is not: the replay checks
    the round against the file anyway (the command says which version wrote it)."""
    from unosim import ENGINE, SCHEMA_VERSION

    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise UnosimError(f"cannot read {path}: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UnosimError(f"{path}: not a file of unosim play (not JSON: {e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UnosimError(f"{path}: not a file of unosim play")
    if doc.get("schema_version") != SCHEMA_VERSION:
        raise UnosimError(f"{path}: written with file layout {doc.get('schema_version')}, "
                          f"this unosim reads layout {SCHEMA_VERSION}")
    if doc.get("engine") != ENGINE:
        raise UnosimError(
            f"{path}: written by unosim {doc.get('unosim_version')} with engine "
            f"{doc.get('engine')}, whose games may differ from this engine's ({ENGINE}): "
            "replay it with the unosim that wrote it")
    try:
        rounds = [Round(**{**r, "moves": tuple(r["moves"]),
                           "final_hands": tuple(map(tuple, r["final_hands"])),
                           "scores": None if r["scores"] is None else tuple(r["scores"]),
                           "forgot": tuple(int(i) for i in r.get("forgot", ()))})
                  for r in doc["rounds"]]
        for k in ("rules", "opponents", "seed", "match", "players", "variant"):
            doc[k]  # noqa: B018 - a missing key is a damaged file
    except (KeyError, TypeError, ValueError) as e:
        raise UnosimError(f"{path}: a damaged file of unosim play ({type(e).__name__}: "
                          f"{e})") from None
    doc["rounds"] = rounds
    return doc


def sitting_of(doc: dict[str, Any], path: Path) -> Sitting:
    """The table the file's rounds were played at, rebuilt from the file alone."""
    from unosim.runs.tables import load_plugin_seats, seat_text
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    try:
        load_plugin_seats(doc["opponents"], f"since {path} was written")
        rules = resolve([], list(doc["rules"].items()))
        opponents = [parse_strategy(seat_text(s)) for s in doc["opponents"]]
        return Sitting(rules, opponents, int(doc["seed"]), bool(doc["match"]),
                       bool(doc.get("call_uno", False)))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise UnosimError(f"{path}: a damaged file of unosim play ({type(e).__name__}: "
                          f"{e})") from None


def play_out(g: Game, choose: Callable[[Game], str]) -> None:
    """Play round ``g`` to its end (or the turn cap), each move by ``choose``."""
    cap = int(g.rules["turn_cap"])
    while not g.over:
        if g.stat("turns") >= cap:
            cap_round(g.G)
            break
        g.apply(choose(g))


def replay_round(doc: dict[str, Any], k: int, path: Path,
                 play: Callable[[Game, Callable[[Game], str]], T]) -> tuple[T, Sitting]:
    """Round ``k`` of the file played again: the rounds before it first (a match's
    rounds share one generator and its seating), then round ``k`` by ``play(game,
    choose)``, which must play it out with ``choose``. The round must end as the
    file says: the same winner, points, turns and final hands, every move of the
    person used."""
    rounds: list[Round] = doc["rounds"]
    if not rounds:
        raise UnosimError(f"{path} holds no finished round")
    index = [r.index for r in rounds]
    if k not in index:
        raise UnosimError(f"{path} holds no round {k}; it holds {_listed(index)}")
    s = sitting_of(doc, path)
    for r in rounds if s.match else [r for r in rounds if r.index == k]:
        if s.match and r.index != s.dealt:
            raise UnosimError(f"{path}: a damaged file of unosim play (match round "
                              f"{r.index} after {s.dealt} rounds)")
        g = s.deal(r.index)
        if s.me != r.seat:
            raise UnosimError(f"round {r.index} of {path} replays differently: you sat "
                              f"in seat {s.me} here, seat {r.seat} in the file")
        moves = iter(r.moves)
        calling = Calling(g.G, s.me) if s.call_uno else None
        choose = _chooser(s.me, moves, r.index, path, calling, set(r.forgot))
        try:
            out = play(g, choose) if r.index == k else play_out(g, choose)
        finally:
            if calling is not None:
                calling.restore()
        _check(s, r, moves, path)
        s.settle(list(r.moves), r.forgot)
        if s.match and s.scores() != r.scores:
            raise UnosimError(f"round {r.index} of {path} replays differently: match "
                              f"scores {list(s.scores())} here, {list(r.scores or ())} in "
                              "the file")
        if r.index == k:
            return out, s
    raise AssertionError("unreachable")


def _chooser(me: int, moves: Iterator[str], k: int, path: Path,
             calling: Calling | None = None, forgot: set[int] | None = None
             ) -> Callable[[Game], str]:
    """The person's moves from the file, the opponents' from their strategies; with
    ``calling``, each of the person's moves goes with their UNO call as played (the
    forget chance set before the move, put back before anyone else's)."""
    played = 0

    def choose(g: Game) -> str:
        nonlocal played
        if calling is not None:
            calling.restore()
        if g.actor != me:
            return g.choose()
        if calling is not None:
            calling.set(played not in (forgot or ()))
        played += 1
        move = next(moves, None)
        if move is None:
            raise UnosimError(f"round {k} of {path} replays differently: it needs more "
                              "of your moves than the file holds")
        if move not in g.legal_moves():
            raise UnosimError(f"round {k} of {path} replays differently: your move "
                              f"{move!r} is not legal there")
        return move

    return choose


def _check(s: Sitting, r: Round, moves: Iterator[str], path: Path) -> None:
    g = s.game
    assert g is not None
    left = sum(1 for _ in moves)
    got = {"winner": s.player(g.winner), "points": g.winner_points() if g.winner >= 0 else 0,
           "turns": g.stat("turns"),
           "final hands": tuple(tuple(g.hand(p)) for p in range(s.n))}
    want = {"winner": r.winner, "points": r.points, "turns": r.turns,
            "final hands": r.final_hands}
    diff = [k for k in got if got[k] != want[k]]
    if left or diff:
        what = f"{left} of your moves left unplayed" if left else (
            f"{diff[0]} {got[diff[0]]} here, {want[diff[0]]} in the file")
        raise UnosimError(f"round {r.index} of {path} replays differently: {what}")


def _listed(index: list[int]) -> str:
    return ("round " if len(index) == 1 else "rounds ") + ", ".join(map(str, index))
