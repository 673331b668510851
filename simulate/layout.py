"""Index layout of the flat array ``G`` that holds one game, shared by the
compiled engine and Python, and the codes the engine keeps in it.

A game is two arrays: ``G`` (int64[G_SIZE]) and ``RNG`` (uint64[8], two xoshiro
streams: 0 = cards, 1 = strategies and table). ``G`` holds the state scalars, the
rules, the seat strategies, every hand, both piles and the deck. One flat array
instead of many is what keeps calls between the compiled step functions cheap:
Numba passes every array as some ten machine words, and the step functions are
called tens of times per game.

The layout is declared, not chained by hand: each block is a (name, size) laid
after the one before it (``Blocks``, as OpenSpiel's observers accumulate their
tensor pieces), and the named slots inside a block are numbered in the order they
are declared (``Fields``); a block that overflows raises at import, and
``check_blocks`` refuses overlapping blocks and names outside ``G``. Every name
is still a plain module-level integer: Numba freezes module globals as
compile-time constants, so kernels that read ``G[L.S_PHASE]`` pay nothing for it.

The codes kept in ``G`` have one source each, here: phases (PH_*), moves (MV_*;
the move encoding itself is ``moves.with_colour`` / ``type_of`` / ``named_colour``),
and the ids of the rule values (NamedTuples of ints in the manner of vectorbt's
``enums.py``, shared by ``rules.lower`` and the kernels).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from unosim.simulate.cards import N_COLOURS, SWAP_HANDS, TYPE_SLOTS
from unosim.simulate.round_metrics import FEEL, ROUND_FIELDS


class LayoutError(Exception):
    """A block that overflows, overlaps another or lies outside ``G``."""


class Fields:
    """The named slots of one block, numbered in the order they are declared:
    ``S_TURNS = _state()`` takes the next slot, ``_hand(4)`` four of them. With a
    ``capacity`` the block keeps spare slots, and one slot too many raises."""

    def __init__(self, block: str, start: int = 0, capacity: int | None = None) -> None:
        self.block = block
        self.start = start
        self.capacity = capacity
        self.count = 0

    def __call__(self, size: int = 1) -> int:
        at = self.start + self.count
        self.count += size
        if self.capacity is not None and self.count > self.capacity:
            raise LayoutError(f"block {self.block!r} is full ({self.capacity} slots): "
                              "raise its capacity")
        return at

    @property
    def end(self) -> int:
        return self.start + self.count


class Blocks:
    """Blocks laid end to end: a block's offset is the sum of the sizes before it."""

    def __init__(self) -> None:
        self.blocks: list[tuple[str, int, int]] = []  # (name, offset, size)
        self.size = 0

    def add(self, name: str, size: int) -> int:
        offset = self.size
        self.blocks.append((name, offset, size))
        self.size += size
        return offset


def check_blocks(blocks: Iterable[tuple[str, int, int]], total: int,
                 names: Mapping[str, int] | None = None) -> None:
    """Raise LayoutError if a block (name, offset, size) overlaps another or does
    not lie inside ``G`` (``0 .. total``), or if a named index lies outside it."""
    end, last = 0, None
    for name, offset, size in sorted(blocks, key=lambda b: (b[1], b[2])):
        if size < 0 or offset < 0 or offset + size > total:
            raise LayoutError(f"block {name!r} ({offset}, {size}) lies outside G ({total})")
        if offset < end:
            raise LayoutError(f"block {name!r} at {offset} overlaps {last!r} (ends at {end})")
        end, last = offset + size, name
    for name, index in (names or {}).items():
        if not 0 <= index < total:
            raise LayoutError(f"{name} = {index} lies outside G ({total})")


MAX_PLAYERS = 10
MAX_DECK = 512
MAX_MOVES = 96  # legal moves of one decision, and the search's candidates

