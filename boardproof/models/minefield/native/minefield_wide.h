/*
 * The wide Minefield search: every board size 2..26, included by minefield.c.
 *
 * The same search as the 64-bit one above (win/draw/loss or distance values, a
 * symmetric transposition table, immediate wins first, the threat test, an optional
 * ply horizon, df-pn), over boards of W 64-bit words in the model's own layout: point
 * (f, r) is bit r * (n + 3) + f, with 3 guard bits after each rank that are never set
 * (boardproof.models.minefield.board). minefield_wide_impl.h is compiled once per W, so
 * that each size works on the fewest words; the tables below are shared.
 *
 * As in the 64-bit search, the rules come from the model: the Python wrapper hands over,
 * for every point, the glyph roles that fit there (the points that must hold a mover's
 * stone, an opponent's stone, an empty point for a placement there to be illegal), the
 * same roles as shapes relative to the new stone, the edges, and the 8 symmetries as
 * point permutations. The search tests the shapes (the whole board at once for the move
 * list, one point through a table of the shapes its 4 neighbours allow); the roles are
 * the reference the tests compare that with (wide_forbidden()).
 *
 * Roles by the mover's colour (issue 30, the cartwheel: its points just beyond the board
 * are stones of the edge's owner): wide_setup() then also takes White's roles (the first
 * are Black's) and, per colour, the "extra" roles of each point: those with a condition
 * beyond the board that holds for that colour, resolved into roles over board points. A
 * shape never fits where one of its points is off the board (its term falls on a guard bit
 * or outside the board), so the shapes test the roles that lie on the board, the same for
 * both colours, and forbidden_at() / legal_moves() add the extras of the colour that
 * places (WT()). Without them (the standard and pinwheel sets) WCOLOURED is 0: the same
 * code path as before. An extra role's points are some of its shape's, so what rests on
 * the shapes' reach (WREACH, the 3-point radius of keeps()) holds for it; each keeps an
 * empty point (the cartwheel's 2x2 block), so the blocked-path bound (shapes without an
 * empty point) is unchanged.
 *
 * Per-node work (issue 13, session 5; the same tree, tests/test_native_minefield_nodes.py):
 * the table move or a killer is searched before the move list is made (most nodes that
 * get there are cut off by it); a node's table slot is fetched while its immediate win is
 * looked for; a stone's 16 Zobrist keys lie side by side.
 *
 * Transpositions: a position's key is the smallest, over the 8 symmetries, of two
 * independent 64-bit Zobrist hashes of its image (s >= 4 exchange the colours). A table
 * entry matches only when both 64-bit keys are equal, so a wrong hit needs two
 * different positions whose 128-bit keys coincide (about 2**-128 per pair of positions).
 */

#define MAXW 12             /* 26 x (26 + 3) = 754 bits */
#define MAXBITS (MAXW * 64)
#define WMAXPLY 1400
#define WWIN_DIST 10000     /* distance mode: a win in d plies is WWIN_DIST - d */

static int WN = 0, WW = 0, WCELLS = 0, WBITS = 0, WDIAG = 0;
static u64 WFULL[MAXW], WEDGE[2][2][MAXW]; /* [black, white][first, second edge] */
/* roles of point p: RDATA[t][RSTART[t][p] .. RSTART[t][p+1]], t = WT(colour) (0: Black's,
   both colours' unless WCOLOURED; 1: White's); the extra roles (above) of colour c:
   XDATA[c][XSTART[c][p] .. XSTART[c][p+1]], at the points XPOINTS[c] */
static int RSTART[2][MAXBITS + 1];
static int16_t *RDATA[2] = {NULL, NULL};
static int XSTART[2][MAXBITS + 1];
static int16_t *XDATA[2] = {NULL, NULL};
static u64 XPOINTS[2][MAXW];
static int WCOLOURED = 0; /* the roles depend on the mover's colour (the cartwheel) */
#define WT(colour) (WCOLOURED & (colour))
/* the same roles as whole-board shifts (legal_moves): term t is "point p + TOFF[t] holds
   TSTATE[t]" (0 mover, 1 opponent, 2 empty); role k is the AND of its terms */
#define MAXTERMS 128
#define MAXSHAPES 64
#define MAXFACTORS 12 /* the pinwheel's roles: 11 points besides the new stone */
static int NTERMS = 0, NSHAPES = 0;
static int TSTATE[MAXTERMS], TOFF[MAXTERMS], TDX[MAXTERMS], TDY[MAXTERMS];
static int SHAPE_N[MAXSHAPES], SHAPE_T[MAXSHAPES][MAXFACTORS];
/* forbidden_at() by shapes: shape k's terms as (offset, state), and the shapes that can
   fit at a point given which of its 4 orthogonal neighbours hold an opponent's stone and
   which are empty (bits 2j and 2j + 1 of the code for neighbour j: a necessary
   condition, from the shapes' terms on those neighbours) */
