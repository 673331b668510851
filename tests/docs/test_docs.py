"""The documentation: its examples run and print what the pages say, every rule key and
every command has its entry, no user-facing text cites a file the user does not have,
and the shell completes command, variant and strategy names.

The examples are run by tests/docs_examples.py (this project's own small runner: the
blocks marked ``<!-- runnable -->``); the site itself is built by ``mkdocs build
--strict`` in .ci/run.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from docs_examples import ExampleFailed, check, matches, parse, unmarked

from unosim.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
SOURCES = [*PAGES, ROOT / "README.md"]
EXAMPLES = [ex for p in SOURCES for ex in parse(p.read_text(encoding="utf-8"),
                                                  str(p.relative_to(ROOT)))]
#: what no user may be sent to: the project's internal specs, issue numbers, work logs
#: (case matters for the file names: docs/rules.md is the user's rule book)
INTERNAL = re.compile(r"RULES\.md|DESIGN\.md|SEARCH_RESULTS|TUNE_RESULTS|"
                      r"(?i:\bissue\s*#?\d+|\bsession\s+\d+|\bcommit\s+`?[0-9a-f]{7})")


def _sandbox(tmp_path: Path) -> Path:
    """A folder to run examples in, holding the example plug-ins at the path a clone
    has them (the pages run `--strategy-file strategies/examples/plugins.py:...`)."""
    shutil.copytree(ROOT / "strategies" / "examples", tmp_path / "strategies" / "examples")
    return tmp_path


# ------------------------------------------------------------------ the examples run


def test_there_are_runnable_examples():
    kinds = {ex.kind for ex in EXAMPLES}
    assert len(EXAMPLES) >= 15 and {"console", "python"} <= kinds
    for page in ("run.md", "compare.md", "tournament.md", "python.md"):
        assert any(ex.source == f"docs/{page}" for ex in EXAMPLES), page


@pytest.mark.slow
@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda ex: ex.name)
def test_example_runs_as_shown(ex, tmp_path):
    check(ex, _sandbox(tmp_path))


BROKEN_PAGE = """\
A made-up page whose examples are wrong.

<!-- runnable -->
```console
$ unosim variants
stacking             Progressive stacking: +3 on +3, never more
```

<!-- runnable -->
```console
$ unosim --players 11
unosim · variant official · 11 players
```

<!-- runnable -->
```python
print(1 + 1)
```

```text
3
```

