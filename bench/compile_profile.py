"""Where a cold compile spends its time: per function and per signature.

    python bench/compile_profile.py [--no-prime] [--no-shortcuts] [--after PATHS] [--top 40]
                                    [CLI ARGS...]

Runs the CLI in this process (default: ``--variant stacking --games 1000 --seed 1``)
with a fresh, empty Numba cache folder and a listener on Numba's "numba:compile"
events, then prints, per dispatcher and signature, the CPU seconds of its own
compile (its callees' compiles subtracted), how many times each function compiled
(more than one signature: literal arguments, see builtin_nb._RANDOM) and the
totals, and how long the command's share and its wait for the helper took (the
helper's own compiles are not listed). ``--no-prime`` keeps the helper process
(runs/prime.py) from starting, so every function compiles here and the table
is the whole plain path. ``--after rounds`` (comma-separated ``unosim compile``
paths) fills the fresh cache with those paths first, in another process, so the
table shows what the command adds on top of them: ``--after rounds --strategy
search`` is a first search seat after a plain run. ``--no-shortcuts`` compiles
without the front-end shortcuts (compiler/frontend.py), in this process, for a
before-and-after of them (the helper process keeps them); the last line gives the
seconds Numba spent inside LLVM (its lock), the rest being Numba's own Python.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections import defaultdict


def main(argv: list[str]) -> None:
    no_prime = "--no-prime" in argv
    no_shortcuts = "--no-shortcuts" in argv
    argv = [a for a in argv if a not in ("--no-prime", "--no-shortcuts")]
    top = 40
    if "--top" in argv:
        i = argv.index("--top")
        top = int(argv[i + 1])
        del argv[i:i + 2]
    after = ""
    if "--after" in argv:
        i = argv.index("--after")
        after = argv[i + 1]
        del argv[i:i + 2]
    args = argv or ["--variant", "stacking", "--games", "1000", "--seed", "1"]
    w0 = time.perf_counter()
    cache = tempfile.mkdtemp(prefix="unosim-profile-")
    os.environ["NUMBA_CACHE_DIR"] = cache
    os.environ["XDG_CACHE_HOME"] = cache
    if after:
        import subprocess

        subprocess.run([sys.executable, "-m", "unosim", "compile", *after.split(",")],
                       check=True, stdout=subprocess.DEVNULL)
        w0 = time.perf_counter()

    from numba.core import event as ev

    own: dict[tuple[str, str], float] = defaultdict(float)
    total: dict[tuple[str, str], float] = defaultdict(float)
    stack: list[list[float]] = []  # [start cpu, children cpu]
    keys: list[tuple[str, str]] = []

    class Compiles(ev.Listener):
        def on_start(self, event: ev.Event) -> None:
            d = event.data
            disp = d["dispatcher"]
            name = getattr(disp, "py_func", disp)
            q = f"{getattr(name, '__module__', '?')}.{getattr(name, '__qualname__', name)}"
            keys.append((q, str(d["args"])))
            stack.append([time.process_time(), 0.0])

        def on_end(self, event: ev.Event) -> None:
            t0, children = stack.pop()
            key = keys.pop()
            dt = time.process_time() - t0
            own[key] += dt - children
            total[key] += dt
            if stack:
                stack[-1][1] += dt

    ev.register("numba:compile", Compiles())
    llvm = [0.0, 0.0]  # CPU seconds inside LLVM, start of the current call

    class Llvm(ev.Listener):
        def on_start(self, event: ev.Event) -> None:
            llvm[1] = time.process_time()

        def on_end(self, event: ev.Event) -> None:
            llvm[0] += time.process_time() - llvm[1]

    ev.register("numba:llvm_lock", Llvm())
    if no_shortcuts:
        from unosim.compiler import frontend

        frontend.install = lambda: False  # type: ignore[assignment]
    if no_prime:
        from unosim.runs import compile_notice

        compile_notice._start_prime = lambda path: None  # type: ignore[assignment]
    else:  # time the command's share and its wait for the helper (compile_notice._share)
        from unosim.runs import compile_notice, prime

        share = compile_notice._share

        def timed(name: str, fn: object) -> object:
            def run() -> None:
                t = time.perf_counter()
                fn()  # type: ignore[operator]
                print(f"{name}: {time.perf_counter() - t:.1f} s wall (from {t - w0:.1f} s)",
                      file=sys.stderr)
            return run

        def timed_share(path: str, helper: object) -> None:
            t = time.perf_counter()
            share(path, helper)  # type: ignore[arg-type]
            print(f"share and wait: {time.perf_counter() - t:.1f} s wall", file=sys.stderr)

        prime.BESIDE = {k: timed(f"beside ({k})", f) for k, f in prime.BESIDE.items()}
        compile_notice._share = timed_share  # type: ignore[assignment]
    from unosim.cli import main as cli

    c0 = time.process_time()
    try:
        cli(args)
    except SystemExit:
        pass
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0

    per_fn: dict[str, list[float]] = defaultdict(list)
    for (q, _sig), t in own.items():
        per_fn[q].append(t)
    print(f"\nwall {wall:.1f} s, cpu {cpu:.1f} s, compiled (own) {sum(own.values()):.1f} s "
          f"in {len(own)} signatures of {len(per_fn)} functions; cache {cache}",
          file=sys.stderr)
    print("\nfunctions compiled more than once:", file=sys.stderr)
    for q, ts in sorted(per_fn.items(), key=lambda kv: -sum(kv[1])):
        if len(ts) > 1:
            print(f"  {sum(ts):6.2f} s x{len(ts)}  {q}", file=sys.stderr)
            for (q2, sig), t in own.items():
                if q2 == q:
                    print(f"           {t:6.2f} s  {sig[:150]}", file=sys.stderr)
    print(f"\ntop {top} by own compile CPU (total incl. callees):", file=sys.stderr)
    for (q, sig), t in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {t:6.2f} s ({total[(q, sig)]:6.2f})  {q}  {sig[:100]}", file=sys.stderr)
    print(f"\nLLVM (Numba's LLVM lock): {llvm[0]:.1f} s CPU of the {cpu:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