static int16_t SHAPE_OFF[MAXSHAPES][MAXFACTORS];
static uint8_t SHAPE_ST[MAXSHAPES][MAXFACTORS];
static u64 SHAPE_PRE[256];
static int16_t NB4[MAXBITS][4]; /* a point's neighbours p-1, p+1, p-WW, p+WW (off the board:
                                   a guard bit, empty in no board) */
/* the shapes without an empty point: once they fit, they fit for ever (stones stay) */
static int NPERM = 0, PERM_SHAPE[MAXSHAPES];
/* option (wide_tune): the blocked-path bound, see can_connect() in minefield_wide_impl.h */
static int BLOCK_BOUND = 0;
static u64 block_cuts = 0;
static int16_t WPERM[8][MAXBITS], WINV[8][MAXBITS];
/* the Zobrist hashes of a stone of colour c at point q under symmetry s: ZQ[c][q][2s] and
   ZQ[c][q][2s + 1] (the two 64-bit keys side by side: a move's 16 in 2 cache lines) */
static u64 ZQ[2][MAXBITS][16], SIDE1[8][2], SIDE2[8][2];
static int16_t WRANK[MAXBITS], WFILE[MAXBITS]; /* bit index p = rank * WW + file */
static int WDIST = 0, WWIN = 1;
static u64 WNB[MAXBITS][MAXW]; /* each point and its neighbours */
/* each point and the points whose state can change whether a stone may be placed there
   (the cells of the shapes that contain it) */
static u64 WREACH[MAXBITS][MAXW];
static int whistory[2][MAXBITS];
static int wkiller[WMAXPLY][2];
/* the history of the side to move at a node of each ply, copied before its first move is
   searched ahead of its move list (negamax): the list is then ordered as it would have
   been before that move's subtree updated the history */
static int whsnap[WMAXPLY][MAXBITS];

static inline int wup(int c) {
    int v = -c;
    if (WDIST) v -= (v > 0) - (v < 0);
    return v;
}
static inline int wdown(int a) {
    if (!WDIST) return -a;
    return a > 0 ? -a - 1 : (a < 0 ? -a + 1 : 0);
}

typedef struct { u64 k1, k2; int sym; } WKey;

typedef struct {
    u64 k1, k2;
    int16_t lo, hi, best; /* bounds; best move in canonical points, or NO_MOVE / PASS_MOVE */
    uint8_t work;         /* log2 of the nodes searched below */
    uint8_t tag;          /* 0 empty slot, else horizon_tag() */
} WEntry;

static WEntry *WTT = NULL;
static u64 WTT_MASK = 0;
static int WTT_BITS = 0;

static inline WEntry *wtt_find(const WKey *k, uint8_t tag) {
    WEntry *slot = &WTT[(k->k1 ^ (tag == 255 ? 0 : tag)) & WTT_MASK & ~(u64)1];
    for (int i = 0; i < 2; i++)
        if (slot[i].tag == tag && slot[i].k1 == k->k1 && slot[i].k2 == k->k2) return &slot[i];
    return NULL;
}

static inline void wtt_store(const WKey *k, uint8_t tag, int lo, int hi, int best, u64 work) {
    WEntry *slot = &WTT[(k->k1 ^ (tag == 255 ? 0 : tag)) & WTT_MASK & ~(u64)1];
    uint8_t w = (uint8_t)(64 - __builtin_clzll(work | 1));
    int16_t cbest = (int16_t)(best >= 0 ? WPERM[k->sym][best] : best);
    tt_stores++;
    for (int i = 0; i < 2; i++) {
        WEntry *e = &slot[i];
        if (e->tag == tag && e->k1 == k->k1 && e->k2 == k->k2) {
            if (lo > e->lo) e->lo = (int16_t)lo;
            if (hi < e->hi) e->hi = (int16_t)hi;
            if (e->lo > e->hi) { e->lo = (int16_t)lo; e->hi = (int16_t)hi; }
            if (w > e->work) e->work = w;
            if (best != NO_MOVE) e->best = cbest;
            return;
        }
    }
    WEntry fresh = {k->k1, k->k2, (int16_t)lo, (int16_t)hi, cbest, w, tag};
    if (slot[0].tag == 0 || w >= slot[0].work) {
        if (slot[0].tag != 0) slot[1] = slot[0];
        slot[0] = fresh;
    } else {
        slot[1] = fresh;
    }
}

typedef struct {
    u64 k1, k2;
    uint32_t pn, dn;
    uint8_t used, attack, work;
} WPEntry;