<!-- runnable -->
```bash
unosim no-such-command
```
"""


@pytest.mark.subprocess
def test_a_broken_example_fails(tmp_path):
    """Each of the four made-up examples is wrong in its own way, and each fails: the
    runner does not pass what it cannot check."""
    examples = parse(BROKEN_PAGE, "broken.md")
    assert [ex.kind for ex in examples] == ["console", "console", "python", "bash"]
    for ex in examples:
        with pytest.raises(ExampleFailed):
            check(ex, tmp_path)


def test_a_correct_made_up_example_passes(tmp_path):
    page = ("<!-- runnable -->\n```console\n$ unosim variants\n...\n"
            "stacking             Progressive stacking: ... cannot stack\n...\n```\n")
    (ex,) = parse(page, "good.md")
    check(ex, tmp_path)


def test_ellipsis_matching():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert matches(["speed: ... games/s"], ["speed: 12 games/s"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a"], ["a", "b"])
    assert not matches(["x ... y"], ["x y z"])


def test_every_command_example_is_run_or_says_why_not():
    for path in SOURCES:
        lines = unmarked(path.read_text(encoding="utf-8"))
        assert lines == [], f"{path.name}: blocks at lines {lines} are neither run nor excused"
    assert unmarked("```bash\nunosim --games 1e9\n```\n") == [1]


def test_a_marker_without_a_block_is_an_error():
    with pytest.raises(ValueError):
        parse("<!-- runnable -->\ntext\n", "bad.md")


# ------------------------------------------------------------- every entry is there


def _hooks():
    sys.path.insert(0, str(DOCS))
    try:
        import hooks
    finally:
        sys.path.remove(str(DOCS))
    return hooks


def test_every_rule_key_has_its_reading():
    from unosim.simulate.rules import SCHEMA

    with open(DOCS / "rule_readings.toml", "rb") as f:
        readings = tomllib.load(f)
    assert sorted(set(SCHEMA) - set(readings)) == [], "rule keys without a reading"
    assert sorted(set(readings) - set(SCHEMA)) == [], "readings of keys that do not exist"
    assert all(len(v.split()) >= 5 for v in readings.values())


def test_the_rule_book_is_generated_from_the_schema():
    from unosim.simulate.rules import SCHEMA

    assert "<!-- rule-keys -->" in (DOCS / "rules.md").read_text()
    text = _hooks().rule_keys_markdown()
    for name, key in SCHEMA.items():
        assert f"### `{name}`" in text and key.help in text


def _nav_files(nav) -> list[str]:
    if isinstance(nav, list):
        return [f for item in nav for f in _nav_files(item)]
    if isinstance(nav, dict):
        return [f for v in nav.values() for f in _nav_files(v)]
    return [nav]


def _mkdocs_nav() -> list[str]:
    text = (ROOT / "mkdocs.yml").read_text()
    return re.findall(r"^\s*- (?:[^:\n]+: )?([\w./-]+\.md)\s*$", text, re.MULTILINE)


def test_every_command_has_a_page():
    nav = _mkdocs_nav()
    pages = {p.name: p.read_text() for p in PAGES}
    for name in COMMANDS:
        owner = [p for p, t in pages.items()
                 if re.search(rf"^#+ unosim {re.escape(name)}\b", t, re.MULTILINE)
                 or re.search(rf"^# unosim [\w, ]*\b{re.escape(name)}\b", t, re.MULTILINE)]
        own = f"{name}.md"
        assert own in pages or owner or own in nav, f"no docs page for `unosim {name}`"
        page = own if own in pages or own in nav else owner[0]
        assert page in nav, f"{page} (unosim {name}) is not in the nav"


def test_every_nav_page_exists():
    """The nav names only pages that exist."""
    for f in _mkdocs_nav():
        assert (DOCS / f).exists(), f


def test_the_cli_reference_is_generated():
    """docs/cli.md is generated from the commands (docs/hooks.py): a section per
    command with its whole help, usage and every option with its real default."""
    assert "<!-- cli-reference -->" in (DOCS / "cli.md").read_text()
    hooks = _hooks()
    text = hooks.cli_reference_markdown()
    ctx = click.Context(cli, info_name="unosim")
    assert "### unosim compare {#unosim-compare}" in text
    for name in COMMANDS:
        cmd = cli.get_command(ctx, name)
        assert f"{{#unosim-{name}}}" in text, name
        assert f"(#unosim-{name}): {hooks.command_summary(cmd)}\n" in text, name
        for para in hooks.help_paragraphs(cmd.help):
            assert para in text, (name, para)
        for p in cmd.params:
            if isinstance(p, click.Option) and not p.hidden:
                assert f"| `{p.opts[0]}" in text or f", {p.opts[0]}" in text, (name, p.opts)
    assert "Sentinel" not in text and "UNSET" not in text
    assert "| `--games TEXT` |" in text and "| `5e5` |" in text  # bench's default


def test_option_defaults_are_shown_as_help_would():
    hooks = _hooks()

    @click.command()
    @click.option("--flag", is_flag=True, help="A switch.")
    @click.option("--many", multiple=True, help="Repeatable.")
    @click.option("--n", default=3, help="A number.")
    @click.option("--name", help="No default.")
    @click.option("--progress/--no-progress", default=None, help="Tri-state.")
    @click.option("--colour/--no-colour", default=True, help="On by default.")
    @click.option("--when", default="now", show_default="at once", help="Worded.")
    def made_up(**kw):
        """First paragraph, wrapped
        over two lines.

        \b
        kept
        as lines

        Third.\f
        not shown"""

    ctx = click.Context(made_up, info_name="made-up")
    got = {p.name: hooks.option_default(p, ctx) for p in made_up.params}
    assert got == {"flag": "", "many": "", "n": "3", "name": "", "progress": "",
                   "colour": "colour", "when": "at once"}
    assert hooks.help_paragraphs(made_up.help) == [
        "First paragraph, wrapped over two lines.", "kept<br>\nas lines", "Third."]
    assert hooks.command_summary(made_up) == "First paragraph, wrapped over two lines."
    assert hooks._cell("a | b `x|y`") == "a &#124; b `x|y`"


# ------------------------------------------------------ no file the user does not have


def _all_help() -> dict[str, str]:
    runner = CliRunner()
    out = {"unosim": runner.invoke(cli, ["--help"]).output}
    for name in COMMANDS:
        r = runner.invoke(cli, [name, "--help"])
        assert r.exit_code == 0, (name, r.output)
        out[name] = r.output
    return out


def test_help_cites_no_internal_file_and_no_stray_percent():
    for name, text in _all_help().items():
        assert not INTERNAL.search(text), (name, INTERNAL.search(text).group())
        assert "%%" not in text, name
    helps = _all_help()
    assert "95%" in helps["run"]
    from unosim.common import DOCS_URL

    assert DOCS_URL in helps["unosim"], "unosim --help says where the documentation is"


@pytest.mark.slow
def test_reports_cite_no_internal_file(tmp_path):
    """A small run's table, JSON and files, and a small comparison's table."""
    runner = CliRunner()
    texts = []
    for args in (["run", "--games", "300", "--seed", "1", "--workers", "1", "--out",
                  str(tmp_path / "run"), "--report"],
                 ["run", "--games", "300", "--seed", "1", "--workers", "1", "--format", "json"],
                 ["compare", "official", "seven-o", "--games", "300", "--seed", "1",
                  "--workers", "1"]):
        r = runner.invoke(cli, args)
        assert r.exit_code == 0, r.output
        texts.append(r.output)
    assert "How the round unfolds" in texts[0] and "How the round unfolds: Verdicts" in texts[2]
    for f in (tmp_path / "run").iterdir():
        if f.suffix in (".json", ".csv", ".html"):
            texts.append(f.read_text())
    for t in texts:
        assert not INTERNAL.search(t), INTERNAL.search(t).group()


def _runtime_strings(path: Path) -> list[str]:
    """The string constants of a module that are not docstrings: what it can print,
    write or put in a chart."""
    tree = ast.parse(path.read_text())
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_output_string_cites_an_internal_file():
    """Every string a command can print or write (chart titles, JSON keys, headers),
    in every module but the compiled kernels, whose comments are for contributors."""
    for folder in ("unosim", "reports", "studies", "simulate", "strategies"):
        for path in (ROOT / folder).rglob("*.py"):
            for s in _runtime_strings(path):
                assert not INTERNAL.search(s), (str(path.relative_to(ROOT)), s[:80])


def test_the_documented_api_cites_no_internal_file():
    """The modules the API pages render and the example plug-ins a user reads,
    docstrings included."""
    for rel in ("unosim/api.py", "strategies/api.py", "runs/game.py",
                "strategies/examples/plugins.py"):
        text = (ROOT / rel).read_text()
        assert not INTERNAL.search(text), (rel, INTERNAL.search(text).group())


def test_readme_and_docs_cite_no_internal_file():
    for path in [*SOURCES, ROOT / "CHANGELOG.md", DOCS / "rule_readings.toml"]:
        text = path.read_text()
        assert not INTERNAL.search(text), (path.name, INTERNAL.search(text).group())


def test_readme_is_short_and_shows_the_five_jobs_first():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 200
    first = "\n".join(lines[:60])
    for cmd in ("unosim --variant", "unosim compare", "unosim settle", "unosim tournament"):
        assert cmd in first, cmd
    assert "api.simulate" in first and "--save-games" in first


def test_readme_counts_the_presets_that_ship():
    """The README's count of house-rule presets (every preset but official) is true."""
    from unosim.simulate.rules import preset_names

    text = " ".join((ROOT / "README.md").read_text().split())
    count = re.search(r"\((\d+) presets ship with it\)", text)
    assert count and int(count.group(1)) == len(preset_names()) - 1


