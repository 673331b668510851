"""mkdocs hooks: the parts of the docs that are generated from the code.

- ``<!-- rule-keys -->`` in a page becomes one entry per rule key of
  ``unosim.simulate.rules.SCHEMA`` (kind, default, values, the schema's line), each
  followed by its hand-written reading from ``docs/rule_readings.toml`` and anchored
  at ``rule_anchor(key)`` (``#rule-seven_o``, ``#rule-deck-zeros``), the anchor code
  comments cite (``docs/rules.md#rule-seven_o``);
- ``<!-- presets -->`` becomes the table of the presets in ``configs/``;
- ``<!-- cli-reference -->`` becomes the CLI reference: every command's whole help
  text, its usage and a table of its options with their real defaults (what
  ``unosim COMMAND --help`` says; see ``cli_reference_markdown``).

The notebook links to the other pages by absolute URL (so that the downloaded
``.ipynb`` keeps working links); on its page ``site_relative`` makes them relative again.

The API pages are rendered by mkdocstrings; ``griffe_docstrings.py`` turns the
docstrings' reST (``>>>`` examples, ``:class:`` roles) into Markdown first.
"""

from __future__ import annotations

import atexit
import inspect
import logging
import re
import shutil
import tempfile
import tomllib
from pathlib import Path
from typing import Any

try:
    from mkdocs.plugins import event_priority
except ImportError:  # the tests read the generated text without mkdocs installed
    def event_priority(priority: float) -> Any:
        return lambda f: f

log = logging.getLogger("mkdocs.hooks.unosim")
HERE = Path(__file__).resolve().parent


def _domain(k: Any) -> str:
    if k.kind == "choice":
        return "one of " + ", ".join(f"`{c}`" for c in k.choices)
    if k.kind == "bool":
        return "`true` or `false`"
    lo = "" if k.lo is None else f"{k.lo:g}"
    hi = "" if k.hi is None else f"{k.hi:g}"
    word = "a whole number" if k.kind == "int" else "a number"
    return f"{word} in {lo}..{hi}"


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def readings() -> dict[str, str]:
    with open(HERE / "rule_readings.toml", "rb") as f:
        return tomllib.load(f)


def rule_anchor(name: str) -> str:
    """The anchor of rule key ``name`` in the rule book: ``rule-`` and the key, its dots
    written as hyphens (``deck.zeros`` -> ``rule-deck-zeros``). The prefix keeps a key
    apart from the page's own headings (a key ``scoring`` and a heading "Scoring")."""
    return "rule-" + name.replace(".", "-")


def rule_keys_markdown() -> str:
    """One entry per rule key, in SCHEMA order (the order of `unosim rules --keys`)."""
    from unosim.simulate.rules import SCHEMA

    text = readings()
    out = ["| key | kind | default | values |", "|---|---|---|---|"]
    for name, k in SCHEMA.items():
        anchor = rule_anchor(name)
        out.append(f"| [`{name}`](#{anchor}) | {k.kind} | `{_show(k.default)}` | "
                   f"{_domain(k)} |")
    for name, k in SCHEMA.items():
        anchor = rule_anchor(name)
        out += ["", f"### `{name}` {{#{anchor}}}", "",
                f"*{k.help}.* {k.kind}, default `{_show(k.default)}`, {_domain(k)}.", "",
                " ".join(text.get(name, "").split())]
    return "\n".join(out) + "\n"


def presets_markdown() -> str:
    from unosim.simulate.rules import load_preset, preset_names

    out = ["| preset | what it plays | keys it sets |", "|---|---|---|"]
    for name in preset_names():
        desc, values = load_preset(name)
        keys = ", ".join(f"`{k}={_show(v)}`" for k, v in values.items()) or "none"
        out.append(f"| `{name}` | {desc} | {keys} |")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------- the CLI reference
# Generated here rather than by mkdocs-click, which shows click 8.2+'s internal
# "Sentinel.UNSET" as the default of every flag and repeatable option, and keeps only
# the first line of each command's summary (cut mid-sentence where it wraps).


def _unset() -> object:
    import click.core

    return getattr(click.core, "UNSET", object())  # click >= 8.2: "no default given"


def option_default(opt: Any, ctx: Any) -> str:
    """The default of ``opt`` as ``--help`` would show it with ``show_default``; ``""``
    where there is none (no default, ``None``, an off switch, nothing repeated)."""
    import enum

    if isinstance(opt.show_default, str):
        return opt.show_default
    resilient, ctx.resilient_parsing = ctx.resilient_parsing, True
    try:
        value = opt.get_default(ctx, call=False)
    finally:
        ctx.resilient_parsing = resilient
    if value is None or value is _unset() or callable(value):
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if isinstance(value, enum.Enum):
        return value.name
    if opt.is_flag and getattr(opt, "is_bool_flag", True) and opt.secondary_opts:
        return (opt.opts if value else opt.secondary_opts)[0].lstrip("-")
    if opt.is_flag and value is False:
        return ""
    if value == "":
        return '""'
    return str(value)


def help_paragraphs(text: str | None) -> list[str]:
    """The paragraphs of a click help text as Markdown: cut at ``\\f`` as click does,
    a ``\\b`` paragraph (kept as written by click) with its line breaks, any other
    paragraph as one line."""
    text = inspect.cleandoc(text or "").split("\f", 1)[0]
    out = []
    for para in re.split(r"\n\s*\n", text):
        lines = [ln.strip() for ln in para.strip().splitlines()]
        if not lines:
            continue
        if lines[0] == "\b":
            out.append("<br>\n".join(ln for ln in lines[1:] if ln))
        else:
            out.append(" ".join(lines))
    return [p for p in out if p]


