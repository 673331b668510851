"""Every ``unosim ...`` command line the documentation shows, collected for
tests/docs/test_shown_commands.py: the lines of the code blocks of README.md and
docs/*.md (a ``$ `` prompt dropped, ``\\`` continuations joined), the code spans of
their prose, the cells of docs/*.ipynb, and the docstrings of the package.

A line is cut at the first shell operator (``|``, ``&&``, ``;``, ``>``, ``#``) and a
leading ``VAR=value`` is dropped: what is left is the command unosim reads. In a
``console`` block only the ``$ `` lines are commands (the rest is their output), and a
``text`` block is output. A code span in prose counts when it gives the command
arguments (```unosim replay``` alone names the command).

Not every line shown is a command to run: :func:`why_not` says which are not and why
(a synopsis with placeholders such as ``FILE`` or ``--seed S``, a report's header line,
a shell completion being typed).
"""

from __future__ import annotations

import ast
import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the folders of the installed package (pyproject's package-dir), whose docstrings count
PACKAGE_DIRS = ("unosim", "simulate", "runs", "studies", "reports", "stats", "env", "play",
                "compiler", "checks", "strategies")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
SPAN = re.compile(r"(?<!`)`(unosim [^`\n]+)`(?!`)")
#: where a shell line stops being unosim's
CUT = re.compile(r"\s(?:\||&&|;|>|2>|#)\s?|\s*\\$")
ENV = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+")


@dataclass(frozen=True)
class Shown:
    """One command line as shown, and where."""

    where: str
    line: str
    #: the page shows it failing (its output starts with ``unosim: error:``): that line
    error: str | None = None

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.line)[1:]


def _clean(text: str) -> str | None:
    """The unosim command of one shell line, or None when it shows none."""
    text = text.strip()
    if text.startswith("$ "):
        text = text[2:].strip()
    if text.startswith("!"):  # a notebook's shell escape
        text = text[1:].strip()
    text = ENV.sub("", text)
    if not (text == "unosim" or text.startswith("unosim ")):
        return None
    m = CUT.search(text)
    if m:
        text = text[:m.start()]
    return re.sub(r"\s+", " ", text).strip()


def _joined(lines: list[str]) -> list[tuple[int, str]]:
    """(index, line) with ``\\`` continuations joined onto their first line."""
    out: list[tuple[int, str]] = []
    buf, start = "", 0
    for i, line in enumerate(lines):
        if not buf:
            start = i
        if line.rstrip().endswith("\\"):
            buf += line.rstrip()[:-1] + " "
            continue
        out.append((start, buf + line))
        buf = ""
    if buf:
        out.append((start, buf))
    return out


def from_markdown(text: str, source: str) -> list[Shown]:
    """The commands of a page: in its code blocks, and as code spans in its prose."""
    out: list[Shown] = []
    lines = text.splitlines()
    fence: str | None = None
    lang = ""
    block: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if fence is None and m:
            fence, block = m.group(1), []
            lang = line.strip()[len(fence):].strip().split(" ")[0]
            continue
        if fence is not None:
            if line.strip().startswith(fence):
                body = [b for _, b in block]
                if lang == "console":  # the commands and their continuation lines
                    body = [b if b.lstrip().startswith("$ ") or (k and body[k - 1].rstrip()
                                                                  .endswith("\\")) else ""
                            for k, b in enumerate(body)]
                for k, joined in _joined(body) if lang != "text" else []:
                    cmd = _clean(joined)
                    if cmd:
                        out.append(Shown(f"{source}:{block[k][0] + 1}", cmd,
                                         _error_after(block, k) if lang == "console"
                                         else None))
                fence = None
            else:
                block.append((i, line))
            continue
        out += [Shown(f"{source}:{i + 1}", cmd) for cmd in _spans(line)]
    return out


def _error_after(block: list[tuple[int, str]], k: int) -> str | None:
    """The ``unosim: error:`` line a console block shows after the command at ``k``."""
    while k < len(block) and block[k][1].rstrip().endswith("\\"):
        k += 1
    after = block[k + 1][1].strip() if k + 1 < len(block) else ""
    return after if after.startswith("unosim: error:") else None


def _spans(text: str) -> list[str]:
    """The commands of the code spans of a line of prose that give arguments."""
    cmds = [_clean(span) for span in SPAN.findall(text)]
    return [c for c in cmds if c and len(c.split()) > 2]


#: a placeholder of a synopsis: FILE, K, VARIANT..., KEY=VALUES, rollouts=N, search:...
PLACEHOLDER = re.compile(r"(?:^|[=:,])(?:[A-Z][A-Z_]*|\.\.\.)(?:\.\.\.)?$|^\[|<TAB>")


def why_not(s: Shown) -> str | None:
    """Why a line shown is not a command to run (None: it is one)."""
    words = s.line.split()
    if len(words) > 1 and (words[1] == "·" or words[1].endswith(":") or "·" in words):
        return "a report's header line, not a command"
    if any("<TAB>" in w for w in words):
        return "a shell completion being typed"
    if any(PLACEHOLDER.search(w) for w in words[1:]):
        return "a synopsis: its placeholders (FILE, K, NAME...) stand for values"
    return None


def from_notebook(path: Path, source: str) -> list[Shown]:
    """The commands of a notebook's cells (markdown as a page, code as shell lines)."""
    out: list[Shown] = []
    nb = json.loads(path.read_text(encoding="utf-8"))
    for n, cell in enumerate(nb["cells"]):
        text = "".join(cell["source"])
        where = f"{source}#cell{n}"
        if cell["cell_type"] == "markdown":
            out += [Shown(where, s.line) for s in from_markdown(text, where)]
        else:
            for _, joined in _joined(text.splitlines()):
                cmd = _clean(joined)
                if cmd:
                    out.append(Shown(where, cmd))
    return out


def from_docstrings(path: Path, source: str) -> list[Shown]:
    """The commands of a module's docstrings (as code spans, or lines of their own)."""
    out: list[Shown] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef):
            continue
        doc = ast.get_docstring(node, clean=True)
        if not doc:
            continue
        line = getattr(node, "lineno", 1)
        out += [Shown(f"{source}:{line}", cmd) for cmd in _spans(doc.replace("\n", " "))]
        for _, joined in _joined(doc.splitlines()):
            if joined.strip().startswith(("$ unosim", "unosim ")) and "`" not in joined:
                cmd = _clean(joined)
                if cmd:
                    out.append(Shown(f"{source}:{line}", cmd))
    return out


def collect() -> list[Shown]:
    """Every command line shown, each once per place."""
    out: list[Shown] = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        out += from_markdown(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))
    for nb in sorted((ROOT / "docs").glob("*.ipynb")):
        out += from_notebook(nb, str(nb.relative_to(ROOT)))
    for folder in PACKAGE_DIRS:
        for f in sorted((ROOT / folder).rglob("*.py")):
            out += from_docstrings(f, str(f.relative_to(ROOT)))
    seen: set[tuple[str, str]] = set()
    unique = []
    for s in out:
        if (s.where, s.line) not in seen:
            seen.add((s.where, s.line))
            unique.append(s)
    return unique
