/*
 * Native (C) move generation and line test for Candy Conquest: the first step of a native
 * Candy search (boardproof.solvers.native.candy; the search itself is not written yet).
 *
 * The tables come from boardproof.models.candy.rules (setup()): the socket sizes, the
 * shapes of the 12 orientations, which orientations each square state accepts, the 4-square
 * lines through each square and the staircase steps. What is coded here is the part of the
 * rules that reads those tables on a position: the placements and the pass rule of the
 * player to move, the visibility of shapes and the line test after a placement (flat line,
 * staircase, column), and a bulk perft. The tests check all three against the model.
 *
 * On top of them, win_within(): does a given player (the attacker) force a line within d
 * plies, whatever all the other players do (one coalition, as "forced win" means for 3-4
 * players)? A depth-first AND/OR search with immediate wins first and a table of proved
 * and refuted depths (Zobrist keys of 2 x 64 bits over square, floor, candy and mover). It
 * is checked against the Python search (puzzles.generate.win_within) by the tests.
 *
 * A position is 25 columns (bytes: candy 12 * colour + orientation, floor 0 first), the
 * player to move and the player count; the reserves are derived from the board.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "table_memory.h"

#define SQ 25
#define MAXH 96        /* 4 players x 24 candies: no column is ever higher */
#define NCODES 12
#define NKINDS 6
#define COPIES 4
#define MAXSEG 16      /* 4-square lines through one square (at most 10 on 5x5) */
#define MAXSTEPS 4

static int LARGE_SOCKET[SQ];
static int BOTTOM_LARGE[NCODES], TOP_LARGE[NCODES], TOP_TYPE[NCODES], KIND_OF[NCODES];
static int NACC[8], ACC[8][NCODES];          /* square state -> orientations it accepts */
static int NSEG[SQ], SEG[SQ][MAXSEG][4], SEGJ[SQ][MAXSEG];
static int NSTEPS = 0, STEPS[MAXSTEPS];      /* floor steps of a line: 0 flat, +-1 stairs */
static int ready = 0;

typedef struct {
    uint8_t h[SQ];
    uint8_t c[SQ][MAXH];
    int counts[4][NKINDS];
    int players;
} State;

/* ------------------------------------------------------------- rules */

static inline int square_state(const State *s, int sq) {
    if (s->h[sq] == 0) return LARGE_SOCKET[sq] ? 0 : 1;
    int code = s->c[sq][s->h[sq] - 1] % NCODES;
    return 2 + 2 * TOP_TYPE[code] + TOP_LARGE[code];
}

static inline int reserve_mask(const State *s, int player) {
    int mask = 0;
    for (int k = 0; k < NKINDS; k++)
        if (s->counts[player][k] < COPIES) mask |= 1 << k;
    return mask;
}

/* the placements of `player` in canonical order (square, then orientation): their count */
static int placements(const State *s, int player, int16_t *out_sq, int8_t *out_code) {
    int mask = reserve_mask(s, player), n = 0;
    if (!mask) return 0;
    for (int sq = 0; sq < SQ; sq++) {
        int st = square_state(s, sq);
        for (int i = 0; i < NACC[st]; i++) {
            int code = ACC[st][i];
            if (mask >> KIND_OF[code] & 1) { out_sq[n] = (int16_t)sq; out_code[n] = (int8_t)code; n++; }
        }
    }
    return n;
}

static int can_place(const State *s, int player) {
    int mask = reserve_mask(s, player);
    if (!mask) return 0;
    for (int sq = 0; sq < SQ; sq++) {
        int st = square_state(s, sq);
        for (int i = 0; i < NACC[st]; i++)
            if (mask >> KIND_OF[ACC[st][i]] & 1) return 1;
    }
    return 0;
}

/* (square, floor) holds a candy of `colour` with a visible shape (only a floor-0 candy
   with its large bottom in the board and its small top covered is wholly hidden) */
static inline int counts_for(const State *s, int sq, int floor, int colour) {
    int h = s->h[sq];
    if (floor < 0 || floor >= h) return 0;
    int candy = s->c[sq][floor];
    if (candy / NCODES != colour) return 0;
    return !(floor == 0 && BOTTOM_LARGE[candy % NCODES] && h > 1);
}

