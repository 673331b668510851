"""The table of ``unosim play`` opens at once, driven by Textual's Pilot: opened
before its first deal (as the command opens it) while the engine still compiles, it
is drawn with the compile notice, keys that need a round wait politely, and quitting
ends the compiling process; once the process says the engine is ready the round
starts by itself; a process that fails leaves the table to compile it itself; with
the engine cached nothing compiles and the round is dealt at once. The compile is a
stub (a process that sleeps or prints the process's lines): nothing compiles here."""

from __future__ import annotations

import asyncio
import os
import sys
import time

import pytest

pytest.importorskip("textual")
from textual.widgets import OptionList, Static  # noqa: E402

from unosim.play import warmup  # noqa: E402
from unosim.play.app import PlayApp  # noqa: E402
from unosim.play.table import Table  # noqa: E402
from unosim.simulate.rules import resolve  # noqa: E402
from unosim.strategies.registry import parse_strategy  # noqa: E402

PATHS = ["game", "game/strategies"]


def unstarted(seed: int = 2, match: bool = False) -> PlayApp:
    rules = resolve(["official"], [("players", 3)])
    t = Table(rules, [parse_strategy("offensive")] * 2, seed, match=match, deal=False)
    return PlayApp(t, ["you", "offensive", "offensive"], "official")


def stub(monkeypatch, script: str, paths: list[str] = PATHS) -> None:
    """The engine ``paths`` pending, compiled by a Python process running ``script``."""
    monkeypatch.setattr(warmup, "pending", lambda match=False: list(paths))
    monkeypatch.setattr(warmup, "command", lambda p: [sys.executable, "-c", script])


def text(app: PlayApp, widget: str) -> str:
    return str(app.query_one(widget, Static).render())


