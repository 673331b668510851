"""Slow, plain-Python reference engine for one UNO round.

This is an independent implementation of the rules as the docs state them
(docs/rules.md#the-game-in-brief and the keys' entries in docs/rules.md#every-key,
the round scores of docs/matches.md#scoring, the counters of docs/metrics.md#per-round
and the strategy ``random`` of docs/strategies.md#reference-random), written to be
read, not to be fast.  It is used
to check the statistics of the compiled engine.  Only the standard library is
used; all randomness comes from one ``random.Random`` per round.

Supported rules: the official game, ``stacking="none"`` or ``"progressive"``
(with ``stack_cards`` ``"same"``, ``"mixed"`` or ``"wd4_on_d2"``), ``first_card``
``"official"`` / ``"number_only"``,
``draw_rule`` ``"draw_one"`` / ``"draw_until_playable"`` / ``"draw_one_pass"``,
``scoring`` ``"winner_takes"`` / ``"losers_score"``, ``seven_o`` (a 7 swaps
with the opponent holding the fewest cards, a 0 rotates every hand) and
``jump_in`` without stacking (an identical card jumps in, the jumper chosen at
random among the takers, its card acting instead), ``finish_on_action=False`` (a
lone action card or wild may not be played: the player draws or takes the penalty)
and ``final_draw=False`` (a Draw card that ends the round makes nobody draw). Each round
also yields the game-feel metrics of docs/metrics.md#game-feel (``feel_metrics``).
Every seat plays the reference strategy ``random``
(docs/strategies.md#reference-random): it never bluffs, never challenges, always
calls UNO (so no UNO penalty ever happens), always stacks when it can and always
plays a playable drawn card.

A card is a tuple ``(colour, rank)``:
  * colour is one of ``COLOURS`` or ``None`` for the two wild cards;
  * rank is ``"0"`` .. ``"9"``, ``"skip"``, ``"reverse"``, ``"draw2"``,
    ``"wild"`` or ``"wild4"``.
Piles are Python lists whose *end* is the top (``pop()`` draws the top card).
"""

from __future__ import annotations

import random

COLOURS = ("red", "yellow", "green", "blue")
NUMBER_RANKS = tuple(str(n) for n in range(10))
ACTION_RANKS = ("skip", "reverse", "draw2")
WILD_RANKS = ("wild", "wild4")
DRAW_AMOUNT = {"draw2": 2, "wild4": 4}

STACKING_MODES = ("none", "progressive")
STACK_CARDS = ("same", "mixed", "wd4_on_d2")
FIRST_CARD_MODES = ("official", "number_only")
DRAW_RULES = ("draw_one", "draw_until_playable", "draw_one_pass")
SCORING_MODES = ("winner_takes", "losers_score")

DECK_SIZE = 108


def classic_deck() -> list[tuple]:
    """The 108-card classic deck, in a fixed (unshuffled) order."""
    deck = []
    for colour in COLOURS:
        deck.append((colour, "0"))
        for rank in NUMBER_RANKS[1:] + ACTION_RANKS:
            deck.append((colour, rank))
            deck.append((colour, rank))
    for _ in range(4):
        deck.append((None, "wild"))
        deck.append((None, "wild4"))
    assert len(deck) == DECK_SIZE
    return deck


def card_points(card: tuple) -> int:
    """Score value of one card: face value, 20 for an action card, 50 for a wild."""
    rank = card[1]
    if rank in NUMBER_RANKS:
        return int(rank)
    if rank in ACTION_RANKS:
        return 20
    return 50


def hand_points(hand: list[tuple]) -> int:
    return sum(card_points(card) for card in hand)


def is_number(card: tuple) -> bool:
    return card[1] in NUMBER_RANKS


