/*
 * Candy Conquest's rules in C on a position (boardproof/models/candy/native): the model's
 * tables (installed from Python by ``setup``), the placements and the pass rule of the
 * player to move, the visibility of shapes and the line test after a placement. Shared by
 * the searches of candy.c and the MCTS tree of mcts.c / mcts_multi.c (each extension holds
 * its own copy of the tables: each is set up from Python).
 *
 * A position is 25 columns (bytes: candy 12 * colour + orientation, floor 0 first), the
 * player to move and the player count; the reserves are derived from the board.
 */
#ifndef BOARDPROOF_CANDY_RULES_H
#define BOARDPROOF_CANDY_RULES_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

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

/* the tables of setup(large_socket, bottom_large, top_large, top_type, kind_of, accepted,
   segments_at, steps) (see candy.c's setup_doc); 0, or -1 with an exception set */
static int rules_setup(PyObject *args) {
    PyObject *large, *blarge, *tlarge, *ttype, *kind, *acc, *segs, *steps;
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &large, &blarge, &tlarge, &ttype, &kind, &acc, &segs, &steps))
        return -1;
    ready = 0;
    if (int_tuple(large, LARGE_SOCKET, SQ, "large_socket") < 0 ||
        int_tuple(blarge, BOTTOM_LARGE, NCODES, "bottom_large") < 0 ||
        int_tuple(tlarge, TOP_LARGE, NCODES, "top_large") < 0 ||
        int_tuple(ttype, TOP_TYPE, NCODES, "top_type") < 0 ||
        int_tuple(kind, KIND_OF, NCODES, "kind_of") < 0)
        return -1;
    PyObject *accs = PySequence_Fast(acc, "accepted");
    if (accs == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(accs) != 8) { Py_DECREF(accs); PyErr_SetString(PyExc_ValueError, "accepted: 8 states"); return -1; }
    for (int st = 0; st < 8; st++) {
        NACC[st] = int_list(PySequence_Fast_GET_ITEM(accs, st), ACC[st], NCODES, "accepted");
        if (NACC[st] < 0) { Py_DECREF(accs); return -1; }
    }
    Py_DECREF(accs);
    PyObject *sq_segs = PySequence_Fast(segs, "segments_at");
    if (sq_segs == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(sq_segs) != SQ) { Py_DECREF(sq_segs); PyErr_SetString(PyExc_ValueError, "segments_at: 25 squares"); return -1; }
    for (int sq = 0; sq < SQ; sq++) {
        PyObject *list = PySequence_Fast(PySequence_Fast_GET_ITEM(sq_segs, sq), "segments_at");
        if (list == NULL) { Py_DECREF(sq_segs); return -1; }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(list);
        if (n > MAXSEG) { Py_DECREF(list); Py_DECREF(sq_segs); PyErr_SetString(PyExc_ValueError, "segments_at: too many"); return -1; }
        NSEG[sq] = (int)n;
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *pair = PySequence_Fast_GET_ITEM(list, k);
            PyObject *cells;
            int j;
            if (!PyArg_ParseTuple(pair, "Oi", &cells, &j) || int_tuple(cells, SEG[sq][k], 4, "segment") < 0) {
                Py_DECREF(list); Py_DECREF(sq_segs); return -1;
            }
            SEGJ[sq][k] = j;
        }
        Py_DECREF(list);
    }
    Py_DECREF(sq_segs);
    NSTEPS = int_list(steps, STEPS, MAXSTEPS, "steps");
    if (NSTEPS < 0) return -1;
    ready = 1;
    return 0;
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

#endif
