/*
 * A native depth-first proof-number search (df-pn, Nagai 2002) for Carpniches with a ply
 * bound: does the attacker (capybaras or poodles) win within N plies from a position?
 *
 * The rules are carpniches_state.h's (shared with the playouts and the MCTS; the Python
 * wrapper, dfpn.py, hands over the model's step tables and line masks through ``setup``)
 * and the 8 board symmetries are handed over as square permutations (``set_symmetry``).
 *
 * The search. A node is a position with r plies left. An attacker's node (OR) is proved
 * when one child is, a defender's node (AND) when every child is; pn/dn are the usual
 * proof and disproof numbers (OR: pn = min, dn = sum; AND: pn = sum, dn = min), a new
 * leaf gets 1 and its number of moves (an OR leaf dn, an AND leaf pn; 1/1 with
 * set_init(False)), and the most-proving child is searched with the thresholds of Nagai's
 * MID (with the 1 + 1/4 trick of Pawlewicz and Lew on the second-best child). A child
 * that ends the game is proved (attacker wins) or disproved (defender wins); a child
 * that does not, with no ply left, is disproved. An immediate win ends a node at once.
 *
 * The table. One entry per position up to the 8 symmetries (and per attacker) holds
 * exact knowledge and a heuristic. Exact: ``plen``, the length of the shortest proof
 * found (a win within plen plies, valid for every bound >= plen), and ``dis``, one more
 * than the largest bound r with a disproof (no win within r, valid for every bound <=
 * r). Heuristic: pn/dn of the last unfinished search and its bound ``work_r`` (used only
 * at that same bound). Proof lengths are computed bottom-up (OR: 1 + the proved child's
 * length, AND: 1 + the longest child proof), so the proof tree read from the table
 * (dfpn.py, proof_tree) has strictly decreasing bounds along every edge: it is acyclic.
 *
 * Repetitions (the graph-history interaction). A position already on the current path
 * (same side to move, compared exactly) counts as "not a win" for the attacker: it is
 * disproved, and the disproof carries ``rep``, the ply of the repeated ancestor. Going
 * up, a disproof's ``rep`` is the smallest rep it used (OR: all children; AND: the
 * disproved child chosen, preferring one without a repetition). Such a disproof depends
 * on the path, so it is kept only in the parent's child list for the parent's current
 * search (the path above is fixed there) and is *never* stored in the table: the table
 * holds only path-independent knowledge. The one exception is sound: when rep equals the
 * node's own ply (the only repetitions are of the node itself), the disproof is exact.
 * Why: with a ply bound, if the attacker wins within r from P it has a strategy that
 * always moves to a position with a strictly shorter forced win, and every defender
 * reply keeps it strictly shorter, so along every line of that strategy the win
 * distance strictly decreases and no position (P in particular) comes back; counting a
 * return to P as a loss removes no win. Proofs never depend on the path (a repeated
 * child is disproved, so it is never part of a proof) and are always stored. The answer
 * at the root is therefore exact: "proved" is a real win within N (the proof tree is
 * re-checked by the rules-only checker), "disproved" means no forced win within N, the
 * same answer as the native alpha-beta's win-within-N (the tests compare them).
 *
 * ``set_mutation(k)`` breaks the search on purpose (the tests' mutation check):
 * 1 a repetition counts as a win for the attacker, 2 the ply bound is one more than asked,
 * 3 a path-dependent disproof is stored in the table as exact.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "playout_common.h" /* u64 */
#include "carpniches_state.h"
#include "carpniches_symmetry.h" /* PERM, INV, canonical, parse_pos */
#include "table_memory.h"
#include "progress_hook.h" /* hook_cb and set_hook(f) */

#define PN_INF 0x3FFFFFFFu
#define NO_PROOF 255
#define MAX_BOUND 250 /* the largest ply bound (plen and dis fit in a byte) */
#define D_ALL 254    /* a disproof for every bound (the defender wins at once) */
#define MAXPLY (MAX_BOUND + 2)
#define REP_NONE 32767

typedef struct {
    Key key;
    uint32_t pn, dn, work;
    uint8_t plen, dis, work_r, mf, mt, used, pad[2];
} Entry;

typedef struct {
    uint32_t pn, dn;
    int plen;  /* proved: the proof's length */
    int dis;   /* disproved: no win within dis plies */
    int rep;   /* disproved through a repetition of the ancestor at this ply, or REP_NONE */
} Val;

typedef struct {
    Pos pos;
    Key key;
    u64 hash;
    Val v;
    int f, t;
} Child;

