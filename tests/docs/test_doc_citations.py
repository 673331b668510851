"""Code cites the project's own docs, never the team's internal specs.

A comment or docstring that points a reader somewhere points at a page of the docs and
a fixed anchor on it: ``docs/rules.md#rule-seven_o`` (one anchor per rule key, made by
``rule_anchor`` in docs/hooks.py), ``docs/metrics.md#game-feel``,
``docs/matches.md#scoring``. RULES.md and DESIGN.md are not part of the project: a user
or contributor reading the code has neither. These tests fail on a source file that
mentions one of them, on a cited page that does not exist, on a cited anchor the page
does not define, and on a cited anchor that only a heading's text makes (retitling the
heading would break it; give the heading ``{ #id }``).
"""

from __future__ import annotations

import importlib.util
import re
import tomllib
import unicodedata
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: the team's internal specs, which no source file may cite
INTERNAL_SPEC = re.compile(r"\b(?:RULES|DESIGN)\.md\b")
#: ``docs/PAGE.md`` or ``docs/PAGE.md#anchor`` (an anchor has no dots, so a citation
#: that ends a sentence does not take the full stop)
CITATION = re.compile(r"\bdocs/([\w/-]+\.md)(?:#([\w-]+))?")
TEXT_SUFFIXES = {".py", ".toml", ".md", ".txt", ".cfg", ".json", ".yml", ".yaml"}


#: this file: its planted bad cases must keep naming the internal specs, so it alone
#: is not scanned
SELF = Path(__file__).resolve()


