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


def parse_games(text: str, option: str = "--games") -> int:
    """``1e6``, ``1000000`` and ``1_000_000`` all mean one million games (``option``
    names the option in errors)."""
    raw = str(text).strip()
    if raw.startswith("_") or raw.endswith("_"):
        raise UnosimError(f"{option} must be a positive whole number such as 1e6, got {text!r}")
    s = raw.replace("_", "")
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?([eE]\+?[0-9]+)?", s) or "__" in raw:
        raise UnosimError(f"{option} must be a positive whole number such as 1e6, got {text!r}")
    try:
        value = float(s) if any(c in s for c in ".eE") else int(s)
    except (ValueError, OverflowError):
        raise UnosimError(f"{option}: cannot read {text!r} as a number") from None
    if isinstance(value, float) and (math.isinf(value) or value != math.floor(value)):
        raise UnosimError(f"{option} must be a whole number of games, got {text!r}")
    value = int(value)
    if value < 1:
        raise UnosimError(f"{option} must be at least 1, got {text!r}")
    if value > 10**12:
        raise UnosimError(f"{option} must be at most 1e12, got {text!r}")
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


def _load_strategy_files(ctx: click.Context, param: Any, value: tuple[str, ...]) -> None:
    if value:
        from unosim.strategies.plugins import load_plugins

        load_plugins(value)


def _strategy_file_option(f: Any) -> Any:
    """--strategy-file PATH.py:NAME (repeatable): load a plug-in strategy, usable as NAME.
    Loaded before the other options are read, so --seat and --strategy know NAME."""
    return click.option("--strategy-file", multiple=True, metavar="PATH.py:NAME",
                        callback=_load_strategy_files, expose_value=False, is_eager=True,
                        help="Load the plug-in strategy NAME (an @numba.njit function "
                             "f(G, rng) -> move) from PATH.py; then use NAME like a built-in "
                             "(repeatable; see `unosim strategies`).")(f)


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
              help="Preset from configs/ (see `unosim variants`) or a TOML file of the same "
                   "format, e.g. my-rules.toml (repeatable; later ones win).")
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
@_strategy_file_option
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
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR",
              help="Finish the interrupted run whose checkpoint is in DIR (kept there by "
                   "--out DIR): same seed, rules and games; takes only --workers, --format "
                   "and --progress.")
@click.pass_context
def run(ctx: click.Context, games_text: str, players: int | None, variant: tuple[str, ...],
        rule: tuple[str, ...], strategy: str, seat: tuple[str, ...], seed: int | None,
        workers: int | None, fmt: str, out: str | None, progress: bool | None,
        mode: str = "round",
        target_score: int | None = None, max_rounds: int | None = None,
        save_games: str | None = None, report: bool = False, backend: str = "local",
        scheduler: str | None = None, precision: float | None = None,
        resume_dir: str | None = None) -> None:
    """Simulate rounds (or whole matches, --mode match) under a variant and report the
    statistics. Ctrl-C or SIGTERM stops between batches with the partial report; with
    --out DIR a checkpoint is kept there, and --resume DIR finishes the run."""
    from unosim import resume as resumable

    if resume_dir is not None:
        _refuse_with_resume(ctx)
        resumable.resume(resume_dir, workers, fmt,
                         progress if progress is not None else sys.stderr.isatty())
        return
    games = parse_games(games_text)
    from unosim.reports.commands import check_mode_options, target_override

    rules = _resolve(variant, (*rule, *target_override(target_score, mode)), players)
    check_mode_options(mode, max_rounds)
    seats = _seats(rules["players"], strategy, seat)
    out_dir = _prepare_out(out)
    resumable.refuse_unfinished(out_dir)
    save_path = _check_save_games(save_games)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    if seed < 0:
        raise UnosimError(f"--seed must be 0 or more, got {seed}")
    if precision is not None and not 0 < precision < 0.5:
        raise UnosimError(f"--precision must be between 0 and 0.5, got {precision}")
    if mode == "match" and precision is not None:
        raise UnosimError("--precision applies to rounds (--mode round)")
    if precision is not None and (save_path is not None or report):
        raise UnosimError("--precision cannot be combined with --save-games or --report")
    if scheduler is not None and backend != "dask":
        raise UnosimError("--scheduler applies to --backend dask")
    if backend == "local" and save_path is None and not report:
        # on this machine: Ctrl-C/SIGTERM keep a checkpoint in --out for --resume
        resumable.run_checkpointed(
            name="+".join(variant) or "official", mode=mode, rules=rules, seats=seats,
            games=games, seed=seed, workers=workers, fmt=fmt, out_dir=out_dir,
            max_rounds=max_rounds, precision=precision,
            show_progress=progress if progress is not None else sys.stderr.isatty())
        return
    if mode == "match" or save_path is not None or report:
        from unosim.reports.commands import run_extended

        show = progress if progress is not None else sys.stderr.isatty()
        run_extended(name="+".join(variant) or "official", rules=rules, seats=seats,
                     games=games, seed=seed, workers=workers, fmt=fmt, out_dir=out_dir,
                     mode=mode, max_rounds=max_rounds, save_games=save_path, report=report,
                     show_progress=show)
        return

    # --backend dask (the local backend returned above)
    from unosim.reports.render import render_json, render_table
    from unosim.reports.summary import summarize
    from unosim.simulate.distributed import connect, run_dask

    if precision is not None:
        raise UnosimError("--precision works with --backend local only")
    show = progress if progress is not None else sys.stderr.isatty()
    client = connect(scheduler)
    try:
        result = _with_progress(show, games, lambda cb: run_dask(
            rules, seats, games, seed, client, on_batch=cb))
    finally:
        client.close()
    summary = summarize(result, "+".join(variant) or "official")
    summary["backend"] = backend
    text = render_json(summary) if fmt == "json" else render_table(summary)
    click.echo(text)
    if out_dir is not None:
        from unosim.reports.atomic import write_text_atomic
        from unosim.reports.export import summary_csv

        write_text_atomic(out_dir / "summary.json", render_json(summary) + "\n")
        write_text_atomic(out_dir / "summary.csv", summary_csv(summary))
    if result.partial:
        sys.exit(130)