class Round:
    """One round of UNO with all seats playing the ``random`` strategy.

    Build it, call :meth:`play`, then read :meth:`result`.  The piles and hands
    stay available afterwards (``hands``, ``draw_pile``, ``discard``) so that
    tests can check card conservation.
    """

    def __init__(
        self,
        players: int = 4,
        seed: int = 0,
        stacking: str = "none",
        first_card: str = "official",
        draw_rule: str = "draw_one",
        turn_cap: int = 5000,
        scoring: str = "winner_takes",
        hand_size: int = 7,
        seven_o: bool = False,
        jump_in: bool = False,
        stack_cards: str = "same",
        finish_on_action: bool = True,
        final_draw: bool = True,
    ):
        if jump_in and stacking != "none":
            raise ValueError("jump_in is only modelled with stacking='none'")
        if not 2 <= players <= 10:
            raise ValueError(f"players must be 2..10, got {players}")
        if stacking not in STACKING_MODES:
            raise ValueError(f"unknown stacking {stacking!r}")
        if stack_cards not in STACK_CARDS:
            raise ValueError(f"unknown stack_cards {stack_cards!r}")
        if first_card not in FIRST_CARD_MODES:
            raise ValueError(f"unknown first_card {first_card!r}")
        if draw_rule not in DRAW_RULES:
            raise ValueError(f"unknown draw_rule {draw_rule!r}")
        if scoring not in SCORING_MODES:
            raise ValueError(f"unknown scoring {scoring!r}")
        if players * hand_size + 1 > DECK_SIZE:
            raise ValueError("deck too small for players x hand_size + 1")

        self.players = players
        self.stacking = stacking
        self.first_card = first_card
        self.draw_rule = draw_rule
        self.turn_cap = turn_cap
        self.scoring = scoring
        self.hand_size = hand_size
        self.seven_o = seven_o
        self.jump_in = jump_in
        self.stack_cards = stack_cards
        self.finish_on_action = finish_on_action
        self.final_draw = final_draw
        self.rng = random.Random(seed)

        self.hands: list[list[tuple]] = [[] for _ in range(players)]
        self.draw_pile: list[tuple] = []
        self.discard: list[tuple] = []
        self.colour: str | None = None  # current colour (named colour after a wild)
        self.direction = 1  # +1: seat order increasing (clockwise), -1: decreasing
        self.current = 0  # seat whose turn it is
        self.pending = 0  # accumulated penalty waiting for its victim (stacking only)

        # metrics (docs/metrics.md#per-round)
        self.turns = 0
        self.cards_played = 0
        self.drawn_no_play = 0
        self.penalty_drawn = 0
        self.reshuffles = 0
        self.winner = -1
        self.capped = False
        self.finished = False
        # game feel (docs/metrics.md#game-feel): the hand sizes when each turn starts and when the
        # winner goes out
        self.samples: list[list[int]] = []

    # ------------------------------------------------------------------ basics

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.players

    @property
    def top(self) -> tuple:
        return self.discard[-1]

    def all_cards(self) -> list[tuple]:
        """Every card in the round: hands, draw pile and discard pile."""
        cards = list(self.draw_pile) + list(self.discard)
        for hand in self.hands:
            cards.extend(hand)
        return cards

    def draw_one_card(self) -> tuple | None:
        """Take the top card of the draw pile, reshuffling the discards if needed.

        Returns None when both piles are empty (the discard pile holding only its
        top card counts as empty: that card always stays).
        """
        if not self.draw_pile:
            if len(self.discard) <= 1:
                return None
            top = self.discard.pop()
            self.draw_pile = self.discard
            self.discard = [top]
            self.rng.shuffle(self.draw_pile)
            self.reshuffles += 1
        return self.draw_pile.pop()

    def draw_cards(self, seat: int, count: int) -> list[tuple]:
        """Seat draws up to ``count`` cards (fewer when both piles run dry)."""
        drawn = []
        for _ in range(count):
            card = self.draw_one_card()
            if card is None:
                break
            self.hands[seat].append(card)
            drawn.append(card)
        return drawn

    def take_penalty(self, seat: int, amount: int) -> None:
        drawn = self.draw_cards(seat, amount)
        self.penalty_drawn += len(drawn)

    # ---------------------------------------------------------------- legality

    def holds_colour(self, hand: list[tuple], colour: str | None) -> bool:
        return any(card[0] == colour for card in hand)

    def is_playable(self, card: tuple, hand: list[tuple]) -> bool:
        """Official legality of ``card`` (held in ``hand``) on the current top card."""
        colour, rank = card
        if rank == "wild":
            return True
        if rank == "wild4":
            # legal only without a card of the current colour; never bluffed
            return not self.holds_colour(hand, self.colour)
        if colour == self.colour:
            return True
        top_rank = self.top[1]
        return top_rank not in WILD_RANKS and rank == top_rank

    def barred(self, hand: list[tuple]) -> bool:
        """finish_on_action=False: the hand's last card is an action card or a wild, so
        it may not be played (it would go out on it)."""
        return not self.finish_on_action and len(hand) == 1 and not is_number(hand[0])

    def playable_cards(self, hand: list[tuple]) -> list[tuple]:
        """Playable physical cards (duplicates kept: two red 5s appear twice)."""
        if self.barred(hand):
            return []
        return [card for card in hand if self.is_playable(card, hand)]

    def stackable_cards(self, hand: list[tuple]) -> list[tuple]:
        """Cards that may go on the pending penalty (progressive): the same card; with
        ``mixed`` also a Draw Two of the named colour on a Wild Draw Four; with
        ``mixed`` or ``wd4_on_d2`` a (legal) Wild Draw Four on a Draw Two."""
        if self.barred(hand):
            return []
        top_rank = self.top[1]
        wd4_legal = not self.holds_colour(hand, self.colour)
        if top_rank == "draw2":
            out = [card for card in hand if card[1] == "draw2"]
            if self.stack_cards != "same" and wd4_legal:
                out += [card for card in hand if card[1] == "wild4"]
            return out
        if top_rank == "wild4":
            out = [card for card in hand if card[1] == "wild4"] if wd4_legal else []
            if self.stack_cards == "mixed":
                out += [card for card in hand if card == (self.colour, "draw2")]
            return out
        raise AssertionError("a penalty is pending but the top card is no draw card")

    # ---------------------------------------------------------------- strategy

    def choose_colour(self, hand: list[tuple]) -> str:
        """Random strategy: colour held most often; ties and no colour at random."""
        counts = {colour: 0 for colour in COLOURS}
        for card in hand:
            if card[0] is not None:
                counts[card[0]] += 1
        best = max(counts.values())
        if best == 0:
            return self.rng.choice(COLOURS)
        tied = [colour for colour in COLOURS if counts[colour] == best]
        return self.rng.choice(tied)

    # ------------------------------------------------------------------- setup

    def setup(self) -> None:
        self.draw_pile = classic_deck()
        self.rng.shuffle(self.draw_pile)
        for _ in range(self.hand_size):
            for seat in range(self.players):
                self.hands[seat].append(self.draw_pile.pop())

        while True:
            card = self.draw_pile.pop()
            bad = card[1] == "wild4" or (self.first_card == "number_only" and not is_number(card))
            if not bad:
                break
            # put it back, shuffle the draw pile, flip again (not a counted reshuffle)
            self.draw_pile.append(card)
            self.rng.shuffle(self.draw_pile)
        self.discard = [card]
        self.colour = card[0]

        # seat 0 (left of the dealer) would start; the first card may change that
        rank = card[1]
        first = 0
        dealer = self.players - 1
        if rank == "skip":
            self.current = self.next_seat(first)  # seat 0 is skipped
        elif rank == "reverse":
            if self.players == 2:
                self.current = self.next_seat(first)  # acts as a Skip
            else:
                self.direction = -1
                self.current = dealer
        elif rank == "draw2":
            # a first flipped Draw Two is never stackable: seat 0 draws and is skipped
            self.take_penalty(first, 2)
            self.current = self.next_seat(first)
        elif rank == "wild":
            self.colour = self.choose_colour(self.hands[first])
            self.current = first
        else:
            self.current = first

    # -------------------------------------------------------------- game flow

    def play_card(self, seat: int, card: tuple) -> None:
        """Move ``card`` from the seat's hand to the discard pile and apply it."""
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        self.cards_played += 1
        colour, rank = card
        self.colour = self.choose_colour(hand) if colour is None else colour

        amount = DRAW_AMOUNT.get(rank, 0)

        if not hand:
            # the round is over; a pending penalty is still drawn (not a turn)
            self.samples.append([len(h) for h in self.hands])  # before that penalty
            self.winner = seat
            self.finished = True
            total = self.pending + amount
            self.pending = 0
            if total and self.final_draw:
                self.take_penalty(self.next_seat(seat), total)
            return

        if self.seven_o and rank == "7":
            # swap with the opponent holding the fewest cards, ties at random
            others = [q for q in range(self.players) if q != seat]
            fewest = min(len(self.hands[q]) for q in others)
            target = self.rng.choice([q for q in others if len(self.hands[q]) == fewest])
            self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
        elif self.seven_o and rank == "0":
            # every hand passes to the next player in the direction of play
            old = self.hands
            self.hands = [None] * self.players
            for q in range(self.players):
                self.hands[self.next_seat(q)] = old[q]
        if self.jump_in and rank != "wild4":
            # the window: whoever holds an identical card jumps in (random always
            # does; several takers: one at random); its card acts instead of this one
            takers = [q for q in range(self.players)
                      if card in self.hands[q] and not self.barred(self.hands[q])]
            if takers:
                jumper = self.rng.choice(takers)
                self.samples.append([len(h) for h in self.hands])  # a jump-in is a turn
                self.turns += 1
                if rank == "reverse" and self.players != 2:
                    # Reverses add up: the one jumped upon flips the direction too (at
                    # two players a Reverse is a Skip and flips nothing)
                    self.direction = -self.direction
                self.play_card(jumper, card)
                return
        if rank == "skip":
            self.current = self.next_seat(seat, 2)
        elif rank == "reverse":
            if self.players == 2:
                self.current = self.next_seat(seat, 2)
            else:
                self.direction = -self.direction
                self.current = self.next_seat(seat)
        elif amount:
            if self.stacking == "progressive":
                # the victim will stack or take the total on its own turn
                self.pending += amount
                self.current = self.next_seat(seat)
            else:
                victim = self.next_seat(seat)
                self.take_penalty(victim, amount)
                self.current = self.next_seat(victim)
        else:
            self.current = self.next_seat(seat)

    def face_pending(self, seat: int) -> None:
        """Turn of a seat facing a pending penalty (stacking): stack or take it."""
        options = self.stackable_cards(self.hands[seat])
        if options:
            self.play_card(seat, self.rng.choice(options))
            return
        self.take_penalty(seat, self.pending)
        self.pending = 0
        self.current = self.next_seat(seat)

    def normal_turn(self, seat: int) -> None:
        hand = self.hands[seat]
        options = self.playable_cards(hand)
        if options:
            self.play_card(seat, self.rng.choice(options))
            return

        if self.draw_rule == "draw_until_playable":
            while True:
                drawn = self.draw_cards(seat, 1)
                if not drawn:
                    break  # both piles empty: the turn passes
                self.drawn_no_play += 1
                if self.is_playable(drawn[0], hand):
                    self.play_card(seat, drawn[0])
                    return
        else:
            drawn = self.draw_cards(seat, 1)
            self.drawn_no_play += len(drawn)
            if drawn and self.draw_rule == "draw_one" and self.is_playable(drawn[0], hand):
                self.play_card(seat, drawn[0])
                return
        self.current = self.next_seat(seat)

    def play(self) -> Round:
        self.setup()
        while not self.finished:
            if self.turns >= self.turn_cap:
                self.capped = True
                break
            seat = self.current
            self.samples.append([len(h) for h in self.hands])
            self.turns += 1
            if self.pending:
                self.face_pending(seat)
            else:
                self.normal_turn(seat)
        return self

    def result(self) -> dict:
        points = [hand_points(hand) for hand in self.hands]
        if self.winner >= 0 and self.scoring == "winner_takes":
            winner_points = sum(p for seat, p in enumerate(points) if seat != self.winner)
        else:
            winner_points = 0
        return {
            "turns": self.turns,
            "cards_played": self.cards_played,
            "drawn_no_play": self.drawn_no_play,
            "penalty_drawn": self.penalty_drawn,
            "winner": self.winner,
            "winner_points": winner_points,
            "reshuffles": self.reshuffles,
            "capped": self.capped,
            "points": points,
            **(feel_metrics(self.samples, self.winner) if self.winner >= 0 and self.samples
               else {}),
        }


