/*
 * A dedicated Carpniches search: move generation, perft and negamax alpha-beta over
 * 36-bit boards, the same search as boardproof.solvers.search.AlphaBeta.
 *
 * The board geometry is not written here: the Python wrapper (boardproof/solvers/native/
 * carpniches.py) hands over the model's step tables (boardproof.models.carpniches.EXACT
 * and FIRST_STEPS: for each square the steps with the mask of the squares strictly
 * between and the landing square), the two masks of its line test and the 8 symmetries
 * as square permutations. The rules that use them (who moves, how far, the opening
 * restrictions, the order of the end-of-game checks) are written here and tested
 * against the model on random positions and perft counts.
 *
 * A position is the model's: o1, o2, o3 (squares whose stack is at least 1, 2, 3 high),
 * l0, l1, l2 (squares whose piece at level 0, 1, 2 is a poodle), the side to move
 * (0 capybaras, 1 poodles) and the opening field (-1: the first player's first move to
 * play, 0..35: the landing square of that move, -2: the first turns are over).
 *
 * Scores are those of search.py: a win d plies after the root is WIN - d, a loss
 * -(WIN - d), a horizon or a repetition 0. A position already on the current path scores
 * 0 and makes every result above it path-dependent: such a result is never stored as
 * exact (a win score is stored as a lower bound, a loss score as an upper bound, anything
 * else not at all), so a proved win never relies on a repetition.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "table_memory.h"

typedef uint64_t u64;

#define SQ 36
#define MAXSTEPS 24
#define MAXMOVES 160
#define MAXPLY 512
#define WIN 1000000
#define WIN_MIN (WIN / 2)
#define INF (10 * WIN)
#define OPENING_FIRST (-1)
#define OPENING_OVER (-2)
enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct { u64 between, tbit; int t; } Step;
typedef struct { u64 o1, o2, o3, l0, l1, l2; int side, opening; } Pos;
typedef struct { uint8_t f, t; } Move;

static Step EX[4][SQ][MAXSTEPS];
static int NEX[4][SQ];
static Step FS[SQ][MAXSTEPS];
static int NFS[SQ];
static u64 START_RIGHT, START_LEFT;
static int READY = 0;

#include "carpniches_symmetry.h" /* PERM, INV, canonical, parse_pos */

/* ---------------------------------------------------------------- rules */

static inline int has_line(u64 t) {
    return ((t & (t >> 1) & (t >> 2) & START_RIGHT) | (t & (t >> 6) & (t >> 12)) |
            (t & (t >> 7) & (t >> 14) & START_RIGHT) | (t & (t >> 5) & (t >> 10) & START_LEFT)) != 0;
}

static inline u64 poodle_tops(const Pos *p) {
    return (p->l0 & ~p->o2) | (p->l1 & ~p->o3) | p->l2;
}

/* The legal moves of the side whose top pieces are `tops`, in the model's order (from
   square ascending, then landing square ascending); with `stop`, only whether one exists. */
static inline int gen_moves(const Pos *p, u64 tops, Move *out, int stop) {
    int n = 0;
    u64 b = tops, o1 = p->o1, o3 = p->o3;
    if (p->opening == OPENING_OVER) {
        while (b) {
            int f = __builtin_ctzll(b);
            u64 low = b & -b;
            b ^= low;
            int h = (o3 & low) ? 3 : (p->o2 & low) ? 2 : 1;
            const Step *s = EX[h][f];
            for (int k = 0, K = NEX[h][f]; k < K; k++) {
                if (!(o1 & s[k].between) && !(o3 & s[k].tbit)) {
                    if (stop) return 1;
                    out[n].f = (uint8_t)f;
                    out[n].t = (uint8_t)s[k].t;
                    n++;
                }
            }
        }
        return n;
    }
    /* first turns: 1, 2 or 3 squares; the second player's first move may not land on,
       or pass over, the first player's landing square */
    u64 forbid = p->opening == OPENING_FIRST ? 0 : (u64)1 << p->opening;
    while (b) {
        int f = __builtin_ctzll(b);
        b &= b - 1;
        const Step *s = FS[f];
        for (int k = 0, K = NFS[f]; k < K; k++) {
            if (!(o1 & s[k].between) && !(o3 & s[k].tbit) && !((s[k].between | s[k].tbit) & forbid)) {
                if (stop) return 1;
                out[n].f = (uint8_t)f;
                out[n].t = (uint8_t)s[k].t;
                n++;
            }
        }
    }
    return n;
}

static inline u64 side_tops(const Pos *p, u64 tp) { return p->side ? tp : p->o1 & ~tp; }