def test_readme_links_into_the_docs_exist():
    """README links point at files of the repository (absolute URLs, so they also work
    on a package index page); each must exist."""
    text = (ROOT / "README.md").read_text()
    links = re.findall(r"https://github\.com/unosim/unosim/blob/main/([\w./-]+)", text)
    links += re.findall(r"https://raw\.githubusercontent\.com/unosim/unosim/main/([\w./-]+)",
                        text)
    assert links
    for rel in links:
        assert (ROOT / rel).exists(), rel


# ---------------------------------------------------------------------- completion


def _bash_complete(line: str) -> list[str]:
    """What bash's completion function, as `unosim` installs it, offers for ``line``
    (the cursor at its end): the real script, sourced in a real bash."""
    words = line.split(" ")
    script = f"""
eval "$(_UNOSIM_COMPLETE=bash_source unosim)"
COMP_WORDS=({" ".join(shlex_quote(w) for w in words)})
COMP_CWORD={len(words) - 1}
_unosim_completion unosim
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    env_path = str(Path(sys.executable).parent)
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120,
                       env={"PATH": env_path + ":/usr/bin:/bin", "HOME": str(Path.home())})
    assert p.returncode == 0, p.stderr
    return [w for w in p.stdout.splitlines() if w]


def shlex_quote(w: str) -> str:
    import shlex

    return shlex.quote(w) if w else "''"


@pytest.mark.subprocess
@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completes_commands_variants_and_strategies():
    assert _bash_complete("unosim com") == ["compare", "compile"]
    assert set(_bash_complete("unosim ")) >= set(COMMANDS)
    assert _bash_complete("unosim --variant stack") == ["stacking", "stacking-mixed"]
    assert _bash_complete("unosim compare official seven") == ["seven-o", "seven-rounds"]
    assert _bash_complete("unosim tournament random off") == ["offensive"]
    assert _bash_complete("unosim run --strategy colour") == ["colour-keeper"]
    assert "hand_size=" in _bash_complete("unosim --rule hand")
    # at the start of the line the options of run (the default command) complete too
    assert {"--variant", "--version"} <= set(_bash_complete("unosim --v"))


def test_completion_is_declared_once_in_options():
    """The commands' variant and strategy arguments use options.py's completers."""
    from unosim import options as opt

    for name, param in (("compare", "variant_names"), ("skill", "variant_names"),
                        ("tournament", "names"), ("tune", "strategy"), ("rules", "variant")):
        cmd = cli.get_command(click.Context(cli), name)
        p = next(x for x in cmd.params if x.name == param)
        assert p._custom_shell_complete in (opt.complete_variant, opt.complete_strategy), name


# ----------------------------------------------------- what a newcomer reads first

#: every page of the site, as the nav lists it (the notebook included)
NAV_PAGES = re.findall(r"^\s*- (?:[^:\n]+: )?([\w./-]+\.(?:md|ipynb))\s*$",
                       (ROOT / "mkdocs.yml").read_text(), re.MULTILINE)


def _help_commands() -> list[str]:
    """The commands `unosim --help` lists, read from its Commands section."""
    out = CliRunner().invoke(cli, ["--help"]).output
    return re.findall(r"^  ([a-z][\w-]*)\s", out.split("\nCommands:\n", 1)[1], re.MULTILINE)


def _readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text()
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_readme_lists_every_command():
    """Every command `unosim --help` lists has its row in the README's table (the
    listing commands share one: `unosim variants`, `rules`, `strategies`)."""
    commands = _help_commands()
    assert len(commands) >= 15 and "play" in commands and "run" in commands
    rows = [line for line in _readme_section("Commands").splitlines() if line.startswith("| `")]
    table = "\n".join(rows)
    missing = [c for c in commands
               if not re.search(rf"`unosim \[?{re.escape(c)}\b|, `{re.escape(c)}`", table)]
    assert missing == [], f"commands missing from the README's table: {missing}"


def test_readme_links_every_guide():
    """Every page of the site, each command's guide, the notebook and the changelog
    (as CHANGELOG.md) included, is linked from the README."""
    assert len(NAV_PAGES) >= 30 and "a-house-rule-question.ipynb" in NAV_PAGES
    text = (ROOT / "README.md").read_text()
    linked = set(re.findall(r"https://github\.com/unosim/unosim/blob/main/docs/([\w./-]+)", text))
    if "https://github.com/unosim/unosim/blob/main/CHANGELOG.md" in text:
        linked.add("changelog.md")
    missing = [p for p in NAV_PAGES if p not in linked]
    assert missing == [], f"pages the README does not link: {missing}"


def test_every_page_is_in_the_nav():
    """The README's list is checked against the nav; no page is left out of the nav."""
    assert sorted({p.name for p in PAGES} - set(NAV_PAGES)) == []