def play_round(
    players: int = 4,
    seed: int = 0,
    stacking: str = "none",
    first_card: str = "official",
    draw_rule: str = "draw_one",
    turn_cap: int = 5000,
    scoring: str = "winner_takes",
    seven_o: bool = False,
    jump_in: bool = False,
    stack_cards: str = "same",
    finish_on_action: bool = True,
    final_draw: bool = True,
) -> dict:
    """Play one round with every seat on the ``random`` strategy; return its metrics."""
    game = Round(
        players=players,
        seed=seed,
        stacking=stacking,
        first_card=first_card,
        draw_rule=draw_rule,
        turn_cap=turn_cap,
        scoring=scoring,
        seven_o=seven_o,
        jump_in=jump_in,
        stack_cards=stack_cards,
        finish_on_action=finish_on_action,
        final_draw=final_draw,
    )
    return game.play().result()


# ---------------------------------------------------- game feel (docs/metrics.md#game-feel)

FEEL_METRICS = ("lead_changes", "winner_max_deficit", "comeback", "winner_mean_deficit",
                "winner_behind_share", "lock_in", "first_uno_wins", "rival_on_uno",
                "leader_gap")


def feel_metrics(samples: list[list[int]], winner: int) -> dict:
    """The per-round metrics of docs/metrics.md#game-feel from the distance vectors sampled at
    t = 0..T (``samples[t][seat]``), written straight from the definitions."""
    T = len(samples) - 1

    def sole_leader(d: list[int]) -> int | None:
        m = min(d)
        return d.index(m) if d.count(m) == 1 else None

    changes, last = 0, None
    for d in samples:
        lead = sole_leader(d)
        if lead is not None:
            if last is not None and lead != last:
                changes += 1
            last = lead
    deficits = [d[winner] - min(d) for d in samples]
    s = T + 1  # the start of the winner's last run alone in the lead
    while s > 0 and sole_leader(samples[s - 1]) == winner:
        s -= 1
    if s == T + 1:
        s = T
    first = next(t for t, d in enumerate(samples) if min(d) <= 1)
    return {
        "lead_changes": changes,
        "winner_max_deficit": max(deficits),
        "comeback": int(max(deficits) >= 3),
        "winner_mean_deficit": sum(deficits) / (T + 1),
        "winner_behind_share": sum(x > 0 for x in deficits) / (T + 1),
        "lock_in": (T - s) / T if T else 1.0,
        "first_uno_wins": int(samples[first][winner] <= 1),
        "rival_on_uno": int(any(d[q] <= 1 for d in samples for q in range(len(d))
                                if q != winner)),
        "leader_gap": sum(sorted(d)[1] - sorted(d)[0] for d in samples) / (T + 1),
    }


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def run_many(n_games: int, seed: int = 0, **kw) -> list[dict]:
    """Play ``n_games`` independent rounds; game ``i`` uses seed ``seed*1_000_003 + i``."""
    return [play_round(seed=game_seed(seed, i), **kw) for i in range(n_games)]


