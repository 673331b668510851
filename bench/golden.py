"""Golden outputs of 30 recorded unosim commands: proof that a refactor changes no output.

    python bench/golden.py record DIR              # run every command, write DIR/NAME.out
    python bench/golden.py check DIR               # run again, diff against DIR, exit 1 on any
    python bench/golden.py check DIR --only NAME ...   # only these commands
    python bench/golden.py list                    # the names and command lines

Each command of ``COMMANDS`` runs in its own process (``unosim`` on ``PATH``, else
``python -m unosim``) from the repository root, with a fixed seed. Its exit code,
stdout and stderr, and for some the files it writes, are kept in ``DIR/NAME.out``
after masking what legitimately varies from run to run (timings, the thread count,
temporary paths, the engine fingerprint: see ``MASKS``). Nothing else is masked: a
changed game count, win rate, interval, ordering or wording shows as a diff.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = "strategies/examples/plugins.py"

#: (name, arguments after ``unosim``). ``{tmp}`` is a fresh temporary folder per
#: command; the files a command writes there are recorded too (see ``_files``).
COMMANDS: list[tuple[str, list[str]]] = [
    # run: rounds, text and JSON
    ("run-text", ["run", "--games", "20000", "--seed", "1"]),
    ("run-json", ["run", "--games", "10000", "--seed", "2", "--format", "json"]),
    # run: whole matches
    ("match-text", ["run", "--mode", "match", "--variant", "losers-score", "--seat", "1=defensive",
                    "--games", "1000", "--seed", "3"]),
    ("match-json", ["run", "--mode", "match", "--target-score", "200", "--seat", "2=tuned",
                    "--games", "500", "--seed", "4", "--format", "json"]),
    # presets, rule overrides, table size
    ("preset-stacking", ["--variant", "stacking", "--games", "10000", "--seed", "5"]),
    ("preset-combo", ["run", "--variant", "seven-o", "--variant", "jump-in", "--games", "5000",
                      "--seed", "6"]),
    ("preset-elimination", ["run", "--variant", "elimination", "--players", "5",
                            "--games", "5000", "--seed", "7"]),
    ("rule-override", ["run", "--rule", "hand_size=8", "--rule", "stacking=progressive",
                       "--rule", "deck.wilds=6", "--games", "10000", "--seed", "8"]),
    ("players-2", ["run", "--players", "2", "--games", "10000", "--seed", "9"]),
    # strategies: built-ins per seat, parametric ones, search, a plug-in
    ("seats-builtin", ["run", "--seat", "0=offensive:bluff=0.3", "--seat", "1=attacker",
                       "--seat", "2=colour-keeper:challenge=informed", "--seat", "3=first",
                       "--games", "10000", "--seed", "10"]),
    ("seats-parametric", ["run", "--seat", "0=tuned", "--seat", "1=weighted:wild=-5,draw=-12",
                          "--seat", "2=adaptive:cards=3", "--seat", "3=gang-up",
                          "--games", "5000", "--seed", "11"]),
    ("search-seat", ["run", "--players", "3", "--seat", "0=search:rollouts=32,depth=8",
                     "--games", "500", "--seed", "12"]),
    ("plugin", ["run", "--strategy-file", f"{PLUGINS}:hybrid", "--seat", "0=hybrid",
                "--games", "5000", "--seed", "13"]),
    ("precision", ["run", "--precision", "0.01", "--games", "20000", "--seed", "14"]),
    # files written
    ("out-dir", ["run", "--games", "2000", "--seed", "15", "--out", "{tmp}/out", "--report"]),
    ("save-games", ["run", "--games", "2000", "--seed", "16", "--save-games",
                    "{tmp}/games.parquet"]),
    # studies
    ("compare-text", ["compare", "official", "stacking", "edition112", "draw-until-playable",
                      "--games", "5000", "--seed", "17"]),
    ("compare-json", ["compare", "official", "seven-o", "--games", "5000", "--seed", "18",
                      "--format", "json"]),
    ("settle-text", ["settle", "stacking-longer", "draw-until-playable-longer",
                     "--games", "2000", "--seed", "19"]),
    ("settle-json", ["settle", "first-seat-advantage", "hold-wilds-wins-rounds",
                     "--games", "2000", "--seed", "20", "--format", "json"]),
    ("tournament-text", ["tournament", "offensive", "defensive", "random", "attacker",
                         "--games", "8000", "--seed", "21"]),
    ("tournament-json", ["tournament", "offensive", "gang-up:cards=3", "random", "--players", "3",
                         "--seating", "permutations", "--games", "6000", "--seed", "22",
                         "--format", "json"]),
    ("skill", ["skill", "official", "stacking", "--strategy", "offensive",
               "--games", "8000", "--seed", "23"]),
    ("sweep", ["sweep", "--rule", "hand_size=5..7", "--players", "2,4", "--games", "2000",
               "--seed", "24"]),
    ("atlas", ["atlas", "--players", "4", "--games", "1000", "--seed", "25",
               "--strategy", "none"]),
    ("replay", ["replay", "--seed", "7", "--game", "3", "--players", "2"]),
    # listings and errors
    ("variants", ["variants"]),
    ("rules", ["rules", "stacking", "seven-o", "--rule", "hand_size=8"]),
    ("strategies", ["strategies", "--strategy-file", f"{PLUGINS}:hybrid"]),
    ("bad-input", ["run", "--rule", "hand_size=0", "--games", "1000", "--seed", "1"]),
]

#: Masks, applied in order to stdout, stderr and the text files a command writes. Each
#: replaces only a token that differs between two runs of the same code: a time, a
#: rate, the thread count or an identifier of the build. Numbers of games, rates,
#: intervals and wording are never masked. Temporary folders and the repository root
#: are replaced literally first (``<TMP>``, ``<REPO>``).
_SECONDS = re.compile(r"\b\d+(?:\.\d+)? s(?=[;,)]| \(| in all\b)")


def _seconds(m: re.Match[str]) -> str:
    return _SECONDS.sub("<T> s", m.group(0))


MASKS: list[tuple[str, re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    # compile notices (stderr): only a run that finds the engine uncompiled prints
    # them, so they depend on the cache, not on the code's results; the whole line goes
    ("compile notice",
     re.compile(r"^unosim: compiling the engine for this machine \([^)\n]*\); first run only, "
                r"\d+ to \d+ s\.\.\.\n", re.M), ""),
    ("compiled notice",
     re.compile(r"^unosim: compiled in \d+ s(?:; later runs start at once)?\n", re.M), ""),
    # a table with plug-ins compiles its loop in every process, and says so
    ("plug-in compile notice",
     re.compile(r"^unosim: compiling your strategies into the engine \(plug-ins\); once per "
                r"run, up to \d+ to \d+ s\.\.\.\n", re.M), ""),
    # wall-clock rates on the speed/time lines: '120,571 games/s', '40,903 matches/s'
    ("rate", re.compile(r"\b\d[\d,]*(?:\.\d+)? (games|matches|deals|rounds)/s\b"), r"<RATE> \1/s"),
    # durations in seconds on the `speed:` and `time:` lines ('(0.17 s; ... 0.65 s)',
    # 'official 0.05 s (', 'wall 0.21 s in all', '(1.04 s, 2 workers)')
    ("seconds on speed/time lines",
     re.compile(r"(?m)^(?:speed|time): .*$"), _seconds),
    # settle's summary line: '2 claims settled in 1 s ('
    ("settle duration", re.compile(r"\b(claims? settled in) \d+ s\b"), r"\1 <T> s"),
    # the thread count: default all cores (NUMBA_NUM_THREADS); results do not depend on
    # it ('2 workers', '1 worker': the plural goes with the count)
    ("workers", re.compile(r"\b\d+ workers?\b"), "<W> workers"),
    # a path wrapped onto its own line because the checkout's folder is longer than
    # another's: the line break before the repository root is a space
    # whether this run compiled the engine (JSON): it depends on the cache, like the
    # compile notices, so the line goes
    ("compiled (JSON)", re.compile(r'\n *"compiled": (?:true|false),(?=\n)'), ""),
    ("compiled (JSON, last key)", re.compile(r',\n *"compiled": (?:true|false)(?=\n)'), ""),
    ("compiled (CSV)", re.compile(r"^compiled,(?:True|False)\n", re.M), ""),
    # the speed line names what came before the timed part: a compile, or the engine
    # loaded from the cache, which depends on the cache (plug-ins compile every time)
    ("compile or cache load", re.compile(r"engine (?:compiled for this machine|compile or "
                                         r"cache load|loaded from the cache, nothing "
                                         r"compiled,) before that"), "engine <START> before that"),
    ("wrapped repository path", re.compile(r"\n(?=<REPO>)"), " "),
    ("workers (JSON)", re.compile(r'"workers": \d+'), '"workers": "<W>"'),
    ("workers (CSV)", re.compile(r"(?m)^workers,\d+$"), "workers,<W>"),
    # timings in JSON and CSV: keys ending in _s (elapsed_s, compile_s) are seconds,
    # keys ending in _per_sec (games_per_sec, matches_per_sec) wall-clock rates
    ("seconds, rates (JSON)",
     re.compile(r'"(\w+_s|\w+_per_sec)": -?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?'), r'"\1": "<T>"'),
    ("seconds, rates (CSV)",
     re.compile(r"(?m)^(\w+_s|\w+_per_sec),-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$"), r"\1,<T>"),
    # the build: the engine fingerprint is a hash of the engine's source files (any edit,
    # even a moved function, changes it) and the version string
    ("engine (JSON)", re.compile(r'"engine": "[0-9a-f]{12}"'), '"engine": "<ENGINE>"'),
    ("engine (CSV, Parquet metadata)", re.compile(r"(?m)^(engine(?:,|: ))[0-9a-f]{12}$"),
     r"\1<ENGINE>"),
    ("version (JSON)", re.compile(r'"unosim_version": "[^"]*"'), '"unosim_version": "<V>"'),
    ("version (CSV, Parquet metadata)", re.compile(r"(?m)^(unosim_version(?:,|: ))\S+$"),
     r"\1<V>"),
]


def mask(text: str, literals: dict[str, str]) -> str:
    """``text`` with the literal paths and then every pattern of ``MASKS`` replaced."""
    for path, name in sorted(literals.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(path, name)
    for _, pattern, repl in MASKS:
        text = pattern.sub(repl, text)
    return text


def _unosim() -> list[str]:
    exe = shutil.which("unosim")
    return [exe] if exe else [sys.executable, "-m", "unosim"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["COLUMNS"] = "100"  # any width-dependent layout does not depend on the terminal
    return env


def _parquet(path: Path) -> str:
    """Schema, rows, metadata and a hash of the data (not of the file's bytes)."""
    import numpy as np
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    h = hashlib.sha256()
    for name, col in zip(table.column_names, table.columns, strict=True):
        arr = np.ascontiguousarray(col.to_numpy())
        h.update(f"{name}:{arr.dtype.str}:{len(arr)}\n".encode())
        h.update(arr.tobytes())
    meta = table.schema.metadata or {}
    lines = [f"rows: {table.num_rows}", "columns: " + ", ".join(
        f"{f.name} {f.type}" for f in table.schema)]
    lines += [f"{k.decode()}: {v.decode()}" for k, v in sorted(meta.items())]
    lines.append(f"data sha256: {h.hexdigest()}")
    return "\n".join(lines) + "\n"


def _files(tmp: Path, literals: dict[str, str]) -> str:
    """The files a command wrote under ``tmp``: every name; JSON and CSV in full,
    Parquet as its data hash; images and HTML by name only (their bytes depend on the
    plotting library's version)."""
    out = []
    files = sorted(p for p in tmp.rglob("*") if p.is_file())
    if not files:
        return ""
    out.append("--- files\n" + "".join(f"{p.relative_to(tmp).as_posix()}\n" for p in files))
    for p in files:
        rel = p.relative_to(tmp).as_posix()
        if p.suffix in (".json", ".csv"):
            out.append(f"--- file {rel}\n" + mask(p.read_text(), literals))
        elif p.suffix == ".parquet":
            out.append(f"--- file {rel} (parquet data)\n" + mask(_parquet(p), literals))
    return "".join(out)


def _section(title: str, text: str) -> str:
    if text and not text.endswith("\n"):
        text += "\n[no newline at end]\n"
    return f"--- {title}\n{text}"


def run_one(name: str, args: list[str]) -> str:
    """Run one command; its masked record (the content of NAME.out)."""
    with tempfile.TemporaryDirectory(prefix="golden-") as tmp_dir:
        tmp = Path(tmp_dir)
        argv = [a.replace("{tmp}", tmp_dir) for a in args]
        proc = subprocess.run([*_unosim(), *argv], cwd=ROOT, env=_env(), capture_output=True,
                              text=True, timeout=900)
        literals = {tmp_dir: "<TMP>", str(tmp.resolve()): "<TMP>", str(ROOT): "<REPO>"}
        shown = shlex.join(["unosim", *(a.replace("{tmp}", "<TMP>") for a in args)])
        return (f"# golden: {name}\n$ {shown}\nexit: {proc.returncode}\n"
                + _section("stdout", mask(proc.stdout, literals))
                + _section("stderr", mask(proc.stderr, literals))
                + _files(tmp, literals))


def _compile() -> None:
    """Compile every engine path first, so that no timed command waits for it (the
    compile notices are masked anyway); a path compiled already is left as it is."""
    t0 = time.perf_counter()
    subprocess.run([*_unosim(), "compile"], cwd=ROOT, env=_env(), check=True,
                   stdout=subprocess.DEVNULL)
    print(f"compile: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)


def _select(only: list[str] | None) -> list[tuple[str, list[str]]]:
    names = [n for n, _ in COMMANDS]
    for n in only or []:
        if n not in names:
            raise SystemExit(f"golden: unknown command name {n!r} (see `golden.py list`)")
    return [(n, a) for n, a in COMMANDS if not only or n in only]


def record(folder: Path, only: list[str] | None) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    chosen = _select(only)
    for name, args in chosen:
        t = time.perf_counter()
        (folder / f"{name}.out").write_text(run_one(name, args))
        print(f"{name:20s} {time.perf_counter() - t:6.1f} s", flush=True)
    print(f"{len(chosen)} recorded in {folder} in {time.perf_counter() - t0:.0f} s")
    return 0


def check(folder: Path, only: list[str] | None) -> int:
    t0 = time.perf_counter()
    matched = differ = 0
    for name, args in _select(only):
        t = time.perf_counter()
        got = run_one(name, args)
        path = folder / f"{name}.out"
        want = path.read_text() if path.exists() else ""
        ok = got == want
        print(f"{name:20s} {time.perf_counter() - t:6.1f} s  {'ok' if ok else 'DIFFERS'}",
              flush=True)
        if ok:
            matched += 1
            continue
        differ += 1
        sys.stdout.writelines(difflib.unified_diff(
            want.splitlines(keepends=True), got.splitlines(keepends=True),
            fromfile=str(path) if path.exists() else f"{path} (missing)",
            tofile=f"{name} (now)"))
    print(f"time: {time.perf_counter() - t0:.0f} s")
    print(f"{matched} matched, {differ} differ")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    for action in ("record", "check"):
        p = sub.add_parser(action)
        p.add_argument("folder", type=Path)
        p.add_argument("--only", nargs="+", metavar="NAME", help="only these commands")
        p.add_argument("--no-compile", action="store_true",
                       help="skip `unosim compile` before the commands")
    sub.add_parser("list")
    sub.add_parser("masks")
    opts = parser.parse_args(argv)
    if opts.action == "list":
        for name, args in COMMANDS:
            print(f"{name:20s} {shlex.join(['unosim', *args])}")
        return 0
    if opts.action == "masks":
        for label, pattern, repl in MASKS:
            shown = repl if isinstance(repl, str) else "each '<number> s' -> '<T> s'"
            print(f"{label}: {pattern.pattern!r} -> {shown!r}")
        return 0
    if not opts.no_compile:
        _compile()
    return (record if opts.action == "record" else check)(opts.folder, opts.only)


if __name__ == "__main__":
    sys.exit(main())
