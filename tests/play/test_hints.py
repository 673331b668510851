"""Hints and the review: a hint's figure for each move is exactly what the search
computes for it from the same state and generator, and the move it marks is the
one the search plays; the same table gives the same hints; a twin with every hidden
card redealt gets the same hints; the review has a row per decision, each as its
hint showed it, costing 0 where the person played the search's choice."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from unosim.play import hints
from unosim.play.review import review, worst
from unosim.play.table import HUMAN, Table
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.simulate.step_nb import legal_moves
from unosim.strategies.python import MOVE_TEXTS
from unosim.strategies.registry import parse_strategy
from unosim.strategies.search_nb import VALUE_UNIT, candidates, search_move

ROLLOUTS = 120
#: the presets whose decisions differ most, and those the figures read differently
#: (a wild names no colour under color-rotation; elimination scores places)
VARIANTS = ["official", "stacking", "seven-o", "jump-in", "color-rotation", "elimination"]


def table(variant: str, seed: int = 3, players: int = 4, opponent: str = "offensive") -> Table:
    rules = resolve([variant], [("players", players)])
    t = Table(rules, [parse_strategy(opponent)] * (players - 1), seed)
    t.hint_rollouts = ROLLOUTS
    return t


def decide(t: Table, rnd: random.Random, check=None) -> None:
    """Play the round out with random legal moves, calling ``check`` at each decision."""
    while not t.over:
        if check is not None:
            check(t)
        t.pick(rnd.randrange(len(t.legal())))


def search_at(t: Table) -> tuple[np.ndarray, int, int]:
    """The search itself at the person's decision, from the hint's generator: the
    game array it leaves (its figures), its candidates and the move it plays."""
    rng = hints.generator(t.seed, t.round, len(t.decisions))
    G = t.game.G.copy()
    G[L.OFF_SP + HUMAN * L.N_SP + L.SP_ROLLOUTS] = ROLLOUTS
    k = int(candidates(G.copy(), rng.copy()))
    before = int(G[L.OFF_SCOUNT + 1])
    move = int(search_move(G, rng.copy()))
    played = int(G[L.OFF_SCOUNT + 1]) - before
    if k > 1:  # every rollout the search played is counted against one candidate
        assert int(G[L.OFF_TRIED:L.OFF_TRIED + k].sum()) == played > 0
    return G, k, move


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_hint_is_what_the_search_computes_from_the_same_state_and_seed(variant):
    seen = {"searched": 0, "pruned": 0, "placing": 0}

    def check(t: Table) -> None:
        h = t.hint()
        assert h is not None and [f.move for f in h.figures] == list(t.legal())
        assert h.placing == (t.game.G[L.S_WINNER] >= 0)  # elimination, a seat out
        seen["placing"] += h.placing
        G, k, move = search_at(t)
        assert hints.code_of(t.game.G, h.best) == move
        if k == 1:  # the search plays its only candidate unsearched; the hint rolls it out
            return
        searched = {}
        for i in range(k):
            code = int(G[L.OFF_CAND + i])
            searched[code] = (int(G[L.OFF_SCORE + i]), int(G[L.OFF_TRIED + i]))
        for f in h.figures:
            code = hints.code_of(t.game.G, f.move)
            if code in searched:
                assert (f.value, f.rollouts) == searched[code]
                assert 0.0 <= f.estimate <= 1.0
                lo, hi = f.interval()
                assert lo <= f.estimate <= hi
            else:
                assert not f.searched and math.isnan(f.estimate)
                seen["pruned"] += 1
        assert h.of(h.best).searched
        seen["searched"] += 1

    for seed in (3, 4):
        decide(table(variant, seed), random.Random(seed), check)
    assert seen["searched"] > 2, seen
    assert (seen["placing"] > 0) == (variant == "elimination"), seen


def test_the_same_table_gives_the_same_hints_and_each_decision_its_own():
    a, b = table("official", 8), table("official", 8)
    assert a.hint() == b.hint()
    g0 = hints.generator(8, 0, 0)
    assert (g0 == hints.generator(8, 0, 0)).all()
    assert not (g0 == hints.generator(8, 0, 1)).all()
    assert not (g0 == hints.generator(8, 1, 0)).all()
    assert not (g0 == hints.generator(9, 0, 0)).all()


@pytest.mark.parametrize("variant", ["official", "seven-o", "jump-in"])
def test_no_peeking_a_twin_with_the_hidden_cards_redealt_gets_the_same_hints(variant):
    """At every decision: the other hands, the draw pile and the game's generators
    redealt leave the hint as it is; one more card in the person's hand changes it
    (so the comparison can fail)."""
    from tests.strategies.test_search import twin

    rnd = random.Random(11)
    checked = {"n": 0, "changed": 0}

    def check(t: Table) -> None:
        G, RNG = t.game.G, t.game.RNG
        h = t.hint()
        rng = hints.generator(t.seed, t.round, len(t.decisions))
        G2, _ = twin(G, RNG, rnd)
        assert hints.hint(G2, rng, t.legal(), ROLLOUTS) == h
        others = slice(L.OFF_H + L.HW, L.OFF_H + t.game.players * L.HW)
        checked["n"] += (G2[others] != G[others]).any()
        G3 = G.copy()
        G3[L.OFF_H + 0] += 1  # one more red 0 in the person's hand
        G3[L.OFF_H + L.HC_COLOUR] += 1
        G3[L.OFF_H + L.HC_SIZE] += 1
        n3 = int(legal_moves(G3))
        legal3 = tuple(m for c in G3[L.OFF_MOVES:L.OFF_MOVES + n3].tolist()
                       for m in MOVE_TEXTS[c])
        checked["changed"] += hints.hint(G3, rng, legal3, ROLLOUTS) != h

    decide(table(variant, seed=5), rnd, check)
    assert checked["n"] > 0 and checked["changed"] > 0, checked


def test_the_review_has_a_row_per_decision_as_its_hint_showed_it():
    """The person plays the search's choice at every other decision: those rows cost
    0; every row shows the figures its hint showed; a pruned move played is scored
    alone with the rollouts of the search's choice."""
    t = table("official", seed=6)
    rnd = random.Random(6)
    shown = []
    while not t.over:
        h = t.hint()
        shown.append(h)
        legal = t.legal()
        i = legal.index(h.best) if len(shown) % 2 else rnd.randrange(len(legal))
        t.pick(i)
    rows = review(t.decisions, t.seed, t.round, ROLLOUTS)
    assert len(rows) == len(t.decisions) == len(shown) > 3
    chose = 0
    for r, h, d in zip(rows, shown, t.decisions, strict=True):
        assert r.decision is d and r.made.move == d.move and r.best == h.of(h.best)
        if d.move == h.best:
            assert r.cost == 0.0 and r.made == r.best
            chose += 1
        elif h.of(d.move).searched:
            assert r.made == h.of(d.move)
            assert r.cost == pytest.approx(r.best.estimate - r.made.estimate)
        else:
            assert r.made.alone and r.made.rollouts == r.best.rollouts > 0
            assert 0.0 <= r.made.estimate <= 1.0
    assert chose >= len(rows) // 2
    bad = worst(rows)
    assert len(bad) <= 3 and all(rows[i].cost > 0 for i in bad)
    costs = sorted((r.cost for r in rows), reverse=True)
    assert sorted((rows[i].cost for i in bad), reverse=True) == costs[:len(bad)]


