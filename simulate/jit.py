"""The decorator every compiled kernel uses.

``kernel`` is ``numba.njit(cache=True)`` with Numba's reference counting turned
off. The step functions only read and write arrays they are given and never
allocate, so they need no reference counts; with counting on, every call and
every array argument paid an atomic increment and decrement, which measured as
half the run time (12 us -> 6 us per 4-player game). Functions that allocate
use plain ``njit``.

A kernel that a first compile builds ahead of its caller, in the helper process
or beside it (compiler/prime.py), says so where it is defined:
``@kernel(share="steps", kinds="GRii")`` names the share it belongs to and its
argument kinds, one letter an argument (``KINDS``). The helper finds these kernels
by reading the kernel modules (as stumpy's ``cache.get_njit_funcs`` finds its
compiled functions), so no list of them is kept by hand. A declared share changes
nothing in the kernel: it is compiled lazily, with the same flags, as any other.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numba import config, njit, types

from unosim import ENGINE
from unosim.compiler.locator import install as _install_locator

# before the first kernel: the engine's kernels are cached by fingerprint, not by path
_install_locator(ENGINE)

if config.DISABLE_JIT:
    # the kernels run as plain Python on numpy scalars (the coverage run): their
    # int64 and uint64 arithmetic wraps as compiled, and numpy warns of each wrap
    # (seterr is per thread: the filter quiets the batches' worker threads too)
    np.seterr(over="ignore")
    warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning)

_kernel = njit(_nrt=False, cache=True)
kernel_inline = njit(_nrt=False, cache=True, inline="always")

#: the argument kinds a declared share may use, one letter each, and the Numba type
#: a kernel of a share is compiled with for it (compiler/prime.py)
KINDS = {
    "G": types.Array(types.int64, 1, "C"),  # a game array G (or any int64 vector)
    "R": types.Array(types.uint64, 1, "C"),  # the generator state RNG
    "i": types.int64,
    "b": types.boolean,
    "O": types.Array(types.int32, 2, "C"),  # records (int32 rows)
    "T": types.Array(types.int64, 2, "C"),  # tables of totals
    "B": types.Array(types.boolean, 1, "C"),
}


class Share(NamedTuple):
    """Where a kernel is compiled ahead of its caller: the share's name and the
    kernel's argument kinds (letters of ``KINDS``)."""

    name: str
    kinds: str


def kernel(fn: Callable[..., Any] | None = None, /, *, share: str | None = None,
           kinds: str = "") -> Any:
    """``@kernel``, or ``@kernel(share=..., kinds=...)`` for a kernel of a share."""
    if fn is not None:
        return _kernel(fn)
    if share is not None and any(k not in KINDS for k in kinds):
        raise ValueError(f"argument kinds {kinds!r}: each one of {''.join(KINDS)}")

    def wrap(f: Callable[..., Any]) -> Any:
        d = _kernel(f)
        if share is not None:
            if len(kinds) != f.__code__.co_argcount:
                raise ValueError(f"{f.__name__}: {len(kinds)} argument kinds for "
                                 f"{f.__code__.co_argcount} arguments")
            d.share = Share(share, kinds)
        return d

    return wrap
