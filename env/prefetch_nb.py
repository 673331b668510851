"""A cache hint for the vector environment's kernels: ``prefetch(a, i)`` asks the
processor to bring the cache line holding ``a[i]`` in, and nothing else (no load,
no fault, no effect on any value: a hint the processor may drop).

Why: with thousands of games each game's state is out of the caches by the time
the batch comes back to it, and stepping a game is a chain of dependent reads
that the processor cannot overlap. Asking for the next game's lines while this
one is stepped overlaps their misses with the work (Numba has no such call, so
this is LLVM's ``llvm.prefetch``). Compiled.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_I32 = ir.IntType(32)


@intrinsic
def prefetch(typingctx, arr, idx):  # noqa: ANN001, ANN201, ARG001
    """Hint: the line of ``arr[idx]`` (a C-contiguous array, ``idx`` a flat index
    inside it) will be read soon; kept in every cache level."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202, ARG001
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), ir.IntType(8).as_pointer())
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, _I32, _I32, _I32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # read (0), highest locality (3), data cache (1)
        builder.call(fn, [ptr, ir.Constant(_I32, 0), ir.Constant(_I32, 3), ir.Constant(_I32, 1)])
        return context.get_dummy_value()

    return sig, codegen
