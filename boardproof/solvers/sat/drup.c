/* A backward DRUP proof checker, the project's own (no code shared with any SAT solver).
 *
 * check(formula, proof, variant) -> (ok, message, stats)
 *
 *   formula: a buffer of C ints, each clause's literals followed by 0 (DIMACS numbering);
 *   proof:   the DRUP proof as text (bytes): "l1 l2 ... 0" adds a lemma, "d l1 ... 0"
 *            deletes a clause, lines starting with "c" are comments;
 *   variant: 0 the checker; 1 and 2 are deliberately broken variants for the tests
 *            (1: lemmas are never checked, 2: the reasons of implied literals are not
 *            marked, so the lemmas they rest on are not checked).
 *
 * Method (as drat-trim's backward mode, written from the published description):
 *   1. forward pass: add the formula and every lemma with unit propagation at top level
 *      (two watched literals), honour deletions (except of a clause that is the reason
 *      of a top-level literal: keeping an implied clause is always sound), and stop at
 *      the first conflict; a proof that never reaches one is rejected;
 *   2. mark the clauses of that conflict's implication graph;
 *   3. backward pass: undo the steps one by one (a lemma is removed and the top-level
 *      literals assigned from its step on are unassigned; a deleted clause comes back);
 *      each *marked* lemma is checked by reverse unit propagation against the clauses
 *      present before it, and the clauses of its conflict are marked in turn.
 * Every marked lemma is then RUP with respect to earlier clauses, and the final conflict
 * uses only marked clauses: the formula is unsatisfiable. Lemmas that nothing uses are
 * not checked (they cannot matter). RAT lemmas are not supported (rejected).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEMP_STEP INT32_MAX

enum { S_ADD = 0, S_DEL = 1, S_NOP = 2 };

typedef struct {
    int *a;
    int n, cap;
} ivec;

static int ivec_push(ivec *v, int x) {
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 4;
        int *a = realloc(v->a, (size_t)cap * sizeof(int));
        if (!a) return -1;
        v->a = a;
        v->cap = cap;
    }
    v->a[v->n++] = x;
    return 0;
}

static void ivec_remove(ivec *v, int x) {
    for (int i = 0; i < v->n; i++)
        if (v->a[i] == x) {
            v->a[i] = v->a[--v->n];
            return;
        }
}

typedef struct {
    /* clauses: literal codes (2*var + sign) in one arena */
    int *lits;
    int64_t nlits, cap_lits;
    int64_t *start;
    int *size;
    uint64_t *hash;
    int *next;      /* hash chain */
    char *marked;
    char *alive;
    int nclauses, cap_clauses;
    int nformula;
    /* steps of the proof */
    int *step_kind, *step_clause;
    int nsteps, cap_steps;
    /* hash table for deletions */
    int *bucket;
    uint64_t mask;
    /* assignment */
    int nvars;
    signed char *val; /* by literal code */
    int *reason, *level_step, *trail, *seen_stamp;
    int trail_len, head;
    ivec *watch;     /* by literal code: clauses watching that literal */
    int *stamp;      /* by literal code, for set comparison and deduplication */
    int stamp_now;
    int variant;
    int max_var_seen;
    /* statistics */
    long lemmas, checked, deletions, ignored, core;
} checker;

static inline int code(int lit) { return lit > 0 ? 2 * lit : -2 * lit + 1; }
static inline int var_of(int c) { return c >> 1; }

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static int grow_clauses(checker *k) {
    if (k->nclauses < k->cap_clauses) return 0;
    int cap = k->cap_clauses ? k->cap_clauses * 2 : 1024;
    int64_t *s = realloc(k->start, (size_t)cap * sizeof(int64_t));
    if (!s) return -1;
    k->start = s;
    int *z = realloc(k->size, (size_t)cap * sizeof(int));
    if (!z) return -1;
    k->size = z;
    k->cap_clauses = cap;
    return 0;
}

static int push_lit(checker *k, int c) {
    if (k->nlits == k->cap_lits) {
        int64_t cap = k->cap_lits ? k->cap_lits * 2 : 1 << 16;
        int *a = realloc(k->lits, (size_t)cap * sizeof(int));
        if (!a) return -1;
        k->lits = a;
        k->cap_lits = cap;
    }
    k->lits[k->nlits++] = c;
    return 0;
}

