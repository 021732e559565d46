/*
 * The native MCTS engine for Carpniches: the game side of boardproof/solvers/native/
 * mcts_tree.h (the tree) and its Python binding. The rules are carpniches_state.h's (the
 * same move generator and end-of-game test as the playouts of playout.c); the tables come
 * from Python through ``setup``, as for the playouts.
 *
 * Move codes: from * 36 + to (a1 = 0, f6 = 35), so MCTS_MOVES = 1296.
 *
 * The end of the game is the model's: a line (both sides' lines: the mover loses), else
 * blocking (the side to move has no legal move: the mover wins). So a position without
 * moves is never a draw by the rules; gs_moves answers none only for a repetition (below).
 *
 * Repetitions. The rules have no draw rule and positions can repeat; the solvers count a
 * cycle as a draw and never let a proved win rely on one. The tree is a tree (no
 * transpositions), so each node has one path from the root, and GState carries the last
 * HISTORY positions of that path (the root first). A position equal to one of them (the
 * whole position: boards, side to move, opening field, compared exactly) is a leaf: a
 * draw (its playout returns a draw at once, and its expansion finds no moves, which the
 * tree proves a draw). Longer cycles go unseen: the playouts stop at PLAYOUT_PLIES plies
 * (a draw for the statistics) and the tree simply goes deeper. What the proofs mean:
 * - a proved win or loss (of any node) is exact for the position whatever its history:
 *   it is a finite tree whose leaves are lines or blockings, so the winner has a forced
 *   win; its attractor strategy never repeats a position, so it wins under "a cycle is a
 *   draw" too;
 * - a proved draw of the root is exact for the root position (no history): the tree has
 *   solved the game "a repetition on the path is a draw" from the root, whose value is
 *   that of the game "infinite play is a draw" (a player who can force a win can force it
 *   without repeating; a player who can avoid losing avoids it whatever the draw rule);
 * - a proved draw of another node is relative to its path (the positions above it may be
 *   the ones repeated), as the move values of the exact alpha-beta's root are. So when
 *   ``advance`` keeps a subtree, the new root's history restarts at the new root and every
 *   draw proof of the kept subtree is cleared (wins and losses stay: they are exact); a
 *   repetition leaf cleared this way is expanded again at its next visit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "playout_common.h"
#include "carpniches_state.h"

#define MCTS_MOVES (SQUARES * SQUARES)
/* positions of the path kept for the repetition test (a ring: the last ones) */
#define HISTORY 64
/* a playout this long counts as a draw (as the Python playouts: CARPNICHES_PLIES) */
#define PLAYOUT_PLIES 400

typedef struct {
    Pos p;
    int8_t winner;    /* -1, or the colour that has won */
    uint8_t repeated; /* the position repeats one of ``hist``: a draw for the tree */
    int nhist;        /* positions pushed into the ring ``hist`` */
    Pos hist[HISTORY];
} GState;

static inline int same_pos(const Pos *a, const Pos *b) {
    return a->o1 == b->o1 && a->side == b->side && a->o2 == b->o2 && a->o3 == b->o3 &&
           a->l0 == b->l0 && a->l1 == b->l1 && a->l2 == b->l2 && a->opening == b->opening;
}

/* the rules' result of p: the line winner, else the mover when the side to move is
   blocked, else -1 */
static int winner_of(const Pos *p) {
    int won = line_winner(p);
    if (won >= 0) return won;
    u64 tp = poodle_tops(p);
    return has_move(p, p->side ? tp : p->o1 & ~tp) ? -1 : 1 - p->side;
}

/* a root: p with its history restarted at p */
static void gs_root(GState *s, const Pos *p) {
    s->p = *p;
    s->winner = (int8_t)winner_of(p);
    s->repeated = 0;
    s->hist[0] = *p;
    s->nhist = 1;
}

static inline int gs_mover(const GState *s) { return s->p.side; }
static inline int gs_winner(const GState *s) { return s->winner; }

static int gs_moves(const GState *s, int16_t *out) {
    if (s->winner >= 0 || s->repeated) return 0;
    int moves[MAXMOVES];
    u64 tp = poodle_tops(&s->p);
    int count = gen_moves(&s->p, s->p.side ? tp : s->p.o1 & ~tp, moves);
    for (int k = 0; k < count; k++) out[k] = (int16_t)((moves[k] >> 8) * SQUARES + (moves[k] & 255));
    return count;
}

static void gs_play(GState *s, int move) {
    apply(&s->p, move / SQUARES, move % SQUARES);
    s->winner = (int8_t)winner_of(&s->p);
    s->repeated = 0;
    if (s->winner < 0) { /* a position that ends the game was never left: it cannot repeat */
        int kept = s->nhist < HISTORY ? s->nhist : HISTORY;
        for (int k = 0; k < kept && !s->repeated; k++) s->repeated = same_pos(&s->hist[k], &s->p);
    }
    s->hist[s->nhist % HISTORY] = s->p;
    s->nhist++;
}

/* 1 when the legal ``move`` ends the game with the mover's win (its line alone, or the
   opponent blocked) */
static int gs_wins_now(const GState *s, int move) {
    Pos q = s->p;
    apply(&q, move / SQUARES, move % SQUARES);
    int won = line_winner(&q);
    if (won >= 0) return won == s->p.side;
    u64 tp = poodle_tops(&q);
    return !has_move(&q, q.side ? tp : q.o1 & ~tp);
}

#include "mcts_tree.h"

