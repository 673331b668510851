"""``unosim settle``: the arguments players have, as claims answered in one line each
(TRUE, FALSE, NO REAL DIFFERENCE, NOT SHOWN or DEPENDS, with the paired interval and
the margin behind it)."""

from __future__ import annotations

import sys
from typing import Any

import click

from unosim import dry_run
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
    from unosim.api import (
        SETTLE_ALPHA,
        ask_claims,
        catalogue,
        error_share,
        parse_alpha,
        play_settle,
        render_catalogue,
    )

    _check(claims, run_all, players, seeds, replications, error_rate)
    if error_rate:
        _error_rate(games_text, parse_alpha(alpha_text), seed, seeds, replications,
                    workers, fmt, out, progress, backend, scheduler, saved, stages)
        return
    if not claims and not run_all:
        click.echo(render_catalogue([(c.name, c.study, c.sentence) for c in catalogue()]))
        return
    games = inputs.parse_games(games_text) if games_text is not None else None
    asked = ask_claims(claims, run_all, games, players)
    alpha = error_share(alpha_text) if alpha_text is not None else None
    out_dir = opt.prepare_out(out)
    inputs.check_backend(backend, workers, scheduler)
    if dry_run.requested():
        _plan(asked.claims, seed, workers, backend, out_dir, SETTLE_ALPHA if alpha is None
              else alpha.value, "the whole catalogue" if asked.family else "each claim")
        return
    echo = fmt != "json"
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None and echo else None)
    keep = keeper("settle", out_dir, saved, seed, stages)
    where = inputs.open_backend(backend, workers, scheduler)
    try:
        report = play_settle(asked, seed, where, keep, alpha=alpha,
                             on_verdict=_said if echo else None,
                             progress=_bar(opt.show_progress(progress)))
    finally:
        where.close()
    _report(report, fmt, out_dir, keep)
    finish(keep, report.partial, "settle", f"{sum(not v.partial for v in report.verdicts)} "
           f"of {report.asked} claims")


def _check(claims: tuple[str, ...], run_all: bool, players: int | None,
           seeds: int | None, replications: int | None, error_rate: bool) -> None:
    """What goes with --error-rate and what only with it, refused before any game."""
    if not error_rate:
        for name, value in (("--seeds", seeds), ("--replications", replications)):
            if value is not None:
                raise UnosimError(f"{name} goes with --error-rate")
        return
    if claims or run_all:
        raise UnosimError("--error-rate settles its own claims with a known answer; drop "
                          + ("--all" if run_all else "the claim names"))
    if seeds == 0 and replications == 0:
        raise UnosimError("--seeds 0 with --replications 0 measures nothing")
    if players is not None:
        raise UnosimError("--error-rate asks its claims at the player counts their true "
                          "effects were measured at; drop --players")


