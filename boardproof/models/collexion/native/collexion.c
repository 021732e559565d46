/*
 * ColleXion's base-variant kernels: the turn ranking of evaluation.ranked_turns (the
 * self-play engine's cost) and the exact score search of solvers.search.ScoreSearch as
 * the puzzle evaluation runs it (the mining's cost).
 *
 * Nothing of the game's tables is guessed here: the Python wrapper (native/__init__.py)
 * hands over the box (each piece's polygon and the bit mask of the pieces lying on it),
 * the collections, tokens, powers and piles, and the evaluation's weights. The rules
 * coded here are those of rules.py for the base variant: a take is 1 to 4 accessible
 * pieces, each sharing a colour or a shape with the one before; the complete sets are
 * then handed in, in every order (a colour set takes the token of its colour's pile, a
 * shape set one of the smallest non-empty piles); the final round. Both kernels produce
 * the same turns in the same order as the Python code, and the ranking the same floating
 * point values (the same operations in the same order); the tests compare them on many
 * positions.
 *
 * Piles are suffixes of (2, 3, 4): a pile is its length (its top: 2, 3 or 4 for 3, 2, 1);
 * tokens are the counts of 2s, 3s and 4s held. Boxes hold at most 128 pieces (u128 masks).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef uint64_t u64;

#define MAXN 128
#define NP 16
#define MAXP 4
#define MAX_TAKE 4
#define MAX_SETS 40

static const int PILE_TOP[4] = {0, 4, 3, 2}; /* by pile length */

/* ------------------------------------------------------------------ the box */

typedef struct {
    int n;
    int poly[MAXN];
    u128 over[MAXN];         /* the pieces lying on each piece */
    int under[MAXN][MAXN];   /* the pieces each piece lies on (increasing) */
    int nunder[MAXN];
    u128 by_poly[NP];
} Box;

static int share(int a, int b) { return (a >> 2) == (b >> 2) || (a & 3) == (b & 3); }

static u128 bit(int i) { return (u128)1 << i; }

static int popcount128(u128 x) {
    return __builtin_popcountll((u64)x) + __builtin_popcountll((u64)(x >> 64));
}

static int low_index(u128 x) {
    u64 lo = (u64)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((u64)(x >> 64));
}

static void box_finish(Box *box) {
    memset(box->nunder, 0, sizeof box->nunder);
    memset(box->by_poly, 0, sizeof box->by_poly);
    for (int i = 0; i < box->n; i++) {
        box->by_poly[box->poly[i]] |= bit(i);
        for (int o = 0; o < box->n; o++)
            if (box->over[i] >> o & 1) box->under[o][box->nunder[o]++] = i;
    }
}

/* ------------------------------------------------------------- hash of masks */

typedef struct {
    u128 *keys;
    int *vals;
    unsigned char *used;
    size_t cap, count;
} Map;