# ---- state scalars (the first block of G) ----
_state = Fields("state")
S_PHASE = _state()
S_ACTOR = _state()
S_DIR = _state()  # +1 clockwise (seat order increasing), -1 counter-clockwise
S_TOP = _state()  # type of the top discard
S_COLOUR = _state()  # current colour (the named colour after a wild)
S_PENDING = _state()  # penalty cards waiting for the next victim
S_PEND_KIND = _state()  # the Penalty the last card set (Penalty.none: none)
S_LAST = _state()  # seat the pending penalty came from (a challenge targets it)
S_BLUFF = _state()  # 1 when the last Wild Draw Four was illegal
S_DRAWN = _state()  # type just drawn (PH_DRAWN)
S_DRAW_LEN = _state()
S_DISC_LEN = _state()
S_TURNS = _state()
S_PLAYED = _state()
S_DRAWN_NO_PLAY = _state()
S_PEN_DRAWN = _state()
S_RESHUFFLES = _state()
S_WINNER = _state()  # first seat out; -1 while nobody is out or when capped
S_CAPPED = _state()
S_STACK_LEN = _state()  # draw cards in the current chain
S_MAX_STACK = _state()  # longest chain this round
S_UNO_CAUGHT = _state()  # forgotten UNO calls that were caught
S_CHALLENGES = _state()
S_PREV_COLOUR = _state()  # colour before the last Wild Draw Four (challenge, takeback)
S_EFF_SEAT = _state()  # seat whose card's effect is still to be resolved
S_EFF_CARD = _state()  # that card
S_JUMP_INS = _state()
S_SWAPS = _state()  # hand swaps (7, Swap Hands), rotations (0) and trades (5)
S_DEFLECTS = _state()  # skip and reverse deflections, deflect-mode answers
S_REFILL = _state()  # cards drawn to refill a hand (seven_rounds)
S_ACTIVE = _state()  # seats still playing (elimination)
S_WINNER_POINTS = _state()  # what the first seat out was awarded
S_TARGET_KIND = _state()  # a TargetKind while PH_TARGET / PH_GIVE are open
S_TARGET = _state()  # the chosen target of a trade on a 5
S_GIVE = _state()  # the card the trading player gives
S_JUMP_IDX = _state()  # next jump-in candidate to ask
S_JUMP_N = _state()  # jump-in candidates
S_UNO_CENTER = _state()  # cards drawn for "UNO in the centre"
S_SILENT = _state()  # silences broken after a 2
S_WENT_OUT = _state()  # type of the card the first seat went out with
# game-feel samples (docs/metrics.md#game-feel; simulate/feel_nb.py)
S_FEEL_N = _state()  # samples folded so far; once the winner is out (feel_stop), all samples
S_FEEL_LEAD = _state()  # last sole leader + 1 among the folded samples (0: none yet)
S_FEEL_CHANGES = _state()  # lead changes so far
S_FEEL_GAP = _state()  # sum over samples of (second-smallest - smallest distance)
S_FEEL_UNO = _state()  # 1 once some player had distance <= 1 at a sample
S_FEEL_PREV = _state()  # sole leader + 1 at the last folded sample (0: a tie)
S_FEEL_RUN = _state()  # first t of that sole leader's current unbroken run
# while sampling: the turn whose sample sits first in the buffer (a turn's sample is
# buffered at S_TURNS - S_FEEL_AT, so a sample keeps no counter of its own); once the
# winner is out (feel_stop): how many samples the buffer holds, not folded yet
S_FEEL_AT = _state()
# 64 * players + 16 when a turn simply passes to the next seat (no elimination, no
# Wild Draw Four takeback), else 0: set by ``deal``; step_nb._next_turn passes the turn
# with one test and one table read
S_TURN_BASE = _state()
# a per-round counter declared in round_metrics.py whose slot is not laid out above
# takes the next state slot (its kernel counts in G[L.S_...]; deal zeroes it)
for _field in ROUND_FIELDS:
    if _field.slot not in globals():
        globals()[_field.slot] = _state()
del _field
N_STATE = _state.count

# ---- hands: seat p, column c at OFF_H + p * HW + c ----
# columns 0..63 count each card type; then cards per colour and wild cards (the
# "fifth colour": t // N_RANKS is 4 for every wild type), hand size, hand value,
# finishing place (elimination, 0 = still playing), stage (seven_rounds), a flag
# to skip the seat's next turn (a caught bluff under wd4_challenge_takeback), and the
# colours the table saw the seat lack (bit c: a draw turn ended with no card of
# colour c, and the seat has received no card since; strategies read it). A swap of
# hands exchanges the columns up to HC_POINTS, so those stay first.
_hand = Fields("hand columns", start=TYPE_SLOTS)
HC_COLOUR = _hand(N_COLOURS)
HC_WILDS = _hand()
# the cards of colour c packed 4 bits a rank (rank r at bit 4 r) at HC_NIBS + c, kept
# up to date card by card with the counts above (a wild adds 0 to the fifth, unused
# slot): ``random`` finds its k-th card of the colour in a few instructions without a
# branch (step_nb.nth_playable_inline)
HC_NIBS = _hand(N_COLOURS + 1)
HC_SIZE = _hand()
HC_POINTS = _hand()
HC_PLACE = _hand()
HC_STAGE = _hand()
HC_SKIP_NEXT = _hand()
HC_LACKS = _hand()
HW = _hand.end