def source_folders() -> list[Path]:
    """The folders of the installed package (``package-dir`` in pyproject.toml, so a new
    room is scanned as soon as it is packaged), bench/, tests/ and examples/: the tests
    and examples are read by contributors and users too."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        dirs = tomllib.load(f)["tool"]["setuptools"]["package-dir"].values()
    return sorted({ROOT / d for d in dirs}
                  | {ROOT / "bench", ROOT / "tests", ROOT / "examples"})


def source_files() -> list[Path]:
    return sorted(p for folder in source_folders() if folder.is_dir()
                  for p in folder.rglob("*")
                  if p.is_file() and p.suffix in TEXT_SUFFIXES
                  and "__pycache__" not in p.parts and p.resolve() != SELF)


@cache
def _hooks():
    """docs/hooks.py, the mkdocs hook that writes the generated parts of the pages."""
    spec = importlib.util.spec_from_file_location("unosim_docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _slugify(value: str, separator: str = "-") -> str:
    """Python-Markdown's toc slugify, the default of mkdocs' ``toc`` extension."""
    value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(rf"[{separator}\s]+", separator, value)


def _strip_fences(text: str) -> str:
    """The page without its fenced code blocks (a ``#`` line in a console block is no
    heading, a ``{...}`` in a code block no attribute list)."""
    out, fence = [], None
    for line in text.splitlines():
        m = re.match(r"\s*(`{3,}|~{3,})", line)
        if fence is None and m:
            fence = m.group(1)
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None:
            out.append(line)
    return "\n".join(out)


def _attr_ids(attrs: str) -> list[str]:
    return re.findall(r"(?:^|\s)#([\w.-]+)", attrs)


@cache
def page_anchors(page: str) -> tuple[frozenset[str], frozenset[str]]:
    """(fixed anchors, anchors made from heading text) of ``docs/<page>``, as the site
    has them: the page after the hook's substitutions (the rule book's entries, one per
    rule key), then ``{ #id }`` / ``{: #id }`` attribute lists and raw ``id="..."``
    (fixed), and the slugs of headings without an id of their own (numbered ``_1``,
    ``_2`` when repeated, like mkdocs' toc). Pages that other plugins write (the CLI
    reference, the API pages, a page that includes a snippet) have more anchors than
    this finds: a citation of one of those is reported missing, never passed wrongly."""
    text = (DOCS / page).read_text(encoding="utf-8")
    text = _strip_fences(_hooks().on_page_markdown(text, None, None, None))
    fixed: set[str] = set()
    markup = re.sub(r"(`+)[^`\n]+?\1", "", text)  # inline code shows markup, is none
    for m in re.finditer(r"\{:?([^{}\n]*)\}", markup):
        fixed.update(_attr_ids(m.group(1)))
    fixed.update(re.findall(r"""\bid=["']([^"']+)["']""", markup))
    slugs: set[str] = set()
    for m in re.finditer(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", text, re.MULTILINE):
        heading = m.group(1)
        attrs = re.search(r"\{:?([^{}]*)\}\s*$", heading)
        if attrs and _attr_ids(attrs.group(1)):
            continue
        plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
        plain = re.sub(r"[`*]", "", plain)
        slug = base = _slugify(plain)
        n = 0
        while slug in slugs or slug in fixed:
            n += 1
            slug = f"{base}_{n}"
        slugs.add(slug)
    return frozenset(fixed), frozenset(slugs)


def citations(text: str) -> list[tuple[str, str | None]]:
    """(page, anchor or None) of every ``docs/PAGE.md[#anchor]`` in ``text``."""
    return [(m.group(1), m.group(2)) for m in CITATION.finditer(text)]


def problems(text: str, where: str, *, fixed_only: bool = False) -> list[str]:
    """What is wrong with the docs citations in ``text``: an internal spec cited, a page
    that does not exist, an anchor the page does not define (with ``fixed_only``, one
    that only a heading's text defines)."""
    out = [f"{where}: cites {m.group()}, which is not part of the project; cite the "
           f"docs page and anchor instead" for m in INTERNAL_SPEC.finditer(text)]
    for page, anchor in citations(text):
        cited = f"docs/{page}" + (f"#{anchor}" if anchor else "")
        if not (DOCS / page).is_file():
            out.append(f"{where}: {cited}: no such page")
            continue
        if anchor is None:
            continue
        fixed, slugs = page_anchors(page)
        if anchor in fixed:
            continue
        if anchor in slugs:
            if fixed_only:
                out.append(f"{where}: {cited}: made from a heading's text; give the "
                           f"heading {{ #{anchor} }} so that it stays")
            continue
        out.append(f"{where}: {cited}: the page has no such anchor")
    return out


def _all_problems(fixed_only: bool = False) -> list[str]:
    return [p for path in source_files()
            for p in problems(path.read_text(encoding="utf-8", errors="replace"),
                              str(path.relative_to(ROOT)), fixed_only=fixed_only)]


# --------------------------------------------------------------------------- the code


def test_the_scan_sees_the_package_and_its_citations():
    """Not vacuous: the engine's sources are scanned and they do cite the docs."""
    files = {str(p.relative_to(ROOT)) for p in source_files()}
    assert "simulate/rules.py" in files and "unosim/cli.py" in files
    assert "tests/reference_engine.py" in files and "examples/learn_to_play.py" in files
    assert str(SELF.relative_to(ROOT)) not in files
    cited = [c for p in source_files() for c in citations(p.read_text(errors="replace"))]
    assert any(page == "rules.md" and anchor for page, anchor in cited)
    assert any(page == "metrics.md" and anchor for page, anchor in cited)


def test_no_source_file_cites_an_internal_spec():
    found = [f"{p.relative_to(ROOT)}: {m.group()}" for p in source_files()
             for m in INTERNAL_SPEC.finditer(p.read_text(errors="replace"))]
    assert found == [], "\n".join(found)


def test_every_cited_page_and_anchor_exists():
    found = _all_problems()
    assert found == [], "\n".join(found)


def test_every_cited_anchor_is_a_fixed_one():
    found = _all_problems(fixed_only=True)
    assert found == [], "\n".join(found)


# ---------------------------------------------------------------------- the anchors


def test_every_rule_key_has_its_own_anchor_in_the_rule_book():
    from unosim.simulate.rules import SCHEMA

    anchor = _hooks().rule_anchor
    names = [anchor(k) for k in SCHEMA]
    assert len(set(names)) == len(names), "two rule keys share an anchor"
    assert anchor("seven_o") == "rule-seven_o" and anchor("deck.zeros") == "rule-deck-zeros"
    fixed, slugs = page_anchors("rules.md")
    assert sorted(set(names) - fixed) == [], "rule keys without an anchor in docs/rules.md"
    assert not set(names) & slugs


def test_every_game_feel_metric_has_its_own_anchor():
    from unosim.simulate import layout as L

    fixed, _ = page_anchors("metrics.md")
    missing = [m for m in L.FEEL_METRICS if f"metric-{m}" not in fixed]
    assert missing == [], "game-feel metrics without an anchor in docs/metrics.md"
    for a in ("per-round", "per-match", "game-feel", "distance", "seat-balance",
              "skill-edge"):
        assert a in fixed, a
    assert "scoring" in page_anchors("matches.md")[0]


# ------------------------------------------------------------ the check can fail


def test_a_made_up_citation_is_reported():
    assert problems("see docs/rules.md#rule-seven_o.", "ok") == []
    assert problems("(docs/metrics.md#game-feel)", "ok") == []
    found = problems("the rule (docs/rules.md#no-such-anchor)", "x.py")
    assert found == ["x.py: docs/rules.md#no-such-anchor: the page has no such anchor"]
    assert problems("docs/no-such-page.md#a", "x.py") == [
        "x.py: docs/no-such-page.md#a: no such page"]
    assert problems("see RULES.md 9b and DESIGN.md", "x.py")[1].startswith(
        "x.py: cites DESIGN.md")
    # a heading's slug exists, but is not fixed: reported only when fixed ones are asked
    assert problems("docs/findings-search.md#strength", "x.py") == []
    assert problems("docs/findings-search.md#strength", "x.py", fixed_only=True)
