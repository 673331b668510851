"""Hints, the review and undo in a match, where the deal moves the person's engine seat
(``Table.me``) and the screen is turned so the person shows as seat 0: a hint is the
search's for seat ``me`` from what that seat knows (a twin with the hidden cards
redealt gets the same), each hint line sits beside its own move (a target seat turned
on the screen), the review covers the round just played with targets as shown, and
undo goes back within a round only, keeping the round's moves in step so the saved
file replays the game as it stood."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from cli_helpers import invoke

from unosim.play import hints
from unosim.play.review import review
from unosim.play.table import Table, turned_move
from unosim.runs import played_file
from unosim.runs.game import Game
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.simulate.step_nb import legal_moves
from unosim.strategies.python import MOVE_TEXTS
from unosim.strategies.registry import parse_strategy
from unosim.strategies.search_nb import search_figures, search_move

ROLLOUTS = 150
#: seven-o at four, seed 6, the person's moves drawn by random.Random(6): in round 1
#: the person sits in engine seat 3 and chooses whom to swap hands with three times
VARIANT, PLAYERS, SEED, TARGET = "seven-o", 4, 6, 150


def match_table(saver=None, target: int = TARGET) -> Table:
    rules = resolve([VARIANT], [("players", PLAYERS), ("target_score", target)])
    t = Table(rules, [parse_strategy("offensive")] * (PLAYERS - 1), SEED, match=True,
              saver=saver)
    t.hint_rollouts = ROLLOUTS
    return t


def to_round(t: Table, k: int, rnd: random.Random) -> None:
    """Play the person's moves by ``rnd`` until round ``k`` is dealt."""
    while t.round < k:
        while not t.over:
            t.pick(rnd.randrange(len(t.legal())))
        t.deal()


@pytest.fixture(scope="module")
def round_one():
    """Round 1 of the match played out, with each decision's state and hint."""
    t, rnd = match_table(), random.Random(SEED)
    to_round(t, 1, rnd)
    assert t.me != 0, "the person is in engine seat 0: pick another seed"
    seen = []
    while not t.over:
        legal = t.legal()  # listing the moves writes them in the game's array first
        seen.append((t.game.G.copy(), t.game.RNG.copy(), legal, t.hint(), t.seen()))
        t.pick(rnd.randrange(len(t.legal())))
    return t, seen


def test_a_hint_in_a_match_is_the_searchs_for_the_persons_engine_seat(round_one):
    t, seen = round_one
    targets = 0
    for i, (G, _, legal, h, shown) in enumerate(seen):
        assert int(G[L.S_ACTOR]) == t.me != 0 and shown.actor == 0
        rng = hints.generator(t.seed, t.round, i)
        G2 = G.copy()
        G2[L.OFF_SP + t.me * L.N_SP + L.SP_ROLLOUTS] = ROLLOUTS
        k, best = search_figures(G2, rng.copy())
        cands = [int(c) for c in G2[L.OFF_CAND:L.OFF_CAND + k]]
        assert [f.move for f in h.figures] == list(legal)
        assert hints.code_of(G, h.best) == cands[best]
        G3 = G.copy()
        G3[L.OFF_SP + t.me * L.N_SP + L.SP_ROLLOUTS] = ROLLOUTS
        assert hints.code_of(G, h.best) == int(search_move(G3, rng.copy()))
        for f in h.figures:
            code = hints.code_of(G, f.move)
            if k > 1 and code in cands:
                j = cands.index(code)
                assert (f.value, f.rollouts) == (int(G2[L.OFF_SCORE + j]),
                                                 int(G2[L.OFF_TRIED + j]))
        targets += legal[0].startswith("target")
    assert targets > 0, "no target decision in the round: pick another seed"


def test_no_peeking_in_a_match_a_twin_gets_the_same_hints(round_one):
    """The other seats' hands, the draw pile and the generators redealt leave every
    hint as it is; one more card in the person's own hand (engine seat ``me``)
    changes some (so the comparison can fail)."""
    from tests.strategies.test_search import twin

    t, seen = round_one
    rnd = random.Random(1)
    changed = 0
    for i, (G, RNG, legal, h, _) in enumerate(seen):
        rng = hints.generator(t.seed, t.round, i)
        G2, _ = twin(G, RNG, rnd)
        assert hints.hint(G2, rng, legal, ROLLOUTS) == h
        G3 = G.copy()
        mine = L.OFF_H + t.me * L.HW
        G3[mine + 0] += 1  # one more red 0 in the person's hand
        G3[mine + L.HC_COLOUR] += 1
        G3[mine + L.HC_SIZE] += 1
        n3 = int(legal_moves(G3))
        legal3 = tuple(m for c in G3[L.OFF_MOVES:L.OFF_MOVES + n3].tolist()
                       for m in MOVE_TEXTS[c])
        changed += hints.hint(G3, rng, legal3, ROLLOUTS) != h
    assert changed > 0


