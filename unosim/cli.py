"""The ``unosim`` command line: a thin click facade over simulate/ and reports/.

Bad input never shows a traceback: every usage or rule error is printed as one
line, ``unosim: error: ...``, with exit code 2.
"""

from __future__ import annotations

import math
import os
import re
import sys
from pathlib import Path
from typing import Any

import click

from unosim import __version__
from unosim.errors import UnosimError

METRICS_HELP = """\b
Metrics (RULES.md section 9):
  turns          turns taken: a play, or a draw (then playing the drawn card
                 or not); skipped players take no turn; under stacking,
                 taking the pending penalty is a turn
  cards played   cards moved from a hand to the discard pile (not the first
                 flipped card)
  drawn no play  cards drawn for want of a play or by choice
  drawn penalty  Draw Two, Wild Draw Four, stacks, challenges, UNO penalties
  winner points  what the scoring rule awards the round winner
  capped         rounds stopped at the turn cap (rule turn_cap), no winner
  jump-ins, swaps, deflections, refill cards: events of those house rules
  longest draw chain  draw cards played in a row on one penalty (stacking)
  places         finishing order under elimination (1 = first out)
"""


def parse_games(text: str) -> int:
    """``1e6``, ``1000000`` and ``1_000_000`` all mean one million games."""
    s = str(text).strip().replace("_", "")
    if not re.fullmatch(r"\d+(\.\d+)?([eE]\+?\d+)?", s):
        raise UnosimError(f"--games must be a positive whole number such as 1e6, got {text!r}")
    try:
        value = float(s) if any(c in s for c in ".eE") else int(s)
    except (ValueError, OverflowError):
        raise UnosimError(f"--games: cannot read {text!r} as a number") from None
    if isinstance(value, float) and (math.isinf(value) or value != math.floor(value)):
        raise UnosimError(f"--games must be a whole number of games, got {text!r}")
    value = int(value)
    if value < 1:
        raise UnosimError(f"--games must be at least 1, got {text!r}")
    if value > 10**12:
        raise UnosimError(f"--games must be at most 1e12, got {text!r}")
    return value