static WPEntry *WPT = NULL;
static u64 WPT_MASK = 0;
static int WPT_BITS = 0;

static inline WPEntry *wpt_slot(const WKey *k, int attack) {
    return &WPT[(k->k1 ^ (u64)attack * 0x9E3779B97F4A7C15ULL) & WPT_MASK & ~(u64)1];
}

static inline int wpt_get(const WKey *k, int attack, uint32_t *pn, uint32_t *dn) {
    WPEntry *slot = wpt_slot(k, attack);
    for (int i = 0; i < 2; i++)
        if (slot[i].used && slot[i].attack == attack && slot[i].k1 == k->k1 && slot[i].k2 == k->k2) {
            *pn = slot[i].pn;
            *dn = slot[i].dn;
            return 1;
        }
    return 0;
}

static inline void wpt_put(const WKey *k, int attack, uint32_t pn, uint32_t dn, u64 work) {
    WPEntry *slot = wpt_slot(k, attack);
    uint8_t w = (uint8_t)(64 - __builtin_clzll(work | 1));
    if (pn == 0 || dn == 0) w = 255;
    for (int i = 0; i < 2; i++) {
        WPEntry *e = &slot[i];
        if (e->used && e->attack == attack && e->k1 == k->k1 && e->k2 == k->k2) {
            e->pn = pn; e->dn = dn;
            if (w > e->work) e->work = w;
            return;
        }
    }
    WPEntry fresh = {k->k1, k->k2, pn, dn, 1, (uint8_t)attack, w};
    if (!slot[0].used || w >= slot[0].work) {
        if (slot[0].used) slot[1] = slot[0];
        slot[0] = fresh;
    } else {
        slot[1] = fresh;
    }
}

/* the functions of one board width */
typedef struct {
    int words;
    int (*solve)(const u64 *me, const u64 *op, int black, int alpha, int beta, int *best);
    int (*dfpn)(const u64 *me, const u64 *op, int black, int attack, int *best);
    void (*legal)(const u64 *me, const u64 *op, int black, u64 *out);
    void (*winning)(const u64 *own, int black, u64 *out);
    WKey (*canonical)(const u64 *me, const u64 *op, int black);
    void (*forbidden)(const u64 *me, const u64 *op, int black, u64 *by_shapes, u64 *by_roles);
} WVariant;

#define CAT3_(a, b, c) a##b##c
#define CAT3(a, b, c) CAT3_(a, b, c)
#define FN(x) CAT3(x, _w, W)

#define W 2
#include "minefield_wide_impl.h"
#undef W
#define W 4
#include "minefield_wide_impl.h"
#undef W
#define W 5
#include "minefield_wide_impl.h"
#undef W
#define W 7
#include "minefield_wide_impl.h"
#undef W
#define W 12
#include "minefield_wide_impl.h"
#undef W

static const WVariant *const WVARIANTS[] = {&variant_w2, &variant_w4, &variant_w5, &variant_w7,
                                            &variant_w12};
static const WVariant *WV = NULL; /* the variant of the installed size */

/* ------------------------------------------------------------ interface */

static u64 splitmix(u64 *state) {
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* a board from Python: bytes, little-endian, 8 * MAXW long */
static int get_board(PyObject *obj, u64 *out) {
    char *buf;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(obj, &buf, &len) < 0) return -1;
    if (len != 8 * MAXW) {
        PyErr_SetString(PyExc_ValueError, "a board is 8 * 12 bytes");
        return -1;
    }
    for (int i = 0; i < MAXW; i++) {
        u64 v = 0;
        for (int j = 7; j >= 0; j--) v = v << 8 | (unsigned char)buf[i * 8 + j];
        out[i] = v;
    }
    return 0;
}

static PyObject *board_bytes(const u64 *words) {
    unsigned char buf[8 * MAXW];
    memset(buf, 0, sizeof buf);
    for (int i = 0; i < (WV ? WV->words : 0); i++)
        for (int j = 0; j < 8; j++) buf[i * 8 + j] = (unsigned char)(words[i] >> (8 * j));
    return PyBytes_FromStringAndSize((const char *)buf, sizeof buf);
}

static int wtt_alloc(int bits) {
    return table_alloc((void **)&WTT, sizeof(WEntry), &WTT_BITS, &WTT_MASK, bits);
}

static int wpt_alloc(int bits) {
    return table_alloc((void **)&WPT, sizeof(WPEntry), &WPT_BITS, &WPT_MASK, bits);
}