# ---- per seat p: OFF_SEATF + p * N_SEATF + SF_*, probability thresholds ----
_seatf = Fields("seat parameters")
SF_UNO_FORGET = _seatf()  # forget to call UNO (the rule value or the strategy's override)
SF_BLUFF = _seatf()  # bluff a Wild Draw Four when it would be illegal
SF_CHALLENGE = _seatf()  # challenge a Wild Draw Four
SF_INFORMED = _seatf()  # 1: challenge from the cards seen (challenge=informed), not by chance
N_SEATF = _seatf.count

# ---- per seat p: OFF_SP + p * N_SP + SP_*, the search's parameters ----
_sp = Fields("search parameters")
SP_ROLLOUTS = _sp()
SP_POLICY = _sp()  # built-in id of the rollout policy for the seat itself
SP_MODEL = _sp()  # built-in id of the rollout policy for every other seat (the model)
SP_INFER = _sp()  # 1: deal worlds under the inference from draws (OFF_PUB); 0: ignore it
SP_DEPTH = _sp()  # turns a rollout plays before a heuristic value ends it; 0: to the end
SP_HALVING = _sp()  # 1: sequential halving over the candidates; 0: an even split
SP_TREE = _sp()  # 1: a tree over the seat's own decisions (search_nb's tree); 0: flat
SP_VALUE = _sp()  # 1: cut rollouts valued by the learned weights (value=learned); 0: cards
N_SP = _sp.count

# ---- per seat p: OFF_FEEL + p * N_FEELF + FE_*, game-feel accumulators
# (docs/metrics.md#game-feel), updated when buffered samples are folded (feel_nb.py) ----
_feel = Fields("feel accumulators")
FE_DEF_SUM = _feel()  # sum over samples of d_p - m
FE_DEF_MAX = _feel()  # largest d_p - m
FE_BEHIND = _feel()  # samples with d_p > m
FE_UNO = _feel()  # bit 1: d_p <= 1 at some sample; bit 2: at the first sample anyone had;
# bit 4 (the winner's, folded alone): another seat had d <= 1 at some sample
N_FEELF = _feel.count

#: rule slots: the keys of rules.SCHEMA that reach the engine. The block is full: a new
#: key is one line below plus one more slot here, and every later block moves with it.
#: Kept full (no spare) because a 16-slot spare shifted every later block and measured
#: some 5% slower (noisy runs, possibly 4K aliasing between the state words and later
#: writes); raised 32 -> 34 for finish_on_action and final_draw: bench when raising it.
N_RULES = 34
#: table probabilities (RF_*), with spare room
N_RF = 4
#: parameters of a parametric strategy (weighted, tuned, adaptive, gang-up) per slot
N_SPARAM = 32
SPARAM_SCALE = 1000
#: game-feel sample buffer: each sample's distances packed 16 bits a seat, 4 seats a word
FEEL_BUF = 768

