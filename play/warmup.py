"""The engine a table needs, compiled beside the screen: ``unosim play`` draws its
table at once and, when Numba's cache does not hold the engine's game paths yet
(runs/tiers.py: "game", the step functions, and "game/strategies", the built-in
strategies' choices; in a match, the match's kernels too), compiles them in a
process of its own, ``python -m unosim.play.warmup [--match] PATH...``, while the
screen shows the compile notice. Once the process has cached them the table deals,
loading them from the cache in a moment.

A process, not a thread: Numba's compiler holds the interpreter for long stretches,
so a thread would freeze the screen (and the notice on it) for as long. The process
ends with the table, however the table ends: the screen ends it when it closes, and
on Linux the kernel ends it if the table's process dies first (``PR_SET_PDEATHSIG``).

The process tells the screen, one line each on its stdout, as ``unosim compile``'s
report: ``start PATH``, ``done PATH SECONDS``, ``cached PATH``, and ``ready`` once
all is cached.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable

from unosim.common import module_command
from unosim.runs import tiers
from unosim.runs.compile_notice import ESTIMATE_S, is_compiled

#: the compile paths a table's game calls (runs/game.py ``Game``)
GAME_PATHS = (tiers.GAME.name, tiers.GAME_STRATEGIES.name)
#: the name the notice gives the match's kernels (runs/played.py ``Sitting``)
MATCH = "match"
#: what the process prints once everything it was asked for is cached
READY = "ready"
#: about how long the match's kernels take to compile, in seconds
MATCH_S = (3, 15)


def _match_kernels() -> list[object]:
    from unosim.simulate import match_nb

    return [match_nb.start_match, match_nb.round_due, match_nb.seat_players,
            match_nb.settle_round, match_nb.finish_match]


def pending(match: bool = False) -> list[str]:
    """What a table (``match``: of a match) would compile before its first deal: the
    game paths Numba's cache does not hold, and ``MATCH`` for the match's kernels;
    empty when the table deals at once."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return []
    out = [p for p in GAME_PATHS if not is_compiled(p)]
    if match:
        from unosim.compiler.cache import all_cached

        if not all_cached(_match_kernels()):
            out.append(MATCH)
    return out


def compiles_here(seats: list[object]) -> bool:
    """Whether the first deal of a table of ``seats`` compiles in this process: a
    compiled plug-in's chooser is compiled in every process that plays it
    (runs/compile_notice.py ``EVERY_PROCESS``), so no other process can do it."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return False
    from unosim.compiler.cache import is_cached
    from unosim.strategies.plugins import chooser_for

    choose = chooser_for(seats)  # type: ignore[arg-type]
    return not getattr(choose, "signatures", None) and not is_cached(choose)


def plugin_notice() -> str:
    """The notice of a table whose first deal compiles its plug-ins' chooser here
    (``compiles_here``), in the words of the engine's notice for plug-ins."""
    lo, hi = ESTIMATE_S.get(tiers.PLUGINS.name, (10, 60))
    return (f"unosim: compiling your strategies into the engine ({tiers.PLUGINS.name}); "
            f"each time a table opens, {lo} to {hi} s...")


def estimate(paths: list[str]) -> tuple[int, int]:
    """About how long ``paths`` take to compile, in seconds (the paths' estimates)."""
    spans = [MATCH_S if p == MATCH else ESTIMATE_S.get(p, (10, 60)) for p in paths]
    return sum(s[0] for s in spans), sum(s[1] for s in spans)


def notice(paths: list[str]) -> str:
    """The compile notice of the table, in the words of the engine's notices
    (runs/compile_notice.py)."""
    lo, hi = estimate(paths)
    return (f"unosim: compiling the engine for this machine ({', '.join(paths)}); first "
            f"run only, {lo} to {hi} s...")


def command(paths: list[str]) -> list[str]:
    """The command line of the process that compiles ``paths`` for this process."""
    return module_command("unosim.play.warmup", "--parent", str(os.getpid()), *paths)


def die_with_parent() -> None:
    """In the compiling process, first (Linux): the kernel sends it SIGTERM if the
    table's process dies, so that no compile outlives its table."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def compile_engine(paths: list[str], say: Callable[[str], None]) -> None:
    """Compile ``paths`` (names of ``pending``) into Numba's cache, telling ``say`` a
    line per event (see the module's docstring)."""
    from unosim.runs.prebuild import compile_paths

    game = [p for p in paths if p != MATCH]

    def report(path: str, event: str, seconds: float | None) -> None:
        say(f"{event} {path}" + (f" {seconds:.1f}" if seconds is not None else ""))

    if game:
        compile_paths(game, report)
    if MATCH in paths:
        import time

        from unosim.runs.played import Sitting
        from unosim.simulate.rules import resolve
        from unosim.strategies.registry import parse_strategy

        say(f"start {MATCH}")
        t0 = time.perf_counter()
        Sitting(resolve(), [parse_strategy("random")] * 3, 0, match=True)
        say(f"done {MATCH} {time.perf_counter() - t0:.1f}")
    say(READY)


def main(argv: list[str]) -> int:
    """``[--parent PID] PATH...``: compile the paths, ended with the table's process
    ``PID`` (gone already: nothing is compiled)."""
    die_with_parent()
    if argv[:1] == ["--parent"]:
        parent, argv = int(argv[1]), argv[2:]
        if os.getppid() != parent:  # the table ended before the ending was set
            return 1

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        compile_engine(argv, say)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