PyDoc_STRVAR(wide_setup_doc,
"wide_setup(n, diagonal, edges, roles, shapes, perms, tt_bits, distance)\n\n"
"Install the tables of one board size 2..26 for the wide search, clear its table.\n"
"Boards are bytes (8 * 12, little-endian) in the model's layout (bit r*(n+3)+f).\n"
"edges: 4 boards (black first, black second, white first, white second);\n"
"roles: per point r*n+f, a sequence of (mover, opponent, empty) tuples of bit indices\n"
"  that forbid a placement there;\n"
"shapes: the same roles as offsets: sequences of (dx, dy, state 0 M / 1 O / 2 E);\n"
"perms: 8 sequences mapping each point r*n+f to its image r'*n+f';\n"
"distance: values count plies (a win in d plies is 10000 - d), else +1/0/-1;\n"
"coloured: None (roles are both colours') or (white_roles, (black_extras, white_extras)):\n"
"  the roles then are Black's, and the extras per point r*n+f are the roles, as roles,\n"
"  that the shapes miss (a condition beyond the board resolved by the mover's colour).");

/* Read per point r*n+f a sequence of (mover, opponent, empty) index tuples into a fresh
   start table and data array (as RSTART / RDATA); -1 with an exception set. */
static int load_wide_roles(PyObject *roles, int *start, int16_t **out) {
    int n = WN;
    if (PySequence_Size(roles) != WCELLS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "roles needs n*n entries");
        return -1;
    }
    /* the roles, flattened: per role nm, no, ne, then the bit indices */
    size_t cap = 1024, used = 0;
    int16_t *data = malloc(cap * sizeof(int16_t));
    if (data == NULL) { PyErr_NoMemory(); return -1; }
    memset(start, 0, sizeof(int) * (MAXBITS + 1));
    int err = 0;
    for (int p = 0; p < WCELLS && !err; p++) {
        int bitp = (p / n) * WW + p % n;
        PyObject *list = PySequence_GetItem(roles, p);
        if (list == NULL) { err = 1; break; }
        Py_ssize_t k = PySequence_Size(list);
        if (k < 0) err = 1;
        start[bitp] = (int)used;
        for (Py_ssize_t j = 0; j < k && !err; j++) {
            PyObject *role = PySequence_GetItem(list, j);
            if (role == NULL || PySequence_Size(role) != 3) {
                Py_XDECREF(role);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a role is 3 index lists");
                err = 1;
                break;
            }
            size_t head = used;
            if (used + 3 > cap) {
                cap *= 2;
                int16_t *grown = realloc(data, cap * sizeof(int16_t));
                if (grown == NULL) { Py_DECREF(role); PyErr_NoMemory(); err = 1; break; }
                data = grown;
            }
            used += 3;
            for (int part = 0; part < 3 && !err; part++) {
                PyObject *idx = PySequence_GetItem(role, part);
                Py_ssize_t m = idx == NULL ? -1 : PySequence_Size(idx);
                if (m < 0) { Py_XDECREF(idx); err = 1; break; }
                data[head + part] = (int16_t)m;
                for (Py_ssize_t t = 0; t < m; t++) {
                    if (used + 1 > cap) {
                        cap *= 2;
                        int16_t *grown = realloc(data, cap * sizeof(int16_t));
                        if (grown == NULL) { PyErr_NoMemory(); err = 1; break; }
                        data = grown;
                    }
                    PyObject *v = PySequence_GetItem(idx, t);
                    long q = v == NULL ? -1 : PyLong_AsLong(v);
                    Py_XDECREF(v);
                    if (q < 0 || q >= WBITS || !(WFULL[q >> 6] >> (q & 63) & 1)) {
                        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a role point is off the board");
                        err = 1;
                        break;
                    }
                    data[used++] = (int16_t)q;
                }
                Py_DECREF(idx);
            }
            Py_DECREF(role);
        }
        Py_DECREF(list);
    }
    if (err) { free(data); return -1; }
    /* a point's roles end where the next point's begin: guards (no roles) get that start */
    {
        int last = (int)used;
        start[MAXBITS] = last;
        for (int q = MAXBITS - 1; q >= 0; q--) {
            if (q < WBITS && (WFULL[q >> 6] >> (q & 63) & 1)) last = start[q];
            else start[q] = last;
        }
    }
    *out = data;
    return 0;
}

