"""``unosim atlas``: every preset against official at each player count, on one page."""

from __future__ import annotations

from typing import Any

import click

from unosim import options as opt
from unosim.errors import UnosimError
from unosim.progress import on_backend
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(short_help="Every preset against official at each player count, one page.")
@click.option("--players", default="2,4,6", show_default=True, metavar="VALUES",
              help="Player counts (2..10): 2,4,6 or 2..8.")
@opt.games
@click.option("--strategy", default="offensive", show_default=True, metavar="NAME",
              help="The strategy whose skill edge (one seat against random) is measured "
                   "under every preset; `none` leaves the skill edge out.")
@opt.play_options(out_dir="atlas.json, atlas.csv (a row per player count, preset and metric), "
                  "the charts as PNG and SVG and a self-contained atlas.html")
@resume_option("atlas")
@click.pass_context
def atlas(ctx: click.Context, **params: Any) -> None:
    """Every preset in configs/ against official at each player count, on the same deals:
    round length, seat balance, comeback, lead changes, first to UNO, winner points,
    cards drawn and the skill edge of --strategy, each as the paired difference from
    official with its 95% interval; ranked per metric with verdicts; atlas.html, CSV,
    JSON and the charts with --out. Ctrl-C or SIGTERM stops between batches with the
    player counts finished so far; with --out DIR a checkpoint is kept there, and
    --resume DIR finishes it."""
    start(ctx, "atlas", params, _atlas)


def _atlas(players: str, games_text: str, strategy: str, seed: int | None,
           workers: int | None, backend: str, scheduler: str | None, fmt: str,
           out: str | None, progress: bool | None, saved: dict[str, Any],
           stages: dict[str, Any] | None) -> None:
    report, keep, out_dir = play_atlas(players, games_text, strategy, seed, workers, backend,
                                       scheduler, out, opt.show_progress(progress), saved,
                                       stages)
    text = report.summary()
    summary = report.to_dict()
    click.echo(report.to_json() if fmt == "json" else text)
    result = report.atlas
    if out_dir is not None:
        from unosim.output import report_files
        from unosim.reports.grid_files import write_atlas_files

        with report_files(out_dir, keep, "atlas", result.partial):
            written = write_atlas_files(result, summary, text, out_dir)
        click.echo(f"wrote {len(written)} files to {out_dir}: {', '.join(written)}", err=True)
    finish(keep, result.partial, "atlas",
           f"{len(result.by_players) - any(a.partial for a in result.by_players)} of "
           f"{len(result.requested)} player counts")


def play_atlas(players: str, games_text: str, strategy: str, seed: int | None,
               workers: int | None, backend: str, scheduler: str | None, out: str | None,
               show: bool, saved: dict[str, Any], stages: dict[str, Any] | None
               ) -> tuple[Any, Any, Any]:
    """Play the atlas the options describe (``unosim.api.atlas`` too): its
    :class:`~unosim.reports.report_grid.AtlasReport` (partial after a stop), the
    checkpoint keeper and the ``--out`` folder."""
    from unosim.reports.report_grid import AtlasReport
    from unosim.runs.variants import VariantSpec
    from unosim.simulate.rules import preset_names
    from unosim.strategies.registry import parse_strategy
    from unosim.studies.atlas import run_atlas

    games = inputs.parse_games(games_text)
    counts = opt.parse_values("players", players)
    strat = None if strategy.strip().lower() == "none" else parse_strategy(strategy)
    if strat is not None:
        inputs.check_skill_games(games, max(counts))
    elif games < 2:  # the paired differences' intervals need two deals
        raise UnosimError(f"--games {games}: the atlas needs at least 2 games per preset "
                          "and player count to give an interval")
    inputs.check_backend(backend, workers, scheduler)
    out_dir = opt.prepare_out(out)
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None else None)
    keep = keeper("atlas", out_dir, saved, seed, stages)
    presets = preset_names()

    def make(name: str, n: int) -> VariantSpec:
        rules = inputs.resolve_rules((name,), (), n)
        return VariantSpec(name, rules, inputs.seats_for(n, "random", ()))

    def planned(n: int) -> int:
        """A preset's games at n players: the comparison's, then the skill deals in
        every seat."""
        return games + (-(-games // n) * n if strat is not None else 0)

    total = sum(planned(n) * len(presets) for n in counts)
    result = on_backend(backend, workers, scheduler, show, total,
                        lambda cb, where: run_atlas(presets, counts, games, seed, make, strat,
                                                    workers, cb, where, keep))
    return AtlasReport(result), keep, out_dir