def _with_progress(show: bool, total: int, job: Any, with_totals: bool = False) -> Any:
    """Run ``job(on_batch)`` (``job(on_batch, on_totals)`` with ``with_totals``) with a
    progress bar on stderr: games done, ETA, and with totals the running estimate
    of seat 0's win rate with its 95% interval. Ctrl-C and SIGTERM take effect
    between batches only, through ``on_batch`` (see unosim/interrupt.py)."""
    from unosim.interrupt import StopSignals

    with StopSignals() as stop:
        return _with_progress_bar(show, total, job, with_totals, stop)


def _with_progress_bar(show: bool, total: int, job: Any, with_totals: bool, stop: Any) -> Any:
    if not show:
        cb = stop.wrap(None, total)
        return job(cb, None) if with_totals else job(cb)
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

        advance = stop.wrap(lambda n: bar.advance(task, n), total)
        return job(advance, totals) if with_totals else job(advance)


def _check_workers(workers: int | None) -> None:
    from unosim.simulate.runner import check_workers

    check_workers(workers)


#: the options `run --resume DIR` takes; the others come from the checkpoint
_RESUME_OPTIONS = {"resume_dir", "workers", "fmt", "progress"}


def _refuse_with_resume(ctx: click.Context) -> None:
    from click.core import ParameterSource

    for param in ctx.command.params:
        if param.name in _RESUME_OPTIONS or not isinstance(param, click.Option):
            continue
        if ctx.get_parameter_source(param.name) == ParameterSource.COMMANDLINE:
            raise UnosimError(
                f"--resume takes the run's settings from its checkpoint; drop {param.opts[0]} "
                "(only --workers, --format and --progress go with --resume)"
            )


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
@_strategy_file_option
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
    if len(variants) < 2:  # checked here too, so bad input never prints the seed line
        raise UnosimError("compare needs at least two variants, e.g. `unosim compare official "
                          "stacking`")
    _check_workers(workers)
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
@_strategy_file_option
def strategies() -> None:
    """List the built-in strategies (and plug-ins given with --strategy-file)."""
    import textwrap
    from pathlib import Path as _Path

    import unosim.strategies as pkg
    from unosim.strategies.registry import BUILTINS, PARAMS_HELP, PLUGINS

    for name, (_, desc) in BUILTINS.items():
        click.echo(name)
        click.echo(textwrap.indent(textwrap.fill(desc, 76), "  "))
    for name, plug in PLUGINS.items():
        click.echo(f"{name}  (plug-in, {plug.source})")
        doc = (plug.fn.py_func.__doc__ or "").strip()
        if doc:
            click.echo(textwrap.indent(textwrap.fill(" ".join(doc.split()), 76), "  "))
    click.echo("")
    click.echo(textwrap.fill(PARAMS_HELP, 78))
    example = _Path(pkg.__file__).parent / "examples" / "plugins.py"
    click.echo("")
    click.echo(textwrap.fill(
        "Your own strategy: an @numba.njit function f(G, rng) -> move, loaded with "
        "--strategy-file PATH.py:NAME; the interface is documented in "
        f"unosim.strategies.api, examples in {example}.", 78))


