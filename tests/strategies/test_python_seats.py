"""What a Python seat is told, and when: its own cards (private ``got`` events, which
no other seat hears), ``new_game`` at the deal with the hands as dealt, the order of
the events, each game played once, and a decision budget that counts the strategy's
own CPU time; every failure of a strategy is its own, one line naming seat and game.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.cli_helpers import assert_one_line_error, invoke
from unosim.errors import UnosimError
from unosim.runs.game import Game
from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies import python as P
from unosim.strategies.plugins import load_plugins
from unosim.strategies.registry import parse_strategy

HERE = Path(__file__).resolve().parent
SEATS = HERE / "python_strategies_seats.py"
BAD = HERE / "python_strategies_bad.py"
FIRST = HERE.parents[1] / "strategies" / "examples" / "first.py"


def _cls(name: str):
    from unosim.strategies.registry import PLUGINS

    load_plugins([f"{SEATS}:{name}"])
    return PLUGINS[name].fn.target


def _records(names, variants=(), players=4, games=200, seed=5):
    rules = resolve(list(variants), [("players", players)])
    return play_records(rules, [parse_strategy(n) for n in names], seed, 0, games)


# ----------------------------------------------------------------- its own cards


@pytest.mark.parametrize("variants,players", [((), 4), (("stacking",), 5),
                                              (("swap-on-five",), 3), (("jump-in",), 4)])
def test_a_card_counter_on_the_public_api_tracks_its_own_hand_exactly(variants, players):
    """The hand as dealt, plus the cards it got, less those it played or gave: at every
    decision of every game, the hand the game says it holds. Reshuffles included (a
    draw across one tells which cards came before it and which after)."""
    T = _cls("HandTracker")
    T.checked, T.got, T.reshuffles, T.wrong, T.foreign = 0, 0, 0, [], []
    T.order_wrong = []
    names = ["HandTracker", "random", "HandTracker"] + ["random"] * (players - 3)
    _records(names, variants, players, games=150)
    assert T.wrong == [] and T.foreign == []
    # view.arrivals: the hand in the order the cards came, the newest (a card just
    # drawn) last, as the counter kept it
    assert T.order_wrong == [], T.order_wrong[:3]
    assert T.checked > 3000 and T.got > 1000 and T.reshuffles > 5, (T.checked, T.got,
                                                                      T.reshuffles)


def test_a_seat_that_is_out_hears_the_rest_of_the_round_before_the_ring_wraps():
    """Under elimination a seat that went out makes no decision while the others play
    on, hundreds of events: the driver reads them while the ring still holds them
    (read too late, a game would stop with "more events than the ring holds")."""
    T = _cls("Listener")
    T.longest = 0
    _records(["Listener"] + ["random"] * 7, ("elimination",), 8, games=40)
    assert T.longest > L.EV_CAP  # more than the ring holds came between two decisions


def _seen(events, seat):
    return [e for e in events if P.heard_by(e, seat)]


def test_a_draw_across_a_reshuffle_in_order_and_to_the_drawer_alone():
    """Seat 1 draws two on a Draw Two with one card left: the card, the reshuffle
    (the top card stays), the card after it, then the public count."""
    g = Game(resolve(["official"], [("players", 3)]), seed=2, record_events=True)
    g.set_hand(0, ["rdraw2", "y7", "y8"]).set_hand(1, ["b1", "b2"]).set_hand(2, ["g1", "g2"])
    g.set_piles(draw=["g9"], discard=["y3", "g4", "r2"]).set_turn(actor=0)
    g.G[L.OFF_EV_N] = 0
    g.apply("rdraw2")
    log = P.EventLog()
    log.take(g.G, 0, int(g.G[L.OFF_EV_N]))
    events = list(log.all())
    assert events[0] == P.Event("play", 0, "rdraw2", how="turn")
    assert events[1] == P.Event("got", 1, "g9", how="draw")
    assert events[2] == P.Event("reshuffle", -1, count=3)
    assert events[3].kind == "got" and events[3].seat == 1 and events[3].how == "draw"
    assert events[3].card in ("y3", "g4", "r2")
    assert events[4] == P.Event("draw", 1, count=2, how="penalty")
    assert sorted(g.hand(1)) == sorted(["b1", "b2", "g9", events[3].card])
    assert P.View(g.G, g.RNG, 1, 0, log, {}).arrivals == ("b1", "b2", "g9", events[3].card)
    assert g.discard_pile() == ["rdraw2"]  # the top card is kept at a reshuffle
    # the others hear the reshuffle and the count, never the cards
    for q in (0, 2):
        assert [e.kind for e in _seen(events, q)] == ["play", "reshuffle", "draw"]
        assert [e.kind for e in log.seen_by(q)] == ["play", "reshuffle", "draw"]
    assert [e.kind for e in log.seen_by(1)] == ["play", "got", "reshuffle", "got", "draw"]


def test_a_trade_on_a_five_tells_each_side_the_card_it_got():
    g = Game(resolve(["swap-on-five"], [("players", 3)]), seed=2, record_events=True)
    g.set_hand(0, ["r5", "y7", "b3"]).set_hand(1, ["g1", "g2"]).set_hand(2, ["b1", "y2"])
    g.set_piles(draw=["b9"] * 10, discard=["r2"]).set_turn(actor=0)
    g.G[L.OFF_EV_N] = 0
    for m in ("r5", "target:2", "give:y7", "give:b1"):
        g.apply(m)
    log = P.EventLog()
    log.take(g.G, 0, int(g.G[L.OFF_EV_N]))
    got = [e for e in log.all() if e.kind == "got"]
    assert got == [P.Event("got", 2, "y7", how="trade"), P.Event("got", 0, "b1", how="trade")]
    assert [e for e in log.seen_by(1) if e.kind == "got"] == []
    assert [e for e in log.seen_by(0) if e.kind == "got"] == [got[1]]


@pytest.mark.compile
def test_the_compiled_hooks_hear_their_own_cards_alone():
    """A compiled observe hook gets ``EV_GOT`` for its own seat only: the cards it
    counts that way are exactly the cards drawn into its hand."""
    import numba

    from unosim.strategies import api
    from unosim.strategies.plugins import plugin

    @numba.njit
    def got_counter_observe(G, seat, kind, who, a, b):
        mem = api.memory(G, seat)
        if kind == api.EV_GOT:
            if who == seat:
                mem[0] += 1
            else:
                mem[1] += 1
        elif kind == api.EV_DRAW and who == seat:
            mem[2] += a

    @numba.njit
    def got_counter(G, rng):
        n = api.legal_moves(G)
        m = G[api.OFF_MOVES + api.randint(rng, n)]
        return api.with_colour(m, 0) if api.WILD <= m < api.MV_PLAY_END else m

    plugin(got_counter, observe=got_counter_observe)
    rules = resolve(["stacking"], [("players", 3)])
    seats = [parse_strategy(x) for x in ("got_counter", "got_counter", "random")]
    heard = 0
    for k in range(25):
        g = Game(rules, seats, seed=6, game_index=k)
        while not g.over and g.stat("turns") < 400:
            g.step()
        for q in (0, 1):
            mem = g.G[L.OFF_MEM + q * L.MEM_WORDS:L.OFF_MEM + q * L.MEM_WORDS + 3]
            # another seat's cards never reach it; its own come with their count
            assert mem[1] == 0 and mem[0] == mem[2], (k, q, mem)
            heard += int(mem[0])
    assert heard > 100


# ----------------------------------------------------------------- new_game and the order


def test_new_game_comes_at_the_deal_with_the_hands_as_dealt():
    """new_game's view: the seat's cards as dealt and every seat's dealt count, no
    events yet. Then observe hears the deal's events in order: the deal, each card
    turned (a first Wild Draw Four goes back and another is turned: two flips), and
    for a first Draw Two seat 0's cards (to seat 0 alone) then its public draw."""
    spy = _cls("DealSpy")
    spy.seen, spy.games = [], 0
    games, players = 400, 3
    _records(["DealSpy"] * players, ["official"], players, games=games, seed=8)
    assert spy.games == games and len(spy.seen) >= games * players * 0.9
    rules = resolve(["official"], [("players", players)])
    cases: Counter[str] = Counter()
    for g, seat, hand, counts, top, early, heard in spy.seen:
        assert early == () and len(hand) == 7 and counts == (7,) * players
        assert heard[0] == P.Event("deal", -1, count=players)
        n = next((i for i, e in enumerate(heard[1:], 1) if e.kind != "flip"), len(heard))
        flips = heard[1:n]
        assert flips and flips[-1].card == top
        if len(flips) == 2:
            assert flips[0].card == "wild4"
            cases["two flips"] += 1
        got: list[str] = []
        if flips[-1].card.endswith("draw2"):
            cases["first draw two"] += 1
            if seat == 0:
                got = [e.card for e in heard[n:n + 2]]
                assert [e.kind for e in heard[n:n + 2]] == ["got", "got"]
                n += 2
            assert heard[n] == P.Event("draw", 0, count=2, how="penalty")
        assert all(e.kind != "got" or e.seat == seat for e in heard)
        if g < 80:  # the dealt hand and the cards got at the deal: the hand the deal made
            game = Game(rules, [parse_strategy("random")] * players, seed=8, game_index=g)
            assert Counter(hand) + Counter(got) == Counter(game.hand(seat)), (g, seat)
            cases["dealt hands compared"] += 1
    assert cases["two flips"] >= 3 and cases["first draw two"] >= 6, cases
    assert cases["dealt hands compared"] > 200


