"""A faster copy of the functions Numba inlines, the same code out.

Each ``inline="always"`` call site (jit.kernel_inline) makes Numba copy the
callee's IR twice (numba.core.inline_closurecall, ``copy_ir`` in
``InlineWorker.inline_ir``), one ``copy.deepcopy`` per block. A block refers to
its function's scope, which holds every variable of the function, so each block's
copy copies the whole scope again, and each copy is compared with the first one
variable by variable (``_get_all_scopes``): the time grows with blocks times
variables. ``apply_move``, inlined with the rule pipeline into the round's loop,
has thousands of both; its copies took some ten seconds of a cold compile.

``install`` makes the blocks of one copy share one memo, as one ``deepcopy`` of
the whole function would: the scope and each variable are copied once, and the
copy is shaped like the original (all blocks on one scope, each variable one
object), which is also how Numba builds IR in the first place. The copy goes on
to be renamed and merged into the caller exactly as before, so the compiled code
is the same (the LLVM IR of ``entries_nb.play_rows`` was compared, byte for byte).
The memo starts afresh at ``FunctionIR.copy``, which ``copy_ir`` calls before it
copies the blocks. The copies share the source locations (``ir.Loc``) instead of
copying each: Numba never changes one once made (only the source lines it reads
for an error message are filled in when first asked for), and each statement has
its own, so they were some two thirds of the copying (a sixth of a cold compile
after the other shortcuts). Where Numba's inliner is not laid out as expected, nothing is
changed. compiling.first_use installs it before a path compiles (and the helper,
prime.py, when it starts): only the speed of compiling depends on it.
"""

from __future__ import annotations

import copy as _copy
from typing import Any


class _SharedMemoCopy:
    """The ``copy`` module as numba.core.inline_closurecall sees it: ``deepcopy``
    of an IR block uses the memo of the function copy under way."""

    def __init__(self, block_type: type) -> None:
        self._block = block_type
        self._scope: Any = None
        self._memo: dict[int, Any] = {}

    def reset(self) -> None:
        self._scope = None
        self._memo = {}

    def deepcopy(self, x: Any, memo: dict[int, Any] | None = None) -> Any:
        if memo is None and isinstance(x, self._block):
            if x.scope is not self._scope:  # a new function's blocks
                self._scope = x.scope
                self._memo = {}
            return _copy.deepcopy(x, self._memo)
        return _copy.deepcopy(x, memo)

    def __getattr__(self, name: str) -> Any:
        return getattr(_copy, name)


def _same(self: Any, memo: dict[int, Any]) -> Any:
    return self


def install() -> bool:
    """Patch Numba's inliner (once); whether it is patched."""
    try:
        from numba.core import inline_closurecall as ic
        from numba.core import ir
    except ImportError:
        return False
    if not getattr(ir.Loc, "_unosim_shared", False):
        # a source location is never changed once made (only its lazily read
        # source lines are filled in): the copies share it instead of copying it
        ir.Loc.__deepcopy__ = _same  # type: ignore[attr-defined]
        ir.Loc._unosim_shared = True  # type: ignore[attr-defined]
    if isinstance(getattr(ic, "copy", None), _SharedMemoCopy):
        return True
    if getattr(ic, "copy", None) is not _copy or not hasattr(ir.FunctionIR, "copy"):
        return False
    shim = _SharedMemoCopy(ir.Block)
    function_copy = ir.FunctionIR.copy

    def copy_function(self: Any) -> Any:
        shim.reset()
        return function_copy(self)

    copy_function.__doc__ = function_copy.__doc__
    ir.FunctionIR.copy = copy_function
    ic.copy = shim
    return True