static int push_step(checker *k, int kind, int clause) {
    if (k->nsteps == k->cap_steps) {
        int cap = k->cap_steps ? k->cap_steps * 2 : 1024;
        int *a = realloc(k->step_kind, (size_t)cap * sizeof(int));
        if (!a) return -1;
        k->step_kind = a;
        int *b = realloc(k->step_clause, (size_t)cap * sizeof(int));
        if (!b) return -1;
        k->step_clause = b;
        k->cap_steps = cap;
    }
    k->step_kind[k->nsteps] = kind;
    k->step_clause[k->nsteps] = clause;
    k->nsteps++;
    return 0;
}

/* ------------------------------------------------------------------ parsing */

/* Close the clause whose literals are lits[from..nlits): returns its id. */
static int close_clause(checker *k, int64_t from) {
    if (grow_clauses(k) < 0) return -1;
    int id = k->nclauses++;
    k->start[id] = from;
    k->size[id] = (int)(k->nlits - from);
    return id;
}

/* Parse the proof text; -1 on a memory error, -2 on a syntax error (*where set). */
static int parse_proof(checker *k, const char *p, Py_ssize_t len, Py_ssize_t *where) {
    Py_ssize_t i = 0;
    int deleting = 0, in_clause = 0;
    int64_t from = k->nlits;
    while (i < len) {
        char ch = p[i];
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') {
            i++;
            continue;
        }
        if (ch == 'c' && !in_clause) {
            while (i < len && p[i] != '\n') i++;
            continue;
        }
        if (ch == 'd' && !in_clause && !deleting) {
            deleting = 1;
            i++;
            if (i < len && p[i] != ' ' && p[i] != '\t') {
                *where = i;
                return -2;
            }
            continue;
        }
        int neg = 0;
        if (ch == '-') {
            neg = 1;
            i++;
        }
        if (i >= len || p[i] < '0' || p[i] > '9') {
            *where = i;
            return -2;
        }
        int64_t v = 0;
        while (i < len && p[i] >= '0' && p[i] <= '9') {
            v = v * 10 + (p[i] - '0');
            if (v > (1 << 28)) {
                *where = i;
                return -2;
            }
            i++;
        }
        if (i < len && p[i] != ' ' && p[i] != '\n' && p[i] != '\r' && p[i] != '\t') {
            *where = i;
            return -2;
        }
        if (v == 0) {
            if (neg) {
                *where = i;
                return -2;
            }
            int id = close_clause(k, from);
            if (id < 0) return -1;
            if (push_step(k, deleting ? S_DEL : S_ADD, id) < 0) return -1;
            from = k->nlits;
            deleting = in_clause = 0;
            continue;
        }
        in_clause = 1;
        if ((int)v > k->max_var_seen) k->max_var_seen = (int)v;
        if (push_lit(k, code(neg ? -(int)v : (int)v)) < 0) return -1;
    }
    if (in_clause || deleting) {
        *where = len;
        return -3; /* the last clause has no final 0 */
    }
    return 0;
}

/* Deduplicate clause id's literals in place; 1 if it is a tautology. */
static int normalise(checker *k, int id) {
    int *c = k->lits + k->start[id];
    int n = k->size[id], m = 0, taut = 0;
    k->stamp_now++;
    for (int i = 0; i < n; i++) {
        int l = c[i];
        if (k->stamp[l] == k->stamp_now) continue;
        if (k->stamp[l ^ 1] == k->stamp_now) taut = 1;
        k->stamp[l] = k->stamp_now;
        c[m++] = l;
    }
    k->size[id] = m;
    uint64_t h = 0, x = 0;
    for (int i = 0; i < m; i++) {
        uint64_t z = mix((uint64_t)c[i] + 1);
        h += z;
        x ^= z * 0x9e3779b97f4a7c15ULL;
    }
    k->hash[id] = h ^ (x << 1) ^ (uint64_t)m;
    return taut;
}

static void hash_insert(checker *k, int id) {
    uint64_t b = k->hash[id] & k->mask;
    k->next[id] = k->bucket[b];
    k->bucket[b] = id;
}

/* The most recent live clause with the same literals as id (and remove it from the table). */
static int hash_take(checker *k, int id) {
    uint64_t b = k->hash[id] & k->mask;
    int *c = k->lits + k->start[id], n = k->size[id];
    k->stamp_now++;
    for (int i = 0; i < n; i++) k->stamp[c[i]] = k->stamp_now;
    int *link = &k->bucket[b];
    while (*link >= 0) {
        int other = *link;
        if (k->hash[other] == k->hash[id] && k->size[other] == n) {
            int *d = k->lits + k->start[other], same = 1;
            for (int i = 0; i < n && same; i++) same = k->stamp[d[i]] == k->stamp_now;
            if (same) {
                *link = k->next[other];
                return other;
            }
        }
        link = &k->next[other];
    }
    return -1;
}