def test_each_game_is_played_once(capsys):
    """No warm-up game: a strategy with side effects sees each game of the run once."""
    c = _cls("counts_games")
    c.games = c.decisions = 0
    code, out, err = invoke(capsys, ["run", "--strategy-file", f"{SEATS}:counts_games",
                                     "--seat", "0=counts_games", "--games", "7",
                                     "--seed", "3", "--no-progress"])
    assert code == 0, err
    assert c.games == 7 and c.decisions > 7 * 5


# ----------------------------------------------------------------- failures are the strategy's


@pytest.mark.parametrize("name,words", [
    ("raises", ["strategy raises at seat 0 raised ValueError: no idea"]),
    ("observe_raises", ["strategy observe_raises at seat 0 raised KeyError"]),
    ("exits", ["strategy exits at seat 0 raised SystemExit: 3"]),
    ("base_exception", ["strategy base_exception at seat 0 raised BaseException: out"]),
    ("interrupts", ["strategy interrupts at seat 0 raised KeyboardInterrupt"]),
    ("ctor_fails", ["strategy ctor_fails at seat 0 raised RuntimeError: no more"]),
])
def test_whatever_a_strategy_raises_is_its_failure_in_one_line(capsys, name, words):
    """sys.exit, BaseException and KeyboardInterrupt out of a strategy end the run as
    any failure of it does: one line naming the seat and the game, exit code 2."""
    code, out, err = invoke(capsys, ["run", "--strategy-file", f"{BAD}:{name}", "--seat",
                                     f"0={name}", "--games", "20", "--seed", "3",
                                     "--no-progress"])
    assert code == 2, (code, err)
    assert "Traceback" not in err and "interrupted" not in err
    line = err.strip().splitlines()[-1]
    assert line.startswith("unosim: error: ")
    for w in [*words, "game 0 of seed 3", "game_index=0"]:
        assert w in line, line


