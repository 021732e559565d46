/*
 * A dedicated Minefield solver: win/draw/loss alpha-beta over 64-bit boards.
 *
 * The rules are not written here: the Python wrapper (boardproof/solvers/native/
 * __init__.py) hands over, per board size, the glyph "roles" of every point (the masks
 * of mover / opponent / empty points that make a placement there illegal, generated from
 * boardproof.models.minefield.board.glyph_roles), the edges, and the 8 symmetries as
 * point permutations. This file only searches.
 *
 * Points: p = rank * n + file (a1 = 0), n <= 8. A node is (me, op, black): the stones of
 * the side to move, of the other side, and whether the side to move is Black (Black joins
 * rank 1 to rank n, White file a to the last file).
 *
 * Values are for the side to move: +1 win, 0 draw (a dead position: nobody can place),
 * -1 loss. The transposition table stores lower/upper bounds under a symmetry-canonical
 * key; the 4 symmetries that exchange the edges also exchange the colours.
 *
 * Variants (issue 30): the roles may be those of another glyph set (the pinwheel's, up to
 * 11 points a role, 28 roles a point). Nothing here knows the standard glyphs: every
 * saving is proved from the roles alone (stones are permanent; a role is a fixed set of
 * points and states round the new stone): the threat test, the pruning rules (frozen,
 * blocked, must3, win3: see their comments) and the symmetric keys (sound when the
 * role set maps onto itself under the 8 symmetries, which the tests check for every set
 * handed over). Theorem O (the ortho-diagonal stop) is not used here; its callers apply it
 * to the standard glyphs only. A new glyph set at setup() makes a kept df-pn table
 * unusable (roles_sig).
 *
 * Roles by the mover's colour (issue 30, the cartwheel): its glyph counts the points just
 * beyond the board as stones of the edge's owner, so near the edges its roles depend on
 * the colour that places. setup() then takes a second role table, White's (the first is
 * Black's), and every test of a placement (forbidden_at, legal_moves, has_legal, the
 * pruning rules) reads the table of the colour that places (RT()). Without it (the
 * standard and pinwheel sets) COLOURED is 0 and every colour reads table 0: the same data
 * and the same code path as before. The savings still hold: each is proved for one
 * placement by one colour from that colour's roles (a role of that colour is a fixed set
 * of board points and states; the points beyond the board are constant stones, already
 * resolved into the role), and the symmetric keys need the 4 edge-keeping symmetries to map
 * each colour's role set onto itself and the 4 transposes (which exchange the colours) to
 * map Black's set onto White's and back: tests/test_native_cartwheel.py checks both.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "table_memory.h"

typedef uint64_t u64;

#define MAXCELLS 64
#define MAXROLES 40 /* at most 28 roles a point: the standard glyphs, or the pinwheel set */
#define NO_MOVE (-1)
#define PASS_MOVE (-2)
#define MAXPLY 160

static int N = 0, CELLS = 0, DIAG = 0;
static u64 FULL, NOT_FIRST_FILE, NOT_LAST_FILE;
static u64 EDGE[2][2]; /* [0 = black, 1 = white][first, second] */
/* the roles of each point, [0] Black's (both colours' unless COLOURED), [1] White's */
static int NROLES[2][MAXCELLS];
static u64 ROLE_M[2][MAXCELLS][MAXROLES], ROLE_O[2][MAXCELLS][MAXROLES], ROLE_E[2][MAXCELLS][MAXROLES];
static int COLOURED = 0; /* 1: the roles depend on the mover's colour (table 1: White's) */
/* the role table of the colour that places (Black if black) */
#define RT(black) (COLOURED & !(black))
static int PERM[8][MAXCELLS], INV[8][MAXCELLS];
static u64 SYMTAB[8][8][256];

typedef struct {
    u64 a, b;       /* canonical stones of the mover and of the other side */
    int16_t lo, hi; /* value bounds */
    uint8_t work;   /* log2 of the nodes searched below (replacement priority) */
    uint8_t side;   /* 0 = empty slot, 1 = mover White, 2 = mover Black (canonical) */
    int8_t best;    /* best move in canonical points, or NO_MOVE / PASS_MOVE */
    uint8_t tag;    /* ply horizon: 255 none, else 1 + the plies left (see HORIZON) */
} Entry;

/* Values. Win/draw/loss mode: +1, 0, -1. Distance mode: a win in d plies is WIN - d,
   a loss in d plies -(WIN - d), a draw 0 (fastest win, longest defence). */
static int DIST = 0;
#define WIN_DIST 1000
static int WIN = 1;
/* A ply horizon (0: none): solve() may ask for the value of the game cut after that many
   plies, where a node with no plies left is worth 0 (nothing proved). Table entries are
   tagged with the plies left, so values of different horizons never mix. */
static int HORIZON = 0;
#define MAX_HORIZON 253
static inline uint8_t horizon_tag(int rem) { return HORIZON ? (uint8_t)(rem + 1) : 255; }

/* The parent's value of a child valued c (for the child's mover), one ply further. */
static inline int up(int c) {
    int v = -c;
    if (DIST) v -= (v > 0) - (v < 0);
    return v;
}
/* The child's value that corresponds to the parent's value a (inverse of up). */
static inline int down(int a) {
    if (!DIST) return -a;
    return a > 0 ? -a - 1 : (a < 0 ? -a + 1 : 0);
}

static Entry *TT = NULL;
static u64 TT_MASK = 0;
static int TT_BITS = 0;

static u64 nodes, node_limit;
static double deadline;
static int aborted; /* 1 budget, 2 Python error (signal, callback) */
static PyObject *progress_cb = NULL;
static u64 progress_every = 0;
/* set_hook(f): f(nodes, horizon) every 2**20 nodes of every search (progress displays) */
#include "progress_hook.h" /* hook_cb and set_hook(f) */
static int history[2][MAXCELLS];
static int killer[MAXPLY][2];
static u64 tt_hits, tt_stores, threat_cuts, etc_cuts;
/* enhanced transposition cutoffs at nodes with at least this many empty points (0: off) */
static int ETC_MIN_EMPTY = 0;
/* df-pn's threshold trick: a child's threshold is the second best number times
   1 + 1/EPS_DIV (plus 1): EPS_DIV 4, the 1 + 1/4 trick, unless tune() says otherwise */
static int EPS_DIV = 4;
/* option (hint): alpha-beta takes its first move at the nodes of colour HINT_BLACK from
   the df-pn table left by the last dfpn() call, see hinted_move(). -1: off. */
static int HINT_BLACK = -1;
static u64 hint_moves;

static inline int lowbit(u64 x) { return __builtin_ctzll(x); }
static inline u64 bit(int p) { return (u64)1 << p; }

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- rules */

/* Would a stone of the side with stones `me` at the empty point p complete a glyph? The
   point's roles (from the model) list the points that must hold M, O and E. */
static inline int forbidden_at_roles(int p, u64 me, u64 op, u64 empty, int black) {
    const int t = RT(black);
    const u64 *rm = ROLE_M[t][p], *ro = ROLE_O[t][p], *re = ROLE_E[t][p];
    for (int k = 0, K = NROLES[t][p]; k < K; k++) {
        if ((me & rm[k]) == rm[k] && (op & ro[k]) == ro[k] && (empty & re[k]) == re[k])
            return 1;
    }
    return 0;
}

/* The same, testing only the roles that the states of p's 4 orthogonal neighbours allow
   (each glyph needs an opponent's stone next to p, so about a quarter of them):
   ROLE_BY_CODE[p][code] holds the roles of p whose O and E conditions on those neighbours
   hold for the code of their states (2 bits each, neighbour j at bits 2j: bit 0 the
   neighbour is in O, bit 1 in E; 3: nothing assumed there). A role is dropped only when
   one of its own conditions fails, the others are tested in full: the same answer,
   faster (tests/test_native_minefield.py compares both on random positions). With roles
   by colour each table has its own filter (ROLE_BY_CODE[t]), built from its own roles. */
static u64 ROLE_BY_CODE[2][MAXCELLS][256];
static int NB4P[MAXCELLS][4]; /* p's orthogonal neighbours (p itself off the board) */
static int ROLE_FILTER = 1; /* forbidden_at() filters by the neighbours (roles_filter(False)) */

static inline int forbidden_at(int p, u64 me, u64 op, u64 empty, int black) {
    if (!ROLE_FILTER) return forbidden_at_roles(p, me, op, empty, black);
    const int t = RT(black);
    const int *nb = NB4P[p];
    unsigned code = 0;
    for (int j = 0; j < 4; j++)
        code |= (unsigned)((op >> nb[j] & 1) | (empty >> nb[j] & 1) << 1) << (2 * j);
    const u64 *rm = ROLE_M[t][p], *ro = ROLE_O[t][p], *re = ROLE_E[t][p];
    for (u64 ok = ROLE_BY_CODE[t][p][code]; ok; ok &= ok - 1) {
        int k = lowbit(ok);
        if ((op & ro[k]) == ro[k] && (empty & re[k]) == re[k] && (me & rm[k]) == rm[k])
            return 1;
    }
    return 0;
}

/* ROLE_BY_CODE and NB4P from the roles (py_setup). */
static void role_filter_setup(void) {
    for (int p = 0; p < CELLS; p++) {
        int r = p / N, f = p % N;
        int nb[4] = {f > 0 ? p - 1 : p, f < N - 1 ? p + 1 : p, r > 0 ? p - N : p,
                     r < N - 1 ? p + N : p};
        for (int j = 0; j < 4; j++) NB4P[p][j] = nb[j];
        for (int t = 0; t < 2; t++)
        for (int code = 0; code < 256; code++) {
            u64 ok = 0;
            for (int k = 0; k < NROLES[t][p]; k++) {
                int fits = 1;
                for (int j = 0; j < 4 && fits; j++) {
                    int st = code >> (2 * j) & 3;
                    const u64 b = bit(nb[j]);
                    if (nb[j] == p || st == 3) continue; /* nothing assumed there */
                    if ((ROLE_O[t][p][k] & b) && st != 1) fits = 0;
                    if ((ROLE_E[t][p][k] & b) && st != 2) fits = 0;
                }
                if (fits) ok |= bit(k);
            }
            ROLE_BY_CODE[t][p][code] = ok;
        }
    }
}

/* the legal placements of the side with stones `me` (Black if black) */
static inline u64 legal_moves(u64 me, u64 op, int black) {
    u64 empty = FULL & ~(me | op), legal = 0, e = empty;
    while (e) {
        int p = lowbit(e);
        e &= e - 1;
        if (!forbidden_at(p, me, op, empty, black)) legal |= bit(p);
    }
    return legal;
}

static inline int has_legal(u64 me, u64 op, int black) {
    u64 empty = FULL & ~(me | op), e = empty;
    while (e) {
        int p = lowbit(e);
        e &= e - 1;
        if (!forbidden_at(p, me, op, empty, black)) return 1;
    }
    return 0;
}

static inline u64 neighbours(u64 g) {
    u64 h = g | ((g << 1) & NOT_FIRST_FILE) | ((g >> 1) & NOT_LAST_FILE);
    if (DIAG) return (h | (h << N) | (h >> N)) & FULL;
    return (h | (g << N) | (g >> N)) & FULL;
}

static inline u64 flood(u64 g, u64 own) {
    for (;;) {
        u64 grown = neighbours(g) & own;
        if (grown == g) return g;
        g = grown;
    }
}

/* The points where the colour with stones `own` would complete its path by placing
   (legality aside): the new stone joins every group next to it. */
static inline u64 winning_points(u64 own, int black) {
    const u64 first = EDGE[black ? 0 : 1][0], second = EDGE[black ? 0 : 1][1];
    u64 f1 = flood(own & first, own), f2 = flood(own & second, own);
    u64 a = first | neighbours(f1), b = second | neighbours(f2);
    return a & b & FULL & ~own;
}

/* ------------------------------------------------------- transpositions */

static inline u64 map_bits(int s, u64 x) {
    const u64(*t)[256] = SYMTAB[s];
    u64 r = 0;
    for (int c = 0; x; c++, x >>= 8) r |= t[c][x & 0xFF];
    return r;
}

typedef struct { u64 a, b; uint8_t side; int sym; } Key;

static inline Key canonical(u64 me, u64 op, int black) {
    Key best = {me, op, (uint8_t)(black ? 2 : 1), 0};
    for (int s = 1; s < 8; s++) {
        uint8_t side = (uint8_t)(((s >= 4) ^ black) ? 2 : 1);
        if (side > best.side) continue;
        u64 a = map_bits(s, me);
        if (side == best.side && a > best.a) continue;
        u64 b = map_bits(s, op);
        if (side < best.side || a < best.a || (a == best.a && b < best.b)) {
            best.a = a; best.b = b; best.side = side; best.sym = s;
        }
    }
    return best;
}

/* The images of x under the 8 symmetries (images[0] = x). */
static inline void images(u64 x, u64 out[8]) {
    out[0] = x;
    for (int s = 1; s < 8; s++) out[s] = map_bits(s, x);
}

/* The image of point p's bit under symmetry s. */
static inline u64 image_of_point(int s, int p) { return SYMTAB[s][p >> 3][1U << (p & 7)]; }

/* canonical(me, op, black) from the images of me and op (images()): the same key, for the
   children of one node at the cost of one table lookup per symmetry and child (a child's
   stones are its parent's plus one point), instead of a whole mapping of both boards. */
static inline Key canonical_from(const u64 im_me[8], const u64 im_op[8], int black) {
    Key best = {im_me[0], im_op[0], (uint8_t)(black ? 2 : 1), 0};
    for (int s = 1; s < 8; s++) {
        uint8_t side = (uint8_t)(((s >= 4) ^ black) ? 2 : 1);
        if (side > best.side) continue;
        u64 a = im_me[s];
        if (side == best.side && a > best.a) continue;
        u64 b = im_op[s];
        if (side < best.side || a < best.a || (a == best.a && b < best.b)) {
            best.a = a; best.b = b; best.side = side; best.sym = s;
        }
    }
    return best;
}

