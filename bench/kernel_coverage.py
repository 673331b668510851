"""Line coverage of the compiled code: the engine's, the built-in strategies' and the
run kernels' scenario and unit tests run with the JIT off (``NUMBA_DISABLE_JIT=1``:
every kernel runs as plain Python on numpy values, so coverage sees its lines)
under ``coverage``; prints the line coverage of each module of simulate/, strategies/
and runs/entries_nb.py and the totals, and fails below ``--fail-under`` percent for
simulate/ or the built-in strategies.

First it checks that the kernels run the same with the JIT off: the records of a few
games of every preset (random seats and a mix of strategies), a few matches and small
search tables, played with the JIT on and then off, must be bit-identical.

Usage: python bench/kernel_coverage.py [--games N] [--fail-under P] [--html DIR]
                                       [-- PYTEST ARGS]
(run from the repository root; the test extra installs ``coverage``). Pytest
arguments after ``--`` replace the default selection (``TESTS``, fast tier only).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the scenario and unit tests of the engine, the built-in strategies and the run kernels
#: (the run kernels play every game of these tests)
TESTS = ["tests/simulate", "tests/strategies", "tests/runs/test_modes.py"]
#: the fast tier, less what plays thousands of games (with the JIT off a kernel runs
#: about a hundred times slower): the statistical playouts, the property tests, the
#: pure-Python reference games, and the plug-ins, which compile loops of their own
LEFT_OUT = ["tests/simulate/test_properties.py",
            "tests/simulate/test_reference_agreement.py",
            "tests/simulate/test_playouts.py",
            "tests/strategies/test_counter.py::test_the_published_win_rates_are_reproduced",
            "tests/strategies/test_counter.py::test_random_colour_is_an_even_opponent_of_itself",
            "tests/strategies/test_python_strategies.py::"
            "test_a_first_python_strategy_plays_and_beats_random_heads_up",
            "tests/strategies/test_search.py::test_search_beats_random_heads_up",
            "tests/strategies/test_strategies_plugins.py",
            # a plug-in compiled with numba.njit is a plain function with the JIT off
            "tests/strategies/test_python_seats.py::"
            "test_the_compiled_hooks_hear_their_own_cards_alone",
            # the same games again on other threads and batch sizes: no line of their own
            "tests/simulate/test_match.py::"
            "test_totals_equal_the_records_and_do_not_depend_on_threads_or_batches",
            "tests/strategies/test_search.py::"
            "test_search_results_do_not_depend_on_threads_or_batches"]
PYTEST = ["-m", "not slow", "-p", "no:cacheprovider", "-q", "--durations=15",
          *(x for t in LEFT_OUT for x in ("--deselect", t))]
#: the folders traced, and the modules of them measured (paths from the repository root)
SOURCE = ["simulate", "strategies", "runs"]
MEASURED = ("simulate/", "strategies/", "runs/entries_nb.py")
#: not measured: the example plug-ins (user code, shown in the docs)
UNMEASURED = ("strategies/examples/",)
#: the built-in strategies: the compiled ones and the interface they are compiled with
BUILTIN = ["strategies/api.py", "strategies/builtin_nb.py", "strategies/counter_nb.py",
           "strategies/search_nb.py"]


def digests(games: int) -> dict[str, str]:
    """Hashes of the records of ``games`` games of every preset (random seats and a
    mix), two matches per preset and small search tables: bench/record_hashes.py in
    small."""
    from record_hashes import hashes

    return hashes(games, matches=2, search_games=2, rollouts=(20, 10, 10), chunks=False)


def run(args: list[str], jit: bool, **kw) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    if not jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    return subprocess.run([sys.executable, *args], env=env, cwd=ROOT, check=False, **kw)


def same_records(games: int, cov: list[str], tmp: Path) -> bool:
    """Play the digests' games with the JIT on, then off (under coverage), and compare."""
    me = str(Path(__file__).resolve())
    got = {}
    for jit in (True, False):
        path = tmp / f"digests-{'on' if jit else 'off'}.json"
        head = [] if jit else [*cov]
        r = run([*head, me, "--digests", str(games), str(path)], jit)
        if r.returncode != 0:
            print(f"the digests with the JIT {'on' if jit else 'off'} failed", file=sys.stderr)
            return False
        got[jit] = json.loads(path.read_text())
    bad = sorted(k for k in set(got[True]) | set(got[False])
                 if got[True].get(k) != got[False].get(k))
    for k in bad:
        print(f"DIFFERS with the JIT off: {k}", file=sys.stderr)
    print(f"records: {len(got[True])} tables ({games} games of every preset, random seats "
          f"and a mix; 2 matches; search), JIT off "
          f"{'= JIT on, bit for bit' if not bad else f'differs in {len(bad)}'}")
    return not bad