def test_a_real_ctrl_c_during_a_strategy_is_still_ctrl_c(capsys):
    """Two stop signals while a strategy decides stop the run at once, as anywhere:
    the signal is the person's, not the strategy's failure."""
    code, out, err = invoke(capsys, ["run", "--strategy-file", f"{BAD}:ctrl_c_twice",
                                     "--seat", "0=ctrl_c_twice", "--games", "20", "--seed",
                                     "3", "--no-progress"])
    assert code == 130, (code, err)
    assert "stopped at once" in err and "strategy ctrl_c_twice" not in err


def test_a_missing_name_lists_only_what_looks_like_a_strategy(capsys):
    code, out, err = invoke(capsys, ["run", "--strategy-file", f"{BAD}:nope", "--games",
                                     "5"])
    assert_one_line_error(code, out, err, "has no 'nope'", "strategies there: ")
    listed = err.split("strategies there: ")[1].rstrip(")\n").split(", ")
    assert {"raises", "wrong_type", "observe_raises", "fails_later", "exits"} <= set(listed)
    assert not {"helper_score", "helper_pair", "two_args", "not_a_strategy",
                "NoChoose"} & set(listed)


def test_a_bad_parameter_of_a_python_strategy_says_what_it_takes(capsys):
    load_plugins([f"{FIRST}:keep_wilds"])
    with pytest.raises(UnosimError) as e:
        parse_strategy("keep_wilds:bluff=0.3")
    msg = str(e.value)
    assert "bad parameter 'bluff=0.3'" in msg and "declares none" in msg
    assert "PARAMS" in msg and "forget=P" in msg and "challenge=P" not in msg
    assert parse_strategy("keep_wilds:forget=0.2").params == {"forget": 0.2}
    load_plugins([f"{HERE.parents[1]}/strategies/examples/counting.py:ColourCounter"])
    with pytest.raises(UnosimError, match=r"weight=X \(0\.\.10\)"):
        parse_strategy("ColourCounter:foo=1")


