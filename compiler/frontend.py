"""Shortcuts in Numba's front end for a cold compile; no result changes.

A cold compile of the plain round path spent, by a sampling profile (py-spy, one
process, no helper), about a fifth of its time building again and again the
untyped IR of the same inlined functions, and a tenth hashing and comparing
compiler flags; then, by a profile of the same compile with those two cut, a
fifth rewriting its variables into SSA form. None changes what the compiled code
computes (the inlined copies differ from before only in their block labels and
variable numbers):

- ``InlineWorker.run_untyped_passes``: each ``inline="always"`` call site
  (jit.kernel_inline) runs the whole untyped pipeline (bytecode to IR, rewrites,
  and the inlining of the callee's own inlinable calls, recursively) on the callee
  again. The round's loop inlines the rule pipeline through several levels, so the
  same functions were rebuilt once per path through the call tree. ``install``
  keeps the first result per function and pipeline settings and hands each site a
  copy with a fresh function identity (as a fresh run has): the inliner copies the
  IR it is given before it changes it (``inline_ir``: ``copy_ir``), so the kept IR
  is never changed. The untyped pipeline reads nothing but the function, the
  contexts and the flags in the key, and the caller's flags are set as a fresh run
  sets them (``enable_ssa``).
- ``TargetConfig.__hash__``, ``__eq__`` and ``values``: each typing of an overloaded function
  (``_OverloadFunctionTemplate._get_impl``) hashes the compile's flags, and the
  hash reads every one of some forty options through a property to hash, in the
  end, only their sorted names. ``install`` gives the same hash from the names
  alone and ``values`` the same dictionary read straight from the set values and
  the defaults, and two configurations with the same explicit settings compare
  equal at once (only for classes whose options are all the metaclass's plain
  properties; any other keeps Numba's own).
- ``ssa._run_ssa``: the SSA reconstruction takes the variables defined more than
  once one at a time and, for each, runs two rewrites over every statement of the
  function: for the round's loop, with the rule pipeline inlined, thousands of
  variables times tens of thousands of statements, a fifth of a cold compile
  after the two shortcuts above. ``install`` runs the same rewrites on the blocks
  that name the variable and copies the others as they are, which is what the
  rewrites do to a statement that does not name it; the IR that comes out is the
  same, statement for statement (the LLVM IR of ``entries_nb.play_rows`` was
  compared, byte for byte).
- ``BaseFunction.get_call_type``: the typing of a call to a builtin (an operator, a
  numpy function) tries the function's templates in turn, building an error
  message, colours and all, for each one that does not fit, at every call site;
  the inlined round has tens of thousands of them, most with the same few argument
  types. ``install`` keeps the signature found per function, typing context and
  argument types, and hands it to the next site with the same: the templates are
  tried once (a typing that fails is not kept, and fails again as before). The
  template records what lowering needs (``get_impl_key``) the first time, on the
  function's type, which the next sites share. A tenth of the CPU time of a cold
  compile, measured side by side; the LLVM IR of ``entries_nb.play_rows`` was
  compared, byte for byte.

Where Numba is not laid out as expected, nothing is changed. The records of the
games are the same either way (bench/record_hashes.py); only the speed of
compiling depends on it. compiling.first_use installs it with the inliner's
shortcut (compiler/inlining.py) before a path compiles, and the helper process
(runs/prime.py) when it starts.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from typing import Any

#: untyped IR per (function, pipeline settings), for the inliner
_untyped: dict[tuple[Any, ...], Any] = {}


def clear() -> None:
    """Forget the kept IR (after a compile: the next one starts afresh)."""
    _untyped.clear()
    _call_types.clear()


def _key(worker: Any, func: Any, enable_ssa: bool) -> tuple[Any, ...] | None:
    flags = worker.flags
    try:
        parallel = flags.auto_parallel
        locals_ = tuple(sorted((worker.locals or {}).items()))
        key = (func, bool(enable_ssa), bool(flags.no_rewrites), bool(flags.enable_looplift),
               bool(getattr(parallel, "enabled", parallel)), id(worker.typingctx),
               id(worker.targetctx), type(worker.pipeline), locals_)
        hash(key)
    except Exception:  # noqa: BLE001 - an unusual worker: no shortcut
        return None
    return key


def _install_untyped_memo() -> bool:
    try:
        from numba.core import ir
        from numba.core.inline_closurecall import InlineWorker
    except ImportError:
        return False
    original = getattr(InlineWorker, "run_untyped_passes", None)
    if original is None or getattr(original, "_unosim_memo", False):
        return original is not None
    if not hasattr(ir.FunctionIR, "copy"):
        return False

    @functools.wraps(original)
    def run_untyped_passes(self: Any, func: Any, enable_ssa: bool = False) -> Any:
        key = _key(self, func, enable_ssa) if self.flags is not None else None
        if key is None:
            return original(self, func, enable_ssa)
        kept = _untyped.get(key)
        if kept is None:
            kept = original(self, func, enable_ssa)  # sets self.flags.enable_ssa
            _untyped[key] = kept
        else:
            self.flags.enable_ssa = enable_ssa  # as the pipeline run would
        out = kept.copy()  # new blocks list, same statements: inline_ir copies them
        out.func_id = kept.func_id.derive()  # a fresh identity, as a fresh run has
        return out

    run_untyped_passes._unosim_memo = True  # type: ignore[attr-defined]
    InlineWorker.run_untyped_passes = run_untyped_passes
    return True


def _plain_options(cls: type) -> bool:
    """Whether every option of ``cls`` is read by the metaclass's own property."""
    for name in cls.options:  # type: ignore[attr-defined]
        prop = getattr(cls, name, None)
        fget = getattr(prop, "fget", None)
        if not isinstance(prop, property) or fget is None or \
                not fget.__qualname__.endswith("make_prop.<locals>.getter"):
            return False
    return True


