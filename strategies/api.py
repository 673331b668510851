"""The strategy interface: what a strategy sees, what it returns, and helpers.

A strategy is a compiled function ``f(G, rng) -> move``:

    import numba
    from unosim.strategies import api

    @numba.njit
    def my_strategy(G, rng):
        ...
        return move

The engine calls it whenever the seat ``G[api.S_ACTOR]`` has a decision to make.
``G`` (int64[:]) is the whole game, laid out as in ``unosim.simulate.layout``;
``rng`` (uint64[:]) holds the game's generators: a strategy draws its random
numbers from stream 1 only, through ``api.randint`` and ``api.chance``, so a run is
reproducible from its seed. A strategy must not write to ``G`` except the
scratch rows that ``legal_moves`` fills and its seat's memory (``memory(G, p)``,
zeroed at each deal), and returns one legal move, an integer.

Beside ``NAME`` the file may define ``NAME_observe(G, seat, kind, who, a, b)``,
called for every public event (``EV_*``: who did it, and what ``a`` and ``b`` hold
is in ``layout.EventT``) and for the seat's own private ones (``EV_GOT``: a card it
drew or was traded, ``a`` the card, one per card in the order they came) before any
seat decides, and ``NAME_new_game(G, seat)``, called at each deal. Only tables
with such a seat record events, so the others pay nothing for them. A strategy may
instead be plain Python (docs: Write a strategy).

What is being decided is ``G[api.S_PHASE]``; together the phases cover every
decision the rule book leaves to the players (the docs' Strategies page):

| phase | decision | legal moves |
|---|---|---|
| PH_TURN | play a card, or draw | a card type ``t`` held and playable; ``MV_DRAW`` |
| PH_DRAWN | play the card just drawn (``G[S_DRAWN]``) | that card; ``MV_PASS`` |
| PH_CHALLENGE | challenge the Wild Draw Four just played | ``MV_CHALLENGE``, ``MV_ACCEPT`` |
| PH_PENALTY | stack, deflect, reverse or take the penalty ``G[S_PENDING]`` | cards; ``MV_TAKE`` |
| PH_COLOUR | the colour of a first flipped Wild | ``MV_COLOUR + c`` |
| PH_SKIP | pass a Skip on with a Skip of its colour | that Skip; ``MV_ACCEPT`` |
| PH_JUMP | jump in with the card identical to the top | that card; ``MV_PASS`` |
| PH_TARGET | whom to swap (7, Swap Hands) or trade (5) with | ``MV_TARGET + seat``, ``MV_PASS`` |
| PH_GIVE | which card to give in a trade on a 5 | ``MV_GIVE + t`` |

``MV_TARGET + q`` names seat ``q`` itself (seats count from 0, not from the actor).
A card is its type ``t`` (``unosim.simulate.cards``: colour * 13 + rank, wilds
from 52); a wild is played as ``with_colour(t, colour)``, which names the colour (colours
0..3 = red, yellow, green, blue). Bluffing is playing a Wild Draw Four while
holding the current colour (``wd4_is_legal`` tells); the table allows it unless
``wd4_bluff=false``. Under ``finish_on_action=false`` a lone action card or wild is
not legal (it would go out on it): ``legal_moves``, ``count_playable`` and
``nth_playable`` leave it out. Calling UNO is not a move: the engine calls it unless
the seat's ``forget`` parameter fires.

``n = legal_moves(G)`` writes every legal move to ``G[OFF_MOVES + i]`` and the
copies held of each card to ``G[OFF_WEIGHTS + i]`` (i < n); a wild is listed once,
as its type. Each seat's parameters (``NAME:bluff=P,challenge=P,forget=P``) are
probability thresholds read with ``seat_param`` and drawn with ``chance``: e.g.
``chance(rng, seat_param(G, p, SF_BLUFF))`` is true with the seat's bluff
probability. ``builtin_move(api.RANDOM, G, rng)`` hands a decision to a built-in
strategy (``RANDOM``, ``FIRST``, ``DEFENSIVE``, ``OFFENSIVE``, ``COLOUR_KEEPER``,
``ATTACKER``) with the seat's parameters.

The state indices most strategies need are re-exported here (``S_*`` state,
``R_*`` rules); every other index is in ``unosim.simulate.layout``.

What a seat knows about the others is what the table saw: hand sizes
(``hand_size``), places, and the colours a seat was seen to lack (``lacks``: bit
c set when a draw turn of that seat ended with no card of colour c, cleared when
it gets a card). Reading another seat's cards is possible (it is one array) and
is cheating; the built-ins never do it.

Load a plug-in with ``--strategy-file PATH.py:NAME`` (``run``, ``compare``,
``tournament``), then use ``NAME`` like a built-in (``--seat 1=NAME:bluff=0.2``).
``strategies/examples/plugins.py`` holds worked examples.
"""

from __future__ import annotations

import numpy as np

