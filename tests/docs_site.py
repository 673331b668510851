"""What a built documentation site must not show, as functions over its HTML files,
each returning the problems it finds (an empty list: none), so that a test can both
check the real site and plant a bad case and see it caught.

- ``text_problems``: click's internal ``Sentinel.UNSET``, a raw Sphinx role
  (``:class:`...```) or a ``\\|`` in a table cell, anywhere in the pages;
- ``link_problems``: a link between pages that is not a file of the site (opened from
  disk a folder shows as a listing), or whose anchor is not on its page;
- ``cli_problems``: the CLI reference's command list and descriptions against the
  commands' own help: every summary and every paragraph whole.
"""

from __future__ import annotations

import html
import importlib.util
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

DOCS = Path(__file__).resolve().parent.parent / "docs"
ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const|ref):`?\w")
TD = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>", re.S)
LINK = re.compile(r"""<(?:a|img|link|script)\b[^>]*?\b(?:href|src)=["']([^"']*)["']""")
BLOCK = re.compile(r"</?(?:p|div|li|ul|ol|tr|td|th|table|br|h\d|pre|article|section)\b[^>]*>")
ID = re.compile(r"""\bid=["']([^"']+)["']""")


def load_hooks() -> Any:
    """docs/hooks.py, the generator of the CLI reference, as a module."""
    spec = importlib.util.spec_from_file_location("unosim_docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def text_of(fragment: str) -> str:
    """The text of an HTML fragment, tags dropped and whitespace collapsed."""
    fragment = re.sub(r"<(script|style)\b.*?</\1>", " ", fragment, flags=re.S)
    fragment = re.sub(BLOCK, " ", fragment)  # a block ends a word, an inline tag does not
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _article(page: str) -> str:
    """The page's content, without the navigation and search around it."""
    m = re.search(r"<article\b.*?</article>", page, re.S)
    return m.group(0) if m else page


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if p.name != "404.html")


def text_problems(site: Path) -> list[str]:
    out = []
    for page in pages(site):
        raw = page.read_text(encoding="utf-8")
        name = str(page.relative_to(site))
        text = text_of(_article(raw))
        if "Sentinel" in raw or "UNSET" in text:
            out.append(f"{name}: click's UNSET sentinel is shown")
        for m in ROLE.finditer(text):
            out.append(f"{name}: a raw role {text[m.start():m.start() + 40]!r}")
        for cell in TD.findall(raw):
            if "\\|" in html.unescape(cell):
                out.append(f"{name}: a backslash before a pipe in {text_of(cell)!r}")
    return out


def link_problems(site: Path) -> list[str]:
    """Every relative link of every page (``href``, ``src``) names a file of the site,
    and its ``#anchor``, if any, is an id on the page it names."""
    out = []
    ids: dict[Path, set[str]] = {}
    for page in pages(site):
        raw = page.read_text(encoding="utf-8")
        name = str(page.relative_to(site))
        for link in LINK.findall(raw):
            url = urlsplit(html.unescape(link))
            if url.scheme or url.netloc or link.startswith(("#", "mailto:", "data:")):
                continue
            target = (page.parent / unquote(url.path)).resolve() if url.path else page
            if not target.is_file():
                what = "a folder" if target.is_dir() else "missing"
                out.append(f"{name}: link {link!r} is {what}, not a file of the site")
                continue
            if url.fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = set(ID.findall(target.read_text(encoding="utf-8")))
                if unquote(url.fragment) not in ids[target]:
                    out.append(f"{name}: link {link!r}: no such anchor on its page")
    return out


def _strip_code(markdown: str) -> str:
    """What a Markdown help text reads as, once rendered: no backticks, no <br>."""
    return " ".join(markdown.replace("`", "").replace("<br>", " ").split())


def cli_problems(page: str, commands: dict[str, object]) -> list[str]:
    """``page``: the HTML of the CLI reference; ``commands``: name -> click command.
    Each command is listed with its whole summary (ending a sentence), and its section
    shows every paragraph of its help, whole, before its usage."""
    import click

    hooks = load_hooks()  # the same reading of a help text as the page's
    out = []
    article = _article(page)
    items = {}
    for li in re.findall(r"<li>(.*?)</li>", article, re.S):
        m = re.match(r"(\w+): (.*)", text_of(li), re.S)
        if m:
            items[m.group(1)] = m.group(2)
    for name, cmd in commands.items():
        assert isinstance(cmd, click.Command)
        want = _strip_code(hooks.command_summary(cmd))
        got = items.get(name)
        if got != want:
            out.append(f"{name}: listed as {got!r}, its summary is {want!r}")
        elif not re.search(r"[.!?)]$", got):
            out.append(f"{name}: its summary {got!r} does not end a sentence")
        sec = re.search(rf"""<h3 id="unosim-{re.escape(name)}".*?(?=<h3 |</article>)""",
                        article, re.S)
        if sec is None:
            out.append(f"{name}: no section in the CLI reference")
            continue
        head = sec.group(0).split("Usage:", 1)[0]
        shown = [text_of(p) for p in re.findall(r"<p>(.*?)</p>", head, re.S)]
        for para in hooks.help_paragraphs(cmd.help):
            if _strip_code(para) not in shown:
                out.append(f"{name}: the paragraph {_strip_code(para)[:60]!r}... is not "
                           f"shown whole")
    return out
