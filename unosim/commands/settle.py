"""``unosim settle``: the arguments players have, as claims answered in one line each
(TRUE, FALSE, NO REAL DIFFERENCE, NOT SHOWN or DEPENDS, with the paired interval and
the margin behind it)."""

from __future__ import annotations

import math
import shlex
import sys
from typing import Any

import click

from unosim import options as opt
from unosim.errors import UnosimError
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(short_help="Settle house-rule arguments: each claim's verdict in one line.")
@click.argument("claims", nargs=-1, metavar="[NAME... | FILE.toml...]")
@click.option("--all", "run_all", is_flag=True, help="Settle every claim of the catalogue.")
@click.option("--games", "games_text", default=None, metavar="N",
              help="Games at each claim's first look (default: the claim's own; a claim "
                   "plays up to 2x and 4x that when its answer is not clear yet).")
@opt.players
@click.option("--alpha", "alpha_text", default=None, metavar="A",
              help="The error of the run: the chance of a wrong verdict for each claim, or "
                   "with --all for the whole catalogue (shared over its claims); a share "
                   "such as 0.05 (the default) or 0.05/28, one claim's share of 28.")
@click.option("--error-rate", is_flag=True,
              help="Measure how often verdicts are wrong instead: settle claims whose answer "
                   "is known (no effect, or an effect of known size) on many seeds, and the "
                   "verdict procedure on synthetic draws; report how often each verdict came "
                   "out, the wrong-verdict rate and the power, with 95% intervals.")
@click.option("--seeds", type=click.IntRange(0, 100_000), default=None, metavar="N",
              help="With --error-rate: seeds each known-answer claim is settled on, from "
                   "--seed on (default 40).")
@click.option("--replications", type=click.IntRange(0, 1_000_000), default=None,
              metavar="N",
              help="With --error-rate: repetitions of each synthetic setting (default 4000; "
                   "0 skips them).")
@opt.play_options(out_dir="verdicts.json, verdicts.csv, a self-contained settle.html and "
                  "one PNG card per claim (cards/NAME.png); with --error-rate "
                  "error-rate.json and error-rate.csv")
@resume_option("settle run")
@click.pass_context
def settle(ctx: click.Context, **params: Any) -> None:
    """Settle claims: NAME... from the catalogue (listed when no claim is given),
    FILE.toml... of your own (the format: the docs' settle page), or --all. Each claim
    runs through the study that answers it (compare, tournament, skill, sweep) on
    common random numbers, and gets one line: TRUE or FALSE (the claim or its opposite
    holds by more than the claim's margin, the smallest difference that matters), NO
    REAL DIFFERENCE (the effect lies within the margin), NOT SHOWN (undecided, with the
    games that would likely decide it) or DEPENDS (where it holds), the effect with its
    interval, the margin, the games, the seed and the command that reproduces it. A
    claim plays its games, then twice and four times as many while its answer is
    unclear; the intervals spend the error over those looks (O'Brien-Fleming), so
    stopping early keeps them valid, and the line says the level they really have.
    With --all the error is shared over the claims, so that the whole catalogue is
    wrong somewhere with chance at most 5%. Ctrl-C or SIGTERM keeps the verdicts
    decided; with --out DIR a checkpoint is kept there, and --resume DIR finishes the
    run.

    With --error-rate it measures instead how often a verdict is wrong: claims whose
    answer is known (a variant that plays the same game in distribution, effects of a
    known size inside and beyond the margin) settled on --seeds seeds, and the verdict
    procedure alone on synthetic draws; per claim, how often each verdict came out, the
    wrong-verdict rate and the power, with 95% intervals."""
    start(ctx, "settle", params, _settle)


def _settle(claims: tuple[str, ...], run_all: bool, games_text: str | None,
            players: int | None, alpha_text: str | None, seed: int | None,
            workers: int | None, fmt: str, out: str | None, progress: bool | None,
            backend: str, scheduler: str | None,
            saved: dict[str, Any], stages: dict[str, Any] | None,
            error_rate: bool = False, seeds: int | None = None,
            replications: int | None = None) -> None:
    from unosim.commands import settle_error
    from unosim.reports.settle import render_catalogue
    from unosim.studies.claims import catalogue

    settle_error.check(claims, run_all, players, seeds, replications, error_rate)
    if error_rate:
        settle_error.error_rate(games_text, parse_alpha(alpha_text), seed, seeds,
                                replications, workers, fmt, out, progress, backend,
                                scheduler, saved, stages)
        return
    if not claims and not run_all:
        click.echo(render_catalogue([(c.name, c.study, c.sentence) for c in catalogue()]))
        return
    report, keep, out_dir = play_claims(claims, run_all, games_text, players, alpha_text, seed,
                                        workers, out, opt.show_progress(progress), backend,
                                        scheduler, saved, stages, echo=fmt != "json")
    _report(report, fmt, out_dir, keep)
    finish(keep, report.partial, "settle", f"{sum(not v.partial for v in report.verdicts)} "
           f"of {report.asked} claims")