class DefaultRunGroup(click.Group):
    """A group whose default subcommand is ``run``: ``unosim --games 1e6`` works."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        top_level = ("--help", "-h", "--version")
        if not args or (args[0] not in self.commands and args[0] not in top_level):
            args = ["run", *args]
        return super().parse_args(ctx, args)


@click.group(cls=DefaultRunGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="unosim")
def cli() -> None:
    """Monte Carlo simulator for UNO and its house rules.

    Without a subcommand, runs a simulation (`unosim run`), e.g.
    `unosim --variant stacking --games 1e6`.
    """


def _seats(players: int, strategy: str, seat: tuple[str, ...]) -> list[Any]:
    from unosim.strategies.registry import parse_strategy

    seats = [parse_strategy(strategy)] * players
    for item in seat:
        idx, eq, name = item.partition("=")
        if not eq or not idx.strip().isdigit():
            raise UnosimError(f"--seat expects N=STRATEGY, got {item!r}")
        i = int(idx)
        if not 0 <= i < players:
            raise UnosimError(f"--seat {item}: seat must be within 0..{players - 1}")
        seats[i] = parse_strategy(name)
    return seats


def _resolve(variant: tuple[str, ...], rule: tuple[str, ...], players: int | None) -> Any:
    from unosim.simulate.rules import parse_assignment, resolve

    overrides = [parse_assignment(r) for r in rule]
    if players is not None:
        overrides.insert(0, ("players", players))
    return resolve(list(variant), overrides)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _prepare_out(out: str | None) -> Path | None:
    if out is None:
        return None
    p = Path(out)
    try:
        p.mkdir(parents=True, exist_ok=True)
        probe = p / ".unosim-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise UnosimError(f"--out {out}: cannot write there ({e.strerror or e})") from None
    return p


def _match_options(f: Any) -> Any:
    """--mode, --target-score and --max-rounds (shared by run and compare)."""
    f = click.option("--max-rounds", type=int, default=None,
                     help="Matches: stop a match after this many rounds, counted as capped "
                          "(default 1000).")(f)
    f = click.option("--target-score", type=int, default=None,
                     help="Matches: the target score (overrides the rule target_score).")(f)
    f = click.option("--mode", type=click.Choice(["round", "match"]), default="round",
                     show_default=True,
                     help="round: single rounds; match: whole matches to the target score, "
                          "scored by the rule `scoring`.")(f)
    return f


def _check_save_games(path: str | None) -> Path | None:
    if path is None:
        return None
    from unosim.reports.parquet import check_parquet_path

    return check_parquet_path(path)


@cli.command(epilog=METRICS_HELP)
@click.option("--games", "games_text", default="100000", show_default=True,
              help="Rounds to play: 1e6, 1000000 or 1_000_000.")
@click.option("--players", type=click.IntRange(2, 10), default=None,
              help="Players at the table (2..10); default from the rules (4).")
@click.option("--variant", multiple=True, metavar="NAME",
              help="Preset from configs/ (repeatable; later ones win). See `unosim variants`.")
@click.option("--rule", multiple=True, metavar="KEY=VALUE",
              help="Override one rule key (repeatable, applied last).")
@click.option("--strategy", default="random", show_default=True,
              help="Strategy for every seat, e.g. random or offensive:bluff=0.3.")
@click.option("--seat", multiple=True, metavar="N=NAME", help="Strategy for seat N (0-based).")
@click.option("--seed", type=int, default=None,
              help="Base seed; the same seed gives the same numbers. Default: random, printed.")
@click.option("--workers", type=int, default=None, help="Threads (default: all cores).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Directory for summary.json and summary.csv.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
@_match_options
@click.option("--save-games", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.parquet", help="Also write one row per game (or match) as Parquet.")
@click.option("--report", is_flag=True,
              help="With --out: also write the charts (PNG, SVG) and a self-contained "
                   "report.html.")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Where games run: this machine's cores, or a Dask "
              "cluster (pip install 'unosim[dask]').")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler (default: $DASK_SCHEDULER_ADDRESS, else a local cluster).")
@click.option("--precision", type=float, default=None, metavar="X",
              help="Stop once seat 0's win-rate 95%% CI half-width is at most X (e.g. 0.001); "
                   "--games is then the most to play.")
def run(games_text: str, players: int | None, variant: tuple[str, ...], rule: tuple[str, ...],
        strategy: str, seat: tuple[str, ...], seed: int | None, workers: int | None, fmt: str,
        out: str | None, progress: bool | None, mode: str = "round",
        target_score: int | None = None, max_rounds: int | None = None,
        save_games: str | None = None, report: bool = False, backend: str = "local",
        scheduler: str | None = None, precision: float | None = None) -> None:
    """Simulate rounds (or whole matches, --mode match) under a variant and report the
    statistics."""
    games = parse_games(games_text)
    from unosim.reports.commands import check_mode_options, target_override

    rules = _resolve(variant, (*rule, *target_override(target_score, mode)), players)
    check_mode_options(mode, max_rounds)
    seats = _seats(rules["players"], strategy, seat)
    out_dir = _prepare_out(out)
    save_path = _check_save_games(save_games)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    if seed < 0:
        raise UnosimError(f"--seed must be 0 or more, got {seed}")
    if mode == "match" or save_path is not None or report:
        from unosim.reports.commands import run_extended

        show = progress if progress is not None else sys.stderr.isatty()
        run_extended(name="+".join(variant) or "official", rules=rules, seats=seats,
                     games=games, seed=seed, workers=workers, fmt=fmt, out_dir=out_dir,
                     mode=mode, max_rounds=max_rounds, save_games=save_path, report=report,
                     show_progress=show)
        return

    from unosim.reports.render import render_json, render_table
    from unosim.reports.summary import summarize
    from unosim.simulate.runner import run as run_games

    if precision is not None and not 0 < precision < 0.5:
        raise UnosimError(f"--precision must be between 0 and 0.5, got {precision}")
    show = progress if progress is not None else sys.stderr.isatty()
    if backend == "dask":
        if precision is not None:
            raise UnosimError("--precision works with --backend local only")
        from unosim.simulate.distributed import connect, run_dask

        client = connect(scheduler)
        try:
            result = _with_progress(show, games, lambda cb: run_dask(
                rules, seats, games, seed, client, on_batch=cb))
        finally:
            client.close()
    else:
        result = _with_progress(show, games, lambda cb, totals: run_games(
            rules, seats, games, seed, workers, on_batch=cb, on_totals=totals,
            precision=precision), with_totals=True)
    summary = summarize(result, "+".join(variant) or "official")
    summary["backend"] = backend
    summary["precision_target"] = precision
    summary["precision_reached"] = result.precision_reached
    text = render_json(summary) if fmt == "json" else render_table(summary)
    click.echo(text)
    if out_dir is not None:
        from unosim.reports.export import summary_csv

        _write_atomic(out_dir / "summary.json", render_json(summary) + "\n")
        _write_atomic(out_dir / "summary.csv", summary_csv(summary))
    if result.partial:
        sys.exit(130)


def _with_progress(show: bool, total: int, job: Any, with_totals: bool = False) -> Any:
    """Run ``job(on_batch)`` (``job(on_batch, on_totals)`` with ``with_totals``) with a
    progress bar on stderr: games done, ETA, and with totals the running estimate
    of seat 0's win rate with its 95% interval."""
    if not show:
        return job(None, None) if with_totals else job(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from unosim.simulate.runner import seat0_half_width

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=total)

        def totals(agg: Any) -> None:
            rate = agg.wins[0] / agg.games
            half = seat0_half_width(agg)
            bar.update(task, description=f"seat 0 wins {100 * rate:.2f}% ± {100 * half:.2f}")

        advance = lambda n: bar.advance(task, n)  # noqa: E731
        return job(advance, totals) if with_totals else job(advance)