from unosim.simulate import layout as L
from unosim.simulate.cards import (  # noqa: F401
    BLANK,
    N_RANKS,
    N_TYPES,
    POINTS,
    RANK_DRAW_TWO,
    RANK_REVERSE,
    RANK_SKIP,
    SWAP_HANDS,
    WILD,
    WILD_DRAW_FOUR,
)
from unosim.simulate.jit import kernel_inline
from unosim.simulate.layout import (  # noqa: F401
    HC_COLOUR,
    HC_LACKS,
    HC_PLACE,
    HC_POINTS,
    HC_SIZE,
    MV_ACCEPT,
    MV_CHALLENGE,
    MV_COLOUR,
    MV_DRAW,
    MV_GIVE,
    MV_PASS,
    MV_PLAY_END,
    MV_TAKE,
    MV_TARGET,
    OFF_DISC,
    OFF_MOVES,
    OFF_WEIGHTS,
    PH_CHALLENGE,
    PH_COLOUR,
    PH_DRAWN,
    PH_GIVE,
    PH_JUMP,
    PH_PENALTY,
    PH_SKIP,
    PH_TARGET,
    PH_TURN,
    R_ELIMINATION,
    R_HAND_SIZE,
    R_PLAYERS,
    R_SCORING,
    R_STACKING,
    R_WD4_BLUFF,
    R_WD4_CHALLENGE,
    S_ACTIVE,
    S_ACTOR,
    S_COLOUR,
    S_DIR,
    S_DISC_LEN,
    S_DRAW_LEN,
    S_DRAWN,
    S_EFF_SEAT,
    S_LAST,
    S_PEND_KIND,
    S_PENDING,
    S_PHASE,
    S_PREV_COLOUR,
    S_TARGET,
    S_TARGET_KIND,
    S_TOP,
    S_TURNS,
    SF_BLUFF,
    SF_CHALLENGE,
    SF_UNO_FORGET,
)
from unosim.simulate.moves import named_colour, type_of, with_colour  # noqa: F401
from unosim.simulate.rng_nb import chance as _chance
from unosim.simulate.rng_nb import rand_below as _rand_below
from unosim.simulate.step_nb import count_allowed as count_playable  # noqa: F401
from unosim.simulate.step_nb import (  # noqa: F401
    hx,
    is_legal,
    legal_moves,
    next_seat,
    nth_playable,
    seat_param,
    wd4_is_legal,
)
from unosim.strategies.builtin_nb import (  # noqa: F401
    ATTACKER,
    COLOUR_KEEPER,
    DEFENSIVE,
    FIRST,
    OFFENSIVE,
    RANDOM,
    builtin_move,
    fewest_cards_opponent,
    highest_value_card,
    most_held_colour,
)

#: the generator stream strategies draw from (stream 0 deals the cards)
STRATEGY_STREAM = 1

#: the kinds of public events an observe hook receives (``observe(G, seat, kind, who,
#: a, b)``; what a and b hold for each: ``layout.EventT``)
EV_DEAL = L.Event.deal
EV_FLIP = L.Event.flip
EV_PLAY = L.Event.play
EV_DRAW = L.Event.draw
EV_KEEP = L.Event.keep
EV_CHALLENGE = L.Event.challenge
EV_UNO = L.Event.uno
EV_SWAP = L.Event.swap
EV_ROTATE = L.Event.rotate
EV_COLOUR = L.Event.colour
EV_TAKEBACK = L.Event.takeback
EV_OUT = L.Event.out
EV_RESHUFFLE = L.Event.reshuffle
#: private: only the seat ``who`` hears it (a = the card, b = GOT_DRAW or GOT_TRADE)
EV_GOT = L.Event.got
GOT_DRAW = L.GotHow.draw
GOT_TRADE = L.GotHow.trade
#: the words of a seat's memory (``memory``)
MEM_WORDS = L.MEM_WORDS


@kernel_inline
def memory(G, p):
    """Seat ``p``'s memory: MEM_WORDS int64 words that the strategy may read and
    write, zeroed at each deal of a table that records events (a strategy with an
    observe or new_game hook). The only part of G a strategy may write."""
    return G[L.OFF_MEM + p * L.MEM_WORDS:L.OFF_MEM + (p + 1) * L.MEM_WORDS]


@kernel_inline
def randint(rng, n):
    """A uniform integer in [0, n) from the strategies' stream (n >= 1)."""
    return _rand_below(rng, 1, n)


@kernel_inline
def chance(rng, threshold):
    """True with probability ``threshold / 2**53`` (a seat parameter, see
    ``seat_param``; ``probability(p)`` makes one from a float)."""
    return _chance(rng, 1, threshold)


@kernel_inline
def probability(p):
    """The threshold ``chance`` takes for probability ``p`` (0..1)."""
    return np.int64(p * 9007199254740992.0)


@kernel_inline
def held(G, p, t):
    """Copies of card type ``t`` in seat ``p``'s hand."""
    return G[hx(p, t)]


@kernel_inline
def hand_size(G, p):
    return G[hx(p, HC_SIZE)]


@kernel_inline
def colour_count(G, p, c):
    """Cards of colour ``c`` in seat ``p``'s hand."""
    return G[hx(p, HC_COLOUR + c)]


@kernel_inline
def lacks(G, p):
    """Bit mask of the colours seat ``p`` was seen to lack (bit c: colour c)."""
    return G[hx(p, HC_LACKS)]


@kernel_inline
def playing(G, p):
    """Whether seat ``p`` is still in the round (elimination takes seats out)."""
    return G[hx(p, HC_PLACE)] == 0

