"""The options several commands share, each declared once: click's decorators, their
help texts and shell completions, and the checks that belong to the command itself
(its --out folder, its --save-games file, the progress bar, a drawn seed's line).
The checks that turn the raw values into games, rules, seats and seeds are the
library's: unosim.runs.inputs, which the API and the studies call too.

A command takes an option by stacking its decorator (``@opt.games``); the help text
lives here only, so ``run``, ``compare``, ``tournament`` and the commands to come
describe the same option in the same words.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from unosim.errors import UnosimError

METRICS_HELP = """\b
Metrics (defined in the docs, page Metrics):
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

# ---------------------------------------------------------------- shell completion
# Each completes the names the command would accept, from the same lists the checks
# read (presets, built-in and loaded strategies, rule keys), imported only when the
# shell asks, so completing a command name stays cheap.


def _items(names: list[str], incomplete: str, prefix: str = "") -> list[Any]:
    from click.shell_completion import CompletionItem

    return [CompletionItem(prefix + n) for n in names if n.startswith(incomplete)]


def complete_variant(ctx: click.Context, param: Any, incomplete: str) -> list[Any]:
    """Preset names; after a ``+`` (compare's ``a+b``) the next preset; a path-like
    word is left to the shell's file completion."""
    from unosim.simulate.rules import is_variant_file, preset_names

    if is_variant_file(incomplete):
        from click.shell_completion import CompletionItem

        return [CompletionItem(incomplete, type="file")]
    head, plus, tail = incomplete.rpartition("+")
    return _items(preset_names(), tail, head + plus)


def complete_strategy(ctx: click.Context, param: Any, incomplete: str) -> list[Any]:
    """Strategy names, built-in and loaded with --strategy-file (parameters after ``:``
    are left to the user)."""
    from unosim.strategies.registry import strategy_names

    return _items(strategy_names(), incomplete)


def complete_seat(ctx: click.Context, param: Any, incomplete: str) -> list[Any]:
    """``N=NAME``: the strategy names after the ``=``."""
    seat_no, eq, name = incomplete.partition("=")
    if not eq:
        return []
    return [type(c)(f"{seat_no}={c.value}") for c in complete_strategy(ctx, param, name)]


def complete_rule(ctx: click.Context, param: Any, incomplete: str) -> list[Any]:
    """``KEY=VALUE``: the rule keys, then a choice key's values (or true/false)."""
    from unosim.simulate.rules import SCHEMA

    key, eq, value = incomplete.partition("=")
    if not eq:
        return _items([f"{k}=" for k in SCHEMA], incomplete)
    k = SCHEMA.get(key)
    values = list(k.choices) if k and k.kind == "choice" else (
        ["true", "false"] if k and k.kind == "bool" else [])
    return _items(values, value, key + "=")


# ---------------------------------------------------------------- shared options

games = click.option(
    "--games", "games_text", default="100000", show_default=True,
    help="Games to play: 1e6, 1000000 or 1_000_000 (compare: per variant; tournament: in "
         "all, split equally over the lineups; skill: per variant, split equally over the "
         "seats; --mode match: matches).")
players = click.option(
    "--players", type=click.IntRange(2, 10), default=None,
    help="Players at the table (2..10); default from the rules (4).")
variant = click.option(
    "--variant", multiple=True, metavar="NAME", shell_complete=complete_variant,
    help="Preset from configs/ (see `unosim variants`) or a TOML file of the same format, "
         "e.g. my-rules.toml (repeatable; later ones win).")
rule = click.option(
    "--rule", multiple=True, metavar="KEY=VALUE", shell_complete=complete_rule,
    help="Override one rule key (repeatable, applied after the variants).")
strategy = click.option(
    "--strategy", default="random", show_default=True, shell_complete=complete_strategy,
    help="Strategy for every seat, e.g. random or offensive:bluff=0.3.")
field = click.option(
    "--field", default=None, metavar="STRATEGY", shell_complete=complete_strategy,
    help="The strategy in every other seat. tournament: each STRATEGY plays one seat "
         "against STRATEGY in all the others, its seat rotated through every seat, all "
         "on the same deals; its win rate is the share of rounds it wins (fair share: "
         "1/players), and the field's own figures are shown as 'field: STRATEGY' "
         "(default: no field, the strategies play each other). skill: the opponents the "
         "skill edge is measured against (default: random).")
seat = click.option(
    "--seat", multiple=True, metavar="N=NAME", shell_complete=complete_seat,
    help="Strategy for seat N (0-based).")
seed = click.option(
    "--seed", type=int, default=None,
    help="Base seed; the same seed gives the same numbers, and every variant of a command "
         "shares it. Default: random, printed.")
#: unosim play: the search's budget per hint (its default is the table's, play/hints.py)
hint_rollouts = click.option(
    "--hint-rollouts", type=click.IntRange(1, 1_000_000), default=None, metavar="N",
    help="Rollouts of the search per hint and per decision reviewed: more gives narrower "
         "intervals and slower hints (default 10000: a hint in a fraction of a second).")
training = click.option(
    "--training", is_flag=True,
    help="Training mode: u takes your last decision back, as often as you like.")
workers = click.option(
    "--workers", type=int, default=None, help="Threads (default: all cores).")
fmt = click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table",
    show_default=True, help="A readable table, or one JSON object.")
#: what ``run --out`` writes (play_options' default); each other command names its own
RUN_FILES = ("summary.json and summary.csv (with --report: also the charts as PNG and SVG "
             "and a self-contained report.html)")


#: the one type of every --out
OUT_DIR = click.Path(file_okay=False)


def out_option(files: str) -> Any:
    """``--out DIR``, declared once; ``files`` says what the command writes there."""
    return click.option("--out", type=OUT_DIR, default=None, help=f"Directory for {files}.")