static int SYM_READY = 0, ATTACKER = 0, MUTATION = 0;
static Entry *TT = NULL;
static u64 TT_MASK = 0;
static int TT_BITS = 0;
static Pos PATH[MAXPLY];
static Child KIDS[MAXPLY][MAXMOVES];
static u64 nodes, generated, reps, node_limit;
static double deadline;
static int aborted; /* 1 budget, 2 Python error (a signal, the hook) */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- the rules */

/* the winner of a finished game (rules "End of the game": lines to both -> the mover,
   the side not to move, loses; a line -> its owner wins; no legal move for the side to
   move -> the mover wins), or -1 while it goes on */
static inline int winner_of(const Pos *p) {
    int w = line_winner(p);
    if (w >= 0) return w;
    u64 tp = poodle_tops(p);
    if (!has_move(p, p->side ? tp : p->o1 & ~tp)) return 1 - p->side;
    return -1;
}

/* ------------------------------------------------------------- symmetries, keys */

static inline int pos_eq(const Pos *a, const Pos *b) {
    return a->o1 == b->o1 && a->o2 == b->o2 && a->o3 == b->o3 && a->l0 == b->l0 &&
           a->l1 == b->l1 && a->l2 == b->l2 && a->side == b->side && a->opening == b->opening;
}

/* the exact key of a canonical position and the attacker: six boards, side, opening */
static inline Key pack(const Pos *p) { return pack_key(p, ATTACKER); }

/* the key and hash of p's class, and the symmetry taking p to its canonical image */
static inline int key_of(const Pos *p, Key *key, u64 *hash) {
    Pos c;
    int s = canonical(p, &c);
    *key = pack(&c);
    *hash = hash_key(key);
    return s;
}

/* ------------------------------------------------------------------ the table */

static inline Entry *tt_probe(const Key *k, u64 h) {
    Entry *slot = &TT[h & TT_MASK & ~(u64)1];
    for (int i = 0; i < 2; i++)
        if (slot[i].used && key_eq(&slot[i].key, k)) return &slot[i];
    return NULL;
}