static inline u64 hash_key(const Key *k) {
    u64 h = k->a * 0x9E3779B97F4A7C15ULL ^ (k->b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= (u64)k->side * 0x165667B19E3779F9ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
}

static inline Entry *tt_find(const Key *k, uint8_t tag) {
    Entry *slot = &TT[(hash_key(k) ^ (tag == 255 ? 0 : tag)) & TT_MASK & ~(u64)1];
    for (int i = 0; i < 2; i++)
        if (slot[i].side == k->side && slot[i].a == k->a && slot[i].b == k->b &&
            slot[i].tag == tag)
            return &slot[i];
    return NULL;
}

static inline void tt_store(const Key *k, uint8_t tag, int lo, int hi, int best, u64 work) {
    Entry *slot = &TT[(hash_key(k) ^ (tag == 255 ? 0 : tag)) & TT_MASK & ~(u64)1];
    uint8_t w = (uint8_t)(64 - __builtin_clzll(work | 1));
    int8_t cbest = (int8_t)(best >= 0 ? PERM[k->sym][best] : best);
    tt_stores++;
    for (int i = 0; i < 2; i++) {
        Entry *e = &slot[i];
        if (e->side == k->side && e->a == k->a && e->b == k->b && e->tag == tag) {
            if (lo > e->lo) e->lo = (int16_t)lo;
            if (hi < e->hi) e->hi = (int16_t)hi;
            if (e->lo > e->hi) { e->lo = (int16_t)lo; e->hi = (int16_t)hi; } /* cannot happen */
            if (w > e->work) e->work = w;
            if (best != NO_MOVE) e->best = cbest;
            return;
        }
    }
    Entry fresh = {k->a, k->b, (int16_t)lo, (int16_t)hi, w, k->side, cbest, tag};
    if (slot[0].side == 0 || w >= slot[0].work) {
        if (slot[0].side != 0) slot[1] = slot[0];
        slot[0] = fresh;
    } else {
        slot[1] = fresh;
    }
}

/* ---------------------------------------------------------------- search */

static void check_budget(void) {
    if (node_limit && nodes >= node_limit) { aborted = 1; return; }
    if (deadline > 0 && now() >= deadline) { aborted = 1; return; }
    if (PyErr_CheckSignals() < 0) { aborted = 2; return; }
    if (progress_cb != NULL && progress_every && nodes % progress_every < 0x10000) {
        PyObject *r = PyObject_CallFunction(progress_cb, "K", (unsigned long long)nodes);
        if (r == NULL) { aborted = 2; return; }
        Py_DECREF(r);
    }
    if (hook_cb != NULL && (nodes & 0xFFFFF) == 0) {
        PyObject *r = PyObject_CallFunction(hook_cb, "Ki", (unsigned long long)nodes, HORIZON);
        if (r == NULL) { aborted = 2; return; }
        Py_DECREF(r);
    }
}

/* Does a stone of ours (Black if black) at q leave the opponent (stones op, colour
   !black) without any legal winning placement among `threats`? */
static inline int defends(int q, u64 me, u64 op, u64 threats, int black) {
    u64 me2 = me | bit(q), empty = FULL & ~(me2 | op), t = threats & ~bit(q);
    while (t) {
        int p = lowbit(t);
        t &= t - 1;
        if (!forbidden_at(p, op, me2, empty, !black)) return 0;
    }
    return 1;
}

static int hinted_move(u64 me, u64 op, int black, u64 candidates, int first);
/* the issue-18 pruning rules (options, see rules() below) */
#define RULE_HEUR 1
#define RULE_FROZEN 2
#define RULE_BLOCKED 4
#define RULE_MUST3 8
#define RULE_ORDER 16
#define RULE_WIN3 32
#define RULE_WEAK 64
#define RULE_MUST5 128
#define RULE_ORDER6 256
#define RULE_PRIOR6 512
#define RULE_ANY_ORDER (RULE_ORDER | RULE_ORDER6)
#define PRIOR_CAP 64
static int RULES;
static u64 frozen_points(u64 me, u64 op, u64 my_legal, int black);
static int can_connect(u64 own, u64 other, int black, u64 frozen);
static int threats_unstoppable(u64 me, u64 op, int black);
static u64 must3_survivors(u64 me, u64 op, int black, u64 candidates);
static int ordered_moves(u64 me, u64 op, int black, u64 candidates, int *moves);
static u64 blocked_cuts, must3_cuts, win3_cuts, must5_cuts;

/* rem: the plies left before the horizon (ignored without one) */
static int negamax(u64 me, u64 op, int black, int alpha, int beta, int ply, int rem,
                   int *best_out) {
    if ((++nodes & 0xFFFF) == 0 || nodes == node_limit) check_budget();
    if (aborted) return 0;
    if (HORIZON && rem <= 0) { *best_out = NO_MOVE; return 0; } /* nothing proved */
    u64 legal = legal_moves(me, op, black);
    if (!legal) {
        if (!has_legal(op, me, !black)) { *best_out = NO_MOVE; return 0; } /* dead: a draw */
        int dummy;
        *best_out = PASS_MOVE;
        return up(negamax(op, me, !black, down(beta), down(alpha), ply + 1, rem - 1, &dummy));
    }
    u64 wins_now = legal & winning_points(me, black);
    if (wins_now) { *best_out = lowbit(wins_now); return DIST ? WIN - 1 : 1; }
    /* one ply left and no immediate win: every child is at the horizon */
    if (HORIZON && rem == 1) { *best_out = lowbit(legal); return 0; }

    const uint8_t tag = horizon_tag(rem);
    Key key = canonical(me, op, black);
    Entry *e = tt_find(&key, tag);
    int ttbest = NO_MOVE;
    if (e) {
        tt_hits++;
        if (e->lo >= beta) { *best_out = e->best >= 0 ? INV[key.sym][e->best] : e->best; return e->lo; }
        if (e->hi <= alpha) { *best_out = e->best >= 0 ? INV[key.sym][e->best] : e->best; return e->hi; }
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
        if (e->best >= 0) ttbest = INV[key.sym][e->best];
    }
    /* RULE_BLOCKED (win/draw/loss values without a horizon only): a side that can never
       connect never wins, so the value is <= 0 for the mover if it cannot, >= 0 if the
       other side cannot (see can_connect) */
    if ((RULES & RULE_BLOCKED) && !DIST && !HORIZON) {
        u64 f = frozen_points(me, op, legal, black);
        int hi_cap = can_connect(me, op, black, f) ? 1 : 0;
        int lo_cap = can_connect(op, me, !black, f) ? -1 : 0;
        if (hi_cap <= alpha || lo_cap >= beta || lo_cap == hi_cap) {
            blocked_cuts++;
            int v = hi_cap <= alpha ? hi_cap : lo_cap;
            *best_out = lowbit(legal);
            tt_store(&key, tag, lo_cap, hi_cap, NO_MOVE, 1);
            return v;
        }
        if (hi_cap < beta) beta = hi_cap;
        if (lo_cap > alpha) alpha = lo_cap;
    }
    const int alpha0 = alpha;
    const u64 start_nodes = nodes;

    /* the opponent's immediate wins: a move that leaves one of them legal loses at once
       (legal for the opponent: its roles, when they depend on the colour)
       (our stone can make a winning point illegal for the opponent, or legal again) */
    u64 candidates = legal;
    u64 threats = winning_points(op, !black) & ~me;
    if (threats) {
        u64 c = legal;
        candidates = 0;
        while (c) {
            int q = lowbit(c);
            c &= c - 1;
            if (defends(q, me, op, threats, black)) candidates |= bit(q);
        }
        if (!candidates) {
            threat_cuts++;
            *best_out = lowbit(legal);
            int v = DIST ? -(WIN - 2) : -1;
            tt_store(&key, tag, v, v, lowbit(legal), nodes - start_nodes + 1);
            return v;
        }
    }

    /* RULE_MUST3 (win/draw/loss without a horizon): a move after which the other side has
       a reply that leaves us no defence loses (threats_unstoppable); such moves count as
       skipped losing moves below */
    if ((RULES & RULE_MUST3) && !DIST && !HORIZON) {
        candidates = must3_survivors(me, op, black, candidates);
        if (!candidates) {
            *best_out = lowbit(legal);
            tt_store(&key, tag, -1, -1, lowbit(legal), nodes - start_nodes + 1);
            return -1;
        }
    }

    /* enhanced transposition cutoff: a child already known to be bad enough for the
       opponent cuts this node before any search (high in the tree only: it costs a
       canonical key per child) */
    if (ETC_MIN_EMPTY && CELLS - __builtin_popcountll(me | op) >= ETC_MIN_EMPTY) {
        u64 c = candidates;
        int need = down(beta); /* a child value <= need gives this node >= beta */
        while (c) {
            int q = lowbit(c);
            c &= c - 1;
            Key ck = canonical(op, me | bit(q), !black);
            Entry *ce = tt_find(&ck, horizon_tag(rem - 1));
            if (ce && ce->hi <= need) {
                etc_cuts++;
                int v = up(ce->hi);
                tt_store(&key, tag, v, WIN, q, nodes - start_nodes + 1);
                *best_out = q;
                return v;
            }
        }
    }

    /* move order: table move, killers, then by history */
    int moves[MAXCELLS], count = 0;
    int side = black ? 0 : 1;
    if (HINT_BLACK == black) {
        int h = hinted_move(me, op, black, candidates, ttbest);
        if (h >= 0) { moves[count++] = h; candidates &= ~bit(h); hint_moves++; }
    }
    if (ttbest >= 0 && (candidates & bit(ttbest))) { moves[count++] = ttbest; candidates &= ~bit(ttbest); }
    int kp = ply < MAXPLY ? ply : MAXPLY - 1;
    for (int i = 0; i < 2; i++) {
        int k = killer[kp][i];
        if (k >= 0 && (candidates & bit(k))) { moves[count++] = k; candidates &= ~bit(k); }
    }
    int first_sorted = count;
    if (RULES & RULE_ANY_ORDER) { /* the static order (move_score) instead of the history */
        count += ordered_moves(me, op, black, candidates, moves + count);
        candidates = 0;
    }
    while (candidates) {
        int p = lowbit(candidates);
        candidates &= candidates - 1;
        int h = history[side][p], j = count++;
        while (j > first_sorted && history[side][moves[j - 1]] < h) { moves[j] = moves[j - 1]; j--; }
        moves[j] = p;
    }
    /* moves not tried because they lose at once still need a best move if all lose */
    int best = -WIN - 1, bestmove = moves[0];
    if (count < __builtin_popcountll(legal)) best = DIST ? -(WIN - 2) : -1; /* skipped moves */
    for (int i = 0; i < count; i++) {
        int p = moves[i], dummy;
        int a = alpha > best ? alpha : best;
        int v = up(negamax(op, me | bit(p), !black, down(beta), down(a), ply + 1, rem - 1,
                           &dummy));
        if (aborted) return 0;
        if (v > best) {
            best = v;
            bestmove = p;
            if (best >= beta) {
                history[side][p] += (int)(CELLS - __builtin_popcountll(me | op));
                if (killer[kp][0] != p) { killer[kp][1] = killer[kp][0]; killer[kp][0] = p; }
                break;
            }
        }
    }
    int lo = best <= alpha0 ? -WIN : best, hi = best >= beta ? WIN : best;
    if (best > alpha0 && best < beta) lo = hi = best;
    tt_store(&key, tag, lo, hi, bestmove, nodes - start_nodes + 1);
    *best_out = bestmove;
    return best;
}

/* Check a search request and reset the counters and budget; -1 with an exception set. */
static int begin_search(u64 me, u64 op, u64 limit, double seconds) {
    if (TT == NULL) { PyErr_SetString(PyExc_RuntimeError, "setup() first"); return -1; }
    if ((me & op) || ((me | op) & ~FULL)) {
        PyErr_SetString(PyExc_ValueError, "stones overlap or lie off the board");
        return -1;
    }
    nodes = 0;
    node_limit = limit;
    deadline = seconds > 0 ? now() + seconds : 0;
    aborted = 0;
    progress_cb = NULL;
    return 0;
}

/* ------------------------------------------------ proof-number search */

/* Depth-first proof-number search (df-pn, with the 1 + 1/4 threshold trick) for "the
   attacker wins", a second search method independent of the alpha-beta above: it shares
   only the rules helpers (legal_moves, winning_points, forbidden_at) and the canonical
   keys. Its own table keeps (proof, disproof) numbers per node. */

#define PN_INF 0x3FFFFFFFU
typedef struct {
    u64 a, b;
    uint32_t pn, dn;
    uint8_t side;     /* as in Entry: 0 empty, 1 / 2 canonical mover colour */
    uint8_t attack;   /* 1 if the side to move is the attacker */
    uint8_t work;
    uint8_t kids[5];  /* the expansion cache (n <= 6): see KIDS_CACHED */
} PEntry;

/* The expansion cache (session 6): an entry of a node that was searched (not a terminal
   one) also keeps the node's children as pn_expand found them (the moves left after the
   immediate threats and the pruning rules), as a mask of points in the canonical
   orientation (40 bits: CELLS <= 36 points, KIDS_PASS for a forced pass, KIDS_CACHED
   set; only here: in a search's move masks the pass is the empty mask, see pn_children); a node met again is not expanded again, its mask is mapped back to the board as
   it stands (the inverse of the key's symmetry). The same children, in the same order:
   they are a function of the position that every symmetry maps onto its image's (the
   rules and the pruning rules are geometric), and a table is not kept across rule sets,
   so the search is the same tree, only faster (tests/test_native_dfpn_nodes.py). */
#define KIDS_MAX_CELLS 36
#define KIDS_PASS ((u64)1 << 38)
#define KIDS_CACHED ((u64)1 << 39)
static int INVSYM[8]; /* INVSYM[s]: the symmetry undoing s */
static int KIDS_ON = 1; /* the cache is on unless expansion_cache(False) (tests compare) */

static inline u64 kids_get(const PEntry *e) {
    u64 m = 0;
    for (int i = 0; i < 5; i++) m |= (u64)e->kids[i] << (8 * i);
    return m;
}

static inline void kids_set(PEntry *e, u64 m) {
    for (int i = 0; i < 5; i++) e->kids[i] = (uint8_t)(m >> (8 * i));
}

static PEntry *PT = NULL;
static u64 PT_MASK = 0;
static int PT_BITS = 0;
static int pt_n = 0, pt_diag = -1; /* the board size and win rule of PT's keys */
static u64 roles_sig = 0; /* a hash of the installed roles (py_setup: a new glyph set
                             makes a kept df-pn table unusable) */

static inline uint32_t sat_add(uint32_t x, uint32_t y) {
    uint32_t s = x + y;
    return s >= PN_INF ? PN_INF : s;
}

/* The df-pn table's replacement schemes (issue 18, session 5), chosen per dfpn() call:

   PT_PAIR (0, session 4): buckets of 2 entries (one 64-byte line). A new entry goes first
   when its work is at least the first one's, pushing that one into the second place,
   else it replaces the second. Solved entries count as the most work (255), even a
   terminal one of 1 node, so once the table is full every new solved leaf pushes out
   whatever its bucket held, however big the subtree behind it: the table thrashes.

   PT_QUAD (1): buckets of 4 entries (128 bytes, an aligned pair of lines). An entry's
   value is its work class (1 + log2 of the nodes of its biggest search) plus
   PT_SOLVED_BONUS when it is solved (proof or disproof numbers are final, unsolved ones
   a guess). A new entry always goes in (its parent reads it back at once), in an empty
   place or else in place of the first entry of least value; so a bucket keeps its three
   most valuable entries and the newest one, and a leaf never pushes out a big subtree.
   And pn_mid remembers its children's numbers as last seen during its own loop: a child
   whose entry a sibling's search replaced would read as new (1 / 1) and be searched
   first again and again (with a table much smaller than the search, session 4's pairs
   never settle: benchmarks/minefield_table.py).

   Either way an entry holds its full key (both stone sets, the side to move, the
   attacker) and is only read back for that same key: a replaced entry is lost work,
   never a wrong number, so the scheme changes the nodes a proof takes, not its result
   (tests: equal values). */
/* PT_TWO (2, session 6): a two-level table. The first level is PT_QUAD's table; the
   second, PT2, a quarter as many entries (so 1.25x the memory of PT_QUAD at the same
   bits), holds solved entries only: a solved entry of more than one node that the first
   level pushes out moves there, in place of the entry of least work in its bucket of 4
   (if it has at least that work), instead of being lost. A read looks in the first level,
   then in the second. The same argument holds: every entry keeps its full key, a solved
   entry is final, so the second level only saves work. */
#define PT_PAIR 0
#define PT_QUAD 1
#define PT_TWO 2
#define PT_SOLVED_BONUS 2
static int PT_SCHEME = PT_PAIR;
static PEntry *PT2 = NULL;
static u64 PT2_MASK = 0;
static int PT2_BITS = 0;
static u64 pt2_moves = 0, pt2_hits = 0; /* entries moved into / found in the second level */

static inline int pt_ways(void) { return PT_SCHEME == PT_PAIR ? 2 : 4; }

static inline PEntry *pt_slot(const Key *k, int attack) {
    return &PT[(hash_key(k) ^ (u64)attack * 0x9E3779B97F4A7C15ULL) & PT_MASK &
               ~(u64)(pt_ways() - 1)];
}

/* The key's bucket of 4 in the second level (PT_TWO), from other bits of the hash. */
static inline PEntry *pt2_slot(const Key *k, int attack) {
    u64 h = hash_key(k) ^ (u64)attack * 0x9E3779B97F4A7C15ULL;
    return &PT2[(h >> 32 ^ h * 0xD6E8FEB86659FD93ULL) & PT2_MASK & ~(u64)3];
}

/* The entry of key k in the bucket `slot` of `ways` entries, or NULL. */
static inline PEntry *pt_in(PEntry *slot, int ways, const Key *k, int attack) {
    for (int i = 0; i < ways; i++)
        if (slot[i].side == k->side && slot[i].attack == attack && slot[i].a == k->a &&
            slot[i].b == k->b)
            return &slot[i];
    return NULL;
}

/* The entry of key k, whose first-level bucket is `slot` (pt_slot), then in the second
   level (PT_TWO), or NULL. */
static inline PEntry *pt_lookup(PEntry *slot, const Key *k, int attack) {
    PEntry *e = pt_in(slot, pt_ways(), k, attack);
    if (e == NULL && PT_SCHEME == PT_TWO && (e = pt_in(pt2_slot(k, attack), 4, k, attack)))
        pt2_hits++;
    return e;
}

/* pt_lookup's numbers, read into pn / dn: 1 if found. */
static inline int pt_find(PEntry *slot, const Key *k, int attack, uint32_t *pn, uint32_t *dn) {
    const PEntry *e = pt_lookup(slot, k, attack);
    if (e == NULL) return 0;
    *pn = e->pn;
    *dn = e->dn;
    return 1;
}

/* The entry of key k (first level, then second), or NULL. */
static inline PEntry *pt_entry(const Key *k, int attack) {
    return pt_lookup(pt_slot(k, attack), k, attack);
}

static inline int pt_get(const Key *k, int attack, uint32_t *pn, uint32_t *dn) {
    return pt_find(pt_slot(k, attack), k, attack, pn, dn);
}

/* Ask the memory for a bucket before it is read (the children's buckets of a df-pn node
   are scattered over the table: fetched one after the other, each read waits for its own
   cache miss). Only the speed changes. */
static inline void pt_prefetch(const PEntry *slot) {
    __builtin_prefetch(slot);
    if (PT_SCHEME != PT_PAIR) __builtin_prefetch((const char *)slot + 64);
}

static inline int pt_value(const PEntry *e) {
    return e->work + ((e->pn == 0 || e->dn == 0) ? PT_SOLVED_BONUS : 0);
}

/* PT_TWO: keep a solved entry that the first level pushes out (see PT_TWO). */
static inline void pt2_keep(const PEntry *e) {
    Key k = {e->a, e->b, e->side, 0};
    PEntry *slot = pt2_slot(&k, e->attack);
    int victim = -1;
    for (int i = 0; i < 4; i++) {
        PEntry *x = &slot[i];
        if (x->side == e->side && x->attack == e->attack && x->a == e->a && x->b == e->b) {
            if (e->work > x->work) x->work = e->work;
            return;
        }
        if (x->side == 0) { victim = i; break; }
        if (x->work <= e->work && (victim < 0 || x->work < slot[victim].work)) victim = i;
    }
    if (victim < 0) return;
    slot[victim] = *e;
    pt2_moves++;
}

static inline void pt_put(const Key *k, int attack, uint32_t pn, uint32_t dn, u64 work,
                          u64 kids) {
    PEntry *slot = pt_slot(k, attack);
    uint8_t w = (uint8_t)(64 - __builtin_clzll(work | 1));
    const int quad = PT_SCHEME != PT_PAIR;
    if (!quad && (pn == 0 || dn == 0)) w = 255; /* keep solved nodes */
    const int ways = pt_ways();
    for (int i = 0; i < ways; i++) {
        PEntry *e = &slot[i];
        if (e->side == k->side && e->attack == attack && e->a == k->a && e->b == k->b) {
            e->pn = pn; e->dn = dn;
            if (w > e->work) e->work = w;
            if (kids) kids_set(e, kids);
            return;
        }
    }
    PEntry fresh = {k->a, k->b, pn, dn, k->side, (uint8_t)attack, w, {0}};
    kids_set(&fresh, kids);
    if (quad) {
        int victim = 0, least = 1 << 30;
        for (int i = 0; i < 4; i++) {
            if (slot[i].side == 0) { victim = i; break; }
            int v = pt_value(&slot[i]);
            if (v < least) { least = v; victim = i; }
        }
        const PEntry *old = &slot[victim];
        if (PT_SCHEME == PT_TWO && old->side != 0 && old->work > 1 && (old->pn == 0 || old->dn == 0))
            pt2_keep(old);
        slot[victim] = fresh;
        return;
    }
    if (slot[0].side == 0 || w >= slot[0].work) {
        if (slot[0].side != 0) slot[1] = slot[0];
        slot[0] = fresh;
    } else {
        slot[1] = fresh;
    }
}

/* The move ordering hint of alpha-beta (option, off by default): at a node where the
   side to move is of colour HINT_BLACK, the first candidate (the table move `first`, then
   in point order) whose child the df-pn table of the last dfpn() call holds as won for us
   is searched first: a child proved for us as the attacker (entry with the defender to
   move, pn = 0), or disproved for the opponent as the attacker (dn = 0: the opponent has
   no forced win there). Only the ORDER of the moves changes: alpha-beta still searches
   and values every move it needs by itself, so its value is the plain search's value
   whatever the table holds (a stale, foreign or wrong entry costs nodes, never
   correctness; the tests check equal values with and without). With a proof in the table
   the winning side's first move is the proof's move, and alpha-beta's tree shrinks to
   about the proof tree. */
/* The hint set (session 7): canonical keys of positions that a certificate proves lost
   for their side to move (the children of its listed positions through their moves),
   loaded by hint_add(); hinted_move prefers a move into one of them, so that alpha-beta
   re-proves a certificate's entry in about the certificate's tree. Open addressing with
   linear probing in its own memory, at most half full (it doubles): unlike the df-pn
   table, nothing is lost to replacement. Only the ORDER of alpha-beta's moves depends on
   it, as for the df-pn table's hints. */
typedef struct { u64 a, b; uint8_t side; } HKey;
static HKey *HS = NULL;
static u64 HS_MASK = 0, HS_COUNT = 0;

static inline int hs_has(const Key *k) {
    if (HS == NULL) return 0;
    for (u64 i = hash_key(k) & HS_MASK;; i = (i + 1) & HS_MASK) {
        const HKey *h = &HS[i];
        if (h->side == 0) return 0;
        if (h->side == k->side && h->a == k->a && h->b == k->b) return 1;
    }
}

static void hs_insert(HKey *table, u64 mask, const HKey *x) {
    Key k = {x->a, x->b, x->side, 0};
    u64 i = hash_key(&k) & mask;
    while (table[i].side != 0) i = (i + 1) & mask;
    table[i] = *x;
}

/* Add k (0 if it was there, 1 added, -1 out of memory). */
static int hs_add(const Key *k) {
    if (hs_has(k)) return 0;
    if (HS == NULL || 2 * (HS_COUNT + 1) > HS_MASK + 1) {
        u64 size = HS == NULL ? 1024 : 2 * (HS_MASK + 1);
        HKey *grown = calloc(size, sizeof(HKey));
        if (grown == NULL) return -1;
        for (u64 i = 0; HS != NULL && i <= HS_MASK; i++)
            if (HS[i].side != 0) hs_insert(grown, size - 1, &HS[i]);
        free(HS);
        HS = grown;
        HS_MASK = size - 1;
    }
    HKey x = {k->a, k->b, k->side};
    hs_insert(HS, HS_MASK, &x);
    HS_COUNT++;
    return 1;
}

/* Does the df-pn table hold keys of this board size and win rule? A table of another
   size or rule holds keys that mean other boards: its "proofs" would be wrong hints
   (costing nodes, never a value). */
static inline int pt_usable(void) { return PT != NULL && pt_n == N && pt_diag == DIAG; }

static inline int hinted_child(u64 me, u64 op, int black, int q) {
    uint32_t pn, dn;
    Key k = canonical(op, me | bit(q), !black);
    /* a loaded hint set is the only guide (the df-pn table may hold another search's
       positions) */
    if (HS != NULL) return hs_has(&k);
    if (!pt_usable()) return 0;
    return (pt_get(&k, 0, &pn, &dn) && pn == 0) || (pt_get(&k, 1, &pn, &dn) && dn == 0);
}

static int hinted_move(u64 me, u64 op, int black, u64 candidates, int first) {
    if (HS == NULL && !pt_usable()) return -1;
    if (first >= 0 && (candidates & bit(first))) {
        if (hinted_child(me, op, black, first)) return first;
        candidates &= ~bit(first);
    }
    while (candidates) {
        int q = lowbit(candidates);
        candidates &= candidates - 1;
        if (hinted_child(me, op, black, q)) return q;
    }
    return -1;
}

/* ------------------------------------------- pruning rules (issue 18, options) */

/* rules(flags, scale): each saving behind its own bit, all off by default (then every
   search is exactly the one before: same nodes, same values, same report).
   RULE_HEUR    df-pn: initial proof / disproof numbers of a new child from the two path
                distances (path_distance) instead of 1 / 1; alpha-beta unchanged.
   RULE_FROZEN  the distances leave out the points that a colour can never occupy again
                (frozen_points, never_points): better estimates; and RULE_BLOCKED's test.
   RULE_BLOCKED a side that can never connect its edges can never win (the frozen points
                and its never-points are closed for it): df-pn disproves such an attacker
                at once, alpha-beta bounds the value (<= 0 for it, both blocked: 0).
   RULE_MUST3   must-play beyond the immediate win: a move after which the opponent has a
                reply that leaves us no defence (threats_unstoppable) is not searched.
   RULE_ORDER   move ordering: df-pn's children (so its ties of proof / disproof numbers)
                and alpha-beta's moves after the table move and the killers, in the order
                of a static score with weights fitted on solved 5x5 positions (move_score);
                only the order changes, so every value stays the plain search's.
   RULE_WIN3    df-pn (session 7): must3 at the node instead of at its parent: a node
                whose side to move has a reply that leaves the other side no defence
                (threats_unstoppable) is won for the side to move, without a search.
                The same claim as RULE_MUST3 (sound for the same reason), tested once per
                node that df-pn expands instead of once per child of it (most children
                of an OR node are never expanded); the tree differs (such a child is a
                node of its own, not cut), so its nodes are measured, not pinned.
   RULE_WEAK    df-pn (session 7): weak proof numbers (Ueda et al. 2008): the number
                that sums the children (the disproof number at an OR node, the proof
                number at an AND node) is the largest child's plus one per other open
                child, so that children that share a subtree (transpositions) are not
                counted over and over. df-pn stays exact: the number is 0 exactly when
                every child's is 0 and infinite when one child's is (a proof or disproof
                is still only the min / all rule over solved children); only the order
                of the search changes. The child's threshold follows: the parent's
                threshold less one per other open child.
   RULE_MUST5   df-pn (issue 32): must-play against a forcing line one threat deeper than
                RULE_MUST3 (forced_win): a move after which the other side has a reply
                that makes a legal threat, and every move of ours that stops its threats
                leaves it a reply that leaves us no defence, loses within 5 more plies,
                so it is not searched (and a node where every move is such a move is
                lost). MUST_DEPTH (rules()' third argument, default 2) threats deep.
   RULE_ORDER6  (issue 32) RULE_ORDER's kind of order with 17 features and weights fitted
                on the winner's moves of the 6x6 certificates (move_features6, W_ORDER6):
                at df-pn's OR nodes (the attacker to move) and at every alpha-beta node;
                df-pn's AND nodes keep RULE_ORDER's score. Only the order changes.
   RULE_PRIOR6  (issue 32, df-pn, with RULE_ORDER6) a child of an OR node scored below the
                best starts at proof number 1 + min(64, gap * HEUR_SCALE / 256) (the gap
                in score units, 32 a logit) instead of 1: never 0 nor infinite, so only
                the order of the search changes (the argument of RULE_HEUR).
   Why each is sound: at each function below. (The bits are defined above negamax.) */
static int RULES = 0; /* declared above negamax */
static int HEUR_SCALE = 8; /* initial number = 1 + HEUR_SCALE * (moves still needed) / 4 */

/* Does a role of point p, for the side with stones `mover` (Black if black) placing there,
   fit with its stones on the board now and its empty points all inside `within`? */
static inline int role_fits_within(int p, u64 mover, u64 other, u64 within, int black) {
    const int t = RT(black);
    const u64 *rm = ROLE_M[t][p], *ro = ROLE_O[t][p], *re = ROLE_E[t][p];
    for (int k = 0, K = NROLES[t][p]; k < K; k++)
        if ((mover & rm[k]) == rm[k] && (other & ro[k]) == ro[k] && (re[k] & ~within) == 0)
            return 1;
    return 0;
}

/* The frozen points: the largest set F of empty points such that every point of F has,
   for EACH colour, a glyph role whose stones are on the board now and whose empty points
   all lie in F. No point of F is ever occupied, by anyone, in any continuation: take the
   first placement on a point p of F in some continuation, by colour c; until then every
   point of F is still empty and the stones of now are still there (stones are never
   removed or recoloured), so c's role of p still fits and the placement creates a glyph:
   it is illegal, a contradiction. (E.g. the two middle points of a 2x3 switch: a stone on
   either makes a hard corner while the other is empty.) Such an F lies inside the points
   illegal for both colours now, so the greatest fixed point is found by starting there
   and removing the points that fail until none does. With roles by colour (the
   cartwheel) the same holds: c's role is one of c's table, and c places by it. `me` is
   Black if black. */
static u64 frozen_points(u64 me, u64 op, u64 my_legal, int black) {
    u64 empty = FULL & ~(me | op);
    u64 f = empty & ~my_legal & ~legal_moves(op, me, !black);
    for (;;) {
        u64 keep = 0, e = f;
        while (e) {
            int p = lowbit(e);
            e &= e - 1;
            if (role_fits_within(p, me, op, f, black) && role_fits_within(p, op, me, f, !black))
                keep |= bit(p);
        }
        if (keep == f) return f;
        f = keep;
    }
}

/* The empty points outside `frozen` that the side with stones `own` can never occupy:
   a role for it fits with the stones of now and empty points inside `frozen` only, which
   stay empty for ever (above) while the stones stay, so the role fits for ever (a role of
   own's colour, Black if black). */
static u64 never_points(u64 own, u64 other, u64 frozen, int black) {
    u64 e = FULL & ~(own | other | frozen), out = 0;
    while (e) {
        int p = lowbit(e);
        e &= e - 1;
        if (role_fits_within(p, own, other, frozen, black)) out |= bit(p);
    }
    return out;
}

#define DIST_INF 99
/* The fewest empty points of `open` whose addition to `own` joins the colour's two edges
   (with the search's adjacency: 8-connected in the ortho-diagonal game), DIST_INF if no
   addition does: a 0-1 breadth-first search on bitboards (reach[k]: the points reachable
   from the first edge through own stones and at most k points of `open`). */
static int path_distance(u64 own, u64 open, int black) {
    const u64 first = EDGE[black ? 0 : 1][0], second = EDGE[black ? 0 : 1][1];
    u64 reach = flood(own & first, own);
    for (int k = 0;; k++) {
        if (reach & second) return k;
        u64 add = (neighbours(reach) | first) & open & ~reach;
        if (!add) return DIST_INF;
        reach |= add;
        for (;;) { /* through own stones at no cost */
            u64 grown = reach | (neighbours(reach) & own);
            if (grown == reach) break;
            reach = grown;
        }
    }
}

/* The two distances of a node (mover, other), with the closed points left out when
   RULE_FROZEN is on. */
static void node_distances(u64 me, u64 op, int black, int *d_me, int *d_op) {
    u64 empty = FULL & ~(me | op), open_me = empty, open_op = empty;
    if (RULES & RULE_FROZEN) {
        u64 f = frozen_points(me, op, legal_moves(me, op, black), black);
        open_me &= ~f & ~never_points(me, op, f, black);
        open_op &= ~f & ~never_points(op, me, f, !black);
    }
    *d_me = path_distance(me, open_me, black);
    *d_op = path_distance(op, open_op, !black);
}

/* RULE_BLOCKED: can the side `own` (Black if black) still ever connect? Its stones and
   the empty points it may still occupy (not frozen, not its never-points) must join its
   edges; if they do not, no continuation gives it a path (it can only ever add stones on
   those points), so it never wins. The converse is not claimed. With roles by colour the
   frozen and never points are taken with each colour's own roles (above), so the
   argument is the same for each side. */
static int can_connect(u64 own, u64 other, int black, u64 frozen) {
    u64 open = FULL & ~(own | other | frozen);
    open &= ~never_points(own, other, frozen, black);
    return path_distance(own, open, black) < DIST_INF;
}

/* RULE_HEUR: initial (proof, disproof) numbers of a node not in the table, from the moves
   each side still needs (its distance, one less for the side to move): the nearer the
   attacker is to a path, the smaller the proof number, and the same for the defender and
   the disproof number. Why df-pn stays exact whatever these numbers are: a node is only
   ever proved (pn 0) or disproved (dn 0) by pn_expand's terminal tests and by the
   min / sum rules over children that are themselves proved or disproved; an initial
   number is always >= 1 and < PN_INF, so it is never taken for a proof or a disproof. It
   only changes which child is expanded first and when a subtree is left (its thresholds):
   the ORDER of the search, not what a proof is. */
static void heuristic_numbers(const u64 me, const u64 op, int black, int attack, uint32_t *pn,
                              uint32_t *dn) {
    int d_me, d_op;
    node_distances(me, op, black, &d_me, &d_op);
    int need_me = d_me >= DIST_INF ? 40 : (d_me > 0 ? d_me - 1 : 0);
    int need_op = d_op >= DIST_INF ? 40 : d_op;
    int need_att = attack ? need_me : need_op, need_def = attack ? need_op : need_me;
    *pn = 1 + (uint32_t)(HEUR_SCALE * need_att) / 4;
    *dn = 1 + (uint32_t)(HEUR_SCALE * need_def) / 4;
}

/* The points whose state decides whether a placement at p is legal (the union of p's
   glyph roles, of both colours' tables): a stone elsewhere never changes the legality of
   p, for either colour. */
static u64 ZONE[MAXCELLS], RZONE[MAXCELLS]; /* RZONE[q]: the points p whose zone holds q */
static int zone_n = 0;
static inline u64 zone(int p) {
    if (zone_n != N) {
        for (int q = 0; q < CELLS; q++) {
            u64 z = 0;
            for (int t = 0; t < 2; t++)
                for (int k = 0; k < NROLES[t][q]; k++)
                    z |= ROLE_M[t][q][k] | ROLE_O[t][q][k] | ROLE_E[t][q][k];
            ZONE[q] = z;
        }
        for (int q = 0; q < CELLS; q++) {
            RZONE[q] = 0;
            for (int p2 = 0; p2 < CELLS; p2++)
                if (ZONE[p2] >> q & 1) RZONE[q] |= bit(p2);
        }
        zone_n = N;
    }
    return ZONE[p];
}
static inline u64 rzone(int q) {
    zone(q);
    return RZONE[q];
}

/* The empty points at cost 1 (`near`: next to the edge group or on the edge) and at cost
   at most 2 (`far`) from an edge, where a path's cost is the number of its empty points
   (the point itself included); `group`: the stones joined to that edge. */
static inline void cost_layers(u64 own, u64 empty, u64 group, u64 edge, u64 *near, u64 *far) {
    u64 e1 = (neighbours(group) | edge) & empty, reach = group | e1;
    for (;;) {
        u64 grown = reach | (neighbours(reach) & own);
        if (grown == reach) break;
        reach = grown;
    }
    *near = e1;
    *far = e1 | (neighbours(reach) & empty);
}

/* RULE_MUST3: after our move (the node: `me` = the opponent, to move, `op` = us, `black`
   the opponent's colour; our move defended every immediate win of the opponent), does the
   opponent have a legal reply r after which we cannot win at once and every legal move
   of ours leaves one of its winning points legal for it? Then our move loses (it plays
   r, we play anything, it completes its path), so it need not be searched. When we have
   no legal move after r (a pass) nothing is claimed. Only where the answer cannot change
   is the work skipped:
   - the opponent's winning points after r are those of now (minus r) unless r touches
     one of its edge groups or edges (A1B1 below: only then can r join them);
   - a reply r makes a winning point through itself only if r lies on a path with two
     empty points (r and the winning point): at cost 1 from one edge and at most 2 from
     the other (cost_layers); any other reply makes no new winning point, and unless it
     lies in the zone of a winning point of now it leaves each as illegal as now, so it
     makes no threat;
   - a move of ours can only stop a legal threat p by taking p or by being in p's zone.
   With roles by colour every legality test here is made with the roles of the colour that
   would place (the replier's for r and its threats, ours for our wins and defences), and
   zone() is the union of both colours' roles, so each step holds as before (RULE_WIN3,
   which asks the same question of the side to move, too). */
/* What threats_unstoppable knows of the side `me` (Black if black) before it looks at the
   replies: its edge groups f1 / f2, the points next to them or on their edges a1 / b1,
   and the cost layers (cost_layers) of each edge over the empty points `empty`. */
typedef struct { u64 f1, f2, a1, b1, near1, far1, near2, far2, empty; } Reach;

static inline void reach_of(u64 me, u64 empty, int black, Reach *r) {
    const u64 first = EDGE[black ? 0 : 1][0], second = EDGE[black ? 0 : 1][1];
    r->f1 = flood(me & first, me);
    r->f2 = flood(me & second, me);
    r->a1 = first | neighbours(r->f1);
    r->b1 = second | neighbours(r->f2);
    cost_layers(me, empty, r->f1, first, &r->near1, &r->far1);
    cost_layers(me, empty, r->f2, second, &r->near2, &r->far2);
    r->empty = empty;
}

/* reach_of(me, base->empty minus q, black): the same groups (they are me's stones), and
   the same layers unless q lies in a1 (b1): the first layer is a1 & empty (q outside a1
   is not in it), the stones reached from it through me's stones are then the same, and
   the second layer only loses q. Else those layers again. (Same values: only faster.) */
static inline void reach_without(const Reach *base, u64 me, int black, int q, Reach *out) {
    const u64 first = EDGE[black ? 0 : 1][0], second = EDGE[black ? 0 : 1][1];
    *out = *base;
    out->empty = base->empty & ~bit(q);
    if (base->a1 & bit(q)) cost_layers(me, out->empty, base->f1, first, &out->near1, &out->far1);
    else out->far1 &= ~bit(q);
    if (base->b1 & bit(q)) cost_layers(me, out->empty, base->f2, second, &out->near2, &out->far2);
    else out->far2 &= ~bit(q);
}

static int unstoppable_from(u64 me, u64 op, int black, const Reach *rc);

static int threats_unstoppable(u64 me, u64 op, int black) {
    Reach rc;
    reach_of(me, FULL & ~(me | op), black, &rc);
    return unstoppable_from(me, op, black, &rc);
}

/* RULE_MUST3 at a node (me to move, Black if black): the candidates q that survive, i.e.
   after which the other side has no reply that leaves us no defence; the other side's
   Reach is taken once for all q (reach_without). */
/* What unstoppable_cached keeps of the other side's replies r over all our candidates q
   of one node (`rep` the replier's stones, `mov` ours before q, `empty` the empty points
   before q), filled as they are first asked for: whether r is legal before q (stones
   outside zone(r) never change that: for q outside zone(r) it holds after q too), and
   r's threats (its winning points after r, legality aside: after q the same minus q)
   with those of them legal for it before q (for a threat t whose zone holds no q, after
   q too). */
typedef struct {
    u64 rep, mov, empty;
    u64 legal_known, legal; /* replies whose legality before q is known, and the legal ones */
    u64 seen;               /* replies whose threats[] and live[] are filled */
    u64 threats[MAXCELLS], live[MAXCELLS];
} Must3Cache;

static int M3_CACHE = 1; /* must3_survivors() with the cache (must3_cache(False): without) */
static int unstoppable_cached(Must3Cache *c, int q, int black, const Reach *rc);

static u64 must3_survivors(u64 me, u64 op, int black, u64 candidates) {
    Reach base, rq;
    reach_of(op, FULL & ~(me | op), !black, &base);
    Must3Cache cache;
    cache.rep = op;
    cache.mov = me;
    cache.empty = FULL & ~(me | op);
    cache.legal_known = cache.legal = cache.seen = 0;
    for (u64 c = candidates; c; c &= c - 1) {
        int q = lowbit(c);
        reach_without(&base, op, !black, q, &rq);
        if (M3_CACHE ? unstoppable_cached(&cache, q, !black, &rq)
                     : unstoppable_from(op, me | bit(q), !black, &rq)) {
            candidates &= ~bit(q);
            must3_cuts++;
        }
    }
    return candidates;
}

/* After the reply that left the threats `live` (legal for it; `threats` all its winning
   points) on the board (`me2` its stones, `op` ours, `empty2` the empty points): we have
   no win at once (`our_wins`: our winning points, legality aside), no move that takes or
   blocks every threat, and a legal move (no pass). The last step of unstoppable_from and
   unstoppable_cached. */
static int no_defence(u64 op, u64 me2, u64 empty2, u64 threats, u64 live, u64 our_wins,
                      int black_op) {
    for (u64 t = our_wins & empty2; t; t &= t - 1)
        if (!forbidden_at(lowbit(t), op, me2, empty2, black_op)) return 0; /* we win */
    u64 stops = empty2;
    for (u64 t = live; t; t &= t - 1) stops &= zone(lowbit(t)) | bit(lowbit(t));
    /* taking a threat point first: the likeliest defence */
    for (u64 order[2] = {stops & live, stops & ~live}, i = 0; i < 2; i++)
        for (u64 c = order[i]; c; c &= c - 1) {
            int q = lowbit(c);
            if (!forbidden_at(q, op, me2, empty2, black_op) && defends(q, op, me2, threats, black_op))
                return 0;
        }
    return has_legal(op, me2, black_op);
}

/* threats_unstoppable with me's Reach over the empty points of now (rc). */
static int unstoppable_from(u64 me, u64 op, int black, const Reach *rc) {
    const u64 empty = rc->empty;
    u64 w0 = rc->a1 & rc->b1 & FULL & ~me & ~op;
    u64 a1b1 = (rc->a1 | rc->b1) & empty;
    /* a reply that makes a new winning point through itself lies on a path of exactly two
       empty points: 1 + 2 or 2 + 1 empties from the two edges, counting itself in both */
    u64 look = (rc->near1 & rc->far2) | (rc->far1 & rc->near2);
    for (u64 w = w0; w; w &= w - 1) look |= zone(lowbit(w));
    look &= empty;
    const u64 our_wins = winning_points(op, !black);
    while (look) {
        int r = lowbit(look);
        look &= look - 1;
        if (forbidden_at(r, me, op, empty, black)) continue; /* r illegal */
        u64 me2 = me | bit(r), empty2 = empty & ~bit(r);
        u64 threats = (a1b1 & bit(r)) ? winning_points(me2, black) & ~op : w0 & ~bit(r);
        u64 live = 0; /* the threats legal for it now */
        for (u64 t = threats; t; t &= t - 1)
            if (!forbidden_at(lowbit(t), me2, op, empty2, black)) live |= bit(lowbit(t));
        if (live && no_defence(op, me2, empty2, threats, live, our_wins, !black)) return 1;
    }
    return 0;
}

/* unstoppable_from(c->rep, c->mov + q, black, rc): the same steps and the same answer,
   with what does not depend on q taken from the cache (Must3Cache) instead of again for
   each q; only the speed changes (tests/test_native_pruning.py: the same trees). */
static int unstoppable_cached(Must3Cache *c, int q, int black, const Reach *rc) {
    const u64 me = c->rep, op = c->mov | bit(q), empty = rc->empty, qb = bit(q);
    u64 w0 = rc->a1 & rc->b1 & FULL & ~me & ~op;
    u64 a1b1 = (rc->a1 | rc->b1) & empty;
    u64 look = (rc->near1 & rc->far2) | (rc->far1 & rc->near2);
    for (u64 w = w0; w; w &= w - 1) look |= zone(lowbit(w));
    look &= empty;
    const u64 our_wins = winning_points(op, !black);
    while (look) {
        int r = lowbit(look);
        const u64 rb = bit(r);
        look &= look - 1;
        int illegal;
        if (zone(r) & qb) {
            illegal = forbidden_at(r, me, op, empty, black);
        } else {
            if (!(c->legal_known & rb)) {
                c->legal_known |= rb;
                if (!forbidden_at(r, me, c->mov, c->empty, black)) c->legal |= rb;
            }
            illegal = !(c->legal & rb);
        }
        if (illegal) continue; /* r illegal */
        u64 me2 = me | rb, empty2 = empty & ~rb;
        if (!(c->seen & rb)) { /* r's threats and the legal ones, before q */
            const u64 w0_before = w0 | (rc->a1 & rc->b1 & qb);
            u64 t0 = (a1b1 & rb) ? winning_points(me2, black) & ~c->mov : w0_before & ~rb;
            u64 live0 = 0;
            for (u64 t = t0; t; t &= t - 1)
                if (!forbidden_at(lowbit(t), me2, c->mov, c->empty & ~rb, black))
                    live0 |= bit(lowbit(t));
            c->threats[r] = t0;
            c->live[r] = live0;
            c->seen |= rb;
        }
        u64 threats = c->threats[r] & ~qb;
        u64 live = 0; /* the threats legal for it now */
        for (u64 t = threats; t; t &= t - 1) {
            int p = lowbit(t);
            if (zone(p) & qb) {
                if (!forbidden_at(p, me2, op, empty2, black)) live |= bit(p);
            } else {
                live |= c->live[r] & bit(p);
            }
        }
        if (live && no_defence(op, me2, empty2, threats, live, our_wins, !black)) return 1;
    }
    return 0;
}

/* RULE_MUST5 (issue 32): a forcing win of the side to move `me` (Black if black), `depth`
   threats deep. depth 1: threats_unstoppable (RULE_MUST3's claim: a reply r after which we,
   the side `op`, cannot win at once, have a legal move, and leave a legal threat whatever
   we play). depth k > 1: that, or a legal reply r that leaves it at least one legal threat
   (a winning point it may place on) while we have no legal winning point, and after every
   legal move d of ours that leaves none of its threats legal (every other move of ours
   lets it win at its next move, and d does not win for us: our winning points are none
   legal), it has a forcing win of depth k - 1. Then it wins: r, any move of ours, and
   either its threat or its forcing line. Only what the claim needs is looked at, as in
   unstoppable_from: a reply r that makes a winning point lies on a path of two empty
   points (the cost layers) or in the zone of a winning point of now; a move of ours that
   stops a legal threat t is t or in zone(t) (the zone lemma); everything else is tested
   by the rules' own functions (forbidden_at, winning_points, defends). A "no" claims
   nothing (the move is searched as before), so the test may miss wins, never invent one. */
static int MUST_DEPTH = 2;
static u64 must5_tests;
/* tests only (must5_mutant()): 1 counts only taking a threat point as a defence (forgets
   the zone lemma's other defence, forbidding the point), 2 looks at the first defence
   only (some defence instead of every one); each makes the claim unsound, and the tests
   must catch it. 0: the real rule. */
static int MUST5_MUTANT = 0;

static int forced_win(u64 me, u64 op, int black, int depth) {
    if (depth <= 1) return threats_unstoppable(me, op, black);
    const u64 empty = FULL & ~(me | op);
    Reach rc;
    reach_of(me, empty, black, &rc);
    const u64 w0 = rc.a1 & rc.b1 & empty;
    const u64 a1b1 = (rc.a1 | rc.b1) & empty;
    u64 look = (rc.near1 & rc.far2) | (rc.far1 & rc.near2);
    for (u64 w = w0; w; w &= w - 1) look |= zone(lowbit(w));
    look &= empty;
    const u64 our_wins = winning_points(op, !black);
    u64 forcing = 0; /* replies that leave a legal threat and no win of ours at once */
    u64 thr[MAXCELLS], liv[MAXCELLS];
    for (u64 l = look; l; l &= l - 1) {
        int r = lowbit(l);
        if (forbidden_at(r, me, op, empty, black)) continue;
        u64 me2 = me | bit(r), empty2 = empty & ~bit(r);
        u64 threats = (a1b1 & bit(r)) ? winning_points(me2, black) & ~op : w0 & ~bit(r);
        u64 live = 0;
        for (u64 t = threats; t; t &= t - 1)
            if (!forbidden_at(lowbit(t), me2, op, empty2, black)) live |= bit(lowbit(t));
        if (!live) continue;
        int we_win = 0;
        for (u64 t = our_wins & empty2; t && !we_win; t &= t - 1)
            if (!forbidden_at(lowbit(t), op, me2, empty2, !black)) we_win = 1;
        if (we_win) continue;
        forcing |= bit(r);
        thr[r] = threats;
        liv[r] = live;
    }
    /* first the claim of depth 1 on every forcing reply (cheap), then the deeper one */
    for (u64 l = forcing; l; l &= l - 1) {
        int r = lowbit(l);
        u64 me2 = me | bit(r), empty2 = empty & ~bit(r);
        if (no_defence(op, me2, empty2, thr[r], liv[r], our_wins, !black)) return 1;
    }
    for (u64 l = forcing; l; l &= l - 1) {
        int r = lowbit(l);
        u64 me2 = me | bit(r), empty2 = empty & ~bit(r);
        u64 stops = empty2;
        for (u64 t = liv[r]; t; t &= t - 1) stops &= zone(lowbit(t)) | bit(lowbit(t));
        if (MUST5_MUTANT == 1) stops &= liv[r];
        int held = 1, defences = 0;
        for (u64 c = stops; c && held; c &= c - 1) {
            int d = lowbit(c);
            if (forbidden_at(d, op, me2, empty2, !black) || !defends(d, op, me2, thr[r], !black))
                continue;
            defences++;
            must5_tests++;
            if (!forced_win(me2, op | bit(d), black, depth - 1)) held = 0;
            if (MUST5_MUTANT == 2) break;
        }
        /* no defence at all: the depth-1 test above has decided (a pass claims nothing) */
        if (held && defences) return 1;
    }
    return 0;
}

/* RULE_MUST5 at a node (me to move): the candidates q after which the other side has no
   forcing win of MUST_DEPTH threats (forced_win). */
static u64 must5_survivors(u64 me, u64 op, int black, u64 candidates) {
    for (u64 c = candidates; c; c &= c - 1) {
        int q = lowbit(c);
        if (forced_win(op, me | bit(q), !black, MUST_DEPTH)) {
            candidates &= ~bit(q);
            must5_cuts++;
        }
    }
    return candidates;
}

/* RULE_ORDER: features of a placement q of the mover (Black if black), for a static move
   order: its own and the other side's stones next to q, orthogonally and diagonally, its
   distance to the nearer own edge and from the middle line across, and how much q brings
   the mover's path distance down and the other side's up (path_distance, empty points
   open). */
#define NFEATURES 8
static void move_features(u64 me, u64 op, int black, int q, int f[NFEATURES]) {
    u64 b = bit(q);
    u64 side = ((b << 1) & NOT_FIRST_FILE) | ((b >> 1) & NOT_LAST_FILE);
    u64 orth = (side | (b << N) | (b >> N)) & FULL, diag = ((side << N) | (side >> N)) & FULL;
    int r = q / N, c = q % N, along = black ? r : c, across = black ? c : r;
    u64 empty = FULL & ~(me | op);
    f[0] = __builtin_popcountll(orth & me);
    f[1] = __builtin_popcountll(diag & me);
    f[2] = __builtin_popcountll(orth & op);
    f[3] = __builtin_popcountll(diag & op);
    f[4] = along < N - 1 - along ? along : N - 1 - along;
    f[5] = abs(2 * across - (N - 1));
    int d_me = path_distance(me, empty, black), d_op = path_distance(op, empty, !black);
    int a_me = path_distance(me | b, empty & ~b, black), a_op = path_distance(op, empty & ~b, !black);
    f[6] = (d_me >= DIST_INF ? 9 : d_me) - (a_me >= DIST_INF ? 9 : a_me);
    f[7] = (a_op >= DIST_INF ? 9 : a_op) - (d_op >= DIST_INF ? 9 : d_op);
}

/* The weights (x16) of the features, fitted by logistic regression on the winning and
   losing moves of sampled 5x5 positions (benchmarks/minefield_move_features.py); the
   score only ORDERS moves, so any weights give the same values. */
/* `benchmarks/minefield_move_features.py --size 5 --positions 300 --min-stones 6`:
   held-out mean rank of the first winning move 1.12 in point order, 0.60 in this one */
static const int W_ORDER[NFEATURES] = {13, -2, 14, 21, 6, -2, 12, 64};

/* RULE_ORDER6 (issue 32): the features above and nine more, for a static order fitted on
   the winner's moves of the published 6x6 certificates (benchmarks/minefield_order6.py):
   8, 9 the mover's and the other side's path distance after q (9 for none); 10 the
   points that would then complete the mover's path (legality aside, at most 3: threats
   made); 11, 12 the own and the other side's groups next to q (joined, touched); 13, 14
   the other side's and the mover's legal placements that q takes away (q itself not
   counted); 15 own stones two steps from q with at least two empty common neighbours
   (bridges); 16 the own edges (0..2) that q touches or whose group it touches. */
#define NFEATURES6 17
_Static_assert(NFEATURES6 <= 32 && NFEATURES <= 32, "features_tuple holds 32");
static int groups_next_to(u64 own, u64 around) {
    int k = 0;
    for (u64 g = own & around; g; k++) g &= ~flood(g & -g, own);
    return k;
}

/* What the features of every candidate of a node share (computed once a node). */
typedef struct {
    u64 empty, legal_me, legal_op, g1, g2;
    int d_me, d_op;
} OrderNode;

static void order_node(u64 me, u64 op, int black, OrderNode *c, int full) {
    const u64 first = EDGE[black ? 0 : 1][0], second = EDGE[black ? 0 : 1][1];
    c->empty = FULL & ~(me | op);
    c->legal_me = full ? legal_moves(me, op, black) : 0;
    c->legal_op = full ? legal_moves(op, me, !black) : 0;
    c->g1 = flood(me & first, me);
    c->g2 = flood(me & second, me);
    c->d_me = path_distance(me, c->empty, black);
    c->d_op = path_distance(op, c->empty, !black);
}

static void move_features6_at(const OrderNode *c, u64 me, u64 op, int black, int q,
                              int f[NFEATURES6], int full) {
    u64 b = bit(q), me2 = me | b, empty2 = c->empty & ~b;
    u64 side = ((b << 1) & NOT_FIRST_FILE) | ((b >> 1) & NOT_LAST_FILE);
    u64 orth = (side | (b << N) | (b >> N)) & FULL, diag = ((side << N) | (side >> N)) & FULL;
    int r = q / N, col = q % N, along = black ? r : col, across = black ? col : r;
    f[0] = __builtin_popcountll(orth & me);
    f[1] = __builtin_popcountll(diag & me);
    f[2] = __builtin_popcountll(orth & op);
    f[3] = __builtin_popcountll(diag & op);
    f[4] = along < N - 1 - along ? along : N - 1 - along;
    f[5] = abs(2 * across - (N - 1));
    int a_me = path_distance(me2, empty2, black), a_op = path_distance(op, empty2, !black);
    int d_me = c->d_me >= DIST_INF ? 9 : c->d_me, d_op = c->d_op >= DIST_INF ? 9 : c->d_op;
    f[8] = a_me >= DIST_INF ? 9 : a_me;
    f[9] = a_op >= DIST_INF ? 9 : a_op;
    f[6] = d_me - f[8];
    f[7] = f[9] - d_op;
    int t = __builtin_popcountll(winning_points(me2, black) & empty2);
    f[10] = t > 3 ? 3 : t;
    u64 around = neighbours(b) & ~b;
    f[11] = f[12] = f[13] = f[14] = 0;
    if (full) { /* features with weight 0 in W_ORDER6 (measured, see above): not computed
                   for the search */
        f[11] = groups_next_to(me, around);
        f[12] = groups_next_to(op, around);
        int lost_op = 0, lost_me = 0;
        for (u64 e = rzone(q) & empty2 & c->legal_op; e; e &= e - 1)
            lost_op += forbidden_at(lowbit(e), op, me2, empty2, !black);
        for (u64 e = rzone(q) & empty2 & c->legal_me; e; e &= e - 1)
            lost_me += forbidden_at(lowbit(e), me2, op, empty2, black);
        f[13] = lost_op;
        f[14] = lost_me;
    }
    u64 ring2 = neighbours(around | b) & ~(around | b);
    int bridges = 0;
    for (u64 s = ring2 & me; s; s &= s - 1)
        if (__builtin_popcountll(neighbours(bit(lowbit(s))) & around & empty2) >= 2) bridges++;
    f[15] = bridges;
    const u64 first = EDGE[black ? 0 : 1][0], second = EDGE[black ? 0 : 1][1];
    f[16] = ((c->g1 & around) || (b & first)) + ((c->g2 & around) || (b & second));
}

static void move_features6(u64 me, u64 op, int black, int q, int f[NFEATURES6]) {
    OrderNode c;
    order_node(me, op, black, &c, 1);
    move_features6_at(&c, me, op, black, q, f, 1);
}

/* The weights of the 17 features (logit x32), fitted by `benchmarks/minefield_order6.py fit
   --train 'minefield-6x6-a3-*' --columns 0-7,10,15,16` (on the a3 lines' certificates;
   held out: b1, b2, b3, c3 and the c2 lines): the certificate's move first 48.2 % of the
   time (order: 22.8 %), mean rank 1.16 (order: 5.57). With all 17 features: 47.3 %, 1.03;
   features 11-14 add little and cost CPU (the legal placements of both sides at every
   node), so they weigh 0 and are not computed in the search (8, 9 are 6, 7 again). */
static const int W_ORDER6[NFEATURES6] = {7, 8, 9, 3, -2, 4, 48, -9, 0, 0, 50, 0, 0, 0, 0, 11, 16};

static inline int move_score(u64 me, u64 op, int black, int q, const OrderNode *c) {
    int score = 0;
    if (c != NULL) {
        int f[NFEATURES6];
        move_features6_at(c, me, op, black, q, f, 0);
        for (int i = 0; i < NFEATURES6; i++) score += W_ORDER6[i] * f[i];
        return score;
    }
    int f[NFEATURES];
    move_features(me, op, black, q, f);
    for (int i = 0; i < NFEATURES; i++) score += W_ORDER[i] * f[i];
    return score;
}

/* The candidates (a mask) in order of move_score, best first (ties: lower point first). */
/* RULE_ORDER6's order of a node, kept for its next visits (df-pn enters a node again and
   again, with the same candidates): a direct-mapped cache of 2**15 orders, read back only
   for the same stones, side and candidates, and emptied (oc_gen) whenever the rules or the
   board change. The same order, fewer feature computations. */
#define OC_BITS 15
typedef struct {
    u64 me, op, cand;
    uint32_t gen;
    int8_t count, black, moves[MAXCELLS];
    int32_t scores[MAXCELLS];
} OrderCached;
static OrderCached *OCACHE = NULL;
static uint32_t oc_gen = 1;

static int ordered_moves_scored(u64 me, u64 op, int black, u64 candidates, int *moves,
                                int *scores, int fitted) {
    int count = 0;
    OrderNode node, *c = NULL;
    OrderCached *slot = NULL;
    if (fitted && candidates) {
        if (OCACHE == NULL) OCACHE = calloc((size_t)1 << OC_BITS, sizeof(OrderCached));
        if (OCACHE != NULL) {
            u64 h = (me * 0x9E3779B97F4A7C15ULL) ^ (op * 0xC2B2AE3D27D4EB4FULL) ^ (u64)black;
            slot = &OCACHE[(h ^ (h >> 29)) & (((u64)1 << OC_BITS) - 1)];
            if (slot->gen == oc_gen && slot->me == me && slot->op == op &&
                slot->cand == candidates && slot->black == black) {
                for (int i = 0; i < slot->count; i++) {
                    moves[i] = slot->moves[i];
                    scores[i] = slot->scores[i];
                }
                return slot->count;
            }
        }
        order_node(me, op, black, &node, 0);
        c = &node;
    }
    const u64 all = candidates;
    while (candidates) {
        int q = lowbit(candidates), sc = move_score(me, op, black, q, c), j = count++;
        candidates &= candidates - 1;
        while (j > 0 && scores[j - 1] < sc) { moves[j] = moves[j - 1]; scores[j] = scores[j - 1]; j--; }
        moves[j] = q;
        scores[j] = sc;
    }
    if (slot != NULL) {
        *slot = (OrderCached){.me = me, .op = op, .cand = all, .gen = oc_gen,
                              .count = (int8_t)count, .black = (int8_t)black};
        for (int i = 0; i < count; i++) {
            slot->moves[i] = (int8_t)moves[i];
            slot->scores[i] = scores[i];
        }
    }
    return count;
}

static int ordered_moves(u64 me, u64 op, int black, u64 candidates, int *moves) {
    int scores[MAXCELLS];
    return ordered_moves_scored(me, op, black, candidates, moves, scores,
                                (RULES & RULE_ORDER6) != 0);
}

typedef struct { u64 me, op; int black, attack; } PNode;

/* Terminal or forced evaluation of a node: 1 attacker wins, 0 attacker does not,
   -1 not decided here. Fills the children (moves for the side to move) otherwise. */
/* The children of a node from its move mask (0: the forced pass), in search order. The
   pass cannot be a bit of the mask: from 7x7 on every bit up to 63 may be a point (a flag
   at bit 38 made a 7x7 node with d6 among its moves a pass, and two such passes an endless
   descent: tests/test_native_dfpn_sizes.py). */
static void pn_children(const PNode *n, u64 candidates, PNode *kids, int *count, int *scores) {
    *count = 0;
    if (!candidates) {
        kids[0] = (PNode){n->op, n->me, !n->black, !n->attack};
        *count = 1;
        return;
    }
    if (RULES & RULE_ANY_ORDER) { /* the same children, best-scored first (ties of pn / dn) */
        int moves[MAXCELLS], own[MAXCELLS];
        /* RULE_ORDER6's weights were fitted on the winner's moves: the winner's (OR) nodes
           only; the loser's nodes keep RULE_ORDER's score */
        int k = ordered_moves_scored(n->me, n->op, n->black, candidates, moves,
                                     scores ? scores : own,
                                     (RULES & RULE_ORDER6) && n->attack);
        for (int i = 0; i < k; i++)
            kids[(*count)++] = (PNode){n->op, n->me | bit(moves[i]), !n->black, !n->attack};
        return;
    }
    while (candidates) {
        int q = lowbit(candidates);
        candidates &= candidates - 1;
        kids[(*count)++] = (PNode){n->op, n->me | bit(q), !n->black, !n->attack};
    }
}

/* Terminal or forced evaluation of a node: 1 attacker wins, 0 attacker does not,
   -1 not decided here: then *moves holds the moves to search, never none but 0 for the
   forced pass (a node with no move left to search is decided here). */
static int pn_moves(const PNode *n, u64 *moves) {
    u64 legal = legal_moves(n->me, n->op, n->black);
    if (!legal) {
        if (!has_legal(n->op, n->me, !n->black)) return 0; /* dead: a draw, no win for the attacker */
        *moves = 0; /* the pass */
        return -1;
    }
    if (legal & winning_points(n->me, n->black)) return n->attack;
    if (RULES & RULE_BLOCKED) { /* an attacker that can never connect never wins */
        u64 f = frozen_points(n->me, n->op, legal, n->black);
        if (n->attack ? !can_connect(n->me, n->op, n->black, f)
                      : !can_connect(n->op, n->me, !n->black, f)) {
            blocked_cuts++;
            return 0;
        }
    }
    u64 candidates = legal, threats = winning_points(n->op, !n->black) & ~n->me;
    if (threats) {
        u64 c = legal;
        candidates = 0;
        while (c) {
            int q = lowbit(c);
            c &= c - 1;
            if (defends(q, n->me, n->op, threats, n->black)) candidates |= bit(q);
        }
        if (!candidates) return !n->attack; /* every move lets the other side win */
    }
    if ((RULES & RULE_WIN3) && threats_unstoppable(n->me, n->op, n->black)) {
        win3_cuts++; /* the side to move wins within 3 plies (RULE_WIN3) */
        return n->attack;
    }
    if (RULES & RULE_MUST3) { /* moves after which the other side has an unstoppable reply */
        candidates = must3_survivors(n->me, n->op, n->black, candidates);
        if (!candidates) return !n->attack; /* every move loses within 3 more plies */
    }
    if (RULES & RULE_MUST5) { /* moves after which the other side has a forcing win */
        candidates = must5_survivors(n->me, n->op, n->black, candidates);
        if (!candidates) return !n->attack; /* every move loses to a forcing line */
    }
    *moves = candidates;
    return -1;
}

/* Terminal or forced evaluation of a node: 1 attacker wins, 0 attacker does not,
   -1 not decided here. Fills the children (moves for the side to move) otherwise. */
static int pn_expand(const PNode *n, PNode *kids, int *count) {
    u64 moves = 0;
    int done = pn_moves(n, &moves);
    *count = 0;
    if (done < 0) pn_children(n, moves, kids, count, NULL);
    return done;
}

static void pn_mid(const PNode *n, uint32_t thpn, uint32_t thdn, uint32_t *out_pn, uint32_t *out_dn) {
    if ((++nodes & 0xFFFF) == 0 || nodes == node_limit) check_budget();
    Key key = canonical(n->me, n->op, n->black);
    if (aborted) { *out_pn = *out_dn = 1; return; }
    const u64 start_nodes = nodes;
    PNode kids[MAXCELLS];
    int count;
    u64 moves = 0;
    const int cache = KIDS_ON && CELLS <= KIDS_MAX_CELLS; /* see KIDS_CACHED */
    const PEntry *own = cache ? pt_entry(&key, n->attack) : NULL;
    const u64 cached = own ? kids_get(own) : 0;
    if (cached & KIDS_CACHED) {
        moves = (cached & KIDS_PASS) ? 0 /* the pass */
                                     : map_bits(INVSYM[key.sym], cached & ~(KIDS_PASS | KIDS_CACHED));
    } else {
        int done = pn_moves(n, &moves);
        if (done >= 0) {
            uint32_t pn = done ? 0 : PN_INF, dn = done ? PN_INF : 0;
            pt_put(&key, n->attack, pn, dn, 1, 0);
            *out_pn = pn; *out_dn = dn;
            return;
        }
    }
    const u64 store = !cache ? 0
                      : KIDS_CACHED | (!moves ? KIDS_PASS : map_bits(key.sym, moves));
    int scores[MAXCELLS];
    pn_children(n, moves, kids, &count, scores);
    Key keys[MAXCELLS];
    PEntry *slots[MAXCELLS];
    u64 im_me[8], im_op[8];
    images(n->me, im_me);
    images(n->op, im_op);
    for (int i = 0; i < count; i++) {
        /* a child: (op, me + its point) with the other side to move, or (op, me): a pass */
        u64 placed = kids[i].op & ~n->me, kid_op[8];
        int q = placed ? lowbit(placed) : -1;
        for (int t = 0; t < 8; t++) kid_op[t] = im_me[t] | (q >= 0 ? image_of_point(t, q) : 0);
        keys[i] = canonical_from(im_op, kid_op, kids[i].black);
        slots[i] = pt_slot(&keys[i], kids[i].attack);
    }
    const int or_node = n->attack;
    uint32_t pn = 1, dn = 1;
    /* a child's numbers as last seen here (PT_QUAD: for a child whose entry a sibling's
       search replaced, read as 1 / 1 it would look new, and be searched again first), or
       its initial numbers (RULE_HEUR: computed once); mset[i]: mpn[i], mdn[i] are set */
    uint32_t mpn[MAXCELLS], mdn[MAXCELLS];
    uint8_t mset[MAXCELLS];
    memset(mset, 0, (size_t)count);
    const int memo = PT_SCHEME != PT_PAIR;
    /* With the memo, only the first pass reads the children's entries: afterwards a
       child's entry can only have changed by the search of the child just searched (a
       node below it holds that child's stones, so it is never a sibling nor the image of
       one with as many stones, except the child itself: a sibling of the same key, which
       is updated with it below), and the memo holds what the table would give (the same
       numbers, or the last ones seen of an entry replaced since). So the later passes
       read the memo instead of one table bucket per child (a cache miss each in a big
       table): the same tree, faster (tests/test_native_dfpn_nodes.py). */
    int first_pass = 1;
    for (;;) {
        /* collect the children: at an OR node the proof number is the smallest child
           proof number and the disproof number the sum (the other way round at AND) */
        uint32_t best_x = PN_INF + 1, second_x = PN_INF, sum_y = 0, best_y = 0, max_y = 0;
        int best = -1, open_y = 0; /* RULE_WEAK: the largest y, the children with y > 0 */
        const int read = first_pass || !memo;
        first_pass = 0;
        if (read) {
            for (int i = 0; i < count; i++) pt_prefetch(slots[i]);
            if (PT_SCHEME == PT_TWO)
                for (int i = 0; i < count; i++) pt_prefetch(pt2_slot(&keys[i], kids[i].attack));
        }
        for (int i = 0; i < count; i++) {
            uint32_t cpn = 1, cdn = 1;
            if (!read) {
                if (mset[i]) { cpn = mpn[i]; cdn = mdn[i]; }
            } else if (pt_find(slots[i], &keys[i], kids[i].attack, &cpn, &cdn)) {
                if (memo) { mpn[i] = cpn; mdn[i] = cdn; mset[i] = 1; }
            } else if (mset[i]) {
                cpn = mpn[i];
                cdn = mdn[i];
            } else if ((RULES & RULE_PRIOR6) && (RULES & RULE_ORDER6) && or_node &&
                       moves) { /* not at a pass */
                /* RULE_PRIOR6: a winner's move scored below the best starts at a proof
                   number that grows with the gap (about HEUR_SCALE / 8 a logit unit);
                   never 0 nor infinite, so only the order changes (as RULE_HEUR) */
                uint32_t gap = (uint32_t)(scores[0] - scores[i]) * (uint32_t)HEUR_SCALE / 256;
                mpn[i] = 1 + (gap > PRIOR_CAP ? PRIOR_CAP : gap);
                mdn[i] = 1;
                mset[i] = 1;
                cpn = mpn[i];
                cdn = mdn[i];
            } else if (RULES & RULE_HEUR) {
                heuristic_numbers(kids[i].me, kids[i].op, kids[i].black, kids[i].attack,
                                  &mpn[i], &mdn[i]);
                mset[i] = 1;
                cpn = mpn[i];
                cdn = mdn[i];
            }
            uint32_t x = or_node ? cpn : cdn, y = or_node ? cdn : cpn;
            sum_y = sat_add(sum_y, y);
            if (y > max_y) max_y = y;
            open_y += y != 0;
            if (x < best_x) { second_x = best_x; best_x = x; best = i; best_y = y; }
            else if (x < second_x) second_x = x;
        }
        if (second_x > PN_INF) second_x = PN_INF;
        const int weak = RULES & RULE_WEAK;
        if (weak) sum_y = open_y ? sat_add(max_y, (uint32_t)(open_y - 1)) : 0;
        pn = or_node ? best_x : sum_y;
        dn = or_node ? sum_y : best_x;
        if (pn >= thpn || dn >= thdn || aborted) break;
        /* thresholds of the most promising child (1 + 1/4 trick on the second best) */
        uint32_t thx = or_node ? thpn : thdn, thy = or_node ? thdn : thpn;
        uint32_t grow = second_x >= PN_INF ? PN_INF : second_x + second_x / EPS_DIV + 1;
        uint32_t child_x = thx < grow ? thx : grow;
        uint32_t child_y = thy >= PN_INF ? PN_INF
                           : weak ? thy - (uint32_t)(open_y - 1) : thy - sum_y + best_y;
        if (child_y > PN_INF) child_y = PN_INF;
        uint32_t cpn, cdn;
        pn_mid(&kids[best], or_node ? child_x : child_y, or_node ? child_y : child_x, &cpn, &cdn);
        if (memo)
            for (int i = 0; i < count; i++)
                if (i == best || (keys[i].a == keys[best].a && keys[i].b == keys[best].b &&
                                  keys[i].side == keys[best].side)) {
                    mpn[i] = cpn; mdn[i] = cdn; mset[i] = 1;
                }
    }
    if (!aborted) pt_put(&key, n->attack, pn, dn, nodes - start_nodes + 1, store);
    *out_pn = pn; *out_dn = dn;
}

/* (Re)allocate a table of 2**bits zeroed entries; reuses (clears) one of the same size. */
static int table_alloc(void **table, size_t entry, int *have_bits, u64 *mask, int bits) {
    if (*table != NULL && *have_bits == bits) {
        memset(*table, 0, entry * ((size_t)1 << bits));
        return 0;
    }
    free(*table);
    *table = table_calloc((size_t)1 << bits, entry);
    if (*table == NULL) { *have_bits = 0; PyErr_NoMemory(); return -1; }
    *have_bits = bits;
    *mask = ((u64)1 << bits) - 1;
    return 0;
}

static int pt_alloc(int bits) {
    return table_alloc((void **)&PT, sizeof(PEntry), &PT_BITS, &PT_MASK, bits);
}

PyDoc_STRVAR(dfpn_doc,
"dfpn(me, op, black, attacker_moves, tt_bits, node_limit, seconds[, keep[, scheme]])\n"
"-> (result, nodes, best)\n\n"
"Proof-number search: does the attacker win? (the side to move if attacker_moves).\n"
"result: 1 proved, 0 disproved (no forced win: the other side wins or a draw), -1 budget\n"
"spent. best: when proved with the attacker to move, a move the proof goes through\n"
"(a point, -2 pass); when disproved with the other side to move, a move the disproof\n"
"goes through (the other side's winning move, when nobody can draw); else -1. Uses its\n"
"own table of 2**tt_bits entries, cleared at each call unless keep: then a table of that\n"
"size, board size and win rule survives from the last call (its proof and disproof\n"
"numbers stay true: they are per node and attacker); needs setup(). scheme: the table's\n"
"replacement scheme, 0 pairs (session 4, the default), 1 buckets of 4 (see PT_QUAD), 2 two\n"
"levels (PT_TWO: 1.25x the memory); a\n"
"kept table needs the same scheme.");

static PyObject *py_dfpn(PyObject *self, PyObject *args) {
    unsigned long long me, op, limit;
    int black, attack, bits;
    double seconds;
    int keep = 0, scheme = PT_PAIR;
    if (!PyArg_ParseTuple(args, "KKppiKd|pi", &me, &op, &black, &attack, &bits, &limit, &seconds,
                          &keep, &scheme))
        return NULL;
    if (bits < 4 || bits > 30) { PyErr_SetString(PyExc_ValueError, "tt_bits must be 4..30"); return NULL; }
    if (scheme != PT_PAIR && scheme != PT_QUAD && scheme != PT_TWO) {
        PyErr_SetString(PyExc_ValueError, "scheme must be 0 (pairs), 1 (buckets of 4) or 2 (two levels)");
        return NULL;
    }
    if (begin_search(me, op, limit, seconds) < 0) return NULL;
    /* a kept table must come from the same board size and win rule: its keys are boards */
    /* and from the same pruning rules: its entries cache the children (KIDS_CACHED) */
    static int pt_rules = -1;
    const int rules_now = RULES | (RULES & RULE_MUST5 ? MUST_DEPTH << 16 : 0);
    if (!(keep && pt_usable() && PT_BITS == bits &&
          PT_SCHEME == scheme && pt_rules == rules_now)) {
        pt_rules = rules_now;
        if (pt_alloc(bits) < 0) return NULL;
        if (scheme == PT_TWO) {
            if (table_alloc((void **)&PT2, sizeof(PEntry), &PT2_BITS, &PT2_MASK, bits - 2) < 0)
                return NULL;
        }
        pt2_moves = pt2_hits = 0;
        pt_n = N;
        pt_diag = DIAG;
        PT_SCHEME = scheme;
    }
    PNode root = {me, op, black, attack};
    uint32_t pn, dn;
    pn_mid(&root, PN_INF, PN_INF, &pn, &dn);
    if (aborted == 2) return NULL;
    int result = aborted ? -1 : (pn == 0 ? 1 : (dn == 0 ? 0 : -1));
    /* a proved attacker to move: the child the proof goes through (a proved child); a
       disproved attacker with the defender to move: a child the disproof goes through */
    int best = NO_MOVE;
    if (result == 0 && !attack) {
        PNode kids[MAXCELLS];
        int count;
        if (pn_expand(&root, kids, &count) == 0) {
            u64 w = legal_moves(me, op, black) & winning_points(me, black);
            if (w) best = lowbit(w);
        } else {
            for (int i = 0; i < count && best == NO_MOVE; i++) {
                Key k = canonical(kids[i].me, kids[i].op, kids[i].black);
                uint32_t cpn = 1, cdn = 1;
                if (pt_get(&k, kids[i].attack, &cpn, &cdn) && cdn == 0)
                    best = kids[i].op == me ? PASS_MOVE : lowbit(kids[i].op & ~me);
            }
        }
    }
    if (result == 1 && attack) {
        PNode kids[MAXCELLS];
        int count;
        if (pn_expand(&root, kids, &count) == 1) {
            best = lowbit(legal_moves(me, op, black) & winning_points(me, black));
        } else {
            for (int i = 0; i < count && best == NO_MOVE; i++) {
                Key k = canonical(kids[i].me, kids[i].op, kids[i].black);
                uint32_t cpn = 1, cdn = 1;
                if (pt_get(&k, kids[i].attack, &cpn, &cdn) && cpn == 0)
                    best = kids[i].op == me ? PASS_MOVE : lowbit(kids[i].op & ~me);
            }
        }
    }
    return Py_BuildValue("iKi", result, (unsigned long long)nodes, best);
}

PyDoc_STRVAR(dfpn_entry_doc,
"dfpn_entry(me, op, black, attacker_moves) -> (pn, dn) or None: what the df-pn table of\n"
"the last dfpn() call holds for that node (under its canonical key), e.g. the numbers of\n"
"a root's children after a budget ran out; None when it holds nothing for it.");

static PyObject *py_dfpn_entry(PyObject *self, PyObject *args) {
    unsigned long long me, op;
    int black, attack;
    if (!PyArg_ParseTuple(args, "KKpp", &me, &op, &black, &attack)) return NULL;
    if (!pt_usable()) Py_RETURN_NONE; /* none, or keys of another size, rule or glyph set */
    Key k = canonical(me, op, black);
    uint32_t pn, dn;
    if (!pt_get(&k, attack, &pn, &dn)) Py_RETURN_NONE;
    return Py_BuildValue("(II)", (unsigned int)pn, (unsigned int)dn);
}

/* ------------------------------------------------------------ interface */

static int tt_alloc(int bits) {
    return table_alloc((void **)&TT, sizeof(Entry), &TT_BITS, &TT_MASK, bits);
}

static u64 get_u64(PyObject *seq, Py_ssize_t i, int *err) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (item == NULL) { *err = 1; return 0; }
    u64 v = PyLong_AsUnsignedLongLong(item);
    Py_DECREF(item);
    if (PyErr_Occurred()) *err = 1;
    return v;
}