static PyObject *py_wide_setup(PyObject *self, PyObject *args) {
    int n, diag, bits, dist;
    PyObject *edges, *roles, *shapes, *perms, *coloured = Py_None;
    if (!PyArg_ParseTuple(args, "ipOOOOip|O", &n, &diag, &edges, &roles, &shapes, &perms, &bits,
                          &dist, &coloured))
        return NULL;
    if (n < 2 || n > 26) { PyErr_SetString(PyExc_ValueError, "n must be 2..26"); return NULL; }
    if (bits < 4 || bits > 30) { PyErr_SetString(PyExc_ValueError, "tt_bits must be 4..30"); return NULL; }
    if (PySequence_Size(edges) != 4 || PySequence_Size(roles) != n * n ||
        PySequence_Size(perms) != 8) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "edges needs 4 boards, roles n*n, perms 8");
        return NULL;
    }
    WV = NULL;
    WDIST = dist;
    WWIN = dist ? WWIN_DIST : 1;
    WN = n; WW = n + 3; WCELLS = n * n; WBITS = n * WW; WDIAG = diag;
    int words = (WBITS + 63) / 64;
    const WVariant *chosen = NULL;
    for (size_t i = 0; i < sizeof WVARIANTS / sizeof WVARIANTS[0]; i++)
        if (WVARIANTS[i]->words >= words) { chosen = WVARIANTS[i]; break; }
    memset(WFULL, 0, sizeof WFULL);
    for (int r = 0; r < n; r++)
        for (int f = 0; f < n; f++) WFULL[(r * WW + f) >> 6] |= (u64)1 << ((r * WW + f) & 63);
    for (int i = 0; i < 4; i++) {
        PyObject *item = PySequence_GetItem(edges, i);
        if (item == NULL) return NULL;
        int bad = get_board(item, WEDGE[i / 2][i % 2]);
        Py_DECREF(item);
        if (bad) return NULL;
    }
    /* the roles of each colour (one table unless coloured) and the extras */
    {
        PyObject *white_roles = NULL, *extras = NULL;
        if (coloured != Py_None) {
            if (!PyArg_ParseTuple(coloured, "OO", &white_roles, &extras)) return NULL;
            if (PySequence_Size(extras) != 2) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "extras: one per colour");
                return NULL;
            }
        }
        int16_t *data[2] = {NULL, NULL}, *xdata[2] = {NULL, NULL};
        int bad = load_wide_roles(roles, RSTART[0], &data[0]) < 0;
        if (!bad && white_roles != NULL) bad = load_wide_roles(white_roles, RSTART[1], &data[1]) < 0;
        for (int c = 0; c < 2 && !bad && extras != NULL; c++) {
            PyObject *list = PySequence_GetItem(extras, c);
            bad = list == NULL || load_wide_roles(list, XSTART[c], &xdata[c]) < 0;
            Py_XDECREF(list);
        }
        if (bad) {
            for (int c = 0; c < 2; c++) { free(data[c]); free(xdata[c]); }
            return NULL;
        }
        for (int c = 0; c < 2; c++) {
            free(RDATA[c]);
            RDATA[c] = data[c];
            free(XDATA[c]);
            XDATA[c] = xdata[c];
        }
        WCOLOURED = white_roles != NULL;
        memset(XPOINTS, 0, sizeof XPOINTS);
        for (int c = 0; c < 2 && WCOLOURED; c++)
            for (int q = 0; q < WBITS; q++)
                if (XSTART[c][q + 1] > XSTART[c][q]) XPOINTS[c][q >> 6] |= (u64)1 << (q & 63);
    }
    /* the shapes: distinct terms, then each role's term list */
    NTERMS = NSHAPES = 0;
    Py_ssize_t nshapes = PySequence_Size(shapes);
    if (nshapes < 0 || nshapes > MAXSHAPES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many shapes");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < nshapes; k++) {
        PyObject *shape = PySequence_GetItem(shapes, k);
        Py_ssize_t m = shape == NULL ? -1 : PySequence_Size(shape);
        if (m < 1 || m > MAXFACTORS) {
            Py_XDECREF(shape);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a shape has 1 to 12 terms");
            return NULL;
        }
        for (Py_ssize_t j = 0; j < m; j++) {
            int dx, dy, state;
            PyObject *term = PySequence_GetItem(shape, j);
            int ok = term != NULL && PyArg_ParseTuple(term, "iii", &dx, &dy, &state);
            Py_XDECREF(term);
            if (!ok || dx < -3 || dx > 3 || dy < -3 || dy > 3 || state < 0 || state > 2) {
                Py_DECREF(shape);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a shape term is (dx, dy, state), |d| <= 3");
                return NULL;
            }
            int off = dx + dy * WW, t = 0;
            while (t < NTERMS && !(TSTATE[t] == state && TOFF[t] == off)) t++;
            if (t == NTERMS) {
                if (NTERMS == MAXTERMS) {
                    Py_DECREF(shape);
                    PyErr_SetString(PyExc_ValueError, "too many shape terms");
                    return NULL;
                }
                TSTATE[t] = state; TOFF[t] = off; TDX[t] = dx; TDY[t] = dy; NTERMS++;
            }
            SHAPE_T[k][j] = t;
        }
        SHAPE_N[k] = (int)m;
        Py_DECREF(shape);
    }
    NSHAPES = (int)nshapes;
    for (int k = 0; k < NSHAPES; k++)
        for (int j = 0; j < SHAPE_N[k]; j++) {
            SHAPE_OFF[k][j] = (int16_t)TOFF[SHAPE_T[k][j]];
            SHAPE_ST[k][j] = (uint8_t)TSTATE[SHAPE_T[k][j]];
        }
    for (int code = 0; code < 256; code++) {
        const int nboff[4] = {-1, 1, -WW, WW};
        u64 mask = 0;
        for (int k = 0; k < NSHAPES; k++) {
            int ok = 1;
            for (int j = 0; j < SHAPE_N[k] && ok; j++)
                for (int d = 0; d < 4; d++) {
                    if (SHAPE_OFF[k][j] != nboff[d]) continue;
                    int is_op = code >> (2 * d) & 1, is_empty = code >> (2 * d + 1) & 1;
                    int st = SHAPE_ST[k][j];
                    if (st == 1 ? !is_op : st == 2 ? !is_empty : (is_op || is_empty)) ok = 0;
                }
            if (ok) mask |= (u64)1 << k;
        }
        SHAPE_PRE[code] = mask;
    }
    for (int q = 0; q < MAXBITS; q++) {
        int r = q / WW, f = q % WW, guard = n; /* bit n: rank 0's first guard */
        NB4[q][0] = (int16_t)(f > 0 && f < n && r < n ? q - 1 : guard);
        NB4[q][1] = (int16_t)(f < n - 1 && r < n ? q + 1 : guard);
        NB4[q][2] = (int16_t)(r > 0 && r < n && f < n ? q - WW : guard);
        NB4[q][3] = (int16_t)(r < n - 1 && f < n ? q + WW : guard);
    }
    NPERM = 0;
    for (int k = 0; k < NSHAPES; k++) {
        int has_empty = 0;
        for (int j = 0; j < SHAPE_N[k]; j++) has_empty |= TSTATE[SHAPE_T[k][j]] == 2;
        if (!has_empty) PERM_SHAPE[NPERM++] = k;
    }

    for (int s = 0; s < 8; s++) {
        PyObject *perm = PySequence_GetItem(perms, s);
        if (perm == NULL) return NULL;
        if (PySequence_Size(perm) != WCELLS) {
            Py_DECREF(perm);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a permutation has n*n points");
            return NULL;
        }
        for (int p = 0; p < WCELLS; p++) {
            PyObject *v = PySequence_GetItem(perm, p);
            long q = v == NULL ? -1 : PyLong_AsLong(v);
            Py_XDECREF(v);
            if (q < 0 || q >= WCELLS) {
                Py_DECREF(perm);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad permutation");
                return NULL;
            }
            int from = (p / n) * WW + p % n, to = ((int)q / n) * WW + (int)q % n;
            WPERM[s][from] = (int16_t)to;
            WINV[s][to] = (int16_t)from;
        }
        Py_DECREF(perm);
    }
    u64 seed = 0x5EED0F3A1E5F1E1DULL, zob1[2][MAXBITS], zob2[2][MAXBITS], side1[2], side2[2];
    for (int c = 0; c < 2; c++) {
        for (int q = 0; q < MAXBITS; q++) { zob1[c][q] = splitmix(&seed); zob2[c][q] = splitmix(&seed); }
        side1[c] = splitmix(&seed);
        side2[c] = splitmix(&seed);
    }
    memset(ZQ, 0, sizeof ZQ);
    for (int s = 0; s < 8; s++)
        for (int c = 0; c < 2; c++) {
            int c2 = c ^ (s >= 4);
            SIDE1[s][c] = side1[c2];
            SIDE2[s][c] = side2[c2];
            for (int p = 0; p < WCELLS; p++) {
                int q = (p / n) * WW + p % n;
                ZQ[c][q][2 * s] = zob1[c2][WPERM[s][q]];
                ZQ[c][q][2 * s + 1] = zob2[c2][WPERM[s][q]];
            }
        }
    for (int q = 0; q < MAXBITS; q++) {
        WRANK[q] = (int16_t)(q / WW);
        WFILE[q] = (int16_t)(q % WW);
    }
    memset(WNB, 0, sizeof WNB);
    for (int r = 0; r < n; r++)
        for (int f = 0; f < n; f++)
            for (int dr = -1; dr <= 1; dr++)
                for (int df = -1; df <= 1; df++) {
                    int r2 = r + dr, f2 = f + df, q = r2 * WW + f2;
                    if (r2 < 0 || r2 >= n || f2 < 0 || f2 >= n) continue;
                    if (!diag && dr && df) continue;
                    WNB[r * WW + f][q >> 6] |= (u64)1 << (q & 63);
                }
    memset(WREACH, 0, sizeof WREACH);
    for (int r = 0; r < n; r++)
        for (int f = 0; f < n; f++) {
            int p = r * WW + f;
            WREACH[p][p >> 6] |= (u64)1 << (p & 63);
            for (int t = 0; t < NTERMS; t++) {
                int r2 = r + TDY[t], f2 = f + TDX[t], q = r2 * WW + f2;
                if (r2 < 0 || r2 >= n || f2 < 0 || f2 >= n) continue;
                WREACH[p][q >> 6] |= (u64)1 << (q & 63);
            }
        }
    memset(whistory, 0, sizeof whistory);
    for (int r = 0; r < n; r++)
        for (int f = 0; f < n; f++) {
            int centre = 2 * (n - 1) - abs(2 * r - (n - 1)) - abs(2 * f - (n - 1));
            whistory[0][r * WW + f] = whistory[1][r * WW + f] = centre;
        }
    for (int i = 0; i < WMAXPLY; i++) wkiller[i][0] = wkiller[i][1] = -1;
    if (wtt_alloc(bits) < 0) return NULL;
    WV = chosen;
    Py_RETURN_NONE;
}

