"""How long a first run waits before its first game: the README's first command on an
empty cache, for two or more installed copies of unosim, alternated.

    python bench/first_answer.py [--pairs 5] PYTHON [PYTHON ...] [-- CLI ARGS]

Each PYTHON is the interpreter of a virtual environment with one copy installed
(``pip install .`` of a clone, as the README does). Each round runs the command once
per interpreter, in turn, each on its own empty cache folder, and reads from its
output the seconds from the process start to the line that says the engine is
compiled (play begins then), the compile the command reports, and the whole run.
Alternating puts whatever else the machine does on both sides alike. Default
command: ``unosim --variant stacking --games 1e6``.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def first_run(python: str, args: list[str]) -> tuple[float, float, float]:
    """(seconds to "compiled in", the compile it reports, the whole run)."""
    env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="first-answer-"))
    env.pop("NUMBA_CACHE_DIR", None)
    t0 = time.perf_counter()
    proc = subprocess.Popen([python, "-m", "unosim", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env, cwd=tempfile.gettempdir())
    ready = reported = float("nan")
    assert proc.stdout is not None
    for raw in proc.stdout:
        line = raw.decode(errors="replace")
        if "compiled in" in line and ready != ready:
            ready = time.perf_counter() - t0
        m = re.search(r"engine compiled for this machine before that ([\d.]+) s", line)
        if m:
            reported = float(m.group(1))
    if proc.wait() != 0:
        raise SystemExit(f"{python}: exit {proc.returncode}")
    return ready, reported, time.perf_counter() - t0


def main(argv: list[str]) -> None:
    pairs = 5
    if argv[:1] == ["--pairs"]:
        pairs, argv = int(argv[1]), argv[2:]
    args = ["--variant", "stacking", "--games", "1e6", "--seed", "1"]
    if "--" in argv:
        i = argv.index("--")
        argv, args = argv[:i], argv[i + 1:]
    seen: dict[str, list[tuple[float, float, float]]] = {p: [] for p in argv}
    for k in range(pairs):
        for python in argv:
            r = first_run(python, args)
            seen[python].append(r)
            print(f"round {k + 1}  {python}: first game after {r[0]:.1f} s (compile "
                  f"{r[1]:.1f} s), whole run {r[2]:.1f} s", flush=True)
    for python, runs in seen.items():
        ready = [r[0] for r in runs]
        compiled = [r[1] for r in runs]
        print(f"{python}: first game after median {statistics.median(ready):.1f} s "
              f"({min(ready):.1f}-{max(ready):.1f}), compile median "
              f"{statistics.median(compiled):.1f} s ({min(compiled):.1f}-{max(compiled):.1f})")


if __name__ == "__main__":
    main(sys.argv[1:])
