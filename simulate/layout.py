"""Index layout of the flat array ``G`` that holds one game, shared by the
compiled engine and Python.

A game is two arrays: ``G`` (int64[G_SIZE]) and ``RNG`` (uint64[8], two xoshiro
streams: 0 = cards, 1 = strategies and table). ``G`` holds the state scalars, the
rules, the seat strategies, every hand, both piles and the deck, at the fixed
offsets below. One flat array instead of many is what keeps calls between the
compiled step functions cheap: Numba passes every array as some ten machine
words, and the step functions are called tens of times per game. Module-level
integers are compile-time constants, so the names cost nothing at run time.
"""

from unosim.simulate.cards import TYPE_SLOTS

MAX_PLAYERS = 10
MAX_DECK = 512

# ---- state scalars (indices 0..47 of G) ----
S_PHASE = 0
S_ACTOR = 1
S_DIR = 2  # +1 clockwise (seat order increasing), -1 counter-clockwise
S_TOP = 3  # type of the top discard
S_COLOUR = 4  # current colour (the named colour after a wild)
S_PENDING = 5  # penalty cards waiting for the next victim
S_PEND_KIND = 6  # 2 Draw Two, 4 Wild Draw Four, 10 Draw Ten, 0 none
S_LAST = 7  # seat the pending penalty came from (a challenge targets it)
S_BLUFF = 8  # 1 when the last Wild Draw Four was illegal
S_DRAWN = 9  # type just drawn (PH_DRAWN)
S_DRAW_LEN = 10
S_DISC_LEN = 11
S_TURNS = 12
S_PLAYED = 13
S_DRAWN_NO_PLAY = 14
S_PEN_DRAWN = 15
S_RESHUFFLES = 16
S_WINNER = 17  # first seat out; -1 while nobody is out or when capped
S_CAPPED = 18
S_STACK_LEN = 19  # draw cards in the current chain
S_MAX_STACK = 20  # longest chain this round
S_UNO_CAUGHT = 21  # forgotten UNO calls that were caught
S_CHALLENGES = 22
S_PREV_COLOUR = 23  # colour before the last Wild Draw Four (challenge, takeback)
S_EFF_SEAT = 24  # seat whose card's effect is still to be resolved
S_EFF_CARD = 25  # that card
S_JUMP_INS = 26
S_SWAPS = 27  # hand swaps (7, Swap Hands), rotations (0) and trades (5)
S_DEFLECTS = 28  # skip and reverse deflections, deflect-mode answers
S_REFILL = 29  # cards drawn to refill a hand (seven_rounds)
S_ACTIVE = 30  # seats still playing (elimination)
S_WINNER_POINTS = 31  # what the first seat out was awarded
S_TARGET_KIND = 32  # 7, 5 or SWAP_HANDS while PH_TARGET / PH_GIVE are open
S_TARGET = 33  # the chosen target of a trade on a 5
S_GIVE = 34  # the card the trading player gives
S_JUMP_IDX = 35  # next jump-in candidate to ask
S_JUMP_N = 36  # jump-in candidates
S_UNO_CENTER = 37  # cards drawn for "UNO in the centre"
S_SILENT = 38  # silences broken after a 2
S_WENT_OUT = 39  # type of the card the first seat went out with
# game-feel samples (RULES.md 9b; simulate/feel_nb.py)
S_FEEL_N = 40  # samples folded so far; once the winner is out (feel_stop), all samples
S_FEEL_LEAD = 41  # last sole leader + 1 among the folded samples (0: none yet)
S_FEEL_CHANGES = 42  # lead changes so far
S_FEEL_GAP = 43  # sum over samples of (second-smallest - smallest distance)
S_FEEL_UNO = 44  # 1 once some player had distance <= 1 at a sample
S_FEEL_PREV = 45  # sole leader + 1 at the last folded sample (0: a tie)
S_FEEL_RUN = 46  # first t of that sole leader's current unbroken run
# while sampling: the turn whose sample sits first in the buffer (a turn's sample is
# buffered at S_TURNS - S_FEEL_AT, so a sample keeps no counter of its own); once the
# winner is out (feel_stop): how many samples the buffer holds, not folded yet
S_FEEL_AT = 47
N_STATE = 48