def test_install_page_lists_every_extra():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    text = (DOCS / "install.md").read_text()
    assert len(extras) >= 7
    for extra in extras:
        assert f'pip install "unosim[{extra}]"' in text, f"install.md: how to install {extra}"
        assert f"| `{extra}` |" in text, f"install.md: the table of extras lacks {extra}"


def test_install_says_how_to_install_before_it_is_on_an_index():
    """unosim is not published yet: the first install command a reader meets, on the
    README, the home page and the install page, is the clone."""
    clone = "git clone https://github.com/unosim/unosim && cd unosim"
    for path in (ROOT / "README.md", DOCS / "index.md", DOCS / "install.md"):
        text = path.read_text()
        first = re.search(r"pip install [^\n]*", text).start()
        assert clone in text[:first], f"{path.name}: the clone comes before any pip install"


def test_the_docs_home_leads_to_play_rl_the_strategy_guide_and_the_notebook():
    text = (DOCS / "index.md").read_text()
    assert "`unosim play`" in text
    for page in ("play.md", "reinforcement-learning.md", "write-a-strategy.md",
                 "a-house-rule-question.ipynb", "install.md"):
        assert f"]({page})" in text, page


# ------------------------------------------------ links to the published site

#: the documentation site; the code prints links into it (DOCS_URL)
SITE_URL = "https://unosim.github.io/unosim/"
#: what follows the site URL in a link: a page, maybe an anchor
_URL_PATH = r"([^\s\"'`<>;,)}\]]*)"
#: the folders whose code can print or write a link (help, reports, charts, errors)
CODE = ("unosim", "reports", "studies", "simulate", "strategies", "runs", "compiler",
        "checks")


