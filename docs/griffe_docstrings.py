"""A griffe extension for the API pages: turns the reST of the docstrings into the
Markdown mkdocstrings renders, before it is parsed.

- a run of ``>>>`` / ``...`` lines (a doctest example) becomes a fenced ``pycon``
  block, which otherwise runs together into one paragraph;
- a Sphinx role (``:class:`Comparison```, ``:func:`~unosim.api.simulate```) becomes a
  code span with the name it shows (``~`` keeps the last part), as it would read in
  Sphinx; a raw role is otherwise printed as is.

docs/hooks.py adds it to the mkdocstrings handler; the tests call ``to_markdown``.
"""

from __future__ import annotations

import re
from typing import Any

try:
    from griffe import Extension
except ImportError:  # the tests check the conversion without the docs extra
    Extension = object  # type: ignore[assignment,misc]

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const|ref):`([^`]+)`")


def _role(m: re.Match[str]) -> str:
    target = m.group(1).strip()
    if target.startswith("~"):
        target = target[1:].rsplit(".", 1)[-1]
    return f"`{target}`"


def to_markdown(text: str) -> str:
    out: list[str] = []
    block: list[str] = []

    def flush() -> None:
        if block:
            out.extend(["", "```pycon", *block, "```", ""])
            block.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>") or (block and stripped.startswith("...")):
            block.append(stripped)
            continue
        flush()
        out.append(line)
    flush()
    # the blank lines a block brought in are not doubled
    md = re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n")
    parts = re.split(r"(```pycon\n.*?\n```)", md, flags=re.S)
    return "".join(p if p.startswith("```pycon") else ROLE.sub(_role, p) for p in parts)


class ReSTToMarkdown(Extension):  # type: ignore[misc,valid-type]
    def on_object(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