PyDoc_STRVAR(setup_doc,
"setup(n, diagonal, edges, roles, perms, tt_bits, distance[, white_roles])\n\n"
"Install the tables of one board size and clear the transposition table.\n"
"edges: 4 masks (black first, black second, white first, white second);\n"
"roles: per point, a sequence of (mover, opponent, empty) masks that forbid a placement;\n"
"white_roles: None (the default: roles are both colours') or the roles of a White mover\n"
"  (roles are then Black's: the cartwheel, whose roles depend on the mover's colour);\n"
"perms: 8 sequences mapping each point to its image;\n"
"distance: values count plies (a win in d plies is 1000 - d), else win/draw/loss +1/0/-1.");

/* Read one role table (per point, (mover, opponent, empty) masks) into table t. */
static int load_roles(PyObject *roles, int t) {
    int err = 0;
    if (PySequence_Size(roles) != CELLS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "roles needs n*n entries");
        return -1;
    }
    for (int p = 0; p < CELLS; p++) {
        PyObject *list = PySequence_GetItem(roles, p);
        if (list == NULL) return -1;
        Py_ssize_t k = PySequence_Size(list);
        if (k < 0 || k > MAXROLES) {
            Py_DECREF(list);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many roles");
            return -1;
        }
        NROLES[t][p] = (int)k;
        for (Py_ssize_t j = 0; j < k; j++) {
            PyObject *triple = PySequence_GetItem(list, j);
            if (triple == NULL) { Py_DECREF(list); return -1; }
            ROLE_M[t][p][j] = get_u64(triple, 0, &err);
            ROLE_O[t][p][j] = get_u64(triple, 1, &err);
            ROLE_E[t][p][j] = get_u64(triple, 2, &err);
            Py_DECREF(triple);
        }
        Py_DECREF(list);
        if (err) return -1;
    }
    return 0;
}