/* the entry of k, made if missing: two a bucket, the one with less work gives way */
static inline Entry *tt_slot(const Key *k, u64 h) {
    Entry *slot = &TT[h & TT_MASK & ~(u64)1];
    for (int i = 0; i < 2; i++)
        if (slot[i].used && key_eq(&slot[i].key, k)) return &slot[i];
    Entry *e = !slot[0].used ? &slot[0] : !slot[1].used ? &slot[1]
             : slot[0].work <= slot[1].work ? &slot[0] : &slot[1];
    memset(e, 0, sizeof *e);
    e->key = *k;
    e->plen = NO_PROOF;
    e->used = 1;
    return e;
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

static inline uint32_t sat_add(uint32_t a, uint32_t b) {
    uint64_t s = (uint64_t)a + b;
    return s >= PN_INF - 1 ? PN_INF - 1 : (uint32_t)s;
}

/* ------------------------------------------------------------------ the search */

static void check_budget(void) {
    if (node_limit && nodes >= node_limit) aborted = 1;
    if (deadline > 0 && now() >= deadline) aborted = 1;
    if (!(nodes & 0xFFFF) && PyErr_CheckSignals() < 0) aborted = 2;
    if (hook_cb != NULL && !aborted && !(nodes & 0xFFFFF)) {
        PyObject *r = PyObject_CallFunction(hook_cb, "Ki", (unsigned long long)nodes, 0);
        if (r == NULL) aborted = 2;
        else Py_DECREF(r);
    }
}

static inline Val proved(int plen) { return (Val){0, PN_INF, plen, -1, REP_NONE}; }
static inline Val disproved(int dis, int rep) { return (Val){PN_INF, 0, NO_PROOF, dis, rep}; }

static int INIT = 1;

/* the numbers of a new leaf: by its mobility (INIT, the default), or 1/1: an attacker's node needs
   every move refuted (dn = moves), a defender's node every move answered (pn = moves) */
static inline Val fresh(const Pos *p) {
    if (!INIT) return (Val){1, 1, NO_PROOF, -1, REP_NONE};
    int moves[MAXMOVES];
    u64 tp = poodle_tops(p);
    uint32_t n = (uint32_t)gen_moves(p, p->side ? tp : p->o1 & ~tp, moves);
    if (p->side == ATTACKER) return (Val){1, n, NO_PROOF, -1, REP_NONE};
    return (Val){n, 1, NO_PROOF, -1, REP_NONE};
}

/* what the table says of a child p with r plies left (a fresh leaf when nothing) */
static inline Val lookup(const Pos *p, const Key *k, u64 h, int r) {
    Entry *e = tt_probe(k, h);
    if (e != NULL) {
        if (e->plen <= r) return proved(e->plen);
        if (e->dis > r) return disproved(e->dis - 1, REP_NONE);
        if (e->work_r == r) return (Val){e->pn, e->dn, NO_PROOF, -1, REP_NONE};
    }
    return fresh(p);
}

/* MID: search p (not over, r >= 1 plies left, at ply `ply` of the path) until it is
   proved or disproved or its pn reaches thpn or its dn thdn; its key k/h */
static void mid(const Pos *p, const Key *k, u64 h, int r, int ply, uint32_t thpn,
                uint32_t thdn, Val *out) {
    u64 start = nodes++;
    if (!(nodes & 1023)) check_budget();
    if (aborted) return;
    const int or_node = p->side == ATTACKER;
    PATH[ply] = *p;
    Child *kids = KIDS[ply];
    int moves[MAXMOVES];
    u64 tp = poodle_tops(p);
    int n = gen_moves(p, p->side ? tp : p->o1 & ~tp, moves);
    Entry *e;
    for (int i = 0; i < n; i++) {
        Child *c = &kids[i];
        c->pos = *p;
        c->f = moves[i] >> 8;
        c->t = moves[i] & 255;
        apply(&c->pos, c->f, c->t);
        generated++;
        int w = winner_of(&c->pos);
        if (w >= 0 && (w == ATTACKER) == or_node) {
            /* an immediate win for the side to move ends the node */
            Val v = or_node ? proved(1) : disproved(D_ALL, REP_NONE);
            e = tt_slot(k, h);
            if (or_node) {
                e->plen = 1;
                int s = key_of(p, &c->key, &c->hash); /* the move in canonical squares */
                e->mf = (uint8_t)PERM[s][c->f];
                e->mt = (uint8_t)PERM[s][c->t];
            } else {
                e->dis = D_ALL + 1;
            }
            e->work = e->work > 1 ? e->work : 1;
            *out = v;
            return;
        }
        if (w >= 0) {
            c->v = w == ATTACKER ? proved(0) : disproved(D_ALL, REP_NONE);
            continue;
        }
        if (r - 1 <= 0) {
            c->v = disproved(0, REP_NONE);
            continue;
        }
        int rep = -1;
        if (c->pos.opening == OPENING_OVER)
            for (int j = ply - 1; j >= 0; j -= 2)
                if (pos_eq(&PATH[j], &c->pos)) {
                    rep = j;
                    break;
                }
        if (rep >= 0) {
            reps++;
            c->v = MUTATION == 1 ? proved(0) : disproved(r - 1, rep);
            continue;
        }
        key_of(&c->pos, &c->key, &c->hash);
        c->v = lookup(&c->pos, &c->key, c->hash, r - 1);
    }

    uint32_t pn = 0, dn = 0;
    for (;;) {
        /* this node's numbers; the most proving child and the second best */
        int best = -1;
        uint32_t b1 = PN_INF + 1, b2 = PN_INF + 1;
        pn = or_node ? PN_INF : 0;
        dn = or_node ? 0 : PN_INF;
        for (int i = 0; i < n; i++) {
            const Val *v = &kids[i].v;
            uint32_t x = or_node ? v->pn : v->dn;
            if (or_node) {
                if (v->pn < pn) pn = v->pn;
                dn = v->dn == PN_INF || dn == PN_INF ? PN_INF : sat_add(dn, v->dn);
            } else {
                if (v->dn < dn) dn = v->dn;
                pn = v->pn == PN_INF || pn == PN_INF ? PN_INF : sat_add(pn, v->pn);
            }
            if (x < b1) {
                b2 = b1;
                b1 = x;
                best = i;
            } else if (x < b2) {
                b2 = x;
            }
        }
        if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || aborted) break;
        Child *c = &kids[best];
        uint32_t second = b2 >= PN_INF ? PN_INF : b2 + b2 / 4 + 1;
        uint32_t cpn, cdn;
        if (or_node) {
            cpn = thpn < second ? thpn : second;
            cdn = c->v.dn == PN_INF ? PN_INF : sat_add(thdn - dn, c->v.dn);
        } else {
            cdn = thdn < second ? thdn : second;
            cpn = c->v.pn == PN_INF ? PN_INF : sat_add(thpn - pn, c->v.pn);
        }
        mid(&c->pos, &c->key, c->hash, r - 1, ply + 1, cpn, cdn, &c->v);
    }
    if (aborted) return;

    Val v = {pn, dn, NO_PROOF, -1, REP_NONE};
    e = tt_slot(k, h);
    if (pn == 0) {
        /* OR: the shortest proved child; AND: the longest child proof */
        int len = or_node ? NO_PROOF : 0, pick = -1;
        for (int i = 0; i < n; i++) {
            const Val *cv = &kids[i].v;
            if (cv->pn != 0) continue;
            if (or_node ? cv->plen < len : cv->plen > len) {
                len = cv->plen;
                pick = i;
            }
        }
        v.plen = len + 1;
        if (v.plen < e->plen) {
            e->plen = (uint8_t)v.plen;
            if (or_node) {
                Pos c;
                int s = canonical(p, &c);
                e->mf = (uint8_t)PERM[s][kids[pick].f];
                e->mt = (uint8_t)PERM[s][kids[pick].t];
            }
        }
    } else if (dn == 0) {
        /* OR: every child is disproved; AND: the disproved child that depends least on
           the path (no repetition, else the deepest repeated ancestor), the widest */
        int dis = or_node ? D_ALL : -1, rep = or_node ? REP_NONE : -1;
        for (int i = 0; i < n; i++) {
            const Val *cv = &kids[i].v;
            if (or_node) {
                if (cv->dis < dis) dis = cv->dis;
                if (cv->rep < rep) rep = cv->rep;
            } else if (cv->dn == 0 && (cv->rep > rep || (cv->rep == rep && cv->dis > dis))) {
                rep = cv->rep;
                dis = cv->dis;
            }
        }
        v.dis = dis + 1 > D_ALL ? D_ALL : dis + 1;
        v.rep = rep >= ply ? REP_NONE : rep; /* only this node repeated: exact */
        if (v.rep == REP_NONE || MUTATION == 3) {
            if (v.dis + 1 > e->dis) e->dis = (uint8_t)(v.dis + 1);
        }
    } else {
        e->pn = pn;
        e->dn = dn;
        e->work_r = (uint8_t)r;
    }
    u64 work = nodes - start;
    e->work = work > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)work;
    *out = v;
}