/* The game's end for the side to move: 0 not over, +1 it has won, -1 it has lost.
   rules "End of the game": lines to both players -> the mover (the side not to move)
   loses; a line to one player -> that player wins; else no legal move -> the mover wins. */
static inline int terminal(const Pos *p) {
    u64 tp = poodle_tops(p), tc = p->o1 & ~tp;
    int lc = has_line(tc), lp = has_line(tp);
    if (lc && lp) return 1;
    if (lc) return p->side == 0 ? 1 : -1;
    if (lp) return p->side == 1 ? 1 : -1;
    if (!gen_moves(p, side_tops(p, tp), NULL, 1)) return -1;
    return 0;
}

static inline void play(const Pos *p, Move m, Pos *c) {
    *c = *p;
    u64 fb = (u64)1 << m.f, tb = (u64)1 << m.t;
    if (c->o3 & fb) { c->o3 ^= fb; c->l2 &= ~fb; }
    else if (c->o2 & fb) { c->o2 ^= fb; c->l1 &= ~fb; }
    else { c->o1 ^= fb; c->l0 &= ~fb; }
    if (c->o2 & tb) { c->o3 |= tb; if (p->side) c->l2 |= tb; }
    else if (c->o1 & tb) { c->o2 |= tb; if (p->side) c->l1 |= tb; }
    else { c->o1 |= tb; if (p->side) c->l0 |= tb; }
    c->side = 1 - p->side;
    c->opening = p->opening == OPENING_FIRST ? m.t : OPENING_OVER;
}

static u64 perft(const Pos *p, int depth) {
    u64 tp = poodle_tops(p), tc = p->o1 & ~tp;
    if (has_line(tp) || has_line(tc)) return 0;
    Move moves[MAXMOVES];
    int n = gen_moves(p, p->side ? tp : tc, moves, 0);
    if (depth == 1) return (u64)n;
    u64 total = 0;
    for (int i = 0; i < n; i++) {
        Pos c;
        play(p, moves[i], &c);
        total += perft(&c, depth - 1);
    }
    return total;
}

/* ------------------------------------------------------- transpositions */

/* The exact key of a position: its six boards, side and opening in 4 words. */
static inline Key pack(const Pos *p) { return pack_key(p, 0); }

typedef struct {
    Key key;
    int32_t value, depth;
    uint8_t flag, complete, used, mf, mt, pad[3];
} Entry;

static Entry *TT = NULL;
static u64 TT_MASK = 0;
static int TT_BITS = 0;

static inline Entry *tt_probe(const Key *k, u64 h) {
    Entry *slot = &TT[h & TT_MASK & ~(u64)1];
    for (int i = 0; i < 2; i++)
        if (slot[i].used && key_eq(&slot[i].key, k)) return &slot[i];
    return NULL;
}

/* Two entries a bucket: the same key is overwritten (as the Python table's dict), else
   the first slot keeps the deeper (or complete) result and the second takes the rest. */
static inline void tt_put(const Key *k, u64 h, int depth, int flag, int value, int mf, int mt,
                          int complete) {
    Entry *slot = &TT[h & TT_MASK & ~(u64)1], *e = NULL;
    for (int i = 0; i < 2; i++)
        if (slot[i].used && key_eq(&slot[i].key, k)) { e = &slot[i]; break; }
    if (e == NULL) {
        Entry *a = &slot[0];
        int a_rank = a->used ? (a->complete ? 1 << 30 : a->depth) : -1;
        int n_rank = complete ? 1 << 30 : depth;
        e = n_rank >= a_rank ? a : &slot[1];
        if (e == a && a->used) slot[1] = *a; /* the displaced deep entry takes the other slot */
    }
    e->key = *k;
    e->value = value;
    e->depth = depth;
    e->flag = (uint8_t)flag;
    e->complete = (uint8_t)complete;
    e->used = 1;
    e->mf = (uint8_t)mf;
    e->mt = (uint8_t)mt;
}

static int tt_alloc(int bits) {
    free(TT);
    TT = table_calloc((size_t)1 << bits, sizeof(Entry));
    if (TT == NULL) {
        TT_BITS = 0;
        PyErr_NoMemory();
        return -1;
    }
    TT_BITS = bits;
    TT_MASK = ((u64)1 << bits) - 1;
    return 0;
}

/* ------------------------------------------------------------ the search */