# ---- the blocks of G, in order ----
_G = Blocks()
OFF_S = _G.add("state", N_STATE)
OFF_R = _G.add("rules", N_RULES)
OFF_RF = _G.add("table probabilities", N_RF)
OFF_SEATF = _G.add("seat parameters", MAX_PLAYERS * N_SEATF)
OFF_STRAT = _G.add("strategy ids", MAX_PLAYERS)  # strategy id of seat p: OFF_STRAT + p
# jump-in candidates in the order they are asked: OFF_ORDER .. + MAX_PLAYERS
OFF_ORDER = _G.add("jump-in order", MAX_PLAYERS)
OFF_H = _G.add("hands", MAX_PLAYERS * HW)
OFF_DRAW = _G.add("draw pile", MAX_DECK)  # no order (a draw takes a random card)
OFF_DISC = _G.add("discard pile", MAX_DECK)  # bottom first
OFF_DECK = _G.add("deck", MAX_DECK)  # the deck dealt from, one entry per card
OFF_MOVES = _G.add("legal moves", MAX_MOVES)  # legal_moves writes moves here ...
OFF_WEIGHTS = _G.add("copies held", MAX_MOVES)  # ... and the copies held of each here
# what the table inferred (strategies/search_nb.py): per seat p, OFF_PUB + p: what its
# last draw turn showed it held none of, on the assumption that a player draws only
# without a playable card and plays a playable drawn card: bits 0-3 colours, bit 4
# Wild and Wild Draw Four, bits 8-20 ranks. Set from the public history alone (the
# colour and top card when it drew; what it got since), never from the hand, unlike
# HC_LACKS, whose bit can depend on a card nobody saw (after a voluntary draw or a kept
# drawn card), while what the search reads must follow from the public history alone.
OFF_PUB = _G.add("public inference", MAX_PLAYERS)
PUB_WILD = 4
PUB_RANK = 8
# parameters of the parametric strategies: slot s (the template seat that declared
# them) at OFF_SPARAM + s * N_SPARAM, fixed point (value * SPARAM_SCALE). The slot is
# carried in the strategy id (see strategies/builtin_nb.py), so the parameters follow a
# player who changes seats. Inside a search world (below G_CORE), so a parametric
# rollout policy reads them there (a search seat's own slot holds its policy's).
OFF_SPARAM = _G.add("strategy parameters", MAX_PLAYERS * N_SPARAM)
OFF_FEEL = _G.add("feel accumulators", MAX_PLAYERS * N_FEELF)
OFF_FEEL_MODE = _G.add("feel mode", 1)  # 0 off, 1 one word a sample, 2 any
# the hand sizes of seats 0-3, 16 bits a seat: the sample of a table of up to 4 players,
# kept up to date card by card (step_nb._hand_add, _hand_remove) and set by the deal, so
# that a turn's sample is one load and one store (feel_nb.feel_pack sets it anew where
# hands are changed otherwise)
OFF_FEEL_SIZES = _G.add("feel hand sizes", 1)
OFF_FEEL_BUF = _G.add("feel samples", FEEL_BUF)
# a code per buffered sample, written by the first pass of the fold (feel_nb)
OFF_FEEL_SCRATCH = _G.add("feel scratch", FEEL_BUF)
# nonzero when a rule that acts on a played card's decisions is on (silent_twos,
# seven_o, swap_on_five, swap_hands_wild, jump_in): set by ``deal`` from the rules,
# so under other rules a played card makes one test for them all
OFF_HOUSE = _G.add("house decisions on", 1)
# per card type (TYPE_SLOTS each): its colour (4 for a wild), its rank (-1 for a
# wild), its lane in the packed colour word (HC_NIBS) and its points; then per seat its
# lane in the packed hand sizes (OFF_FEEL_SIZES). Constant tables, written into the
# template by rules.lower (card_tables), here and in the search's worlds (OFF_W0, OFF_W),
# which copy only a game's changing parts: the engine's hot paths read them at a fixed
# offset from G, where a table of the module costs one more instruction a read (its
# address, a 64-bit constant, taken anew at each use)
OFF_CARD_COLOUR = _G.add("card colours", TYPE_SLOTS)
OFF_CARD_RANK = _G.add("card ranks", TYPE_SLOTS)
OFF_CARD_NIB = _G.add("card lanes", TYPE_SLOTS)
OFF_CARD_POINTS = _G.add("card points", TYPE_SLOTS)
OFF_SEAT_LANE = _G.add("seat lanes", MAX_PLAYERS)
# a game: the span a search world occupies (the feel region inside it, so a step in a
# world never reaches past it; the search keeps the world's feel sampling off)
G_CORE = _G.size
# the search's parameters per seat (read from the game, never inside a world)
OFF_SP = _G.add("search parameters", MAX_PLAYERS * N_SP)
# a parametric opponent model's parameters, slot s for the search seat of template slot
# s (SP_MODEL carries the slot, as a parametric strategy id does)
OFF_MPARAM = _G.add("search: model parameters", MAX_PLAYERS * N_SPARAM)
# the search's scratch space (one game array per thread already, so no allocation):
OFF_W0 = _G.add("search: sampled world", G_CORE)
OFF_W = _G.add("search: rollout world", G_CORE)
# the worlds' generators (8 words, as uint64), then a saved copy
OFF_WRNG = _G.add("search: world generators", 16)
OFF_CAND = _G.add("search: candidates", MAX_MOVES)
OFF_SCORE = _G.add("search: rollouts won", MAX_MOVES)  # per candidate, in VALUE_UNITs
OFF_ALIVE = _G.add("search: candidates left", MAX_MOVES)  # 1 while a candidate is in
OFF_POOL = _G.add("search: unseen cards", MAX_DECK)
OFF_SCOUNT = _G.add("search: counters", 2)  # searched decisions, rollouts (for bench)
# the round's public events (docs/write-a-strategy.md#events), written only while RF_EVENTS is
# on: event i (counted from the deal) at OFF_EV + (i % EV_CAP) * EV_WIDTH as (kind,
# seat, a, b); OFF_EV_N counts them, OFF_EV_READ is how far the compiled observers read.
# Laid after every other block, so no offset the engine was tuned on moves.
EV_WIDTH = 4
EV_CAP = 256
OFF_EV_N = _G.add("events: written", 1)
OFF_EV_READ = _G.add("events: observed", 1)
OFF_EV = _G.add("events", EV_CAP * EV_WIDTH)
#: a strategy's memory: seat p's words at OFF_MEM + p * MEM_WORDS, zeroed at each deal
#: of a table that records events (docs/write-a-strategy.md#memory)
MEM_WORDS = 512
OFF_MEM = _G.add("strategy memory", MAX_PLAYERS * MEM_WORDS)
#: the rollouts each search candidate had (sequential halving gives the candidates it
#: drops fewer): what a hint's interval is counted over (search_nb.search_figures)
OFF_TRIED = _G.add("search: rollouts per candidate", MAX_MOVES)
# the card counter as a rollout seat (search ``policy=card-counter`` or
# ``model=card-counter``, strategies/counter_nb.py ``counter_world_move``) counts the
# cards from what the world shows: per type, the copies in the deck (CW_DECK), those
# not on the discard pile when the search's decision began (CW_LEFT, with that pile's
# length and the reshuffles so far), and those not on the world's discard pile now
# (CW_NOW, worked out from the others at each of its decisions that needs them)
CW_DECK = 0
CW_LEFT = TYPE_SLOTS
CW_NOW = 2 * TYPE_SLOTS
CW_DISC = 3 * TYPE_SLOTS
CW_RESHUFFLES = CW_DISC + 1
OFF_CW = _G.add("search: the card counter's counts in worlds", CW_RESHUFFLES + 1)
# the search's tree over its own decisions (``tree=1``, search_nb): TREE_NODES nodes of
# TREE_W words (TN_*), the nodes one rollout passed through, and a world's candidates
TN_MOVE, TN_N, TN_V, TN_A, TN_CHILD, TN_NEXT = range(6)
TREE_W = 6
TREE_NODES = 1024
TREE_PATH = 64
OFF_TREE = _G.add("search: tree nodes", TREE_NODES * TREE_W)
OFF_TPATH = _G.add("search: a rollout's path in the tree", TREE_PATH)
OFF_TCAND = _G.add("search: candidates in a world", MAX_MOVES)
G_SIZE = _G.size
#: every block of G as (name, offset, size)
BLOCKS = tuple(_G.blocks)

