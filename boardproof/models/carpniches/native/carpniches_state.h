/*
 * Carpniches' rules in C as the playouts (playout.c) and the MCTS engine (mcts.c) share
 * them: the position, the move generator, a move's effect and the end-of-game test.
 *
 * The rules' tables are not written here: the Python side hands over the move steps of
 * boardproof.models.carpniches.rules (EXACT[h] and FIRST_STEPS: per from-square, the
 * squares strictly between and the landing square, by landing square) and the two masks
 * of the line test through ``setup`` (cp_py_setup). Each extension that includes this
 * header has its own copy of the tables and its own ``setup``.
 *
 * A position is the model's: o1 / o2 / o3 (stacks of height >= 1, >= 2, 3) and
 * l0 / l1 / l2 (layer k holds a poodle), the side to move (0 capybaras, 1 poodles) and
 * the opening field (-1: the first player's first move to play, 0..35: the landing square
 * of that move, -2: the first turns are over). Squares: sq = 6 * rank + file (a1 = 0).
 *
 * Requires playout_common.h (u64) and Python.h before it.
 */
#ifndef BOARDPROOF_CARPNICHES_STATE_H
#define BOARDPROOF_CARPNICHES_STATE_H

#include <stdint.h>
#include <string.h>

#define SQUARES 36
#define MAXSTEPS 24 /* at most 8 directions x 3 distances */
#define MAXMOVES (6 * MAXSTEPS)
#define OPENING_FIRST (-1)
#define OPENING_OVER (-2)
enum { CAPYBARA = 0, POODLE = 1 };

typedef struct {
    u64 between;
    int to;
} Step;

/* STEPS[0][sq]: first-turn steps; STEPS[h][sq]: exactly h squares */
static Step STEPS[4][SQUARES][MAXSTEPS];
static int NSTEPS[4][SQUARES];
static u64 START_RIGHT, START_LEFT;
static int READY = 0;

static inline int has_line(u64 t) {
    return ((t & (t >> 1) & (t >> 2) & START_RIGHT) | (t & (t >> 6) & (t >> 12)) |
            (t & (t >> 7) & (t >> 14) & START_RIGHT) | (t & (t >> 5) & (t >> 10) & START_LEFT)) != 0;
}

typedef struct {
    u64 o1, o2, o3, l0, l1, l2;
    int side, opening;
} Pos;

static inline u64 poodle_tops(const Pos *p) {
    return (p->l0 & ~p->o2) | (p->l1 & ~p->o3) | p->l2;
}

/* the legal moves of the side whose top pieces are ``tops`` (no line on the board), in
   the model's order (by from-square, then landing square); from in moves[k] >> 8, to in
   moves[k] & 255 */
static inline int gen_moves(const Pos *p, u64 tops, int *moves) {
    int n = 0;
    u64 b = tops;
    u64 forbid = (p->opening >= 0) ? ((u64)1 << p->opening) : 0;
    while (b) {
        int f = __builtin_ctzll(b);
        u64 low = b & -b;
        b ^= low;
        int h = p->opening == OPENING_OVER ? ((p->o3 & low) ? 3 : (p->o2 & low) ? 2 : 1) : 0;
        for (int k = 0; k < NSTEPS[h][f]; k++) {
            const Step *s = &STEPS[h][f][k];
            u64 tbit = (u64)1 << s->to;
            if ((p->o1 & s->between) || (p->o3 & tbit) || ((s->between | tbit) & forbid)) continue;
            moves[n++] = f << 8 | s->to;
        }
    }
    return n;
}

/* whether the side whose top pieces are ``tops`` has a legal move (gen_moves' test,
   stopping at the first) */
static inline int has_move(const Pos *p, u64 tops) {
    u64 b = tops;
    u64 forbid = (p->opening >= 0) ? ((u64)1 << p->opening) : 0;
    while (b) {
        int f = __builtin_ctzll(b);
        u64 low = b & -b;
        b ^= low;
        int h = p->opening == OPENING_OVER ? ((p->o3 & low) ? 3 : (p->o2 & low) ? 2 : 1) : 0;
        for (int k = 0; k < NSTEPS[h][f]; k++) {
            const Step *s = &STEPS[h][f][k];
            u64 tbit = (u64)1 << s->to;
            if (!((p->o1 & s->between) || (p->o3 & tbit) || ((s->between | tbit) & forbid)))
                return 1;
        }
    }
    return 0;
}