static u64 nodes, horizon, reps, node_limit;
static double deadline;
static int aborted; /* 1 budget, 2 Python error (a signal) */
static Key path[MAXPLY];
static u64 path_hash[MAXPLY];
static int hist[SQ][SQ];
static Move killers[MAXPLY];

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int to_tt(int v, int ply) {
    return v >= WIN_MIN ? v + ply : v <= -WIN_MIN ? v - ply : v;
}
static inline int from_tt(int v, int ply) {
    return v >= WIN_MIN ? v - ply : v <= -WIN_MIN ? v + ply : v;
}

/* set_hook(f): f(nodes, depth) every 2**20 nodes (progress displays); depth: the root's */
#include "progress_hook.h" /* hook_cb and set_hook(f) */
static int hook_depth = 0;

static void check_budget(void) {
    if (node_limit && nodes >= node_limit) aborted = 1;
    if (deadline > 0 && now() >= deadline) aborted = 1;
    if (!(nodes & 0xFFFF) && PyErr_CheckSignals() < 0) aborted = 2;
    if (hook_cb != NULL && !aborted && !(nodes & 0xFFFFF)) {
        PyObject *r = PyObject_CallFunction(hook_cb, "Ki", (unsigned long long)nodes, hook_depth);
        if (r == NULL) aborted = 2;
        else Py_DECREF(r);
    }
}

static int search(const Pos *p, int depth, int alpha, int beta, int ply) {
    nodes++;
    if (!(nodes & 1023)) {
        check_budget();
    }
    if (aborted) return 0;
    int end = terminal(p);
    if (end) return end > 0 ? WIN - ply : -(WIN - ply);
    if (depth <= 0 || ply >= MAXPLY - 1) {
        horizon++;
        return 0;
    }
    Key raw = pack(p);
    u64 raw_hash = hash_key(&raw);
    if (p->opening == OPENING_OVER) {
        for (int i = ply - 2; i >= 0; i -= 2) {
            if (path_hash[i] == raw_hash && key_eq(&path[i], &raw)) {
                reps++;
                return 0;
            }
        }
    }
    Pos cpos;
    int sym = canonical(p, &cpos);
    Key key = raw;
    u64 h = raw_hash;
    if (sym) {
        key = pack(&cpos);
        h = hash_key(&key);
    }
    Entry *entry = tt_probe(&key, h);
    int first_f = -1, first_t = -1;
    if (entry != NULL) {
        if (entry->complete || entry->depth >= depth) {
            int value = from_tt(entry->value, ply);
            if (entry->flag == EXACT || (entry->flag == LOWER && value >= beta) ||
                (entry->flag == UPPER && value <= alpha)) {
                if (!entry->complete) horizon++;
                return value;
            }
        }
        if (entry->mf != entry->mt) {
            first_f = INV[sym][entry->mf];
            first_t = INV[sym][entry->mt];
        }
    }

    Move moves[MAXMOVES];
    Pos kid;
    int score[MAXMOVES];
    u64 tp = poodle_tops(p);
    int n = gen_moves(p, side_tops(p, tp), moves, 0);
    Move killer = killers[ply];
    for (int i = 0; i < n; i++) {
        play(p, moves[i], &kid);
        if (terminal(&kid) < 0) {
            /* win first: an immediate win is the best move there is */
            nodes++;
            int value = WIN - ply - 1;
            tt_put(&key, h, depth, EXACT, to_tt(value, ply), PERM[sym][moves[i].f],
                   PERM[sym][moves[i].t], 1);
            return value;
        }
        int f = moves[i].f, t = moves[i].t;
        int s = hist[f][t];
        if (f == first_f && t == first_t) s = 1 << 30;
        else if (f == killer.f && t == killer.t && f != t) s = 1 << 29;
        score[i] = s;
    }
    /* order: the table's move, the killer, then the history heuristic (stable) */
    int order[MAXMOVES];
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && score[order[j - 1]] < score[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }

    int alpha_orig = alpha;
    u64 reps0 = reps, horizon0 = horizon;
    int best = -INF, best_i = -1;
    path[ply] = raw;
    path_hash[ply] = raw_hash;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        play(p, moves[i], &kid);
        int value = -search(&kid, depth - 1, -beta, -alpha, ply + 1);
        if (aborted) return 0;
        if (value > best) {
            best = value;
            best_i = i;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) {
                    hist[moves[i].f][moves[i].t] += depth * depth;
                    killers[ply] = moves[i];
                    break;
                }
            }
        }
    }
    int flag = best <= alpha_orig ? UPPER : best >= beta ? LOWER : EXACT;
    int path_dependent = reps != reps0;
    int complete = !path_dependent && horizon == horizon0;
    if (path_dependent) {
        /* only a win score (or a loss score) is a true bound here */
        if (best >= WIN_MIN && flag != UPPER) flag = LOWER;
        else if (best <= -WIN_MIN && flag != LOWER) flag = UPPER;
        else return best;
    }
    if ((best >= WIN_MIN || best <= -WIN_MIN) && (flag == EXACT || path_dependent))
        complete = 1; /* a proved win/loss does not depend on the depth */
    tt_put(&key, h, depth, flag, to_tt(best, ply), PERM[sym][moves[best_i].f],
           PERM[sym][moves[best_i].t], complete);
    return best;
}