/* Does the candy just placed on top of `sq` complete a line of `colour`? */
static int wins_at(const State *s, int sq, int colour) {
    int h = s->h[sq], floor = h - 1, run = 0;
    /* column: the visible shapes from the top down (bottom of floor 0 in the board; of
       two shapes that meet the small one is hidden) */
    for (int f = h - 1; f >= 0; f--) {
        int candy = s->c[sq][f], code = candy % NCODES, mine = candy / NCODES == colour;
        int top = TOP_LARGE[code] || f == h - 1, bottom = f > 0 && BOTTOM_LARGE[code];
        if (top) { if (!mine) break; if (++run >= 4) return 1; }
        if (bottom) { if (!mine) break; if (++run >= 4) return 1; }
    }
    for (int k = 0; k < NSEG[sq]; k++) {
        int j = SEGJ[sq][k];
        for (int t = 0; t < NSTEPS; t++) {
            int ok = 1;
            for (int i = 0; ok && i < 4; i++)
                if (i != j) ok = counts_for(s, SEG[sq][k][i], floor + STEPS[t] * (i - j), colour);
            if (ok) return 1;
        }
    }
    return 0;
}

static uint64_t perft(State *s, int mover, int depth) {
    int16_t sqs[SQ * NCODES];
    int8_t codes[SQ * NCODES];
    int n = placements(s, mover, sqs, codes), next = (mover + 1) % s->players;
    if (n == 0) {
        int others = 0;
        for (int p = 0; p < s->players && !others; p++)
            if (p != mover) others = can_place(s, p);
        if (!others) return 0;
        return depth == 1 ? 1 : perft(s, next, depth - 1);
    }
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        int sq = sqs[i], code = codes[i];
        s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + code);
        s->counts[mover][KIND_OF[code]]++;
        if (!wins_at(s, sq, mover)) total += perft(s, next, depth - 1);
        s->counts[mover][KIND_OF[code]]--;
        s->h[sq]--;
    }
    return total;
}

/* ------------------------------------------------------------ search */

typedef uint64_t u64;
static u64 Z1[SQ][MAXH][4 * NCODES], Z2[SQ][MAXH][4 * NCODES], ZM1[4], ZM2[4];

typedef struct {
    u64 k1, k2;
    uint8_t won;    /* the attacker wins within this many plies (255: not proved) */
    uint8_t lost;   /* no win within this many plies (0: nothing known) */
    uint8_t used;
} CEntry;

static CEntry *CT = NULL;
static u64 CT_MASK = 0;
static int CT_BITS = 0;
static u64 c_nodes = 0, c_limit = 0;
static double c_deadline = 0.0;
static int c_aborted = 0, c_attacker = 0;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void zobrist_init(void) {
    u64 x = 0x9E3779B97F4A7C15ULL;
    for (int sq = 0; sq < SQ; sq++)
        for (int f = 0; f < MAXH; f++)
            for (int c = 0; c < 4 * NCODES; c++) {
                /* splitmix64: a fixed sequence, the same on every machine */
                u64 z = (x += 0x9E3779B97F4A7C15ULL);
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
                Z1[sq][f][c] = z ^ (z >> 31);
                z = (x += 0x9E3779B97F4A7C15ULL);
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
                Z2[sq][f][c] = z ^ (z >> 31);
            }
    for (int m = 0; m < 4; m++) {
        ZM1[m] = Z1[m][MAXH - 1][0] * 31 + 7;
        ZM2[m] = Z2[m][MAXH - 1][1] * 37 + 11;
    }
}

static inline CEntry *ct_slot(u64 k1, u64 k2) {
    CEntry *e = &CT[k1 & CT_MASK];
    if (e->used && (e->k1 != k1 || e->k2 != k2)) return NULL;
    return e;
}

/* Does the attacker force a line within `rem` plies from here (mover to move, no line on
   the board yet)? 1 yes, 0 no; with `best`, the attacker's first move of a proof. */