# ----------------------------------------------------------------- the decision budget


def test_the_budget_counts_cpu_time_and_is_set_from_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("UNOSIM_DECISION_BUDGET", "0.05")
    code, out, err = invoke(capsys, ["run", "--strategy-file", f"{SEATS}:busy", "--seat",
                                     "0=busy", "--games", "5", "--seed", "3",
                                     "--no-progress"])
    assert code == 2
    line = err.strip().splitlines()[-1]
    assert "strategy busy at seat 0 used " in line and " s of CPU time" in line, line
    assert "UNOSIM_DECISION_BUDGET" in line and "game 0 of seed 3" in line
    # a call that never returns is stopped by the timer
    code, out, err = invoke(capsys, ["run", "--strategy-file", f"{SEATS}:spins", "--seat",
                                     "0=spins", "--games", "5", "--seed", "3",
                                     "--no-progress"])
    assert code == 2
    line = err.strip().splitlines()[-1]
    assert "strategy spins at seat 0 used more than 0.05 s of CPU time" in line, line
    # waiting is not working: 0.15 s asleep in each game uses no CPU
    t0 = time.perf_counter()
    code, out, err = invoke(capsys, ["run", "--strategy-file", f"{SEATS}:napper", "--seat",
                                     "0=napper", "--games", "4", "--seed", "3",
                                     "--no-progress"])
    assert code == 0, err
    assert time.perf_counter() - t0 > 0.15  # it slept past the budget, and played on
    monkeypatch.setenv("UNOSIM_DECISION_BUDGET", "soon")
    code, out, err = invoke(capsys, ["run", "--strategy-file", f"{SEATS}:napper", "--seat",
                                     "0=napper", "--games", "4", "--no-progress"])
    assert_one_line_error(code, out, err, "UNOSIM_DECISION_BUDGET must be seconds")


def _run(args: list[str], mark: Path, stop_s: float = 0.0) -> dict:
    env = {**os.environ, "UNOSIM_TEST_MARK": str(mark)}
    proc = subprocess.Popen([sys.executable, "-m", "unosim", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if stop_s:
        t0 = time.monotonic()
        while not mark.exists() and proc.poll() is None and time.monotonic() - t0 < 240:
            time.sleep(0.01)
        assert proc.poll() is None, "the run ended before it could be stopped"
        time.sleep(0.05)
        proc.send_signal(signal.SIGSTOP)
        time.sleep(stop_s)
        proc.send_signal(signal.SIGCONT)
    out, err = proc.communicate(timeout=400)
    assert proc.returncode == 0, err
    return json.loads(out)


@pytest.mark.subprocess
def test_a_suspended_run_finishes_with_the_figures_of_an_uninterrupted_one(tmp_path):
    """Stopped for 3 s (Ctrl-Z then fg, or a starved CPU) while a strategy spends a
    millisecond on each decision: the run goes on, the same figures. (Under the old
    wall-clock budget of 1 s this run ended with exit 1 and an internal _TooSlow.)"""
    args = ["run", "--strategy-file", f"{SEATS}:marked", "--seat", "0=marked", "--players",
            "2", "--games", "60", "--seed", "4", "--format", "json", "--no-progress"]
    plain = _run(args, tmp_path / "a")
    stopped = _run(args, tmp_path / "b", stop_s=3.0)
    assert (tmp_path / "b").exists()

    def figures(d: dict) -> dict:
        return {k: v for k, v in d.items() if not any(w in k for w in (
            "elapsed", "speed", "second", "compile", "time", "per_s", "rate_s"))}

    assert figures(plain) == figures(stopped)
    assert figures(plain)