static u64 mix(u128 k) {
    u64 h = (u64)k * 0x9E3779B97F4A7C15ULL ^ (u64)(k >> 64) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

static int map_init(Map *m, size_t cap) {
    m->cap = cap;
    m->count = 0;
    m->keys = malloc(cap * sizeof(u128));
    m->vals = malloc(cap * sizeof(int));
    m->used = calloc(cap, 1);
    return m->keys && m->vals && m->used;
}

static void map_free(Map *m) {
    free(m->keys);
    free(m->vals);
    free(m->used);
}

static int map_grow(Map *m);

/* the slot of key (value -1 if absent, then inserted with ``val``); returns the old value */
static int map_get_put(Map *m, u128 key, int val) {
    if ((m->count + 1) * 2 > m->cap && !map_grow(m)) return -2;
    size_t mask = m->cap - 1, i = mix(key) & mask;
    while (m->used[i]) {
        if (m->keys[i] == key) return m->vals[i];
        i = (i + 1) & mask;
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = val;
    m->count++;
    return -1;
}

static int map_grow(Map *m) {
    Map bigger;
    if (!map_init(&bigger, m->cap * 2)) {
        map_free(&bigger);
        return 0;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->used[i]) map_get_put(&bigger, m->keys[i], m->vals[i]);
    map_free(m);
    *m = bigger;
    return 1;
}

/* ------------------------------------------------------------------ takes */

typedef struct {
    u128 taken;
    int len;
    int seq[MAX_TAKE];
    u64 order; /* the sequence as a number: lexicographic order of sequences */
} Take;

typedef struct {
    const Box *box;
    u128 present;
    Map seen;  /* (pieces left, last polygon) entered */
    Map found; /* pieces taken -> index in ``takes`` */
    Take *takes;
    int ntakes, cap;
    int failed;
} TakeGen;

static u64 seq_order(const int *seq, int len) {
    u64 key = 0;
    for (int k = 0; k < MAX_TAKE; k++) key = key * 256 + (k < len ? (u64)(seq[k] + 1) : 0);
    return key;
}

/* BoxIndex.takes: a depth-first search that enters each (pieces left, last polygon) once */
static void takes_extend(TakeGen *g, int *seq, int len, u128 left, int last, const int *acc,
                         int nacc) {
    const Box *box = g->box;
    for (int k = 0; k < nacc && !g->failed; k++) {
        int i = acc[k], poly = box->poly[i];
        if (last >= 0 && !share(last, poly)) continue;
        u128 rest = left & ~bit(i);
        /* the seen key: the pieces left (n <= 124 bits) and the polygon in 4 more */
        u128 skey = (rest << 4) | (u128)poly;
        int old = map_get_put(&g->seen, skey, 0);
        if (old == -2) { g->failed = 1; return; }
        if (old != -1) continue;
        seq[len] = i;
        u128 taken = g->present & ~rest;
        int at = map_get_put(&g->found, taken, g->ntakes);
        if (at == -2) { g->failed = 1; return; }
        if (at == -1) {
            if (g->ntakes == g->cap) {
                int cap = g->cap ? g->cap * 2 : 256;
                Take *more = realloc(g->takes, (size_t)cap * sizeof(Take));
                if (!more) { g->failed = 1; return; }
                g->takes = more;
                g->cap = cap;
            }
            Take *t = &g->takes[g->ntakes++];
            t->taken = taken;
            t->len = len + 1;
            memcpy(t->seq, seq, sizeof(int) * (size_t)(len + 1));
            t->order = seq_order(seq, len + 1);
        }
        if (len + 1 < MAX_TAKE) {
            int nxt[MAXN], nn = 0, freed = 0;
            for (int a = 0; a < nacc; a++)
                if (a != k) nxt[nn++] = acc[a];
            for (int u = 0; u < box->nunder[i]; u++) {
                int j = box->under[i][u];
                if ((rest >> j & 1) && !(box->over[j] & rest)) {
                    nxt[nn++] = j;
                    freed = 1;
                }
            }
            if (freed) { /* insertion sort: the list is short */
                for (int a = 1; a < nn; a++) {
                    int v = nxt[a], b = a - 1;
                    while (b >= 0 && nxt[b] > v) { nxt[b + 1] = nxt[b]; b--; }
                    nxt[b + 1] = v;
                }
            }
            takes_extend(g, seq, len + 1, rest, poly, nxt, nn);
        }
    }
}

static int cmp_take(const void *a, const void *b) {
    u64 x = ((const Take *)a)->order, y = ((const Take *)b)->order;
    return x < y ? -1 : x > y;
}

/* every set of pieces one turn can take from ``present``, its first sequence, sorted by
   sequence; returns the count (-1: out of memory) */
static int list_takes(const Box *box, u128 present, Take **out) {
    TakeGen g;
    memset(&g, 0, sizeof g);
    g.box = box;
    g.present = present;
    if (!map_init(&g.seen, 1024) || !map_init(&g.found, 1024)) {
        map_free(&g.seen);
        map_free(&g.found);
        return -1;
    }
    int acc[MAXN], nacc = 0;
    for (int i = 0; i < box->n; i++)
        if ((present >> i & 1) && !(box->over[i] & present)) acc[nacc++] = i;
    int seq[MAX_TAKE];
    takes_extend(&g, seq, 0, present, -1, acc, nacc);
    map_free(&g.seen);
    map_free(&g.found);
    if (g.failed) {
        free(g.takes);
        return -1;
    }
    qsort(g.takes, (size_t)g.ntakes, sizeof(Take), cmp_take);
    *out = g.takes;
    return g.ntakes;
}

/* ---------------------------------------------------------------- hand-ins */

typedef struct {
    unsigned char coll[NP];
    unsigned char tok[3]; /* counts of 2, 3, 4 */
    unsigned char piles[4];
} Holding;

typedef struct {
    int nsets;
    unsigned char sets[MAX_SETS]; /* 0..3 colour g y b p; 4 + 5 * shape + (pile + 1) */
    Holding after;
} HandIn;

typedef struct {
    HandIn *items;
    int count, cap, failed;
} HandIns;

static void take_token(Holding *h, int pile) {
    int len = h->piles[pile];
    if (!len) return;
    h->tok[PILE_TOP[len] - 2]++;
    h->piles[pile] = (unsigned char)(len - 1);
}

static void push_handin(HandIns *out, const unsigned char *sets, int nsets, const Holding *h) {
    if (out->count == out->cap) {
        int cap = out->cap ? out->cap * 2 : 16;
        HandIn *more = realloc(out->items, (size_t)cap * sizeof(HandIn));
        if (!more) { out->failed = 1; return; }
        out->items = more;
        out->cap = cap;
    }
    HandIn *item = &out->items[out->count++];
    item->nsets = nsets;
    memcpy(item->sets, sets, (size_t)nsets);
    item->after = *h;
}

static int set_member(int kind, int k) { return kind < 4 ? kind * 4 + k : k * 4 + (kind - 4); }

/* hand_in_options_plain: every sequence of hand-ins until no complete set is left */
static void hand_ins(HandIns *out, unsigned char *sets, int nsets, const Holding *h) {
    if (out->failed) return;
    int any = 0;
    for (int kind = 0; kind < 8; kind++) {
        int complete = 1;
        for (int k = 0; k < 4; k++)
            if (!h->coll[set_member(kind, k)]) { complete = 0; break; }
        if (!complete) continue;
        if (nsets >= MAX_SETS) { out->failed = 1; return; }
        Holding base = *h;
        for (int k = 0; k < 4; k++) base.coll[set_member(kind, k)]--;
        if (kind < 4) {
            any = 1;
            Holding next = base;
            take_token(&next, kind);
            sets[nsets] = (unsigned char)kind;
            hand_ins(out, sets, nsets + 1, &next);
        } else {
            int low = 0;
            for (int c = 0; c < 4; c++)
                if (h->piles[c] && (!low || h->piles[c] < low)) low = h->piles[c];
            any = 1;
            if (!low) {
                sets[nsets] = (unsigned char)(4 + 5 * (kind - 4));
                hand_ins(out, sets, nsets + 1, &base);
            }
            for (int c = 0; c < 4 && low; c++) {
                if (h->piles[c] != low) continue;
                Holding next = base;
                take_token(&next, c);
                sets[nsets] = (unsigned char)(4 + 5 * (kind - 4) + c + 1);
                hand_ins(out, sets, nsets + 1, &next);
            }
        }
    }
    if (!any) push_handin(out, sets, nsets, h);
}

/* ----------------------------------------------------------- the evaluation */

typedef struct {
    int n_next;
    double next_turn[8];
    double later[5];
    double token_share, horizon, sets_per_turn, pieces_per_turn;
} Weights;

static double potential(const unsigned char *coll, const unsigned char *piles, int in_box,
                        int accessible, double turns, int place, const Weights *w) {
    if (turns <= 0.0) return 0.0;
    int low = 0;
    for (int c = 0; c < 4; c++)
        if (piles[c] && (!low || piles[c] < low)) low = piles[c];
    int shape = low ? PILE_TOP[low] : 0;
    double over = turns - 1.0;
    double scale = (over > 0.0 ? over : 0.0) / w->horizon;
    if (scale > 1.0) scale = 1.0;
    double chance[8] = {0};
    double best_now = 0.0, total = 0.0;
    for (int kind = 0; kind < 8; kind++) {
        int held = 0, possible = 1, now = 1;
        for (int k = 0; k < 4; k++) {
            int t = set_member(kind, k);
            if (coll[t]) held++;
            else if (!(in_box >> t & 1)) { possible = 0; break; }
            else if (!(accessible >> t & 1)) now = 0;
        }
        if (!possible) continue;
        int token = kind < 4 ? (piles[kind] ? PILE_TOP[piles[kind]] : 0) : shape;
        if (now && (double)(token + held) > best_now) best_now = (double)(token + held);
        if (held && scale != 0.0) {
            double p = scale * w->later[4 - held];
            chance[kind] = p;
            total += w->token_share * p * (double)token;
        }
    }
    for (int t = 0; t < NP; t++) {
        int count = coll[t];
        if (!count) continue;
        double a = chance[t >> 2], b = chance[4 + (t & 3)];
        double hi = a >= b ? a : b, lo = a <= b ? a : b;
        /* Python's max(a, b) / min(a, b): equal values are the same number */
        total += hi + (count > 1 ? lo : 0.0);
    }
    double weight = w->next_turn[place < w->n_next - 1 ? place : w->n_next - 1];
    return weight * best_now + (1.0 - weight) * total;
}

typedef struct {
    int players, to_move, final;
    unsigned char coll[MAXP][NP];
    unsigned char tok[MAXP][3];
    int powers[MAXP];
    unsigned char piles[4];
} Side;

/* evaluation.estimates: each player's estimated final score after the mover's turn left
   the box ``present``, the mover's holding ``h`` */
static void estimates(const Box *box, const Side *s, u128 present, const Holding *h,
                      const Weights *w, double *values) {
    int players = s->players, nxt = (s->to_move + 1) % players;
    int any_pile = h->piles[0] || h->piles[1] || h->piles[2] || h->piles[3];
    int final = s->final || present == 0 || !any_pile;
    int ended = final && nxt == 0;
    final = final && !ended;
    int pieces = popcount128(present), in_box = 0, accessible = 0;
    for (u128 rest = present; rest; rest &= rest - 1) {
        int i = low_index(rest);
        in_box |= 1 << box->poly[i];
        if (!(box->over[i] & present)) accessible |= 1 << box->poly[i];
    }
    int tokens_left = h->piles[0] + h->piles[1] + h->piles[2] + h->piles[3];
    double turns[MAXP];
    if (ended) {
        for (int q = 0; q < players; q++) turns[q] = 0.0;
    } else if (final) {
        for (int q = 0; q < players; q++) turns[q] = q >= nxt ? 1.0 : 0.0;
    } else {
        double a = (double)tokens_left / (w->sets_per_turn * (double)players);
        double b = (double)pieces / (w->pieces_per_turn * (double)players);
        double rounds = b < a ? b : a;
        for (int q = 0; q < players; q++) turns[q] = rounds + ((0 < nxt && nxt <= q) ? 1.0 : 0.0);
    }
    for (int q = 0; q < players; q++) {
        const unsigned char *coll = q == s->to_move ? h->coll : s->coll[q];
        const unsigned char *tok = q == s->to_move ? h->tok : s->tok[q];
        int held = 0;
        for (int t = 0; t < NP; t++) held += coll[t];
        int score = 2 * tok[0] + 3 * tok[1] + 4 * tok[2] + s->powers[q] - held;
        values[q] = (double)score + potential(coll, h->piles, in_box, accessible, turns[q],
                                              ((q - nxt) % players + players) % players, w);
    }
}

/* ------------------------------------------------------------- the ranking */

typedef struct {
    int take;  /* index into the takes, -1: pass */
    int handin; /* index into ``hand-ins`` store */
    double values[MAXP];
    double margin;
    int order;
} Cand;

static int cmp_cand(const void *a, const void *b) {
    const Cand *x = a, *y = b;
    if (x->margin > y->margin) return -1;
    if (x->margin < y->margin) return 1;
    return x->order - y->order;
}

static int parse_bytes(PyObject *obj, const char *name, Py_ssize_t want, const unsigned char **out) {
    if (!PyBytes_Check(obj) || (want >= 0 && PyBytes_GET_SIZE(obj) != want)) {
        PyErr_Format(PyExc_ValueError, "%s: expected bytes of length %zd", name, want);
        return 0;
    }
    *out = (const unsigned char *)PyBytes_AS_STRING(obj);
    return 1;
}

/* read the box (polys bytes, over: n * 16 bytes little endian) and the sides */
static int read_position(PyObject *polys_o, PyObject *over_o, int players, int to_move,
                         int final, PyObject *colls_o, PyObject *toks_o, PyObject *powers_o,
                         PyObject *piles_o, Box *box, Side *side) {
    const unsigned char *polys, *over, *colls, *toks, *powers, *piles;
    if (!parse_bytes(polys_o, "polys", -1, &polys)) return 0;
    Py_ssize_t n = PyBytes_GET_SIZE(polys_o);
    if (n > 124 || players < 2 || players > MAXP || to_move < 0 || to_move >= players) {
        PyErr_SetString(PyExc_ValueError, "box of at most 124 pieces, 2-4 players");
        return 0;
    }
    if (!parse_bytes(over_o, "over", n * 16, &over) ||
        !parse_bytes(colls_o, "colls", players * NP, &colls) ||
        !parse_bytes(toks_o, "tokens", players * 3, &toks) ||
        !parse_bytes(powers_o, "powers", players, &powers) ||
        !parse_bytes(piles_o, "piles", 4, &piles))
        return 0;
    box->n = (int)n;
    for (int i = 0; i < n; i++) {
        box->poly[i] = polys[i] & 15;
        u128 m = 0;
        for (int b = 15; b >= 0; b--) m = (m << 8) | over[16 * i + b];
        box->over[i] = m;
    }
    box_finish(box);
    side->players = players;
    side->to_move = to_move;
    side->final = final;
    for (int q = 0; q < players; q++) {
        memcpy(side->coll[q], colls + q * NP, NP);
        memcpy(side->tok[q], toks + q * 3, 3);
        side->powers[q] = powers[q];
    }
    for (int c = 0; c < 4; c++) {
        if (piles[c] > 3) {
            PyErr_SetString(PyExc_ValueError, "a pile holds 0 to 3 tokens");
            return 0;
        }
        side->piles[c] = piles[c];
    }
    return 1;
}

static int read_weights(PyObject *obj, Weights *w) {
    /* (next_turn tuple, later tuple of 5, token_share, horizon, sets_per_turn, pieces_per_turn) */
    PyObject *next_turn, *later;
    if (!PyArg_ParseTuple(obj, "OOdddd", &next_turn, &later, &w->token_share, &w->horizon,
                          &w->sets_per_turn, &w->pieces_per_turn))
        return 0;
    Py_ssize_t nn = PyTuple_Check(next_turn) ? PyTuple_GET_SIZE(next_turn) : -1;
    Py_ssize_t nl = PyTuple_Check(later) ? PyTuple_GET_SIZE(later) : -1;
    if (nn < 1 || nn > 8 || nl != 5) {
        PyErr_SetString(PyExc_ValueError, "weights: 1-8 next_turn values, 5 later values");
        return 0;
    }
    w->n_next = (int)nn;
    for (Py_ssize_t k = 0; k < nn; k++) w->next_turn[k] = PyFloat_AsDouble(PyTuple_GET_ITEM(next_turn, k));
    for (Py_ssize_t k = 0; k < nl; k++) w->later[k] = PyFloat_AsDouble(PyTuple_GET_ITEM(later, k));
    return !PyErr_Occurred();
}

static int same_holding(const Holding *a, const Holding *b) {
    return !memcmp(a->coll, b->coll, NP) && !memcmp(a->tok, b->tok, 3) &&
           !memcmp(a->piles, b->piles, 4);
}

/* rank(polys, over, players, to_move, final, colls, tokens, powers, piles, weights)
   -> [(take indices, set codes, values, margin)], best first (ties: canonical order) */
static PyObject *py_rank(PyObject *self, PyObject *args) {
    PyObject *polys_o, *over_o, *colls_o, *toks_o, *powers_o, *piles_o, *weights_o;
    int players, to_move, final;
    if (!PyArg_ParseTuple(args, "OOiipOOOOO", &polys_o, &over_o, &players, &to_move, &final,
                          &colls_o, &toks_o, &powers_o, &piles_o, &weights_o))
        return NULL;
    static Box box;
    Side side;
    Weights w;
    if (!read_position(polys_o, over_o, players, to_move, final, colls_o, toks_o, powers_o,
                       piles_o, &box, &side) ||
        !read_weights(weights_o, &w))
        return NULL;
    Take *takes = NULL;
    u128 full = ((u128)1 << box.n) - 1;
    int ntakes = list_takes(&box, full, &takes);
    if (ntakes < 0) return PyErr_NoMemory();
    HandIns store = {0};
    Cand *cands = NULL;
    int ncand = 0, capc = 0;
    unsigned char sets[MAX_SETS];
    int me = to_move;
    Holding start;
    memcpy(start.coll, side.coll[me], NP);
    memcpy(start.tok, side.tok[me], 3);
    memcpy(start.piles, side.piles, 4);
    for (int t = (final ? -1 : 0); t < ntakes; t++) {
        int first = store.count;
        u128 present = full;
        if (t < 0) {
            push_handin(&store, sets, 0, &start);
        } else {
            Holding h = start;
            for (int k = 0; k < takes[t].len; k++) h.coll[box.poly[takes[t].seq[k]]]++;
            hand_ins(&store, sets, 0, &h);
            present = full & ~takes[t].taken;
        }
        if (store.failed) break;
        for (int k = first; k < store.count; k++) {
            int dup = 0;
            for (int j = first; j < k && !dup; j++)
                dup = same_holding(&store.items[j].after, &store.items[k].after);
            if (dup) continue;
            if (ncand == capc) {
                capc = capc ? capc * 2 : 256;
                Cand *more = realloc(cands, (size_t)capc * sizeof(Cand));
                if (!more) { store.failed = 1; break; }
                cands = more;
            }
            Cand *c = &cands[ncand];
            c->take = t;
            c->handin = k;
            c->order = ncand;
            estimates(&box, &side, present, &store.items[k].after, &w, c->values);
            double best = -1e308;
            int seen_rival = 0;
            for (int q = 0; q < players; q++) {
                if (q == me) continue;
                if (!seen_rival || c->values[q] > best) best = c->values[q];
                seen_rival = 1;
            }
            c->margin = c->values[me] - best;
            ncand++;
        }
        if (store.failed) break;
    }
    PyObject *result = NULL;
    if (store.failed) {
        PyErr_NoMemory();
        goto done;
    }
    qsort(cands, (size_t)ncand, sizeof(Cand), cmp_cand);
    result = PyList_New(ncand);
    if (!result) goto done;
    for (int k = 0; k < ncand; k++) {
        const Cand *c = &cands[k];
        int len = c->take < 0 ? 0 : takes[c->take].len;
        PyObject *seq = PyTuple_New(len);
        const HandIn *hi = &store.items[c->handin];
        PyObject *codes = PyTuple_New(hi->nsets);
        PyObject *values = PyTuple_New(players);
        PyObject *item = NULL;
        if (seq && codes && values) {
            for (int j = 0; j < len; j++) PyTuple_SET_ITEM(seq, j, PyLong_FromLong(takes[c->take].seq[j]));
            for (int j = 0; j < hi->nsets; j++) PyTuple_SET_ITEM(codes, j, PyLong_FromLong(hi->sets[j]));
            for (int q = 0; q < players; q++) PyTuple_SET_ITEM(values, q, PyFloat_FromDouble(c->values[q]));
            item = Py_BuildValue("(NNNd)", seq, codes, values, c->margin);
        } else {
            Py_XDECREF(seq);
            Py_XDECREF(codes);
            Py_XDECREF(values);
        }
        if (!item || PyErr_Occurred()) {
            Py_XDECREF(item);
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, k, item);
    }
done:
    free(takes);
    free(store.items);
    free(cands);
    return result;
}

/* ------------------------------------------------- the exact score search */

/*
 * ScoreSearch of solvers/search.py as the puzzle evaluation (models/collexion/puzzles.py)
 * runs it on a two-player base position: fail-soft negamax alpha-beta on the final score
 * difference, no horizon, a table of every position searched (exact keys: the box as the
 * root's pieces still present, collections, tokens, piles, side to move, final round),
 * the table's best move first and then the others in the canonical order (rules._turns),
 * the node count and the budget check of Budget (every 256 nodes: stop once the count
 * reaches the limit). Repetitions cannot occur (every turn takes a piece but the final
 * round's passes, which end the game), so there is no path set.
 */

#define SCORE_INF 1000000000
enum { S_EXACT = 0, S_LOWER = 1, S_UPPER = 2 };

typedef struct {
    u128 present;
    unsigned char coll[2][NP];
    unsigned char tok[2][3];
    unsigned char piles[4];
    unsigned char to_move, final;
} State;

typedef struct {
    u64 key[5];
    int value, best;
    unsigned char flag, used;
} Entry;

typedef struct {
    Box box;
    int powers[2];
    State root;
    Entry *table;
    size_t cap, count;
    State *stack; /* the children of every node on the path */
    size_t stack_len, stack_cap;
    u64 nodes, limit;
    int stopped, failed;
} Search;

static void state_key(const State *s, u64 *key) {
    u64 c0 = 0, c1 = 0, misc = 0;
    for (int t = 0; t < NP; t++) {
        c0 |= (u64)s->coll[0][t] << (4 * t);
        c1 |= (u64)s->coll[1][t] << (4 * t);
    }
    for (int k = 0; k < 3; k++)
        misc |= (u64)s->tok[0][k] << (4 * k) | (u64)s->tok[1][k] << (12 + 4 * k);
    for (int c = 0; c < 4; c++) misc |= (u64)s->piles[c] << (24 + 2 * c);
    misc |= (u64)s->to_move << 32 | (u64)s->final << 33;
    key[0] = (u64)s->present;
    key[1] = (u64)(s->present >> 64);
    key[2] = c0;
    key[3] = c1;
    key[4] = misc;
}

static u64 key_hash(const u64 *key) {
    u64 h = 0x243F6A8885A308D3ULL;
    for (int k = 0; k < 5; k++) {
        h ^= key[k];
        h *= 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return h;
}

static int tt_grow(Search *S);

static Entry *tt_find(Search *S, const u64 *key, int insert) {
    if (insert && (S->count + 1) * 2 > S->cap && !tt_grow(S)) return NULL;
    size_t mask = S->cap - 1, i = key_hash(key) & mask;
    while (S->table[i].used) {
        if (!memcmp(S->table[i].key, key, sizeof(u64) * 5)) return &S->table[i];
        i = (i + 1) & mask;
    }
    if (!insert) return NULL;
    Entry *e = &S->table[i];
    memcpy(e->key, key, sizeof(u64) * 5);
    e->used = 1;
    S->count++;
    return e;
}

static int tt_grow(Search *S) {
    size_t old_cap = S->cap;
    Entry *old = S->table;
    Entry *table = calloc(old_cap * 2, sizeof(Entry));
    if (!table) return 0;
    S->table = table;
    S->cap = old_cap * 2;
    S->count = 0;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].used) continue;
        Entry *e = tt_find(S, old[i].key, 1);
        e->value = old[i].value;
        e->best = old[i].best;
        e->flag = old[i].flag;
    }
    free(old);
    return 1;
}

