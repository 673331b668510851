/* A plain C engine of unosim's default game: official rules, 4 players, every seat
 * the built-in `random` strategy, one round a game, a turn cap of 5,000.
 *
 * The reference that bench/c_reference/pairs.py times unosim against. It does the
 * work the engine does for a plain run's records: the deal, the legal choice, the
 * step with every forced consequence, the turn cap, the round's scoring and a
 * 56-column int32 record a game (the 17 scalar fields, points, places and stages of
 * 10 seats, the nine game-feel metrics, from a distance sample at every turn's start
 * and at the winner's going out). It draws the same random numbers in the same order
 * as unosim (xoshiro256** streams seeded by splitmix64 from (base seed, game)), so
 * game g's record is unosim's record of game g, bit for bit (check.py --exact).
 *
 * What it leaves out (none of it runs on this table in unosim either, beyond a test
 * of a rule slot): house-rule branches, the event log (off in a plain run) and
 * elimination/seven_rounds bookkeeping. It keeps what the table infers from a
 * draw (lacks, public bits), as the engine does.
 *
 * Build: make: cc -O2 -fvect-cost-model=dynamic -march=native (GCC's -O2 with the loop
 *   vectorizer of its -O3, as clang and Numba vectorize at theirs); uno-avx2 the same
 *   with -march=x86-64-v3 for cachegrind (see the Makefile)
 * Usage: uno GAMES BASE_SEED [START] [RECORDS.bin]
 *   prints games/s, mean turns a game, seat win shares; with RECORDS.bin writes
 *   the records (GAMES x 56 int32, little-endian) there.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N_RANKS = 13, SKIP = 10, REVERSE = 11, DRAW_TWO = 12, WILD = 52, WD4 = 53,
       N_TYPES = 58, NP = 4, HAND = 7, DECK = 108, TURN_CAP = 5000 };
/* hand columns: 0..57 card types, then per colour counts (a wild counts in WILDS) */
enum { HC_COLOUR = 64, HC_WILDS = 68, HC_POINTS = 70, HC_LACKS = 71,
       HC_RANK = 72, HW = 88 };  /* HC_RANK + r: coloured cards of rank r */
enum { PH_TURN, PH_DRAWN, PH_CHALLENGE, PH_COLOUR, PH_OVER };
/* the record: as unosim's layout.GAME_RECORD for a round */
enum { R_TURNS, R_PLAYED, R_DRAWN_NO_PLAY, R_PEN_DRAWN, R_WINNER, R_WINNER_POINTS,
       R_RESHUFFLES, R_CAPPED, R_MAX_STACK, N_SCALARS = 17, R_POINTS = 17,
       R_PLACES = 27, R_STAGES = 37, R_FEEL = 47, REC = 56 };
enum { FEEL_SCALE = 10000 };
/* -DPROFILE keeps each phase a function of its own, for callgrind's table by phase */
#ifdef PROFILE
#define PHASE static __attribute__((noinline))
#define CALLED static __attribute__((noinline))
#else
#define PHASE static inline
#define CALLED static
#endif
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

static int COLOUR_OF[64], RANK_OF[64], POINTS[64], RANK_COL[64];
static uint8_t DECK_CARDS[DECK];  /* the deck in type order, as unosim lays it out */

typedef struct {
    uint64_t s[8];             /* stream 0: the cards; stream 1: the strategies */
    int32_t h[NP][HW];         /* hands: counts by type, colour, size, points */
    int32_t pub[NP];           /* what the table saw each seat lack (bits) */
    uint8_t draw[DECK], disc[DECK];
    int draw_len, disc_len;
    int phase, actor, dir, top, colour, drawn, pending;
    int turns, played, drawn_no_play, pen_drawn, winner, winner_points,
        reshuffles, capped, max_stack, stack_len, last, prev_colour, bluff, went_out;
    uint64_t sizes;            /* the hand sizes, 16 bits a seat */
    uint64_t feel[TURN_CAP + 2]; /* a distance sample (4 x 16 bits) at every turn */
    uint64_t leads[TURN_CAP + 2]; /* the fold's scratch: each sample's sole leader */
    int feel_n;
} Game;

