"""The typed entry of replay: game ``game`` of the run with ``seed`` is seeded from
(seed, game) alone, so :class:`~unosim.runs.game.Game` with the same rules, seats,
seed and index replays it exactly."""

from __future__ import annotations

from typing import Any

from unosim import provenance
from unosim.runs.game import Game
from unosim.studies.replay.moves import trace
from unosim.studies.replay.report import ReplayReport
from unosim.studies.replay.text import render_replay


def play(rules: Any, seats: list[Any], seed: int, game: int, variant: str) -> ReplayReport:
    """Game ``game`` of the run with ``seed`` at the table of ``rules`` and ``seats``,
    move by move, as its result object (``variant``: the name its text shows)."""
    r = replay(rules, seats, seed, game)
    return ReplayReport(r, render_replay(r, variant))


def replay(rules: Any, seats: list[Any], seed: int, game: int) -> dict[str, Any]:
    """Play game ``game`` of the run with ``seed`` and return every move: the deal,
    one entry per decision (state before it, the move, its effects) and the final
    record (the fields of ``layout.GAME_FIELDS``, as ``play_records`` writes them)."""
    g = Game(rules, seats, seed=seed, game_index=game)
    return {
        "provenance": provenance(),
        "seed": seed,
        "game": game,
        "players": g.players,
        "rules_changed": rules.changed(),
        "strategies": [s.label() for s in seats],
        **trace(g, Game.choose),
    }


def replay_match(rules: Any, seats: list[Any], seed: int, game: int, max_rounds: int
                  ) -> dict[str, Any]:
    """Match ``game`` of the run with ``seed``, played again (its record)."""
    from unosim.runs.match import play_match_records
    from unosim.simulate.match_nb import MATCH_FIELDS

    rec = play_match_records(rules, seats, seed, game, 1, max_rounds)[0]
    return {"provenance": provenance(), "seed": seed, "game": game,
            "players": int(rules["players"]), "mode": "match", "max_rounds": max_rounds,
            "rules_changed": rules.changed(), "strategies": [s.label() for s in seats],
            "result": {f: int(v) for f, v in zip(MATCH_FIELDS, rec, strict=True)}}
