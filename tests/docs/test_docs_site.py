"""The documentation site as built: the HTML that a reader opens, from disk or served.

The site is built once (``mkdocs build --strict`` into a temporary folder), or read
from ``$UNOSIM_DOCS_SITE`` where it was already built (.ci/run builds it after the
tests, with the docs extra, then runs this file on it). Without mkdocs and without a
built site the site checks skip; the planted bad cases below run anyway and show that
each check can fail.

The notebook page shows its charts, a printed verdict and a table from the outputs
stored in the notebook.

In headless Chromium (skipped where there is no browser, as tests/reports/test_pages_browser.py
does): the five pages with a picture show it loaded, and the notebook page its charts;
the findings page's console output fits its box (wrapped, nothing cut at the right
edge), and search works from ``file://``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import click
import pytest
from browser import Browser, find_browser
from docs_site import cli_problems, link_problems, load_hooks, pages, text_of, text_problems

from unosim.cli import COMMANDS, cli

pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: the pages where a reader would rather look than read: page -> its pictures
PICTURES = {"index.html": ["compare/feel.png"],
            "compare.html": ["compare/differences.png", "compare/round_length.png"],
            "atlas.html": ["atlas/atlas_4p.png"], "sweep.html": ["sweep/sweep_turns.png"],
            "settle.html": ["settle/stacking-longer.png"]}
#: the notebook page: its charts are in the page itself (data: URIs), with its tables and
#: printed lines, as stored in docs/a-house-rule-question.ipynb
NOTEBOOK = "a-house-rule-question.html"


def _commands() -> dict[str, click.Command]:
    ctx = click.Context(cli, info_name="unosim")
    return {name: cli.get_command(ctx, name) for name in COMMANDS}


def _missing_docs_packages() -> list[str]:
    """The docs extra's distributions not installed here.

    A machine that once had the docs extra may hold mkdocs but not a plugin added since;
    building there fails on the plugin, which says nothing about the pages.
    """
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["docs"]
    missing = []
    for requirement in extra:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)
        try:
            metadata.version(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
    return missing


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    given = os.environ.get("UNOSIM_DOCS_SITE")
    if given:
        assert (Path(given) / "index.html").is_file(), f"no site built in {given}"
        return Path(given)
    missing = _missing_docs_packages()
    if missing:
        pytest.skip(f"the docs extra is not wholly installed ({', '.join(missing)} missing; "
                    "pip install -e '.[docs]'); .ci/run checks the site after building it")
    out = tmp_path_factory.mktemp("site")
    p = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                        str(out)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-4000:]
    return out


# ------------------------------------------------------------------- the built site


def test_no_sentinel_raw_role_or_escaped_pipe(site):
    assert text_problems(site) == []


def test_links_between_pages_are_files_that_exist(site):
    """Opened from disk a link to a folder shows a listing: every page is a file
    (``use_directory_urls: false``) and every link names one."""
    assert (site / "cli.html").is_file() and not (site / "cli").exists()
    assert link_problems(site) == []


def test_the_cli_reference_shows_whole_descriptions(site):
    page = (site / "cli.html").read_text(encoding="utf-8")
    assert cli_problems(page, _commands()) == []
    assert page.count('<h3 id="unosim-') == len(COMMANDS)


def test_search_works_without_a_server(site):
    """The offline plugin writes the index as a script a file:// page may load, and the
    worker shim it needs there is part of the site: no page loads a script from the
    network."""

    index = (site / "search" / "search_index.js").read_text(encoding="utf-8")
    assert "unosim compare" in index
    for page in pages(site):
        scripts = re.findall(r"""<script\b[^>]*\bsrc=["']([^"']+)""", page.read_text())
        assert "javascripts/iframe-worker/shim.js" in scripts, page.name
        assert [s for s in scripts if "://" in s or s.startswith("//")] == [], page.name


def test_the_picture_pages_show_their_picture_and_say_where_it_came_from(site):
    for page, images in PICTURES.items():
        raw = (site / page).read_text(encoding="utf-8")
        for img in images:
            assert f'src="{img}"' in raw, (page, img)
            assert (site / img).is_file(), img
        source = (DOCS / page.replace(".html", ".md")).read_text(encoding="utf-8")
        assert "<!-- picture checked in, made by" in source, page


def test_the_notebook_page_shows_its_charts_and_outputs(site):
    raw = (site / NOTEBOOK).read_text(encoding="utf-8")
    assert len(re.findall(r'<img\b[^>]*\bsrc="data:image/png;base64,', raw)) >= 4
    outputs = re.findall(r'<div class="jp-OutputArea-child.*?(?=<div class="jp-Cell |$)', raw,
                         re.S)
    shown = " ".join(text_of(o) for o in outputs)
    assert "stacking: rounds" in shown and "turns longer than official" in shown  # printed
    assert "stacking-luckier" in shown and "NOT SHOWN" in shown  # a DataFrame
    assert (site / "a-house-rule-question.ipynb").is_file()  # the download link's target
    assert f'href="{NOTEBOOK}"' in (site / "python.html").read_text(encoding="utf-8")


def test_the_notebook_page_links_to_the_pages_beside_it(site):
    """The notebook's links are absolute (they work in the downloaded .ipynb); on its
    page they point at the pages of this site, so that the site works from disk and
    before it is published (link_problems then checks each one)."""
    raw = (site / NOTEBOOK).read_text(encoding="utf-8")
    article = raw[raw.index("<article"):raw.index("</article>")]
    assert 'href="rules.html#rule-stacking"' in article
    assert 'href="a-house-rule-question.ipynb"' in article
    assert "unosim.github.io" not in article


def test_the_home_page_table_leads_to_every_kind_of_job(site):
    """The home page's table of jobs (one table: a blank line inside it made the last
    rows a paragraph of pipes) links the table, the RL environment, the strategy guide
    and the notebook."""
    raw = (site / "index.html").read_text(encoding="utf-8")
    tables = re.findall(r"<table>.*?</table>", raw, re.S)
    assert len(tables) == 1
    for page in ("run", "play", "write-a-strategy", "reinforcement-learning", NOTEBOOK[:-5]):
        assert f'href="{page}.html"' in tables[0], page
    assert "| |" not in text_of(raw)


def test_console_blocks_wrap(site):
    css = (site / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    assert "pre-wrap" in css
    assert 'href="stylesheets/extra.css"' in (site / "findings.html").read_text()


# ------------------------------------------------------- each check can fail


def test_planted_bad_pages_are_caught(tmp_path):
    (tmp_path / "folder").mkdir()
    (tmp_path / "good.html").write_text('<article><h2 id="here">x</h2></article>')
    (tmp_path / "bad.html").write_text(
        "<article><table><tr><td>Sentinel.UNSET</td>"
        "<td><code>local\\|dask</code></td></tr></table>"
        "<p>The full :class:<code>Comparison</code> object</p>"
        '<a href="folder/">a folder</a> <a href="missing.html">missing</a> '
        '<a href="good.html#here">fine</a> <a href="good.html#gone">no anchor</a> '
        '<a href="https://example.org/x/">outside</a> <img src="nope.png"></article>')
    problems = text_problems(tmp_path)
    assert len(problems) == 3, problems
    assert any("sentinel" in p for p in problems)
    assert any("raw role" in p for p in problems)
    assert any("backslash before a pipe" in p for p in problems)
    problems = link_problems(tmp_path)
    assert len(problems) == 4, problems
    assert any("'folder/' is a folder" in p for p in problems)
    assert any("'missing.html' is missing" in p for p in problems)
    assert any("'nope.png' is missing" in p for p in problems)
    assert any("good.html#gone" in p and "anchor" in p for p in problems)


@click.command()
def made_up() -> None:
    """First paragraph, wrapped
    over two lines: `unosim run` shown as code.

    Second."""


def _cli_page(summary: str, paragraphs: list[str]) -> str:
    paras = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (f'<article><ul><li><a href="#unosim-made"><code>made</code></a>: {summary}</li>'
            f'</ul><h3 id="unosim-made">unosim made</h3>{paras}'
            "<p><strong>Usage:</strong></p><pre><code>unosim made</code></pre></article>")


def test_a_cut_description_is_caught():
    whole = "First paragraph, wrapped over two lines: <code>unosim run</code> shown as code."
    good = _cli_page(whole, [whole, "Second."])
    assert cli_problems(good, {"made": made_up}) == []
    # cut where the help wraps (what mkdocs-click's command list did), and a paragraph lost
    cut = _cli_page("First paragraph, wrapped", [whole])
    problems = cli_problems(cut, {"made": made_up})
    assert len(problems) == 2, problems
    assert "listed as 'First paragraph, wrapped'" in problems[0]
    assert "'Second.'" in problems[1]
    assert cli_problems(_cli_page(whole, ["First paragraph, wrapped", "Second."]),
                        {"made": made_up})


def test_docstring_rest_becomes_markdown():
    import importlib.util

    spec = importlib.util.spec_from_file_location("griffe_docstrings",
                                                  DOCS / "griffe_docstrings.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    text = ("Intro.\n\n>>> from unosim import api\n>>> api.simulate(\n...     'stacking')\n"
            "\nThe full :class:`Comparison`, :func:`~unosim.api.simulate`.")
    assert mod.to_markdown(text) == (
        "Intro.\n\n```pycon\n>>> from unosim import api\n>>> api.simulate(\n"
        "...     'stacking')\n```\n\nThe full `Comparison`, `simulate`.")


def test_the_generated_reference_has_no_sentinel():
    text = load_hooks().cli_reference_markdown()
    assert "Sentinel" not in text and "UNSET" not in text


# ------------------------------------------------------------ in a real browser

EXE = find_browser()
needs_browser = pytest.mark.skipif(
    EXE is None, reason="no Chromium or Chrome found (apt-get install chromium, or set "
                        "UNOSIM_BROWSER): the site was not checked in a browser")


@pytest.fixture(scope="module")
def browser():
    b = Browser(EXE)
    yield b
    b.close()


@pytest.mark.browser
@needs_browser
@pytest.mark.parametrize("page", sorted(PICTURES))
def test_picture_loads_from_disk(site, browser, page):
    shown, _ = browser.open((site / page).resolve().as_uri())
    loaded = browser.evaluate((site / page).resolve().as_uri(), """JSON.stringify(
        Array.from(document.querySelectorAll('article img')).map(i => ({
            src: i.getAttribute('src'), w: i.naturalWidth, shown: i.clientWidth})))""")
    images = json.loads(loaded)
    assert sorted(i["src"] for i in images) == sorted(PICTURES[page])
    for img in images:
        assert img["w"] > 0 and img["shown"] > 100, img
    assert all(shown["images"]), "an image of the page did not load"


@pytest.mark.browser
@needs_browser
def test_the_notebook_charts_load_from_disk(site, browser):
    uri = (site / NOTEBOOK).resolve().as_uri()
    images = json.loads(browser.evaluate(uri, """JSON.stringify(
        Array.from(document.querySelectorAll('article .jp-RenderedImage img')).map(i => ({
            w: i.naturalWidth, shown: i.clientWidth})))"""))
    assert len(images) >= 4
    for img in images:
        assert img["w"] > 0 and img["shown"] > 100, img


@pytest.mark.browser
@needs_browser
def test_console_output_is_not_cut_at_the_right_edge(site, browser):
    """Every code block of the findings page fits its box: the long verdict lines wrap,
    so the figures at their end are on screen."""
    got = json.loads(browser.evaluate((site / "findings.html").resolve().as_uri(), """
        JSON.stringify(Array.from(document.querySelectorAll('article pre > code')).map(c => ({
            over: c.scrollWidth - c.clientWidth, text: c.innerText.slice(0, 60)})))"""))
    assert len(got) >= 5
    assert [g for g in got if g["over"] > 1] == []


@pytest.mark.browser
@needs_browser
def test_search_finds_a_page_from_disk(site, browser):
    found = browser.evaluate((site / "index.html").resolve().as_uri(), """
        new Promise(done => {
          const input = document.querySelector('input.md-search__input');
          input.focus();
          input.value = 'tournament';
          for (const e of ['focus', 'input', 'keyup'])
            input.dispatchEvent(new Event(e, {bubbles: true}));
          let tries = 0;
          const poll = () => {
            const n = document.querySelectorAll('.md-search-result__item').length;
            if (n > 0 || ++tries > 100) done(n); else setTimeout(poll, 100);
          };
          poll();
        })""")
    assert found > 0, "search found nothing from file://"


#: in a page, every character of a code block that a copy button covers (the button
#: sits in the block's top right corner; a long first line ran under it)
UNDER_COPY_BUTTON = """JSON.stringify((() => {
  const hits = [];
  for (const b of document.querySelectorAll('article .md-code__button, article clipboard-copy')) {
    const box = b.closest('.CodeMirror') || b.closest('pre') || b.parentElement;
    const pre = b.closest('pre') || box.querySelector('pre');
    const br = b.getBoundingClientRect();
    if (!pre || br.width === 0) continue;
    const walk = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const t = walk.currentNode.textContent;
      for (let i = 0; i < t.length; i++) {
        if (!t[i].trim()) continue;
        const r = document.createRange();
        r.setStart(walk.currentNode, i);
        r.setEnd(walk.currentNode, i + 1);
        for (const q of r.getClientRects())
          if (q.right > br.left && q.left < br.right && q.bottom > br.top && q.top < br.bottom)
            hits.push(pre.innerText.slice(0, 40) + ' ... ' + t.slice(Math.max(0, i - 8), i + 8));
      }
    }
  }
  return hits;
})())"""

#: in a page, every code block that scrolls sideways instead of wrapping
SCROLLS_SIDEWAYS = """JSON.stringify(Array.from(document.querySelectorAll('article *')).filter(e =>
    e.scrollWidth - e.clientWidth > 1 && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)
    && e.querySelector('pre, code') && !e.querySelector('table'))
  .map(e => e.innerText.slice(0, 60)))"""


@pytest.mark.browser
@needs_browser
@pytest.mark.parametrize("width", [700, 1000, 1400])
def test_no_copy_button_covers_code(site, width):
    """At a phone's, a laptop's and a wide window's width, the copy button of a code
    block covers no character: on settle (a command and its comment on one line), the
    notebook (its code cells have a button of their own) and the install page."""
    b = Browser(EXE, width=width)
    try:
        for page in ("settle.html", NOTEBOOK, "install.html"):
            uri = (site / page).resolve().as_uri()
            assert b.evaluate(uri, "document.querySelectorAll('article pre').length") > 0
            assert json.loads(b.evaluate(uri, UNDER_COPY_BUTTON)) == [], (page, width)
    finally:
        b.close()


@pytest.mark.browser
@needs_browser
def test_the_notebook_code_wraps(site):
    """A long line of a notebook's code cell wraps, as on the other pages, instead of
    scrolling sideways with its end out of sight (1000 pixels: a laptop)."""
    b = Browser(EXE, width=1000)
    try:
        uri = (site / NOTEBOOK).resolve().as_uri()
        assert json.loads(b.evaluate(uri, SCROLLS_SIDEWAYS)) == []
        # the check can fail: unwrapped, some line of the page's code is too long
        unwrapped = b.evaluate(uri, """Array.from(document.querySelectorAll(
            'article .jupyter-wrapper pre')).filter(p => {
              p.style.whiteSpace = 'pre';
              const over = p.scrollWidth - p.clientWidth > 1;
              p.style.whiteSpace = '';
              return over; }).length""")
        assert unwrapped > 0, "no line of the notebook's code is that long: test it narrower"
    finally:
        b.close()