/* ------------------------------------------------------------------ propagation */

static inline void assign(checker *k, int l, int reason, int step) {
    k->val[l] = 1;
    k->val[l ^ 1] = -1;
    k->reason[var_of(l)] = reason;
    k->level_step[var_of(l)] = step;
    k->trail[k->trail_len++] = l;
}

static void unassign_to(checker *k, int len) {
    while (k->trail_len > len) {
        int l = k->trail[--k->trail_len];
        k->val[l] = k->val[l ^ 1] = 0;
        k->reason[var_of(l)] = -1;
    }
    if (k->head > len) k->head = len;
}

/* Unit propagation from the trail head: the conflicting clause, or -1. */
static int propagate(checker *k, int step) {
    while (k->head < k->trail_len) {
        int fl = k->trail[k->head++] ^ 1; /* the literal that became false */
        ivec *ws = &k->watch[fl];
        int i = 0, j = 0, n = ws->n;
        while (i < n) {
            int cid = ws->a[i++];
            int *c = k->lits + k->start[cid];
            if (c[0] == fl) {
                c[0] = c[1];
                c[1] = fl;
            }
            if (k->val[c[0]] == 1) {
                ws->a[j++] = cid;
                continue;
            }
            int sz = k->size[cid], moved = 0;
            for (int t = 2; t < sz; t++)
                if (k->val[c[t]] != -1) {
                    c[1] = c[t];
                    c[t] = fl;
                    if (ivec_push(&k->watch[c[1]], cid) < 0) return -2;
                    moved = 1;
                    break;
                }
            if (moved) continue;
            ws->a[j++] = cid;
            if (k->val[c[0]] == -1) {
                while (i < n) ws->a[j++] = ws->a[i++];
                ws->n = j;
                return cid;
            }
            assign(k, c[0], cid, step);
        }
        ws->n = j;
    }
    return -1;
}

/* Attach clause id at top level (step): -1, or the clause itself on a conflict. */
static int attach(checker *k, int id, int step) {
    int *c = k->lits + k->start[id];
    int n = k->size[id];
    k->alive[id] = 1;
    if (n == 0) return id;
    if (n == 1) {
        if (k->val[c[0]] == -1) return id;
        if (k->val[c[0]] == 0) assign(k, c[0], id, step);
        return -1;
    }
    /* two best watches: non-false literals first */
    for (int w = 0; w < 2; w++)
        for (int t = w; t < n; t++)
            if (k->val[c[t]] != -1) {
                int x = c[w];
                c[w] = c[t];
                c[t] = x;
                break;
            }
    if (ivec_push(&k->watch[c[0]], id) < 0 || ivec_push(&k->watch[c[1]], id) < 0) return -2;
    if (k->val[c[0]] == -1) return id;
    if (k->val[c[1]] == -1 && k->val[c[0]] == 0) assign(k, c[0], id, step);
    return -1;
}

/* Re-attach a clause exactly as it was watched when it was detached. */
static int reattach(checker *k, int id) {
    int *c = k->lits + k->start[id];
    k->alive[id] = 1;
    if (k->size[id] >= 2 &&
        (ivec_push(&k->watch[c[0]], id) < 0 || ivec_push(&k->watch[c[1]], id) < 0))
        return -2;
    return 0;
}

static void detach(checker *k, int id) {
    int *c = k->lits + k->start[id];
    k->alive[id] = 0;
    if (k->size[id] >= 2) {
        ivec_remove(&k->watch[c[0]], id);
        ivec_remove(&k->watch[c[1]], id);
    }
}

static int is_reason(checker *k, int id) {
    int *c = k->lits + k->start[id];
    for (int i = 0; i < k->size[id]; i++)
        if (k->val[c[i]] == 1 && k->reason[var_of(c[i])] == id) return 1;
    return 0;
}

static void mark_clause(checker *k, int id) {
    if (!k->marked[id]) {
        k->marked[id] = 1;
        if (id < k->nformula) k->core++;
    }
}

/* Mark the implication graph of a conflict: the clause `conflict` (or, with -1, the
 * literals already flagged in seen_stamp), then the reasons of every literal involved. */