def _install_flags() -> bool:
    try:
        from numba.core.targetconfig import TargetConfig
    except ImportError:
        return False
    if getattr(TargetConfig.values, "_unosim_fast", False):
        return True
    if not hasattr(TargetConfig, "options") or not hasattr(TargetConfig, "__hash__"):
        return False
    values, plain = TargetConfig.values, {}
    hashes: dict[type, int] = {}

    @functools.wraps(values)
    def fast_values(self: Any) -> dict[str, Any]:
        cls = type(self)
        ok = plain.get(cls)
        if ok is None:
            ok = plain[cls] = _plain_options(cls) and isinstance(
                getattr(self, "_values", None), dict)
        if not ok:
            return values(self)  # type: ignore[no-any-return]
        set_ = self._values
        return {k: set_.get(k, opt.default) for k, opt in cls.options.items()}

    def fast_hash(self: Any) -> int:
        # Numba's: hash(tuple(sorted(self.values()))), the sorted option names
        cls = type(self)
        h = hashes.get(cls)
        if h is None:
            h = hashes[cls] = hash(tuple(sorted(cls.options)))
        return h

    def fast_eq(self: Any, other: Any) -> Any:
        # Numba's: self.values() == other.values(); the same explicit settings of
        # one class give the same values, the common case of a cache lookup
        if self is other:
            return True
        if not isinstance(other, TargetConfig):
            return NotImplemented
        cls = type(self)
        if type(other) is cls and plain.get(cls) and self._values == other._values:
            return True
        return self.values() == other.values()

    fast_values._unosim_fast = True  # type: ignore[attr-defined]
    TargetConfig.values = fast_values
    TargetConfig.__hash__ = fast_hash  # type: ignore[assignment]
    TargetConfig.__eq__ = fast_eq  # type: ignore[assignment]
    return True


#: the signature each builtin function's typing gave, per (function, typing
#: context, argument types, keyword types)
_call_types: dict[tuple[Any, ...], Any] = {}