/* play the side to move's piece from f to t (a legal move), and pass the turn */
static inline void apply(Pos *p, int f, int t) {
    u64 fb = (u64)1 << f, tb = (u64)1 << t;
    if (p->o3 & fb) {
        p->o3 ^= fb;
        p->l2 &= ~fb;
    } else if (p->o2 & fb) {
        p->o2 ^= fb;
        p->l1 &= ~fb;
    } else {
        p->o1 ^= fb;
        p->l0 &= ~fb;
    }
    if (p->o2 & tb) {
        p->o3 |= tb;
        if (p->side) p->l2 |= tb;
    } else if (p->o1 & tb) {
        p->o2 |= tb;
        if (p->side) p->l1 |= tb;
    } else {
        p->o1 |= tb;
        if (p->side) p->l0 |= tb;
    }
    p->opening = p->opening != OPENING_FIRST ? OPENING_OVER : t;
    p->side = 1 - p->side;
}

/* the winner by a line on the board (rules "End of the game" step 1: lines to both ->
   the mover, the side not to move, loses; else the line's owner wins), or -1 */
static inline int line_winner(const Pos *p) {
    u64 tp = poodle_tops(p), tc = p->o1 & ~tp;
    int line_c = has_line(tc), line_p = has_line(tp);
    if (line_c && line_p) return p->side; /* 1 - mover */
    if (line_c) return CAPYBARA;
    if (line_p) return POODLE;
    return -1;
}

/* the game's result from p (rules "End of the game"), or -1 while it goes on; the legal
   moves into ``moves`` / ``*count`` when it goes on */
static inline int result_of(const Pos *p, int *moves, int *count) {
    u64 tp = poodle_tops(p), tc = p->o1 & ~tp;
    int line_c = has_line(tc), line_p = has_line(tp);
    int mover = 1 - p->side;
    if (line_c || line_p) {
        if (line_c && line_p) return 1 - mover;
        return line_c ? CAPYBARA : POODLE;
    }
    *count = gen_moves(p, p->side ? tp : tc, moves);
    return *count ? -1 : mover; /* blocking: the side to move has no legal move */
}

/* setup(steps: bytes of (int32 table, int32 from, int32 to, uint64 between) records,
   start_right, start_left) */
static PyObject *cp_py_setup(PyObject *self, PyObject *args) {
    Py_buffer raw;
    unsigned long long right, left;
    if (!PyArg_ParseTuple(args, "y*KK", &raw, &right, &left)) return NULL;
    const Py_ssize_t size = 3 * sizeof(int32_t) + sizeof(u64);
    if (raw.len % size) {
        PyBuffer_Release(&raw);
        PyErr_SetString(PyExc_ValueError, "steps has the wrong length");
        return NULL;
    }
    memset(NSTEPS, 0, sizeof NSTEPS);
    const uint8_t *at = raw.buf;
    for (Py_ssize_t k = 0; k < raw.len / size; k++, at += size) {
        int32_t table, from, to;
        u64 between;
        memcpy(&table, at, 4);
        memcpy(&from, at + 4, 4);
        memcpy(&to, at + 8, 4);
        memcpy(&between, at + 12, 8);
        if (table < 0 || table > 3 || from < 0 || from >= SQUARES || to < 0 || to >= SQUARES ||
            NSTEPS[table][from] >= MAXSTEPS || (between >> SQUARES)) {
            PyBuffer_Release(&raw);
            READY = 0;
            PyErr_SetString(PyExc_ValueError, "a step is off the board");
            return NULL;
        }
        Step *s = &STEPS[table][from][NSTEPS[table][from]++];
        s->between = between;
        s->to = to;
    }
    PyBuffer_Release(&raw);
    START_RIGHT = right;
    START_LEFT = left;
    READY = 1;
    Py_RETURN_NONE;
}

static PyObject *cp_py_ready(PyObject *self, PyObject *args) { return PyBool_FromLong(READY); }

#endif