static int win_search(State *s, int mover, int rem, u64 k1, u64 k2, int *best_sq, int *best_code) {
    if ((++c_nodes & 0x3FFF) == 0 && c_deadline > 0 && now_seconds() > c_deadline) c_aborted = 1;
    if (c_limit && c_nodes >= c_limit) c_aborted = 1;
    if (c_aborted || rem <= 0) return 0;
    int attack = mover == c_attacker;
    if (!attack && rem < 2) return 0;  /* the attacker cannot move before the horizon */
    CEntry *e = ct_slot(k1 ^ ZM1[mover], k2 ^ ZM2[mover]);
    if (e && e->used && !best_sq) {
        if (e->won <= rem) return 1;
        if (e->lost >= rem) return 0;
    }
    int16_t sqs[SQ * NCODES];
    int8_t codes[SQ * NCODES];
    int n = placements(s, mover, sqs, codes), next = (mover + 1) % s->players;
    int result;
    if (n == 0) {
        int others = 0;
        for (int p = 0; p < s->players && !others; p++)
            if (p != mover) others = can_place(s, p);
        if (!others) return 0;  /* nobody can place: the game ends without a winner */
        result = win_search(s, next, rem - 1, k1, k2, NULL, NULL);
        if (result && best_sq) { *best_sq = -1; *best_code = -1; }
    } else {
        /* a line at once: the attacker's ends the search, another player's refutes it */
        for (int i = 0; i < n; i++) {
            int sq = sqs[i], code = codes[i];
            s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + code);
            int line = wins_at(s, sq, mover);
            s->h[sq]--;
            if (line) {
                if (attack && best_sq) { *best_sq = sq; *best_code = code; }
                result = attack;
                goto store;
            }
        }
        result = attack ? 0 : 1;
        for (int i = 0; i < n; i++) {
            int sq = sqs[i], code = codes[i], f = s->h[sq], candy = NCODES * mover + code;
            s->c[sq][s->h[sq]++] = (uint8_t)candy;
            s->counts[mover][KIND_OF[code]]++;
            int r = win_search(s, next, rem - 1, k1 ^ Z1[sq][f][candy], k2 ^ Z2[sq][f][candy], NULL, NULL);
            s->counts[mover][KIND_OF[code]]--;
            s->h[sq]--;
            if (c_aborted) return 0;
            if (attack && r) { result = 1; if (best_sq) { *best_sq = sq; *best_code = code; } break; }
            if (!attack && !r) { result = 0; break; }
        }
    }
store:
    if (c_aborted) return 0;
    e = ct_slot(k1 ^ ZM1[mover], k2 ^ ZM2[mover]);
    if (e == NULL) { /* replace: the newest result wins the slot */
        e = &CT[(k1 ^ ZM1[mover]) & CT_MASK];
        e->used = 0;
    }
    if (!e->used) { e->k1 = k1 ^ ZM1[mover]; e->k2 = k2 ^ ZM2[mover]; e->won = 255; e->lost = 0; e->used = 1; }
    if (result) { if (rem < e->won) e->won = (uint8_t)rem; }
    else if (rem > e->lost) e->lost = (uint8_t)rem;
    return result;
}

/* ------------------------------------------------------- Python glue */

static int int_tuple(PyObject *obj, int *out, int n, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

/* a variable-length tuple of ints into out[0..max): its length, or -1 */
static int int_list(PyObject *obj, int *out, int max, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > max) { Py_DECREF(seq); PyErr_Format(PyExc_ValueError, "%s: too many items", what); return -1; }
    Py_DECREF(seq);
    return int_tuple(obj, out, (int)n, what) < 0 ? -1 : (int)n;
}

PyDoc_STRVAR(setup_doc,
"setup(large_socket, bottom_large, top_large, top_type, kind_of, accepted, segments_at, steps)\n\n"
"The model's tables: 25 socket sizes; per orientation (12) its bottom size, top size, top\n"
"type and kind; per square state (8) the orientations it accepts; per square its lines as\n"
"(4 squares, index of the square); the floor steps of a line (0 flat, +-1 staircases).");

