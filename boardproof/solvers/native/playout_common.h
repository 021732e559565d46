/*
 * What the native playouts share (playout_minefield.c, playout_carpniches.c): the
 * splitmix64 generator of boardproof/solvers/playouts.py (one draw per ply), the trace
 * buffer of one playout and the Python value it returns.
 */
#ifndef BOARDPROOF_PLAYOUT_COMMON_H
#define BOARDPROOF_PLAYOUT_COMMON_H

#include <Python.h>
#include <stdint.h>

typedef uint64_t u64;

static inline u64 splitmix64(u64 *state) {
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Room for the moves of a playout of at most limit plies (free it with PyMem_Free);
   NULL with MemoryError set. */
static inline int *trace_buffer(int limit) {
    int *trace = PyMem_Malloc(sizeof(int) * (limit ? limit : 1));
    if (!trace) PyErr_NoMemory();
    return trace;
}

/* (result, plies), or (result, plies, [move codes]) when trace is not NULL; NULL with an
   exception set on failure. */
static inline PyObject *playout_result(int code, int plies, const int *trace) {
    if (!trace) return Py_BuildValue("ii", code, plies);
    PyObject *moves = PyList_New(plies);
    if (!moves) return NULL;
    for (int k = 0; k < plies; k++) {
        PyObject *item = PyLong_FromLong(trace[k]);
        if (!item) {
            Py_DECREF(moves);
            return NULL;
        }
        PyList_SET_ITEM(moves, k, item);
    }
    return Py_BuildValue("iiN", code, plies, moves);
}

#endif
