"""A small Python API for notebooks: simulations and comparisons as pandas DataFrames.

>>> from unosim import api
>>> games = api.simulate("stacking", games=10_000, seed=1)        # one row per game
>>> games.winner.value_counts(normalize=True)
>>> table = api.compare(["official", "stacking"], games=100_000, seed=1)
>>> table[table.metric == "turns"]
>>> table.attrs["verdicts"]

Every function takes the same inputs as the command line: a variant (a preset
name, or ``"a+b"`` to apply several), ``rules`` overrides (``{"stacking":
"progressive"}``), ``players``, a ``strategy`` for every seat and ``seats``
overrides (``{1: "defensive"}``), a ``seed``, and ``mode="match"`` for whole
matches (with ``target_score`` and ``max_rounds``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from unosim.errors import UnosimError
from unosim.reports.compare import Comparison
from unosim.runs import modes
from unosim.runs.variants import build_variants, split_variant
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules, resolve
from unosim.strategies.registry import SeatStrategy, parse_strategy
from unosim.studies.compare import run_compare


def rules_for(variant: str = "official", rules: Mapping[str, Any] | None = None,
              players: int | None = None, target_score: int | None = None) -> Rules:
    """The resolved rule set of a variant with overrides (as ``unosim rules`` shows it)."""
    overrides: list[tuple[str, Any]] = []
    if players is not None:
        overrides.append(("players", players))
    overrides += list((rules or {}).items())
    if target_score is not None:
        overrides.append(("target_score", target_score))
    return resolve(split_variant(variant), overrides)


def seats_for(players: int, strategy: str = "random",
              seats: Mapping[int, str] | None = None) -> list[SeatStrategy]:
    out = [parse_strategy(strategy)] * players
    for i, name in (seats or {}).items():
        if not 0 <= int(i) < players:
            raise UnosimError(f"seat {i} must be within 0..{players - 1}")
        out[int(i)] = parse_strategy(name)
    return out


def _check_mode(mode: str) -> None:
    if mode not in modes.MODES:
        raise UnosimError(f"mode must be one of {', '.join(modes.MODES)}, got {mode!r}")


def simulate(variant: str = "official", games: int = 10_000, *, seed: int = 0,
             rules: Mapping[str, Any] | None = None, players: int | None = None,
             strategy: str = "random", seats: Mapping[int, str] | None = None,
             mode: str = "round", target_score: int | None = None,
             max_rounds: int | None = None, workers: int | None = None) -> pd.DataFrame:
    """One row per game (``mode="round"``, columns ``game`` + ``layout.GAME_FIELDS``)
    or per match (``mode="match"``, columns ``game`` + ``match_nb.MATCH_FIELDS``), for
    the seats at the table only. ``df.attrs["summary"]`` holds the run's summary
    (the keys of ``unosim run --format json``). Rows are kept in memory: for very
    many games use the CLI with ``--save-games`` and read the Parquet file."""
    _check_mode(mode)
    r = rules_for(variant, rules, players, target_score)
    spec = seats_for(r["players"], strategy, seats)
    chunks: list[np.ndarray] = []

    def keep(vi: int, first: int, rec: np.ndarray) -> None:
        chunks.append(rec.copy())

    cmp = run_compare(build_variants([variant], lambda _p: r, lambda _n: spec), games, seed,
                      workers, mode, max_rounds, on_records=keep)
    rec = np.concatenate(chunks) if chunks else np.zeros((0, 1), np.int32)
    fields = modes.of(mode).fields
    df = pd.DataFrame(rec[:, : len(fields)], columns=list(fields))
    for c in fields:
        if c in L.FIXED_POINT_FIELDS:  # game-feel fractions, recorded in fixed point
            df[c] = df[c] / L.FEEL_SCALE
    n = r["players"]
    unused = [c for c in fields if c.rsplit("_", 1)[-1].isdigit()
              and int(c.rsplit("_", 1)[-1]) >= n]
    df = df.drop(columns=unused)
    df.insert(0, "game", np.arange(len(df), dtype=np.int64))
    df.attrs["summary"] = cmp.summaries[0]
    return df


def comparison(variants: Iterable[str] = ("official", "stacking"), games: int = 100_000, *,
               seed: int = 0, rules: Mapping[str, Any] | None = None,
               players: int | None = None, strategy: str = "random",
               seats: Mapping[int, str] | None = None, mode: str = "round",
               target_score: int | None = None, max_rounds: int | None = None,
               workers: int | None = None) -> Comparison:
    """The full :class:`Comparison` object (tables, verdicts, charts via
    ``reports.charts.figures``)."""
    _check_mode(mode)
    names = list(variants)
    specs = build_variants(
        names, lambda presets: rules_for("+".join(presets), rules, players, target_score),
        lambda n: seats_for(n, strategy, seats))
    return run_compare(specs, games, seed, workers, mode, max_rounds)


def compare(variants: Iterable[str] = ("official", "stacking"), games: int = 100_000,
            **kwargs: Any) -> pd.DataFrame:
    """One row per (variant, metric): mean, se, 95% interval, and the paired difference
    from the first variant with its 95% interval (``diff``, ``diff_ci_low``,
    ``diff_ci_high``; the independent-samples interval in ``indep_ci_*``).
    ``df.attrs["verdicts"]`` holds the plain-language verdicts."""
    return comparison(variants, games, **kwargs).to_frame()
