"""Run on a Dask cluster: map game ranges to workers, merge their totals.

Every range of games is a pure function of (rules, seats, seed, first game,
count): the same range gives the same :class:`Aggregate` on any worker, so a task
retried after a worker died changes nothing, and the merged totals (integer
sums) equal the local backend's for the same seed. Dask is an optional extra
(``pip install .[dask]``); nothing here is imported by the local path.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from unosim.errors import UnosimError
from unosim.simulate.aggregate import Aggregate
from unosim.simulate.checkpoint import load_plugin_seats, seats_of
from unosim.simulate.rules import Rules, resolve
from unosim.simulate.runner import RunResult, play_records
from unosim.strategies.registry import SeatStrategy, parse_strategy

DEFAULT_TASK_GAMES = 1 << 20


def play_range(rule_values: dict[str, Any], seat_labels: list[str], seed: int, start: int,
               n: int, batch: int = 1 << 16,
               plugin_seats: list[dict[str, Any]] | None = None) -> Aggregate:
    """Play games ``start .. start + n`` on this worker and return their totals.

    ``plugin_seats`` (``checkpoint.seats_of``) names the plug-in files the table
    uses; the worker loads them from the same path, refusing a file whose SHA-256
    differs from the one the run started with.
    """
    if plugin_seats:
        load_plugin_seats(plugin_seats, "on this worker: every worker needs the same file "
                          "at the same path")
    rules = resolve([], list(rule_values.items()))
    seats = [parse_strategy(label) for label in seat_labels]
    agg = Aggregate(players=rules["players"])
    for first in range(start, start + n, batch):
        count = min(batch, start + n - first)
        agg.add_records(play_records(rules, seats, seed, first, count, chunks=8))
    return agg


def plugin_seats_of(seats: list[SeatStrategy]) -> list[dict[str, Any]]:
    """What a worker needs to load the table's plug-ins (path and SHA-256), or a
    one-line error for a plug-in registered from Python, which has no file."""
    from unosim.strategies.plugins import PluginError
    from unosim.strategies.registry import PLUGINS

    for s in seats:
        if s.plugin is not None and PLUGINS[s.name].source.startswith("<python>"):
            raise PluginError(f"plug-in strategy {s.name} was registered from Python, not "
                              "loaded from a file, so Dask workers cannot load it")
    return [d for d in seats_of(seats) if "plugin" in d]


def connect(address: str | None) -> Any:
    """A Dask client: the given scheduler, $DASK_SCHEDULER_ADDRESS, or a local
    cluster of one single-threaded worker process per core."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UnosimError(
            "--backend dask needs Dask: pip install 'unosim[dask]' (or dask[distributed])"
        ) from None
    address = address or os.environ.get("DASK_SCHEDULER_ADDRESS")
    if address:
        try:
            return Client(address, timeout="10s")
        except (OSError, TimeoutError) as e:
            raise UnosimError(f"--scheduler {address}: cannot connect ({e})") from None
    # worker processes run Numba single-threaded: Dask already uses every core
    cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1,
                           processes=True, dashboard_address=None,
                           env={"NUMBA_NUM_THREADS": "1"})
    return Client(cluster)


def run_dask(
    rules: Rules,
    seats: list[SeatStrategy],
    games: int,
    seed: int,
    client: Any,
    task_games: int = DEFAULT_TASK_GAMES,
    on_batch: Callable[[int], None] | None = None,
) -> RunResult:
    """Play ``games`` rounds as tasks of ``task_games`` on the cluster of ``client``."""
    from dask.distributed import as_completed

    plugins = plugin_seats_of(seats)
    labels = [s.label() for s in seats]
    values = rules.as_dict()
    starts = list(range(0, games, task_games))
    sizes = [min(task_games, games - s) for s in starts]
    t0 = time.perf_counter()
    futures = client.map(play_range, [values] * len(starts), [labels] * len(starts),
                         [seed] * len(starts), starts, sizes, plugin_seats=plugins,
                         pure=False)
    agg = Aggregate(players=rules["players"])
    partial = False
    try:
        for fut in as_completed(futures):
            part = fut.result()
            agg.merge(part)
            if on_batch is not None:
                on_batch(part.games)
    except KeyboardInterrupt:
        partial = True
        client.cancel(futures)
    elapsed = time.perf_counter() - t0
    workers = len(client.scheduler_info().get("workers", {}))
    return RunResult(rules, seats, seed, games, agg, elapsed, workers, partial)