def play_claims(claims: tuple[str, ...], run_all: bool, games_text: str | None,
                players: int | None, alpha_text: str | None, seed: int | None,
                workers: int | None, out: str | None, show: bool, backend: str,
                scheduler: str | None, saved: dict[str, Any], stages: dict[str, Any] | None,
                echo: bool = False) -> tuple[Any, Any, Any]:
    """Settle the claims the options name (``unosim.api.settle`` too), printing each
    verdict line as it is decided when ``echo``: the
    :class:`~unosim.reports.report_settle.SettleReport` (partial after a stop), the
    checkpoint keeper and the ``--out`` folder."""
    from unosim.reports.report_settle import SettleReport
    from unosim.reports.settle import settle_summary
    from unosim.studies.claims import catalogue, find_claims
    from unosim.studies.settle import family_text, method

    if not claims and not run_all:
        raise UnosimError("name the claims to settle, or settle them all")
    if claims and run_all:
        raise UnosimError("give claims or --all, not both")
    chosen = catalogue() if run_all else find_claims(claims)
    chosen = [_override(c, games_text, players) for c in chosen]
    alpha = parse_alpha(alpha_text)
    out_dir = opt.prepare_out(out)
    inputs.check_backend(backend, workers, scheduler)
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None and echo else None)
    keep = keeper("settle", out_dir, saved, seed, stages)
    family = run_all and len(chosen) > 1
    commands = {c.name: _command(c, seed, games_text, players,
                                 _claim_alpha(alpha_text, alpha, len(chosen), family))
                for c in chosen}
    where = inputs.open_backend(backend, workers, scheduler)
    try:
        verdicts, partial, elapsed = _play(chosen, seed, where, keep, commands, echo, show,
                                           alpha, family)
    finally:
        where.close()
    error = family_text(len(chosen), alpha, family)  # the alpha each line was read at
    summary = settle_summary(verdicts, seed, partial, elapsed, method(), error, alpha, family)
    return SettleReport(verdicts, summary, asked=len(chosen)), keep, out_dir


def _override(c: Any, games_text: str | None, players: int | None) -> Any:
    from dataclasses import replace

    if games_text is not None:
        c = replace(c, games=inputs.parse_games(games_text))
    if players is not None:
        if c.study == "sweep":
            raise UnosimError(f"claim {c.name!r} sweeps the player count; --players applies "
                              "to the other claims")
        c = replace(c, players=(players,), seats=None if c.seats is None else tuple(
            s for s in c.seats if s < players) or (0,))
        from unosim.studies.claims import check_claim

        check_claim(c, f"claim {c.name} with --players {players}")
    return c


def parse_alpha(text: str | None) -> float:
    """``--alpha``: a share within (0, 1), or a share over a count (``0.05/28``)."""
    from unosim.studies.settle import ALPHA

    if text is None:
        return ALPHA
    share, _, count = str(text).strip().partition("/")
    try:
        value = float(share) / (int(count) if count else 1)
    except (ValueError, ZeroDivisionError):
        value = math.nan
    if not 0 < value < 1:
        raise UnosimError(f"--alpha must be a share within (0, 1) such as 0.05, or one over "
                          f"a count such as 0.05/28, got {text!r}")
    return value


def _claim_alpha(text: str | None, alpha: float, n: int, family: bool) -> str | None:
    """The --alpha that settles one claim alone at the error it had in this run."""
    return f"{alpha!r}/{n}" if family else text


def _command(c: Any, seed: int, games_text: str | None, players: int | None,
             alpha_text: str | None = None) -> str:
    from unosim.strategies.registry import PLUGINS

    words = ["unosim", "settle", c.path or c.name, "--seed", str(seed)]
    named = {x.split(":")[0] for x in (c.strategy, *c.seat_strategies.values(),
                                       *c.strategies)}
    for name in sorted(named & set(PLUGINS)):  # the strategy files it needs, again
        if not PLUGINS[name].source.startswith("<python>"):
            words += ["--strategy-file", PLUGINS[name].source]
    if games_text is not None:
        words += ["--games", games_text]
    if players is not None:
        words += ["--players", str(players)]
    if alpha_text is not None:
        words += ["--alpha", alpha_text]
    return " ".join(shlex.quote(w) for w in words)


def _play(chosen: list[Any], seed: int, where: Any, keep: Any, commands: dict[str, str],
          echo: bool, show: bool, alpha: float, family: bool
          ) -> tuple[list[Any], bool, float]:
    import time

    from unosim.progress import with_progress
    from unosim.reports.settle import verdict_line
    from unosim.studies.settle import settle
    from unosim.studies.settle_stages import planned_units

    total = sum(planned_units(c, seed, where) for c in chosen)

    def said(v: Any) -> None:
        # through sys.stdout: under the progress bar that is rich's proxy, which prints
        # the line above the bar instead of across it
        if echo:
            sys.stdout.write(verdict_line(v) + "\n")
            sys.stdout.flush()

    t0 = time.perf_counter()
    verdicts, partial = with_progress(
        show, total, lambda cb: settle(chosen, seed, where, keep, cb, said, commands, alpha,
                                      family))
    return verdicts, partial, time.perf_counter() - t0


def _report(report: Any, fmt: str, out_dir: Any, keep: Any = None) -> None:
    from unosim.common import write_text_atomic
    from unosim.output import report_files
    from unosim.reports.render import render_json
    from unosim.reports.settle import verdicts_csv

    summary = report.to_dict()
    click.echo(report.to_json() if fmt == "json" else report.closing())
    if out_dir is None:
        return
    from unosim.reports.settle_pages import write_cards, write_page

    verdicts = report.verdicts
    with report_files(out_dir, keep, "settle", report.partial):
        write_text_atomic(out_dir / "verdicts.json", render_json(summary) + "\n")
        write_text_atomic(out_dir / "verdicts.csv", verdicts_csv(verdicts))
        cards = write_cards(verdicts, out_dir / "cards")
        write_page(verdicts, summary, out_dir / "settle.html")
    click.echo(f"wrote verdicts.json, verdicts.csv, settle.html and {len(cards)} cards to "
               f"{out_dir}", err=True)
