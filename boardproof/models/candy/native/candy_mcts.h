/*
 * The native MCTS engine for Candy Conquest: the game side of boardproof/solvers/native/
 * mcts_tree.h (the tree) and its Python binding, included by mcts.c (two players: the
 * two-player tree) and mcts_multi.c (MCTS_PLAYERS 4: the max^n tree for 2 to 4 players).
 * The rules are candy_rules.h's (the tables come from Python through ``setup``, as for
 * candy.c's searches).
 *
 * Move codes: square * 12 + orientation (a1 = 0, orientations in the model's CODES order),
 * and PASS_MOVE = 300 for ``pass``, so MCTS_MOVES = 301. A placement that completes a line
 * of the mover wins at once; a position where nobody can place ends the game without a
 * winner (gs_moves answers none: the tree proves a draw there). ``pass`` is the only move
 * of a player who cannot place while another can (the model's pass_is_legal).
 *
 * Playouts: uniform random legal moves to the end of the game (at most 96 placements and
 * the passes between them), as the Python MCTS's playouts; with ``knowledge`` on, a
 * player who can complete a line at once does (the first such placement in move order).
 *
 * Both modules also carry the threat-aware self-play policy of candy_policy.h
 * (``policy_game``).
 */
#ifndef BOARDPROOF_CANDY_MCTS_H
#define BOARDPROOF_CANDY_MCTS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "playout_common.h"
#include "candy_rules.h"
#include "candy_policy.h"

#define PASS_MOVE (SQ * NCODES)
#define MCTS_MOVES (SQ * NCODES + 1)

typedef struct {
    State s;
    int8_t mover;
    int8_t winner; /* -1, or the colour whose line is on the board */
} GState;

/* the playouts' knowledge: complete a line when one can be completed (set per run from
   the tree's search object: one tree runs at a time per extension, see search_run_k) */
static int KNOWLEDGE = 0;

static inline int gs_mover(const GState *g) { return g->mover; }
static inline int gs_winner(const GState *g) { return g->winner; }
#if MCTS_PLAYERS > 2
static inline int gs_players(const GState *g) { return g->s.players; }
#endif

static int others_can_place(const State *s, int mover) {
    for (int p = 0; p < s->players; p++)
        if (p != mover && can_place(s, p)) return 1;
    return 0;
}

static int gs_moves(const GState *g, int16_t *out) {
    if (g->winner >= 0) return 0;
    int16_t sqs[SQ * NCODES];
    int8_t codes[SQ * NCODES];
    int n = placements(&g->s, g->mover, sqs, codes);
    for (int k = 0; k < n; k++) out[k] = (int16_t)(sqs[k] * NCODES + codes[k]);
    if (n == 0 && others_can_place(&g->s, g->mover)) {
        out[0] = PASS_MOVE;
        return 1;
    }
    return n;
}

static inline void place(State *s, int sq, int code, int mover) {
    s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + code);
    s->counts[mover][KIND_OF[code]]++;
}

static void gs_play(GState *g, int move) {
    if (move != PASS_MOVE) {
        int sq = move / NCODES;
        place(&g->s, sq, move % NCODES, g->mover);
        if (wins_at(&g->s, sq, g->mover)) g->winner = g->mover;
    }
    g->mover = (int8_t)((g->mover + 1) % g->s.players);
}

/* the candy is pushed onto a copy of the column's height only: wins_at reads the column
   up to h, so the state is unchanged on return */
static int gs_wins_now(const GState *g, int move) {
    if (move == PASS_MOVE) return 0;
    int sq = move / NCODES;
    State *s = (State *)&g->s; /* pushed and popped below */
    uint8_t saved = s->c[sq][s->h[sq]];
    s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * g->mover + move % NCODES);
    int won = wins_at(s, sq, g->mover);
    s->h[sq]--;
    s->c[sq][s->h[sq]] = saved;
    return won;
}

#include "mcts_tree.h"

static int gs_playout(GState *g, u64 *rng, Amaf *amaf) {
    if (g->winner >= 0) return g->winner;
    State *s = &g->s;
    int mover = g->mover, players = s->players;
    int16_t sqs[SQ * NCODES];
    int8_t codes[SQ * NCODES];
    for (;;) {
        int count = placements(s, mover, sqs, codes);
        if (!count) {
            if (!others_can_place(s, mover)) return MCTS_DRAW_RESULT;
            amaf_record(amaf, PASS_MOVE, mover);
            mover = (mover + 1) % players;
            continue;
        }
        if (KNOWLEDGE) {
            for (int i = 0; i < count; i++) {
                int sq = sqs[i];
                s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + codes[i]);
                int won = wins_at(s, sq, mover);
                s->h[sq]--;
                if (won) {
                    amaf_record(amaf, sq * NCODES + codes[i], mover);
                    return mover;
                }
            }
        }
        int i = (int)(splitmix64(rng) % (u64)count);
        int sq = sqs[i], code = codes[i];
        amaf_record(amaf, sq * NCODES + code, mover);
        place(s, sq, code, mover);
        if (wins_at(s, sq, mover)) return mover;
        mover = (mover + 1) % players;
    }
}

/* -- Python ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    MTree *tree;
    int knowledge;
} SearchObject;

#include "mcts_python.h"

/* run(iterations, seconds) with this search's playout knowledge (the GIL is held while it
   is set: two searches of one module never run at once from Python threads that hold it
   in between; the ladder and the commands run one) */
static PyObject *search_run_k(SearchObject *self, PyObject *args) {
    KNOWLEDGE = self->knowledge;
    return search_run(self, args);
}

