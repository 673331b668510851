"""Index layout of the flat arrays shared by the compiled engine and Python.

Module-level integers are compile-time constants for Numba, so naming every slot
here costs nothing at run time and keeps magic numbers out of the kernels.

Game state is four arrays:
  S     int64[N_STATE]        scalars (phase, actor, direction, top card, counters...)
  H     int32[MAX_PLAYERS, HW] per seat: count of each card type, colour counts, size
  PILES int32[2, deck size]    draw pile (row 0, top = last) and discard pile (row 1)
  RNG   uint64[2, 4]           xoshiro states: 0 = cards, 1 = strategies and table
"""

from unosim.simulate.cards import TYPE_SLOTS

MAX_PLAYERS = 10

# ---- rule array R (int64) ----
R_PLAYERS = 0
R_HAND_SIZE = 1
R_FIRST_CARD = 2  # 0 official, 1 number_only
R_DRAW_RULE = 3  # 0 draw_one, 1 draw_until_playable, 2 draw_one_pass
R_VOLUNTARY_DRAW = 4
R_WD4_BLUFF = 5
R_WD4_CHALLENGE = 6
R_WD4_TAKEBACK = 7
R_TWO_P_REVERSE_SKIPS = 8
R_UNO_PENALTY = 9
R_UNO_IN_CENTER = 10
R_STACKING = 11  # 0 none, 1 progressive, 2 deflect
R_STACK_CARDS = 12  # 0 same, 1 mixed
R_SKIP_DEFLECT = 13
R_REVERSE_DEFLECT = 14
R_JUMP_IN = 15
R_JUMP_IN_ORDER = 16  # 0 random, 1 nearest
R_SEVEN_O = 17
R_SWAP_ON_FIVE = 18
R_ZERO_FIFTY = 19
R_DRAW_TEN = 20  # 0 none, 1 blanks, 2 zeros
R_COLOR_ROTATION = 21
R_ELIMINATION = 22
R_SEVEN_ROUNDS = 23
R_SWAP_HANDS_WILD = 24
R_DOWNPOUR = 25
R_SCORING = 26  # 0 winner_takes, 1 losers_score, 2 lazy, 3 game101
R_TARGET_SCORE = 27
R_DEALER_ROTATION = 28
R_TURN_CAP = 29
R_DECK_SIZE = 30
N_RULES = 32

# ---- float rule array RF ----
RF_UNO_FORGET = 0
RF_UNO_CATCH = 1
RF_SILENT_TWOS = 2
N_RULES_F = 4

# ---- per-seat strategy parameters SEATF (float64[MAX_PLAYERS, N_SEATF]) ----
SF_UNO_FORGET = 0  # effective forget probability (rule value or strategy override)
SF_BLUFF = 1  # probability of bluffing a Wild Draw Four when it would be illegal
SF_CHALLENGE = 2  # probability of challenging a Wild Draw Four
N_SEATF = 4

# ---- state scalars S ----
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

# ---- per-seat columns of H ----
HC_COLOUR = TYPE_SLOTS  # 4 columns: cards of each colour
HC_SIZE = TYPE_SLOTS + 4
HC_POINTS = TYPE_SLOTS + 5  # hand value, filled when the round ends
HW = TYPE_SLOTS + 8

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
