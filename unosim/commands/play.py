"""``unosim play``: sit at a table in the terminal, seat 0, against built-in or Python
strategies, under any preset and rule values (Textual, the extra ``play``)."""

from __future__ import annotations

import click

from unosim import options as opt
from unosim.errors import UnosimError

#: the strategy of every opponent seat --seat does not name
DEFAULT_OPPONENT = "offensive"
EXTRA = "unosim play needs the extra 'play': pip install 'unosim[play]'"


@click.command(short_help="Play a round in the terminal against the strategies.")
@opt.players
@opt.variant
@opt.rule
@opt.seat
@opt.seed
@opt.hint_rollouts
@opt.training
@opt.strategy_file
def play(players: int | None, variant: tuple[str, ...], rule: tuple[str, ...],
         seat: tuple[str, ...], seed: int | None, hint_rollouts: int | None,
         training: bool) -> None:
    """Play UNO at a table in the terminal: you sit in seat 0, the opponents are
    strategies (offensive in every seat that --seat N=NAME, N from 1, does not name).
    Your hand, the top card and colour, the direction, every seat's card count and
    the last moves are shown; the legal moves are numbered from 1: press a digit (or
    the arrows and Enter) to play one. After a round, n deals the next one (the same
    seed deals the same rounds) and q quits. h shows the search player's estimate
    beside each move, r reviews a round played, and with --training u takes your
    last decision back."""
    try:
        import textual  # noqa: F401
    except ImportError:
        raise UnosimError(EXTRA) from None
    table, labels, title = make_table(players, variant, rule, seat, seed)
    from unosim.play.app import PlayApp

    if hint_rollouts is not None:
        table.hint_rollouts = hint_rollouts
    app = PlayApp(table, labels, title, training=training)
    failure = app.run()
    if app.return_code == 2:
        raise UnosimError(str(failure))


def make_table(players: int | None, variant: tuple[str, ...], rule: tuple[str, ...],
               seat: tuple[str, ...], seed: int | None) -> tuple:
    """The table the options describe, its seats' labels and a title line."""
    from unosim.play.table import Table
    from unosim.runs.variants import variant_label

    rules = opt.resolve_rules(variant, rule, players)
    n = int(rules["players"])
    seats = opt.seats_for(n, DEFAULT_OPPONENT, seat)
    if any(item.partition("=")[0].strip() == "0" for item in seat):
        raise UnosimError("--seat 0: seat 0 is yours; give the opponents seats 1.."
                          f"{n - 1}")
    seed = opt.pick_seed(seed, announce=False)
    labels = ["you", *(s.label() for s in seats[1:])]
    return Table(rules, seats[1:], seed), labels, f"{variant_label(variant)} · {n} players"