def _install_call_types() -> bool:
    try:
        from numba.core.types import functions
    except ImportError:
        return False
    cls = getattr(functions, "BaseFunction", None)
    original = getattr(cls, "get_call_type", None)
    if original is None or getattr(original, "_unosim_memo", False):
        return original is not None

    @functools.wraps(original)
    def get_call_type(self: Any, context: Any, args: Any, kws: Any) -> Any:
        try:
            key = (self, id(context), tuple(args), tuple(sorted(kws.items())))
            sig = _call_types.get(key)
        except TypeError:  # an unhashable argument type: no shortcut
            return original(self, context, args, kws)
        if sig is None:
            sig = original(self, context, args, kws)  # raises where no template types it
            if sig is not None:
                _call_types[key] = sig
        return sig

    get_call_type._unosim_memo = True  # type: ignore[attr-defined]
    cls.get_call_type = get_call_type
    return True


def _mentions(blocks: Any) -> dict[Any, set[str]]:
    """The names of the variables each block's statements define or read."""
    return {label: {v.name for stmt in blk.body for v in stmt.list_vars()}
            for label, blk in blocks.items()}


def _install_ssa() -> bool:
    try:
        from numba.core import errors, ir, ssa
        from numba.core.analysis import compute_cfg_from_blocks
    except ImportError:
        return False
    original = getattr(ssa, "_run_ssa", None)
    if original is None or getattr(original, "_unosim_fast", False):
        return original is not None
    needed = ("_iterated_domfronts", "_find_defs_violators", "_CacheListVars",
              "_make_states", "_compute_phi_locations", "_run_ssa_block_pass",
              "_FreshVarHandler", "_FixSSAVars")
    if not all(hasattr(ssa, name) for name in needed):
        return False

    def rewrite(blocks: Any, states: dict[str, Any], handler: Any,
                touched: set[Any]) -> dict[Any, Any]:
        # ssa._run_block_rewrite, with the blocks that never name the variable
        # copied as they are: the handlers return each of their statements
        # unchanged and record nothing for them
        out = {}
        for label, blk in blocks.items():
            new = ir.Block(scope=blk.scope, loc=blk.loc)
            if label in touched:
                states["label"] = label
                states["block"] = blk
                new.body = list(ssa._run_ssa_block_pass(states, blk, handler))
            else:
                new.body = list(blk.body)
            out[label] = new
        return out

    @functools.wraps(original)
    def run_ssa(blocks: Any) -> Any:
        if not blocks:
            return {}
        cfg = compute_cfg_from_blocks(blocks)
        df_plus = ssa._iterated_domfronts(cfg)
        violators = ssa._find_defs_violators(blocks, cfg)
        cache_list_vars = ssa._CacheListVars()
        mentions = _mentions(blocks) if violators else {}
        for varname in violators:
            touched = {label for label, names in mentions.items() if varname in names}
            # ssa._fresh_vars
            states = ssa._make_states(blocks)
            states["varname"] = varname
            states["defmap"] = defmap = defaultdict(list)
            blocks = rewrite(blocks, states, ssa._FreshVarHandler(), touched)
            # ssa._fix_ssa_vars
            states = ssa._make_states(blocks)
            states["varname"] = varname
            states["defmap"] = defmap
            states["phimap"] = phimap = defaultdict(list)
            states["cfg"] = cfg
            states["phi_locations"] = ssa._compute_phi_locations(df_plus, defmap)
            blocks = rewrite(blocks, states, ssa._FixSSAVars(cache_list_vars), touched)
            for label, philist in phimap.items():
                blocks[label].body = philist + blocks[label].body
        if compute_cfg_from_blocks(blocks) != cfg:
            raise errors.CompilerError("CFG mutated in SSA pass")
        return blocks

    run_ssa._unosim_fast = True  # type: ignore[attr-defined]
    ssa._run_ssa = run_ssa
    return True


def install() -> bool:
    """Install the shortcuts (once); whether all are in place."""
    return (_install_untyped_memo() & _install_flags() & _install_ssa()
            & _install_call_types())
