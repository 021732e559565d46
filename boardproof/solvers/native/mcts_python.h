/*
 * The Python methods of a native MCTS search that know no game (the game's file keeps
 * ``__new__``, ``reset`` and ``advance``, which load or follow its positions). Include
 * after mcts_tree.h and after defining
 *
 *   typedef struct { PyObject_HEAD ... MTree *tree; ... } SearchObject;
 *
 * A tuple of a node is (move, visits, value, rvisits, rvalue, proof, index, mover), mover
 * -1 while the node is not expanded. With MCTS_PLAYERS > 2 it ends with (refuted, shares) too (see
 * node_tuple). The root state is never played on here: a playout
 * works on a copy.
 */
#ifndef BOARDPROOF_MCTS_PYTHON_H
#define BOARDPROOF_MCTS_PYTHON_H

static void search_dealloc(SearchObject *self) {
    mcts_free(self->tree);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* run(iterations, seconds) -> iterations done (the GIL is released) */
static PyObject *search_run(SearchObject *self, PyObject *args) {
    unsigned long long iterations;
    double seconds;
    if (!PyArg_ParseTuple(args, "Kd", &iterations, &seconds)) return NULL;
    u64 done;
    Py_BEGIN_ALLOW_THREADS
    done = mcts_run(self->tree, (u64)iterations, seconds);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong(done);
}

#if MCTS_PLAYERS > 2
/* more players: (..., mover, refuted, shares): ``value`` and ``rvalue`` are the chooser's,
   ``refuted`` the mask of players who cannot force a win, ``shares`` every player's sum */
static PyObject *node_tuple(const MNode *c, uint32_t index) {
    PyObject *shares = PyTuple_New(MCTS_PLAYERS);
    if (!shares) return NULL;
    for (int q = 0; q < MCTS_PLAYERS; q++) {
        PyObject *item = PyFloat_FromDouble((double)c->share[q]);
        if (!item) {
            Py_DECREF(shares);
            return NULL;
        }
        PyTuple_SET_ITEM(shares, q, item);
    }
    return Py_BuildValue("iIdIdiIiiN", c->move, c->visits, (double)c->value, c->rvisits,
                         (double)c->rvalue, c->proof, index, c->nchild ? c->mover : -1,
                         (int)c->refuted, shares);
}
#else
static PyObject *node_tuple(const MNode *c, uint32_t index) {
    return Py_BuildValue("iIdIdiIi", c->move, c->visits, (double)c->value, c->rvisits,
                         (double)c->rvalue, c->proof, index, c->nchild ? c->mover : -1);
}
#endif

/* children(node=root) -> [node tuple] */
static PyObject *search_children(SearchObject *self, PyObject *args) {
    unsigned int at = 0;
    if (!PyArg_ParseTuple(args, "|I", &at)) return NULL;
    MTree *t = self->tree;
    if (!at) at = t->root;
    if (at >= t->used) return PyErr_Format(PyExc_ValueError, "no node %u", at);
    const MNode *node = &t->pool[at];
    PyObject *out = PyList_New(node->nchild);
    if (!out) return NULL;
    for (uint32_t k = 0; k < node->nchild; k++) {
        PyObject *item = node_tuple(&t->pool[node->child + k], node->child + k);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, item);
    }
    return out;
}

/* root() -> the root's tuple */
static PyObject *search_root(SearchObject *self, PyObject *unused) {
    MTree *t = self->tree;
    return node_tuple(&t->pool[t->root], t->root);
}

static PyObject *search_stop(SearchObject *self, PyObject *unused) {
    self->tree->stop = 1;
    Py_RETURN_NONE;
}

/* stats() -> dict: nodes used, capacity, full, iterations done, node size */
static PyObject *search_stats(SearchObject *self, PyObject *unused) {
    MTree *t = self->tree;
    return Py_BuildValue("{sIsIsisKsK}", "nodes", t->used - 1, "capacity", t->max_cap - 1, "full",
                         t->full, "iterations", (unsigned long long)t->done, "node_bytes",
                         (unsigned long long)sizeof(MNode));
}

/* playout(seed) -> the result of one playout from (a copy of) the root: 0, 1 the winner,
   2 a draw (more players: the winner, or MCTS_DRAW_RESULT = MCTS_PLAYERS without one) */
static PyObject *search_playout(SearchObject *self, PyObject *args) {
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "K", &seed)) return NULL;
    int won = gs_winner(&self->tree->root_state);
    if (won >= 0) return PyLong_FromLong(won);
    GState *state = malloc(sizeof *state);
    Amaf *amaf = calloc(1, sizeof *amaf);
    if (!state || !amaf) {
        free(state);
        free(amaf);
        return PyErr_NoMemory();
    }
    *state = self->tree->root_state;
    u64 rng = (u64)seed;
    int result = gs_playout(state, &rng, amaf);
    free(state);
    free(amaf);
    return PyLong_FromLong(result);
}

/* moves() -> the legal moves at the root (codes), as the tree makes them; none when the
   game is over for the tree */
static PyObject *search_moves(SearchObject *self, PyObject *unused) {
    int16_t legal[MCTS_MOVES];
    const GState *s = &self->tree->root_state;
    int count = gs_winner(s) >= 0 ? 0 : gs_moves(s, legal);
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    for (int k = 0; k < count; k++) PyList_SET_ITEM(out, k, PyLong_FromLong(legal[k]));
    return out;
}

/* is ``move`` legal at the root? 0 with ValueError set when not */
static int root_move_legal(SearchObject *self, int move) {
    int16_t legal[MCTS_MOVES];
    const GState *s = &self->tree->root_state;
    int count = gs_winner(s) >= 0 ? 0 : gs_moves(s, legal);
    for (int k = 0; k < count; k++)
        if (legal[k] == move) return 1;
    PyErr_Format(PyExc_ValueError, "move %d is not legal at the root", move);
    return 0;
}

/* the method table's entries every search has */
#define MCTS_COMMON_METHODS                                                                 \
    {"run", (PyCFunction)search_run, METH_VARARGS, "Run iterations (0: no limit) / seconds."}, \
    {"children", (PyCFunction)search_children, METH_VARARGS, "A node's children."},          \
    {"root", (PyCFunction)search_root, METH_NOARGS, "The root node."},                       \
    {"stop", (PyCFunction)search_stop, METH_NOARGS, "Ask a running search to stop."},        \
    {"stats", (PyCFunction)search_stats, METH_NOARGS, "Pool and iteration counts."},          \
    {"playout", (PyCFunction)search_playout, METH_VARARGS, "One playout from the root."},    \
    {"moves", (PyCFunction)search_moves, METH_NOARGS, "The root's legal move codes."}

/* the module of ``def`` with the search type ``type`` as its ``Search`` (a new reference,
   or NULL with the error set); the caller adds its own constants to it */
static PyObject *mcts_module(struct PyModuleDef *def, PyTypeObject *type) {
    if (PyType_Ready(type) < 0) return NULL;
    PyObject *module = PyModule_Create(def);
    if (!module) return NULL;
    Py_INCREF(type);
    if (PyModule_AddObject(module, "Search", (PyObject *)type) < 0) {
        Py_DECREF(type);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

#endif