static PyObject *py_setup(PyObject *self, PyObject *args) {
    PyObject *large, *blarge, *tlarge, *ttype, *kind, *acc, *segs, *steps;
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &large, &blarge, &tlarge, &ttype, &kind, &acc, &segs, &steps))
        return NULL;
    ready = 0;
    if (int_tuple(large, LARGE_SOCKET, SQ, "large_socket") < 0 ||
        int_tuple(blarge, BOTTOM_LARGE, NCODES, "bottom_large") < 0 ||
        int_tuple(tlarge, TOP_LARGE, NCODES, "top_large") < 0 ||
        int_tuple(ttype, TOP_TYPE, NCODES, "top_type") < 0 ||
        int_tuple(kind, KIND_OF, NCODES, "kind_of") < 0)
        return NULL;
    PyObject *accs = PySequence_Fast(acc, "accepted");
    if (accs == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(accs) != 8) { Py_DECREF(accs); PyErr_SetString(PyExc_ValueError, "accepted: 8 states"); return NULL; }
    for (int st = 0; st < 8; st++) {
        NACC[st] = int_list(PySequence_Fast_GET_ITEM(accs, st), ACC[st], NCODES, "accepted");
        if (NACC[st] < 0) { Py_DECREF(accs); return NULL; }
    }
    Py_DECREF(accs);
    PyObject *sq_segs = PySequence_Fast(segs, "segments_at");
    if (sq_segs == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(sq_segs) != SQ) { Py_DECREF(sq_segs); PyErr_SetString(PyExc_ValueError, "segments_at: 25 squares"); return NULL; }
    for (int sq = 0; sq < SQ; sq++) {
        PyObject *list = PySequence_Fast(PySequence_Fast_GET_ITEM(sq_segs, sq), "segments_at");
        if (list == NULL) { Py_DECREF(sq_segs); return NULL; }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(list);
        if (n > MAXSEG) { Py_DECREF(list); Py_DECREF(sq_segs); PyErr_SetString(PyExc_ValueError, "segments_at: too many"); return NULL; }
        NSEG[sq] = (int)n;
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *pair = PySequence_Fast_GET_ITEM(list, k);
            PyObject *cells;
            int j;
            if (!PyArg_ParseTuple(pair, "Oi", &cells, &j) || int_tuple(cells, SEG[sq][k], 4, "segment") < 0) {
                Py_DECREF(list); Py_DECREF(sq_segs); return NULL;
            }
            SEGJ[sq][k] = j;
        }
        Py_DECREF(list);
    }
    Py_DECREF(sq_segs);
    NSTEPS = int_list(steps, STEPS, MAXSTEPS, "steps");
    if (NSTEPS < 0) return NULL;
    ready = 1;
    Py_RETURN_NONE;
}

/* a position from (columns: 25 bytes objects, players) */
static int load_state(PyObject *cols, int players, State *s) {
    if (!ready) { PyErr_SetString(PyExc_RuntimeError, "setup() first"); return -1; }
    if (players < 2 || players > 4) { PyErr_SetString(PyExc_ValueError, "players: 2 to 4"); return -1; }
    PyObject *seq = PySequence_Fast(cols, "columns");
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != SQ) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "columns: 25 squares"); return -1; }
    memset(s, 0, sizeof *s);
    s->players = players;
    for (int sq = 0; sq < SQ; sq++) {
        char *data;
        Py_ssize_t n;
        if (PyBytes_AsStringAndSize(PySequence_Fast_GET_ITEM(seq, sq), &data, &n) < 0) { Py_DECREF(seq); return -1; }
        if (n > MAXH) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "column too high"); return -1; }
        s->h[sq] = (uint8_t)n;
        for (Py_ssize_t f = 0; f < n; f++) {
            int candy = (uint8_t)data[f];
            if (candy >= NCODES * players) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "bad candy"); return -1; }
            s->c[sq][f] = (uint8_t)candy;
            s->counts[candy / NCODES][KIND_OF[candy % NCODES]]++;
        }
    }
    Py_DECREF(seq);
    return 0;
}

PyDoc_STRVAR(moves_doc,
"moves(columns, mover, players) -> [(square, orientation), ...]\n\n"
"The legal moves of a position that is not over, in canonical order: the mover's\n"
"placements; else [(-1, -1)] (pass) if another player can place; else [] (no one can).");

static PyObject *py_moves(PyObject *self, PyObject *args) {
    PyObject *cols;
    int mover, players;
    if (!PyArg_ParseTuple(args, "Oii", &cols, &mover, &players)) return NULL;
    State s;
    if (load_state(cols, players, &s) < 0) return NULL;
    if (mover < 0 || mover >= players) { PyErr_SetString(PyExc_ValueError, "mover"); return NULL; }
    int16_t sqs[SQ * NCODES];
    int8_t codes[SQ * NCODES];
    int n = placements(&s, mover, sqs, codes);
    if (n == 0) {
        for (int p = 0; p < players; p++)
            if (p != mover && can_place(&s, p)) return Py_BuildValue("[(ii)]", -1, -1);
        return PyList_New(0);
    }
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *pair = Py_BuildValue("(ii)", sqs[i], codes[i]);
        if (pair == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, pair);
    }
    return out;
}

PyDoc_STRVAR(wins_at_doc,
"wins_at(columns, square, colour) -> bool\n\n"
"Whether the candy on top of square completes a line of colour (players: 4 allowed).");

static PyObject *py_wins_at(PyObject *self, PyObject *args) {
    PyObject *cols;
    int sq, colour;
    if (!PyArg_ParseTuple(args, "Oii", &cols, &sq, &colour)) return NULL;
    State s;
    if (load_state(cols, 4, &s) < 0) return NULL;
    if (sq < 0 || sq >= SQ || s.h[sq] == 0) { PyErr_SetString(PyExc_ValueError, "square: an occupied one"); return NULL; }
    return PyBool_FromLong(wins_at(&s, sq, colour));
}

