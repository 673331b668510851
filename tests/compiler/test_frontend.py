"""The front-end shortcuts of a cold compile (compiler/frontend.py) change only its
speed: the flags hash and read as Numba's own do, and the inliner builds each
inlined function's untyped IR once and hands every call site a fresh copy.

These compile a few small functions of their own (no cache, no engine path)."""

from __future__ import annotations

from numba import njit
from numba.core.compiler import Flags
from numba.core.inline_closurecall import InlineWorker

from unosim.compiler import frontend


def _numba_values(flags: Flags) -> dict:
    # Numba's TargetConfig.values: every option read through its property
    return {k: getattr(flags, k) for k in flags.options}


def test_flags_hash_and_compare_as_numba_reads_them():
    assert frontend.install()
    a, b = Flags(), Flags()
    a.nrt = True
    a.error_model = "numpy"
    assert a.values() == _numba_values(a) and b.values() == _numba_values(b)
    # Numba's hash: hash(tuple(sorted(values()))), which sorts the option names
    assert hash(a) == hash(b) == hash(tuple(sorted(_numba_values(a))))
    assert a != b and a == a.copy()
    b.nrt, b.error_model = True, "numpy"
    assert a == b
    c = Flags()
    c.nrt = Flags.options["nrt"].default  # set, to what it is unset
    assert c == Flags() and Flags() == c
    del b.nrt  # back to the default
    assert b.values()["nrt"] == Flags.options["nrt"].default and a != b


def test_a_config_with_its_own_property_keeps_numbas_values():
    from numba.core.targetconfig import Option, TargetConfig

    class Custom(TargetConfig):
        plain = Option(type=int, default=1, doc="")
        special = Option(type=int, default=2, doc="")

    Custom.special = property(lambda self: 7)
    frontend.install()
    assert Custom().values() == {"plain": 1, "special": 7}


@njit(inline="always")
def _leaf(x):
    return x * 3 + 1


@njit(inline="always")
def _middle(x):
    return _leaf(x) + _leaf(x + 1)


def _outer_py(n):
    s = 0
    for i in range(n):
        s += _middle(i) - _leaf(i) + _middle(i + 2)
    return s


def test_each_inlined_function_is_built_once_and_every_site_gets_a_fresh_copy(monkeypatch):
    built: list[str] = []
    handed: list[object] = []
    original = InlineWorker.run_untyped_passes
    real = getattr(original, "__wrapped__", original)

    def counting(self, func, enable_ssa=False):
        built.append(func.__name__)
        return real(self, func, enable_ssa)

    monkeypatch.setattr(InlineWorker, "run_untyped_passes", counting)
    frontend.clear()
    assert frontend.install()  # wraps the counting one
    wrapped = InlineWorker.run_untyped_passes

    def spy(self, func, enable_ssa=False):
        out = wrapped(self, func, enable_ssa)
        handed.append(out)
        return out

    monkeypatch.setattr(InlineWorker, "run_untyped_passes", spy)
    outer = njit(_outer_py)
    assert outer(20) == _outer_py(20)
    # without the shortcut seven builds: _middle at its two sites, _leaf at its own
    # and twice inside each _middle (a second target context may build one again)
    assert built.count("_middle") == 1 and 1 <= built.count("_leaf") <= 2
    assert len(handed) >= 3
    assert len({id(ir) for ir in handed}) == len(handed)
    assert len({ir.func_id.unique_name for ir in handed}) == len(handed)
    for a in handed:  # each a copy with its own blocks list
        for b in handed:
            if a is not b and a.func_id.func is b.func_id.func:
                assert a.blocks is not b.blocks
    frontend.clear()


def test_the_kept_ir_is_never_changed_by_an_inline(monkeypatch):
    """The inliner relabels and renames the IR it inlines: the kept copy must come
    out of a compile as it went in, so that the next site inlines the same code."""
    frontend.clear()
    frontend.install()
    outer = njit(_outer_py)
    outer(3)
    kept = list(frontend._untyped.values())
    assert kept
    dumps = [sorted(ir.blocks) for ir in kept]
    names = [sorted(ir.blocks[min(ir.blocks)].scope.localvars._con) for ir in kept]
    again = njit(_outer_py)  # a second compile inlines from the kept IR
    assert again(7) == _outer_py(7)
    assert [sorted(ir.blocks) for ir in kept] == dumps
    assert [sorted(ir.blocks[min(ir.blocks)].scope.localvars._con) for ir in kept] == names
    frontend.clear()
    assert not frontend._untyped