async def until(pilot, ready, seconds: float = 20.0) -> None:
    t0 = time.perf_counter()
    while not ready():
        assert time.perf_counter() - t0 < seconds, "timed out"
        await pilot.pause(0.05)


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (and was reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_table_is_drawn_with_the_notice_while_the_engine_compiles_and_q_ends_it(
        monkeypatch):
    """A compile that would take a minute: the table is on the screen within a moment,
    with the notice; a move's key says the round waits, the footer offers no key of a
    round; q quits at once and leaves no compiling process."""
    stub(monkeypatch, "import time; print('start game', flush=True); time.sleep(60)")
    app = unstarted()
    t = app.table
    pids: list[int] = []

    async def drive() -> None:
        t0 = time.perf_counter()
        async with app.run_test(size=(130, 45)) as pilot:
            await until(pilot, lambda: app.compiler is not None)
            shown = text(app, "#result")
            assert "compiling the engine for this machine (game, game/strategies)" in shown
            assert "the round starts by itself" in shown and "q quits" in shown
            assert "official" in text(app, "#table") and "seed 2" in text(app, "#table")
            assert time.perf_counter() - t0 < 5
            assert not t.started and app.query_one("#moves", OptionList).option_count == 0
            keys = {b.binding.action for b in app.screen.active_bindings.values()
                    if b.binding.show}
            assert "quit" in keys and not keys & {"deal", "hints(True)", "review", "undo"}
            await pilot.press("1")
            await pilot.press("n")
            await pilot.press("h")
            await pilot.pause()
            assert not t.started and app.hints_on is False
            assert any("starts once the engine is compiled" in str(n.message)
                       for n in app._notifications)
            pids.append(app.compiler.pid)
            assert not gone(pids[0])
            await pilot.press("q")
        assert time.perf_counter() - t0 < 15

    asyncio.run(drive())
    assert gone(pids[0]), "the compiling process outlived the table"
    assert not t.started and not t.over and t.played == [] and t.moves == []


@pytest.mark.parametrize("script, said", [
    ("print('start game'); print('done game 2.4'); print('ready')", "game: compiled in 2 s"),
    ("raise SystemExit(1)", "failed"),
])
def test_the_round_starts_by_itself_once_the_engine_is_ready(monkeypatch, script, said):
    """Once the process says ready, the table deals and the person's moves are listed;
    a process that ends without it (a failure) leaves the deal to compile what is
    missing itself, and the round starts all the same."""
    stub(monkeypatch, f"import time; time.sleep(0.5); {script}", ["game"])
    app = unstarted()
    t = app.table
    notices: list[str] = []
    show = app.show_waiting

    def spy(*args, **kw) -> None:
        show(*args, **kw)
        if app.compiling:
            notices.append(text(app, "#result"))

    app.show_waiting = spy  # type: ignore[method-assign]

    async def drive() -> None:
        async with app.run_test(size=(130, 45)) as pilot:
            await until(pilot, lambda: t.started)
            await pilot.pause()
            assert app.query_one("#moves", OptionList).option_count == len(t.legal()) > 0
            assert "compiling" not in text(app, "#result")
            assert "your decision" in text(app, "#result")
            await pilot.press("q")

    asyncio.run(drive())
    assert notices and "compiling the engine for this machine (game)" in notices[0]
    assert any(said in n for n in notices)
    assert app.compiler is None


def test_with_the_engine_cached_the_round_is_dealt_at_once(monkeypatch):
    """Nothing pending: no notice, no process; the first round is the same deal as a
    table dealt when it is made."""
    monkeypatch.setattr(warmup, "pending", lambda match=False: [])

    def no_process(paths):
        raise AssertionError("nothing should compile")

    monkeypatch.setattr(warmup, "command", no_process)
    app = unstarted(seed=5)
    t = app.table
    rules = resolve(["official"], [("players", 3)])
    dealt = Table(rules, [parse_strategy("offensive")] * 2, 5)

    async def drive() -> None:
        async with app.run_test(size=(130, 45)) as pilot:
            await pilot.pause()
            assert t.started and "compiling" not in text(app, "#result")
            assert t.seen() == dealt.seen()
            await pilot.press("q")

    asyncio.run(drive())


def test_the_notice_is_shown_only_for_what_is_not_cached(monkeypatch):
    """``pending`` names the game paths the cache does not hold (and the match's
    kernels at a match table only), none without the compiler."""
    monkeypatch.setattr(warmup, "is_compiled", lambda p: p == "game")
    assert warmup.pending() == ["game/strategies"]
    monkeypatch.setattr(warmup, "is_compiled", lambda p: True)
    assert warmup.pending() == []
    monkeypatch.setattr("unosim.compiler.cache.all_cached", lambda ks: False)
    assert warmup.pending(match=True) == [warmup.MATCH]
    monkeypatch.setattr(warmup, "is_compiled", lambda p: False)
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert warmup.pending(match=True) == []
    lo, hi = warmup.estimate(PATHS)
    assert f"first run only, {lo} to {hi} s" in warmup.notice(PATHS)


def test_a_table_whose_deal_compiles_here_says_so_before_it(monkeypatch):
    """A compiled plug-in's chooser compiles in the table's own process: its notice is
    on the screen before the deal (which holds the screen while it compiles)."""
    monkeypatch.setattr(warmup, "pending", lambda match=False: [])
    monkeypatch.setattr(warmup, "compiles_here", lambda seats: True)
    app = unstarted()
    t = app.table
    notices: list[tuple[bool, str]] = []
    deal = t.deal

    def spy() -> None:
        notices.append((t.started, text(app, "#result")))
        deal()

    t.deal = spy  # type: ignore[method-assign]

    async def drive() -> None:
        async with app.run_test(size=(130, 45)) as pilot:
            await until(pilot, lambda: t.started)
            await pilot.pause()
            assert "compiling" not in text(app, "#result")
            await pilot.press("q")

    asyncio.run(drive())
    assert len(notices) == 1 and not notices[0][0]
    assert "compiling your strategies into the engine (plug-ins)" in notices[0][1]
    assert "each time a table opens" in notices[0][1]


def test_the_compiling_process_tells_each_path_then_ready(monkeypatch):
    """What the process prints, line by line, as the screen reads it (the compile a
    stub); started for a table that has ended already, it compiles nothing."""
    calls: list[list[str]] = []

    def fake(paths, report):
        calls.append(list(paths))
        for p in paths:
            report(p, "start", None)
            report(p, "done", 1.5)
        return len(paths)

    monkeypatch.setattr("unosim.runs.prebuild.compile_paths", fake)
    said: list[str] = []
    warmup.compile_engine(PATHS, said.append)
    assert said == ["start game", "done game 1.5", "start game/strategies",
                    "done game/strategies 1.5", warmup.READY]
    monkeypatch.setattr(warmup, "die_with_parent", lambda: None)  # not this process
    assert warmup.main(["--parent", str(os.getppid() + 1)]) == 1 and len(calls) == 1
    cmd = warmup.command(PATHS)
    # -P: the child never imports a checkout's unosim folder from its working folder
    assert cmd[1:] == ["-P", "-m", "unosim.play.warmup", "--parent", str(os.getpid()), *PATHS]