/* a root state from (columns, mover, players, winner); 0 with an exception set */
static int load_root(GState *g, PyObject *cols, int mover, int players, int winner) {
    if (players < 2 || players > MCTS_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "players must be 2..%d", MCTS_PLAYERS);
        return 0;
    }
    if (load_state(cols, players, &g->s) < 0) return 0;
    if (mover < 0 || mover >= players || winner < -1 || winner >= players) {
        PyErr_SetString(PyExc_ValueError, "mover 0..players-1, winner -1..players-1");
        return 0;
    }
    g->mover = (int8_t)mover;
    g->winner = (int8_t)winner;
    return 1;
}

/* Search(columns, mover, players, winner, hash_bytes, seed, threads, uct_c, rave_bias, fpu,
          expand_visits, rave, knowledge) */
static PyObject *search_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *cols;
    int mover, players, winner, threads, expand_visits, rave, knowledge;
    unsigned long long hash_bytes, seed;
    double uct_c, rave_bias, fpu;
    if (!PyArg_ParseTuple(args, "OiiiKKidddipp", &cols, &mover, &players, &winner, &hash_bytes,
                          &seed, &threads, &uct_c, &rave_bias, &fpu, &expand_visits, &rave,
                          &knowledge))
        return NULL;
    if (threads < 1 || threads > MCTS_MAX_THREADS)
        return PyErr_Format(PyExc_ValueError, "threads must be 1..%d", MCTS_MAX_THREADS);
    if (expand_visits < 1) return PyErr_Format(PyExc_ValueError, "expand_visits must be >= 1");
    GState *state = malloc(sizeof *state);
    if (!state) return PyErr_NoMemory();
    if (!load_root(state, cols, mover, players, winner)) {
        free(state);
        return NULL;
    }
    SearchObject *self = (SearchObject *)type->tp_alloc(type, 0);
    if (!self) {
        free(state);
        return NULL;
    }
    MParams params = {uct_c, rave_bias, fpu, expand_visits, threads, rave};
    self->knowledge = knowledge;
    self->tree = mcts_new((size_t)hash_bytes, state, params, (u64)seed);
    free(state);
    if (!self->tree) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

/* advance(move) -> 1 kept the subtree, 0 restarted */
static PyObject *search_advance(SearchObject *self, PyObject *args) {
    int move;
    if (!PyArg_ParseTuple(args, "i", &move)) return NULL;
    if (!root_move_legal(self, move)) return NULL;
    int kept = mcts_advance(self->tree, move);
    if (kept < 0) return PyErr_NoMemory();
    return PyLong_FromLong(kept);
}

/* reset(columns, mover, players, winner): a new root, the tree emptied */
static PyObject *search_reset(SearchObject *self, PyObject *args) {
    PyObject *cols;
    int mover, players, winner;
    if (!PyArg_ParseTuple(args, "Oiii", &cols, &mover, &players, &winner)) return NULL;
    GState *state = malloc(sizeof *state);
    if (!state) return PyErr_NoMemory();
    int ok = load_root(state, cols, mover, players, winner);
    if (ok) mcts_reset(self->tree, state);
    free(state);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* playout_k(seed) -> playout(seed) with this search's knowledge */
static PyObject *search_playout_k(SearchObject *self, PyObject *args) {
    KNOWLEDGE = self->knowledge;
    return search_playout(self, args);
}

static PyObject *py_setup(PyObject *self, PyObject *args) {
    if (rules_setup(args) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_ready(PyObject *self, PyObject *unused) { return PyBool_FromLong(ready); }

static PyMethodDef SEARCH_METHODS[] = {
    /* MCTS_COMMON_METHODS with run and playout that set the playouts' knowledge */
    {"run", (PyCFunction)search_run_k, METH_VARARGS, "Run iterations (0: no limit) / seconds."},
    {"children", (PyCFunction)search_children, METH_VARARGS, "A node's children."},
    {"root", (PyCFunction)search_root, METH_NOARGS, "The root node."},
    {"stop", (PyCFunction)search_stop, METH_NOARGS, "Ask a running search to stop."},
    {"stats", (PyCFunction)search_stats, METH_NOARGS, "Pool and iteration counts."},
    {"playout", (PyCFunction)search_playout_k, METH_VARARGS, "One playout from the root."},
    {"moves", (PyCFunction)search_moves, METH_NOARGS, "The root's legal move codes."},
    {"advance", (PyCFunction)search_advance, METH_VARARGS, "Play a move at the root."},
    {"reset", (PyCFunction)search_reset, METH_VARARGS, "A new root."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SEARCH_TYPE = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = CANDY_MCTS_TYPE_NAME,
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A native MCTS-Solver tree over a Candy Conquest position.",
    .tp_methods = SEARCH_METHODS,
    .tp_new = search_new,
};

static PyMethodDef METHODS[] = {
    {"setup", py_setup, METH_VARARGS, "Install the model's tables (as _candy.setup)."},
    {"ready", py_ready, METH_NOARGS, "Whether the tables are installed."},
    {"policy_game", py_policy_game, METH_VARARGS,
     "policy_game(columns, mover, players, seed, care, limit) -> [move codes]: the\n"
     "threat-aware policy's game from a position (candy_policy.h)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, CANDY_MCTS_MODULE_NAME, "The native Candy Conquest MCTS engine.", -1,
    METHODS, NULL, NULL, NULL, NULL,
};

static PyObject *candy_mcts_module(void) {
    PyObject *module = mcts_module(&MODULE, &SEARCH_TYPE);
    if (!module) return NULL;
    if (PyModule_AddIntConstant(module, "PLAYERS", MCTS_PLAYERS) < 0 ||
        PyModule_AddIntConstant(module, "PROOF_DRAW", PROOF_DRAW) < 0 ||
        PyModule_AddIntConstant(module, "PASS_MOVE", PASS_MOVE) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

#endif