static int ended(const State *s) {
    int trigger = s->present == 0 || !(s->piles[0] | s->piles[1] | s->piles[2] | s->piles[3]);
    return s->to_move == 0 && !s->final && trigger;
}

static int terminal_value(const Search *S, const State *s) {
    int score[2];
    for (int q = 0; q < 2; q++) {
        int held = 0;
        for (int t = 0; t < NP; t++) held += s->coll[q][t];
        score[q] = 2 * s->tok[q][0] + 3 * s->tok[q][1] + 4 * s->tok[q][2] + S->powers[q] - held;
    }
    return score[s->to_move] - score[1 - s->to_move];
}

static int push_child(Search *S, const State *s) {
    if (S->stack_len == S->stack_cap) {
        size_t cap = S->stack_cap ? S->stack_cap * 2 : 4096;
        State *more = realloc(S->stack, cap * sizeof(State));
        if (!more) { S->failed = 1; return 0; }
        S->stack = more;
        S->stack_cap = cap;
    }
    S->stack[S->stack_len++] = *s;
    return 1;
}

/* the child of ``s`` whose mover's holding is ``h`` and box ``present`` (rules._finish) */
static void emit(Search *S, const State *s, u128 present, const Holding *h) {
    State c = *s;
    int p = s->to_move;
    c.present = present;
    memcpy(c.coll[p], h->coll, NP);
    memcpy(c.tok[p], h->tok, 3);
    memcpy(c.piles, h->piles, 4);
    int trigger = present == 0 || !(c.piles[0] | c.piles[1] | c.piles[2] | c.piles[3]);
    int final = s->final || trigger;
    int nxt = 1 - p;
    if (final && nxt == 0) final = 0;
    c.to_move = (unsigned char)nxt;
    c.final = (unsigned char)final;
    push_child(S, &c);
}