def test_a_figure_reads_the_search_units():
    f = hints.Figure("r5", value=3 * VALUE_UNIT, rollouts=4)
    assert f.estimate == 0.75 and f.searched
    lo, hi = f.interval()
    assert 0 < lo < 0.75 < hi < 1
    placing = hints.Figure("r5", value=3 * VALUE_UNIT, rollouts=4, per=2)
    assert placing.estimate == 0.375
    assert not hints.Figure("draw").searched


def test_the_command_takes_the_hints_budget_and_training(capsys):
    pytest.importorskip("textual")
    from cli_helpers import assert_one_line_error, invoke

    for bad in ("0", "x", "2000000"):
        assert_one_line_error(*invoke(capsys, ["play", "--hint-rollouts", bad]),
                              "--hint-rollouts")
    code, out, _ = invoke(capsys, ["play", "--help"])
    assert code == 0 and "--training" in out
    assert f"default {hints.ROLLOUTS}" in " ".join(out.split())


def test_the_command_hands_them_to_the_table_and_the_app(capsys, monkeypatch):
    pytest.importorskip("textual")
    from cli_helpers import invoke

    from unosim.play.app import PlayApp

    opened = []
    monkeypatch.setattr(PlayApp, "run", lambda app: opened.append(app))
    assert invoke(capsys, ["play", "--seed", "1", "--hint-rollouts", "50", "--training"])[0] == 0
    assert invoke(capsys, ["play", "--seed", "1"])[0] == 0
    (a, b) = opened
    assert (a.table.hint_rollouts, a.training) == (50, True)
    assert (b.table.hint_rollouts, b.training) == (hints.ROLLOUTS, False)