/* ------------------------------------------------------------- Python API */

/* the position in a call's arguments: f(pos) */
static int parse_args_pos(PyObject *args, Pos *p) {
    PyObject *pos;
    if (!PyArg_ParseTuple(args, "O", &pos)) return -1;
    return parse_pos(pos, p);
}

static int need_ready(void) {
    if (!READY) {
        PyErr_SetString(PyExc_RuntimeError, "setup() was not called");
        return -1;
    }
    return 0;
}

static int read_steps(PyObject *seq, Step *out, int *count) {
    PyObject *fast = PySequence_Fast(seq, "steps: expected a sequence");
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAXSTEPS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many steps");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long between, tbit;
        int t;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "KKi", &between, &tbit, &t) ||
            t < 0 || t >= SQ || tbit != (u64)1 << t) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad step");
            return -1;
        }
        out[i] = (Step){between, tbit, t};
    }
    *count = (int)n;
    Py_DECREF(fast);
    return 0;
}

static PyObject *item(PyObject *seq, Py_ssize_t i) {
    PyObject *x = PySequence_GetItem(seq, i);
    if (x != NULL) Py_DECREF(x); /* borrowed: the sequence keeps it alive */
    return x;
}

PyDoc_STRVAR(setup_doc,
"setup(exact, first, start_right, start_left, perms, tt_bits, symmetry)\n\n"
"exact[h][sq] (h = 1..3) and first[sq]: the model's steps (between, landing bit, landing);\n"
"start_right/start_left: the line-test masks; perms[s][sq]: the 8 symmetries. Allocates a\n"
"table of 2**tt_bits entries and clears the search state.");

static PyObject *py_setup(PyObject *self, PyObject *args) {
    PyObject *exact, *first, *perms;
    unsigned long long right, left;
    int bits, sym;
    if (!PyArg_ParseTuple(args, "OOKKOip", &exact, &first, &right, &left, &perms, &bits, &sym))
        return NULL;
    if (bits < 4 || bits > 30) {
        PyErr_SetString(PyExc_ValueError, "tt_bits: expected 4 to 30");
        return NULL;
    }
    READY = 0;
    for (int h = 1; h <= 3; h++) {
        PyObject *per = item(exact, h);
        if (per == NULL) return NULL;
        for (int sq = 0; sq < SQ; sq++) {
            PyObject *steps = item(per, sq);
            if (steps == NULL || read_steps(steps, EX[h][sq], &NEX[h][sq]) < 0) return NULL;
        }
    }
    for (int sq = 0; sq < SQ; sq++) {
        PyObject *steps = item(first, sq);
        if (steps == NULL || read_steps(steps, FS[sq], &NFS[sq]) < 0) return NULL;
    }
    START_RIGHT = right;
    START_LEFT = left;
    if (read_symmetries(perms) < 0) return NULL;
    SYMMETRY = sym;
    if (tt_alloc(bits) < 0) return NULL;
    memset(hist, 0, sizeof hist);
    memset(killers, 0, sizeof killers);
    nodes = horizon = reps = 0;
    READY = 1;
    Py_RETURN_NONE;
}