static int has_complete_set(const unsigned char *coll) {
    int mask = 0;
    for (int t = 0; t < NP; t++)
        if (coll[t]) mask |= 1 << t;
    for (int c = 0; c < 4; c++)
        if ((mask >> (4 * c) & 15) == 15) return 1;
    for (int k = 0; k < 4; k++)
        if ((mask & (0x1111 << k)) == (0x1111 << k)) return 1;
    return 0;
}

static HandIns S_HANDINS;

static void emit_hand_ins(Search *S, const State *s, u128 present, const Holding *h) {
    if (!has_complete_set(h->coll)) {
        emit(S, s, present, h);
        return;
    }
    unsigned char sets[MAX_SETS];
    S_HANDINS.count = 0;
    S_HANDINS.failed = 0;
    hand_ins(&S_HANDINS, sets, 0, h);
    if (S_HANDINS.failed) { S->failed = 1; return; }
    for (int k = 0; k < S_HANDINS.count; k++) emit(S, s, present, &S_HANDINS.items[k].after);
}

/* rules._takes: every take sequence in the canonical order (pre-order, by index) */
static void take_children(Search *S, const State *s, Holding *h, u128 left, int last, int len) {
    const Box *box = &S->box;
    for (int i = 0; i < box->n && !S->failed; i++) {
        if (!(left >> i & 1) || (box->over[i] & left)) continue;
        int poly = box->poly[i];
        if (last >= 0 && !share(last, poly)) continue;
        u128 rest = left & ~bit(i);
        h->coll[poly]++;
        emit_hand_ins(S, s, rest, h);
        if (len + 1 < MAX_TAKE) take_children(S, s, h, rest, poly, len + 1);
        h->coll[poly]--;
    }
}

