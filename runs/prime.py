"""A helper process that compiles part of the engine while the command compiles the
rest: ``python -m unosim.runs.prime PATH``.

Numba compiles on one core. On a first use of a path that declares a helper share
(runs/tiers.py, ``CompilePath.helper``) the command starts this process
(compile_notice.first_use) with the path. The helper compiles its share into the shared
cache, prints ``READY`` and goes on with what it compiles after (``helper_then``),
until the command ends it. Meanwhile the command compiles its own share
(``beside``) and then waits for the line, so that its entry point finds every
kernel it calls in the cache and compiles only itself: without the wait the command
reached the rule steps before they were cached and compiled them a second time.

On the plain round path the helper's share is the rule steps ``apply_move`` calls
(``steps``) and then ``step_nb.apply_called`` (what a first search seat or plug-in
table steps with), the command's the kernels the strategies call, the deal, the
round's record and the folds of the records. On the other round paths the helper
compiles the round's record and ``apply_called`` (the steps behind a call, which a
search seat steps with); on the search path then the rollout (the opponent models
and the leaf value) while the command compiles the sampling of worlds and the
candidates, and the command waits for it as on the plain path. On the parametric
path the command does not wait. Either share only changes how soon the cache is
filled, never what is in it: a kernel missing from it compiles where it is called,
as on one core.

A share is not listed here: each of its kernels declares itself where it is
defined, ``@kernel(share="steps", kinds="GRii")`` (simulate/jit.py: the share and
its argument kinds), and ``kernels`` finds them by reading the engine's kernel
modules, as stumpy's ``cache.get_njit_funcs`` does. A share compiles largest first
(``size``: the code it compiles with it), since each compiles what it calls.
"""

from __future__ import annotations

import importlib
import pkgutil
import types
from collections.abc import Callable
from functools import partial
from typing import Any

from unosim.runs import tiers

#: the line the helper prints when its share of the path is cached
READY = "steps cached"
#: the packages whose ``*_nb`` modules hold the kernels of the shares
KERNEL_PACKAGES = ("unosim.simulate", "unosim.strategies")


def kernel_modules() -> list[types.ModuleType]:
    """The engine's kernel modules (``*_nb``), imported (which compiles nothing)."""
    out = []
    for package in KERNEL_PACKAGES:
        pkg = importlib.import_module(package)
        for info in pkgutil.iter_modules(pkg.__path__):
            if info.name.endswith("_nb"):
                out.append(importlib.import_module(f"{package}.{info.name}"))
    return out


def code_names(code: types.CodeType) -> set[str]:
    """Every global or attribute name ``code`` and the code nested in it read."""
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= code_names(c)
    return out


def size(kernel: Any, seen: set[Any] | None = None) -> int:
    """The bytecode a kernel compiles with it: its own and that of every kernel it
    reaches (those it calls are compiled with it the first time)."""
    seen = set() if seen is None else seen
    py = kernel.py_func
    if py in seen:
        return 0
    seen.add(py)
    total = len(py.__code__.co_code)
    for name in code_names(py.__code__):
        target = py.__globals__.get(name)
        if hasattr(target, "py_func"):
            total += size(target, seen)
    return total


def kernels(share: str) -> list[Any]:
    """The kernels that declare ``share``, largest first (ties: module, then source
    order)."""
    found = []
    for module in kernel_modules():
        for obj in vars(module).values():
            declared = getattr(obj, "share", None)
            if (declared is not None and declared.name == share
                    and obj.py_func.__module__ == module.__name__):
                found.append(obj)
    return sorted(found, key=lambda k: -size(k))


def signature(kernel: Any) -> tuple[Any, ...]:
    """The Numba types a kernel of a share is compiled with (its declared kinds)."""
    from unosim.simulate.jit import KINDS

    return tuple(KINDS[k] for k in kernel.share.kinds)


def share_kernels(share: str, variant: str | None = None) -> list[tuple[Any, Any]]:
    """The kernels of ``share`` as they compile, each with the kernel that declares
    it: as the copy ``variant`` has them (runs/quick.py), where it reaches them, when
    one is named."""
    if variant is None:
        return [(k, k) for k in kernels(share)]
    from unosim.runs import quick

    reached = quick.reached()
    pairs = [(quick.copy_of(k), k) for k in kernels(share)]
    return [(c, k) for c, k in pairs if c in reached]


def compile_shares(shares: tuple[str, ...], variant: str | None = None) -> None:
    """Compile the kernels of ``shares``, in order, with their declared types."""
    for share in shares:
        for c, k in share_kernels(share, variant):
            c.compile(signature(k))


def steal(path: str, done: Callable[[], bool], first: bool = False) -> None:
    """The command's help with the helper's first share: that share's kernels from
    the smallest up, until ``done`` (the helper is ready). Each side finds in the
    cache what the other compiled, so they meet in the middle instead of the command
    waiting. ``first``: before the command's own share, only the path's
    ``steal_first`` part of it (by bytecode), which the helper would otherwise still
    be compiling when the command is done with its own."""
    declared = tiers.HELPED_PATHS.get(path)
    if declared is None or not declared.helper or (first and not declared.steal_first):
        return
    pairs = share_kernels(declared.helper[0], declared.variant)
    budget = declared.steal_first * sum(len(k.py_func.__code__.co_code) for _, k in pairs)
    for c, k in reversed(pairs):
        if done():
            return
        if first:
            budget -= len(k.py_func.__code__.co_code)
            if budget < 0:
                return
        c.compile(signature(k))


#: the command's share per path whose helper it waits for (compile_notice._share)
BESIDE: dict[str, Callable[[], None]] = {
    name: partial(compile_shares, p.beside, p.variant)
    for name, p in tiers.HELPED_PATHS.items() if p.beside is not None}


def main(path: str = "rounds") -> None:
    """The helper's share of ``path``, then READY, then what it compiles after."""
    import unosim  # noqa: F401 - sets the cache folder
    from unosim.compiler import frontend, inlining

    inlining.install()
    frontend.install()
    declared = tiers.HELPED_PATHS[path]
    compile_shares(declared.helper, declared.variant)
    print(READY, flush=True)  # the command waits for this line (compile_notice._share)
    # then, beside the command's entry point: kernels a later path finds cached; the
    # command ends this process when its entry point is compiled, done or not
    compile_shares(declared.helper_then, declared.variant)


if __name__ == "__main__":
    import sys

    main(*sys.argv[1:2])