# ---- rules (absolute indices into G) ----
OFF_R = 48
R_PLAYERS = OFF_R + 0
R_HAND_SIZE = OFF_R + 1
R_FIRST_CARD = OFF_R + 2  # 0 official, 1 number_only
R_DRAW_RULE = OFF_R + 3  # 0 draw_one, 1 draw_until_playable, 2 draw_one_pass
R_VOLUNTARY_DRAW = OFF_R + 4
R_WD4_BLUFF = OFF_R + 5
R_WD4_CHALLENGE = OFF_R + 6
R_WD4_TAKEBACK = OFF_R + 7
R_TWO_P_REVERSE_SKIPS = OFF_R + 8
R_UNO_PENALTY = OFF_R + 9
R_UNO_IN_CENTER = OFF_R + 10
R_STACKING = OFF_R + 11  # 0 none, 1 progressive, 2 deflect
R_STACK_CARDS = OFF_R + 12  # 0 same, 1 mixed
R_SKIP_DEFLECT = OFF_R + 13
R_REVERSE_DEFLECT = OFF_R + 14
R_JUMP_IN = OFF_R + 15
R_JUMP_IN_ORDER = OFF_R + 16  # 0 random, 1 nearest
R_SEVEN_O = OFF_R + 17
R_SWAP_ON_FIVE = OFF_R + 18
R_ZERO_FIFTY = OFF_R + 19
R_DRAW_TEN = OFF_R + 20  # 0 none, 1 blanks, 2 zeros
R_COLOR_ROTATION = OFF_R + 21
R_ELIMINATION = OFF_R + 22
R_SEVEN_ROUNDS = OFF_R + 23
R_SWAP_HANDS_WILD = OFF_R + 24
R_DOWNPOUR = OFF_R + 25
R_SCORING = OFF_R + 26  # 0 winner_takes, 1 losers_score, 2 lazy, 3 game101
R_TARGET_SCORE = OFF_R + 27
R_DEALER_ROTATION = OFF_R + 28
R_TURN_CAP = OFF_R + 29
R_DECK_SIZE = OFF_R + 30
# internal, never set by a rule: 1 skips the game-feel samples (work that never
# reports them, such as a search player's rollouts); rules.lower leaves it 0
R_FEEL_OFF = OFF_R + 31
N_RULES = 32

# ---- probabilities, stored as thresholds: chance(p) <=> 53 random bits < ceil(p * 2**53)
P_ONE = 1 << 53
RF_UNO_CATCH = 80
RF_SILENT_TWOS = 81
# per seat p: OFF_SEATF + p * N_SEATF + SF_*
OFF_SEATF = 84
SF_UNO_FORGET = 0  # forget to call UNO (the rule value or the strategy's override)
SF_BLUFF = 1  # bluff a Wild Draw Four when it would be illegal
SF_CHALLENGE = 2  # challenge a Wild Draw Four
SF_INFORMED = 3  # 1: challenge from the cards seen (challenge=informed), not by chance
N_SEATF = 4
# strategy id of seat p: OFF_STRAT + p
OFF_STRAT = 124
# jump-in candidates in the order they are asked: OFF_ORDER .. + MAX_PLAYERS
OFF_ORDER = 134


# ---- hands: seat p, column c at OFF_H + p * HW + c ----
# columns 0..63 count each card type; then cards per colour and wild cards (the
# "fifth colour": t // N_RANKS is 4 for every wild type), hand size, hand value,
# finishing place (elimination, 0 = still playing), stage (seven_rounds), a flag
# to skip the seat's next turn (a caught bluff under wd4_challenge_takeback), and the
# colours the table saw the seat lack (bit c: a draw turn ended with no card of
# colour c, and the seat has received no card since; strategies read it)
HC_COLOUR = TYPE_SLOTS  # 4 columns
HC_WILDS = TYPE_SLOTS + 4
HC_SIZE = TYPE_SLOTS + 5
HC_POINTS = TYPE_SLOTS + 6
HC_PLACE = TYPE_SLOTS + 7
HC_STAGE = TYPE_SLOTS + 8
HC_SKIP_NEXT = TYPE_SLOTS + 9
HC_LACKS = TYPE_SLOTS + 10
HW = TYPE_SLOTS + 11
OFF_H = 144