static PyObject *py_setup(PyObject *self, PyObject *args) {
    int n, diag, bits, dist;
    PyObject *edges, *roles, *perms, *white_roles = Py_None;
    if (!PyArg_ParseTuple(args, "ipOOOip|O", &n, &diag, &edges, &roles, &perms, &bits, &dist,
                          &white_roles))
        return NULL;
    oc_gen++; /* a new board: RULE_ORDER6's cached orders are void */
    DIST = dist;
    WIN = dist ? WIN_DIST : 1;
    if (n < 2 || n > 8) { PyErr_SetString(PyExc_ValueError, "n must be 2..8"); return NULL; }
    if (bits < 4 || bits > 30) { PyErr_SetString(PyExc_ValueError, "tt_bits must be 4..30"); return NULL; }
    int err = 0;
    N = n; CELLS = n * n; DIAG = diag;
    FULL = CELLS == 64 ? ~(u64)0 : bit(CELLS) - 1;
    u64 first_file = 0, last_file = 0;
    for (int r = 0; r < n; r++) { first_file |= bit(r * n); last_file |= bit(r * n + n - 1); }
    NOT_FIRST_FILE = FULL & ~first_file;
    NOT_LAST_FILE = FULL & ~last_file;
    for (int i = 0; i < 4; i++) EDGE[i / 2][i % 2] = get_u64(edges, i, &err);
    if (err) return NULL;
    if (PySequence_Size(perms) != 8) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "perms needs 8 entries");
        return NULL;
    }
    COLOURED = 0;
    if (load_roles(roles, 0) < 0) return NULL;
    if (white_roles != Py_None) { /* roles by the mover's colour: table 1 is White's */
        if (load_roles(white_roles, 1) < 0) return NULL;
        COLOURED = 1;
    } else { /* table 1 unused (RT() is 0): a copy keeps zone() and the filter as before */
        memcpy(NROLES[1], NROLES[0], sizeof NROLES[0]);
        memcpy(ROLE_M[1], ROLE_M[0], sizeof ROLE_M[0]);
        memcpy(ROLE_O[1], ROLE_O[0], sizeof ROLE_O[0]);
        memcpy(ROLE_E[1], ROLE_E[0], sizeof ROLE_E[0]);
    }
    zone_n = 0; /* zone() is rebuilt from these roles */
    role_filter_setup();
    /* roles of another glyph set (a variant) with the same size and win rule: the kept
       df-pn table's keys (boards) would mean other positions, so it is not usable */
    {
        u64 sig = 0xCBF29CE484222325ULL ^ (u64)n;
        for (int t = 0; t <= COLOURED; t++) /* both tables of the roles by colour */
            for (int p = 0; p < CELLS; p++)
                for (int k = 0; k < NROLES[t][p]; k++) {
                    sig = (sig ^ ROLE_M[t][p][k]) * 0x100000001B3ULL;
                    sig = (sig ^ ROLE_O[t][p][k]) * 0x100000001B3ULL;
                    sig = (sig ^ ROLE_E[t][p][k]) * 0x100000001B3ULL;
                    sig = (sig ^ (u64)((t * MAXCELLS + p) * MAXROLES + k)) * 0x100000001B3ULL;
                }
        if (sig != roles_sig) pt_n = 0;
        roles_sig = sig;
    }
    for (int s = 0; s < 8; s++) {
        PyObject *perm = PySequence_GetItem(perms, s);
        if (perm == NULL) return NULL;
        for (int p = 0; p < CELLS; p++) {
            int q = (int)get_u64(perm, p, &err);
            if (err || q < 0 || q >= CELLS) {
                Py_DECREF(perm);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad permutation");
                return NULL;
            }
            PERM[s][p] = q;
            INV[s][q] = p;
        }
        Py_DECREF(perm);
    }
    for (int s = 0; s < 8; s++) { /* the inverse of each symmetry (a group: one of them) */
        INVSYM[s] = -1;
        for (int t = 0; t < 8 && INVSYM[s] < 0; t++) {
            int p = 0;
            while (p < CELLS && PERM[t][PERM[s][p]] == p) p++;
            if (p == CELLS) INVSYM[s] = t;
        }
        if (INVSYM[s] < 0) { PyErr_SetString(PyExc_ValueError, "symmetries: not a group"); return NULL; }
    }
    for (int s = 0; s < 8; s++) {
        memset(SYMTAB[s], 0, sizeof(SYMTAB[s]));
        for (int c = 0; c < 8; c++)
            for (int v = 1; v < 256; v++) {
                u64 img = 0;
                for (int j = 0; j < 8; j++) {
                    int p = c * 8 + j;
                    if ((v >> j & 1) && p < CELLS) img |= bit(PERM[s][p]);
                }
                SYMTAB[s][c][v] = img;
            }
    }
    /* history starts from centrality: central points first until cutoffs say otherwise */
    for (int p = 0; p < CELLS; p++) {
        int r = p / n, f = p % n;
        int centre = 2 * (n - 1) - abs(2 * r - (n - 1)) - abs(2 * f - (n - 1));
        history[0][p] = history[1][p] = centre;
    }
    for (int i = 0; i < MAXPLY; i++) killer[i][0] = killer[i][1] = -1;
    if (tt_alloc(bits) < 0) return NULL;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(solve_doc,
"solve(me, op, black, alpha, beta, node_limit, seconds, progress, every[, horizon])\n"
"-> (value, best, nodes, status)\n\n"
"Alpha-beta value in [alpha, beta] for the side to move (stones `me`, Black if `black`):\n"
"an exact value inside the window, a bound outside. best: a point, -2 pass, -1 none.\n"
"status: 0 done, 1 budget spent (value meaningless). Node and time limits of 0 mean none.\n"
"horizon (0 none, else 1..253): the game is cut after that many plies, a cut node is\n"
"worth 0 (so a win or loss is one within the horizon, 0 means none found there).\n"
"The transposition table is kept between calls of one setup().");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    unsigned long long me, op, limit;
    int black, alpha, beta;
    double seconds;
    PyObject *cb;
    unsigned long long every;
    int horizon = 0;
    if (!PyArg_ParseTuple(args, "KKpiiKdOK|i", &me, &op, &black, &alpha, &beta, &limit,
                          &seconds, &cb, &every, &horizon))
        return NULL;
    if (horizon < 0 || horizon > MAX_HORIZON) {
        PyErr_SetString(PyExc_ValueError, "horizon must be 0..253");
        return NULL;
    }
    if (begin_search(me, op, limit, seconds) < 0) return NULL;
    HORIZON = horizon;
    progress_cb = cb == Py_None ? NULL : cb;
    progress_every = every;
    int best = NO_MOVE;
    int value = negamax(me, op, black, alpha, beta, 0, horizon, &best);
    HORIZON = 0;
    progress_cb = NULL;
    if (aborted == 2) return NULL;
    return Py_BuildValue("iiKi", value, best, (unsigned long long)nodes, aborted);
}