/* ------------------------------------------------------------- Python API */

static int need_ready(void) {
    if (!READY || !SYM_READY || TT == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "setup() and set_symmetry() were not called");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(set_symmetry_doc,
"set_symmetry(perms, tt_bits, symmetry)\n\n"
"perms[s][sq]: the 8 board symmetries as square permutations; allocates a table of\n"
"2**tt_bits entries (cleared); symmetry off: positions are keyed as they are.");

static PyObject *py_set_symmetry(PyObject *self, PyObject *args) {
    PyObject *perms;
    int bits, sym;
    if (!PyArg_ParseTuple(args, "Oip", &perms, &bits, &sym)) return NULL;
    if (bits < 4 || bits > 30) {
        PyErr_SetString(PyExc_ValueError, "tt_bits: expected 4 to 30");
        return NULL;
    }
    SYM_READY = 0;
    if (read_symmetries(perms) < 0) return NULL;
    SYMMETRY = sym;
    if (TT == NULL || TT_BITS != bits) {
        if (tt_alloc(bits) < 0) return NULL;
    } else {
        memset(TT, 0, ((size_t)1 << TT_BITS) * sizeof(Entry));
    }
    nodes = generated = reps = 0;
    SYM_READY = 1;
    Py_RETURN_NONE;
}

static PyObject *py_clear(PyObject *self, PyObject *args) {
    if (need_ready() < 0) return NULL;
    memset(TT, 0, ((size_t)1 << TT_BITS) * sizeof(Entry));
    nodes = generated = reps = 0;
    Py_RETURN_NONE;
}

static PyObject *py_set_mutation(PyObject *self, PyObject *arg) {
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred()) return NULL;
    if (k < 0 || k > 3) {
        PyErr_SetString(PyExc_ValueError, "mutation: expected 0 to 3");
        return NULL;
    }
    MUTATION = (int)k;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(prove_doc,
"prove(pos, attacker, plies, node_limit, seconds) -> (status, plen)\n\n"
"Whether `attacker` (0 capybaras, 1 poodles) wins within `plies` plies (1 to 250) from\n"
"`pos` (8-tuple, a game not over). status: 1 proved (a win within plen plies), 0\n"
"disproved (no forced win within `plies`), -1 the budget ran out. Limits of 0 mean\n"
"none. The table is kept between calls (clear() empties it).");

static PyObject *py_prove(PyObject *self, PyObject *args) {
    PyObject *pos;
    int attacker, plies;
    unsigned long long limit;
    double seconds;
    Pos p;
    if (!PyArg_ParseTuple(args, "OiiKd", &pos, &attacker, &plies, &limit, &seconds)) return NULL;
    if (need_ready() < 0 || parse_pos(pos, &p) < 0) return NULL;
    if (attacker != 0 && attacker != 1) {
        PyErr_SetString(PyExc_ValueError, "attacker: expected 0 or 1");
        return NULL;
    }
    if (plies < 1 || plies > MAX_BOUND) {
        PyErr_SetString(PyExc_ValueError, "plies: expected 1 to 250");
        return NULL;
    }
    if (winner_of(&p) >= 0) {
        PyErr_SetString(PyExc_ValueError, "the game is over");
        return NULL;
    }
    ATTACKER = attacker;
    if (MUTATION == 2 && plies < MAX_BOUND) plies++;
    node_limit = limit;
    deadline = seconds > 0 ? now() + seconds : 0;
    aborted = 0;
    Key k;
    u64 h;
    key_of(&p, &k, &h);
    Val v = lookup(&p, &k, h, plies);
    if (v.pn != 0 && v.dn != 0) mid(&p, &k, h, plies, 0, PN_INF, PN_INF, &v);
    if (aborted == 2) return NULL;
    if (aborted) return Py_BuildValue("ii", -1, -1);
    if (v.pn == 0) return Py_BuildValue("ii", 1, v.plen);
    return Py_BuildValue("ii", v.dn == 0 ? 0 : -1, -1);
}

PyDoc_STRVAR(probe_doc,
"probe(pos, attacker) -> (plen, dis, from, to) or None\n\n"
"The table's exact knowledge of `pos`: a win within plen plies (255: none known), no win\n"
"within dis - 1 plies (0: none known), the proof's move in the position's squares\n"
"(from == to: none).");

static PyObject *py_probe(PyObject *self, PyObject *args) {
    PyObject *pos;
    int attacker;
    Pos p;
    if (!PyArg_ParseTuple(args, "Oi", &pos, &attacker)) return NULL;
    if (need_ready() < 0 || parse_pos(pos, &p) < 0) return NULL;
    if (attacker != 0 && attacker != 1) {
        PyErr_SetString(PyExc_ValueError, "attacker: expected 0 or 1");
        return NULL;
    }
    int saved = ATTACKER;
    ATTACKER = attacker;
    Key k;
    u64 h;
    int s = key_of(&p, &k, &h);
    ATTACKER = saved;
    Entry *e = tt_probe(&k, h);
    if (e == NULL) Py_RETURN_NONE;
    return Py_BuildValue("iiii", e->plen, e->dis, INV[s][e->mf], INV[s][e->mt]);
}

static PyObject *py_set_init(PyObject *self, PyObject *arg) {
    INIT = PyObject_IsTrue(arg);
    Py_RETURN_NONE;
}

static PyObject *py_counters(PyObject *self, PyObject *args) {
    return Py_BuildValue("KKK", (unsigned long long)nodes, (unsigned long long)generated,
                         (unsigned long long)reps);
}

PyDoc_STRVAR(set_hook_doc,
"set_hook(f): call f(nodes, 0) every 2**20 expansions of prove(); None removes it. An\n"
"exception raised by f stops the search and is raised by it.");

static PyMethodDef methods[] = {
    {"setup", cp_py_setup, METH_VARARGS,
     "setup(steps, start_right, start_left): the rules' tables (carpniches_state.h)."},
    {"ready", cp_py_ready, METH_NOARGS, "Whether setup() was called."},
    {"set_symmetry", py_set_symmetry, METH_VARARGS, set_symmetry_doc},
    {"set_hook", py_set_hook, METH_O, set_hook_doc},
    {"set_mutation", py_set_mutation, METH_O,
     "set_mutation(k): 0 the search; 1-3 a broken one (the tests' mutation check)."},
    {"set_init", py_set_init, METH_O, "set_init(flag): new leaves' numbers by mobility."},
    {"clear", py_clear, METH_NOARGS, "Empty the table and the counters."},
    {"prove", py_prove, METH_VARARGS, prove_doc},
    {"probe", py_probe, METH_VARARGS, probe_doc},
    {"counters", py_counters, METH_NOARGS,
     "(expansions, positions generated, repetitions met) since the last clear."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dfpn",
    "Native Carpniches df-pn with a ply bound (see boardproof.models.carpniches.native.dfpn).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dfpn(void) { return PyModule_Create(&module); }