@cli.command(epilog=METRICS_HELP)
@click.argument("variant_names", nargs=-1, required=True, metavar="VARIANT...")
@click.option("--games", "games_text", default="100000", show_default=True,
              help="Games (or matches) per variant: 1e6, 1000000 or 1_000_000.")
@click.option("--players", type=click.IntRange(2, 10), default=None,
              help="Players at the table for every variant (2..10).")
@click.option("--rule", multiple=True, metavar="KEY=VALUE",
              help="Override one rule key in every variant (repeatable).")
@click.option("--strategy", default="random", show_default=True,
              help="Strategy for every seat.")
@click.option("--seat", multiple=True, metavar="N=NAME", help="Strategy for seat N (0-based).")
@click.option("--seed", type=int, default=None,
              help="Base seed, shared by every variant (common random numbers).")
@click.option("--workers", type=int, default=None, help="Threads (default: all cores).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Directory for summary.json, summary.csv, charts (PNG, SVG), report.html.")
@_match_options
@click.option("--save-games", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.parquet",
              help="Also write one row per game (or match) of every variant as Parquet.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
def compare(variant_names: tuple[str, ...], games_text: str, players: int | None,
            rule: tuple[str, ...], strategy: str, seat: tuple[str, ...], seed: int | None,
            workers: int | None, fmt: str, out: str | None, mode: str,
            target_score: int | None, max_rounds: int | None, save_games: str | None,
            progress: bool | None) -> None:
    """Compare variants side by side: VARIANT... are presets (NAME or NAME+NAME), the
    first is the baseline. Same seed for all (common random numbers), paired
    differences with 95% intervals, and a verdict per headline metric."""
    from unosim.reports.commands import (
        build_variants,
        check_mode_options,
        compare_command,
        target_override,
    )

    games = parse_games(games_text)
    extra = (*rule, *target_override(target_score, mode))
    check_mode_options(mode, max_rounds)
    variants = build_variants(variant_names, lambda presets: _resolve(presets, extra, players),
                              lambda n: _seats(n, strategy, seat))
    out_dir = _prepare_out(out)
    save_path = _check_save_games(save_games)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
        click.echo(f"seed {seed} (drawn at random; pass --seed to repeat)", err=True)
    if seed < 0:
        raise UnosimError(f"--seed must be 0 or more, got {seed}")
    show = progress if progress is not None else sys.stderr.isatty()
    compare_command(names=variant_names, games=games, variants=variants, seed=seed,
                    workers=workers, fmt=fmt, out_dir=out_dir, mode=mode,
                    max_rounds=max_rounds, save_games=save_path, show_progress=show)


@cli.command()
def variants() -> None:
    """List the variant presets with a one-line description."""
    from unosim.simulate.rules import load_preset, preset_names

    names = preset_names()
    width = max(len(n) for n in names)
    for name in names:
        click.echo(f"{name:<{width}}  {load_preset(name)[0]}")


@cli.command()
def strategies() -> None:
    """List the built-in strategies."""
    import textwrap

    from unosim.strategies.registry import BUILTINS

    for name, (_, desc) in BUILTINS.items():
        click.echo(name)
        click.echo(textwrap.indent(textwrap.fill(desc, 76), "  "))
    click.echo("\nParameters for any strategy: NAME:bluff=P,challenge=P,forget=P (each 0..1)")


@cli.command()
@click.argument("variant", nargs=-1)
@click.option("--rule", multiple=True, metavar="KEY=VALUE", help="Override one rule key.")
@click.option("--keys", is_flag=True, help="List every rule key with its default and meaning.")
def rules(variant: tuple[str, ...], rule: tuple[str, ...], keys: bool) -> None:
    """Print the resolved rule set of VARIANT... (changes from official marked *)."""
    from unosim.simulate.rules import SCHEMA

    if keys:
        for k in SCHEMA.values():
            vals = "|".join(k.choices) if k.choices else k.kind
            click.echo(f"{k.name:<26} {str(k.default):<13} {vals:<40} {k.help}")
        return
    resolved = _resolve(variant, rule, None)
    changed = resolved.changed()
    for key, value in resolved.values.items():
        mark = "*" if key in changed else " "
        shown = str(value).lower() if isinstance(value, bool) else value
        click.echo(f"{mark} {key:<26} {shown}")


@cli.command()
@click.option("--games", "games_text", default="5e5", show_default=True,
              help="Games per measurement.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@click.option("--skip-compile", is_flag=True, help="Do not measure cold compile time.")
@click.option("--quick", is_flag=True, help="Official rules at 4 players only.")
@click.option("--memory-games", default=None, metavar="N",
              help="Also measure peak memory of `unosim run` at 1e6 and at N games (e.g. 1e8).")
def bench(games_text: str, fmt: str, skip_compile: bool, quick: bool,
          memory_games: str | None) -> None:
    """Benchmark report: games/s on 1 and all cores (official, stacking, seven-o,
    jump-in at 2, 4, 6 players), parallel efficiency, JIT times, peak memory."""
    from unosim.bench import render_bench, run_bench

    mem = parse_games(memory_games) if memory_games else None
    report = run_bench(parse_games(games_text), measure_cold=not skip_compile,
                       matrix=not quick, memory_games=mem)
    click.echo(render_bench(report, fmt))


def main(argv: list[str] | None = None) -> None:
    """Entry point: one-line errors with exit code 2, never a traceback for bad input."""
    try:
        rv = cli.main(args=argv, prog_name="unosim", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("unosim: aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        click.echo(f"unosim: error: {e.format_message()}".replace("\n", " "), err=True)
        sys.exit(2)
    except UnosimError as e:
        click.echo(f"unosim: error: {e}".replace("\n", " "), err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("unosim: interrupted", err=True)
        sys.exit(130)
    sys.exit(rv if isinstance(rv, int) else 0)