def _plan(claims: list[Any], seed: int | None, workers: int | None, backend: str,
          out_dir: Any, alpha: float, over: str, times: int = 1,
          extra: list[tuple[str, str]] = ()) -> None:
    """--dry-run: the claims, their studies and looks, and the games from the first
    look to the last (a claim stops at the look that answers it)."""
    from unosim.api import planned_units
    from unosim.runs.backend import backend_for
    from unosim.runs.modes import of as of_mode
    from unosim.strategies.registry import parse_strategy

    plan = dry_run.Plan("settle")
    for what, value in extra:
        plan.add(what, value)
    first: list[dry_run.Work] = []
    last: list[dry_run.Work] = []
    where = backend_for("local", None, None)  # counts the games; plays none
    try:
        for c in claims:
            p = max(c.players)
            names = [c.strategy, *c.seat_strategies.values(), *c.strategies]
            seats = [parse_strategy(n) for n in names]
            units = planned_units(c, dry_run.seed_or_zero(seed), where) * times
            looks = 1 << (c.looks - 1)
            mode = str(of_mode(c.mode))
            first.append(dry_run.Work(units // looks, seats, p, mode))
            last.append(dry_run.Work(units, seats, p, mode))
            if times == 1:
                plan.add(c.name, f"{c.study}, {c.games:,} games at the first look, up to "
                                 f"{c.looks} looks ({units:,} games at most)")
    finally:
        where.close()
    plan.add("claims", f"{len(claims)}; error {alpha:.3g} for {over}"
             if times == 1 else f"{len(claims)}")
    plan.add("seed", dry_run.seed_text(seed))
    if out_dir is not None:
        plan.add("out", out_dir)
    dry_run.show(plan.timed(first, workers, backend, upto=last,
                            slower=dry_run.SETTLE_SLOWER))


def _bar(show: bool) -> Any:
    """``progress(total, job)`` for the study: ``job`` under the progress bar."""
    from unosim.progress import with_progress

    return lambda total, job: with_progress(show, total, job)


def _said(v: Any) -> None:
    """A verdict's line as soon as it is decided: through sys.stdout, which under the
    progress bar is rich's proxy, printing the line above the bar instead of across it."""
    from unosim.api import verdict_line

    sys.stdout.write(verdict_line(v) + "\n")
    sys.stdout.flush()


def _report(report: Any, fmt: str, out_dir: Any, keep: Any = None) -> None:
    from unosim.output import report_files

    click.echo(report.to_json() if fmt == "json" else report.closing())
    if out_dir is None:
        return
    from unosim.api import write_verdicts

    with report_files(out_dir, keep, "settle", report.partial):
        cards = write_verdicts(report, out_dir)
    click.echo(f"wrote verdicts.json, verdicts.csv, settle.html and {len(cards)} cards to "
               f"{out_dir}", err=True)


# ---------------------------------------------------------------- --error-rate


def _error_rate(games_text: str | None, alpha: float, seed: int | None,
                seeds: int | None, replications: int | None, workers: int | None, fmt: str,
                out: str | None, progress: bool | None, backend: str, scheduler: str | None,
                saved: dict[str, Any], stages: dict[str, Any] | None) -> None:
    """How often verdicts are wrong, on claims with a known answer (the measure is
    ``studies/settle/error_rate.py``)."""
    from unosim.api import (
        ERROR_RATE_REPLICATIONS,
        ERROR_RATE_SEEDS,
        known_claims,
        measure_error_rate,
    )

    games = inputs.parse_games(games_text) if games_text is not None else None
    known = known_claims(games)
    out_dir = opt.prepare_out(out)
    inputs.check_backend(backend, workers, scheduler)
    if dry_run.requested():
        n = ERROR_RATE_SEEDS if seeds is None else seeds
        reps = ERROR_RATE_REPLICATIONS if replications is None else replications
        _plan([c for _, c in known], seed, workers, backend, out_dir, alpha, "each claim",
              times=n, extra=[("error rate", f"{len(known)} claims with a known answer, "
                               f"each settled on {n} seeds; {reps:,} synthetic draws of "
                               "each setting")])
        return
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None and fmt != "json"
                            else None)
    keep = keeper("settle", out_dir, saved, seed, stages)
    where = inputs.open_backend(backend, workers, scheduler)
    try:
        rates = measure_error_rate(known, seed, where, keep,
                                   seeds=ERROR_RATE_SEEDS if seeds is None else seeds,
                                   replications=ERROR_RATE_REPLICATIONS if replications is None
                                   else replications,
                                   alpha=alpha,
                                   progress=_bar(opt.show_progress(progress)))
    finally:
        where.close()
    from unosim.reports.render import render_json

    click.echo(render_json(rates.to_dict()) if fmt == "json" else rates.text())
    if out_dir is not None:
        from unosim.api import write_error_rates
        from unosim.output import report_files

        with report_files(out_dir, keep, "settle", rates.partial):
            write_error_rates(rates, out_dir)
        click.echo(f"wrote error-rate.json and error-rate.csv to {out_dir}", err=True)
    finish(keep, rates.partial, "settle",
           f"{rates.summary['seeds_done']} of {rates.summary['seeds']} seeds")
