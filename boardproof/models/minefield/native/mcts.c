/*
 * The native MCTS engine for Minefield (every size 2..26, both win rules): the game side
 * of boardproof/solvers/native/mcts_tree.h (the tree) and its Python binding.
 *
 * The rules are not written here: the glyphs come from Python as "roles" relative to the
 * new stone (boardproof.models.minefield.board.glyph_roles: the other cells of a forbidden
 * window and the state each needs: mover / opponent / empty), so a variant's glyph set is
 * a different table, not different code.
 *
 * The board is padded: PAD off-board cells on every side (OFF, matching no role state),
 * so a role never needs a bounds check. Point p = rank * n + file is the move code of a
 * placement (as the Python model orders them); SWAP and PASS follow the points.
 *
 * Connection: each colour's stones are a union-find with two virtual nodes for its two
 * edges (Black: the first and last rank; White: the first and last file), united with the
 * 8 neighbours when ``connect8`` (the ortho-diagonal win rule, or the orthogonal rule
 * under Theorem O: once a colour has an ortho-diagonal path every continuation ends with
 * its orthogonal win, reports/minefield-orthodiagonal.md, proved for n = 2..26), else the
 * 4 orthogonal ones. A colour has won when its two virtual nodes are joined.
 *
 * Playouts: uniform among the mover's legal placements, by rejection: draw a candidate
 * among the empty points not yet rejected this turn, test its glyph roles, and on failure
 * set it aside (it may be legal for the other colour). A mover without a placement
 * passes; when neither colour has one the position is dead (a draw). The swap is drawn
 * with probability 1 / (empty points + 1) where the pie rule offers it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "playout_common.h"

#define MAXN 26
#define PAD 3
#define W 32 /* padded width: MAXN + 2 * PAD */
#define PCELLS (W * W)
#define EDGE_A PCELLS
#define EDGE_B (PCELLS + 1)
#define POINTS (MAXN * MAXN)
#define SWAP_CODE POINTS
#define PASS_CODE (POINTS + 1)
#define MCTS_MOVES (POINTS + 2)
#define ROLE_MAX 12
#define MAX_ROLES 64

enum { EMPTY = 0, BLACK = 1, WHITE = 2, OFF = 3 };

typedef struct {
    int len;
    int16_t offset[ROLE_MAX];
    uint8_t want[2][ROLE_MAX]; /* per mover colour: the cell value each cell must hold */
} Role;

typedef struct {
    int n, connect8, nroles;
    Role roles[MAX_ROLES];
    int16_t pad_of[POINTS]; /* compact point -> padded index */
    int16_t nbr[8];         /* padded offsets of the neighbours (orthogonal first) */
    int knowledge;          /* KNOW_* bits: the playout policy's knowledge */
    int nbridges;
    int16_t bridge[16][3];  /* (A, B, r) offsets from an intrusion q: see save_bridge */
} Game;

/* knowledge of the playouts, each on/off (EngineSettings.knowledge) */
#define KNOW_BRIDGE 1

typedef struct {
    const Game *g;
    uint8_t cell[PCELLS];
    int16_t parent[2][PCELLS + 2];
    uint8_t mover, pie;
    int8_t winner;
    int16_t stones[2];
    int16_t last; /* padded index of the last stone placed (-1: none) */
} GState;