static int wide_begin(PyObject *me_obj, PyObject *op_obj, u64 *me, u64 *op, u64 limit,
                      double seconds) {
    if (WV == NULL || WTT == NULL) { PyErr_SetString(PyExc_RuntimeError, "wide_setup() first"); return -1; }
    if (get_board(me_obj, me) < 0 || get_board(op_obj, op) < 0) return -1;
    for (int i = 0; i < MAXW; i++)
        if ((me[i] & op[i]) || ((me[i] | op[i]) & ~WFULL[i])) {
            PyErr_SetString(PyExc_ValueError, "stones overlap or lie off the board");
            return -1;
        }
    nodes = 0;
    node_limit = limit;
    deadline = seconds > 0 ? now() + seconds : 0;
    aborted = 0;
    progress_cb = NULL;
    return 0;
}

PyDoc_STRVAR(wide_solve_doc,
"wide_solve(me, op, black, alpha, beta, node_limit, seconds, progress, every, horizon)\n"
"-> (value, best, nodes, status)\n\n"
"As solve(), for the installed wide size; me and op are boards (bytes); best is a bit\n"
"index r*(n+3)+f, -2 pass, -1 none.");

static PyObject *py_wide_solve(PyObject *self, PyObject *args) {
    PyObject *me_obj, *op_obj, *cb;
    unsigned long long limit, every;
    int black, alpha, beta, horizon;
    double seconds;
    if (!PyArg_ParseTuple(args, "SSpiiKdOKi", &me_obj, &op_obj, &black, &alpha, &beta, &limit,
                          &seconds, &cb, &every, &horizon))
        return NULL;
    if (horizon < 0 || horizon > MAX_HORIZON) {
        PyErr_SetString(PyExc_ValueError, "horizon must be 0..253");
        return NULL;
    }
    u64 me[MAXW], op[MAXW];
    if (wide_begin(me_obj, op_obj, me, op, limit, seconds) < 0) return NULL;
    HORIZON = horizon;
    progress_cb = cb == Py_None ? NULL : cb;
    progress_every = every;
    int best = NO_MOVE;
    int value = WV->solve(me, op, black, alpha, beta, &best);
    HORIZON = 0;
    progress_cb = NULL;
    if (aborted == 2) return NULL;
    return Py_BuildValue("iiKi", value, best, (unsigned long long)nodes, aborted);
}

