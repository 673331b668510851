"""The runner behind tests/docs/test_docs.py: finds the examples a page marks runnable and
runs them, comparing the output where the page shows it.

A block is runnable when the line before its opening fence is ``<!-- runnable -->``:

- ``console``: each line starting with ``$ `` is a command; the lines after it, up to
  the next command, are its expected output. A line ``...`` stands for any number of
  lines (none included), and ``...`` inside a line for any text. A command whose
  expected output starts with ``unosim: error:`` must exit with code 2, every other
  command with 0. No output lines: only the exit code is checked.
- ``bash``: every line that is not blank or a comment is a command that must exit 0.
- ``python``: the block runs in a fresh namespace; when a ``text`` block follows it,
  the printed output is compared with that block as above.

A block that shows a ``unosim`` command but is not run says why, on the line before
it: ``<!-- not-run: REASON -->`` (a million-game finding, a cluster, a study of
minutes).

``unosim ...`` commands without shell syntax run in this process (through
``unosim.cli.main``, so the engine is loaded once for all of them); anything else runs
in bash with this interpreter's folder first on PATH.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

MARK = "<!-- runnable -->"
FENCE = re.compile(r"^(`{3,})\s*([\w-]*)")
SHELL_SYNTAX = re.compile(r"[|&;<>()$`*?]|^\w+=")


@dataclass
class Example:
    """One runnable block: where it is, its kind, its code and its expected output."""

    source: str
    line: int
    kind: str
    code: list[str]
    expected: list[str] | None = None
    steps: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.source}:{self.line}"


def _block(lines: list[str], start: int) -> tuple[str, list[str], int]:
    """The fenced block opening at ``start``: (language, body, index after it)."""
    m = FENCE.match(lines[start])
    assert m, f"line {start + 1} is not a fence"
    fence, lang = m.group(1), m.group(2)
    body = []
    i = start + 1
    while i < len(lines) and not lines[i].startswith(fence):
        body.append(lines[i])
        i += 1
    if i >= len(lines):
        raise ValueError(f"line {start + 1}: the block is never closed")
    return lang, body, i + 1


def parse(text: str, source: str) -> list[Example]:
    """Every runnable example of a page."""
    lines = text.splitlines()
    out: list[Example] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != MARK:
            i += 1
            continue
        j = i + 1
        if j >= len(lines) or not FENCE.match(lines[j]):
            raise ValueError(f"{source}:{i + 1}: {MARK} must be followed by a fenced block")
        lang, body, i = _block(lines, j)
        ex = Example(source, j + 1, lang, body)
        if lang == "console":
            for line in body:
                if line.startswith("$ "):
                    ex.steps.append((line[2:], []))
                elif ex.steps:
                    ex.steps[-1][1].append(line)
                else:
                    raise ValueError(f"{ex.name}: output before the first $ command")
        elif lang == "bash":
            ex.steps = [(c, []) for c in body if c.strip() and not c.lstrip().startswith("#")]
        elif lang == "python":
            k = i
            while k < len(lines) and not lines[k].strip():
                k += 1
            follow = FENCE.match(lines[k]) if k < len(lines) else None
            if follow and follow.group(2) == "text":
                _, ex.expected, i = _block(lines, k)
        else:
            raise ValueError(f"{ex.name}: a runnable block must be console, bash or python")
        out.append(ex)
    return out


def unmarked(text: str) -> list[int]:
    """Lines of the ``console`` and ``bash`` blocks that show a ``unosim`` command but are
    marked neither ``<!-- runnable -->`` nor ``<!-- not-run: REASON -->``: every command
    example is either run by the tests or says why it is not."""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        lang, body, after = _block(lines, i)
        prev = lines[i - 1].strip() if i else ""
        marked = prev == MARK or (prev.startswith("<!-- not-run:") and len(prev) > 20)
        if lang in ("console", "bash", "") and "unosim" in "\n".join(body) and not marked:
            out.append(i + 1)
        i = after
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` fits ``expected``, with ``...`` as described above."""
    exp = [e.rstrip() for e in expected]
    act = [a.rstrip() for a in actual]
    while exp and not exp[-1]:
        exp.pop()
    while act and not act[-1]:
        act.pop()
    pats = [None if e.strip() == "..." else
            re.compile(".*".join(re.escape(p) for p in e.split("...")) + r"\Z") for e in exp]

    memo: dict[tuple[int, int], bool] = {}

    def go(i: int, j: int) -> bool:
        if (i, j) in memo:
            return memo[i, j]
        if i == len(pats):
            r = j == len(act)
        elif pats[i] is None:
            r = go(i + 1, j) or (j < len(act) and go(i, j + 1))
        else:
            r = j < len(act) and pats[i].match(act[j]) is not None and go(i + 1, j + 1)
        memo[i, j] = r
        return r

    return go(0, 0)


def run_command(cmd: str, cwd: Path) -> tuple[int, str]:
    """Run one command line; (exit code, stdout and stderr together)."""
    if cmd.startswith("unosim ") and not SHELL_SYNTAX.search(cmd):
        return _in_process(shlex.split(cmd)[1:], cwd)
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=600)
    return p.returncode, p.stdout + p.stderr


def _in_process(argv: list[str], cwd: Path) -> tuple[int, str]:
    from unosim.cli import main

    buf = io.StringIO()
    old = Path.cwd()
    code = 0
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            main(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        os.chdir(old)
    return code, buf.getvalue()


class ExampleFailed(AssertionError):
    pass


def check(ex: Example, cwd: Path) -> None:
    """Run ``ex`` in ``cwd``; raise ExampleFailed saying what differed."""
    if ex.kind == "python":
        buf = io.StringIO()
        old = Path.cwd()
        os.chdir(cwd)
        try:
            with contextlib.redirect_stdout(buf):
                exec(compile("\n".join(ex.code), ex.name, "exec"), {"__name__": "__docs__"})
        except Exception as e:  # the example is broken: say where
            raise ExampleFailed(f"{ex.name}: the python example raised {e!r}") from e
        finally:
            os.chdir(old)
        if ex.expected is not None and not matches(ex.expected, buf.getvalue().splitlines()):
            raise ExampleFailed(_diff(ex.name, "python block", ex.expected, buf.getvalue()))
        return
    for cmd, expected in ex.steps:
        code, out = run_command(cmd, cwd)
        want = 2 if expected and expected[0].startswith("unosim: error:") else 0
        if code != want:
            raise ExampleFailed(f"{ex.name}: `{cmd}` exited with {code}, not {want}:\n{out}")
        if expected and not matches(expected, out.splitlines()):
            raise ExampleFailed(_diff(ex.name, cmd, expected, out))


def _diff(name: str, what: str, expected: list[str], out: str) -> str:
    return (f"{name}: the output of `{what}` does not match the page.\n--- page:\n"
            + "\n".join(expected) + "\n--- actual:\n" + out)