static int find(int16_t *parent, int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static inline void unite(int16_t *parent, int a, int b) {
    a = find(parent, a);
    b = find(parent, b);
    if (a != b) parent[a] = (int16_t)b;
}

/* may colour c place at padded index q? */
static inline int legal_at(const GState *s, int q, int c) {
    if (s->cell[q] != EMPTY) return 0;
    const Game *g = s->g;
    for (int r = 0; r < g->nroles; r++) {
        const Role *role = &g->roles[r];
        int k = 0;
        while (k < role->len && s->cell[q + role->offset[k]] == role->want[c][k]) k++;
        if (k == role->len) return 0;
    }
    return 1;
}

/* the edges a stone at compact point p of colour c touches: bit 0 the first, bit 1 the
   second */
static inline int edges_of(const Game *g, int p, int c) {
    int n = g->n, line = c == 0 ? p / n : p % n;
    return (line == 0) | (line == n - 1) << 1;
}

static void place(GState *s, int p, int c) {
    const Game *g = s->g;
    int q = g->pad_of[p];
    int16_t *parent = s->parent[c];
    s->cell[q] = (uint8_t)(c + 1);
    s->stones[c]++;
    s->last = (int16_t)q;
    for (int k = 0; k < (g->connect8 ? 8 : 4); k++)
        if (s->cell[q + g->nbr[k]] == c + 1) unite(parent, q, q + g->nbr[k]);
    int edges = edges_of(g, p, c);
    if (edges & 1) unite(parent, q, EDGE_A);
    if (edges & 2) unite(parent, q, EDGE_B);
    if (find(parent, EDGE_A) == find(parent, EDGE_B)) s->winner = (int8_t)c;
}

static inline int gs_mover(const GState *s) { return s->mover; }
static inline int gs_winner(const GState *s) { return s->winner; }

static inline int swap_available(const GState *s) {
    return s->pie && s->stones[s->mover] == 0 && s->stones[1 - s->mover] == 1;
}

static int any_legal(const GState *s, int c) {
    const Game *g = s->g;
    for (int p = 0; p < g->n * g->n; p++)
        if (legal_at(s, g->pad_of[p], c)) return 1;
    return 0;
}

/* placements in compact order, then swap; or pass alone; none in a dead position */
static int gs_moves(const GState *s, int16_t *out) {
    const Game *g = s->g;
    int count = 0, c = s->mover;
    for (int p = 0; p < g->n * g->n; p++)
        if (legal_at(s, g->pad_of[p], c)) out[count++] = (int16_t)p;
    if (swap_available(s)) out[count++] = SWAP_CODE;
    if (!count && any_legal(s, 1 - c)) out[count++] = PASS_CODE;
    return count;
}

static void gs_play(GState *s, int move) {
    int c = s->mover;
    if (move == SWAP_CODE) {
        s->pie = 0; /* stones stay, the players exchange colours, White moves again */
        return;
    }
    if (move == PASS_CODE) {
        s->pie = 0;
        s->mover = (uint8_t)(1 - c);
        return;
    }
    s->pie = s->pie && s->stones[0] + s->stones[1] == 0;
    place(s, move, c);
    s->mover = (uint8_t)(1 - c);
}

/* would the legal placement ``move`` join the mover's two edges? */
static int gs_wins_now(const GState *s, int move) {
    if (move >= POINTS) return 0;
    const Game *g = s->g;
    int c = s->mover, q = g->pad_of[move];
    int16_t *parent = (int16_t *)s->parent[c]; /* find() only compresses paths */
    int a = find(parent, EDGE_A), b = find(parent, EDGE_B);
    int edges = edges_of(g, move, c);
    for (int k = 0; k < (g->connect8 ? 8 : 4); k++) {
        int x = q + g->nbr[k];
        if (s->cell[x] != c + 1) continue;
        int root = find(parent, x);
        if (root == a) edges |= 1;
        if (root == b) edges |= 2;
    }
    return edges == 3;
}

#include "mcts_tree.h"

/*
 * The bridge save: two stones A, B of colour c a knight's move apart have two common
 * neighbours q, r (8-neighbourhood); in the ortho-diagonal game either joins them, so if
 * the opponent's last stone took q, c answers r (when r is empty, legal for c and A, B are
 * not joined yet). Returns r's padded index, or -1. The offsets (A, B, r) from q are
 * Game.bridge (made in search_new). A policy, not a rule: the tests check it against the
 * plain playouts only through the A/B match; the rules of the playout are unchanged.
 */
static int save_bridge(const GState *s, int q, int c) {
    const Game *g = s->g;
    int16_t *parent = (int16_t *)s->parent[c]; /* find() only compresses paths */
    for (int k = 0; k < g->nbridges; k++) {
        int a = q + g->bridge[k][0], b = q + g->bridge[k][1], r = q + g->bridge[k][2];
        if (s->cell[a] == c + 1 && s->cell[b] == c + 1 && s->cell[r] == EMPTY &&
            find(parent, a) != find(parent, b) && legal_at(s, r, c))
            return r;
    }
    return -1;
}

static int gs_playout(GState *s, u64 *rng, Amaf *amaf) {
    const Game *g = s->g;
    int16_t cand[POINTS];
    int free_points = 0;
    for (int p = 0; p < g->n * g->n; p++)
        if (s->cell[g->pad_of[p]] == EMPTY) cand[free_points++] = (int16_t)p;
    while (s->winner < 0) {
        int c = s->mover;
        if (swap_available(s) && splitmix64(rng) % (u64)(free_points + 1) == 0) {
            amaf_record(amaf, SWAP_CODE, c);
            gs_play(s, SWAP_CODE);
            continue;
        }
        int left = free_points, chosen = -1;
        if (g->knowledge & KNOW_BRIDGE && s->last >= 0 && s->cell[s->last] == 2 - c) {
            int r = save_bridge(s, s->last, c);
            for (int i = 0; r >= 0 && i < free_points; i++)
                if (g->pad_of[cand[i]] == r) chosen = i;
        }
        while (chosen < 0 && left > 0) {
            int i = (int)(splitmix64(rng) % (u64)left);
            if (legal_at(s, g->pad_of[cand[i]], c)) {
                chosen = i;
                break;
            }
            int16_t set_aside = cand[i];
            cand[i] = cand[left - 1];
            cand[left - 1] = set_aside;
            left--;
        }
        if (chosen < 0) {
            int other = 0;
            for (int i = 0; i < free_points && !other; i++)
                other = legal_at(s, g->pad_of[cand[i]], 1 - c);
            if (!other) return 2; /* dead position */
            amaf_record(amaf, PASS_CODE, c);
            gs_play(s, PASS_CODE);
            continue;
        }
        int p = cand[chosen];
        cand[chosen] = cand[--free_points];
        amaf_record(amaf, p, c);
        gs_play(s, p);
    }
    return s->winner;
}

/* -- Python ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Game game;
    MTree *tree;
} SearchObject;

#include "mcts_python.h"

/* a state from (black points, white points, to_move, pie); 0 with an exception set */
static int load_state(const Game *g, GState *s, PyObject *black, PyObject *white, int to_move,
                      int pie) {
    memset(s, 0, sizeof *s);
    s->g = g;
    int n = g->n;
    for (int q = 0; q < PCELLS; q++) s->cell[q] = OFF;
    for (int p = 0; p < n * n; p++) s->cell[g->pad_of[p]] = EMPTY;
    for (int c = 0; c < 2; c++)
        for (int x = 0; x < PCELLS + 2; x++) s->parent[c][x] = (int16_t)x;
    s->winner = -1;
    PyObject *lists[2] = {black, white};
    for (int c = 0; c < 2; c++) {
        PyObject *seq = PySequence_Fast(lists[c], "stones must be a sequence of points");
        if (!seq) return 0;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t k = 0; k < len; k++) {
            long p = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
            if (p == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return 0;
            }
            if (p < 0 || p >= n * n || s->cell[g->pad_of[p]] != EMPTY) {
                Py_DECREF(seq);
                PyErr_Format(PyExc_ValueError, "stone at point %ld: off the board or twice", p);
                return 0;
            }
            place(s, (int)p, c);
        }
        Py_DECREF(seq);
    }
    if (to_move != 0 && to_move != 1) {
        PyErr_SetString(PyExc_ValueError, "to_move must be 0 or 1");
        return 0;
    }
    s->mover = (uint8_t)to_move;
    s->pie = (uint8_t)(pie != 0);
    s->last = -1;
    return 1;
}

