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

# ---- rules (absolute indices into G) ----
OFF_R = 32
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
N_RULES = 32

# ---- probabilities, stored as thresholds: chance(p) <=> 53 random bits < ceil(p * 2**53)
P_ONE = 1 << 53
RF_UNO_CATCH = 64
RF_SILENT_TWOS = 65
# per seat p: OFF_SEATF + p * N_SEATF + SF_*
OFF_SEATF = 68
SF_UNO_FORGET = 0  # forget to call UNO (the rule value or the strategy's override)
SF_BLUFF = 1  # bluff a Wild Draw Four when it would be illegal
SF_CHALLENGE = 2  # challenge a Wild Draw Four
N_SEATF = 4
# strategy id of seat p: OFF_STRAT + p
OFF_STRAT = 112

# ---- state scalars (indices 0..31 of G) ----
S_PHASE = 0
S_ACTOR = 1
S_DIR = 2  # +1 clockwise (seat order increasing), -1 counter-clockwise
S_TOP = 3  # type of the top discard
S_COLOUR = 4  # current colour (the named colour after a wild)
S_PENDING = 5  # penalty cards waiting for S_ACTOR (challenge / stacking phases)
S_PEND_KIND = 6  # 2 after a Draw Two, 4 after a Wild Draw Four, 0 none
S_LAST = 7  # seat that played the last Wild Draw Four (the one a challenge targets)
S_BLUFF = 8  # 1 when that Wild Draw Four was illegal
S_DRAWN = 9  # type just drawn (PH_DRAWN)
S_DRAW_LEN = 10
S_DISC_LEN = 11
S_TURNS = 12
S_PLAYED = 13
S_DRAWN_NO_PLAY = 14
S_PEN_DRAWN = 15
S_RESHUFFLES = 16
S_WINNER = 17
S_CAPPED = 18
S_STACK_LEN = 19  # cards in the current stacking chain
S_MAX_STACK = 20  # longest stacking chain this round
S_UNO_CAUGHT = 21  # forgotten UNO calls that were caught
S_CHALLENGES = 22
S_PREV_COLOUR = 23  # colour before the last Wild Draw Four (for the challenge)
N_STATE = 32

# ---- hands: seat p, column c at OFF_H + p * HW + c ----
# columns 0..63 count each card type; then cards per colour, hand size, hand value
HC_COLOUR = TYPE_SLOTS  # 4 columns
HC_SIZE = TYPE_SLOTS + 4
HC_POINTS = TYPE_SLOTS + 5
HW = TYPE_SLOTS + 8
OFF_H = 128

# ---- piles, deck and scratch space for legal moves ----
OFF_DRAW = OFF_H + MAX_PLAYERS * HW  # draw pile, no order (a draw takes a random card)
OFF_DISC = OFF_DRAW + MAX_DECK  # discard pile, bottom first
OFF_DECK = OFF_DISC + MAX_DECK  # the deck dealt from, one entry per card
OFF_MOVES = OFF_DECK + MAX_DECK  # legal_moves writes moves here ...
OFF_WEIGHTS = OFF_MOVES + 96  # ... and the copies held of each here
G_SIZE = OFF_WEIGHTS + 96

# ---- phases: whose decision is pending ----
PH_TURN = 0  # play a card or draw
PH_DRAWN = 1  # play the card just drawn, or pass
PH_CHALLENGE = 2  # challenge the Wild Draw Four just played, or accept
PH_PENALTY = 3  # (stacking) stack a draw card, or take the pending penalty
PH_COLOUR = 4  # name the colour of a first flipped Wild
PH_OVER = 9

# ---- moves ----
# Playing type t names colour c (only meaningful for wilds): move = t + 64 * c.
MV_PLAY_END = 256
MV_DRAW = 256
MV_PASS = 257
MV_TAKE = 258
MV_CHALLENGE = 259
MV_ACCEPT = 260
MV_COLOUR = 264  # + colour
MAX_MOVES = 96

# ---- per-game record columns (int32) ----
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
G_POINTS = 11  # MAX_PLAYERS columns
N_G = G_POINTS + MAX_PLAYERS
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
) + tuple(f"points_{i}" for i in range(MAX_PLAYERS))
