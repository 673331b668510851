"""Python strategies that watch what a seat is told (tests/strategies/test_python_seats.py).

Each keeps what it saw in class attributes, which the tests read and reset.
"""

import os
import time
from collections import Counter


def card_type(card):
    """The card a play or a hand names, without a wild's colour: ``wild4:red`` -> ``wild4``."""
    return card.partition(":")[0]


class HandTracker:
    """A card counter on the public API alone: its hand as dealt (new_game), plus the
    cards it got (its private events), less the cards it played or gave. At every
    decision it writes down where that differs from the hand it really holds."""

    checked = 0
    wrong = []
    got = 0
    reshuffles = 0
    foreign = []  # private events of another seat (none may come)
    order_wrong = []  # decisions where view.arrivals is not the order it kept

    def new_game(self, view):
        self.me = view.seat
        self.hand = Counter(view.hand)
        self.order = list(view.hand)  # the dealt cards, then each as it came

    def _leave(self, card):
        self.hand[card] -= 1
        i = len(self.order) - 1 - self.order[::-1].index(card)  # the newest copy leaves
        del self.order[i]

    def observe(self, event):
        cls = type(self)
        if event.kind == "got":
            if event.seat != self.me:
                cls.foreign.append(event)
            self.hand[event.card] += 1
            self.order.append(event.card)
            cls.got += 1
        elif event.kind == "play" and event.seat == self.me:
            self._leave(card_type(event.card))
        elif event.kind == "takeback" and event.seat == self.me:
            self.hand["wild4"] += 1
            self.order.append("wild4")
        elif event.kind == "reshuffle":
            cls.reshuffles += 1

    def choose(self, view):
        cls = type(self)
        cls.checked += 1
        if +self.hand != Counter(view.hand):
            cls.wrong.append((view.seat, view.turn, dict(+self.hand), view.hand))
        if tuple(self.order) != view.arrivals or (
                view.phase == "drawn" and view.arrivals[-1] != view.drawn):
            cls.order_wrong.append((view.seat, view.turn, self.order, view.arrivals))
        move = view.legal[view.randint(len(view.legal))]
        if move.startswith("give:"):
            self._leave(move[5:])
        return move


class Listener:
    """Plays the first legal move and keeps the longest run of events it heard between
    two of its decisions, over all games."""

    longest = 0

    def new_game(self, view):
        self.since = 0

    def observe(self, event):
        self.since += 1
        type(self).longest = max(type(self).longest, self.since)

    def choose(self, view):
        self.since = 0
        return view.legal[0]


class DealSpy:
    """Writes down new_game's view and the events heard before its first decision."""

    seen = []  # (game, seat, hand, counts, top, new_game's view's events, heard next)
    games = 0  # rounds dealt (new_game reaches the seats in seat order)

    def new_game(self, view):
        if view.seat == 0:
            type(self).games += 1
        self.first = None
        self.heard = []
        self.dealt = (type(self).games - 1, view.seat, view.hand, view.counts, view.top,
                      view.events)

    def observe(self, event):
        self.heard.append(event)

    def choose(self, view):
        if self.first is None:
            self.first = True
            type(self).seen.append((*self.dealt, tuple(self.heard)))
        return view.legal[0]


class counts_games:  # noqa: N801 - named as the command line names it
    """Counts the rounds it is dealt and the decisions it is asked."""

    games = 0
    decisions = 0

    def new_game(self, view):
        type(self).games += 1

    def choose(self, view):
        type(self).decisions += 1
        return view.legal[0]


def busy(view):
    """Uses some 0.2 s of CPU time at its first decision of a game."""
    if view.turn < 2:
        end = time.thread_time() + 0.2
        while time.thread_time() < end:
            pass
    return view.legal[0]


def spins(view):
    """Never returns: only the budget's timer stops it."""
    while True:
        pass


def napper(view):
    """Sleeps 0.15 s at its first decision of a game: wall time, but no CPU time."""
    if view.turn < 2:
        time.sleep(0.15)
    return view.legal[0]


def marked(view):
    """Spends a millisecond of CPU on each decision, and at its first one writes the
    file UNOSIM_TEST_MARK names (so a test knows the games have begun)."""
    mark = os.environ.get("UNOSIM_TEST_MARK")
    if mark and not os.path.exists(mark):
        with open(mark, "w") as f:
            f.write("playing\n")
    end = time.thread_time() + 0.001
    while time.thread_time() < end:
        pass
    return view.legal[0]