def _printed_docs_urls() -> list[tuple[str, str]]:
    """(file, what follows the site URL) for every link to the documentation site in
    the code: ``{DOCS_URL}page.html#anchor`` in an f-string, ``DOCS_URL + "page"``, or
    the URL written out."""
    found = []
    for folder in CODE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            text, rel = path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))
            for pattern in (r"\{DOCS_URL\}" + _URL_PATH, r"DOCS_URL\s*\+\s*f?[\"']" + _URL_PATH,
                            re.escape(SITE_URL) + _URL_PATH):
                found += [(rel, m.group(1)) for m in re.finditer(pattern, text)]
    return found


def _slug(heading: str) -> str:
    """The anchor Python-Markdown's toc gives a heading (its default slugify)."""
    import unicodedata

    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _page_anchors(name: str) -> set[str]:
    """The anchors page ``name`` (the docs page NAME.md, or the notebook) has on the site: its
    headings' and the ones given by hand, with the generated parts (rule keys, CLI
    reference) filled in as docs/hooks.py fills them."""
    path = DOCS / name
    if name.endswith(".ipynb"):
        import json

        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
        hooks = _hooks()
        for marker, make in (("<!-- rule-keys -->", hooks.rule_keys_markdown),
                             ("<!-- presets -->", hooks.presets_markdown),
                             ("<!-- cli-reference -->", hooks.cli_reference_markdown)):
            if marker in text:
                text = text.replace(marker, make())
    text = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.DOTALL | re.MULTILINE)
    ids = set(re.findall(r"\{\s*#([\w-]+)", text)) | set(re.findall(r'\bid="([\w-]+)"', text))
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*(?:\{[^}]*\})?\s*$", text, re.MULTILINE):
        ids.add(_slug(heading))
    return ids