PyDoc_STRVAR(perft_doc,
"perft(columns, mover, players, depth) -> int\n\n"
"Leaves of the legal-move tree of depth >= 1 of a position that is not over.");

static PyObject *py_perft(PyObject *self, PyObject *args) {
    PyObject *cols;
    int mover, players, depth;
    if (!PyArg_ParseTuple(args, "Oiii", &cols, &mover, &players, &depth)) return NULL;
    State s;
    if (load_state(cols, players, &s) < 0) return NULL;
    if (mover < 0 || mover >= players || depth < 1) { PyErr_SetString(PyExc_ValueError, "mover or depth"); return NULL; }
    uint64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = perft(&s, mover, depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong(n);
}

PyDoc_STRVAR(win_within_doc,
"win_within(columns, mover, players, attacker, plies, tt_bits, node_limit, seconds, keep)\n"
"    -> (result, nodes, square, orientation)\n\n"
"Does `attacker` force a line within `plies` plies against all the others (a position with\n"
"no line yet)? result 1 yes, 0 no, -1 budget spent (node_limit / seconds, 0: none). When\n"
"1 and the attacker is to move: its first move (square -1: pass). The table (2**tt_bits\n"
"entries) is cleared unless `keep` and the last call had the same attacker and tt_bits\n"
"(its entries are facts about positions, true at any depth: deepening keeps them).");

static PyObject *py_win_within(PyObject *self, PyObject *args) {
    PyObject *cols;
    int mover, players, attacker, plies, bits, keep;
    unsigned long long limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "OiiiiiKdp", &cols, &mover, &players, &attacker, &plies, &bits, &limit, &seconds, &keep))
        return NULL;
    State s;
    if (load_state(cols, players, &s) < 0) return NULL;
    if (mover < 0 || mover >= players || attacker < 0 || attacker >= players) { PyErr_SetString(PyExc_ValueError, "mover or attacker"); return NULL; }
    if (plies < 0 || plies > 250) { PyErr_SetString(PyExc_ValueError, "plies: 0 to 250"); return NULL; }
    if (bits < 4 || bits > 28) { PyErr_SetString(PyExc_ValueError, "tt_bits: 4 to 28"); return NULL; }
    if (CT == NULL || CT_BITS != bits) {
        free(CT);
        CT = table_calloc((size_t)1 << bits, sizeof(CEntry));
        if (CT == NULL) { CT_BITS = 0; return PyErr_NoMemory(); }
        CT_BITS = bits;
        CT_MASK = ((u64)1 << bits) - 1;
    } else if (!keep || attacker != c_attacker) {
        memset(CT, 0, sizeof(CEntry) << bits);
    }
    static int zobrist_ready = 0;
    if (!zobrist_ready) { zobrist_init(); zobrist_ready = 1; }
    u64 k1 = 0, k2 = 0;
    for (int sq = 0; sq < SQ; sq++)
        for (int f = 0; f < s.h[sq]; f++) { k1 ^= Z1[sq][f][s.c[sq][f]]; k2 ^= Z2[sq][f][s.c[sq][f]]; }
    c_nodes = 0;
    c_limit = limit;
    c_aborted = 0;
    c_attacker = attacker;
    c_deadline = seconds > 0 ? now_seconds() + seconds : 0.0;
    int best_sq = -2, best_code = -1, result;
    Py_BEGIN_ALLOW_THREADS
    result = win_search(&s, mover, plies, k1, k2, &best_sq, &best_code);
    Py_END_ALLOW_THREADS
    if (c_aborted) result = -1;
    if (result != 1 || mover != attacker) best_sq = -2, best_code = -1;
    return Py_BuildValue("(iKii)", result, (unsigned long long)c_nodes, best_sq, best_code);
}

static PyMethodDef methods[] = {
    {"setup", py_setup, METH_VARARGS, setup_doc},
    {"moves", py_moves, METH_VARARGS, moves_doc},
    {"wins_at", py_wins_at, METH_VARARGS, wins_at_doc},
    {"perft", py_perft, METH_VARARGS, perft_doc},
    {"win_within", py_win_within, METH_VARARGS, win_within_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_candy",
    "Native Candy Conquest move generation, line test and perft (see candy.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__candy(void) { return PyModule_Create(&module); }