# ---- rules (absolute indices into G): one line a key; one too many raises here ----
_rules = Fields("rules", start=OFF_R, capacity=N_RULES)
R_PLAYERS = _rules()
R_HAND_SIZE = _rules()
R_FIRST_CARD = _rules()  # FirstCard
R_DRAW_RULE = _rules()  # DrawRule
R_VOLUNTARY_DRAW = _rules()
R_WD4_BLUFF = _rules()
R_WD4_CHALLENGE = _rules()
R_WD4_TAKEBACK = _rules()
R_TWO_P_REVERSE_SKIPS = _rules()
R_UNO_PENALTY = _rules()
R_UNO_IN_CENTER = _rules()
R_STACKING = _rules()  # Stacking
R_STACK_CARDS = _rules()  # StackCards
R_FINISH_ON_ACTION = _rules()  # 0: a hand may not be emptied with an action card
R_FINAL_DRAW = _rules()  # 0: a round that ends with a penalty pending draws nothing
R_SKIP_DEFLECT = _rules()
R_REVERSE_DEFLECT = _rules()
R_JUMP_IN = _rules()
R_JUMP_IN_ORDER = _rules()  # JumpInOrder
R_SEVEN_O = _rules()
R_SWAP_ON_FIVE = _rules()
R_ZERO_FIFTY = _rules()
R_DRAW_TEN = _rules()  # DrawTen
R_COLOR_ROTATION = _rules()
R_ELIMINATION = _rules()
R_SEVEN_ROUNDS = _rules()
R_SWAP_HANDS_WILD = _rules()
R_DOWNPOUR = _rules()
R_SCORING = _rules()  # Scoring
R_TARGET_SCORE = _rules()
R_DEALER_ROTATION = _rules()  # DealerRotation
R_TURN_CAP = _rules()
R_DECK_SIZE = _rules()
# internal, never set by a rule: 1 skips the game-feel samples (work that never
# reports them, such as a search player's rollouts); rules.lower leaves it 0
R_FEEL_OFF = _rules()

