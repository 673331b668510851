"""``unosim selfcheck``: what it covers, and that it catches and reports failures
(with the seed and rules to reproduce them) rather than hiding them."""

from __future__ import annotations

import numpy as np
import pytest
from cli_helpers import invoke

from unosim.checks.combos import draw_combo
from unosim.checks.invariants import (
    CheckFailure,
    check_records,
    check_state,
    play_game_checked,
)
from unosim.runs.game import Game
from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.registry import parse_strategy

RANDOM4 = [parse_strategy("random")] * 4


@pytest.mark.slow
def test_selfcheck_runs_and_reports_coverage(capsys):
    code, out, err = invoke(capsys, ["selfcheck", "--minutes", "0.1", "--seed", "3"])
    assert code == 0, err
    assert "unosim selfcheck · seed 3" in out
    assert "combinations:" in out and "move by move" in out and "no failures" in out
    checked = int(out.split("combinations: ")[1].split()[0].replace(",", ""))
    assert checked >= 1
    for key in ("stacking", "jump_in", "elimination", "scoring"):
        assert f"\n  {key} " in out


@pytest.mark.slow
def test_a_failure_is_reported_with_what_reproduces_it(capsys, monkeypatch):
    monkeypatch.setenv("UNOSIM_SELFCHECK_FAULT", "fail:2")
    code, out, err = invoke(capsys, ["selfcheck", "--seed", "9", "--combo", "2"])
    assert code == 1
    assert "FAILURE in combination 2: CheckFailure: game 0: injected failure" in err
    assert "replay the game: unosim replay --seed 9 --game 0" in err
    assert "rerun the check: unosim selfcheck --seed 9 --combo 2" in err
    assert "--rule players=" in err and "--seat 0=" in err
    assert "FAILED: 1 combination(s)" in out
    assert "Traceback" not in out + err


@pytest.mark.slow
def test_a_hang_is_reported_and_checking_goes_on(capsys, monkeypatch):
    """The compiled loop cannot be interrupted: the check runs in a child process
    that is killed when a table takes too long."""
    monkeypatch.setenv("UNOSIM_SELFCHECK_FAULT", "hang:0")
    code, out, err = invoke(capsys, ["selfcheck", "--seed", "4", "--minutes", "0.15",
                                     "--hang-seconds", "2"])
    assert code == 1
    assert "FAILURE in combination 0: Hang: no result within 2 s" in err
    checked = int(out.split("combinations: ")[1].split()[0].replace(",", ""))
    assert checked >= 2  # it went on with table 1 and later in a new child process


def test_combos_are_reproducible_from_seed_and_index():
    a, ra = draw_combo(5, 17)
    b, rb = draw_combo(5, 17)
    assert a is not None and b is not None
    assert (a.overrides, a.seats, ra) == (b.overrides, b.seats, rb)
    assert a.rules == resolve([], list(a.overrides.items()))


def test_check_state_catches_a_corrupted_hand():
    g = Game(resolve(), RANDOM4, seed=1, game_index=0)
    deck = int(g.G[L.R_DECK_SIZE])
    check_state(g, deck)
    g.G[L.OFF_H + 2 * L.HW + 5] += 1  # a red 5 appears in seat 2's hand ...
    with pytest.raises(CheckFailure, match="size column"):  # ... its columns are stale
        check_state(g, deck)
    g.G[L.OFF_H + 2 * L.HW + L.HC_SIZE] += 1
    with pytest.raises(CheckFailure, match="cards in play"):  # ... and it came from nowhere
        check_state(g, deck)


def test_check_records_catches_inconsistent_records():
    rules = resolve()
    rec = play_records(rules, RANDOM4, seed=2, start=0, n=50)
    check_records(rec, rules)
    col = {k: i for i, k in enumerate(L.GAME_FIELDS)}
    for column, value, words in [("winner_points", 10**6, "winner points"),
                                 ("winner", 7, "not a seat"),
                                 ("capped", 2, "capped flag"),
                                 ("turns", 6000, "turns")]:
        bad = rec.copy()
        bad[3, col[column]] = value
        with pytest.raises(CheckFailure, match=words):
            check_records(bad, rules)


def test_python_driven_games_match_the_batch_for_a_drawn_table():
    c, _ = draw_combo(11, 3)
    seats = [parse_strategy(s) for s in c.seats]
    rec = play_records(c.rules, seats, 11, 0, 4)
    for k in range(4):
        row, moves = play_game_checked(c.rules, seats, 11, k)
        assert moves > 0
        assert np.array_equal(row, rec[k])
