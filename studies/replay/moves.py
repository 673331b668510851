"""The trace of a game: every decision with the state before it, the move and its
effects, played through the same compiled step functions and strategies as the batch
(the loop is ``Game.play_out``, with a record of every move). The final record is
written by the batch's own ``record_round``, so it equals ``runner.play_records``'
row field by field (tests/cli/test_replay.py checks)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from unosim.runs.game import Game
from unosim.simulate import layout as L
from unosim.simulate.round_nb import record_round
from unosim.simulate.step_nb import cap_round

#: state counters shown as effects when a move changes them: (layout name, text)
_COUNTERS = (
    ("RESHUFFLES", "the discard pile is reshuffled into the draw pile"),
    ("UNO_CAUGHT", "a forgotten UNO call is caught"),
    ("CHALLENGES", "the Wild Draw Four is challenged"),
    ("JUMP_INS", "jump-in"),
    ("SWAPS", ""),  # worded by the move that swapped (``_swapped``)
    ("DEFLECTS", "deflected"),
    ("REFILL", "refill cards drawn"),
    ("UNO_CENTER", "UNO in the centre"),
    ("SILENT", "the silence after a 2 is broken"),
)


def _snapshot(g: Game) -> dict[str, Any]:
    n = g.players
    return {
        "actor": g.actor,
        "phase": g.phase,
        "top": g.top,
        "colour": g.colour,
        "direction": g.direction,
        "pending": g.pending,
        "sizes": [g.hand_size(p) for p in range(n)],
        "places": [g.place(p) for p in range(n)],
        "drawn_no_play": g.stat("drawn_no_play"),
        "pen_drawn": g.stat("pen_drawn"),
        "turns": g.stat("turns"),
        **{name: g.stat(name) for name, _ in _COUNTERS},
    }


def _swapped(move: str) -> str:
    """What a move that swapped cards did: a seat chosen after a 7 (Seven-O) or a
    Swap Hands swaps whole hands; a card given in a trade on a 5 ends the trade; a
    0 played under Seven-O passes every hand on."""
    head = move.partition(":")[0]
    if head == "target":
        return "hands swapped"
    if head == "give":
        return "a card traded"
    return "every hand passed to the next seat in the direction of play"


def _effects(b: dict[str, Any], a: dict[str, Any], g: Game, move: str = "") -> list[str]:
    out = []
    if a["top"] != b["top"]:
        out.append(f"top {a['top']}")
    if a["colour"] != b["colour"]:
        out.append(f"colour {a['colour']}")
    if a["direction"] != b["direction"]:
        out.append("direction " + ("clockwise" if a["direction"] > 0 else "counter-clockwise"))
    drawn = a["drawn_no_play"] - b["drawn_no_play"]
    if drawn:
        out.append(f"{drawn} drawn (no play)")
    pen = a["pen_drawn"] - b["pen_drawn"]
    if pen:
        out.append(f"{pen} penalty card{'s' if pen != 1 else ''} drawn")
    if a["pending"] != b["pending"]:
        out.append(f"penalty pending {a['pending']}")
    for name, text in _COUNTERS:
        if a[name] != b[name]:
            out.append(text or _swapped(move))
    changed = [f"seat {p} {x}->{y}" for p, (x, y) in enumerate(zip(b["sizes"], a["sizes"],
                                                                    strict=True)) if x != y]
    if changed:
        out.append("cards: " + ", ".join(changed))
    for p, (x, y) in enumerate(zip(b["places"], a["places"], strict=True)):
        if y and not x:
            out.append(f"seat {p} finishes in place {y}")
    if g.over:
        out.append("round over" + (f", seat {g.winner} wins" if g.winner >= 0 else ""))
    else:
        out.append(f"next: seat {a['actor']} ({a['phase']})")
    return out


def trace(g: Game, choose: Callable[[Game], str]) -> dict[str, Any]:
    """Play ``g`` out, each move by ``choose(g)``, and return the deal, every decision
    with its effects, the final hands and the final record."""
    n = g.players
    deal = {
        "hands": [g.hand(p) for p in range(n)],
        "top": g.top,
        "colour": g.colour,
        "actor": g.actor,
        "phase": g.phase,
        "direction": g.direction,
    }
    steps = []
    cap = g.rules["turn_cap"]
    while not g.over:
        if g.stat("turns") >= cap:
            cap_round(g.G)
            break
        before = _snapshot(g)
        hand = g.hand(g.actor)
        move = choose(g)
        g.apply(move)
        after = _snapshot(g)
        steps.append({
            "step": len(steps) + 1,
            "turn": before["turns"] + 1,
            "seat": before["actor"],
            "phase": before["phase"],
            "top": before["top"],
            "colour": before["colour"],
            "pending": before["pending"],
            "hand": hand,
            "hand_sizes": before["sizes"],
            "move": move,
            "effects": _effects(before, after, g, move),
        })
    out = np.zeros((1, L.N_G), dtype=np.int32)
    record_round(g.G, g.winner_points(), out, 0)
    record = {name: int(v) for name, v in zip(L.GAME_FIELDS, out[0], strict=True)}
    return {"deal": deal, "steps": steps, "final_hands": [g.hand(p) for p in range(n)],
            "result": record}