# ---- piles, deck and scratch space for legal moves ----
OFF_DRAW = OFF_H + MAX_PLAYERS * HW  # draw pile, no order (a draw takes a random card)
OFF_DISC = OFF_DRAW + MAX_DECK  # discard pile, bottom first
OFF_DECK = OFF_DISC + MAX_DECK  # the deck dealt from, one entry per card
OFF_MOVES = OFF_DECK + MAX_DECK  # legal_moves writes moves here ...
OFF_WEIGHTS = OFF_MOVES + 96  # ... and the copies held of each here

# ---- what the table inferred, and the search strategy (strategies/search_nb.py) ----
# per seat p, OFF_PUB + p: what its last draw turn showed it held none of, on the
# assumption that a player draws only without a playable card and plays a playable
# drawn card: bits 0-3 colours, bit 4 Wild and Wild Draw Four, bits 8-20 ranks.
# Set from the public history alone (the colour and top card when it drew; what it
# got since), never from the hand, unlike HC_LACKS (DESIGN.md).
OFF_PUB = OFF_WEIGHTS + 96
PUB_WILD = 4
PUB_RANK = 8
# per seat p, OFF_SP + p * N_SP + SP_*: the search's parameters
OFF_SP = OFF_PUB + MAX_PLAYERS
SP_ROLLOUTS = 0
SP_POLICY = 1  # built-in id of the rollout policy
SP_INFER = 2  # 1: deal worlds under the inference from draws (OFF_PUB); 0: ignore it
N_SP = 3
# ---- parameters of the parametric strategies (weighted, tuned, adaptive, gang-up):
# slot s (the template seat that declared them) at OFF_SPARAM + s * N_SPARAM, fixed
# point (value * SPARAM_SCALE). The slot is carried in the strategy id (see
# strategies/builtin_nb.py), so the parameters follow a player who changes seats.
# Inside a search world (below G_CORE), so a parametric rollout policy reads them there
# (a search seat's own slot holds its policy's parameters).
OFF_SPARAM = OFF_SP + MAX_PLAYERS * N_SP
N_SPARAM = 32
SPARAM_SCALE = 1000
# per-seat game-feel accumulators (RULES.md 9b): seat p, column c at
# OFF_FEEL + p * N_FEELF + c, updated when buffered samples are folded (feel_nb.py)
OFF_FEEL = OFF_SPARAM + MAX_PLAYERS * N_SPARAM
FE_DEF_SUM = 0  # sum over samples of d_p - m
FE_DEF_MAX = 1  # largest d_p - m
FE_BEHIND = 2  # samples with d_p > m
FE_UNO = 3  # bit 1: d_p <= 1 at some sample; bit 2: at the first sample anyone had;
# bit 4 (the winner's, folded alone): another seat had d <= 1 at some sample
N_FEELF = 4
# sample buffer: each sample's distances packed 16 bits a seat, 4 seats a word
OFF_FEEL_MODE = OFF_FEEL + MAX_PLAYERS * N_FEELF  # 0 off, 1 one word a sample, 2 any
OFF_FEEL_BUF = OFF_FEEL_MODE + 1
FEEL_BUF = 768
# a code per buffered sample, written by the first pass of the fold (feel_nb)
OFF_FEEL_SCRATCH = OFF_FEEL_BUF + FEEL_BUF
# a game: the span a search world occupies (the feel region inside it, so a step in a
# world never reaches past it; the search keeps the world's feel sampling off)
G_CORE = OFF_FEEL_SCRATCH + FEEL_BUF
# the search's scratch space (one game array per thread already, so no allocation):
OFF_W0 = G_CORE  # a sampled world
OFF_W = OFF_W0 + G_CORE  # the world a rollout is played in
OFF_WRNG = OFF_W + G_CORE  # the worlds' generators (8 words, as uint64), then a saved copy
OFF_CAND = OFF_WRNG + 16  # candidate moves ...
OFF_SCORE = OFF_CAND + 96  # ... and the rollouts each won
OFF_POOL = OFF_SCORE + 96  # the cards the deciding seat has not seen
OFF_SCOUNT = OFF_POOL + MAX_DECK  # searched decisions, rollouts (counters for bench)
G_SIZE = OFF_SCOUNT + 2

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

