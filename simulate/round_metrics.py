"""The per-round metrics, each declared once: what a round's record holds, and how
every floor above the engine reads it.

A round's record (``layout.GAME_RECORD``) starts with the scalar fields below, in
this order, then the per-seat blocks (points, place, stage) and the game-feel
metrics (``FEEL``). Each declaration says, in one place:

* ``name``: the record field, the prefix of the summary's keys (``turns_mean``), the
  metric's name in comparisons, claims and files, and its entry in docs/metrics.md
  (the anchor ``metric-`` and the name);
* ``slot``: the engine's state scalar (``layout.S_*``) that ``round_nb.record_round``
  copies into the field at the end of a round. A slot that layout does not lay out
  itself gets the next free state slot there, so a new counter needs no line in
  layout: its kernel counts in ``G[L.S_NAME]``;
* ``label`` and ``unit``: how it reads in comparisons, verdicts and charts;
* ``margin``: the smallest difference that matters to players, in the metric's units
  (``stats.verdicts.default_margin``; docs/settle.md lists them);
* ``row``: its row in ``run``'s table ("" for none) and ``show``: ``spread`` (mean,
  median and 90th percentile), ``always`` (mean), ``seen`` (mean, only when the
  rules made it happen);
* ``figures``: the summary's keys (``NAME_mean`` ...), in this order;
* ``won_only``: counted over the rounds that have a winner only.

``winner`` and ``capped`` are fields of the record, not totals: the seat win rates
and the capped share are made from them.

This module imports nothing of the project, so every floor may read it: the engine's
layout, the run totals, the reports and the statistics' margins. Its values are
frozen into the compiled engine (through layout), so the engine fingerprint hashes
it: a change here compiles the engine again.
"""

from __future__ import annotations

from typing import NamedTuple


class RoundField(NamedTuple):
    """One scalar field of a round's record (see the module's docstring)."""

    name: str
    slot: str
    label: str = ""
    unit: str = ""
    margin: float | None = None
    row: str = ""
    show: str = ""
    figures: tuple[str, ...] = ("mean", "se")
    won_only: bool = False
    #: folded into the run's totals (count, sum, sum of squares, histogram)
    totalled: bool = True


#: what ``show`` may say, in the order ``run``'s table prints the rows
SHOWN = ("spread", "always", "seen")
_SPREAD = ("mean", "se", "median", "p90")

#: the scalar fields of a round's record, in record order
ROUND_FIELDS: tuple[RoundField, ...] = (
    # length: one turn a round, about one more go around a 4-player table in four rounds
    RoundField("turns", "S_TURNS", "turns per round", "turns", 1.0,
               "turns", "spread", _SPREAD),
    # cards: one card a round is one more draw a player could count
    RoundField("cards_played", "S_PLAYED", "cards played per round", "cards", 1.0,
               "cards played", "spread", _SPREAD),
    RoundField("drawn_no_play", "S_DRAWN_NO_PLAY", "cards drawn, no play", "cards", 1.0,
               "cards drawn, no play", "always"),
    RoundField("penalty_drawn", "S_PEN_DRAWN", "cards drawn, penalty", "cards", 1.0,
               "cards drawn, penalty", "always"),
    RoundField("winner", "S_WINNER", totalled=False),
    # the round winner's points: 5, about one number card
    RoundField("winner_points", "S_WINNER_POINTS", "winner points per round", "points", 5.0,
               "winner points", "spread", _SPREAD, won_only=True),
    # events a round (reshuffles, calls, challenges, jump-ins, swaps ...): one more every
    # ten rounds, rare enough to be told apart at the table
    RoundField("reshuffles", "S_RESHUFFLES", "reshuffles per round", "reshuffles", 0.1,
               "reshuffles", "always"),
    RoundField("capped", "S_CAPPED", totalled=False),
    RoundField("max_stack", "S_MAX_STACK", "longest stack per round", "cards", 1.0,
               figures=("mean",)),
    RoundField("uno_caught", "S_UNO_CAUGHT", "forgotten UNO calls caught", "calls", 0.1,
               figures=("mean",)),
    RoundField("challenges", "S_CHALLENGES", "Wild Draw Four challenges", "challenges", 0.1,
               figures=("mean",)),
    RoundField("jump_ins", "S_JUMP_INS", "jump-ins per round", "jump-ins", 0.1,
               "jump-ins", "seen"),
    RoundField("swaps", "S_SWAPS", "swaps, rotations, trades", "swaps", 0.1,
               "hand swaps and trades", "seen"),
    RoundField("deflections", "S_DEFLECTS", "deflections per round", "deflections", 0.1,
               "deflections", "seen"),
    RoundField("refill_drawn", "S_REFILL", "cards drawn to refill", "cards", 1.0,
               "refill cards drawn", "seen"),
    RoundField("uno_center_drawn", "S_UNO_CENTER", "cards drawn, UNO in the centre", "cards",
               1.0, "UNO-in-the-centre draws", "seen"),
    RoundField("silent_twos_broken", "S_SILENT", "silences broken after a 2", "times", 0.1,
               "silences broken", "seen"),
)

#: the fields folded into the run's totals, in record order
TOTALLED = tuple(f for f in ROUND_FIELDS if f.totalled)


class FeelMetric(NamedTuple):
    """One game-feel metric (docs/metrics.md#game-feel), computed by simulate/feel_nb.py
    over the rounds that have a winner: its record field (``name``), label, unit and
    margin as ``RoundField``'s; ``rate``: a 0/1 outcome, reported as a rate with a
    Wilson interval; ``fixed``: a fraction, recorded in fixed point (times
    ``layout.FEEL_SCALE``)."""

    name: str
    label: str
    unit: str
    margin: float
    rate: bool = False
    fixed: bool = False


#: the game-feel metrics, in record order (layout.G_FEEL + k)
FEEL: tuple[FeelMetric, ...] = (
    # lead changes a round: one more every other round
    FeelMetric("lead_changes", "lead changes", "changes", 0.5),
    # deficits and gaps in cards: half a card a round
    FeelMetric("winner_max_deficit", "winner's largest deficit (cards)", "cards", 0.5),
    # rates of rounds (comeback, first to one card wins, a rival on one card): a point,
    # one round in a hundred that feels different
    FeelMetric("comeback", "comeback (winner 3+ cards behind)", "%", 0.01, rate=True),
    FeelMetric("winner_mean_deficit", "winner's mean deficit (cards)", "cards", 0.5,
               fixed=True),
    # shares of a round (winner behind, leader alone to the end): two points of the round
    FeelMetric("winner_behind_share", "share of the round winner is behind", "share", 0.02,
               fixed=True),
    FeelMetric("lock_in", "lock-in (share led alone to the end)", "share", 0.02, fixed=True),
    FeelMetric("first_uno_wins", "first to one card wins", "%", 0.01, rate=True),
    FeelMetric("rival_on_uno", "a rival reached one card", "%", 0.01, rate=True),
    FeelMetric("leader_gap", "leader's gap (cards)", "cards", 0.5, fixed=True),
)


def margins() -> dict[str, float]:
    """The default margin of every declared metric, by name."""
    return {m.name: m.margin for m in (*ROUND_FIELDS, *FEEL) if m.margin is not None}