static PyObject *py_wide_dfpn(PyObject *self, PyObject *args) {
    PyObject *me_obj, *op_obj;
    unsigned long long limit;
    int black, attack, bits;
    double seconds;
    if (!PyArg_ParseTuple(args, "SSppiKd", &me_obj, &op_obj, &black, &attack, &bits, &limit,
                          &seconds))
        return NULL;
    if (bits < 4 || bits > 30) { PyErr_SetString(PyExc_ValueError, "tt_bits must be 4..30"); return NULL; }
    u64 me[MAXW], op[MAXW];
    if (wide_begin(me_obj, op_obj, me, op, limit, seconds) < 0 || wpt_alloc(bits) < 0) return NULL;
    int best;
    int result = WV->dfpn(me, op, black, attack, &best);
    if (aborted == 2) return NULL;
    if (aborted == 3) return PyErr_NoMemory();
    return Py_BuildValue("iKi", result, (unsigned long long)nodes, best);
}

static PyObject *py_wide_legal(PyObject *self, PyObject *args) {
    PyObject *me_obj, *op_obj;
    int black = 1;
    if (!PyArg_ParseTuple(args, "SS|p", &me_obj, &op_obj, &black)) return NULL;
    u64 me[MAXW], op[MAXW], out[MAXW];
    if (wide_begin(me_obj, op_obj, me, op, 0, 0) < 0) return NULL;
    memset(out, 0, sizeof out);
    WV->legal(me, op, black, out);
    return board_bytes(out);
}