/* ----------------------------------------------------------------- generators */
static const uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL;
static inline uint64_t splitmix64(uint64_t x) {
    uint64_t z = x + GOLDEN;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static void seed_game(uint64_t base, uint64_t g, uint64_t *s) {
    for (int stream = 0; stream < 2; stream++) {
        uint64_t x = splitmix64(base ^ (g * GOLDEN));
        x = splitmix64(x + (uint64_t)(stream + 1));
        for (int i = 0; i < 4; i++) {
            x += GOLDEN;
            s[4 * stream + i] = splitmix64(x);
        }
    }
}
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next_u64(uint64_t *s) {  /* xoshiro256** */
    uint64_t s0 = s[0], s1 = s[1], s2 = s[2] ^ s0, s3 = s[3] ^ s1;
    uint64_t r = rotl(s1 * 5, 7) * 9;
    s[1] = s1 ^ s2;
    s[0] = s0 ^ s3;
    s[2] = s2 ^ (s1 << 17);
    s[3] = rotl(s3, 45);
    return r;
}
static inline int rand_below(uint64_t *s, int n) {  /* Lemire on 32 bits */
    return (int)(((next_u64(s) >> 32) * (uint64_t)n) >> 32);
}

/* ---------------------------------------------------------------------- cards */
static inline void hand_add(Game *G, int p, int t) {
    int32_t *h = G->h[p];
    h[t]++; h[HC_COLOUR + COLOUR_OF[t]]++; h[HC_POINTS] += POINTS[t];
    G->sizes += 1ULL << (16 * p);
    h[RANK_COL[t]]++;
}
static inline void hand_remove(Game *G, int p, int t) {
    int32_t *h = G->h[p];
    h[t]--; h[HC_COLOUR + COLOUR_OF[t]]--; h[HC_POINTS] -= POINTS[t];
    G->sizes -= 1ULL << (16 * p);
    h[RANK_COL[t]]--;
}
static inline int take_random(Game *G) {
    int n = G->draw_len - 1;
    int j = rand_below(G->s, n + 1);
    int t = G->draw[j];
    G->draw[j] = G->draw[n];
    G->draw_len = n;
    return t;
}
static int reshuffle(Game *G) {  /* the discards but the top become the draw pile */
    int nd = G->disc_len;
    if (nd <= 1) return 0;
    memcpy(G->draw + G->draw_len, G->disc, (size_t)(nd - 1));
    G->draw_len += nd - 1;
    G->disc[0] = G->disc[nd - 1];
    G->disc_len = 1;
    G->reshuffles++;
    return 1;
}
static inline int draw_card(Game *G, int p) {
    if (G->draw_len == 0 && !reshuffle(G)) return -1;
    int t = take_random(G);
    hand_add(G, p, t);
    G->h[p][HC_LACKS] = 0;
    G->pub[p] = 0;
    return t;
}
static void draw_penalty(Game *G, int p, int k) {
    int got = 0;
    for (int i = 0; i < k; i++) {
        if (draw_card(G, p) < 0) break;
        got++;
    }
    G->pen_drawn += got;
}
static inline int next_seat(const Game *G, int p) { return (p + G->dir + NP) & (NP - 1); }
static inline int wd4_legal(const Game *G, int p) { return G->h[p][HC_COLOUR + G->colour] == 0; }
static inline int is_match(const Game *G, int t) {
    if (t >= WILD) return 1;
    if (COLOUR_OF[t] == G->colour) return 1;
    return G->top < WILD && RANK_OF[t] == RANK_OF[G->top];
}

/* ------------------------------------------------------------------- game feel */
/* A sample is the four hand sizes (the distances), 16 bits a seat: the word G->sizes
 * that hand_add/hand_remove keep. The metrics are folded once, at the round's end,
 * for the winner: a first pass without state carried from sample to sample (sums,
 * minima, maxima: the compiler may vectorize it) that also writes each sample's sole
 * leader as a lane bit, then a walk over those bits for the lead changes (the same
 * two passes as unosim's fold). */
PHASE void feel_sample(Game *G) {
#ifndef FEEL_OFF  /* -DFEEL_OFF: no game-feel metrics (what they cost, as BENCH_FEEL_OFF) */
    G->feel[G->feel_n++] = G->sizes;
#else
    (void)G;
#endif
}
static inline int fixed(int64_t num, int64_t den) {
    return (int)((2 * num * FEEL_SCALE + den) / (2 * den));
}
#define LANE_TOP 0x8000800080008000ULL
#define LANE_NOT1 0xFFFEFFFEFFFEFFFEULL
/* the first pass: no state carried from sample to sample (sums, minima, maxima), so
 * that it may run on vector instructions; each sample's sole leader into leads */
static __attribute__((noinline)) void fold_pass(const uint64_t *restrict buf, uint64_t *restrict leads, int64_t T,
                      int64_t sh, int64_t *restrict r) {
    uint64_t wbit = 1ULL << sh, never = LANE_TOP;
    int64_t gap = 0, dsum = 0, dmax = 0, behind = 0, lastnot = 0, first_uno = T;
    for (int64_t i = 0; i < T; i++) {
        uint64_t x = buf[i];
        uint64_t y = (x << 2) | 0x0003000200010000ULL;  /* each lane 4 d + seat */
        int64_t a = (int64_t)(y & 0xFFFF), b = (int64_t)((y >> 16) & 0xFFFF);
        int64_t c = (int64_t)((y >> 32) & 0xFFFF), d = (int64_t)(y >> 48);
        never &= (x & LANE_NOT1) + 0x7FFF7FFF7FFF7FFFULL;  /* lane bit 15: d >= 2 */
        int64_t lo1 = MIN(a, b), lo2 = MIN(c, d);
        int64_t k1 = MIN(lo1, lo2), k2 = MIN(MAX(lo1, lo2), MIN(MAX(a, b), MAX(c, d)));
        int64_t v1 = k1 >> 2, v2 = k2 >> 2;
        gap += v2 - v1;
        int64_t dd = (int64_t)((x >> sh) & 0xFFFF) - v1;
        dsum += dd;
        dmax = MAX(dmax, dd);
        behind += dd > 0;
        uint64_t lead = (uint64_t)(v2 > v1) << ((k1 & 3) << 4);
        lastnot = MAX(lastnot, lead != wbit ? i + 1 : 0);
        first_uno = MIN(first_uno, v1 <= 1 ? i : T);
        leads[i] = lead;
    }
    r[0] = gap; r[1] = dsum; r[2] = dmax; r[3] = behind; r[4] = lastnot;
    r[5] = first_uno; r[6] = (int64_t)never;
}
/* the round's nine game-feel metrics for its winner (docs/metrics.md#game-feel) */
CALLED void feel_record(Game *G, int32_t *out) {
    memset(out, 0, 9 * sizeof *out);
    int w = G->winner, T = G->feel_n;
    if (w < 0 || T == 0) return;
    const uint64_t *buf = G->feel;
    const uint64_t *leads = G->leads;
    int sh = 16 * w;
    uint64_t wbit = 1ULL << sh;
    int64_t r[8];
    fold_pass(buf, G->leads, T, sh, r);
    int64_t gap = r[0], dsum = r[1], dmax = r[2], behind = r[3], lastnot = r[4];
    int64_t first_uno = r[5];
    uint64_t never = (uint64_t)r[6];
    uint64_t last = 0, moves = 0;  /* sole leaders unlike the last one, a lane a seat */
    for (int i = 0; i < T; i++) {
        uint64_t lead = leads[i];
        moves += lead & ~last;
        last = lead ? lead : last;
    }
    int changes = (int)((moves & 0xFFFF) + ((moves >> 16) & 0xFFFF) + ((moves >> 32) & 0xFFFF)
                        + (moves >> 48)) - (last != 0);
    uint64_t on_one = ~never & LANE_TOP, wtop = 1ULL << (sh + 15);
    int lastt = T - 1;
    out[0] = changes;
    out[1] = dmax;
    out[2] = dmax >= 3;
    out[3] = fixed(dsum, T);
    out[4] = fixed(behind, T);
    if (lastt == 0) out[5] = FEEL_SCALE;
    else {
        int s = leads[lastt] == wbit ? lastnot : lastt;
        out[5] = fixed(lastt - s, lastt);
    }
    out[6] = first_uno < T && ((buf[first_uno] >> sh) & 0xFFFF) <= 1;
    out[7] = (on_one & ~wtop) != 0;
    out[8] = fixed(gap, T);
}

/* ------------------------------------------------------------------------ deal */
CALLED void deal(Game *G) {
    memset(G->h, 0, sizeof G->h);
    memset(G->pub, 0, sizeof G->pub);
    G->sizes = 0;
    G->turns = G->played = G->drawn_no_play = G->pen_drawn = 0;
    G->winner_points = G->reshuffles = G->capped = G->max_stack = G->stack_len = 0;
    G->pending = G->last = G->prev_colour = G->bluff = G->went_out = G->drawn = 0;
    G->winner = -1;
    G->dir = 1;
    G->feel_n = 0;
    memcpy(G->draw, DECK_CARDS, DECK);
    G->draw_len = DECK;
    for (int i = 0; i < HAND; i++)
        for (int p = 0; p < NP; p++) hand_add(G, p, take_random(G));
    int t;
    for (;;) {  /* a Wild Draw Four turned first goes back */
        t = take_random(G);
        if (t <= WILD) break;
        G->draw[G->draw_len++] = (uint8_t)t;
    }
    G->disc[0] = (uint8_t)t;
    G->disc_len = 1;
    G->top = t;
    G->phase = PH_TURN;
    G->actor = 0;
    if (t == WILD) { G->phase = PH_COLOUR; return; }
    G->colour = COLOUR_OF[t];
    int r = RANK_OF[t];
    if (r == SKIP) G->actor = 1;
    else if (r == REVERSE) { G->dir = -1; G->actor = NP - 1; }
    else if (r == DRAW_TWO) { draw_penalty(G, 0, 2); G->actor = 1; }
}

/* ---------------------------------------------------------------------- random */
CALLED int most_held_colour(Game *G, int p) {  /* ties at random (stream 1) */
    const int32_t *h = G->h[p];
    int best = -1, ties = 0;
    for (int c = 0; c < 4; c++) {
        int k = h[HC_COLOUR + c];
        if (k > best) { best = k; ties = 1; }
        else if (k == best) ties++;
    }
    int pick = ties > 1 ? rand_below(G->s + 4, ties) : 0;
    for (int c = 0; c < 4; c++)
        if (h[HC_COLOUR + c] == best) {
            if (pick == 0) return c;
            pick--;
        }
    return 0;
}
/* the k-th playable physical card: the colour, the same rank, then the wilds */
static inline int nth_playable(const Game *G, int p, int k) {
    const int32_t *h = G->h[p];
    int c = G->colour, cc = h[HC_COLOUR + c];
    if (k < cc) {
        for (int t = c * N_RANKS; t < c * N_RANKS + N_RANKS; t++) {
            k -= h[t];
            if (k < 0) return t;
        }
    }
    k -= cc;
    if (G->top < WILD) {
        int r = RANK_OF[G->top];
        for (int oc = 0; oc < 4; oc++)
            if (oc != c) {
                int t = oc * N_RANKS + r;
                k -= h[t];
                if (k < 0) return t;
            }
    }
    k -= h[WILD];
    if (k < 0) return WILD;
    return WD4;  /* counted only when legal */
}
/* `random`'s pick: a uniformly random one of the total playable physical cards */
PHASE int choose_card(Game *G, int p, int total) {
    return nth_playable(G, p, rand_below(G->s + 4, total));
}
PHASE int count_playable(const Game *G, int p) {
    const int32_t *h = G->h[p];
    int c = G->colour, total = h[HC_COLOUR + c] + h[HC_WILDS];
    int top = G->top;  /* the same rank in another colour (the top's colour is c) */
    if (top < WILD) total += h[HC_RANK + RANK_OF[top]] - h[top];
    if (!wd4_legal(G, p)) total -= h[WD4];
    return total;
}

/* -------------------------------------------------------------------- the step */
static inline void next_turn(Game *G, int p) {
    G->actor = next_seat(G, p);
    G->phase = PH_TURN;
}
static inline void turn_starts(Game *G) {
    feel_sample(G);
    G->turns++;
}
static void face_penalty(Game *G, int victim) {
    draw_penalty(G, victim, G->pending);
    G->pending = 0;
    G->stack_len = 0;
    next_turn(G, victim);
}
/* card t (a wild naming colour) from p's hand onto the discards, and its effect */
static inline __attribute__((always_inline)) void play(Game *G, int p, int t, int colour) {
    if (t == WD4) {
        G->prev_colour = G->colour;
        G->bluff = !wd4_legal(G, p);
        G->pub[p] |= 1 << G->colour;
    }
    hand_remove(G, p, t);
    G->disc[G->disc_len++] = (uint8_t)t;
    G->top = t;
    G->colour = t < WILD ? COLOUR_OF[t] : colour;
    G->played++;
    int r = RANK_OF[t];
    int amount = t == WD4 ? 4 : r == DRAW_TWO ? 2 : 0;
    if (amount) {
        G->pending = amount;
        G->stack_len++;
        if (G->stack_len > G->max_stack) G->max_stack = G->stack_len;
        G->last = p;
    }
    if (((G->sizes >> (16 * p)) & 0xFFFF) == 0) {  /* out: the last sample, the final draw, scoring */
        feel_sample(G);
        if (G->pending > 0) {
            draw_penalty(G, next_seat(G, p), G->pending);
            G->pending = 0;
            G->stack_len = 0;
        }
        G->winner = p;
        G->went_out = t;
        int total = 0;
        for (int q = 0; q < NP; q++)
            if (q != p) total += G->h[q][HC_POINTS];
        G->winner_points = total;
        G->phase = PH_OVER;
        return;
    }
    if (amount) {
        int victim = next_seat(G, p);
        if (t == WD4) { G->actor = victim; G->phase = PH_CHALLENGE; }
        else face_penalty(G, victim);
    } else if (r == SKIP) next_turn(G, next_seat(G, p));
    else if (r == REVERSE) { G->dir = -G->dir; next_turn(G, p); }
    else next_turn(G, p);
}
static inline void seen_lacking(Game *G, int p) {
    int c = G->colour;
    G->h[p][HC_LACKS] |= 1 << c;
    int pub = (1 << c) | (1 << 4);
    if (G->top < WILD) pub |= 1 << (5 + RANK_OF[G->top]);
    G->pub[p] |= pub;
}
/* one decision of the seat to act (all `random`), applied */
static inline void step(Game *G) {
    int p = G->actor;
    switch (G->phase) {
    case PH_TURN: {
        int total = count_playable(G, p);
        turn_starts(G);
        if (total == 0) {  /* draw one; a playable one is offered */
            int t = draw_card(G, p);
            if (t >= 0) {
                G->drawn_no_play++;
                if (t == WD4 || is_match(G, t)) {  /* a bluff counts as playable */
                    G->drawn = t;
                    G->phase = PH_DRAWN;
                    seen_lacking(G, p);
                    return;
                }
            }
            seen_lacking(G, p);
            next_turn(G, p);
            return;
        }
        int t = choose_card(G, p, total);
        play(G, p, t, t >= WILD ? most_held_colour(G, p) : 0);
        return;
    }
    case PH_DRAWN: {  /* play the drawn card when allowed (never a bluff) */
        int t = G->drawn;
        if (t != WD4 || wd4_legal(G, p)) play(G, p, t, t >= WILD ? most_held_colour(G, p) : 0);
        else next_turn(G, p);
        return;
    }
    case PH_CHALLENGE:  /* `random` never challenges */
        face_penalty(G, p);
        return;
    case PH_COLOUR:  /* a first Wild: the first player names a colour */
        G->colour = most_held_colour(G, p);
        G->phase = PH_TURN;
        return;
    }
}

/* the round's record: its scalars and the seats' points (the feel metrics follow) */
CALLED void write_record(const Game *G, int32_t *out) {
    memset(out, 0, REC * sizeof *out);
    out[R_TURNS] = G->turns;
    out[R_PLAYED] = G->played;
    out[R_DRAWN_NO_PLAY] = G->drawn_no_play;
    out[R_PEN_DRAWN] = G->pen_drawn;
    out[R_WINNER] = G->winner;
    out[R_WINNER_POINTS] = G->winner_points;
    out[R_RESHUFFLES] = G->reshuffles;
    out[R_CAPPED] = G->capped;
    out[R_MAX_STACK] = G->max_stack;
    for (int q = 0; q < NP; q++) out[R_POINTS + q] = G->h[q][HC_POINTS];
}

static void play_game(Game *G, uint64_t base, uint64_t g, int32_t *out) {
    seed_game(base, g, G->s);
    deal(G);
    while (G->phase != PH_OVER) {
        if (G->turns >= TURN_CAP) {
            G->capped = 1;
            G->winner = -1;
            G->winner_points = 0;
            G->phase = PH_OVER;
            break;
        }
        step(G);
    }
    write_record(G, out);
    feel_record(G, out + R_FEEL);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s GAMES BASE_SEED [START] [RECORDS.bin]\n", argv[0]);
        return 2;
    }
    long n = (long)strtod(argv[1], NULL);
    uint64_t base = strtoull(argv[2], NULL, 0);
    uint64_t start = argc > 3 ? strtoull(argv[3], NULL, 0) : 0;
    const char *path = argc > 4 ? argv[4] : NULL;
    for (int t = 0; t < 64; t++) {
        COLOUR_OF[t] = t < WILD ? t / N_RANKS : 4;
        RANK_OF[t] = t < WILD ? t % N_RANKS : -1;
        POINTS[t] = t < WILD ? (t % N_RANKS <= 9 ? t % N_RANKS : 20) : (t < N_TYPES ? 50 : 0);
    }
    POINTS[54] = POINTS[55] = 40;
    for (int t = 0; t < 64; t++) RANK_COL[t] = t < WILD ? HC_RANK + t % N_RANKS : HC_RANK + 13;
    int k = 0;
    for (int t = 0; t <= WD4; t++) {
        int copies = t < WILD ? (t % N_RANKS == 0 ? 1 : 2) : 4;
        for (int i = 0; i < copies; i++) DECK_CARDS[k++] = (uint8_t)t;
    }
    static Game G;
    int32_t *rec = path ? malloc((size_t)n * REC * sizeof *rec) : NULL;
    int32_t row[REC];
    long wins[NP] = {0}, capped = 0;
    double turns = 0, turns2 = 0;
    struct timespec a, b, ca, cb;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        int32_t *out = rec ? rec + (size_t)i * REC : row;
        play_game(&G, base, start + (uint64_t)i, out);
        turns += out[R_TURNS];
        turns2 += (double)out[R_TURNS] * out[R_TURNS];
        if (out[R_WINNER] >= 0) wins[out[R_WINNER]]++;
        capped += out[R_CAPPED];
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
    double secs = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    double cpu = (double)(cb.tv_sec - ca.tv_sec) + 1e-9 * (double)(cb.tv_nsec - ca.tv_nsec);
    double mean = turns / (double)n;
    printf("games %ld\nseconds %.6f\ngames_per_s %.0f\n", n, secs, (double)n / secs);
    printf("cpu_seconds %.6f\ngames_per_cpu_s %.0f\n", cpu, (double)n / cpu);
    printf("turns_mean %.6f\nturns_var %.6f\nturns_total %.0f\ncapped %ld\n", mean,
           turns2 / (double)n - mean * mean, turns, capped);
    for (int q = 0; q < NP; q++) printf("win_share_%d %.6f\n", q, (double)wins[q] / (double)n);
    if (rec) {
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(rec, sizeof *rec, (size_t)n * REC, f) != (size_t)n * REC) {
            perror(path);
            return 1;
        }
        fclose(f);
    }
    return 0;
}
