"""What ``unosim settle --out DIR`` writes: verdicts.json, verdicts.csv, one PNG card
per claim (cards/NAME.png) and settle.html; with ``--error-rate`` error-rate.json and
error-rate.csv. The caller writes them as one set (all of them or none)."""

from __future__ import annotations

from pathlib import Path

from unosim.common import write_text_atomic
from unosim.reports.render import render_json
from unosim.studies.settle.cards import write_cards, write_page
from unosim.studies.settle.error_rate import ErrorRates
from unosim.studies.settle.report import SettleReport
from unosim.studies.settle.tallies import tallies_csv
from unosim.studies.settle.verdicts import verdicts_csv


def write_verdicts(report: SettleReport, folder: Path) -> list[Path]:
    """The verdicts' files in ``folder``: the cards written (one per claim)."""
    summary = report.to_dict()
    verdicts = report.verdicts
    write_text_atomic(folder / "verdicts.json", render_json(summary) + "\n")
    write_text_atomic(folder / "verdicts.csv", verdicts_csv(verdicts))
    cards = write_cards(verdicts, folder / "cards")
    write_page(verdicts, summary, folder / "settle.html")
    return cards


def write_error_rates(rates: ErrorRates, folder: Path) -> None:
    """error-rate.json and error-rate.csv in ``folder``."""
    write_text_atomic(folder / "error-rate.json", render_json(rates.to_dict()) + "\n")
    write_text_atomic(folder / "error-rate.csv", tallies_csv(rates.synthetic, rates.real))