def table(data: Path, tmp: Path) -> tuple[list[tuple[str, int, int]], str]:
    """(module, statements, missed) of each measured module, and the report's text."""
    out = tmp / "coverage.json"
    subprocess.run([sys.executable, "-m", "coverage", "json", "-q", "--data-file", str(data),
                    "-o", str(out)], cwd=ROOT, check=True)
    files = json.loads(out.read_text())["files"]
    rows = []
    for path, f in sorted(files.items()):
        rel = os.path.relpath(os.path.join(ROOT, path), ROOT)
        if not rel.startswith(MEASURED) or rel.startswith(UNMEASURED):
            continue
        s = f["summary"]
        rows.append((rel, s["num_statements"], s["missing_lines"]))
    return rows, ""


def pct(stmts: int, missed: int) -> float:
    return 100.0 * (stmts - missed) / stmts if stmts else 100.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games a preset in the check "
                    "that the JIT-off kernels give the same records (default 20)")
    ap.add_argument("--fail-under", type=float, default=90.0,
                    help="least line coverage, percent, of simulate/ and of the built-in "
                    "strategies (default 90)")
    ap.add_argument("--no-records", action="store_true", help="skip the check that the "
                    "kernels give the same records with the JIT on and off")
    ap.add_argument("--html", help="also write coverage's HTML report into this folder")
    ap.add_argument("--digests", nargs=2, metavar=("GAMES", "OUT"), help=argparse.SUPPRESS)
    ap.add_argument("pytest", nargs="*", help="pytest arguments after --, instead of "
                    "the default selection")
    a = ap.parse_args()
    if a.digests:
        Path(a.digests[1]).write_text(json.dumps(digests(int(a.digests[0])), indent=1,
                                                 sort_keys=True))
        return 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="unosim-kcov-") as d:
        tmp = Path(d)
        data = tmp / ".coverage"
        cov = ["-m", "coverage", "run", "--parallel-mode", "--data-file", str(data),
               "--source", ",".join(str(ROOT / m) for m in SOURCE)]
        ok = a.no_records or same_records(a.games, cov, tmp)
        t1 = time.perf_counter()
        r = run([*cov, "-m", "pytest", *(a.pytest or [*PYTEST, *TESTS])], jit=False)
        t2 = time.perf_counter()
        print(f"pytest with the JIT off: exit {r.returncode}, {t2 - t1:.0f} s")
        ok = ok and r.returncode == 0
        subprocess.run([sys.executable, "-m", "coverage", "combine", "-q", "--data-file",
                        str(data)], cwd=ROOT, check=True)
        if a.html:
            subprocess.run([sys.executable, "-m", "coverage", "html", "-q", "--data-file",
                            str(data), "-d", a.html], cwd=ROOT, check=True)
        rows, _ = table(data, tmp)
    print()
    print("| Module | Lines | Missed | Covered |")
    print("| --- | ---: | ---: | ---: |")
    for rel, s, m in rows:
        print(f"| `{rel}` | {s} | {m} | {pct(s, m):.0f}% |")
    low = []
    for label, keep in (("simulate/", lambda p: p.startswith("simulate/")),
                        ("built-in strategies", lambda p: p in BUILTIN),
                        ("all measured", lambda p: True)):
        s = sum(r[1] for r in rows if keep(r[0]))
        m = sum(r[2] for r in rows if keep(r[0]))
        print(f"| **{label}** | {s} | {m} | **{pct(s, m):.1f}%** |")
        if label != "all measured" and pct(s, m) < a.fail_under:
            low.append(label)
    print()
    for label in low:
        print(f"{label}: under {a.fail_under:g}% of lines covered", file=sys.stderr)
    print(f"{time.perf_counter() - t0:.0f} s in all")
    return 0 if ok and not low else 1


if __name__ == "__main__":
    sys.exit(main())