/* Search(n, connect8, roles, black, white, to_move, pie, hash_bytes, seed, threads,
          uct_c, rave_bias, fpu, expand_visits, rave, knowledge)
   roles: a list of roles, each a list of (dx, dy, state) with state 0 empty, 1 mover,
   2 opponent */
static PyObject *search_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    int n, connect8, to_move, pie, threads, expand_visits, rave, knowledge;
    PyObject *roles, *black, *white;
    unsigned long long hash_bytes, seed;
    double uct_c, rave_bias, fpu;
    if (!PyArg_ParseTuple(args, "ipOOOipKKidddipi", &n, &connect8, &roles, &black, &white,
                          &to_move, &pie, &hash_bytes, &seed, &threads, &uct_c, &rave_bias,
                          &fpu, &expand_visits, &rave, &knowledge))
        return NULL;
    if (n < 2 || n > MAXN) return PyErr_Format(PyExc_ValueError, "board size must be 2..%d", MAXN);
    if (threads < 1 || threads > MCTS_MAX_THREADS)
        return PyErr_Format(PyExc_ValueError, "threads must be 1..%d", MCTS_MAX_THREADS);
    if (expand_visits < 1) return PyErr_Format(PyExc_ValueError, "expand_visits must be >= 1");
    SearchObject *self = (SearchObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    Game *g = &self->game;
    g->n = n;
    g->connect8 = connect8;
    for (int p = 0; p < n * n; p++) g->pad_of[p] = (int16_t)((p / n + PAD) * W + p % n + PAD);
    static const int DF[8] = {1, -1, 0, 0, 1, 1, -1, -1}, DR[8] = {0, 0, 1, -1, 1, -1, 1, -1};
    for (int k = 0; k < 8; k++) g->nbr[k] = (int16_t)(DR[k] * W + DF[k]);
    g->knowledge = knowledge;
    /* bridges through an intrusion at (0, 0): A, B among its 8 neighbours, a knight's
       move apart; r their other common neighbour */
    g->nbridges = 0;
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++) {
            int ax = DF[i], ay = DR[i], bx = DF[j], by = DR[j];
            int dx = abs(ax - bx), dy = abs(ay - by);
            if (!((dx == 1 && dy == 2) || (dx == 2 && dy == 1))) continue;
            for (int k = 0; k < 8; k++) {
                int rx = DF[k], ry = DR[k];
                if (k == i || k == j || abs(rx - ax) > 1 || abs(ry - ay) > 1 ||
                    abs(rx - bx) > 1 || abs(ry - by) > 1)
                    continue;
                g->bridge[g->nbridges][0] = (int16_t)(ay * W + ax);
                g->bridge[g->nbridges][1] = (int16_t)(by * W + bx);
                g->bridge[g->nbridges][2] = (int16_t)(ry * W + rx);
                g->nbridges++;
            }
        }
    PyObject *seq = PySequence_Fast(roles, "roles must be a sequence");
    if (!seq) goto fail;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > MAX_ROLES) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "at most %d roles", MAX_ROLES);
        goto fail;
    }
    g->nroles = (int)count;
    for (Py_ssize_t r = 0; r < count; r++) {
        PyObject *cells = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, r), "a role is a sequence");
        if (!cells) {
            Py_DECREF(seq);
            goto fail;
        }
        Py_ssize_t len = PySequence_Fast_GET_SIZE(cells);
        Role *role = &g->roles[r];
        role->len = (int)len;
        int ok = len <= ROLE_MAX;
        for (Py_ssize_t k = 0; ok && k < len; k++) {
            int dx, dy, state;
            ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(cells, k), "iii", &dx, &dy, &state) &&
                 dx >= -PAD && dx <= PAD && dy >= -PAD && dy <= PAD && state >= 0 && state <= 2;
            if (!ok) break;
            role->offset[k] = (int16_t)(dy * W + dx);
            for (int c = 0; c < 2; c++)
                role->want[c][k] = (uint8_t)(state == 0 ? EMPTY : state == 1 ? c + 1 : 2 - c);
        }
        Py_DECREF(cells);
        if (!ok) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a role cell is out of range");
            goto fail;
        }
    }
    Py_DECREF(seq);
    GState state;
    if (!load_state(g, &state, black, white, to_move, pie)) goto fail;
    MParams params = {uct_c, rave_bias, fpu, expand_visits, threads, rave};
    self->tree = mcts_new((size_t)hash_bytes, &state, params, (u64)seed);
    if (!self->tree) {
        PyErr_NoMemory();
        goto fail;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* advance(move) -> 1 kept the subtree, 0 restarted */
static PyObject *search_advance(SearchObject *self, PyObject *args) {
    int move;
    if (!PyArg_ParseTuple(args, "i", &move)) return NULL;
    if (!root_move_legal(self, move)) return NULL;
    MTree *t = self->tree;
    int kept = mcts_advance(t, move);
    if (kept < 0) return PyErr_NoMemory();
    return PyLong_FromLong(kept);
}

/* reset(black, white, to_move, pie): a new root, the tree emptied */
static PyObject *search_reset(SearchObject *self, PyObject *args) {
    PyObject *black, *white;
    int to_move, pie;
    if (!PyArg_ParseTuple(args, "OOip", &black, &white, &to_move, &pie)) return NULL;
    GState state;
    if (!load_state(&self->game, &state, black, white, to_move, pie)) return NULL;
    mcts_reset(self->tree, &state);
    Py_RETURN_NONE;
}

/* bridge_reply(point) -> the bridge save (compact point) of the side to move at the root
   after an opponent's stone at ``point``, or -1 (for the tests) */
static PyObject *search_bridge_reply(SearchObject *self, PyObject *args) {
    int point;
    if (!PyArg_ParseTuple(args, "i", &point)) return NULL;
    const GState *s = &self->tree->root_state;
    const Game *g = &self->game;
    if (point < 0 || point >= g->n * g->n) return PyErr_Format(PyExc_ValueError, "no point %d", point);
    int r = save_bridge(s, g->pad_of[point], s->mover);
    for (int p = 0; r >= 0 && p < g->n * g->n; p++)
        if (g->pad_of[p] == r) return PyLong_FromLong(p);
    return PyLong_FromLong(-1);
}

static PyMethodDef SEARCH_METHODS[] = {
    {"bridge_reply", (PyCFunction)search_bridge_reply, METH_VARARGS, "The bridge save."},
    MCTS_COMMON_METHODS,
    {"advance", (PyCFunction)search_advance, METH_VARARGS, "Play a move at the root."},
    {"reset", (PyCFunction)search_reset, METH_VARARGS, "A new root."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SEARCH_TYPE = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "boardproof.models.minefield.native._mcts.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A native MCTS-Solver tree over a Minefield position.",
    .tp_methods = SEARCH_METHODS,
    .tp_new = search_new,
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_mcts", "The native Minefield MCTS engine.", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__mcts(void) {
    if (PyType_Ready(&SEARCH_TYPE) < 0) return NULL;
    PyObject *module = PyModule_Create(&MODULE);
    if (!module) return NULL;
    Py_INCREF(&SEARCH_TYPE);
    if (PyModule_AddObject(module, "Search", (PyObject *)&SEARCH_TYPE) < 0) {
        Py_DECREF(&SEARCH_TYPE);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
