/*
 * Native random playouts for Minefield (every size 2..26), for the MCTS of
 * boardproof/solvers/mcts.py.
 *
 * The rules are not written here: the Python wrapper (boardproof/solvers/playouts.py)
 * hands over, per board size, the glyph "roles" of every point (generated from
 * boardproof.models.minefield.board.glyph_roles: the other cells of a forbidden window
 * and the state each must have, mover / opponent / empty). This file only plays.
 *
 * A playout is the exact twin of playouts.reference_minefield: the same splitmix64
 * generator, one draw per ply, the move ``moves[draw % len(moves)]`` of the model's
 * canonical order (placements by compact point r * n + f, then swap; or pass alone),
 * the same pie rule, pass, dead-position and ply-limit handling. So a seeded playout gives
 * the identical move sequence and result in C and in Python; the tests check it.
 *
 * Points are compact (p = rank * n + file, a1 = 0). The legal points of both colours are
 * bitsets kept up to date incrementally: each colour counts, per point, its complete roles
 * (a placement there would form a glyph), and a placement at p only re-checks the roles
 * through p. Each colour's groups are a union-find with two virtual nodes for its edges,
 * so a win test is two finds.
 *
 * Roles by the mover's colour (issue 30, the cartwheel: its points just beyond the board
 * are stones of the edge's owner, so near the edges its roles differ by colour): a role
 * that holds for one colour only has one more cell, the gate GATE (a cell off the board
 * that always holds GATE_VALUE), with the state ST_BLACK_ONLY or ST_WHITE_ONLY, which
 * wants GATE_VALUE for that colour as the mover and an impossible value for the other. So
 * the test of a role is the same loop for every set (the standard and pinwheel roles have
 * no gate: the same data and speed as before), and the gate never changes (no hit).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "playout_common.h"

#define MAXN 26
#define MAXCELLS (MAXN * MAXN)
#define WORDS ((MAXCELLS + 63) / 64)
#define ROLE_CELLS 11 /* the largest window (the pinwheel's 2x2 block and its ring of 8)
                          has 12 cells: 11 besides the new stone */
#define GUARD 3
#define BOARD_BYTES 96 /* a board handed over as little-endian bytes of 12 words */
#define MAXROLES (MAXCELLS * 40) /* at most 28 roles a point (standard, pinwheel) */

enum { ST_EMPTY = 0, ST_MOVER = 1, ST_OTHER = 2, ST_BLACK_ONLY = 3, ST_WHITE_ONLY = 4 };
#define GATE MAXCELLS /* the gate cell (see the top) */
#define GATE_VALUE 3
/* results */
enum { R_BLACK = 0, R_WHITE = 1, R_DRAW = 2, R_LIMIT = 3 };
/* move codes in a trace */
#define SWAP_MOVE (-1)
#define PASS_MOVE (-2)

typedef struct {
    int16_t cell[ROLE_CELLS];
    uint8_t state[ROLE_CELLS];
    uint8_t len;
} Role;

typedef struct {
    int n, cells;
    int *role_start; /* roles of point p: roles[role_start[p] .. role_start[p + 1]) */
    Role *roles;
    int *role_owner;  /* the point whose role k is */
    int *hit_start;   /* the roles that contain p: hit[hit_start[p] .. hit_start[p + 1]) */
    int *hit_role;    /* ... their index k */
    uint8_t *hit_state; /* ... and the state they need at p */
    int16_t *nbr; /* 8 neighbours of p (orthogonal first), -1 off the board */
} Tables;

static Tables *TABLES[MAXN + 1];

/* -- the board of one playout ------------------------------------------------------- */

typedef struct {
    const Tables *t;
    uint8_t cell[MAXCELLS + 1]; /* 0 empty, 1 black, 2 white; cell[GATE] = GATE_VALUE */
    u64 legal[2][WORDS];
    int count[2];  /* legal points per colour */
    int stones[2]; /* stones per colour */
    /* matched[c][k]: role k is complete for colour c as the mover (placing its point
       would form a glyph); blocked[c][p]: how many roles of p are complete for c */
    uint8_t matched[2][MAXROLES];
    uint16_t blocked[2][MAXCELLS];
    int parent[2][MAXCELLS + 2]; /* union-find; cells .. cells + 1 are the two edges */
} Board;

static Board BOARD; /* the one board of a playout (the GIL is held throughout) */