static PyObject *py_wide_winning(PyObject *self, PyObject *args) {
    PyObject *own_obj;
    int black;
    if (!PyArg_ParseTuple(args, "Sp", &own_obj, &black)) return NULL;
    if (WV == NULL) { PyErr_SetString(PyExc_RuntimeError, "wide_setup() first"); return NULL; }
    u64 own[MAXW], out[MAXW];
    if (get_board(own_obj, own) < 0) return NULL;
    memset(out, 0, sizeof out);
    WV->winning(own, black, out);
    return board_bytes(out);
}

static PyObject *py_wide_canonical(PyObject *self, PyObject *args) {
    PyObject *me_obj, *op_obj;
    int black;
    if (!PyArg_ParseTuple(args, "SSp", &me_obj, &op_obj, &black)) return NULL;
    u64 me[MAXW], op[MAXW];
    if (wide_begin(me_obj, op_obj, me, op, 0, 0) < 0) return NULL;
    WKey k = WV->canonical(me, op, black);
    return Py_BuildValue("KKi", (unsigned long long)k.k1, (unsigned long long)k.k2, k.sym);
}

static PyObject *py_wide_forbidden(PyObject *self, PyObject *args) {
    PyObject *me_obj, *op_obj;
    int black = 1;
    if (!PyArg_ParseTuple(args, "SS|p", &me_obj, &op_obj, &black)) return NULL;
    u64 me[MAXW], op[MAXW], shapes[MAXW], roles[MAXW];
    if (wide_begin(me_obj, op_obj, me, op, 0, 0) < 0) return NULL;
    memset(shapes, 0, sizeof shapes);
    memset(roles, 0, sizeof roles);
    WV->forbidden(me, op, black, shapes, roles);
    PyObject *a = board_bytes(shapes), *b = a == NULL ? NULL : board_bytes(roles);
    PyObject *r = b == NULL ? NULL : PyTuple_Pack(2, a, b);
    Py_XDECREF(a);
    Py_XDECREF(b);
    return r;
}

static PyObject *py_wide_tune(PyObject *self, PyObject *args) {
    int block;
    if (!PyArg_ParseTuple(args, "p", &block)) return NULL;
    BLOCK_BOUND = block;
    Py_RETURN_NONE;
}

static PyObject *py_wide_stats(PyObject *self, PyObject *args) {
    u64 used = 0;
    if (WTT != NULL)
        for (u64 i = 0; i <= WTT_MASK; i++) used += WTT[i].tag != 0;
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:i,s:i}", "tt_used", (unsigned long long)used,
                         "block_cuts", (unsigned long long)block_cuts,
                         "tt_hits", (unsigned long long)tt_hits, "tt_stores",
                         (unsigned long long)tt_stores, "threat_cuts",
                         (unsigned long long)threat_cuts, "etc_cuts",
                         (unsigned long long)etc_cuts, "tt_bits", WTT_BITS, "words",
                         WV ? WV->words : 0);
}

#define WIDE_METHODS \
    {"wide_setup", py_wide_setup, METH_VARARGS, wide_setup_doc}, \
    {"wide_solve", py_wide_solve, METH_VARARGS, wide_solve_doc}, \
    {"wide_dfpn", py_wide_dfpn, METH_VARARGS, \
     "wide_dfpn(me, op, black, attacker_moves, tt_bits, node_limit, seconds): as dfpn()."}, \
    {"wide_legal", py_wide_legal, METH_VARARGS, \
     "wide_legal(me, op[, black]): the legal placements of the mover (Black unless black is " \
     "False)."}, \
    {"wide_winning", py_wide_winning, METH_VARARGS, \
     "wide_winning(own, black): the points that would complete own's path."}, \
    {"wide_canonical", py_wide_canonical, METH_VARARGS, \
     "wide_canonical(me, op, black) -> (key1, key2, symmetry)."}, \
    {"wide_stats", py_wide_stats, METH_NOARGS, "The wide search's table statistics."}, \
    {"wide_forbidden", py_wide_forbidden, METH_VARARGS, \
     "wide_forbidden(me, op[, black]) -> (by shapes, by roles): the empty points where the " \
     "mover (Black unless black is False) may " \
     "not place, by the search's one-point test and by the model's roles (a check)."}, \
    {"wide_tune", py_wide_tune, METH_VARARGS, \
     "wide_tune(block_bound): the blocked-path bound on (True) or off (False)."},