progress = click.option(
    "--progress/--no-progress", default=None,
    help="Progress bar on stderr (default: when stderr is a terminal).")
save_games = click.option(
    "--save-games", type=click.Path(dir_okay=False), default=None, metavar="FILE",
    help="Also write one row per game (or match) to FILE.parquet, FILE.csv or FILE.json "
         "(compare: of every variant), with the seed, rules and seats that replay it.")
backend = click.option(
    "--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
    help="Where games run: this machine's cores, or a Dask cluster "
         "(pip install 'unosim[dask]').")

scheduler = click.option(
    "--scheduler", default=None, metavar="ADDRESS",
    help="Dask scheduler (default: $DASK_SCHEDULER_ADDRESS, else a local cluster).")


def table_options(*, with_variant: bool = True) -> Any:
    """--players, --variant, --rule, --strategy and --seat: the table a command plays."""
    def apply(f: Any) -> Any:
        for d in reversed([players, *([variant] if with_variant else []), rule, strategy,
                           seat]):
            f = d(f)
        return f

    return apply


def lineup_options(*, with_variant: bool = True) -> Any:
    """--field, --players, --games, --variant and --rule: the table of a study that seats
    strategies against each other (tournament, ladder, skill)."""
    def apply(f: Any) -> Any:
        for d in reversed([field, players, games, *([variant] if with_variant else []),
                           rule]):
            f = d(f)
        return f

    return apply


def _remember_dry_run(ctx: click.Context, param: Any, value: bool) -> None:
    from unosim.dry_run import remember

    remember(ctx, param, value)


#: --dry-run: every check, then the plan and its time, nothing played or written
#: (unosim/dry_run.py); the command asks ``dry_run.requested()`` before its first game
dry_run = click.option(
    "--dry-run", is_flag=True, expose_value=False, callback=_remember_dry_run,
    help="Check every option, file, variant, rule and strategy as the command would, "
         "print what it would play and about how long it would take, and stop: nothing "
         "is played, compiled or written.")


#: --dry-run of the listings (variants, rules, strategies): they play and write nothing,
#: so the listing is their dry run; the option is taken so that any command line does
listing_dry_run = click.option(
    "--dry-run", is_flag=True, expose_value=False,
    help="Accepted as every command accepts it: a listing plays and writes nothing, so it "
         "prints the same.")


def play_options(*, out_dir: str | bool = RUN_FILES, progress_bar: bool = True) -> Any:
    """--seed, --workers, --backend, --scheduler, --format, --out, --progress,
    --strategy-file and --dry-run: what every command that plays games takes, in this
    order.
    ``out_dir``: what the command writes into --out (its help says so), or False
    for a command without --out."""
    def apply(f: Any) -> Any:
        files = RUN_FILES if out_dir is True else out_dir
        for d in reversed([seed, workers, backend, scheduler, fmt,
                           *([out_option(files)] if files else []),
                           *([progress] if progress_bar else []), strategy_file,
                           dry_run]):
            f = d(f)
        return f

    return apply


def match_options(f: Any) -> Any:
    """--mode, --target-score and --max-rounds (run and compare)."""
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


#: --strategy-file PATH.py:NAME (repeatable): loaded before the other options are read,
#: so --seat and --strategy know NAME
strategy_file = click.option(
    "--strategy-file", multiple=True, metavar="PATH.py:NAME", callback=_load_strategy_files,
    expose_value=False, is_eager=True,
    help="Load the strategy NAME from PATH.py: a Python function of the seat's view (or a "
         "class with choose), or an @numba.njit function f(G, rng) -> move; then use NAME "
         "like a built-in (repeatable; see the docs' Write a strategy page).")


# ---------------------------------------------------------------- the face's checks
# The library's checks of games, rules, seats, seeds and backends are unosim.runs.inputs;
# these are the command's own: its --out folder held for it, its --save-games file,
# the progress bar and the line that announces a drawn seed.


def prepare_out(out: str | None) -> Path | None:
    """The ``--out`` folder, made, held for this command alone and probed for writing
    before any game is played."""
    if out is None:
        return None
    from unosim.dry_run import requested
    from unosim.resuming import lock_out

    p = Path(out)
    if requested():
        _check_out(p, out)
        return p
    try:
        p.mkdir(parents=True, exist_ok=True)
        lock_out(p)  # one command at a time in a folder
        probe = p / ".unosim-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise UnosimError(f"--out {out}: cannot write there ({e.strerror or e})") from None
    return p


def _check_out(p: Path, out: str) -> None:
    """The ``--out`` folder checked without making it (``--dry-run``): the folder, or
    the nearest folder above it that exists, must be a folder this user can write in;
    the same line as :func:`prepare_out` when not."""
    import errno
    import os

    from unosim.resuming import lock_out

    above = next((a for a in (p, *p.absolute().parents) if a.exists()), None)
    if above is None:
        return
    if not above.is_dir():
        code = errno.EEXIST if above == p else errno.ENOTDIR
    elif not os.access(above, os.W_OK | os.X_OK):
        code = errno.EACCES
    else:
        if above == p:
            lock_out(p)
        return
    raise UnosimError(f"--out {out}: cannot write there ({os.strerror(code)})")


def check_save_games(path: str | None) -> Path | None:
    if path is None:
        return None
    from unosim.reports.saved_games import check_records_path

    return check_records_path(path)


def announce_seed(seed: int) -> None:
    """Say on stderr the seed drawn at random (the commands whose report does not show
    it): ``inputs.pick_seed(seed, announce_seed)``."""
    click.echo(f"seed {seed} (drawn at random; pass --seed to repeat)", err=True)


def show_progress(progress: bool | None) -> bool:
    import sys

    return progress if progress is not None else sys.stderr.isatty()
