"""``unosim sweep``: one or two rule keys (or the player count) over a grid of values,
every metric per point with its 95% interval, charts and sweep.html."""

from __future__ import annotations

import re
import sys
from typing import Any

import click

from unosim import options as opt
from unosim.errors import UnosimError
from unosim.progress import with_progress

#: the most values one swept dimension takes
MAX_VALUES = 64


def parse_values(key: str, text: str) -> list[Any]:
    """``5..10``, ``5,7,9``, ``true,false`` or a list of choices, each value checked
    against the key's domain (a value outside it is bad input, not a refused point)."""
    from unosim.simulate.rules import parse_value

    raw = text.strip()
    m = re.fullmatch(r"(-?\d+)\s*\.\.\s*(-?\d+)", raw)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if hi < lo:
            raise UnosimError(f"{key}={text}: the range is reversed; write {hi}..{lo}")
        items = [str(v) for v in range(lo, hi + 1)]
    elif ".." in raw:
        raise UnosimError(f"{key}={text}: a range is LO..HI with two whole numbers, e.g. 5..10")
    else:
        items = [x.strip() for x in raw.split(",")]
        if not raw or any(not x for x in items):
            raise UnosimError(f"{key}={text}: an empty value; give VALUES as 5..10, 5,7,9 or "
                              "true,false")
    if len(items) > MAX_VALUES:
        raise UnosimError(f"{key}={text}: {len(items)} values; a sweep takes at most "
                          f"{MAX_VALUES} per dimension")
    values = [parse_value(key, x) if key != "players" else _players(x) for x in items]
    if len(set(map(str, values))) != len(values):
        raise UnosimError(f"{key}={text}: a value is given twice")
    return values


def _players(text: str) -> int:
    if not re.fullmatch(r"\d+", text) or not 2 <= int(text) <= 10:
        raise UnosimError(f"--players: {text!r} is not a player count (2..10)")
    return int(text)


def sweep_dims(rule: tuple[str, ...], players: str | None) -> tuple[list[Any], dict[str, Any]]:
    """(swept dimensions, fixed overrides) of ``--rule KEY=VALUES`` and ``--players``:
    a key with one value is a fixed override, with several a swept dimension."""
    from unosim.reports.sweep import Dim

    dims: list[Dim] = []
    fixed: dict[str, Any] = {}
    given = []
    for item in rule:
        key, eq, text = item.partition("=")
        if not eq:
            raise UnosimError(f"--rule expects KEY=VALUES, got {item!r}")
        if key.strip() == "players":
            raise UnosimError("sweep the player count with --players VALUES, not --rule")
        given.append((key.strip(), text))
    if players is not None:
        given.append(("players", players))
    for key, text in given:
        if key in fixed or any(d.key == key for d in dims):
            raise UnosimError(f"{key} is given twice")
        values = parse_values(key, text)
        if len(values) == 1:
            fixed[key] = values[0]
        else:
            dims.append(Dim(key, tuple(values)))
    if not dims:
        raise UnosimError("nothing to sweep: give --rule KEY=VALUES or --players VALUES with "
                          "two or more values, e.g. --rule hand_size=5..10")
    if len(dims) > 2:
        raise UnosimError(f"a sweep takes at most two swept dimensions, got {len(dims)}: "
                          f"{', '.join(d.key for d in dims)}")
    return dims, fixed


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
@opt.seed
@opt.workers
@opt.backend
@opt.scheduler
@opt.fmt
@opt.out
@opt.progress
@opt.strategy_file
def sweep(variant: tuple[str, ...], rule: tuple[str, ...], players: str | None, strategy: str,
          seat: tuple[str, ...], games_text: str, seed: int | None, workers: int | None,
          backend: str, scheduler: str | None, fmt: str, out: str | None,
          progress: bool | None) -> None:
    """Sweep one or two rule keys (or the player count) over VALUES on top of --variant:
    every point plays the same seed and game indices; per point, round length, seat 0's
    win rate, seat balance, winner points, cards drawn, comeback, lead changes, first to
    UNO and capped rounds, each with its 95% interval. A point the rules refuse is listed
    with the reason and skipped."""
    from unosim.reports.compare import VariantSpec, variant_label
    from unosim.reports.sweep import grid, render_sweep, run_sweep, to_dict

    games = opt.parse_games(games_text)
    dims, fixed = sweep_dims(rule, players)
    opt.check_scheduler(scheduler, backend)
    base = variant_label(variant)

    def make(coords: dict[str, Any]) -> VariantSpec:
        values = {**fixed, **coords}
        n = values.pop("players", None)
        rules = opt.resolve_rules(variant, [f"{k}={_text(v)}" for k, v in values.items()], n)
        seats = opt.seats_for(rules["players"], strategy, seat)
        label = ", ".join(f"{k}={_text(v)}" for k, v in coords.items())
        return VariantSpec(label, rules, seats)

    points = grid(dims, make)
    out_dir = opt.prepare_out(out)
    seed = opt.pick_seed(seed, announce=True)
    played = sum(p.refused is None for p in points)
    runner = _dask_runner(scheduler) if backend == "dask" else None
    result = with_progress(opt.show_progress(progress), games * played,
                           lambda cb: run_sweep(points, dims, games, seed, workers,
                                                on_batch=cb, runner=runner))
    text = render_sweep(result)
    if base != "official":
        text = text.replace("unosim sweep · ", f"unosim sweep · on {base} · ", 1)
    from unosim.reports.render import render_json

    summary = to_dict(result)
    summary["variant"] = base
    click.echo(render_json(summary) if fmt == "json" else text)
    if out_dir is not None:
        from unosim.reports.grid_files import write_sweep_files

        written = write_sweep_files(result, summary, text, out_dir)
        click.echo(f"wrote {len(written)} files to {out_dir}: {', '.join(written)}", err=True)
    if result.cmp.partial:
        sys.exit(130)


def _text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _dask_runner(scheduler: str | None) -> Any:
    from unosim.reports.grid_dask import DaskRunner
    from unosim.simulate.distributed import connect

    return DaskRunner(connect(scheduler))