# ---- probabilities, stored as thresholds: chance(p) <=> 53 random bits < ceil(p * 2**53)
P_ONE = 1 << 53
_probs = Fields("table probabilities", start=OFF_RF, capacity=N_RF)
RF_UNO_CATCH = _probs()
RF_SILENT_TWOS = _probs()
# not a probability: 1 while the table records its public events (OFF_EV), which it
# does only for a seat that observes them; a search's worlds keep it 0
RF_EVENTS = _probs()


# ---- what the choice rules hold: rule value -> id (rules.lower), read by the kernels ----
class FirstCardT(NamedTuple):
    """R_FIRST_CARD: which first flipped card may start a round."""

    official: int = 0  # anything but a Wild Draw Four or a special wild
    number_only: int = 1  # a number card (0-9)


class DrawRuleT(NamedTuple):
    """R_DRAW_RULE: what a player without a play draws."""

    draw_one: int = 0  # one card, played at once if it can be
    draw_until_playable: int = 1
    draw_one_pass: int = 2  # one card, and the turn is over


class StackingT(NamedTuple):
    """R_STACKING: answers to a pending draw penalty."""

    none: int = 0
    progressive: int = 1  # stack: the penalties add up
    deflect: int = 2  # pass the same penalty on


class StackCardsT(NamedTuple):
    """R_STACK_CARDS: which draw cards stack on which."""

    same: int = 0
    mixed: int = 1
    wd4_on_d2: int = 2  # a Wild Draw Four on a Draw Two, never a Draw Two on it


class JumpInOrderT(NamedTuple):
    """R_JUMP_IN_ORDER: who may jump in first."""

    random: int = 0
    nearest: int = 1


class DrawTenT(NamedTuple):
    """R_DRAW_TEN: the cards that make the next player draw 10."""

    none: int = 0
    blanks: int = 1
    zeros: int = 2


class ScoringT(NamedTuple):
    """R_SCORING: how a round is scored (match_nb)."""

    winner_takes: int = 0
    losers_score: int = 1
    lazy: int = 2
    game101: int = 3


class DealerRotationT(NamedTuple):
    """R_DEALER_ROTATION: who leads the next round of a match."""

    clockwise: int = 0
    winner_leads: int = 1


FirstCard = FirstCardT()
DrawRule = DrawRuleT()
Stacking = StackingT()
StackCards = StackCardsT()
JumpInOrder = JumpInOrderT()
DrawTen = DrawTenT()
Scoring = ScoringT()
DealerRotation = DealerRotationT()
#: rule key -> the ids of its values (the field names are the values rules.SCHEMA takes)
CHOICES: dict[str, NamedTuple] = {
    "first_card": FirstCard,
    "draw_rule": DrawRule,
    "stacking": Stacking,
    "stack_cards": StackCards,
    "jump_in_order": JumpInOrder,
    "draw_ten": DrawTen,
    "scoring": Scoring,
    "dealer_rotation": DealerRotation,
}


class PenaltyT(NamedTuple):
    """S_PEND_KIND: the card behind a pending penalty, by the cards it makes draw."""

    none: int = 0
    draw_two: int = 2
    wild_draw_four: int = 4
    draw_ten: int = 10


class TargetKindT(NamedTuple):
    """S_TARGET_KIND: the card whose player is choosing a target."""

    five: int = 5  # swap_on_five: trade a card (optional)
    seven: int = 7  # seven_o: swap hands
    swap_hands: int = SWAP_HANDS  # swap_hands_wild


Penalty = PenaltyT()
TargetKind = TargetKindT()

# ---- phases: whose decision is pending ----
PH_TURN = 0  # play a card or draw
PH_DRAWN = 1  # play the card just drawn, or pass
PH_CHALLENGE = 2  # challenge the Wild Draw Four just played, or accept
PH_PENALTY = 3  # stack, deflect or reverse a pending penalty, or take it
PH_COLOUR = 4  # name the colour of a first flipped Wild
PH_SKIP = 5  # (skip_deflect) pass the Skip on with a Skip of its colour, or accept
PH_JUMP = 6  # (jump_in) play an identical card out of turn, or decline
PH_TARGET = 7  # choose the player to swap hands or trade a card with
PH_GIVE = 8  # (swap_on_five) choose the card to give
PH_OVER = 9