static void analyse(checker *k, int conflict, int pending) {
    int now = k->stamp_now;
    if (conflict >= 0) {
        mark_clause(k, conflict);
        int *c = k->lits + k->start[conflict];
        for (int i = 0; i < k->size[conflict]; i++) {
            int v = var_of(c[i]);
            if (k->seen_stamp[v] != now) {
                k->seen_stamp[v] = now;
                pending++;
            }
        }
    }
    for (int t = k->trail_len - 1; t >= 0 && pending > 0; t--) {
        int v = var_of(k->trail[t]);
        if (k->seen_stamp[v] != now) continue;
        pending--;
        int r = k->reason[v];
        if (r < 0) continue;
        if (k->variant == 2 && k->level_step[v] != TEMP_STEP) continue; /* broken */
        mark_clause(k, r);
        int *c = k->lits + k->start[r];
        for (int i = 0; i < k->size[r]; i++) {
            int u = var_of(c[i]);
            if (k->seen_stamp[u] != now) {
                k->seen_stamp[u] = now;
                pending++;
            }
        }
    }
}

/* Reverse unit propagation of clause id on the current clauses: 1 ok (conflict marked). */
static int rup(checker *k, int id) {
    int *c = k->lits + k->start[id];
    int n = k->size[id], mark = k->trail_len;
    k->stamp_now++;
    for (int i = 0; i < n; i++) {
        if (k->val[c[i]] == 1) { /* already true at top level */
            k->seen_stamp[var_of(c[i])] = k->stamp_now;
            analyse(k, -1, 1);
            return 1;
        }
    }
    for (int i = 0; i < n; i++)
        if (k->val[c[i]] == 0) assign(k, c[i] ^ 1, -1, TEMP_STEP);
    int conflict = propagate(k, TEMP_STEP);
    if (conflict == -2) return -2;
    if (conflict >= 0) analyse(k, conflict, 0);
    unassign_to(k, mark);
    return conflict >= 0;
}

static void free_checker(checker *k) {
    free(k->lits);
    free(k->start);
    free(k->size);
    free(k->hash);
    free(k->next);
    free(k->marked);
    free(k->alive);
    free(k->step_kind);
    free(k->step_clause);
    free(k->bucket);
    free(k->val);
    free(k->reason);
    free(k->level_step);
    free(k->trail);
    free(k->seen_stamp);
    free(k->stamp);
    if (k->watch) {
        for (int64_t i = 0; i < 2 * (int64_t)k->nvars + 2; i++) free(k->watch[i].a);
        free(k->watch);
    }
}

/* The whole check: 1 accepted, 0 rejected (message in msg), -1 out of memory. */
static int run(checker *k, char *msg, size_t msglen) {
    int nvars = k->nvars, nc = k->nclauses;
    size_t nl = 2 * (size_t)nvars + 2;
    k->val = calloc(nl, 1);
    k->stamp = calloc(nl, sizeof(int));
    k->watch = calloc(nl, sizeof(ivec));
    k->reason = malloc(((size_t)nvars + 1) * sizeof(int));
    k->level_step = calloc((size_t)nvars + 1, sizeof(int));
    k->trail = malloc(((size_t)nvars + 1) * sizeof(int));
    k->seen_stamp = calloc((size_t)nvars + 1, sizeof(int));
    k->hash = malloc((size_t)nc * sizeof(uint64_t) + 8);
    k->next = malloc((size_t)nc * sizeof(int) + 4);
    k->marked = calloc((size_t)nc + 1, 1);
    k->alive = calloc((size_t)nc + 1, 1);
    uint64_t buckets = 1024;
    while (buckets < 2 * (uint64_t)nc) buckets *= 2;
    k->mask = buckets - 1;
    k->bucket = malloc(buckets * sizeof(int));
    if (!k->val || !k->stamp || !k->watch || !k->reason || !k->level_step || !k->trail ||
        !k->seen_stamp || !k->hash || !k->next || !k->marked || !k->alive || !k->bucket)
        return -1;
    memset(k->bucket, 0xff, buckets * sizeof(int));
    for (int v = 0; v <= nvars; v++) k->reason[v] = -1;

    /* forward: the formula, then the proof until the first conflict */
    int conflict = -1, last = -1;
    for (int id = 0; id < k->nformula && conflict < 0; id++) {
        if (normalise(k, id)) continue; /* a tautology: never needed */
        hash_insert(k, id);
        conflict = attach(k, id, 0);
        if (conflict == -2) return -1;
        if (conflict < 0) conflict = propagate(k, 0);
        if (conflict == -2) return -1;
    }
    int s = 0;
    for (; s < k->nsteps && conflict < 0; s++) {
        int id = k->step_clause[s], step = s + 1;
        int taut = normalise(k, id);
        if (k->step_kind[s] == S_DEL) {
            k->deletions++;
            int target = taut ? -1 : hash_take(k, id);
            if (target < 0 || is_reason(k, target)) {
                if (target >= 0) hash_insert(k, target);
                k->ignored++;
                k->step_kind[s] = S_NOP;
                continue;
            }
            detach(k, target);
            k->step_clause[s] = target;
            continue;
        }
        k->lemmas++;
        if (k->size[id] == 0) {
            snprintf(msg, msglen, "proof step %d: the empty clause is not RUP", step);
            return 0;
        }
        if (taut) {
            k->step_kind[s] = S_NOP;
            continue;
        }
        hash_insert(k, id);
        conflict = attach(k, id, step);
        if (conflict == -2) return -1;
        if (conflict < 0) conflict = propagate(k, step);
        if (conflict == -2) return -1;
        last = s;
    }
    if (conflict < 0) {
        snprintf(msg, msglen, "the proof ends without a conflict");
        return 0;
    }
    k->stamp_now++;
    analyse(k, conflict, 0);

    /* backward: undo each step; check every marked lemma */
    for (s = last; s >= 0; s--) {
        int id = k->step_clause[s], step = s + 1;
        if (k->step_kind[s] == S_NOP) continue;
        if (k->step_kind[s] == S_DEL) {
            if (reattach(k, id) < 0) return -1;
            continue;
        }
        detach(k, id);
        int keep = k->trail_len;
        while (keep > 0 && k->level_step[var_of(k->trail[keep - 1])] >= step) keep--;
        unassign_to(k, keep);
        if (!k->marked[id]) continue;
        k->checked++;
        if (k->variant == 1) continue; /* broken: trust the lemma */
        int ok = rup(k, id);
        if (ok < 0) return -1;
        if (!ok) {
            snprintf(msg, msglen, "proof step %d: lemma is not RUP (%d literals)", step,
                     k->size[id]);
            return 0;
        }
    }
    snprintf(msg, msglen, "conflict reached; every lemma it uses is RUP");
    return 1;
}

