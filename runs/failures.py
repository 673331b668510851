"""What a failing strategy's one line says: the move, where, and what replays it."""

from __future__ import annotations

from unosim.simulate import layout as L
from unosim.simulate.moves import PHASES, move_name
from unosim.strategies.registry import SeatStrategy


def illegal_message(seats: list[SeatStrategy], game: int, move: int, phase: int, seat: int,
                    seed: int | None, match_round: int = 0, player: int | None = None) -> str:
    """The one-line report of an illegal move, with what replays it: the game's
    seed and index, or for a match its index and round (seat ``seat`` then held
    ``player``; in round 1 the players sit in their own seats)."""
    shown = str(move)
    if 0 <= move < L.MV_GIVE + 64:
        try:
            shown = f"{move} ({move_name(move)})"
        except (KeyError, IndexError, ValueError):
            pass
    owner = seat if player is None else player
    who = seats[owner].label() if 0 <= owner < len(seats) else f"seat {seat}"
    where = f"game {game}" if not match_round else f"round {match_round} of match {game}"
    # round 1 of match m is game m of a run of rounds; later rounds are reached by
    # playing the match again (same seed and table), not by a Game of their own
    replay = ""
    if seed is not None and match_round <= 1:
        replay = f"; replay: Game(rules, seats, seed={seed}, game_index={game})"
    return (f"strategy {who} at seat {seat} played the illegal move {shown} in phase "
            f"{PHASES.get(phase, phase)}, {where}"
            + (f" of seed {seed}" if seed is not None else "") + replay)
