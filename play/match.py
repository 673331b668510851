"""A match at the table in words: what ends it, and its result."""

from __future__ import annotations

from typing import Any

from unosim.play.words import plural


def target_of(rules: object) -> str:
    """What ends a match under ``rules``, in a few words."""
    scoring, target = rules["scoring"], int(rules["target_score"])  # type: ignore[index]
    if scoring == "lazy":
        return f"first to win {target} rounds"
    if scoring == "game101":
        return f"lowest total once someone passes {target}"
    if scoring == "losers_score":
        return f"lowest total once someone reaches {target}"
    return f"first to {target} points"


def match_line(table: Any) -> str:
    """After a round of a match (of ``table``): its result, or what ends it."""
    s = table.sitting
    if not s.over:
        return f"match: {target_of(table.rules)}, after {plural(len(s.rounds), 'round')}"
    if s.capped:
        return f"the match stopped after {plural(len(s.rounds), 'round')} without a winner"
    who = "you win" if s.winner == 0 else f"seat {s.winner} wins"
    tie = " (a tie for the lowest total, drawn by lot)" if s.tied else ""
    return f"{who} the match after {plural(len(s.rounds), 'round')}{tie}"
