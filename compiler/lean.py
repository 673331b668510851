"""A copy of a kernel's call tree with stand-ins for the kernels a table never reaches.

Numba compiles everything a kernel can reach, whatever the table: the rounds of four
``random`` seats under the official rules compile the house rules' steps too, since
the rules are read as the game runs. ``lean`` copies a kernel and every kernel on the
way from it to one of ``standins`` (the same bytecode over a copy of its module's
globals, with the stand-in in place of the kernel it replaces), and leaves every
other kernel shared, so those compile once for every copy and for the original. A
copy is named after its original with the ``tag`` added (Numba's cache files are
named by the function's qualified name), so it never shares a cache entry with it:
its machine code differs though its bytecode does not.

A stand-in must only replace a kernel the tables it is used for cannot reach; the
caller checks that (runs/quick.py), and each stand-in marks the round it would have
entered, so that a wrong check is an error, never a wrong result.
"""

from __future__ import annotations

import types
from typing import Any

from numba import njit

#: (id of the original, tag) -> its copy (or the original when nothing on its way
#: is replaced): one copy per process, so that each compiles once
_copies: dict[tuple[int, str], Any] = {}


def _callees(d: Any) -> dict[str, Any]:
    """The kernels ``d`` names as globals (its code and the code nested in it). A
    kernel reached as a module's attribute (``B.choose_plain``) or from a closure
    could not be swapped in a copy: that is an error, so that a copy never calls an
    original unseen."""
    names: set[str] = set()
    stack = [d.py_func.__code__]
    while stack:
        code = stack.pop()
        names |= set(code.co_names)
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    g = d.py_func.__globals__
    for cell in d.py_func.__closure__ or ():
        if hasattr(cell.cell_contents, "py_func"):
            raise ValueError(f"{d.py_func.__qualname__} calls a kernel of its closure: a "
                             "lean copy needs its kernels called by their own names")
    for n in names:
        module = g.get(n)
        if isinstance(module, types.ModuleType):
            hidden = [a for a in names if hasattr(getattr(module, a, None), "py_func")]
            if hidden:
                raise ValueError(f"{d.py_func.__qualname__} calls {n}.{hidden[0]}: a lean "
                                 "copy needs its kernels called by their own names")
    return {n: g[n] for n in names if hasattr(g.get(n), "py_func")}


def lean(d: Any, standins: dict[Any, Any], tag: str) -> Any:
    """``d`` with ``standins`` (original kernel -> stand-in) in its call tree: a copy
    of ``d`` and of each kernel between it and a replaced one, or ``d`` itself when
    it reaches none of them."""
    if not hasattr(d, "py_func"):
        return d  # Numba's JIT is off (the coverage run): the plain functions run
    key = (id(d), tag)
    if key in _copies:
        return _copies[key]
    if d in standins:  # its stand-in, with the stand-ins on its own way too
        return lean(standins[d], standins, tag)
    _copies[key] = d  # a kernel reached again while its callees are copied (recursion)
    swapped = {n: lean(k, standins, tag) for n, k in _callees(d).items()}
    swapped = {n: k for n, k in swapped.items() if k is not d.py_func.__globals__[n]}
    if not swapped:
        return d
    py = d.py_func
    fn = types.FunctionType(py.__code__, {**py.__globals__, **swapped}, py.__name__,
                            py.__defaults__, py.__closure__)
    fn.__qualname__ = f"{py.__qualname__}__{tag}"
    fn.__module__ = py.__module__
    fn.__doc__ = py.__doc__
    options = {k: v for k, v in d.targetoptions.items() if k != "nopython"}
    copy = njit(cache=True, **options)(fn)
    share = getattr(d, "share", None)
    if share is not None:
        copy.share = share
    _copies[key] = copy
    return copy


def reaches(d: Any) -> set[Any]:
    """``d`` and every kernel it calls, directly or not."""
    seen: set[Any] = set()
    stack = [d]
    while stack:
        k = stack.pop()
        if k not in seen:
            seen.add(k)
            stack.extend(_callees(k).values())
    return seen
