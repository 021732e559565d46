/*
 * Native random playouts for Carpniches, for the MCTS of boardproof/solvers/mcts.py.
 *
 * The rules' tables are not written here: the Python wrapper (boardproof/solvers/
 * playouts.py) hands over the move steps of boardproof.models.carpniches.rules (EXACT[h]
 * and FIRST_STEPS: per from-square, the squares strictly between and the landing square,
 * by landing square) and the line masks. This file only plays, with the model's bitboards:
 * o1 / o2 / o3 (stacks of height >= 1, >= 2, 3) and l0 / l1 / l2 (layer k holds a poodle).
 *
 * A playout is the exact twin of playouts.reference_carpniches: splitmix64, one draw per
 * ply, the move ``moves[draw % len(moves)]`` of the model's canonical order (by
 * from-square, then landing square), the same first-turn rule, line and blocking checks,
 * and the same ply limit (a game that runs that long counts as a draw; repetitions are
 * not tracked, as in the Python playout).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "playout_common.h"

#define SQUARES 36
#define MAXSTEPS 24 /* at most 8 directions x 3 distances */
#define MAXMOVES (6 * MAXSTEPS)
#define OPENING_FIRST (-1)
#define OPENING_OVER (-2)
enum { CAPYBARA = 0, POODLE = 1 };
enum { R_CAPYBARA = 0, R_POODLE = 1, R_LIMIT = 3 };

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

/* the legal moves of the side to move (no line on the board), canonical order; from in
   moves[k] >> 8, to in moves[k] & 255 */
static int gen_moves(const Pos *p, u64 tops, int *moves) {
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

static void apply(Pos *p, int f, int t) {
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

/* the game's result from p (rules "End of the game"), or -1 while it goes on; the legal
   moves into ``moves`` / ``*count`` when it goes on */
static int result_of(const Pos *p, int *moves, int *count) {
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

static int playout(Pos *p, u64 seed, int limit, int *plies, int *trace) {
    int moves[MAXMOVES];
    int count = 0, done = 0;
    int result = result_of(p, moves, &count);
    while (result < 0 && done < limit) {
        u64 draw = splitmix64(&seed);
        int move = moves[draw % (u64)count];
        if (trace) trace[done] = move;
        apply(p, move >> 8, move & 255);
        done++;
        result = result_of(p, moves, &count);
    }
    *plies = done;
    return result < 0 ? R_LIMIT : result;
}

/* setup(steps: bytes of (int32 table, int32 from, int32 to, uint64 between) records,
   start_right, start_left) */
static PyObject *py_setup(PyObject *self, PyObject *args) {
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

static PyObject *py_ready(PyObject *self, PyObject *args) { return PyBool_FromLong(READY); }

/* playout(o1, o2, o3, l0, l1, l2, side, opening, seed, limit, trace=False)
   -> (result, plies) or (result, plies, [from * 256 + to, ...]) */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    unsigned long long b[6], seed;
    int side, opening, limit, want_trace = 0;
    if (!PyArg_ParseTuple(args, "KKKKKKiiKi|p", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &side,
                          &opening, &seed, &limit, &want_trace))
        return NULL;
    if (!READY) {
        PyErr_SetString(PyExc_ValueError, "no playout tables (call setup)");
        return NULL;
    }
    for (int k = 0; k < 6; k++) {
        if (b[k] >> SQUARES) {
            PyErr_SetString(PyExc_ValueError, "a board has bits off the 6x6 board");
            return NULL;
        }
    }
    if ((side != 0 && side != 1) || opening < OPENING_OVER || opening >= SQUARES || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "side must be 0 or 1, opening -2..35, limit >= 0");
        return NULL;
    }
    Pos p = {b[0], b[1], b[2], b[3], b[4], b[5], side, opening};
    int *trace = want_trace ? trace_buffer(limit) : NULL;
    if (want_trace && !trace) return NULL;
    int plies = 0;
    int code = playout(&p, (u64)seed, limit, &plies, trace);
    PyObject *result = playout_result(code, plies, trace);
    PyMem_Free(trace);
    return result;
}

static PyMethodDef METHODS[] = {
    {"setup", py_setup, METH_VARARGS, "Install the move steps and line masks."},
    {"ready", py_ready, METH_NOARGS, "Whether the tables are installed."},
    {"playout", py_playout, METH_VARARGS, "One seeded random playout."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_playout", "Native Carpniches playouts.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__playout(void) { return PyModule_Create(&MODULE); }
