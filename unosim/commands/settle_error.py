"""``unosim settle --error-rate``: how often the verdicts are wrong, measured on claims
with a known answer (``studies/error_rate.py``): the verdict procedure on thousands of
synthetic draws, then settle itself on real games over many seeds."""

from __future__ import annotations

import time
from typing import Any

import click

from unosim import options as opt
from unosim.errors import UnosimError
from unosim.resuming import finish, keeper
from unosim.runs import inputs


def check(claims: tuple[str, ...], run_all: bool, players: int | None,
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


def error_rate(games_text: str | None, alpha: float, seed: int | None,
               seeds: int | None, replications: int | None, workers: int | None, fmt: str,
               out: str | None, progress: bool | None, backend: str, scheduler: str | None,
               saved: dict[str, Any], stages: dict[str, Any] | None) -> None:
    from unosim.progress import with_progress
    from unosim.studies import error_rate as er

    games = inputs.parse_games(games_text) if games_text is not None else None
    known = er.known_claims(games)
    seeds = er.SEEDS if seeds is None else seeds
    reps = er.REPLICATIONS if replications is None else replications
    out_dir = opt.prepare_out(out)
    inputs.check_backend(backend, workers, scheduler)
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None and fmt != "json" else None)
    keep = keeper("settle", out_dir, saved, seed, stages)
    t0 = time.perf_counter()
    synth = er.synthetic(seed, reps, alpha) if reps else []
    synth_s = time.perf_counter() - t0
    where = inputs.open_backend(backend, workers, scheduler)
    t1 = time.perf_counter()
    try:
        real, seeds_done, partial = with_progress(
            opt.show_progress(progress), er.planned(known, seed, seeds, where),
            lambda cb: er.run_real(known, seed, seeds, where, keep, cb, alpha))
    finally:
        where.close()
    summary = {"seed": seed, "alpha": alpha, "boundary": er.boundary_text(alpha),
               "replications": reps, "pairs": er.PAIRS, "seeds": seeds,
               "seeds_done": seeds_done, "partial": partial, "synthetic_s": synth_s,
               "real_s": time.perf_counter() - t1}
    _report(summary, synth, real, fmt, out_dir, keep, partial)
    finish(keep, partial, "settle", f"{seeds_done} of {seeds} seeds")


def _report(summary: dict[str, Any], synth: list[Any], real: list[Any], fmt: str,
            out_dir: Any, keep: Any, partial: bool) -> None:
    from unosim.common import write_text_atomic
    from unosim.output import report_files
    from unosim.reports.error_rate import render, tallies_csv
    from unosim.reports.render import render_json

    data = {**summary, "synthetic": [t.as_dict() for t in synth],
            "real": [t.as_dict() for t in real]}
    click.echo(render_json(data) if fmt == "json" else render(summary, synth, real))
    if out_dir is None:
        return
    with report_files(out_dir, keep, "settle", partial):
        write_text_atomic(out_dir / "error-rate.json", render_json(data) + "\n")
        write_text_atomic(out_dir / "error-rate.csv", tallies_csv(synth, real))
    click.echo(f"wrote error-rate.json and error-rate.csv to {out_dir}", err=True)