def command_summary(cmd: Any) -> str:
    """The one sentence the command list shows: its ``short_help`` (what ``unosim
    --help`` lists, here whole), else the first paragraph of its help."""
    if cmd.short_help:
        return " ".join(cmd.short_help.split())
    paras = help_paragraphs(cmd.help)
    return paras[0] if paras else ""


def _cell(text: str) -> str:
    """A table cell: one line, and a ``|`` outside a code span written as an entity (a
    ``\\|`` would stay a backslash in Python-Markdown); in a code span the table
    extension keeps it whole."""
    parts = re.split(r"(`[^`]*`)", " ".join(text.split()))
    return "".join(p if p.startswith("`") else p.replace("|", "&#124;") for p in parts)


def _command_markdown(cmd: Any, ctx: Any, level: int) -> list[str]:
    import click

    path = ctx.command_path
    out = [f"{'#' * level} {path} {{#{path.replace(' ', '-')}}}", ""]
    for para in help_paragraphs(cmd.help):
        out += [para, ""]
    out += ["**Usage:**", "", "```text",
            f"{path} {' '.join(cmd.collect_usage_pieces(ctx))}".rstrip(), "```", ""]
    options = [p for p in cmd.get_params(ctx)
               if isinstance(p, click.Option) and not p.hidden]
    if options:
        out += ["**Options:**", "", "| Option | Description | Default |", "|---|---|---|"]
        for opt in options:
            names = opt.get_help_record(ctx)[0]
            extra = opt.get_help_extra(ctx) if hasattr(opt, "get_help_extra") else {}
            notes = "; ".join(extra[k] for k in ("range", "required") if k in extra)
            desc = " ".join(help_paragraphs(opt.help)) + (f" ({notes})" if notes else "")
            default = option_default(opt, ctx)
            out.append(f"| `{names}` | {_cell(desc)} | "
                       f"{f'`{default}`' if default else ''} |")
        out.append("")
    return out


def cli_reference_markdown() -> str:
    """The CLI reference: ``unosim`` with its command list, then each command."""
    import click

    from unosim.cli import cli

    root = click.Context(cli, info_name="unosim", **cli.context_settings)
    out = _command_markdown(cli, root, 2)
    names = cli.list_commands(root)
    commands = {n: cli.get_command(root, n) for n in names}
    out += ["**Commands:**", ""]
    out += [f"- [`{n}`](#unosim-{n}): {command_summary(c)}" for n, c in commands.items()
            if not c.hidden]
    out.append("")
    for name, cmd in commands.items():
        if not cmd.hidden:
            ctx = click.Context(cmd, info_name=name, parent=root, **cmd.context_settings)
            out += _command_markdown(cmd, ctx, 3)
    return "\n".join(out) + "\n"


def _source_tree() -> str:
    """A copy of the sources laid out as installed (``unosim/simulate`` for
    ``simulate/``, per ``package-dir`` in pyproject.toml), so that mkdocstrings finds
    ``unosim.runs.game`` in a clone without importing anything."""
    root = HERE.parent
    tmp = Path(tempfile.mkdtemp(prefix="unosim-docs-src-"))
    keep = shutil.ignore_patterns("__pycache__", "*.pyc")
    with open(root / "pyproject.toml", "rb") as f:
        package_dir = tomllib.load(f)["tool"]["setuptools"]["package-dir"]
    for package, folder in package_dir.items():
        shutil.copytree(root / folder, tmp.joinpath(*package.split(".")), ignore=keep,
                        dirs_exist_ok=True)
    atexit.register(shutil.rmtree, tmp, True)
    return str(tmp)


@event_priority(100)  # before mkdocstrings, which makes its handlers in its on_config
def on_config(config: Any) -> Any:
    plugin = config["plugins"].get("mkdocstrings")
    if plugin is not None:
        python = plugin.config["handlers"].setdefault("python", {})
        python["paths"] = [_source_tree()]
        options = python.setdefault("options", {})
        options["extensions"] = [*options.get("extensions", []),
                                 str(HERE / "griffe_docstrings.py") + ":ReSTToMarkdown"]
    return config


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if "<!-- rule-keys -->" in markdown:
        markdown = markdown.replace("<!-- rule-keys -->", rule_keys_markdown())
    if "<!-- presets -->" in markdown:
        markdown = markdown.replace("<!-- presets -->", presets_markdown())
    if "<!-- cli-reference -->" in markdown:
        markdown = markdown.replace("<!-- cli-reference -->", cli_reference_markdown())
    return markdown


def site_relative(html: str, site_url: str) -> str:
    """``html`` with every link to a page of the published site (``site_url`` and a
    path) made relative: ``https://.../unosim/rules.html#rule-stacking`` becomes
    ``rules.html#rule-stacking``, the site root ``index.html``.

    The notebook links to the other pages by absolute URL, so that its links work in the
    downloaded ``.ipynb`` as well; on the site itself they point at the pages beside it,
    so that a site built from a checkout works from disk and before it is published, and
    the site's link check reads them."""
    if not site_url:
        return html
    base = site_url if site_url.endswith("/") else site_url + "/"
    return re.sub(r'href="' + re.escape(base) + r'([^"]*)"',
                  lambda m: f'href="{m.group(1) or "index.html"}"', html)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri.endswith(".ipynb"):
        html = site_relative(html, config.get("site_url") or "")
    return html