@cli.command()
@click.argument("names", nargs=-1, required=True, metavar="STRATEGY...")
@click.option("--players", type=click.IntRange(2, 10), default=None,
              help="Players at each table (2..10); default from the rules (4).")
@click.option("--games", "games_text", default="100000", show_default=True,
              help="Rounds in all, split equally over the lineups (rounded up).")
@click.option("--variant", multiple=True, metavar="NAME", help="Preset (repeatable).")
@click.option("--rule", multiple=True, metavar="KEY=VALUE", help="Override one rule key.")
@click.option("--seating", type=click.Choice(["rotations", "permutations"]),
              default="rotations", show_default=True,
              help="Lineups: cyclic rotations of each table, or every seat order.")
@click.option("--seed", type=int, default=None,
              help="Base seed; the same seed gives the same numbers. Default: random, printed.")
@click.option("--workers", type=int, default=None, help="Threads (default: all cores).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
@_strategy_file_option
def tournament(names: tuple[str, ...], players: int | None, games_text: str,
               variant: tuple[str, ...], rule: tuple[str, ...], seating: str,
               seed: int | None, workers: int | None, fmt: str,
               progress: bool | None) -> None:
    """Play STRATEGY... (built-ins, NAME:params, or plug-ins) against each other with the
    seats rotated so that every strategy plays every seat equally often; report win
    rate with its 95% interval, points per round, mean place or rank, head to head,
    and a ranking."""
    from unosim.reports.tournament import (
        planned_games,
        render_json,
        render_tournament,
        run_tournament,
    )
    from unosim.reports.tournament import summarize_tournament as summarize
    from unosim.strategies.registry import parse_strategy

    games = parse_games(games_text)
    rules = _resolve(variant, rule, players)
    strats = [parse_strategy(x) for x in names]
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
        click.echo(f"seed {seed} (drawn at random; pass --seed to repeat)", err=True)
    if seed < 0:
        raise UnosimError(f"--seed must be 0 or more, got {seed}")
    show = progress if progress is not None else sys.stderr.isatty()
    name = "+".join(variant) or "official"
    total = planned_games(len(strats), rules["players"], seating, games)
    result = _with_progress(show, total, lambda cb: run_tournament(
        rules, strats, games, seed, seating, workers, on_batch=cb, variant=name))
    s = summarize(result)
    click.echo(render_json(s) if fmt == "json" else render_tournament(s))


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
@click.option("--repeat", type=click.IntRange(1, 99), default=3, show_default=True,
              help="Runs per measurement; the median is reported.")
def bench(games_text: str, fmt: str, skip_compile: bool, quick: bool,
          memory_games: str | None, repeat: int) -> None:
    """Benchmark report: games/s on 1 and all cores (official, stacking, seven-o,
    jump-in at 2, 4, 6 players), parallel efficiency, JIT times, peak memory."""
    from unosim.bench import render_bench, run_bench

    mem = parse_games(memory_games, "--memory-games") if memory_games else None
    report = run_bench(parse_games(games_text), measure_cold=not skip_compile,
                       matrix=not quick, memory_games=mem, repeat=repeat)
    click.echo(render_bench(report, fmt))


@cli.command()
@click.option("--seed", type=click.IntRange(min=0), required=True,
              help="The run's seed (printed by `unosim run`).")
@click.option("--game", type=click.IntRange(0, 10**12 - 1), required=True,
              help="The game's index in the run, 0-based (the `game` column of --save-games).")
@click.option("--players", type=click.IntRange(2, 10), default=None,
              help="Players at the table (2..10); default from the rules (4).")
@click.option("--variant", multiple=True, metavar="NAME",
              help="Preset or TOML file, as in `run` (repeatable).")
@click.option("--rule", multiple=True, metavar="KEY=VALUE", help="Override one rule key.")
@click.option("--strategy", default="random", show_default=True,
              help="Strategy for every seat.")
@click.option("--seat", multiple=True, metavar="N=NAME", help="Strategy for seat N (0-based).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@_strategy_file_option
def replay(seed: int, game: int, players: int | None, variant: tuple[str, ...],
           rule: tuple[str, ...], strategy: str, seat: tuple[str, ...], fmt: str) -> None:
    """Print game K of the run with seed S turn by turn (hands, top card, colour, move,
    effect): exactly the game `unosim run` played, given the same rules and seats."""
    from unosim.replay import render_replay
    from unosim.replay import replay as replay_game
    from unosim.reports.render import render_json

    rules = _resolve(variant, rule, players)
    seats = _seats(rules["players"], strategy, seat)
    r = replay_game(rules, seats, seed, game)
    click.echo(render_json(r) if fmt == "json" else render_replay(r, "+".join(variant)
                                                                  or "official"))


@cli.command()
@click.option("--minutes", type=float, default=1.0, show_default=True,
              help="How long to keep drawing and checking tables.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the stream of tables (default: random, printed).")
@click.option("--combo", type=click.IntRange(min=0), default=None,
              help="Check only table K of the stream of --seed (to rerun a failure).")
@click.option("--games", "games_text", default="500", show_default=True,
              help="Compiled games per table.")
@click.option("--python-games", type=click.IntRange(0, 1000), default=3, show_default=True,
              help="Of those, games played move by move with every check.")
@click.option("--hang-seconds", type=click.FloatRange(1, 3600), default=120, show_default=True,
              help="A table with no result after this long is reported as a hang.")
def selfcheck(minutes: float, seed: int | None, combo: int | None, games_text: str,
              python_games: int, hang_seconds: float) -> None:
    """Play random rule combinations, player counts and strategies and check every
    invariant (cards conserved, legal moves only, termination or the cap, consistent
    scores, same records however the games are split). Exit code 1 on a failure,
    printed with the seed and rules to reproduce it."""
    import time

    from unosim.selfcheck import render_coverage, run_selfcheck

    if not 0 < minutes <= 24 * 60 or minutes != minutes:
        raise UnosimError(f"--minutes must be more than 0 and at most 1440, got {minutes}")
    games = parse_games(games_text)
    if games > 100_000:
        raise UnosimError(f"--games must be at most 100000 per table, got {games_text!r}")
    if python_games > games:
        raise UnosimError(f"--python-games ({python_games}) cannot be more than --games "
                          f"({games})")
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    click.echo(f"unosim selfcheck: seed {seed}, {minutes:g} min", err=True)
    t0 = time.monotonic()
    cov = run_selfcheck(minutes, seed, py_games=python_games, batch_games=games, combo=combo,
                        hang_seconds=hang_seconds, echo=lambda text: click.echo(text, err=True))
    click.echo(render_coverage(cov, seed, time.monotonic() - t0))
    if cov.failures:
        sys.exit(1)


def main(argv: list[str] | None = None) -> None:
    """Entry point: one-line errors with exit code 2, never a traceback for bad input;
    130 after Ctrl-C, 143 after SIGTERM (a run prints its partial report first)."""
    import signal
    import threading

    from unosim import interrupt

    interrupt.reset()
    old_term = None
    if threading.current_thread() is threading.main_thread():
        old_term = signal.signal(signal.SIGTERM, interrupt.terminate_as_interrupt)
    try:
        rv = cli.main(args=argv, prog_name="unosim", standalone_mode=False)
    except SystemExit as e:
        if e.code == interrupt.EXIT_INTERRUPTED:
            sys.exit(interrupt.exit_code())  # a partial result: 130, or 143 after SIGTERM
        raise
    except interrupt.StopNow:
        click.echo("unosim: stopped at once by a second signal; the report of this run is "
                   "lost, but a checkpoint kept in --out stays (finish it with --resume)",
                   err=True)
        sys.exit(interrupt.exit_code())
    except click.exceptions.Abort:
        click.echo("unosim: aborted", err=True)
        sys.exit(interrupt.exit_code())
    except click.ClickException as e:
        click.echo(f"unosim: error: {e.format_message()}".replace("\n", " "), err=True)
        sys.exit(2)
    except UnosimError as e:
        click.echo(f"unosim: error: {e}".replace("\n", " "), err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("unosim: interrupted", err=True)
        sys.exit(interrupt.exit_code())
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
    sys.exit(rv if isinstance(rv, int) else 0)