def test_the_flags_of_the_caller_are_set_as_a_fresh_run_sets_them():
    """A run of the untyped pipeline sets the caller's ``enable_ssa`` to what it was
    asked; a kept IR handed out must leave the caller's flags the same way."""
    from numba.core.compiler import Compiler
    from numba.core.registry import cpu_target

    frontend.clear()
    frontend.install()
    results = []
    for _ in range(2):  # built, then handed from the kept IR
        flags = Flags()
        flags.enable_ssa = True
        worker = InlineWorker(cpu_target.typing_context, cpu_target.target_context, {},
                              Compiler, flags)
        ir = worker.run_untyped_passes(_middle.py_func)
        assert flags.enable_ssa is False
        results.append(ir)
    assert [k[0] for k in frontend._untyped].count(_middle.py_func) == 1
    a, b = results
    assert a is not b and a.func_id.unique_name != b.func_id.unique_name
    assert sorted(a.blocks) == sorted(b.blocks)
    frontend.clear()


def _reassigned_py(n, flag):
    # variables defined more than once, in branches and loops: SSA violators whose
    # uses need phi nodes, beside blocks that never name them
    x = 0
    y = n
    for i in range(n):
        if i % 3 == 0:
            x = x + i
        elif flag:
            x = y - i
        else:
            y = y + 1
        z = i * 2
        if z > 7:
            x += z
    while y > 0:
        y -= 4
        x -= 1
    return x + y


def _untyped_ir(fn):
    from numba.core.compiler import run_frontend

    return run_frontend(fn)  # the IR as read from the bytecode, before SSA


def test_ssa_comes_out_as_numbas_own_does(capsys):
    """The SSA shortcut rewrites only the blocks that name each variable; the IR it
    gives is Numba's statement for statement (the same dump), and the compiled
    function computes the same."""
    from numba.core import ssa

    assert frontend.install()
    fast = ssa._run_ssa
    slow = fast.__wrapped__
    dumps = []
    for run in (slow, fast):
        func_ir = _untyped_ir(_reassigned_py)
        func_ir.blocks = run(func_ir.blocks)
        capsys.readouterr()
        func_ir.dump()
        dumps.append(capsys.readouterr().out)
    assert "phi" in dumps[0] and dumps[0] == dumps[1]
    compiled = njit(_reassigned_py)
    assert [compiled(n, f) for n in range(12) for f in (True, False)] == \
        [_reassigned_py(n, f) for n in range(12) for f in (True, False)]


def test_inlined_copies_share_source_locations():
    import copy

    from numba.core import ir

    from unosim.compiler import inlining

    assert inlining.install()
    loc = ir.Loc("f.py", 3, 1)
    assert copy.deepcopy(loc) is loc
    block = ir.Block(ir.Scope(None, loc), loc)
    assert copy.deepcopy(block).loc is loc


def test_a_builtin_call_is_typed_once_per_argument_types():
    """The typing of a builtin (an operator, a numpy function) is kept per function
    and argument types: the second call site with the same types gets the same
    signature without trying the templates again, and what it compiles computes
    the same."""
    import operator

    from numba import types
    from numba.core.registry import cpu_target

    frontend.clear()
    assert frontend.install()
    ctx = cpu_target.typing_context
    ctx.refresh()
    fnty = ctx.resolve_value_type(operator.add)
    first = fnty.get_call_type(ctx, (types.int64, types.int64), {})
    assert first is not None and first.return_type == types.int64
    assert fnty.get_call_type(ctx, (types.int64, types.int64), {}) is first
    assert fnty.get_call_type(ctx, (types.float64, types.int64), {}).return_type == \
        types.float64
    assert fnty.get_impl_key(first) is not None  # what lowering asks for
    compiled = njit(_reassigned_py)
    assert [compiled(n, True) for n in range(9)] == [_reassigned_py(n, True) for n in range(9)]
    frontend.clear()
    assert not frontend._call_types