static int find(int *parent, int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void unite(int *parent, int a, int b) {
    a = find(parent, a);
    b = find(parent, b);
    if (a != b) parent[a] = b;
}

/* is role k complete for colour c (0 black, 1 white) as the mover? */
static inline int role_matches(const Board *b, int k, int c) {
    const Role *r = &b->t->roles[k];
    static const uint8_t WANT[2][5] = {{0, 1, 2, GATE_VALUE, 0xFF}, {0, 2, 1, 0xFF, GATE_VALUE}};
    const uint8_t *want = WANT[c]; /* the cell value each state needs (c the mover) */
    for (int j = 0; j < r->len; j++)
        if (b->cell[r->cell[j]] != want[r->state[j]]) return 0;
    return 1;
}

static inline void set_legal(Board *b, int c, int p, int value) {
    u64 mask = (u64)1 << (p & 63);
    int had = (b->legal[c][p >> 6] & mask) != 0;
    if (had == value) return;
    b->legal[c][p >> 6] ^= mask;
    b->count[c] += value ? 1 : -1;
}

static inline void set_matched(Board *b, int c, int k, int value) {
    if (b->matched[c][k] == value) return;
    b->matched[c][k] = (uint8_t)value;
    int q = b->t->role_owner[k];
    b->blocked[c][q] += value ? 1 : -1;
    if (!b->cell[q]) set_legal(b, c, q, b->blocked[c][q] == 0);
}

/* join the stone at p (colour c) to its own neighbours and edges */
static void join_stone(Board *b, int p, int c, int diagonal) {
    const Tables *t = b->t;
    int n = t->n, r = p / n, f = p % n;
    int *parent = b->parent[c];
    for (int k = 0; k < (diagonal ? 8 : 4); k++) {
        int q = t->nbr[8 * p + k];
        if (q >= 0 && b->cell[q] == c + 1) unite(parent, p, q);
    }
    int first = c == 0 ? r == 0 : f == 0;
    int second = c == 0 ? r == n - 1 : f == n - 1;
    if (first) unite(parent, p, t->cells);
    if (second) unite(parent, p, t->cells + 1);
}

static inline int connected(Board *b, int c) {
    int *parent = b->parent[c];
    return find(parent, b->t->cells) == find(parent, b->t->cells + 1);
}

static void load(Board *b, const Tables *t, const uint8_t *black, const uint8_t *white,
                 int diagonal) {
    int n = t->n, width = n + GUARD, cells = t->cells;
    b->t = t;
    memset(b->legal, 0, sizeof b->legal);
    b->cell[GATE] = GATE_VALUE; /* the gate of the roles of one colour (see the top) */
    b->count[0] = b->count[1] = b->stones[0] = b->stones[1] = 0;
    for (int p = 0; p < cells; p++) {
        int bit = (p / n) * width + p % n;
        int is_b = black[bit >> 3] >> (bit & 7) & 1, is_w = white[bit >> 3] >> (bit & 7) & 1;
        b->cell[p] = is_b ? 1 : is_w ? 2 : 0;
        if (b->cell[p]) b->stones[b->cell[p] - 1]++;
    }
    for (int c = 0; c < 2; c++)
        for (int x = 0; x < cells + 2; x++) b->parent[c][x] = x;
    for (int p = 0; p < cells; p++) {
        if (b->cell[p]) join_stone(b, p, b->cell[p] - 1, diagonal);
        for (int c = 0; c < 2; c++) {
            int blocked = 0;
            for (int k = t->role_start[p]; k < t->role_start[p + 1]; k++) {
                int m = role_matches(b, k, c);
                b->matched[c][k] = (uint8_t)m;
                blocked += m;
            }
            b->blocked[c][p] = (uint16_t)blocked;
            if (!b->cell[p] && !blocked) set_legal(b, c, p, 1);
        }
    }
}

static void place(Board *b, int p, int c, int diagonal) {
    const Tables *t = b->t;
    b->cell[p] = (uint8_t)(c + 1);
    b->stones[c]++;
    set_legal(b, 0, p, 0);
    set_legal(b, 1, p, 0);
    /* only the roles through p change: one that needed p empty is broken for both
       colours; one that needed a stone there was incomplete, and may now be complete for
       the colour whose mover (ST_MOVER) or opponent (ST_OTHER) that stone is */
    for (int h = t->hit_start[p]; h < t->hit_start[p + 1]; h++) {
        int k = t->hit_role[h], state = t->hit_state[h];
        if (state == ST_EMPTY) {
            set_matched(b, 0, k, 0);
            set_matched(b, 1, k, 0);
        } else {
            int d = state == ST_MOVER ? c : 1 - c;
            set_matched(b, d, k, role_matches(b, k, d));
        }
    }
    join_stone(b, p, c, diagonal);
}

/* the k-th legal point of colour c (k < count[c]), in compact order */
static int kth_legal(const Board *b, int c, int k) {
    for (int w = 0; w < WORDS; w++) {
        u64 word = b->legal[c][w];
        int here = __builtin_popcountll(word);
        if (k < here) {
            while (k--) word &= word - 1;
            return 64 * w + __builtin_ctzll(word);
        }
        k -= here;
    }
    return -1; /* not reached */
}

/*
 * One playout from the board ``b`` with ``mover`` to move. Returns R_BLACK / R_WHITE (that
 * colour connected its edges), R_DRAW (a dead position) or R_LIMIT (``limit`` plies
 * without an end); ``*plies`` gets the plies played, ``trace`` (when not NULL, room for
 * ``limit`` moves) the moves: compact points, SWAP_MOVE, PASS_MOVE.
 */
static int playout(Board *b, int mover, int pie, int diagonal, u64 seed, int limit, int *plies,
                   int *trace) {
    int done = 0;
    int result = R_LIMIT;
    while (done < limit) {
        int me = mover, op = 1 - mover;
        int swap = pie && b->stones[me] == 0 && b->stones[op] == 1;
        int options = b->count[me] + swap;
        if (options == 0 && b->count[op] == 0) {
            result = R_DRAW;
            break;
        }
        /* one draw per ply, the lone pass too (as in Python) */
        u64 draw = splitmix64(&seed);
        int choice = options ? (int)(draw % (u64)options) : 0;
        int move;
        if (options == 0) {
            move = PASS_MOVE;
            mover = op;
            pie = 0;
        } else if (choice == b->count[me]) {
            move = SWAP_MOVE;
            pie = 0;
        } else {
            move = kth_legal(b, me, choice);
            pie = pie && b->stones[0] + b->stones[1] == 0;
            place(b, move, me, diagonal);
            mover = op;
        }
        if (trace) trace[done] = move;
        done++;
        if (move >= 0 && connected(b, me)) {
            result = me;
            break;
        }
    }
    *plies = done;
    return result;
}

/* -- tables ------------------------------------------------------------------------- */

static void free_tables(Tables *t) {
    if (!t) return;
    free(t->role_start);
    free(t->roles);
    free(t->role_owner);
    free(t->hit_start);
    free(t->hit_role);
    free(t->hit_state);
    free(t->nbr);
    free(t);
}

/* setup(n, role_start: bytes of int32 (cells + 1), roles: bytes of (int16 cell[11],
   uint8 state[11], uint8 len) records; a cell GATE with ST_BLACK_ONLY / ST_WHITE_ONLY:
   a role of one colour) */
static PyObject *py_setup(PyObject *self, PyObject *args) {
    int n;
    Py_buffer starts, roles;
    if (!PyArg_ParseTuple(args, "iy*y*", &n, &starts, &roles)) return NULL;
    PyObject *result = NULL;
    Tables *t = NULL;
    int cells = n * n;
    if (n < 2 || n > MAXN) {
        PyErr_Format(PyExc_ValueError, "board size must be 2..%d, got %d", MAXN, n);
        goto done;
    }
    if (starts.len != (Py_ssize_t)sizeof(int32_t) * (cells + 1)) {
        PyErr_SetString(PyExc_ValueError, "role_start has the wrong length");
        goto done;
    }
    const int32_t *start = starts.buf;
    Py_ssize_t count = start[cells];
    if (count < 0 || roles.len != (Py_ssize_t)(sizeof(int16_t) * ROLE_CELLS + ROLE_CELLS + 1) * count) {
        PyErr_SetString(PyExc_ValueError, "roles has the wrong length");
        goto done;
    }
    t = calloc(1, sizeof *t);
    if (!t) goto oom;
    t->n = n;
    t->cells = cells;
    t->role_start = malloc(sizeof(int) * (cells + 1));
    t->roles = malloc(sizeof(Role) * (count ? count : 1));
    t->nbr = malloc(sizeof(int16_t) * 8 * cells);
    if (!t->role_start || !t->roles || !t->nbr) goto oom;
    const uint8_t *raw = roles.buf;
    for (int p = 0; p <= cells; p++) t->role_start[p] = start[p];
    for (Py_ssize_t k = 0; k < count; k++) {
        Role *r = &t->roles[k];
        memcpy(r->cell, raw, sizeof(int16_t) * ROLE_CELLS);
        raw += sizeof(int16_t) * ROLE_CELLS;
        memcpy(r->state, raw, ROLE_CELLS);
        raw += ROLE_CELLS;
        r->len = *raw++;
        if (r->len > ROLE_CELLS) {
            PyErr_SetString(PyExc_ValueError, "a role has too many cells");
            goto done;
        }
        for (int j = 0; j < r->len; j++) {
            int gate = r->cell[j] == GATE && r->state[j] >= ST_BLACK_ONLY && r->state[j] <= ST_WHITE_ONLY;
            if (!gate && (r->cell[j] < 0 || r->cell[j] >= cells || r->state[j] > ST_OTHER)) {
                PyErr_SetString(PyExc_ValueError, "a role names a point off the board");
                goto done;
            }
        }
    }
    if (count > MAXROLES) {
        PyErr_SetString(PyExc_ValueError, "too many roles");
        goto done;
    }
    /* role_owner, and hit[p]: the roles through p with the state they need there */
    t->role_owner = malloc(sizeof(int) * (count ? count : 1));
    t->hit_start = calloc(cells + 1, sizeof(int));
    if (!t->role_owner || !t->hit_start) goto oom;
    for (int q = 0; q < cells; q++) {
        for (int k = t->role_start[q]; k < t->role_start[q + 1]; k++) {
            t->role_owner[k] = q;
            for (int j = 0; j < t->roles[k].len; j++)
                if (t->roles[k].cell[j] != GATE) t->hit_start[t->roles[k].cell[j] + 1]++;
        }
    }
    for (int p = 0; p < cells; p++) t->hit_start[p + 1] += t->hit_start[p];
    int total = t->hit_start[cells];
    t->hit_role = malloc(sizeof(int) * (total ? total : 1));
    t->hit_state = malloc(total ? total : 1);
    int *fill = calloc(cells, sizeof(int));
    if (!t->hit_role || !t->hit_state || !fill) {
        free(fill);
        goto oom;
    }
    for (int k = 0; k < count; k++) {
        for (int j = 0; j < t->roles[k].len; j++) {
            int p = t->roles[k].cell[j];
            if (p == GATE) continue; /* never changes */
            int at = t->hit_start[p] + fill[p]++;
            t->hit_role[at] = k;
            t->hit_state[at] = t->roles[k].state[j];
        }
    }
    free(fill);
    static const int DF[8] = {1, -1, 0, 0, 1, 1, -1, -1}, DR[8] = {0, 0, 1, -1, 1, -1, 1, -1};
    for (int p = 0; p < cells; p++) {
        int r = p / n, f = p % n;
        for (int k = 0; k < 8; k++) {
            int g = f + DF[k], q = r + DR[k];
            t->nbr[8 * p + k] = (int16_t)((g >= 0 && g < n && q >= 0 && q < n) ? q * n + g : -1);
        }
    }
    free_tables(TABLES[n]);
    TABLES[n] = t;
    t = NULL;
    result = Py_None;
    Py_INCREF(result);
    goto done;
oom:
    PyErr_NoMemory();
done:
    free_tables(t);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&roles);
    return result;
}

