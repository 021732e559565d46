/*
 * Native random playouts for Carpniches, for the MCTS of boardproof/solvers/mcts.py.
 *
 * The rules' tables are not written here: the Python wrapper (boardproof/models/
 * carpniches/playouts.py) hands over the move steps of boardproof.models.carpniches.rules
 * and the line masks (``setup``). The position, the move generator and the end-of-game
 * test are carpniches_state.h's, shared with the MCTS engine (mcts.c); this file only plays.
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
#include "carpniches_state.h"

enum { R_CAPYBARA = 0, R_POODLE = 1, R_LIMIT = 3 };

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
    {"setup", cp_py_setup, METH_VARARGS, "Install the move steps and line masks."},
    {"ready", cp_py_ready, METH_NOARGS, "Whether the tables are installed."},
    {"playout", py_playout, METH_VARARGS, "One seeded random playout."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_playout", "Native Carpniches playouts.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__playout(void) { return PyModule_Create(&MODULE); }
