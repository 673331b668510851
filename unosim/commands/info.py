"""The listing commands: ``variants``, ``rules`` and ``strategies`` (nothing is played)."""

from __future__ import annotations

import click

from unosim import options as opt
from unosim.runs import inputs


@click.command()
@opt.listing_dry_run
def variants() -> None:
    """List the variant presets with a one-line description."""
    from unosim.simulate.rules import load_preset, preset_names

    names = preset_names()
    width = max(len(n) for n in names)
    for name in names:
        click.echo(f"{name:<{width}}  {load_preset(name)[0]}")


@click.command()
@opt.strategy_file
@opt.listing_dry_run
def strategies() -> None:
    """List the built-in strategies (and plug-ins given with --strategy-file)."""
    import textwrap
    from pathlib import Path

    import unosim.strategies as pkg
    from unosim.strategies.registry import (
        BUILTINS,
        PARAMS_HELP,
        PLUGINS,
        STRATEGY_PARAMS,
        params_help,
        tuned_label,
    )

    for name, (_, desc) in BUILTINS.items():
        click.echo(name)
        click.echo(textwrap.indent(textwrap.fill(desc, 76), "  "))
        if name == "tuned":
            for size, players in (("heads-up", 2), ("3 or more players", 4)):
                click.echo(f"  {size} (the same string, to copy):")
                click.echo(f"    {tuned_label(players)}")  # one line, never wrapped
        elif name in STRATEGY_PARAMS:
            click.echo("  parameters (default, range):")
            click.echo(textwrap.indent(params_help(name), "    "))
    for name, plug in PLUGINS.items():
        kind = "Python strategy" if plug.python else "plug-in"
        click.echo(f"{name}  ({kind}, {plug.source})")
        fn = plug.fn.target if plug.python else plug.fn.py_func
        doc = (fn.__doc__ or "").strip()
        if doc:
            click.echo(textwrap.indent(textwrap.fill(" ".join(doc.split()), 76), "  "))
    click.echo("")
    click.echo(textwrap.fill(PARAMS_HELP, 78))
    example = Path(pkg.__file__).parent / "examples" / "plugins.py"
    click.echo("")
    click.echo(textwrap.fill(
        "Your own strategy: a Python function of the seat's view (or a class with "
        "choose, new_game and observe), or an @numba.njit function f(G, rng) -> move, "
        "loaded with --strategy-file PATH.py:NAME; see the docs' Write a strategy page, "
        f"unosim.strategies.api, and the examples beside {example}.", 78))


@click.command(short_help="Print the resolved rule set of variants (changes marked *).")
@click.argument("variant", nargs=-1, shell_complete=opt.complete_variant)
@opt.rule
@click.option("--keys", is_flag=True, help="List every rule key with its default and meaning.")
@opt.listing_dry_run
def rules(variant: tuple[str, ...], rule: tuple[str, ...], keys: bool) -> None:
    """Print the resolved rule set of VARIANT... (changes from official marked *)."""
    from unosim.simulate.rules import SCHEMA

    if keys:
        for k in SCHEMA.values():
            vals = "|".join(k.choices) if k.choices else k.kind
            click.echo(f"{k.name:<26} {str(k.default):<13} {vals:<40} {k.help}")
        return
    resolved = inputs.resolve_rules(variant, rule, None)
    changed = resolved.changed()
    for key, value in resolved.values.items():
        mark = "*" if key in changed else " "
        shown = str(value).lower() if isinstance(value, bool) else value
        click.echo(f"{mark} {key:<26} {shown}")