/* push the children of ``s`` (not over) in the canonical order of rules._turns */
static void children(Search *S, const State *s) {
    int p = s->to_move;
    Holding h;
    memcpy(h.coll, s->coll[p], NP);
    memcpy(h.tok, s->tok[p], 3);
    memcpy(h.piles, s->piles, 4);
    if (s->final) emit_hand_ins(S, s, s->present, &h);
    take_children(S, s, &h, s->present, -1, 0);
}

static int score_search(Search *S, const State *s, int alpha, int beta) {
    S->nodes++;
    if (!(S->nodes & 255) && S->limit && S->nodes >= S->limit) {
        S->stopped = 1;
        return 0;
    }
    if (ended(s)) return terminal_value(S, s);
    u64 key[5];
    state_key(s, key);
    Entry *entry = tt_find(S, key, 0);
    int first = -1;
    if (entry) {
        if (entry->flag == S_EXACT || (entry->flag == S_LOWER && entry->value >= beta) ||
            (entry->flag == S_UPPER && entry->value <= alpha))
            return entry->value;
        first = entry->best;
    }
    int alpha_orig = alpha, best = -SCORE_INF - 1, best_move = -1;
    size_t base = S->stack_len;
    children(S, s);
    if (S->failed) return 0;
    int count = (int)(S->stack_len - base);
    if (first >= count) first = -1;
    for (int k = (first >= 0 ? -1 : 0); k < count; k++) {
        int index = k < 0 ? first : k;
        if (k >= 0 && k == first) continue;
        State child = S->stack[base + (size_t)index];
        int value = child.to_move == s->to_move ? score_search(S, &child, alpha, beta)
                                                : -score_search(S, &child, -beta, -alpha);
        if (S->stopped || S->failed) {
            S->stack_len = base;
            return 0;
        }
        if (value > best) {
            best = value;
            best_move = index;
            if (value > alpha) alpha = value;
            if (alpha >= beta) break;
        }
    }
    S->stack_len = base;
    int flag = best <= alpha_orig ? S_UPPER : best >= beta ? S_LOWER : S_EXACT;
    entry = tt_find(S, key, 1);
    if (!entry) { S->failed = 1; return 0; }
    entry->value = best;
    entry->best = best_move;
    entry->flag = (unsigned char)flag;
    return best;
}