# ---- public events (kind, seat, a, b): what every seat saw happen ----
class EventT(NamedTuple):
    """The kinds of public events; what ``a`` and ``b`` hold for each."""

    deal: int = 0  # a round begins: a = players, b = seat to act first (seat -1)
    flip: int = 1  # a card turned at the deal: a = card (seat -1)
    play: int = 2  # a = the move (a wild with its colour), b = the phase it was played in
    draw: int = 3  # a = cards drawn, b = a DrawReason
    keep: int = 4  # a draw turn ended without a play (the drawn card kept)
    challenge: int = 5  # a = the challenged seat, b = 1 when the Wild Draw Four was a bluff
    uno: int = 6  # down to one card: a = 1 called, 0 forgot; b = 1 caught
    swap: int = 7  # a = the other seat (-1: declined a trade), b = TargetKind
    rotate: int = 8  # a 0 under seven_o: every hand moved on in the direction of play
    colour: int = 9  # the colour of a first flipped Wild: a = colour
    takeback: int = 10  # a caught Wild Draw Four went back to its owner
    out: int = 11  # the seat played its last card: a = place (elimination) or 1
    reshuffle: int = 12  # the discards but the top became the draw pile: a = cards
    # private, heard by the seat itself only: a card came into its hand that the others
    # did not see, a = the card, b = a GotHow; one per card, in the order they came
    got: int = 13


class GotHowT(NamedTuple):
    """How a card came into a hand (``b`` of a private ``got`` event)."""

    draw: int = 0  # drawn (its public draw event follows the cards it counts)
    trade: int = 1  # received in a trade on a 5


class DrawReasonT(NamedTuple):
    """Why cards were drawn (``b`` of a draw event)."""

    turn: int = 0  # a draw turn (no play, or by choice)
    penalty: int = 1  # a draw card or a lost challenge
    uno: int = 2  # caught not calling UNO
    other: int = 3  # silent twos, UNO in the centre, Downpour, a seven_rounds refill


Event = EventT()
DrawReason = DrawReasonT()
GotHow = GotHowT()

# ---- moves ----
# A play is its card type, a wild's with the colour it names (moves.with_colour); the
# plays fill 0 .. MV_PLAY_END, the other moves follow.
MV_PLAY_END = N_COLOURS * TYPE_SLOTS
MV_DRAW = 256
MV_PASS = 257  # keep the drawn card; decline a jump-in
MV_TAKE = 258
MV_CHALLENGE = 259
MV_ACCEPT = 260  # accept a Wild Draw Four or a Skip
MV_COLOUR = 264  # + colour
MV_TARGET = 320  # + seat
MV_GIVE = 384  # + card type