def _docs_target_problem(target: str) -> str | None:
    """Why ``SITE_URL + target`` is not a page (and anchor) the site builds, or None.

    The site builds each docs page NAME.md (or NAME.ipynb) as NAME.html (``use_directory_urls:
    false``), and copies the notebook itself beside it for download."""
    page, _, anchor = target.partition("#")
    if page in ("", "index.html"):
        name = "index.md"
    elif page.endswith(".html"):
        stem = page.removesuffix(".html")
        name = f"{stem}.md" if (DOCS / f"{stem}.md").exists() else f"{stem}.ipynb"
    elif page.endswith(".ipynb"):
        name = page
    else:
        return f"{target!r}: the site has no such path (its pages are NAME.html)"
    if "/" in name or not (DOCS / name).exists():
        return f"{target!r}: no page docs/{name}"
    if anchor and anchor not in _page_anchors(name):
        return f"{target!r}: docs/{name} has no anchor #{anchor}"
    return None


def test_the_docs_url_is_the_sites():
    """The URL the code prints is the site's (mkdocs.yml) and the package's
    (pyproject.toml), and the site's pages are files (NAME.html), as the links assume."""
    from unosim.common import DOCS_URL

    mkdocs = (ROOT / "mkdocs.yml").read_text()
    assert DOCS_URL == SITE_URL
    assert re.search(r"^site_url: (\S+)$", mkdocs, re.MULTILINE).group(1) == DOCS_URL
    assert re.search(r"^use_directory_urls: false$", mkdocs, re.MULTILINE)
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    assert urls["Documentation"] == DOCS_URL


def test_every_docs_url_the_code_prints_is_a_page_of_the_site():
    found = _printed_docs_urls()
    assert ("reports/feel.py", "metrics.html#game-feel") in found
    assert ("unosim/cli.py", "") in found
    problems = [f"{rel}: {p}" for rel, target in found
                if (p := _docs_target_problem(target))]
    assert problems == []


def test_every_docs_url_in_the_pages_is_a_page_of_the_site():
    """Links to the site written out in the pages and the README (a report's output
    shown on a page prints one), and in the notebook."""
    found = []
    for path in [*SOURCES, *DOCS.glob("*.ipynb")]:
        found += [(path.name, t) for t in re.findall(re.escape(SITE_URL) + _URL_PATH,
                                                     path.read_text(encoding="utf-8"))]
    assert any(name == "run.md" for name, _ in found)
    problems = [f"{name}: {p}" for name, target in found
                if (p := _docs_target_problem(target))]
    assert problems == []


def test_a_dead_docs_url_is_caught():
    assert _docs_target_problem("metrics.html#game-feel") is None
    assert _docs_target_problem("rules.html#rule-stacking") is None  # generated
    assert _docs_target_problem("a-house-rule-question.html#what-we-found") is None
    assert _docs_target_problem("") is None and _docs_target_problem("index.html") is None
    for dead in ("metrics/", "metrics", "metrics.html#no-such-anchor", "nope.html",
                 "rules.html#rule-no_such_key", "metrics.md"):
        assert _docs_target_problem(dead), dead


def test_the_notebooks_links_work_when_downloaded():
    """The downloaded .ipynb has no site around it: its links to the other pages are
    absolute (the site turns them back into relative ones, docs/hooks.py)."""
    import json

    for path in DOCS.glob("*.ipynb"):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        links = re.findall(r"\]\(([^)\s]+)\)", text)
        assert links, path.name
        relative = [u for u in links if not re.match(r"https?://", u)]
        assert relative == [], f"{path.name}: links that break once downloaded: {relative}"


def test_the_site_turns_absolute_links_relative():
    hooks = _hooks()
    html = ('<a href="https://unosim.github.io/unosim/rules.html#rule-stacking">r</a>'
            '<a href="https://unosim.github.io/unosim/">home</a>'
            '<a href="https://github.com/unosim/unosim">repo</a>')
    assert hooks.site_relative(html, SITE_URL) == (
        '<a href="rules.html#rule-stacking">r</a><a href="index.html">home</a>'
        '<a href="https://github.com/unosim/unosim">repo</a>')
    assert hooks.site_relative(html, SITE_URL.rstrip("/")) == hooks.site_relative(html,
                                                                                  SITE_URL)
