"""The bodies of ``unosim compare`` and of ``unosim run`` with ``--mode match``,
``--save-games`` or ``--report`` (the click declarations stay in ``unosim/cli.py``).
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from unosim.errors import UnosimError
from unosim.reports.atomic import write_text_atomic
from unosim.reports.compare import (
    MAX_VARIANTS,
    Comparison,
    VariantSpec,
    run_compare,
)
from unosim.reports.render import render_json

MAX_TARGET = 100_000


def target_override(target_score: int | None, mode: str) -> list[str]:
    """``--target-score N`` as a ``--rule`` assignment (checked here for a clear message)."""
    if target_score is None:
        return []
    if mode != "match":
        raise UnosimError("--target-score applies to matches: add --mode match")
    if not 1 <= target_score <= MAX_TARGET:
        raise UnosimError(f"--target-score must be within 1..{MAX_TARGET}, got {target_score}")
    return [f"target_score={target_score}"]


def check_mode_options(mode: str, max_rounds: int | None) -> int | None:
    if max_rounds is not None and mode != "match":
        raise UnosimError("--max-rounds applies to matches: add --mode match")
    if max_rounds is not None and not 1 <= max_rounds <= 1_000_000:
        raise UnosimError(f"--max-rounds must be within 1..1000000, got {max_rounds}")
    return max_rounds


def split_variant(name: str) -> list[str]:
    """``stacking+no-bluff`` -> the presets applied in order."""
    parts = [p.strip() for p in name.split("+")]
    if not name.strip() or any(not p for p in parts):
        raise UnosimError(f"bad variant name {name!r} (use NAME or NAME+NAME)")
    return parts


def build_variants(
    names: tuple[str, ...] | list[str],
    resolve: Callable[[tuple[str, ...]], Any],
    seats_for: Callable[[int], list[Any]],
) -> list[VariantSpec]:
    """One VariantSpec per name; ``resolve(presets)`` gives its rules and
    ``seats_for(players)`` its seat strategies."""
    if len(names) > MAX_VARIANTS:
        raise UnosimError(f"compare takes at most {MAX_VARIANTS} variants, got {len(names)}")
    seen: set[str] = set()
    out = []
    for name in names:
        key = name.strip()
        if key in seen:
            raise UnosimError(f"variant {key!r} is given twice")
        seen.add(key)
        rules = resolve(tuple(split_variant(key)))
        out.append(VariantSpec(key, rules, seats_for(rules["players"])))
    return out


def _csv_rows(rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    if rows:
        w = csv.DictWriter(buf, fieldnames=list(rows[0]))
        w.writeheader()
        for r in rows:
            w.writerow(r)
    return buf.getvalue()


def write_report_files(cmp: Comparison, out_dir: Path, text: str) -> list[str]:
    """Charts (PNG and SVG) and the self-contained report.html."""
    from unosim.reports.charts import figures, save_figures
    from unosim.reports.html import comparison_html

    svgs = save_figures(figures(cmp), out_dir)
    write_text_atomic(out_dir / "report.html", comparison_html(cmp, svgs, text))
    return [*(f"{n}.png" for n in svgs), *(f"{n}.svg" for n in svgs), "report.html"]


def write_compare_outputs(cmp: Comparison, out_dir: Path, text: str) -> list[str]:
    write_text_atomic(out_dir / "summary.json", render_json(cmp.to_dict()) + "\n")
    write_text_atomic(out_dir / "summary.csv", _csv_rows(cmp.rows()))
    return ["summary.json", "summary.csv", *write_report_files(cmp, out_dir, text)]


class _Saver:
    """``--save-games``: records of every batch into one Parquet file."""

    def __init__(self, path: Path | None, mode: str, variants: list[str] | None = None):
        self.writer = None
        self.variants = variants
        if path is None:
            return
        from unosim.reports.parquet import RecordWriter
        from unosim.simulate.layout import GAME_FIELDS
        from unosim.simulate.match_nb import MATCH_FIELDS

        fields = GAME_FIELDS if mode == "round" else MATCH_FIELDS
        consts = {"variant": ""} if variants else None
        self.writer = RecordWriter(path, fields, consts)

    def hook(self, vi: int, first: int, rec: Any) -> None:
        if self.writer is not None:
            consts = {"variant": self.variants[vi]} if self.variants else None
            self.writer.write(first, rec, consts)

    def close(self, ok: bool) -> None:
        if self.writer is None:
            return
        if ok:
            self.writer.close()
        else:
            self.writer.abort()


def compare_command(
    *, names: tuple[str, ...], games: int, variants: list[VariantSpec], seed: int,
    workers: int | None, fmt: str, out_dir: Path | None, mode: str, max_rounds: int | None,
    save_games: Path | None, show_progress: bool,
) -> None:
    from unosim.cli import _with_progress

    if len(variants) < 2:
        raise UnosimError("compare needs at least two variants, e.g. `unosim compare official "
                          "stacking`")
    saver = _Saver(save_games, mode, [v.name for v in variants])
    ok = False
    try:
        cmp = _with_progress(
            show_progress, games * len(variants),
            lambda cb: run_compare(variants, games, seed, workers, mode, max_rounds,
                                   on_batch=cb, on_records=saver.hook))
        ok = True
    finally:
        saver.close(ok)
    text = cmp.render_table()
    click.echo(render_json(cmp.to_dict()) if fmt == "json" else text)
    if out_dir is not None:
        written = write_compare_outputs(cmp, out_dir, text)
        click.echo(f"wrote {len(written)} files to {out_dir}: {', '.join(written)}",
                   err=True)
    if save_games is not None:
        click.echo(f"wrote per-{'game' if mode == 'round' else 'match'} records of every "
                   f"variant to {save_games}", err=True)
    if cmp.partial:
        sys.exit(130)


def run_extended(
    *, name: str, rules: Any, seats: list[Any], games: int, seed: int, workers: int | None,
    fmt: str, out_dir: Path | None, mode: str, max_rounds: int | None,
    save_games: Path | None, report: bool, show_progress: bool,
) -> None:
    """``unosim run`` in match mode, or with --save-games or --report."""
    from unosim.cli import _with_progress
    from unosim.reports.export import summary_csv

    if report and out_dir is None:
        raise UnosimError("--report writes charts and report.html into --out DIR: add --out")
    spec = VariantSpec(name, rules, seats)
    saver = _Saver(save_games, mode)
    collect = report
    ok = False
    try:
        if collect:
            # a one-variant comparison keeps the per-game totals the charts need
            cmp = _with_progress(
                show_progress, games,
                lambda cb: run_compare([spec], games, seed, workers, mode, max_rounds,
                                       on_batch=cb, on_records=saver.hook))
            result = cmp.results[0]
        else:
            result = _with_progress(show_progress, games,
                                    lambda cb: _plain(spec, games, seed, workers, mode,
                                                      max_rounds, cb, saver))
        ok = True
    finally:
        saver.close(ok)
    if mode == "round":
        from unosim.reports.render import render_table
        from unosim.reports.summary import summarize

        summary = summarize(result, name)
        text = render_table(summary)
    else:
        from unosim.reports.match_report import render_match_table, summarize_matches

        summary = summarize_matches(result, name)
        text = render_match_table(summary)
    click.echo(render_json(summary) if fmt == "json" else text)
    if out_dir is not None:
        write_text_atomic(out_dir / "summary.json", render_json(summary) + "\n")
        write_text_atomic(out_dir / "summary.csv", summary_csv(_flat_strategies(summary)))
        if report:
            write_report_files(cmp, out_dir, text)
    if result.partial:
        sys.exit(130)


def _flat_strategies(summary: dict[str, Any]) -> dict[str, Any]:
    """Match summaries hold a list of per-strategy records: one CSV key per field."""
    if "strategy_wins" not in summary:
        return summary
    out = {k: v for k, v in summary.items() if k != "strategy_wins"}
    for row in summary["strategy_wins"]:
        name = row["strategy"]
        out[f"strategy.{name}.wins"] = row["wins"]
        out[f"strategy.{name}.win_share"] = row["win_share"]
        out[f"strategy.{name}.win_share_low"], out[f"strategy.{name}.win_share_high"] = (
            row["win_share_ci95"])
        out[f"strategy.{name}.fair_share"] = row["fair_share"]
    return out


def _plain(spec: VariantSpec, games: int, seed: int, workers: int | None, mode: str,
           max_rounds: int | None, cb: Any, saver: _Saver) -> Any:
    def hook(first: int, rec: Any) -> None:
        saver.hook(0, first, rec)

    if mode == "round":
        from unosim.simulate.runner import run

        return run(spec.rules, spec.seats, games, seed, workers, on_batch=cb, on_records=hook)
    from unosim.simulate.match import DEFAULT_MAX_ROUNDS, run_matches

    return run_matches(spec.rules, spec.seats, games, seed, workers, on_batch=cb,
                       on_records=hook,
                       max_rounds=DEFAULT_MAX_ROUNDS if max_rounds is None else max_rounds)