def _summary(results: list[dict], players: int) -> str:
    import math
    import statistics

    n = len(results)

    def mean_se(key: str) -> str:
        values = [r[key] for r in results]
        mean = statistics.fmean(values)
        se = statistics.stdev(values) / math.sqrt(n) if n > 1 else 0.0
        return f"{mean:9.3f} +- {se:.3f}"

    lines = [f"games: {n}"]
    for key in ("turns", "cards_played", "drawn_no_play", "penalty_drawn", "reshuffles"):
        lines.append(f"  {key:15s} {mean_se(key)}")
    won = [r for r in results if not r["capped"]]
    wp = [r["winner_points"] for r in won]
    if len(wp) > 1:
        lines.append(
            f"  {'winner_points':15s} {statistics.fmean(wp):9.3f} +- "
            f"{statistics.stdev(wp) / math.sqrt(len(wp)):.3f}"
        )
    lines.append(f"  capped          {n - len(won)}")
    for seat in range(players):
        p = sum(r["winner"] == seat for r in results) / n
        lines.append(f"  seat {seat} win rate {p:.4f} +- {math.sqrt(p * (1 - p) / n):.4f}")
    return "\n".join(lines)


if __name__ == "__main__":
    import argparse
    import time

    parser = argparse.ArgumentParser(description="Run the reference engine and print means.")
    parser.add_argument("-n", "--games", type=int, default=5000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stacking", default="none", choices=STACKING_MODES)
    parser.add_argument("--first-card", default="official", choices=FIRST_CARD_MODES)
    parser.add_argument("--draw-rule", default="draw_one", choices=DRAW_RULES)
    parser.add_argument("--scoring", default="winner_takes", choices=SCORING_MODES)
    args = parser.parse_args()
    start = time.perf_counter()
    res = run_many(
        args.games,
        seed=args.seed,
        players=args.players,
        stacking=args.stacking,
        first_card=args.first_card,
        draw_rule=args.draw_rule,
        scoring=args.scoring,
    )
    elapsed = time.perf_counter() - start
    print(_summary(res, args.players))
    print(f"  {args.games / elapsed:.0f} games/s")