# ---- moves ----
# Playing type t names colour c (only meaningful for wilds): move = t + 64 * c.
MV_PLAY_END = 256
MV_DRAW = 256
MV_PASS = 257  # keep the drawn card; decline a jump-in
MV_TAKE = 258
MV_CHALLENGE = 259
MV_ACCEPT = 260  # accept a Wild Draw Four or a Skip
MV_COLOUR = 264  # + colour
MV_TARGET = 320  # + seat
MV_GIVE = 384  # + card type
MAX_MOVES = 96

# ---- per-game record columns (int32) ----
GAME_FIELDS = (
    "turns",
    "cards_played",
    "drawn_no_play",
    "penalty_drawn",
    "winner",
    "winner_points",
    "reshuffles",
    "capped",
    "max_stack",
    "uno_caught",
    "challenges",
    "jump_ins",
    "swaps",
    "deflections",
    "refill_drawn",
    "uno_center_drawn",
    "silent_twos_broken",
    *(f"points_{i}" for i in range(MAX_PLAYERS)),
    *(f"place_{i}" for i in range(MAX_PLAYERS)),
    *(f"stage_{i}" for i in range(MAX_PLAYERS)),
    *("lead_changes", "winner_max_deficit", "comeback", "winner_mean_deficit",
      "winner_behind_share", "lock_in", "first_uno_wins", "rival_on_uno", "leader_gap"),
)
G_TURNS = 0
G_PLAYED = 1
G_DRAWN_NO_PLAY = 2
G_PEN_DRAWN = 3
G_WINNER = 4
G_WINNER_POINTS = 5
G_RESHUFFLES = 6
G_CAPPED = 7
G_MAX_STACK = 8
G_UNO_CAUGHT = 9
G_CHALLENGES = 10
G_JUMP_INS = 11
G_SWAPS = 12
G_DEFLECTS = 13
G_REFILL = 14
G_UNO_CENTER = 15
G_SILENT = 16
G_POINTS = 17  # MAX_PLAYERS columns each
G_PLACES = G_POINTS + MAX_PLAYERS
G_STAGES = G_PLACES + MAX_PLAYERS
G_FEEL = G_STAGES + MAX_PLAYERS  # FEEL_METRICS, in that order
N_G = G_FEEL + 9

#: game-feel metrics of RULES.md 9b, in record order (columns G_FEEL + k); 0 in a capped round
FEEL_METRICS = GAME_FIELDS[G_FEEL:]
#: the fractional ones are recorded in fixed point: the value times FEEL_SCALE, rounded
#: half up, so every total stays an exact integer sum (identical on any split)
FEEL_SCALE = 10000
FEEL_FIXED = ("winner_mean_deficit", "winner_behind_share", "lock_in", "leader_gap")
#: record fields held in fixed point (per round, and the per-match sums of match
#: mode): Parquet and the DataFrame API divide them by FEEL_SCALE
FIXED_POINT_FIELDS = frozenset(FEEL_FIXED) | frozenset(f"{m}_sum" for m in FEEL_FIXED)
#: the 0/1 ones, reported as rates with a Wilson interval
FEEL_RATES = ("comeback", "first_uno_wins", "rival_on_uno")
#: winner_max_deficit histogram: 0 .. 15 exactly, the last bin 16 and more
FEEL_HIST_BINS = 17