static PyObject *py_moves(PyObject *self, PyObject *args) {
    Pos p;
    if (need_ready() < 0 || parse_args_pos(args, &p) < 0) return NULL;
    u64 tp = poodle_tops(&p), tc = p.o1 & ~tp;
    PyObject *out = PyList_New(0);
    if (out == NULL || has_line(tp) || has_line(tc)) return out;
    Move moves[MAXMOVES];
    int n = gen_moves(&p, p.side ? tp : tc, moves, 0);
    for (int i = 0; i < n; i++) {
        PyObject *m = Py_BuildValue("(ii)", moves[i].f, moves[i].t);
        if (m == NULL || PyList_Append(out, m) < 0) {
            Py_XDECREF(m);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(m);
    }
    return out;
}

static PyObject *py_terminal(PyObject *self, PyObject *args) {
    Pos p;
    if (need_ready() < 0 || parse_args_pos(args, &p) < 0) return NULL;
    return PyLong_FromLong(terminal(&p));
}

static PyObject *py_perft(PyObject *self, PyObject *args) {
    Pos p;
    int depth;
    PyObject *pos;
    if (need_ready() < 0 || !PyArg_ParseTuple(args, "Oi", &pos, &depth)) return NULL;
    if (parse_pos(pos, &p) < 0) return NULL;
    if (depth <= 0) return PyLong_FromLong(1);
    return PyLong_FromUnsignedLongLong(perft(&p, depth));
}

static PyObject *py_clear(PyObject *self, PyObject *args) {
    if (need_ready() < 0) return NULL;
    memset(TT, 0, ((size_t)1 << TT_BITS) * sizeof(Entry));
    memset(hist, 0, sizeof hist);
    memset(killers, 0, sizeof killers);
    nodes = horizon = reps = 0;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(search_doc,
"search(pos, depth, alpha, beta, node_limit, seconds) -> (value, status)\n\n"
"The negamax score of the root `pos` (8-tuple) searched `depth` plies in [alpha, beta]\n"
"(search.py's scores). status: 0 done, 1 budget spent (value meaningless). Limits of 0\n"
"mean none. The table and the counters (counters()) are kept between calls.");

static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *pos;
    int depth, alpha, beta;
    unsigned long long limit;
    double seconds;
    Pos p;
    if (need_ready() < 0 ||
        !PyArg_ParseTuple(args, "OiiiKd", &pos, &depth, &alpha, &beta, &limit, &seconds))
        return NULL;
    if (parse_pos(pos, &p) < 0) return NULL;
    node_limit = limit;
    deadline = seconds > 0 ? now() + seconds : 0;
    aborted = 0;
    hook_depth = depth;
    int value = search(&p, depth, alpha, beta, 0);
    if (aborted == 2) return NULL;
    return Py_BuildValue("ii", value, aborted);
}

static PyObject *py_counters(PyObject *self, PyObject *args) {
    return Py_BuildValue("KKK", (unsigned long long)nodes, (unsigned long long)horizon,
                         (unsigned long long)reps);
}

PyDoc_STRVAR(probe_doc,
"probe(pos) -> (depth, flag, value, complete, from, to) or None\n\n"
"The table's entry of `pos` (value node-relative, the move in the position's squares).");

static PyObject *py_probe(PyObject *self, PyObject *args) {
    Pos p, c;
    if (need_ready() < 0 || parse_args_pos(args, &p) < 0) return NULL;
    int sym = canonical(&p, &c);
    Key key = pack(&c);
    Entry *e = tt_probe(&key, hash_key(&key));
    if (e == NULL) Py_RETURN_NONE;
    int f = INV[sym][e->mf], t = INV[sym][e->mt];
    return Py_BuildValue("iiiiii", e->depth, e->flag, e->value, e->complete, f, t);
}

static PyObject *py_stats(PyObject *self, PyObject *args) {
    u64 used = 0;
    if (TT != NULL)
        for (u64 i = 0; i <= TT_MASK; i++) used += TT[i].used;
    return Py_BuildValue("{s:K,s:i,s:K,s:K,s:K}", "tt_used", (unsigned long long)used, "tt_bits",
                         TT_BITS, "nodes", (unsigned long long)nodes, "horizon",
                         (unsigned long long)horizon, "repetitions", (unsigned long long)reps);
}

PyDoc_STRVAR(set_hook_doc,
"set_hook(f): call f(nodes, depth) every 2**20 nodes of search() (nodes: the counter\n"
"of counters(), depth: the root's); None removes it. An exception raised by f stops the\n"
"search and is raised by it. The hook never changes what is searched.");

static PyMethodDef methods[] = {
    {"setup", py_setup, METH_VARARGS, setup_doc},
    {"set_hook", py_set_hook, METH_O, set_hook_doc},
    {"moves", py_moves, METH_VARARGS, "moves(pos) -> [(from, to)] in the model's order."},
    {"terminal", py_terminal, METH_VARARGS,
     "terminal(pos) -> 0 not over, 1 the side to move has won, -1 it has lost."},
    {"perft", py_perft, METH_VARARGS, "perft(pos, depth) -> leaves of the move tree."},
    {"clear", py_clear, METH_NOARGS, "Clear the table, the move-ordering state and counters."},
    {"search", py_search, METH_VARARGS, search_doc},
    {"counters", py_counters, METH_NOARGS, "(nodes, horizon hits, repetitions) so far."},
    {"probe", py_probe, METH_VARARGS, probe_doc},
    {"stats", py_stats, METH_NOARGS, "Counters and the table's fill (a scan of the table)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_carpniches",
    "Native Carpniches search (see boardproof.models.carpniches.native).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__carpniches(void) { return PyModule_Create(&module); }