static PyObject *py_ready(PyObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i", &n)) return NULL;
    return PyBool_FromLong(n >= 2 && n <= MAXN && TABLES[n] != NULL);
}

/* playout(n, diagonal, black: bytes, white: bytes, to_move, pie, seed, limit, trace=False)
   -> (result, plies) or (result, plies, [moves]) */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    int n, diagonal, to_move, pie, limit, want_trace = 0;
    unsigned long long seed;
    Py_buffer black, white;
    if (!PyArg_ParseTuple(args, "ipy*y*ipKi|p", &n, &diagonal, &black, &white, &to_move, &pie,
                          &seed, &limit, &want_trace))
        return NULL;
    PyObject *result = NULL;
    int *trace = NULL;
    if (n < 2 || n > MAXN || !TABLES[n]) {
        PyErr_Format(PyExc_ValueError, "no playout tables for size %d (call setup)", n);
        goto done;
    }
    if (black.len != BOARD_BYTES || white.len != BOARD_BYTES) {
        PyErr_Format(PyExc_ValueError, "a board is %d bytes", BOARD_BYTES);
        goto done;
    }
    if ((to_move != 0 && to_move != 1) || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "to_move must be 0 or 1, limit >= 0");
        goto done;
    }
    Board *board = &BOARD;
    load(board, TABLES[n], black.buf, white.buf, diagonal);
    if (want_trace && !(trace = trace_buffer(limit))) goto done;
    int plies = 0;
    int code = playout(board, to_move, pie, diagonal, (u64)seed, limit, &plies, trace);
    result = playout_result(code, plies, trace);
done:
    PyMem_Free(trace);
    PyBuffer_Release(&black);
    PyBuffer_Release(&white);
    return result;
}

static PyObject *py_splitmix64(PyObject *self, PyObject *args) {
    unsigned long long state;
    if (!PyArg_ParseTuple(args, "K", &state)) return NULL;
    u64 s = state;
    u64 out = splitmix64(&s);
    return Py_BuildValue("KK", (unsigned long long)s, (unsigned long long)out);
}

static PyMethodDef METHODS[] = {
    {"setup", py_setup, METH_VARARGS, "Install the glyph roles of one board size."},
    {"ready", py_ready, METH_VARARGS, "Whether the tables of a board size are installed."},
    {"playout", py_playout, METH_VARARGS, "One seeded random playout."},
    {"splitmix64", py_splitmix64, METH_VARARGS, "One step of splitmix64: (state, output)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_playout", "Native Minefield playouts.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__playout(void) { return PyModule_Create(&MODULE); }