static PyObject *py_stats(PyObject *self, PyObject *args) {
    u64 used = 0;
    if (TT != NULL)
        for (u64 i = 0; i <= TT_MASK; i++) used += TT[i].side != 0;
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:i}", "hint_moves",
                         (unsigned long long)hint_moves, "tt_used", (unsigned long long)used,
                         "tt_hits", (unsigned long long)tt_hits, "tt_stores",
                         (unsigned long long)tt_stores, "threat_cuts",
                         (unsigned long long)threat_cuts, "etc_cuts",
                         (unsigned long long)etc_cuts, "tt_bits", TT_BITS);
}

static PyObject *py_hint(PyObject *self, PyObject *args) {
    int colour;
    if (!PyArg_ParseTuple(args, "i", &colour)) return NULL;
    HINT_BLACK = colour < 0 ? -1 : (colour ? 1 : 0);
    if (colour >= 0) hint_moves = 0;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(hint_add_doc,
"hint_add(me, op, black) -> 1 if added, 0 if there: a position (stones of the side to move,\n"
"of the other, Black to move?) that alpha-beta's hints (hint()) take as lost for its side\n"
"to move: a move into it is searched first. hint_clear() empties the set.");

static PyObject *py_hint_add(PyObject *self, PyObject *args) {
    unsigned long long me, op;
    int black;
    if (!PyArg_ParseTuple(args, "KKp", &me, &op, &black)) return NULL;
    Key k = canonical(me, op, black);
    int added = hs_add(&k);
    if (added < 0) return PyErr_NoMemory();
    return PyLong_FromLong(added);
}

static PyObject *py_hint_clear(PyObject *self, PyObject *args) {
    free(HS);
    HS = NULL;
    HS_MASK = HS_COUNT = 0;
    Py_RETURN_NONE;
}

static PyObject *py_expansion_cache(PyObject *self, PyObject *args) {
    int on;
    if (!PyArg_ParseTuple(args, "p", &on)) return NULL;
    KIDS_ON = on;
    Py_RETURN_NONE;
}

static PyObject *py_must3_cache(PyObject *self, PyObject *args) {
    int on;
    if (!PyArg_ParseTuple(args, "p", &on)) return NULL;
    M3_CACHE = on;
    Py_RETURN_NONE;
}

static PyObject *py_roles_filter(PyObject *self, PyObject *args) {
    int on;
    if (!PyArg_ParseTuple(args, "p", &on)) return NULL;
    ROLE_FILTER = on;
    Py_RETURN_NONE;
}

static PyObject *py_tune(PyObject *self, PyObject *args) {
    int etc, eps = 4;
    if (!PyArg_ParseTuple(args, "i|i", &etc, &eps)) return NULL;
    if (eps < 1 || eps > 64) { PyErr_SetString(PyExc_ValueError, "tune: eps_div must be 1..64"); return NULL; }
    ETC_MIN_EMPTY = etc < 0 ? 0 : etc;
    EPS_DIV = eps;
    Py_RETURN_NONE;
}

static PyObject *py_rules(PyObject *self, PyObject *args) {
    int flags, scale = 8, depth = 2;
    if (!PyArg_ParseTuple(args, "i|ii", &flags, &scale, &depth)) return NULL;
    if (flags < 0 ||
        flags > (RULE_HEUR | RULE_FROZEN | RULE_BLOCKED | RULE_MUST3 | RULE_ORDER | RULE_WIN3 |
                 RULE_WEAK | RULE_MUST5 | RULE_ORDER6 | RULE_PRIOR6)) {
        PyErr_SetString(PyExc_ValueError, "rules: unknown flags");
        return NULL;
    }
    if (scale < 1 || scale > 64) { PyErr_SetString(PyExc_ValueError, "rules: scale must be 1..64"); return NULL; }
    if (depth < 1 || depth > 4) { PyErr_SetString(PyExc_ValueError, "rules: depth must be 1..4"); return NULL; }
    RULES = flags;
    oc_gen++; /* RULE_ORDER6's cached orders are of the rules before */
    HEUR_SCALE = scale;
    MUST_DEPTH = depth;
    blocked_cuts = must3_cuts = win3_cuts = must5_cuts = must5_tests = 0;
    Py_RETURN_NONE;
}

static PyObject *py_rule_counts(PyObject *self, PyObject *args) {
    return Py_BuildValue("{s:i,s:K,s:K,s:K,s:K,s:K,s:K,s:K}", "rules", RULES, "blocked_cuts",
                         (unsigned long long)blocked_cuts, "must3_cuts",
                         (unsigned long long)must3_cuts, "win3_cuts",
                         (unsigned long long)win3_cuts, "must5_cuts",
                         (unsigned long long)must5_cuts, "must5_tests",
                         (unsigned long long)must5_tests, "second_level_moves",
                         (unsigned long long)pt2_moves, "second_level_hits",
                         (unsigned long long)pt2_hits);
}

static PyObject *py_distances(PyObject *self, PyObject *args) {
    unsigned long long me, op;
    int black;
    if (!PyArg_ParseTuple(args, "KKp", &me, &op, &black)) return NULL;
    int d_me, d_op;
    node_distances(me, op, black, &d_me, &d_op);
    u64 f = frozen_points(me, op, legal_moves(me, op, black), black);
    return Py_BuildValue("iiKKK", d_me, d_op, (unsigned long long)f,
                         (unsigned long long)never_points(me, op, f, black),
                         (unsigned long long)never_points(op, me, f, !black));
}

/* features(me, op, black, q) / features6(...): a move's features as a tuple, computed by
   `compute` (move_features: NFEATURES of them, move_features6: NFEATURES6 <= 32) */
static PyObject *features_tuple(PyObject *args, int count,
                                void (*compute)(u64, u64, int, int, int *)) {
    unsigned long long me, op;
    int black, q;
    if (!PyArg_ParseTuple(args, "KKpi", &me, &op, &black, &q)) return NULL;
    if (q < 0 || q >= CELLS) { PyErr_SetString(PyExc_ValueError, "point off the board"); return NULL; }
    int f[32];
    compute(me, op, black, q, f);
    PyObject *out = PyTuple_New(count);
    if (out == NULL) return NULL;
    for (int i = 0; i < count; i++) PyTuple_SET_ITEM(out, i, PyLong_FromLong(f[i]));
    return out;
}

static PyObject *py_features6(PyObject *self, PyObject *args) {
    return features_tuple(args, NFEATURES6, move_features6);
}

static PyObject *py_order(PyObject *self, PyObject *args) {
    unsigned long long me, op, candidates;
    int black;
    if (!PyArg_ParseTuple(args, "KKpK", &me, &op, &black, &candidates)) return NULL;
    int moves[MAXCELLS], scores[MAXCELLS];
    int k = ordered_moves_scored(me, op, black, candidates & FULL, moves, scores,
                                 (RULES & RULE_ORDER6) != 0);
    PyObject *out = PyList_New(k);
    if (out == NULL) return NULL;
    for (int i = 0; i < k; i++) PyList_SET_ITEM(out, i, Py_BuildValue("ii", moves[i], scores[i]));
    return out;
}

static PyObject *py_features(PyObject *self, PyObject *args) {
    return features_tuple(args, NFEATURES, move_features);
}

static PyObject *py_must3(PyObject *self, PyObject *args) {
    unsigned long long me, op, candidates;
    int black;
    if (!PyArg_ParseTuple(args, "KKpK", &me, &op, &black, &candidates)) return NULL;
    return PyLong_FromUnsignedLongLong(must3_survivors(me, op, black, candidates));
}

static PyObject *py_forced(PyObject *self, PyObject *args) {
    unsigned long long me, op;
    int black, depth;
    if (!PyArg_ParseTuple(args, "KKpi", &me, &op, &black, &depth)) return NULL;
    if (depth < 1 || depth > 4) { PyErr_SetString(PyExc_ValueError, "forced: depth must be 1..4"); return NULL; }
    return PyBool_FromLong(forced_win(me, op, black, depth));
}

static PyObject *py_must5_mutant(PyObject *self, PyObject *args) {
    int k;
    if (!PyArg_ParseTuple(args, "i", &k)) return NULL;
    if (k < 0 || k > 2) { PyErr_SetString(PyExc_ValueError, "must5_mutant: 0..2"); return NULL; }
    MUST5_MUTANT = k;
    Py_RETURN_NONE;
}

static PyObject *py_unstoppable(PyObject *self, PyObject *args) {
    unsigned long long me, op;
    int black;
    if (!PyArg_ParseTuple(args, "KKp", &me, &op, &black)) return NULL;
    return PyBool_FromLong(threats_unstoppable(me, op, black));
}

static PyObject *py_legal(PyObject *self, PyObject *args) {
    unsigned long long me, op;
    int black = 1;
    if (!PyArg_ParseTuple(args, "KK|p", &me, &op, &black)) return NULL;
    return PyLong_FromUnsignedLongLong(legal_moves(me, op, black));
}

static PyObject *py_winning(PyObject *self, PyObject *args) {
    unsigned long long own;
    int black;
    if (!PyArg_ParseTuple(args, "Kp", &own, &black)) return NULL;
    return PyLong_FromUnsignedLongLong(winning_points(own, black));
}

static PyObject *py_canonical(PyObject *self, PyObject *args) {
    unsigned long long me, op;
    int black;
    if (!PyArg_ParseTuple(args, "KKp", &me, &op, &black)) return NULL;
    Key k = canonical(me, op, black);
    return Py_BuildValue("KKii", (unsigned long long)k.a, (unsigned long long)k.b, k.side == 2, k.sym);
}

#include "minefield_wide.h"

PyDoc_STRVAR(set_hook_doc,
"set_hook(f): call f(nodes, horizon) every 2**20 nodes of every search (solve, dfpn,\n"
"their wide forms), horizon 0 when none; None removes it. An exception raised by f\n"
"stops the search and is raised by it. The hook never changes what is searched.");

static PyMethodDef methods[] = {
    WIDE_METHODS
    {"setup", py_setup, METH_VARARGS, setup_doc},
    {"set_hook", py_set_hook, METH_O, set_hook_doc},
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {"stats", py_stats, METH_NOARGS, "Transposition-table statistics."},
    {"dfpn", py_dfpn, METH_VARARGS, dfpn_doc},
    {"dfpn_entry", py_dfpn_entry, METH_VARARGS, dfpn_entry_doc},
    {"hint", py_hint, METH_VARARGS,
     "hint(black): alpha-beta orders first, for the side to move of that colour (1 Black,\n"
     "0 White, -1 off), a move the last df-pn table proved (ordering only)."},
    {"hint_add", py_hint_add, METH_VARARGS, hint_add_doc},
    {"hint_clear", py_hint_clear, METH_NOARGS, "Empty the hint set of hint_add()."},
    {"must3_cache", py_must3_cache, METH_VARARGS,
     "must3_cache(on): the must3 rule keeps what does not depend on the candidate move "
     "(the default) or takes everything again for each candidate (tests compare)."},
    {"roles_filter", py_roles_filter, METH_VARARGS,
     "roles_filter(on): the legality test looks only at the roles that p's orthogonal "
     "neighbours allow (the default) or at every role of p (tests compare)."},
    {"expansion_cache", py_expansion_cache, METH_VARARGS,
     "expansion_cache(on): df-pn's expansion cache (KIDS_CACHED) on (the default) or off; "
     "only the speed differs."},
    {"tune", py_tune, METH_VARARGS,
     "tune(etc_min_empty[, eps_div]): alpha-beta's enhanced transposition cutoffs from this many\n"
     "empty points (0 off); df-pn's threshold trick 1 + 1/eps_div (4, the default)."},
    {"rules", py_rules, METH_VARARGS,
     "rules(flags[, scale]): the issue-18 pruning rules (bits: 1 heuristic df-pn numbers,\n"
     "2 frozen points left out of the distances, 4 blocked side, 8 must-play in 3 plies,\n"
     "16 the fitted static move order;\n"
     "0 off, the default); scale: initial number = 1 + scale * moves needed / 4."},
    {"rule_counts", py_rule_counts, METH_NOARGS, "Counters of the pruning rules since rules()."},
    {"distances", py_distances, METH_VARARGS,
     "distances(me, op, black) -> (d_me, d_op, frozen, never_me, never_op) under the rules."},
    {"features6", py_features6, METH_VARARGS,
     "features6(me, op, black, q): the 17 features of RULE_ORDER6 (the 8 of features() first)."},
    {"order", py_order, METH_VARARGS,
     "order(me, op, black, candidates) -> [(point, score)]: the static order of the rules on now\n"
     "(RULE_ORDER6's weights if on, else RULE_ORDER's), best first."},
    {"features", py_features, METH_VARARGS,
     "features(me, op, black, q): the move-order features of the mover's placement q."},
    {"must3", py_must3, METH_VARARGS,
     "must3(me, op, black, candidates): the candidates (moves of me, to move) that the "
     "must-play rule keeps."},
    {"forced", py_forced, METH_VARARGS,
     "forced(me, op, black, depth): a forcing win of the side to move, depth threats deep\n"
     "(RULE_MUST5's test; depth 1: unstoppable())."},
    {"must5_mutant", py_must5_mutant, METH_VARARGS,
     "must5_mutant(k): tests only: 0 the real must5 test, 1 or 2 a deliberately broken one."},
    {"unstoppable", py_unstoppable, METH_VARARGS,
     "unstoppable(me, op, black): the must-play test (RULE_MUST3) of a node, me to move."},
    {"legal", py_legal, METH_VARARGS,
     "legal(me, op[, black]): mask of the mover's legal placements (the mover Black unless "
     "black is False: the roles of that colour)."},
    {"winning", py_winning, METH_VARARGS,
     "winning(own, black): mask of the points that would complete own's path."},
    {"canonical", py_canonical, METH_VARARGS,
     "canonical(me, op, black) -> (me', op', black', symmetry)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_minefield",
    "Native Minefield search (see boardproof.models.minefield.native).", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__minefield(void) { return PyModule_Create(&module); }
