"""``unosim replay``: one game of a run, move by move.

Game ``K`` of a run with seed ``S`` is seeded from (S, K) alone, so
:class:`~unosim.runs.game.Game` with the same rules, seats, seed and index
replays it exactly, through the same compiled step functions and strategies
(the loop below is ``Game.play_out``, with a record of every move). The final
record is written by the batch's own ``record_round``, so it can be compared
field by field with ``runner.play_records`` (tests/cli/test_replay.py does).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import numpy as np

from unosim import options as opt
from unosim import provenance
from unosim.errors import UnosimError
from unosim.runs import inputs, modes
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


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False), metavar="[FILE]")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="The run's seed (printed by `unosim run`); not with FILE, which holds it.")
@click.option("--game", type=click.IntRange(0, 10**12 - 1), default=None,
              help="The game's index in the run, 0-based (the `game` column of --save-games, "
                   "the round of a file of `unosim play`; there the last by default).")
@opt.players
@opt.variant
@opt.rule
@opt.strategy
@opt.seat
@opt.fmt
@opt.strategy_file
@click.pass_context
def replay_command(ctx: click.Context, file: str | None, seed: int | None, game: int | None,
                   players: int | None, variant: tuple[str, ...], rule: tuple[str, ...],
                   strategy: str, seat: tuple[str, ...], fmt: str) -> None:
    """Print game K of the run with seed S turn by turn (hands, top card, colour, move,
    effect): exactly the game `unosim run` played, given the same rules and seats. Or
    replay game K of FILE, a file of --save-games, from what it holds alone (--variant
    NAME picks one of a comparison's variants) and check that it ends as its row; or
    round K of a file `unosim play` saved, with your moves as you played them."""
    from unosim.reports.render import render_json
    from unosim.runs.variants import variant_label

    if file is not None:
        _refuse_held(ctx, Path(file))
        from unosim.runs.played_file import is_played_file

        if is_played_file(Path(file)):
            if variant:
                raise UnosimError(f"{file} holds the rules of its table: drop --variant")
            replay_played(Path(file), game, fmt)
            return
        if game is None:
            _check_file(Path(file))  # a file that is not one says so, not "needs --game"
            raise UnosimError("replay FILE needs --game K, the game's index in the file")
        replay_from_file(ctx, Path(file), game, variant, fmt)
        return
    if game is None:
        raise UnosimError("replay needs --game K, the game's index in the run (0-based)")
    if seed is None:
        raise UnosimError("replay needs --seed S (the run's seed), or a file of "
                          "--save-games: `unosim replay FILE --game K`")
    rules = inputs.resolve_rules(variant, rule, players)
    seats = inputs.seats_for(rules["players"], strategy, seat)
    r = replay(rules, seats, seed, game)
    click.echo(render_json(r) if fmt == "json" else render_replay(r, variant_label(variant)))


def _check_file(path: Path) -> None:
    """What is wrong with a FILE that is not a file of ``unosim play``: missing, empty,
    or not a file of --save-games (its reader's one line)."""
    from unosim.reports.saved_games import read_game

    if not path.exists():
        raise UnosimError(f"{path}: no such file")
    if path.is_file() and path.stat().st_size == 0:
        raise UnosimError(f"{path}: an empty file; replay reads the files of --save-games "
                          "and of unosim play --save")
    read_game(path, 0)


#: the options a file of --save-games answers itself (with FILE they are refused)
_FILE_HOLDS = ("seed", "players", "rule", "strategy", "seat", "strategy_file")


def _refuse_held(ctx: click.Context, path: Path) -> None:
    given = [f"--{n.replace('_', '-')}" for n in _FILE_HOLDS
             if ctx.get_parameter_source(n) is click.core.ParameterSource.COMMANDLINE]
    if given:
        raise UnosimError(f"{path} holds the seed, rules and seats of its games: drop "
                          f"{', '.join(given)}")


def replay_played(path: Path, game: int | None, fmt: str) -> None:
    """``unosim replay FILE [--game K]`` for a file of ``unosim play``: round K (the
    last by default) played again with the person's moves from the file; it must end
    as the file says (otherwise exit 2)."""
    from unosim.reports.render import render_json
    from unosim.runs import played_file

    doc = played_file.read(path)
    wrote = doc.get("unosim_version")
    if wrote != provenance()["unosim_version"]:
        # the same engine (read refuses another): the round replays, and is checked
        # against the file, so another version is said, not refused
        click.echo(f"unosim: warning: {path} was written by unosim {wrote}, this is unosim "
                   f"{provenance()['unosim_version']} with the same engine", err=True)
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
    if fmt == "json":
        click.echo(render_json(out))
        return
    text = render_replay(out, doc["variant"])
    if s.match:
        scores = ", ".join(f"{'you' if p == 0 else f'player {p}'} {v}"
                           for p, v in enumerate(s.scores()))
        end = (" · the match is over: " + ("nobody wins" if s.winner < 0 else "you win"
               if s.winner == 0 else f"player {s.winner} wins")) if s.over else ""
        text += (f"\n\nmatch scores after this round (player k sits k seats to your left): "
                 f"{scores}{end}")
    click.echo(f"{text}\n\nthe same round as round {game} in {path}: your moves, the "
               "winner, the points and the final hands")


def replay_from_file(ctx: click.Context, path: Path, game: int, variant: tuple[str, ...],
                     fmt: str) -> None:
    """``unosim replay FILE --game K``: the game rebuilt from the file's header alone,
    its record checked against the file's row (a difference is refused: exit 2)."""
    from unosim.game_files import check_header, pick_variant, table_of
    from unosim.reports.render import render_json
    from unosim.reports.saved_games import read_game

    if len(variant) > 1:
        raise UnosimError("with FILE, --variant names one of its variants: give it once")
    header, rows = read_game(path, game)
    check_header(header, path)
    vi = pick_variant(header, variant[0] if variant else None, path)
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
        r = _replay_match(rules, seats, seed, game, int(header["max_rounds"]))
    else:
        r = replay(rules, seats, seed, game)
    _check_row(r["result"], row, path, game)
    if fmt == "json":
        click.echo(render_json({**r, "variant": name, "file": str(path), "row": row}))
        return
    text = _render_match(r, name) if by_rounds else render_replay(r, name)
    click.echo(f"{text}\n\nthe same record as the row of game {game} in {path} "
               f"(all {len(row) - 1 - several} columns)")


def _replay_match(rules: Any, seats: list[Any], seed: int, game: int, max_rounds: int
                  ) -> dict[str, Any]:
    """Match ``game`` of the run with ``seed``, played again (its record)."""
    from unosim.runs.match import play_match_records
    from unosim.simulate.match_nb import MATCH_FIELDS

    rec = play_match_records(rules, seats, seed, game, 1, max_rounds)[0]
    return {"provenance": provenance(), "seed": seed, "game": game,
            "players": int(rules["players"]), "mode": "match", "max_rounds": max_rounds,
            "rules_changed": rules.changed(), "strategies": [s.label() for s in seats],
            "result": {f: int(v) for f, v in zip(MATCH_FIELDS, rec, strict=True)}}


def _render_match(r: dict[str, Any], variant: str) -> str:
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


def _check_row(record: dict[str, int], row: dict[str, Any], path: Path, game: int) -> None:
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
