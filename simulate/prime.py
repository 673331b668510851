"""A helper process that compiles part of the engine while the command compiles the
rest: ``python -m unosim.simulate.prime``.

Numba compiles on one core. On a first run the command compiles its entry point,
which reaches the strategies first and the rule steps after; this process, started
beside it (compiling.first_use), compiles the rule steps (through
``search_nb.apply_called``, the same steps with the same types) and the round's
record, and puts them in the shared cache, where the command then finds them. It
runs at low priority and only changes how soon the cache is filled, never what is
in it.
"""

from __future__ import annotations

import os


def main() -> None:
    try:
        os.nice(10)
    except OSError:
        pass
    from numba import types as T

    import unosim  # noqa: F401 - sets the cache folder
    from unosim.simulate.round_nb import record_round
    from unosim.strategies.search_nb import apply_called

    game = T.Array(T.int64, 1, "C")
    rng = T.Array(T.uint64, 1, "C")
    record_round.compile((game, T.int64, T.Array(T.int32, 2, "C"), T.int64))
    apply_called.compile((game, rng, T.int64))


if __name__ == "__main__":
    main()
