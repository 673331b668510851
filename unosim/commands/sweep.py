"""``unosim sweep``: one or two rule keys (or the player count) over a grid of values,
every metric per point with its 95% interval, charts and sweep.html."""

from __future__ import annotations

from typing import Any

import click

from unosim import options as opt
from unosim.progress import on_backend
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(short_help="Rule values and player counts on a grid, every metric per point.")
@opt.variant
@click.option("--rule", multiple=True, metavar="KEY=VALUES",
              help="A rule key to sweep over VALUES: 5..10, 5,7,9, true,false or a list of "
                   "choices; with one value it is a fixed override (repeatable; at most two "
                   "swept dimensions, --players counting as one).")
@click.option("--players", default=None, metavar="VALUES",
              help="Player counts to sweep (2..8, 2,4,6) or one fixed count.")
@opt.strategy
@opt.seat
@opt.games
@opt.play_options(out_dir="sweep.json, sweep.csv (a row per point and metric), the charts as "
                  "PNG and SVG and a self-contained sweep.html")
@resume_option("sweep")
@click.pass_context
def sweep(ctx: click.Context, **params: Any) -> None:
    """Sweep one or two rule keys (or the player count) over VALUES on top of --variant:
    every point plays the same seed and game indices; per point, round length, seat 0's
    win rate, seat balance, winner points, cards drawn, comeback, lead changes, first to
    UNO and capped rounds, each with its 95% interval. A point the rules refuse is listed
    with the reason and skipped. Ctrl-C or SIGTERM stops between batches with the
    partial sweep (the same games at every point); with --out DIR a checkpoint is kept
    there, and --resume DIR finishes it."""
    start(ctx, "sweep", params, _sweep)


def _sweep(variant: tuple[str, ...], rule: tuple[str, ...], players: str | None,
           strategy: str, seat: tuple[str, ...], games_text: str, seed: int | None,
           workers: int | None, backend: str, scheduler: str | None, fmt: str,
           out: str | None, progress: bool | None, saved: dict[str, Any],
           stages: dict[str, Any] | None) -> None:
    report, keep, out_dir = play_sweep(variant, rule, players, strategy, seat, games_text,
                                       seed, workers, backend, scheduler, out,
                                       opt.show_progress(progress), saved, stages)
    text = report.summary()
    summary = report.to_dict()
    click.echo(report.to_json() if fmt == "json" else text)
    if out_dir is not None:
        from unosim.output import report_files
        from unosim.reports.grid_files import write_sweep_files

        with report_files(out_dir, keep, "sweep", report.partial):
            written = write_sweep_files(report.result, summary, text, out_dir)
        click.echo(f"wrote {len(written)} files to {out_dir}: {', '.join(written)}", err=True)
    finish(keep, report.partial, "sweep", f"{report.result.cmp.games:,} of "
           f"{report.result.games:,} games per point")


def play_sweep(variant: tuple[str, ...], rule: tuple[str, ...], players: str | None,
               strategy: str, seat: tuple[str, ...], games_text: str, seed: int | None,
               workers: int | None, backend: str, scheduler: str | None, out: str | None,
               show: bool, saved: dict[str, Any], stages: dict[str, Any] | None
               ) -> tuple[Any, Any, Any]:
    """Play the sweep the options describe (``unosim.api.sweep`` too): its
    :class:`~unosim.reports.report_grid.SweepReport` (partial after a stop), the
    checkpoint keeper and the ``--out`` folder."""
    from unosim.reports.report_grid import SweepReport
    from unosim.runs.variants import VariantSpec, variant_label
    from unosim.studies.sweep import grid, run_sweep

    games = inputs.parse_games(games_text)
    dims, fixed = opt.sweep_dims(rule, players)
    inputs.check_backend(backend, workers, scheduler)
    base = variant_label(variant)
    inputs.resolve_rules(variant, [], None)  # an unknown variant is its own error, not each point's

    def make(coords: dict[str, Any]) -> VariantSpec:
        values = {**fixed, **coords}
        n = values.pop("players", None)
        rules = inputs.resolve_rules(variant, [f"{k}={_text(v)}" for k, v in values.items()], n)
        seats = inputs.seats_for(rules["players"], strategy, seat)
        label = ", ".join(f"{k}={_text(v)}" for k, v in coords.items())
        return VariantSpec(label, rules, seats)

    points = grid(dims, make)
    out_dir = opt.prepare_out(out)
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None else None)
    keep = keeper("sweep", out_dir, saved, seed, stages)
    played = sum(p.refused is None for p in points)
    result = on_backend(backend, workers, scheduler, show, games * played,
                        lambda cb, where: run_sweep(points, dims, games, seed, workers,
                                                    on_batch=cb, backend=where, keep=keep))
    return SweepReport(result, base), keep, out_dir


def _text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)