# ---- record columns (int32): declared as (name, width) blocks like G's ----
class Record:
    """The columns of a record (one row of an int32 table), declared block by block
    as (name, width): a block's first column is the sum of the widths before it, and
    the field names are derived (a block of width 1 is its name, a wider one
    ``name_0`` .., unless it names its columns), as vectorbt declares its record
    dtypes once."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.blocks: list[tuple[str, int, int]] = []  # (name, first column, width)
        self.fields: tuple[str, ...] = ()

    def add(self, name: str, width: int = 1, fields: Iterable[str] | None = None) -> int:
        names = tuple(fields) if fields is not None else (
            (name,) if width == 1 else tuple(f"{name}_{i}" for i in range(width)))
        if len(names) != width:
            raise LayoutError(f"record block {name!r} names {len(names)} of {width} columns")
        at = len(self.fields)
        self.blocks.append((name, at, width))
        self.fields += names
        return at

    @property
    def width(self) -> int:
        return len(self.fields)

    def column(self, field: str) -> int:
        """The column of the field named ``field``."""
        return self.fields.index(field)


#: the record of one round (a row of ``round_nb.record_round``): the scalar fields
#: declared in round_metrics.ROUND_FIELDS, then the per-seat blocks and the game feel
GAME_RECORD = Record("round")
for _field in ROUND_FIELDS:
    GAME_RECORD.add(_field.name)
del _field
#: the state slot each scalar field is copied from (column k from G[RECORD_SLOTS[k]])
RECORD_SLOTS = tuple(globals()[f.slot] for f in ROUND_FIELDS)
#: the columns read by name outside the declared loops
G_TURNS = GAME_RECORD.column("turns")
G_DRAWN_NO_PLAY = GAME_RECORD.column("drawn_no_play")
G_PEN_DRAWN = GAME_RECORD.column("penalty_drawn")
G_WINNER = GAME_RECORD.column("winner")
G_WINNER_POINTS = GAME_RECORD.column("winner_points")
G_CAPPED = GAME_RECORD.column("capped")
G_POINTS = GAME_RECORD.add("points", MAX_PLAYERS)  # + seat
G_PLACES = GAME_RECORD.add("place", MAX_PLAYERS)  # + seat
G_STAGES = GAME_RECORD.add("stage", MAX_PLAYERS)  # + seat
G_FEEL = GAME_RECORD.add("feel", len(FEEL), (m.name for m in FEEL))
N_G = GAME_RECORD.width
GAME_FIELDS = GAME_RECORD.fields

#: game-feel metrics (docs/metrics.md#game-feel), in record order (columns G_FEEL + k);
#: 0 in a capped round
FEEL_METRICS = GAME_FIELDS[G_FEEL:]
#: the fractional ones are recorded in fixed point: the value times FEEL_SCALE, rounded
#: half up, so every total stays an exact integer sum (identical on any split)
FEEL_SCALE = 10000
FEEL_FIXED = tuple(m.name for m in FEEL if m.fixed)
#: record fields held in fixed point (per round, and the per-match sums of match
#: mode): Parquet and the DataFrame API divide them by FEEL_SCALE
FIXED_POINT_FIELDS = frozenset(FEEL_FIXED) | frozenset(f"{m}_sum" for m in FEEL_FIXED)
#: the 0/1 ones, reported as rates with a Wilson interval
FEEL_RATES = tuple(m.name for m in FEEL if m.rate)
#: winner_max_deficit histogram: 0 .. 15 exactly, the last bin 16 and more
FEEL_HIST_BINS = 17

#: the record of one match (a row of ``match_nb.match_loop``)
MATCH_RECORD = Record("match")
M_ROUNDS = MATCH_RECORD.add("rounds")  # rounds played, capped rounds included
M_WINNER = MATCH_RECORD.add("winner")  # match winner (player number), -1 when capped
M_CAPPED = MATCH_RECORD.add("capped")  # 1 when the match hit max_rounds
M_CAPPED_ROUNDS = MATCH_RECORD.add("capped_rounds")  # rounds stopped at the turn cap
M_TIED = MATCH_RECORD.add("tied")  # 1 when a tie for the lowest total was broken at random
M_TURNS = MATCH_RECORD.add("turns")  # turns over all rounds of the match
# player with the highest total at the end (losers_score, game101), else -1
M_LOSER = MATCH_RECORD.add("loser")
M_SCORE = MATCH_RECORD.add("score", MAX_PLAYERS)  # + player: final score (lazy: round wins)
M_ROUND_WINS = MATCH_RECORD.add("round_wins", MAX_PLAYERS)  # + player: rounds won
# + player: rounds ended with most points in hand
M_ROUND_LOSSES = MATCH_RECORD.add("round_losses", MAX_PLAYERS)
# game-feel metrics (docs/metrics.md#game-feel) over the match's rounds that have a winner
M_FEEL_ROUNDS = MATCH_RECORD.add("feel_rounds")  # rounds counted (capped rounds left out)
# + k: sum of metric k of FEEL_METRICS (as recorded)
M_FEEL_SUM = MATCH_RECORD.add("feel_sum", len(FEEL_METRICS),
                              (f"{m}_sum" for m in FEEL_METRICS))
# + b: rounds whose winner_max_deficit fell in bin b
M_FEEL_HIST = MATCH_RECORD.add("winner_max_deficit_hist", FEEL_HIST_BINS)
N_M = MATCH_RECORD.width
MATCH_FIELDS = MATCH_RECORD.fields


def indices() -> dict[str, int]:
    """Every named absolute index into G: the state (S_*), rule (R_*, RF_*) and
    block (OFF_*) names of this module."""
    return {k: v for k, v in globals().items()
            if k.startswith(("S_", "R_", "RF_", "OFF_")) and type(v) is int}


check_blocks(BLOCKS, G_SIZE, indices())
