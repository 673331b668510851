"""The tiers of the built-in entry points, declared once.

A tier is a family of cached entry points (runs/entries_nb.py) that plays the
tables that need it and compiles on its first use: the built-ins without
parameters (plain), with a parametric strategy (param), with a search seat or a
built-in that observes the table's events, the card counter (search). Each
``Tier`` says the kinds of seat that need it (``SeatStrategy.kind``; a table plays
on the last tier one of its seats needs, each tier playing every seat the tiers
before it play), its entry point per mode (round, match) and the compile path of each
(runs/compile_notice.py): its name, what it serves, how long it takes to compile,
and what the helper process (runs/prime.py) and the command compile side by
side on its first use. Entry points, batches, compile paths, ``unosim compile``
and the helper all read this table, as stumpy pairs its variants by one
declaration (``core.non_normalized``): a new tier is one declaration here plus its
kernels.

The shares named here are groups of kernels that declare themselves with
``@kernel(share=..., kinds=...)`` where they are defined (simulate/jit.py); the
helper finds them by reading the kernel modules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from unosim.strategies.registry import OBSERVER, PARAM, PLAIN, SEARCH


@dataclass(frozen=True)
class CompilePath:
    """A part of the engine that compiles on its own, on first use."""

    name: str  # as ``unosim compile`` and the notices name it
    serves: str  # what it plays, for ``unosim compile``'s list
    #: about how long it takes to compile, in seconds, on 2 cores: a recent desktop
    #: processor to a slow shared virtual machine (``unosim bench`` measures it)
    estimate_s: tuple[int, int]
    #: the shares the helper process compiles, in order, before it prints
    #: prime.READY; empty: no helper (one core is as fast)
    helper: tuple[str, ...] = ()
    #: what the helper compiles after READY, while the command compiles its entry
    #: point: kernels a later path finds cached (the command ends the helper when done)
    helper_then: tuple[str, ...] = ()
    #: the command's share while the helper compiles, after which it waits for READY
    #: so that its entry point finds the helper's kernels cached; None: no wait
    beside: tuple[str, ...] | None = None
    #: the part of the helper's first share (by bytecode, smallest kernels first) the
    #: command compiles before its own share, where the helper's is the longer
    steal_first: float = 0.0
    #: the copy of the engine the path compiles (runs/quick.py): its shares are
    #: compiled as that copy's kernels; None: the engine as it is
    variant: str | None = None


@dataclass(frozen=True)
class Entry:
    """A tier's entry point for one mode: the rows kernel in runs/entries_nb.py and
    the path it compiles."""

    kernel: str
    path: CompilePath


@dataclass(frozen=True)
class Tier:
    """A family of entry points: the seats that need it, and its entry per mode."""

    name: str
    #: the kinds of seat (``SeatStrategy.kind``) that need this tier or a later one
    kinds: frozenset[str]
    #: mode name -> its entry point (the mode names of runs/runner.py)
    entries: Mapping[str, Entry]
    #: a seat that needs it: ``unosim compile`` plays a small table with it
    example: str

    def selects(self, seats: list[Any]) -> bool:
        """Whether a table (its seats) needs this tier or a later one."""
        return any(s.kind in self.kinds for s in seats)


#: every tier, the least first: a table plays on the last one it selects (each plays
#: every seat the ones before it play)
TIERS: tuple[Tier, ...] = (
    Tier("plain", frozenset({PLAIN}), {
        "round": Entry("play_rows", CompilePath(
            "rounds", "rounds of the built-in strategies without parameters", (20, 70),
            helper=("steps",), helper_then=("called",),
            beside=("strategies", "deal", "record", "folds"))),
        "match": Entry("play_match_rows", CompilePath(
            "matches", "matches of the built-ins without parameters", (5, 15))),
    }, example="random"),
    Tier("param", frozenset({PARAM}), {
        "round": Entry("play_rows_param", CompilePath(
            "rounds/param",
            "rounds with a parametric strategy (weighted, adaptive, gang-up, tuned)", (15, 50),
            helper=("record", "called"))),
        "match": Entry("play_match_rows_param", CompilePath(
            "matches/param", "matches with a parametric strategy", (5, 15))),
    }, example="tuned"),
    # the dispatch of every built-in (search_nb.choose_move): the search, and the
    # card counter, which hears the table's events there
    Tier("search", frozenset({SEARCH, OBSERVER}), {
        "round": Entry("play_rows_search", CompilePath(
            "rounds/search", "rounds with a search seat or a card counter", (15, 40),
            helper=("record", "called", "search"), beside=("search-beside",))),
        "match": Entry("play_match_rows_search", CompilePath(
            "matches/search", "matches with a search seat or a card counter", (5, 15))),
    }, example="search:rollouts=2"),
)
BY_NAME: dict[str, Tier] = {t.name: t for t in TIERS}

#: the quick round kernel (runs/quick.py): the first rounds of a table of plain
#: built-ins whose rules reach no house step, played while the plain round path is
#: not compiled. ``unosim compile`` does not build it: it is only ever a first answer
QUICK = CompilePath(
    "rounds/quick", "the first rounds of plain built-ins under rules without house steps",
    (10, 35), helper=("steps", "called"),
    beside=("quick-choices", "strategies", "deal", "record", "folds"), steal_first=0.25,
    variant="quick")
#: the entry point whose tables the quick kernel plays while it is not compiled
QUICK_FOR = TIERS[0].entries["round"]
#: the paths with notices and helpers that ``unosim compile`` does not build
LEAN_PATHS: dict[str, CompilePath] = {QUICK.name: QUICK}

#: the path of tables with plug-in strategies (runs/plugin_batch.py): the step
#: functions their compiled-per-process loops call
PLUGINS = CompilePath("plug-ins", "the step functions tables with plug-in strategies call",
                      (15, 45))
#: the plug-in strategy that compiles the plug-in path (strategies/examples/plugins.py)
PLUGIN_EXAMPLE = "random_copy"
#: the path of tables with Python strategies whose other seats are built-ins
#: (runs/python_batch.py): the cached loop between the Python decisions
PYTHON_SEATS = CompilePath(
    "python-seats", "the compiled seats of a table with Python strategies", (20, 60))
#: the Python strategy that compiles that path (strategies/examples/first.py)
PYTHON_EXAMPLE = "keep_wilds"
#: the paths of a game driven from Python (runs/game.py: ``Game``, ``replay``): the
#: step functions it calls, and the built-in strategies' dispatch of its ``choose``
GAME = CompilePath("game", "the step functions a game driven from Python (Game, replay) calls",
                   (15, 45))
GAME_STRATEGIES = CompilePath(
    "game/strategies", "the built-in strategies' choices in a game driven from Python",
    (15, 45))

#: the paths of the vector environment (env/vector_nb.py), compiled on its first
#: reset in a process: its cached kernels for opponents that are built-ins without
#: parameters, and a pair bound to any other opponents, compiled in each process. They
#: have notices but are not paths of ``unosim compile``: nothing may import an
#: environment, so the environment compiles them itself
VECTOR_ENV = CompilePath("vector-env", "the vector environment against built-ins without "
                         "parameters", (30, 150))
VECTOR_ENV_BOUND = CompilePath("vector-env/opponents", "the vector environment against "
                               "parametric or plug-in strategies", (30, 150))
ENV_PATHS: dict[str, CompilePath] = {p.name: p for p in (VECTOR_ENV, VECTOR_ENV_BOUND)}

#: every compile path, in the order ``unosim compile`` builds them: each mode's
#: tiers, then the plug-ins and the game driven from Python
PATHS: dict[str, CompilePath] = {
    **{t.entries[mode].path.name: t.entries[mode].path
       for mode in TIERS[0].entries for t in TIERS},
    **{p.name: p for p in (PLUGINS, PYTHON_SEATS, GAME, GAME_STRATEGIES)},
}
#: every path a helper process may compile beside the command: those of ``unosim
#: compile`` and the quick kernel's
HELPED_PATHS: dict[str, CompilePath] = {**PATHS, **LEAN_PATHS}
#: compile path name -> (mode, tier) of the entry point that compiles it
ENTRY_OF: dict[str, tuple[str, Tier]] = {
    e.path.name: (mode, t) for t in TIERS for mode, e in t.entries.items()}


def entry_points(path: str) -> list[Any]:
    """The cached kernels of a compile path: the path is compiled for this machine
    when Numba's cache holds every one of them (compiler/cache.py). A tier's entry
    point links in all it calls; a game driven from Python calls each step function
    on its own; a plug-in table's loop is compiled in each process around the cached
    steps it calls (runs/plugin_batch.py adds it)."""
    if path in ENTRY_OF:
        mode, tier = ENTRY_OF[path]
        return [rows_kernel(mode, tier)]
    from unosim.simulate import moves, rng_nb, step_nb

    if path == QUICK.name:
        from unosim.runs import quick

        return [quick.rows_kernel()]
    if path == PLUGINS.name:
        return [step_nb.apply_called]
    if path == PYTHON_SEATS.name:
        from unosim.runs.entries_nb import advance_builtins

        return [advance_builtins]
    if path == GAME.name:
        return [rng_nb.seed_game, step_nb.deal, step_nb.legal_moves, step_nb.is_legal,
                step_nb.apply_move, step_nb.score_hands, step_nb.hand_value, step_nb.cap_round,
                moves.with_colour]
    if path == GAME_STRATEGIES.name:
        from unosim.strategies.search_nb import choose_move

        return [choose_move]
    raise KeyError(path)


def tier_of(seats: list[Any]) -> Tier:
    """The tier a table of built-ins needs: the last one it selects (the first, for
    a table that seats no built-in)."""
    return next((t for t in reversed(TIERS) if t.selects(seats)), TIERS[0])


def rows_kernel(mode: str, tier: Tier) -> Callable[..., None]:
    """The rows kernel of ``tier`` for ``mode`` (round, match)."""
    from unosim.runs import entries_nb

    return getattr(entries_nb, tier.entries[mode].kernel)  # type: ignore[no-any-return]
