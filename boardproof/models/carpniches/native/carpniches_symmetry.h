/*
 * The 8 board symmetries of Carpniches, the exact keys of positions and the Python-facing
 * position parser, shared by the alpha-beta (carpniches.c) and the df-pn (dfpn.c).
 *
 * The symmetries are not written here: the Python side hands them over as square
 * permutations (read_symmetries). ROWIMG[s][rank][bits] is the image under s of the six
 * squares of one rank, so a 36-bit board maps with six table lookups (map_bits).
 * Invariant: INV[s] is the inverse of PERM[s], and ROWIMG[s] agrees with PERM[s].
 *
 * Requires Python.h, u64 and the position type Pos (o1, o2, o3, l0, l1, l2: 36-bit
 * boards; side; opening: -2, -1 or a square) before it.
 */
#ifndef BOARDPROOF_CARPNICHES_SYMMETRY_H
#define BOARDPROOF_CARPNICHES_SYMMETRY_H

#define CP_SQUARES 36

static int PERM[8][CP_SQUARES], INV[8][CP_SQUARES];
static u64 ROWIMG[8][6][64];
static int SYMMETRY = 1; /* 0: positions are keyed as they are */

static inline u64 map_bits(int s, u64 x) {
    const u64(*t)[64] = ROWIMG[s];
    return t[0][x & 63] | t[1][x >> 6 & 63] | t[2][x >> 12 & 63] | t[3][x >> 18 & 63] |
           t[4][x >> 24 & 63] | t[5][x >> 30 & 63];
}

static inline void transform(const Pos *p, int s, Pos *out) {
    out->o1 = map_bits(s, p->o1);
    out->o2 = map_bits(s, p->o2);
    out->o3 = map_bits(s, p->o3);
    out->l0 = map_bits(s, p->l0);
    out->l1 = map_bits(s, p->l1);
    out->l2 = map_bits(s, p->l2);
    out->side = p->side;
    out->opening = p->opening < 0 ? p->opening : PERM[s][p->opening];
}

/* the model's order of boards (the side is not compared: images keep it) */
static inline int pos_less(const Pos *a, const Pos *b) {
    if (a->o1 != b->o1) return a->o1 < b->o1;
    if (a->o2 != b->o2) return a->o2 < b->o2;
    if (a->o3 != b->o3) return a->o3 < b->o3;
    if (a->l0 != b->l0) return a->l0 < b->l0;
    if (a->l1 != b->l1) return a->l1 < b->l1;
    if (a->l2 != b->l2) return a->l2 < b->l2;
    return a->opening < b->opening;
}

/* The smallest image over the 8 symmetries and the symmetry giving it; with symmetry
   off, the position itself. An image whose o1 is already larger cannot be smaller, so
   it is skipped before the other five boards are mapped. */
static inline int canonical(const Pos *p, Pos *out) {
    *out = *p;
    if (!SYMMETRY) return 0;
    int best = 0;
    for (int s = 1; s < 8; s++) {
        if (map_bits(s, p->o1) > out->o1) continue;
        Pos img;
        transform(p, s, &img);
        if (pos_less(&img, out)) {
            *out = img;
            best = s;
        }
    }
    return best;
}

/* The exact key of a position: its six boards, side and opening in 4 words, and `extra`
   (0 or 1: the df-pn's attacker) above them. */
typedef struct { u64 k[4]; } Key;

static inline Key pack_key(const Pos *p, int extra) {
    Key k;
    u64 op = (u64)(p->opening + 2); /* 0..37 */
    k.k[0] = p->o1 | (p->o2 & 0xFFFFFFFULL) << 36;
    k.k[1] = p->o2 >> 28 | p->o3 << 8 | (u64)p->side << 44 | op << 45 | (u64)extra << 51;
    k.k[2] = p->l0 | (p->l1 & 0xFFFFFFFULL) << 36;
    k.k[3] = p->l1 >> 28 | p->l2 << 8;
    return k;
}

static inline u64 hash_key(const Key *k) {
    u64 h = k->k[0] * 0x9E3779B97F4A7C15ULL;
    h ^= (k->k[1] + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= (k->k[2] + 0x165667B19E3779F9ULL) * 0xBF58476D1CE4E5B9ULL;
    h ^= (k->k[3] + 0x27D4EB2F165667C5ULL) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

static inline int key_eq(const Key *a, const Key *b) {
    return a->k[0] == b->k[0] && a->k[1] == b->k[1] && a->k[2] == b->k[2] && a->k[3] == b->k[3];
}

/* perms[s][sq] (8 permutations of the 36 squares) into PERM, INV and ROWIMG; 0, or -1
   with a Python error set */
static int read_symmetries(PyObject *perms) {
    PyObject *fast = PySequence_Fast(perms, "perms: expected a sequence");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 8) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "perms: expected 8 permutations");
        return -1;
    }
    for (int s = 0; s < 8; s++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, s), "bad permutation");
        if (row == NULL || PySequence_Fast_GET_SIZE(row) != CP_SQUARES) {
            Py_XDECREF(row);
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad permutation");
            return -1;
        }
        for (int sq = 0; sq < CP_SQUARES; sq++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, sq));
            if (v < 0 || v >= CP_SQUARES) {
                Py_DECREF(row);
                Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad permutation");
                return -1;
            }
            PERM[s][sq] = (int)v;
            INV[s][v] = sq;
        }
        Py_DECREF(row);
        for (int rank = 0; rank < 6; rank++)
            for (int bits = 0; bits < 64; bits++) {
                u64 img = 0;
                for (int f = 0; f < 6; f++)
                    if (bits >> f & 1) img |= (u64)1 << PERM[s][rank * 6 + f];
                ROWIMG[s][rank][bits] = img;
            }
    }
    Py_DECREF(fast);
    return 0;
}

/* the model's 8-tuple (o1, o2, o3, l0, l1, l2, side, opening) into *p, checked; 0, or -1
   with a Python error set */
static int parse_pos(PyObject *obj, Pos *p) {
    unsigned long long b[6];
    int side, opening;
    if (!PyArg_ParseTuple(obj, "KKKKKKii", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &side,
                          &opening))
        return -1;
    u64 full = ((u64)1 << CP_SQUARES) - 1;
    for (int i = 0; i < 6; i++) {
        if (b[i] & ~full) {
            PyErr_SetString(PyExc_ValueError, "board outside the 36 squares");
            return -1;
        }
    }
    if ((side != 0 && side != 1) || opening < -2 || opening >= CP_SQUARES) {
        PyErr_SetString(PyExc_ValueError, "side or opening out of range");
        return -1;
    }
    *p = (Pos){b[0], b[1], b[2], b[3], b[4], b[5], side, opening};
    if ((p->o2 & ~p->o1) || (p->o3 & ~p->o2) || (p->l0 & ~p->o1) || (p->l1 & ~p->o2) ||
        (p->l2 & ~p->o3)) {
        PyErr_SetString(PyExc_ValueError, "inconsistent stacks");
        return -1;
    }
    return 0;
}

#endif
