"""The verdicts of ``unosim settle``: their result types, the one-line verdict, the
JSON and CSV files and the catalogue listing (the study that decides them is
``looks.py``; the page and the cards are ``cards.py``).

A verdict is TRUE (the claim holds by more than its margin, the smallest difference
that matters), FALSE (the opposite holds by more than the margin), NO REAL DIFFERENCE
(the effect lies within the margin), NOT SHOWN (undecided after every look; the line
says about how many games would likely decide it) or DEPENDS (it holds at some player
counts or seats, not at others). Effects are the claim's subject minus its reference
(the variant minus the baseline, the first strategy against the second, a figure
minus a stated value); rates are in percentage points.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from unosim import provenance
from unosim.stats.numbers import decimals_for

VERDICTS = ("TRUE", "FALSE", "NO REAL DIFFERENCE", "NOT SHOWN", "DEPENDS")


@dataclass
class Cell:
    """The answer at one player count or seat (``where`` empty for a single one)."""

    where: str
    effect: float
    low: float
    high: float
    games: int
    look: int
    verdict: str
    subject: float = math.nan  # the figure the claim is about
    reference: float = math.nan  # what it is measured against
    z: float = math.nan  # the interval's half-width in standard errors at its look

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


@dataclass
class Verdict:
    """A claim's verdict with what it rests on."""

    name: str
    sentence: str
    source: str
    study: str
    metric: str
    label: str  # the metric in words
    unit: str  # "pp" for rates, else the metric's unit
    scale: float  # 100 for rates (shown in percentage points), else 1
    direction: str
    margin: float  # the smallest difference that matters, in the effect's units
    verdict: str
    cells: list[Cell]
    seed: int
    games: int  # games at the first look, as asked
    looks: int
    confidence: str  # the level the intervals have together, the looks and their z
    command: str
    about: str  # what is compared, in words
    partial: bool = False
    elapsed_s: float = 0.0
    played: str = "games"  # what ``games`` counts: games (rounds) or matches
    extra: dict[str, Any] = field(default_factory=dict)
    own_margin: bool = False  # the claim's own margin, not its metric's default
    alpha: float = 0.05  # the claim's error (under --all its share of the catalogue's)
    level: float = 0.95  # the chance that all of a place's intervals hold the truth
    z: list[float] = field(default_factory=list)  # each look's z
    boundary: str = "obrien-fleming"  # how the error is spent over the looks
    places: int = 1  # player counts or seats asked at (the error is split over them)
    games_total: int = 0  # games played: per variant, summed over the player counts
    games_needed: float | None = None  # NOT SHOWN: games in all that would likely decide
    games_suggested: int | None = None  # NOT SHOWN: the --games that plays about that

    @property
    def games_played(self) -> int:
        return self.games_total or sum(c.games for c in self.cells)


def _dec(v: Verdict, c: Cell) -> int:
    """Decimals that show the interval's half-width to two figures or so."""
    h = c.half_width * v.scale
    if not math.isfinite(h) or h <= 0:
        return 2
    d = min(4, decimals_for(h))
    ends = [x * v.scale for x in (c.low, c.high, c.effect) if x != 0]
    while d < 4 and any(round(x, d) == 0 for x in ends):
        d += 1  # an end that is not 0 never prints as 0
    return d


def _fmt(x: float, v: Verdict, dec: int) -> str:
    if not math.isfinite(x):
        return "n/a"
    return f"{round(x * v.scale, dec) + 0.0:+.{dec}f}"


def _unit(v: Verdict) -> str:
    return f" {v.unit}" if v.unit else ""


def figure(v: Verdict, c: Cell) -> str:
    """``+3.02 turns (interval +2.61 to +3.43)``."""
    d = _dec(v, c)
    return (f"{_fmt(c.effect, v, d)}{_unit(v)} (interval {_fmt(c.low, v, d)} to "
            f"{_fmt(c.high, v, d)})")


def margin_text(v: Verdict) -> str:
    """``margin ±1 turn``, ``margin ±0.5 pp``: the smallest difference that matters."""
    m = round(v.margin * v.scale, 6) + 0.0
    unit = v.unit
    if m == 1 and unit.endswith("s") and unit != "pp":
        unit = unit[:-1]
    return f"margin ±{m:g}" + (f" {unit}" if unit else "")


def levels(v: Verdict, c: Cell) -> str:
    """``49.6 vs 46.6 turns, ``: the figure and what it is measured against, when both
    are known (rates in %)."""
    if not (math.isfinite(c.subject) and math.isfinite(c.reference)):
        return ""
    d = _dec(v, c)
    unit = "%" if v.unit == "pp" else (f" {v.unit}" if v.unit else "")
    return (f"{round(c.subject * v.scale, d) + 0.0:.{d}f}{unit} vs "
            f"{round(c.reference * v.scale, d) + 0.0:.{d}f}{unit}, ")


def cell_text(v: Verdict, c: Cell, tag: bool = False) -> str:
    from unosim.stats.verdicts import ruled_out

    where = f"{c.where}: " if c.where else ""
    label = f" ({c.verdict.lower()})" if tag else ""
    text = f"{where}{levels(v, c)}{figure(v, c)}{label}"
    if c.verdict == "NOT SHOWN":
        out = ruled_out(v.direction, c.low, c.high, v.margin)
        if out:
            text += ", rules out " + " and ".join(out)
    return text


