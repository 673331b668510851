"""Whether Numba's cache holds a kernel's machine code for this machine, read from
Numba's own index file.

A marker of our own beside the cache would say only that some copy of the sources
was compiled once; Numba keys its cache on a locator's folder and source stamp and on
the CPU. Reading the index answers the question Numba will ask: is there an entry
for this stamp, this bytecode and this CPU. For the engine the locator is the
project's (compiler/locator.py: the folder is the module's name, the stamp the engine
fingerprint), so the same engine installed twice (``pip install .``, then ``pip
install -e .``) finds its kernels; other files keep Numba's locators, keyed by path.
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
