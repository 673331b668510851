"""Replay as text: the deal, then one line per decision and its effects, and the
final hands; a match replayed from a file as its result."""

from __future__ import annotations

from typing import Any


def _move_text(move: str, phase: str, top: str = "") -> str:
    head, _, arg = move.partition(":")
    if head == "draw":
        return "draws"
    if head == "pass":
        return {"jump": "declines", "target": "trades with nobody"}.get(
            phase, "keeps the drawn card")
    if head == "take":
        return "takes the penalty"
    if head == "challenge":
        return "challenges"
    if head == "accept":
        return "accepts"
    if head == "colour":
        return f"names {arg}"
    if head == "target":
        # a 5 (swap_on_five) starts a trade; a 7 (Seven-O) or Swap Hands swaps hands
        return (f"trades a card with seat {arg}" if top[1:] == "5"
                else f"swaps hands with seat {arg}")
    if head == "give":
        return f"gives {arg}"
    return f"plays {head}" + (f", names {arg}" if arg else "")


def render_replay(r: dict[str, Any], variant: str) -> str:
    """The replay as text: the deal, then one line per decision and its effects."""
    res = r["result"]
    changed = r["rules_changed"]
    lines = [
        f"unosim replay · variant {variant} · {r['players']} players · seed {r['seed']} · "
        f"game {r['game']}",
        "rules changed from official: " + (", ".join(
            f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in changed.items())
            if changed else "none"),
        "seats: " + ", ".join(f"{i} {s}" for i, s in enumerate(r["strategies"])),
        "",
        f"deal: top {r['deal']['top']}, colour {r['deal']['colour']}, seat "
        f"{r['deal']['actor']} to act ({r['deal']['phase']})",
    ]
    for p, hand in enumerate(r["deal"]["hands"]):
        lines.append(f"  seat {p} ({len(hand)}): {' '.join(hand)}")
    lines.append("")
    for s in r["steps"]:
        pend = f" · pending {s['pending']}" if s["pending"] else ""
        lines.append(
            f"{s['step']:>4}. turn {s['turn']:<4} seat {s['seat']} ({s['phase']}) · top "
            f"{s['top']} · colour {s['colour']}{pend} · hand ({len(s['hand'])}): "
            f"{' '.join(s['hand'])}"
        )
        lines.append(f"      {_move_text(s['move'], s['phase'], s['top'])} -> "
                     f"{'; '.join(s['effects'])}")
    lines.append("")
    if res["capped"]:
        lines.append(f"capped after {res['turns']} turns: no winner")
    else:
        lines.append(f"seat {res['winner']} wins {res['winner_points']} points after "
                     f"{res['turns']} turns ({res['cards_played']} cards played)")
    for p, hand in enumerate(r["final_hands"]):
        pts = res[f"points_{p}"]
        lines.append(f"  seat {p} ({len(hand)} card{'s' if len(hand) != 1 else ''}, {pts} "
                     f"point{'s' if pts != 1 else ''}): {' '.join(hand)}")
    return "\n".join(lines)


def render_match(r: dict[str, Any], variant: str) -> str:
    res = r["result"]
    lines = [f"unosim replay · variant {variant} · {r['players']} players · seed {r['seed']} "
             f"· match {r['game']}",
             "seats: " + ", ".join(f"{i} {s}" for i, s in enumerate(r["strategies"])), ""]
    if res["capped"]:
        lines.append(f"capped after {res['rounds']} rounds ({res['turns']} turns): no winner")
    else:
        lines.append(f"player {res['winner']} wins the match after {res['rounds']} rounds "
                     f"({res['turns']} turns)")
    for p in range(r["players"]):
        lines.append(f"  player {p}: score {res[f'score_{p}']}, {res[f'round_wins_{p}']} "
                     f"rounds won")
    return "\n".join(lines)
