"""Compiling the engine ahead of time (``unosim compile``, ``unosim bench``): each
path of runs/compile_notice.py played once on a small table that needs it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from unosim.compiler.compiling import listening
from unosim.runs import tiers
from unosim.runs.compile_notice import is_compiled

#: the example plug-in (strategies/examples/plugins.py) that compiles the plug-in path
EXAMPLE_PLUGIN = tiers.PLUGIN_EXAMPLE


def _table_for(path: str) -> tuple[object, str] | None:
    """A small table that plays ``path``, and its mode (None: cannot be built here):
    the example seat of the path's tier (runs/tiers.py), or the example plug-in."""
    from unosim.runs.tables import Table
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    examples = {tiers.PLUGINS.name: ("plugins.py", EXAMPLE_PLUGIN),
                tiers.PYTHON_SEATS.name: ("first.py", tiers.PYTHON_EXAMPLE)}
    if path in examples:
        from unosim import strategies
        from unosim.strategies.plugins import load_plugins

        file, first = examples[path]
        example = Path(strategies.__file__).parent / "examples" / file
        try:
            load_plugins([f"{example}:{first}"])
        except Exception:  # noqa: BLE001 - no example file in this installation
            return None
        mode = "round"
    else:
        mode, tier = tiers.ENTRY_OF[path]
        first = tier.example
    seats = [parse_strategy(first)] + [parse_strategy("random")] * 3
    return Table(resolve([]), seats), mode


def compile_paths(paths: list[str], report: Callable[[str, str, float | None], None]) -> int:
    """Compile each of ``paths`` that is not compiled yet (``unosim compile``), telling
    ``report(path, "cached" | "start" | "done" | "skipped", seconds)``; returns how many
    compiled."""
    from unosim.runs import quick
    from unosim.runs.runner import warm
    from unosim.strategies.registry import PLUGINS

    done = 0
    for path in paths:
        if is_compiled(path):
            report(path, "cached", None)
            continue
        if path in (tiers.GAME.name, tiers.GAME_STRATEGIES.name):
            from unosim.runs.game import Game

            with listening(lambda p, event, s: report(p, event, s)):
                g = Game(seed=0)  # compiles the path "game"
                if path == tiers.GAME_STRATEGIES.name:
                    g.choose()
            done += 1
            continue
        made = _table_for(path)
        if made is None:
            report(path, "skipped", None)
            continue
        table, mode = made
        try:
            with listening(lambda p, event, s: report(p, event, s)), quick.suspended():
                warm(table, mode, 0)  # type: ignore[arg-type]
        finally:
            PLUGINS.pop(EXAMPLE_PLUGIN, None)  # the example served only to compile
        done += 1
    return done
