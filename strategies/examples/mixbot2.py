"""MixBot2 as published, in plain Python: chausner/UnoAI's strongest rule-based bot,
bluffing Wild Draw Fours (docs: Write a strategy).

``card-counter`` is the same bot compiled, with one difference: UnoAI's engine knows
no challenge, so a Wild Draw Four can always be played there, and MixBot2 plays one
whenever its rules pick it, holding the colour to follow or not. ``card-counter``
does so only where nobody may challenge (``--variant unoai``); under the official
rules it plays a Wild Draw Four only when it is legal. This one plays it as UnoAI's
MixBot2 does, under any rules: a bluff that a challenge may catch. ``bluffs`` is the
chance that it counts a Wild Draw Four it may only bluff as playable, at each
decision: 1 (the default) as published, 0 never, which makes it ``card-counter``
again, move for move (a test checks that the two play the same games).

It hears every public event and keeps what the counter keeps: the copies of each
card not yet on the discard pile, and for every other seat a bound on how many of
each card that seat may hold (none of a colour it drew for, one fewer of a card it
played, more for each card it drew unseen). On its turn it plays, among the cards it
allows itself (a Wild only with 2 or fewer other cards, a Wild Draw Four with 4 or
fewer, any card once the next player holds one), the best by type (Draw Two, Skip,
number, Reverse, Wild Draw Four, Wild; another order when the next player holds one
card), then by colour (the colour it holds most; a wild names any colour held within
one card of the most), then the one the next player is least likely to follow by
the counts; ties at random. Without such a play it draws; a drawn card is played
unless it is a wild and the hand holds more than 2 cards. It never challenges.

    unosim --strategy-file strategies/examples/mixbot2.py:MixBot2 --seat 0=MixBot2 --players 2
    unosim tournament search --field MixBot2 --players 2 --games 2e4 \\
        --strategy-file strategies/examples/mixbot2.py:MixBot2

It assumes the standard deck of 108 cards (the deck of every preset but
``edition112`` and ``uno-h2o``); the house rules' other decisions (stacking, a
Seven's swap, a jump-in) take the first legal move.
"""

COLOURS = ("red", "yellow", "green", "blue")
RANKS = [str(i) for i in range(10)] + ["skip", "reverse", "draw2"]
N_RANKS = 13
WILD, WILD4 = 52, 53  # card types: colour * 13 + rank, then the two wilds
N_TYPES = 54
NAMES = [c[0] + r for c in COLOURS for r in RANKS] + ["wild", "wild4"]
TYPE = {name: t for t, name in enumerate(NAMES)}
#: copies of each type in the deck: one 0 and two of every other rank a colour, 4 + 4 wilds
DECK = [1 if t < WILD and t % N_RANKS == 0 else 2 for t in range(WILD)] + [4, 4]

# the published parameters (tuned for win rate), by type index: 0 number, 1 Reverse,
# 2 Skip (and a Reverse that skips), 3 Draw Two, 4 Wild, 5 Wild Draw Four
PREFERENCE = (4, 3, 5, 6, 1, 2)  # higher first
END_PREFERENCE = (2, 3, 4, 6, 1, 5)  # when the next player holds one card
LIMITS = (-1, -1, -1, -1, 2, 4)  # played only with at most this many other cards (-1: any)
END_LIMITS = (-1, -1, -1, -1, -1, -1)
DRAWN_LIMITS = (-1, -1, -1, -1, 2, 2)  # a drawn card played only at this hand size or less
SLACK = 1  # a wild may name a colour held within this many cards of the most


def colour_of(t):
    return t // N_RANKS if t < WILD else -1


def rank_of(t):
    return t % N_RANKS if t < WILD else -1


def fits(t, top, colour):
    """A card of type ``t`` can be played on ``top`` with ``colour`` to follow (any wild
    can; colour -1: a first Wild that names none yet, on which anything can)."""
    if t >= WILD or colour < 0:
        return True
    return colour_of(t) == colour or (top < WILD and rank_of(t) == rank_of(top))


