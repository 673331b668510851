"""Whether Numba's cache holds a kernel's machine code for this machine, read from
Numba's own index file.

A marker of our own beside the cache says only that some copy of the sources was
compiled once; Numba keys its cache on the source file's path and stamp and on the
CPU, so the same engine installed twice (``pip install .``, then ``pip install -e
.``) compiles again with the marker present. Reading the index answers the question
Numba will ask: is there an entry for this source, this bytecode and this CPU.
"""

from __future__ import annotations

from typing import Any


def is_cached(dispatcher: Any) -> bool:
    """True if ``dispatcher`` (a ``cache=True`` Numba function) has machine code in
    the cache for its current source and this CPU; False if calling it would compile
    (or if the cache cannot be read, which compiles too)."""
    cache = getattr(dispatcher, "_cache", None)
    if cache is None or not hasattr(cache, "_cache_file"):
        return False  # no cache=True (or jit disabled): every process compiles it
    try:
        index = cache._cache_file._load_index()  # {} if the source's stamp changed
        if not index:
            return False
        codegen = dispatcher.targetctx.codegen()
        # Numba's own key: (signature, CPU and features, hashes of bytecode and
        # closure); any signature will do, the rest must match
        _, magic, code = cache._index_key(None, codegen)
    except Exception:  # noqa: BLE001 - an unreadable index is a compile to come
        return False
    return any(key[1] == magic and key[2] == code for key in index)


def all_cached(dispatchers: list[Any]) -> bool:
    """True if every one of ``dispatchers`` is cached for this machine."""
    return all(is_cached(d) for d in dispatchers)