def needed_text(v: Verdict) -> str:
    """For NOT SHOWN: about how many games would likely decide it."""
    if v.verdict != "NOT SHOWN" or v.games_needed is None or v.partial:
        return ""
    if not math.isfinite(v.games_needed):
        return "; undecided at the last look, and no number of games is likely to decide it"
    more = f" (--games {v.games_suggested})" if v.games_suggested else ""
    return (f"; undecided at the last look: about {_round(v.games_needed):,} {v.played} "
            f"would likely decide it{more}")


def _round(x: float) -> int:
    """Two significant figures, up."""
    if x <= 100:
        return math.ceil(x)
    unit = 10 ** (math.floor(math.log10(x)) - 1)
    return int(math.ceil(x / unit) * unit)


def verdict_line(v: Verdict) -> str:
    """The one line: verdict, sentence, figure with its interval, the margin, games,
    seed, the level of the intervals, command."""
    cells = v.cells
    if not cells:
        body = "not played"
    elif v.verdict == "DEPENDS":
        yes = [c for c in cells if c.verdict == "TRUE"]
        no = [c for c in cells if c.verdict != "TRUE"]
        body = ("holds at " + "; ".join(cell_text(v, c) for c in yes) + " | not at "
                + "; ".join(cell_text(v, c, tag=True) for c in no))
    else:
        mixed = len({c.verdict for c in cells}) > 1
        body = "; ".join(cell_text(v, c, tag=mixed) for c in cells)
    games = f"{v.games_played:,} {v.played}"
    mark = " (PARTIAL)" if v.partial else ""
    return (f"{v.verdict}{mark}: {v.sentence} ({v.about}): {body}; {margin_text(v)}; "
            f"{games}, seed {v.seed}{needed_text(v)}; intervals {v.confidence} · "
            f"{v.command}")


def to_dict(v: Verdict) -> dict[str, Any]:
    d = asdict(v)
    d["line"] = verdict_line(v)
    d["games_played"] = v.games_played
    d.pop("games_total")
    d["margin_shown"] = v.margin * v.scale
    d["margin_from"] = "claim" if v.own_margin else "metric default"
    d.pop("own_margin")
    if d["games_needed"] is not None and math.isfinite(d["games_needed"]):
        d["games_needed"] = _round(d["games_needed"])
    for c, cd in zip(v.cells, d["cells"], strict=True):
        cd["effect_shown"] = c.effect * v.scale
        cd["interval_shown"] = [c.low * v.scale, c.high * v.scale]
        cd["half_width_shown"] = c.half_width * v.scale
    return d


#: the count of claims a stop cut short: not settled, so under no verdict
CUT_SHORT = "CUT SHORT"


def verdict_counts(verdicts: list[Verdict]) -> dict[str, int]:
    """How many claims got each verdict; a claim a stop cut short (its verdict is only
    where its games had got to) counts as ``CUT SHORT``, not under its verdict."""
    counts = {k: sum(v.verdict == k and not v.partial for v in verdicts) for k in VERDICTS}
    counts[CUT_SHORT] = sum(v.partial for v in verdicts)
    return counts


def settle_summary(verdicts: list[Verdict], seed: int, partial: bool,
                   elapsed_s: float, method: str, error: str = "",
                   alpha: float = 0.05, family: bool = False) -> dict[str, Any]:
    """The JSON of a settle run (``--format json`` and verdicts.json): ``error`` says
    what the run's verdicts are sure of (each claim's error, or the catalogue's)."""
    return {"provenance": provenance(), "command": "settle", "seed": seed,
            "partial": partial, "elapsed_s": elapsed_s, "method": method,
            "error": error, "alpha": alpha,
            "family": "bonferroni over the claims" if family else None,
            "counts": verdict_counts(verdicts),
            "verdicts": [to_dict(v) for v in verdicts]}


CSV_COLUMNS = ("name", "verdict", "where", "effect", "low", "high", "unit", "margin",
               "z", "level", "games", "look", "games_needed", "seed", "sentence", "metric",
               "command")


def verdicts_csv(verdicts: list[Verdict]) -> str:
    """One row per claim and place (player count or seat); rates in percentage points."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(CSV_COLUMNS)
    for v in verdicts:
        for c in v.cells:
            w.writerow([v.name, v.verdict if len(v.cells) == 1 else f"{v.verdict}/{c.verdict}",
                        c.where, c.effect * v.scale, c.low * v.scale, c.high * v.scale,
                        v.unit, v.margin * v.scale, c.z, v.level, c.games, c.look,
                        "" if v.games_needed is None or not math.isfinite(v.games_needed)
                        else _round(v.games_needed), v.seed, v.sentence, v.metric,
                        v.command])
    return buf.getvalue()


def render_catalogue(rows: list[tuple[str, str, str]]) -> str:
    """``unosim settle`` without claims: name, study and sentence of each claim."""
    w = max(len(r[0]) for r in rows) + 2
    lines = [f"{len(rows)} claims (run one with `unosim settle NAME`, all with "
             "`unosim settle --all`):", ""]
    lines += [f"  {name:<{w}}{study:<12}{sentence}" for name, study, sentence in rows]
    return "\n".join(lines)