class MixBot2:
    PARAMS = {"bluffs": (0.0, 1.0, 1.0)}
    bluffs = 1.0

    def new_game(self, view):
        self.heard = []  # the events since the last decision
        self.ready = False

    def observe(self, event):
        self.heard.append(event)

    # ---------------------------------------------------------------- the counts

    def set_up(self, top):
        """After the deal: every card not seen may be in any other hand."""
        self.left = DECK.copy()  # copies not on the discard pile
        self.left[top] -= 1
        self.top = top
        self.colour = colour_of(top)  # a first Wild names its colour later
        self.drawn = 0
        self.bound = [[self.unseen(t) for t in range(N_TYPES)] for _ in range(self.players)]
        self.ready = True

    def unseen(self, t):
        """The most copies of ``t`` another seat can hold: those not on the discard pile
        less those in this seat's hand."""
        return max(self.left[t] - self.held[t], 0)

    def clamp_all(self):
        for p in self.others():
            self.bound[p] = [min(b, self.unseen(t)) for t, b in enumerate(self.bound[p])]

    def add_all(self, p, n):
        """``p`` got ``n`` cards nobody saw."""
        self.bound[p] = [min(b + n, self.unseen(t)) for t, b in enumerate(self.bound[p])]

    def others(self):
        return [p for p in range(self.players) if p != self.seat]

    def hear(self, e):
        """One public event, heard at the seat's next decision (as the compiled
        counter hears them before the next decision), with its hand as it is now."""
        if e.kind == "deal":
            self.ready = False
        elif e.kind == "flip":
            self.set_up(TYPE[e.card])
        elif not self.ready:
            return
        elif e.kind == "play":
            self.heard_play(e.seat, e.card, e.how)
        elif e.kind == "draw":
            if e.seat == self.seat:
                self.clamp_all()
            elif e.how == "turn":
                self.drawn = e.count
            else:
                self.add_all(e.seat, e.count)
        elif e.kind == "keep" and e.seat != self.seat:
            # it ended a draw turn without playing: it held nothing that fits, and now
            # holds the cards it drew, which nobody saw
            n = max(self.drawn, 1)
            self.bound[e.seat] = [0 if fits(t, self.top, self.colour)
                                  else min(b + n, self.unseen(t))
                                  for t, b in enumerate(self.bound[e.seat])]
        elif e.kind == "colour":
            self.colour = COLOURS.index(e.how)
        elif e.kind == "reshuffle":
            self.left = DECK.copy()
            self.left[self.top] -= 1
        elif e.kind == "takeback":
            self.left[WILD4] += 1
            if e.seat != self.seat:
                self.bound[e.seat][WILD4] = min(self.bound[e.seat][WILD4] + 1,
                                                self.unseen(WILD4))
        elif e.kind == "swap" and e.other >= 0:
            if e.how == "five":
                for s in (e.seat, e.other):
                    if s != self.seat:
                        self.add_all(s, 1)
            elif self.seat not in (e.seat, e.other):
                self.bound[e.seat], self.bound[e.other] = self.bound[e.other], self.bound[e.seat]
            else:
                q = e.other if e.seat == self.seat else e.seat
                self.bound[q] = [self.unseen(t) for t in range(N_TYPES)]
            self.clamp_all()
        elif e.kind == "rotate":
            for p in self.others():
                self.bound[p] = [self.unseen(t) for t in range(N_TYPES)]

    def heard_play(self, p, card, how):
        name, _, named = card.partition(":")
        t = TYPE[name]
        top, colour = self.top, self.colour
        if self.left[t] > 0:
            self.left[t] -= 1
        self.top = t
        self.colour = COLOURS.index(named) if t >= WILD else colour_of(t)
        if p == self.seat:
            return
        for r in self.others():
            if r == p:
                if how == "drawn":  # it drew for want of a play: nothing fit the old top
                    self.bound[p] = [0 if fits(k, top, colour) else b
                                     for k, b in enumerate(self.bound[p])]
                elif self.bound[p][t] > 0:
                    self.bound[p][t] -= 1
            else:
                self.bound[r][t] = min(self.bound[r][t], self.unseen(t))

    # ---------------------------------------------------------------- the table

    def next_seat(self, p, k):
        """The seat ``k`` places after ``p`` (seats out under elimination passed over)."""
        n = self.players
        if not self.rules["elimination"]:
            return (p + self.direction * k) % n
        q = p
        for _ in range(k):
            q = (q + self.direction) % n
            while self.places[q]:
                q = (q + self.direction) % n
        return q

    def type_index(self, t):
        if t == WILD4:
            return 5
        if t >= WILD:
            return 4
        r = rank_of(t)
        if r == 10:
            return 2
        if r == 11:
            two_left = sum(1 for x in self.places if x == 0) == 2
            return 2 if two_left and self.rules["two_player_reverse_skips"] else 1
        return 3 if r == 12 else 0

    def seat_after_play(self, t):
        """The seat that acts after this seat plays ``t``."""
        ti = self.type_index(t)
        if ti in (2, 3, 5):
            return self.next_seat(self.seat, 2)
        if ti == 1:
            active = sum(1 for x in self.places if x == 0)
            return self.next_seat(self.seat, active - 1)
        return self.next_seat(self.seat, 1)

    def no_follow_chance(self, v, t, colour):
        """The chance that seat ``v`` holds nothing to play on ``t`` naming ``colour``:
        a hand of its size drawn from the cards it may hold, none of them fitting."""
        n = m = 0
        for k, x in enumerate(self.bound[v]):
            if x > 0:
                n += x
                if fits(k, t, colour):
                    m += x
        if n == 0:
            return 0.0
        if m == 0:
            return 1.0
        d = min(self.counts[v], n)
        if n - m < d:
            return 0.0
        chance_none = 1.0
        for i in range(d):
            chance_none *= (n - m - i) / (n - i)
        return chance_none

    def follow_score(self, t, colour):
        """How unlikely the seat to act next is to follow ``t``: by the counts, or, when
        that seat is this one (a Skip heads-up), 1 if nothing else it holds fits."""
        v = self.seat_after_play(t)
        if v == self.seat:
            for k in range(N_TYPES):
                if self.held[k] - (k == t) > 0 and fits(k, t, colour):
                    return 0.0
            return 1.0
        return self.no_follow_chance(v, t, colour)

    def can_play(self, t, anything, bluff_ok):
        if anything:
            return True
        if t == WILD4:
            return self.legal_wd4() or (bluff_ok and self.rules["wd4_bluff"])
        top, colour = TYPE[self.view.top], COLOURS.index(self.view.colour)
        return fits(t, top, colour)

    def legal_wd4(self):
        return self.colours[COLOURS.index(self.view.colour)] == 0

    def most_held_colour(self):
        """The colour held most; ties at random."""
        best = max(self.colours)
        ties = [c for c in range(4) if self.colours[c] == best]
        return ties[self.view.randint(len(ties)) if len(ties) > 1 else 0]

    def last_card_barred(self):
        """A last card that may not go out on an action (finish_on_action off)."""
        if self.rules["finish_on_action"] or len(self.view.hand) != 1:
            return False
        t = TYPE[self.view.hand[0]]
        return t >= WILD or rank_of(t) >= 10

    # ---------------------------------------------------------------- decisions

    def play(self, anything, bluff_ok):
        """The card it plays (a wild with its colour), or None to draw."""
        if self.last_card_barred():
            return None
        endgame = self.counts[self.next_seat(self.seat, 1)] == 1
        limits = END_LIMITS if endgame else LIMITS
        preference = END_PREFERENCE if endgame else PREFERENCE
        free = sum(k for t, k in enumerate(self.held) if k and limits[self.type_index(t)] < 0)
        most = max(self.colours)
        options = [t for t in range(N_TYPES)
                   if self.held[t] and self.can_play(t, anything, bluff_ok)]
        best = -1
        for relax in (0, 1):
            for t in options:
                lim = limits[self.type_index(t)]
                if relax == 0 and lim >= 0 and free > lim:
                    continue
                best = max(best, preference[self.type_index(t)])
            if best >= 0 or anything or relax == 1:
                break
            if self.rules["voluntary_draw"] or not self.plays_without_bluff():
                return None
        if best < 0:
            return None
        picks = [(t, c) for t in options if preference[self.type_index(t)] == best
                 for c in (range(4) if t >= WILD else (colour_of(t),))]

        def colour_rank(t, c):
            if t < WILD:
                return 1 if self.colours[c] == most and most > 0 else 0
            k = self.colours[c]
            return 1 if most == 0 or (k > 0 and k >= most - SLACK) else 0

        top_colour = max(colour_rank(t, c) for t, c in picks)
        picks = [(t, c) for t, c in picks if colour_rank(t, c) == top_colour]
        scores = [self.follow_score(t, c) for t, c in picks]
        picks = [x for x, s in zip(picks, scores, strict=True) if s == max(scores)]
        t, c = picks[self.view.randint(len(picks)) if len(picks) > 1 else 0]
        return t, c

    def plays_without_bluff(self):
        return any(self.held[t] and (self.legal_wd4() if t == WILD4 else
                                     self.can_play(t, False, False))
                   for t in range(N_TYPES))

    def choose(self, view):
        self.view = view
        self.seat = view.seat
        self.players = view.players
        self.rules = view.rules
        self.places = view.places
        self.counts = view.counts
        self.direction = view.direction
        self.held = [0] * N_TYPES
        for c in view.hand:
            if c in TYPE:
                self.held[TYPE[c]] += 1
        self.colours = [sum(self.held[c * N_RANKS:(c + 1) * N_RANKS]) for c in range(4)]
        for e in self.heard:
            self.hear(e)
        self.heard = []
        if not self.ready:  # a table dealt without events (a crafted state)
            self.set_up(TYPE[view.top])
        phase = view.phase
        if phase in ("turn", "drawn"):
            free_bluff = self.rules["wd4_bluff"] and not self.rules["wd4_challenge"]
            bluff_ok = free_bluff or view.chance(self.bluffs)
            if phase == "drawn":
                return self.drawn_move(bluff_ok)
            move = self.play(False, bluff_ok)
            return "draw" if move is None else self.text(*move)
        if phase == "colour":
            # a first turned Wild: name the colour of the card it would play
            move = self.play(True, True)
            c = self.most_held_colour() if move is None else move[1]
            return "colour:" + COLOURS[c]
        if "accept" in view.legal:
            return "accept"
        return view.legal[0]

    def drawn_move(self, bluff_ok):
        t = TYPE[self.view.drawn]
        lim = DRAWN_LIMITS[self.type_index(t)]
        if lim >= 0 and len(self.view.hand) > lim:
            return "pass"
        if t == WILD4 and not self.legal_wd4() and not bluff_ok:
            return "pass"
        if t >= WILD:
            return self.text(t, self.most_held_colour())
        return self.text(t, -1)

    @staticmethod
    def text(t, c):
        return NAMES[t] + (":" + COLOURS[c] if t >= WILD else "")
