"""Saved rounds of ``unosim play``: a table saves each round as it ends, and ``unosim
replay FILE --game K`` plays it again from the file alone, move for move (every seat's
moves as they were played, the final hands, the winner, a match's scores); a damaged
file, one of another engine or a round it does not hold is one line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import assert_one_line_error, invoke

from unosim.play.table import Table
from unosim.runs import played_file
from unosim.runs.game import Game
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy


def played_table(path: Path, variant: str, players: int, seed: int, rounds: int,
                 monkeypatch: pytest.MonkeyPatch, match: bool = False,
                 target: int = 0) -> tuple[Table, dict[int, list[tuple[int, str]]]]:
    """A table that saves in ``path``, played for ``rounds`` rounds (or its whole match)
    with the person picking the first legal move; every move of every seat is logged,
    by round."""
    extra = [("target_score", target)] if target else []
    rules = resolve([variant], [("players", players), *extra])
    moves: list[tuple[Game, int, str]] = []
    apply = Game.apply

    def logged(g: Game, move: str | int) -> Game:
        moves.append((g, g.actor, str(move)))
        return apply(g, move)

    monkeypatch.setattr(Game, "apply", logged)
    t = Table(rules, [parse_strategy("offensive")] * (players - 1), seed, match,
              saver=lambda s: played_file.save(path, s, variant, "unosim play"))
    games = [t.game]
    for k in range(rounds):
        while not t.over:
            t.pick(0)
        if t.match_over or k == rounds - 1:
            break
        t.deal()
        games.append(t.game)
    monkeypatch.setattr(Game, "apply", apply)
    return t, {k: [(a, m) for g, a, m in moves if g is games[k]] for k in range(len(games))}


def replayed(capsys, path: Path, game: int | None = None) -> dict:
    argv = ["replay", str(path), "--format", "json"]
    code, out, err = invoke(capsys, argv + ([] if game is None else ["--game", str(game)]))
    assert code == 0, err
    return json.loads(out)


def test_rounds_saved_replay_move_for_move(tmp_path, capsys, monkeypatch):
    path = tmp_path / "table.json"
    t, log = played_table(path, "seven-o", 3, 11, 2, monkeypatch)
    assert [r.index for r in t.played] == [0, 1] and path.is_file()
    for k in (0, 1):
        r = replayed(capsys, path, k)
        assert [(s["seat"], s["move"]) for s in r["steps"]] == log[k]
        kept = t.played[k]
        assert [s["move"] for s in r["steps"] if s["seat"] == 0] == list(kept.moves)
        assert [tuple(h) for h in r["final_hands"]] == list(kept.final_hands)
        assert r["result"]["winner"] == kept.winner and r["strategies"][0] == "you"
    assert replayed(capsys, path)["game"] == 1  # the last round by default
    code, out, _ = invoke(capsys, ["replay", str(path), "--game", "0"])
    assert code == 0 and "seats: 0 you, 1 offensive" in out and "the same round as round 0" in out


def test_a_match_saved_replays_its_last_round_with_the_scores(tmp_path, capsys,
                                                              monkeypatch):
    path = tmp_path / "match.json"
    t, log = played_table(path, "official", 3, 5, 50, monkeypatch, match=True, target=400)
    assert t.match_over and len({r.seat for r in t.played}) > 1  # the deal passed
    last = t.played[-1]
    r = replayed(capsys, path)
    assert r["game"] == last.index
    assert [(s["seat"], s["move"]) for s in r["steps"]] == log[last.index]
    assert [tuple(h) for h in r["final_hands"]] == list(last.final_hands)
    assert r["match"]["scores"] == list(t.sitting.scores()) and r["match"]["over"]
    assert r["strategies"][last.seat] == "you"
    doc = json.loads(path.read_text())
    assert doc["match_result"]["winner"] == t.sitting.winner >= 0


def _damaged(tmp_path: Path, monkeypatch) -> Path:
    path = tmp_path / "t.json"
    played_table(path, "official", 2, 3, 1, monkeypatch)
    return path


@pytest.mark.parametrize("damage,needle", [
    (lambda d: d["rounds"][0]["moves"].append("r5"), "left unplayed"),
    (lambda d: d["rounds"][0]["moves"].pop(), "replays differently"),
    (lambda d: d["rounds"][0]["moves"].__setitem__(0, "nosuch"), "not legal"),
    (lambda d: d["rounds"][0].__setitem__("winner", 7), "winner"),
    (lambda d: d["rounds"][0].pop("moves"), "damaged"),
    (lambda d: d.__setitem__("engine", "0000"), "engine"),
    (lambda d: d["rules"].__setitem__("hand_size", "many"), "hand_size"),
])
def test_a_damaged_file_is_one_line(tmp_path, capsys, monkeypatch, damage, needle):
    path = _damaged(tmp_path, monkeypatch)
    doc = json.loads(path.read_text())
    damage(doc)
    path.write_text(json.dumps(doc, indent=1))
    assert_one_line_error(*invoke(capsys, ["replay", str(path)]), needle)


def test_a_cut_file_a_missing_round_and_held_options_are_one_line(tmp_path, capsys,
                                                                  monkeypatch):
    path = _damaged(tmp_path, monkeypatch)
    assert_one_line_error(*invoke(capsys, ["replay", str(path), "--game", "4"]),
                          "no round 4", "round 0")
    assert_one_line_error(*invoke(capsys, ["replay", str(path), "--seed", "3"]), "--seed")
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    assert_one_line_error(*invoke(capsys, ["replay", str(path)]), "not JSON")