static void search_free(PyObject *capsule) {
    Search *S = PyCapsule_GetPointer(capsule, "collexion.search");
    if (!S) return;
    free(S->table);
    free(S->stack);
    free(S);
}

static Search *get_search(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "collexion.search");
}

/* score_new(polys, over, players, to_move, final, colls, tokens, powers, piles, limit) */
static PyObject *py_score_new(PyObject *self, PyObject *args) {
    PyObject *polys_o, *over_o, *colls_o, *toks_o, *powers_o, *piles_o;
    int players, to_move, final;
    unsigned long long limit;
    if (!PyArg_ParseTuple(args, "OOiipOOOOK", &polys_o, &over_o, &players, &to_move, &final,
                          &colls_o, &toks_o, &powers_o, &piles_o, &limit))
        return NULL;
    if (players != 2) {
        PyErr_SetString(PyExc_ValueError, "the score search takes two players");
        return NULL;
    }
    Search *S = calloc(1, sizeof(Search));
    if (!S) return PyErr_NoMemory();
    Side side;
    if (!read_position(polys_o, over_o, players, to_move, final, colls_o, toks_o, powers_o,
                       piles_o, &S->box, &side)) {
        free(S);
        return NULL;
    }
    S->root.present = ((u128)1 << S->box.n) - 1;
    for (int q = 0; q < 2; q++) {
        memcpy(S->root.coll[q], side.coll[q], NP);
        memcpy(S->root.tok[q], side.tok[q], 3);
        S->powers[q] = side.powers[q];
    }
    memcpy(S->root.piles, side.piles, 4);
    S->root.to_move = (unsigned char)to_move;
    S->root.final = (unsigned char)final;
    S->limit = limit;
    S->cap = 1 << 12;
    S->table = calloc(S->cap, sizeof(Entry));
    if (!S->table) {
        free(S);
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(S, "collexion.search", search_free);
    if (!capsule) {
        free(S->table);
        free(S);
    }
    return capsule;
}

/* the full-window value of every child of ``s`` for its mover (puzzles.child_value), in
   the canonical order; -1 if the budget ran out (``out`` holds ``count`` values) */
static int child_values(Search *S, const State *s, int **out) {
    size_t base = S->stack_len;
    children(S, s);
    if (S->failed) return -1;
    int count = (int)(S->stack_len - base);
    int *values = malloc(sizeof(int) * (size_t)(count ? count : 1));
    if (!values) { S->failed = 1; return -1; }
    for (int k = 0; k < count; k++) {
        State child = S->stack[base + (size_t)k];
        int value = score_search(S, &child, -SCORE_INF, SCORE_INF);
        if (S->stopped || S->failed) {
            free(values);
            S->stack_len = base;
            return -1;
        }
        values[k] = child.to_move == s->to_move ? value : -value;
    }
    S->stack_len = base;
    *out = values;
    return count;
}

static PyObject *search_result_error(Search *S) {
    if (S->failed) return PyErr_NoMemory();
    Py_RETURN_NONE; /* the budget ran out */
}

/* score_values(search) -> [value of each root child] or None (the budget ran out) */
static PyObject *py_score_values(PyObject *self, PyObject *capsule) {
    Search *S = get_search(capsule);
    if (!S) return NULL;
    if (S->stopped) Py_RETURN_NONE;
    int *values = NULL;
    int count = child_values(S, &S->root, &values);
    if (count < 0) return search_result_error(S);
    PyObject *list = PyList_New(count);
    for (int k = 0; list && k < count; k++) PyList_SET_ITEM(list, k, PyLong_FromLong(values[k]));
    free(values);
    return list;
}

/* score_line(search) -> [index of the first best child at each turn to the end] or None
   (puzzles.optimal_line: every child valued at every turn of the line) */
static PyObject *py_score_line(PyObject *self, PyObject *capsule) {
    Search *S = get_search(capsule);
    if (!S) return NULL;
    if (S->stopped) Py_RETURN_NONE;
    PyObject *line = PyList_New(0);
    if (!line) return NULL;
    State here = S->root;
    while (!ended(&here)) {
        int *values = NULL;
        int count = child_values(S, &here, &values);
        if (count < 0) {
            Py_DECREF(line);
            return search_result_error(S);
        }
        int best = 0;
        for (int k = 1; k < count; k++)
            if (values[k] > values[best]) best = k;
        free(values);
        if (!count) break; /* never: a position not over has a turn */
        PyObject *index = PyLong_FromLong(best);
        if (!index || PyList_Append(line, index) < 0) {
            Py_XDECREF(index);
            Py_DECREF(line);
            return NULL;
        }
        Py_DECREF(index);
        size_t base = S->stack_len;
        children(S, &here);
        if (S->failed) {
            Py_DECREF(line);
            return PyErr_NoMemory();
        }
        here = S->stack[base + (size_t)best];
        S->stack_len = base;
    }
    return line;
}

static PyObject *py_score_nodes(PyObject *self, PyObject *capsule) {
    Search *S = get_search(capsule);
    if (!S) return NULL;
    return PyLong_FromUnsignedLongLong(S->nodes);
}

/* score_children(search) -> for each root child (canonical order), the index of the first
   child that reaches the same position (moves that differ only in order are one turn) */
static PyObject *py_score_children(PyObject *self, PyObject *capsule) {
    Search *S = get_search(capsule);
    if (!S) return NULL;
    size_t base = S->stack_len;
    children(S, &S->root);
    if (S->failed) return PyErr_NoMemory();
    int count = (int)(S->stack_len - base);
    size_t cap = 16;
    while (cap < (size_t)count * 2) cap *= 2;
    int *slots = malloc(cap * sizeof(int));
    u64 *keys = malloc((size_t)(count ? count : 1) * 5 * sizeof(u64));
    PyObject *list = slots && keys ? PyList_New(count) : NULL;
    if (!list) {
        free(slots);
        free(keys);
        S->stack_len = base;
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    for (size_t i = 0; i < cap; i++) slots[i] = -1;
    for (int k = 0; k < count; k++) {
        u64 *key = keys + 5 * (size_t)k;
        state_key(&S->stack[base + (size_t)k], key);
        size_t i = key_hash(key) & (cap - 1);
        int first = k;
        while (slots[i] >= 0) {
            if (!memcmp(keys + 5 * (size_t)slots[i], key, 5 * sizeof(u64))) {
                first = slots[i];
                break;
            }
            i = (i + 1) & (cap - 1);
        }
        if (first == k) slots[i] = k;
        PyList_SET_ITEM(list, k, PyLong_FromLong(first));
    }
    free(slots);
    free(keys);
    S->stack_len = base;
    return list;
}

static PyMethodDef methods[] = {
    {"rank", py_rank, METH_VARARGS, "The base variant's ranked turns (evaluation.ranked_turns)."},
    {"score_new", py_score_new, METH_VARARGS, "A new exact score search of a position."},
    {"score_values", py_score_values, METH_O, "Every root child's value (None: budget)."},
    {"score_line", py_score_line, METH_O, "The optimal line's child indices (None: budget)."},
    {"score_nodes", py_score_nodes, METH_O, "The nodes searched so far."},
    {"score_children", py_score_children, METH_O, "Each root child's first equal child."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_collexion", "ColleXion's native kernels (base variant).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__collexion(void) { return PyModule_Create(&module); }