def test_the_review_of_a_match_round_is_its_hints_with_targets_as_shown(round_one):
    from unosim.play import coaching, words

    t, seen = round_one
    rows = review(t.decisions, t.seed, t.round, ROLLOUTS)
    assert len(rows) == len(seen) == len(t.decisions) > 0
    targets = 0
    for r, (G, _, legal, h, shown), d in zip(rows, seen, t.decisions, strict=True):
        assert d.me == t.me and (d.G == G).all() and d.legal == legal
        assert r.best == h.of(h.best) and r.made.move == d.move
        if d.move != h.best and h.of(d.move).searched:
            assert r.made == h.of(d.move)
        if d.move.startswith("target"):  # shown as the table showed it
            on_screen = shown.legal[legal.index(d.move)]
            assert on_screen == turned_move(d.move, t.me, PLAYERS) != d.move
            assert coaching.shown(d.move, d).plain == words.move(on_screen, d.phase, 0).plain
            targets += 1
    assert targets > 0


async def _pick(pilot, i: int, n: int) -> None:
    """Play move ``i`` (from 0) of ``n`` by its number's digits, Enter where the
    number could start a longer one."""
    number = str(i + 1)
    for digit in number:
        await pilot.press(digit)
    if int(number) * 10 <= n:
        await pilot.press("enter")
    await _settled(pilot)


async def _settled(pilot) -> None:
    """Let the screen draw, and the hint's thread finish and show its figures."""
    for _ in range(600):  # a thread starts once its notice is drawn
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        if not (pilot.app.hint_busy or pilot.app.review_busy):
            break
    await pilot.pause()


def _apps_lines(app) -> list[str]:
    from textual.widgets import OptionList

    moves = app.query_one("#moves", OptionList)
    return [str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count)]


@pytest.mark.slow
def test_hint_lines_sit_beside_their_own_moves_in_a_turned_match(round_one):
    """Round 1 by keys with hints on: line i shows move i as the screen names it and
    the figure of the engine's move i (a target seat is turned on the screen, so a
    figure looked up by the screen's text would be another seat's)."""
    pytest.importorskip("textual")
    from unosim.play import coaching, words
    from unosim.play.app import PlayApp

    _, seen = round_one
    t, rnd = match_table(), random.Random(SEED)
    to_round(t, 1, rnd)
    app = PlayApp(t, ["you", *["offensive"] * (PLAYERS - 1)], VARIANT)
    told = {"targets": 0}

    async def drive() -> None:
        async with app.run_test(size=(170, 45)) as pilot:
            await pilot.press("h")
            await _settled(pilot)
            for _, _, legal, h, shown in seen:
                if len(legal) == 1:  # one move: the screen played it, no key
                    rnd.randrange(1)
                    continue
                assert t.legal() == legal
                lines = _apps_lines(app)
                assert len(lines) == len(legal)
                for i, line in enumerate(lines):
                    f = h.figures[i]
                    assert line.startswith(f"{i + 1}. "
                                           + words.move(shown.legal[i], shown.phase,
                                                        shown.pending).plain)
                    assert line.endswith(coaching.hint_text(h, f.move).plain)
                if legal[0].startswith("target") and len({coaching.figure(f)
                                                          for f in h.figures}) > 1:
                    told["targets"] += 1
                await _pick(pilot, rnd.randrange(len(legal)), len(legal))
            assert t.over

    asyncio.run(drive())
    assert told["targets"] > 0, "no target decision whose figures differ"


# ------------------------------------------------------------------ undo


def _logging(monkeypatch) -> list[tuple[Game, int, str]]:
    """Every move applied to any game, in order: (game, seat, move)."""
    log: list[tuple[Game, int, str]] = []
    apply = Game.apply

    def logged(g: Game, move):
        log.append((g, g.actor, str(move)))
        return apply(g, move)

    monkeypatch.setattr(Game, "apply", logged)
    return log