static PyObject *py_check(PyObject *self, PyObject *args) {
    Py_buffer formula, proof;
    int variant = 0;
    if (!PyArg_ParseTuple(args, "y*y*|i", &formula, &proof, &variant)) return NULL;
    checker k;
    memset(&k, 0, sizeof k);
    k.variant = variant;
    char msg[200] = "";
    int status = 0;
    Py_ssize_t where = 0;
    const int *f = formula.buf;
    Py_ssize_t nf = formula.len / (Py_ssize_t)sizeof(int);
    Py_BEGIN_ALLOW_THREADS
    int64_t from = 0;
    for (Py_ssize_t i = 0; i < nf && status == 0; i++) {
        int lit = f[i];
        if (lit == 0) {
            if (close_clause(&k, from) < 0) status = -1;
            from = k.nlits;
        } else {
            int v = lit > 0 ? lit : -lit;
            if (v > (1 << 28)) {
                status = -4;
                break;
            }
            if (v > k.max_var_seen) k.max_var_seen = v;
            if (push_lit(&k, code(lit)) < 0) status = -1;
        }
    }
    if (status == 0 && from != k.nlits) status = -5;
    k.nformula = k.nclauses;
    if (status == 0) status = parse_proof(&k, proof.buf, proof.len, &where);
    if (status == 0) {
        k.nvars = k.max_var_seen;
        status = run(&k, msg, sizeof msg);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&formula);
    PyBuffer_Release(&proof);
    PyObject *out = NULL;
    if (status == -1) {
        PyErr_NoMemory();
    } else if (status == -2) {
        PyErr_Format(PyExc_ValueError, "proof byte %zd: not a DRUP clause", where);
    } else if (status == -3) {
        PyErr_SetString(PyExc_ValueError, "proof: the last clause has no final 0");
    } else if (status == -4) {
        PyErr_SetString(PyExc_ValueError, "formula: a literal out of range");
    } else if (status == -5) {
        PyErr_SetString(PyExc_ValueError, "formula: the last clause has no final 0");
    } else {
        out = Py_BuildValue("Os{sl,sl,sl,sl,sl,si}", status ? Py_True : Py_False, msg,
                            "lemmas", k.lemmas, "checked", k.checked, "deletions",
                            k.deletions, "ignored_deletions", k.ignored, "core_clauses",
                            k.core, "variables", k.nvars);
    }
    free_checker(&k);
    return out;
}

static PyMethodDef methods[] = {
    {"check", py_check, METH_VARARGS,
     "check(formula, proof, variant=0) -> (ok, message, stats): backward DRUP check."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_drup",
                                    "Backward DRUP proof checker.", -1, methods};

PyMODINIT_FUNC PyInit__drup(void) { return PyModule_Create(&module); }