/* uniform random moves to the end (the playouts of playout.c, with the tree's RNG) */
static int gs_playout(GState *s, u64 *rng, Amaf *amaf) {
    if (s->winner >= 0) return s->winner;
    if (s->repeated) return 2;
    Pos p = s->p;
    int moves[MAXMOVES];
    int count = 0;
    for (int done = 0; done < PLAYOUT_PLIES; done++) {
        int result = result_of(&p, moves, &count);
        if (result >= 0) return result;
        int move = moves[splitmix64(rng) % (u64)count];
        int f = move >> 8, t = move & 255;
        amaf_record(amaf, f * SQUARES + t, p.side);
        apply(&p, f, t);
    }
    int result = result_of(&p, moves, &count);
    return result >= 0 ? result : 2;
}

/* -- Python ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    MTree *tree;
} SearchObject;

#include "mcts_python.h"

/* a root state from (o1, o2, o3, l0, l1, l2) and the side and opening; 0 with an
   exception set */
static int load_state(GState *s, PyObject *boards, int side, int opening) {
    if (!READY) {
        PyErr_SetString(PyExc_ValueError, "no move tables (call setup)");
        return 0;
    }
    unsigned long long b[6];
    if (!PyArg_ParseTuple(boards, "KKKKKK", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5])) return 0;
    for (int k = 0; k < 6; k++) {
        if (b[k] >> SQUARES) {
            PyErr_SetString(PyExc_ValueError, "a board has bits off the 6x6 board");
            return 0;
        }
    }
    /* o3 in o2 in o1; layer k's poodles in o(k+1) */
    if ((b[1] & ~b[0]) || (b[2] & ~b[1]) || (b[3] & ~b[0]) || (b[4] & ~b[1]) || (b[5] & ~b[2])) {
        PyErr_SetString(PyExc_ValueError, "the boards do not nest (o3 in o2 in o1, lk in ok+1)");
        return 0;
    }
    if ((side != 0 && side != 1) || opening < OPENING_OVER || opening >= SQUARES) {
        PyErr_SetString(PyExc_ValueError, "side must be 0 or 1, opening -2..35");
        return 0;
    }
    Pos p = {b[0], b[1], b[2], b[3], b[4], b[5], side, opening};
    memset(s, 0, sizeof *s);
    gs_root(s, &p);
    return 1;
}

/* Search((o1, o2, o3, l0, l1, l2), side, opening, hash_bytes, seed, threads, uct_c,
          rave_bias, fpu, expand_visits, rave) */
static PyObject *search_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *boards;
    int side, opening, threads, expand_visits, rave;
    unsigned long long hash_bytes, seed;
    double uct_c, rave_bias, fpu;
    if (!PyArg_ParseTuple(args, "O!iiKKidddip", &PyTuple_Type, &boards, &side, &opening,
                          &hash_bytes, &seed, &threads, &uct_c, &rave_bias, &fpu, &expand_visits,
                          &rave))
        return NULL;
    if (threads < 1 || threads > MCTS_MAX_THREADS)
        return PyErr_Format(PyExc_ValueError, "threads must be 1..%d", MCTS_MAX_THREADS);
    if (expand_visits < 1) return PyErr_Format(PyExc_ValueError, "expand_visits must be >= 1");
    GState *state = malloc(sizeof *state);
    if (!state) return PyErr_NoMemory();
    if (!load_state(state, boards, side, opening)) {
        free(state);
        return NULL;
    }
    SearchObject *self = (SearchObject *)type->tp_alloc(type, 0);
    if (!self) {
        free(state);
        return NULL;
    }
    MParams params = {uct_c, rave_bias, fpu, expand_visits, threads, rave};
    self->tree = mcts_new((size_t)hash_bytes, state, params, (u64)seed);
    free(state);
    if (!self->tree) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

/* advance(move) -> 1 kept the subtree, 0 restarted; the new root's history restarts at
   it and the kept subtree's draw proofs (relative to the old paths) are cleared */
static PyObject *search_advance(SearchObject *self, PyObject *args) {
    int move;
    if (!PyArg_ParseTuple(args, "i", &move)) return NULL;
    if (!root_move_legal(self, move)) return NULL;
    MTree *t = self->tree;
    int kept = mcts_advance(t, move);
    if (kept < 0) return PyErr_NoMemory();
    Pos p = t->root_state.p;
    gs_root(&t->root_state, &p);
    for (uint32_t k = 1; k < t->used; k++)
        if (t->pool[k].proof == PROOF_DRAW) t->pool[k].proof = 0;
    return PyLong_FromLong(kept);
}

/* reset((o1, o2, o3, l0, l1, l2), side, opening): a new root, the tree emptied */
static PyObject *search_reset(SearchObject *self, PyObject *args) {
    PyObject *boards;
    int side, opening;
    if (!PyArg_ParseTuple(args, "O!ii", &PyTuple_Type, &boards, &side, &opening)) return NULL;
    GState *state = malloc(sizeof *state);
    if (!state) return PyErr_NoMemory();
    int ok = load_state(state, boards, side, opening);
    if (ok) mcts_reset(self->tree, state);
    free(state);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef SEARCH_METHODS[] = {
    MCTS_COMMON_METHODS,
    {"advance", (PyCFunction)search_advance, METH_VARARGS, "Play a move at the root."},
    {"reset", (PyCFunction)search_reset, METH_VARARGS, "A new root."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SEARCH_TYPE = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "boardproof.models.carpniches.native._mcts.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A native MCTS-Solver tree over a Carpniches position.",
    .tp_methods = SEARCH_METHODS,
    .tp_new = search_new,
};

static PyMethodDef METHODS[] = {
    {"setup", cp_py_setup, METH_VARARGS, "Install the move steps and line masks."},
    {"ready", cp_py_ready, METH_NOARGS, "Whether the tables are installed."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_mcts", "The native Carpniches MCTS engine.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__mcts(void) { return mcts_module(&MODULE, &SEARCH_TYPE); }