def test_undo_within_a_match_round_then_on_replays_from_the_saved_file(tmp_path, capsys,
                                                                       monkeypatch):
    path = tmp_path / "m.json"
    t = match_table(lambda s: played_file.save(path, s, VARIANT, "unosim play"))
    rnd = random.Random(SEED)
    log = _logging(monkeypatch)
    to_round(t, 1, rnd)
    assert t.me != 0
    marks: list[int] = []  # the log's length before each standing decision
    undone = 0
    while not t.over:
        marks.append(len(log))
        t.pick(rnd.randrange(len(t.legal())))
        if rnd.random() < 0.5 and t.undo():
            del log[marks.pop():]
            undone += 1
            t.pick(rnd.randrange(len(t.legal())))  # maybe another move this time
        assert t.moves == [d.move for d in t.decisions]
        assert all(d.me == t.me for d in t.decisions)
    monkeypatch.undo()
    assert undone > 1
    # the round is over: scored into the match and saved, not to be taken back
    kept, scores = t.played[-1], t.sitting.scores()
    assert "round is over" in t.undo_refused() and not t.undo()
    assert t.played[-1] is kept and t.sitting.scores() == scores and t.over
    code, out, err = invoke(capsys, ["replay", str(path), "--game", "1", "--format", "json"])
    assert code == 0, err
    r = json.loads(out)
    live = [(a, m) for g, a, m in log if g is t.game]
    assert [(s["seat"], s["move"]) for s in r["steps"]] == live
    assert [s["move"] for s in r["steps"] if s["seat"] == t.me] == list(kept.moves) == t.moves
    assert [tuple(h) for h in r["final_hands"]] == list(kept.final_hands)
    assert r["match"]["scores"] == list(scores)
    assert r["strategies"][t.me] == "you"


def test_a_round_of_its_own_taken_back_from_its_end_leaves_the_file_until_it_ends_again(
        tmp_path, capsys):
    path = tmp_path / "t.json"
    rules = resolve(["official"], [("players", 3)])
    t = Table(rules, [parse_strategy("offensive")] * 2, 4,
              saver=lambda s: played_file.save(path, s, "official", "unosim play"))
    while not t.over:
        t.pick(len(t.legal()) - 1)
    first = json.loads(path.read_text())["rounds"]
    assert len(first) == 1 and t.undo() and not t.over
    assert json.loads(path.read_text())["rounds"] == [] and t.played == []
    while not t.over:
        t.pick(0)
    again = json.loads(path.read_text())["rounds"]
    assert len(again) == 1 and again[0]["moves"] == t.moves != first[0]["moves"]
    code, out, err = invoke(capsys, ["replay", str(path), "--format", "json"])
    assert code == 0, err
    assert [s["move"] for s in json.loads(out)["steps"] if s["seat"] == 0] == t.moves


@pytest.mark.slow
def test_u_in_a_match_goes_back_within_the_round_and_says_why_not_past_it(tmp_path):
    pytest.importorskip("textual")
    from textual.widgets import Static

    from unosim.play import coaching
    from unosim.play.app import PlayApp

    t = match_table(target=500)  # two rounds at least, by the first move each time
    app = PlayApp(t, ["you", *["offensive"] * (PLAYERS - 1)], VARIANT, training=True)
    told: list[str] = []
    app.notify = lambda message, **kw: told.append(message)  # type: ignore[method-assign]
    async def drive() -> None:
        async with app.run_test(size=(170, 45)) as pilot:
            for _ in range(2):  # round 0, then round 1 in another engine seat
                # the round's first decision (any with one move before it is played)
                G0, moves0 = t.game.G.copy(), list(t.moves)
                await pilot.press("enter")
                await pilot.pause()
                if not t.over:
                    await pilot.press("u")
                    await pilot.pause()
                    assert t.moves == moves0 and (t.game.G == G0).all()
                    assert all(len(d.legal) == 1 for d in t.decisions)
                while not t.over:
                    await pilot.press("enter")
                    await pilot.pause()
                kept = len(t.played)
                result = str(app.query_one("#result", Static).render())
                assert "u: undo" not in result and "r: review" in result
                await pilot.press("u")
                await pilot.pause()
                assert told and "round is over" in told[-1] and len(t.played) == kept
                await pilot.press("r")
                await _settled(pilot)
                assert isinstance(app.screen, coaching.ReviewScreen)
                chosen = [d for d in t.decisions if len(d.legal) > 1]  # not the forced
                assert len(app.screen.rows) == len(chosen) > 0
                assert all(r.decision.me == t.me for r in app.screen.rows)
                await pilot.press("escape")
                await pilot.pause()
                if t.round == 0:
                    await pilot.press("n")
                    await pilot.pause()
            assert len(t.played) == 2 and t.played[1].seat != 0

    asyncio.run(drive())


def test_the_turned_move_counts_targets_from_the_persons_seat():
    assert turned_move("target:0", 3, 4) == "target:1"
    assert turned_move("target:2", 3, 4) == "target:3"
    assert turned_move("target:2", 0, 4) == "target:2"
    assert turned_move("r7", 3, 4) == "r7" and turned_move("wild:red", 2, 3) == "wild:red"
