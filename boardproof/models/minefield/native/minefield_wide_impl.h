/*
 * The wide Minefield search for boards of W 64-bit words (included once per W by
 * minefield_wide.h, which defines W and holds the shared tables; see there).
 *
 * A node carries, besides the stones, the groups of each colour joined to each of its
 * edges (kept incrementally: a stone only ever grows them) and the 8 symmetric Zobrist
 * hashes (updated by one XOR per symmetry and move).
 */

/* how many children's table slots a node prefetches before searching them (most nodes
   are cut off at their first child or two: prefetching more only uses memory bandwidth) */
#ifndef WPREFETCH
#define WPREFETCH 2
#endif

#define BB FN(BB)
typedef struct { u64 w[W]; } BB;

typedef struct {
    BB me, op;            /* stones of the side to move, of the other side */
    /* the reach of each side's first / second edge: the edge and the points next to the
       stones joined to it (so those stones are reach & own) */
    BB fme[2], fop[2];
    u64 h[16];            /* stone hashes under each symmetry s: h[2s], h[2s + 1] (the
                             side to move apart) */
    int black;            /* the side to move is Black */
} FN(Node);
#define NODE FN(Node)

static inline BB FN(bb_load)(const u64 *src) {
    BB r;
    for (int i = 0; i < W; i++) r.w[i] = src[i];
    return r;
}
static inline BB FN(bb_or)(BB a, BB b) { for (int i = 0; i < W; i++) a.w[i] |= b.w[i]; return a; }
static inline BB FN(bb_and)(BB a, BB b) { for (int i = 0; i < W; i++) a.w[i] &= b.w[i]; return a; }
static inline BB FN(bb_andnot)(BB a, BB b) { for (int i = 0; i < W; i++) a.w[i] &= ~b.w[i]; return a; }
static inline int FN(bb_any)(BB a) {
    u64 x = 0;
    for (int i = 0; i < W; i++) x |= a.w[i];
    return x != 0;
}
static inline int FN(bb_eq)(BB a, BB b) {
    u64 x = 0;
    for (int i = 0; i < W; i++) x |= a.w[i] ^ b.w[i];
    return x == 0;
}
static inline int FN(bb_count)(BB a) {
    int c = 0;
    for (int i = 0; i < W; i++) c += __builtin_popcountll(a.w[i]);
    return c;
}
static inline int FN(bb_test)(const BB *a, int p) { return (int)(a->w[p >> 6] >> (p & 63) & 1); }
static inline void FN(bb_set)(BB *a, int p) { a->w[p >> 6] |= (u64)1 << (p & 63); }
static inline void FN(bb_clear)(BB *a, int p) { a->w[p >> 6] &= ~((u64)1 << (p & 63)); }
/* exactly one point set */
static inline int FN(bb_single)(const BB *a) {
    int seen = 0;
    for (int i = 0; i < W; i++) {
        u64 x = a->w[i];
        if (x & (x - 1)) return 0;
        if (x) { if (seen) return 0; seen = 1; }
    }
    return seen;
}
/* the lowest point of a non-empty board */
static inline int FN(bb_low)(const BB *a) {
    for (int i = 0; i < W; i++)
        if (a->w[i]) return i * 64 + __builtin_ctzll(a->w[i]);
    return -1;
}
/* shifts by 0 < k < 64 bits (towards higher / lower points) */
static inline BB FN(bb_shl)(BB a, int k) {
    BB r;
    for (int i = W - 1; i > 0; i--) r.w[i] = (a.w[i] << k) | (a.w[i - 1] >> (64 - k));
    r.w[0] = a.w[0] << k;
    return r;
}
static inline BB FN(bb_shr)(BB a, int k) {
    BB r;
    for (int i = 0; i < W - 1; i++) r.w[i] = (a.w[i] >> k) | (a.w[i + 1] << (64 - k));
    r.w[W - 1] = a.w[W - 1] >> k;
    return r;
}
#define FOR_BITS(b, p) \
    for (int _i = 0; _i < W; _i++) \
        for (u64 _x = (b).w[_i]; _x; _x &= _x - 1) \
            for (int p = _i * 64 + __builtin_ctzll(_x), _once = 1; _once; _once = 0)

static inline BB FN(full)(void) { return FN(bb_load)(WFULL); }
static inline BB FN(edge)(int colour, int which) { return FN(bb_load)(WEDGE[colour][which]); }

/* ---------------------------------------------------------------- rules */

/* Does one of the roles data[start[p] .. start[p + 1]) fit (the stones `me` placing at p)? */
static inline int FN(roles_fit)(const int *start, const int16_t *data, int p, const BB *me,
                                const BB *op, const BB *empty) {
    const int16_t *r = &data[start[p]], *end = &data[start[p + 1]];
    while (r < end) {
        int nm = r[0], no = r[1], ne = r[2];
        const int16_t *q = r + 3, *next = q + nm + no + ne;
        int ok = 1;
        for (int i = 0; ok && i < nm; i++) ok = FN(bb_test)(me, q[i]);
        q += nm;
        for (int i = 0; ok && i < no; i++) ok = FN(bb_test)(op, q[i]);
        q += no;
        for (int i = 0; ok && i < ne; i++) ok = FN(bb_test)(empty, q[i]);
        if (ok) return 1;
        r = next;
    }
    return 0;
}

/* Would a stone of the side with stones `me` (colour 0 Black, 1 White) at the empty point
   p complete a glyph? The point's roles (from the model) list the points that must hold
   M, O and E. */
static inline int FN(forbidden_at_roles)(int p, const BB *me, const BB *op, const BB *empty,
                                         int colour) {
    const int t = WT(colour);
    return FN(roles_fit)(RSTART[t], RDATA[t], p, me, op, empty);
}

/* The extra roles of the colour (see minefield_wide.h): only with roles by colour. */
static inline int FN(forbidden_at_extras)(int p, const BB *me, const BB *op, const BB *empty,
                                          int colour) {
    return FN(roles_fit)(XSTART[colour], XDATA[colour], p, me, op, empty);
}

/* The same by the shapes (the roles are the shapes that fit at p; the terms of the others
   fall on guard bits or off the board: they fail): only the shapes that the states of p's
   4 orthogonal neighbours allow are tested. */
static inline int FN(forbidden_at_shapes)(int p, const BB *me, const BB *op, const BB *empty) {
    const int16_t *nb = NB4[p];
    int code = 0;
    for (int d = 0; d < 4; d++)
        code |= (FN(bb_test)(op, nb[d]) | FN(bb_test)(empty, nb[d]) << 1) << (2 * d);
    const BB *st[3] = {me, op, empty};
    for (u64 ks = SHAPE_PRE[code]; ks; ks &= ks - 1) {
        int k = __builtin_ctzll(ks), ok = 1;
        for (int j = 0; ok && j < SHAPE_N[k]; j++) {
            int q = p + SHAPE_OFF[k][j];
            ok = q >= 0 && q < WBITS && FN(bb_test)(st[SHAPE_ST[k][j]], q);
        }
        if (ok) return 1;
    }
    return 0;
}

/* the shapes, and with roles by colour the extras of the colour that places (0 Black) */
static inline int FN(forbidden_at_any)(int p, const BB *me, const BB *op, const BB *empty,
                                       int colour) {
    if (FN(forbidden_at_shapes)(p, me, op, empty)) return 1;
    return WCOLOURED && FN(forbidden_at_extras)(p, me, op, empty, colour);
}

static inline int FN(forbidden_at)(int p, const BB *me, const BB *op, const BB *empty,
                                   int colour) {
#ifdef WIDE_CHECK
    if (FN(forbidden_at_any)(p, me, op, empty, colour) !=
        FN(forbidden_at_roles)(p, me, op, empty, colour))
        abort();
#endif
    return FN(forbidden_at_any)(p, me, op, empty, colour);
}

/* bit p of the result is bit p + off of a (0 off the board) */
static inline BB FN(bb_at)(const BB *a, int off) {
    BB r;
    if (off >= 0) {
        int ws = off >> 6, bs = off & 63;
        for (int i = 0; i < W; i++) {
            u64 lo = i + ws < W ? a->w[i + ws] : 0, hi = i + ws + 1 < W ? a->w[i + ws + 1] : 0;
            r.w[i] = bs ? (lo >> bs) | (hi << (64 - bs)) : lo;
        }
    } else {
        int k = -off, ws = k >> 6, bs = k & 63;
        for (int i = 0; i < W; i++) {
            u64 hi = i - ws >= 0 ? a->w[i - ws] : 0, lo = i - ws - 1 >= 0 ? a->w[i - ws - 1] : 0;
            r.w[i] = bs ? (hi << bs) | (lo >> (64 - bs)) : hi;
        }
    }
    return r;
}

/* the legal placements of the side with stones `me`: the empty points where no role of
   any glyph fits, all at once with whole-board shifts (the guard bits stop the wraps).
   The boards are padded with zero words so that each shift is branch-free (|offset| <
   128 bits: at most one word away). With roles by colour, the extras of `colour` (0 Black,
   1 White) at their points. */
static inline BB FN(legal_moves)(const BB *me, const BB *op, int colour) {
    u64 pad[3][W + 4];
    BB empty = FN(bb_andnot)(FN(full)(), FN(bb_or)(*me, *op));
    const BB *src[3] = {me, op, &empty};
    for (int k = 0; k < 3; k++) {
        pad[k][0] = pad[k][1] = pad[k][W + 2] = pad[k][W + 3] = 0;
        for (int i = 0; i < W; i++) pad[k][i + 2] = src[k]->w[i];
    }
    BB term[MAXTERMS], forbidden;
    for (int t = 0; t < NTERMS; t++) {
        const u64 *a = pad[TSTATE[t]] + 2;
        int off = TOFF[t];
        if (off >= 0) {
            int ws = off >> 6, bs = off & 63;
            for (int i = 0; i < W; i++)
                term[t].w[i] = (a[i + ws] >> bs) | ((a[i + ws + 1] << 1) << (63 - bs));
        } else {
            int k = -off, ws = k >> 6, bs = k & 63;
            for (int i = 0; i < W; i++)
                term[t].w[i] = (a[i - ws] << bs) | ((a[i - ws - 1] >> 1) >> (63 - bs));
        }
    }
    for (int i = 0; i < W; i++) forbidden.w[i] = 0;
    for (int k = 0; k < NSHAPES; k++) {
        BB prod = term[SHAPE_T[k][0]];
        for (int j = 1; j < SHAPE_N[k]; j++) prod = FN(bb_and)(prod, term[SHAPE_T[k][j]]);
        forbidden = FN(bb_or)(forbidden, prod);
    }
    BB legal = FN(bb_andnot)(empty, forbidden);
    if (WCOLOURED) {
        BB near = FN(bb_and)(legal, FN(bb_load)(XPOINTS[colour]));
        FOR_BITS(near, p) {
            if (FN(forbidden_at_extras)(p, me, op, &empty, colour)) FN(bb_clear)(&legal, p);
        }
    }
    return legal;
}

static inline int FN(has_legal)(const BB *me, const BB *op, int colour) {
    BB empty = FN(bb_andnot)(FN(full)(), FN(bb_or)(*me, *op));
    FOR_BITS(empty, p) {
        if (!FN(forbidden_at)(p, me, op, &empty, colour)) return 1;
    }
    return 0;
}

/* the points next to g, and g (board width WW = n + 3: the guard bits catch the wraps) */
static inline BB FN(neighbours)(BB g) {
    BB h = FN(bb_or)(g, FN(bb_or)(FN(bb_shl)(g, 1), FN(bb_shr)(g, 1)));
    BB v = WDIAG ? h : g;
    h = FN(bb_or)(h, FN(bb_or)(FN(bb_shl)(v, WW), FN(bb_shr)(v, WW)));
    return FN(bb_and)(h, FN(full)());
}

/* the points next to the stones of `own` joined to g (g within own), those stones included:
   one stone at a time (a group is a few stones: cheaper than whole-board shifts, which
   need one round per step of the group's width); the union of the points' WNB masks is
   neighbours() of the group */
static inline BB FN(flood_reach)(BB g, const BB *own) {
    BB near, todo = g;
    for (int i = 0; i < W; i++) near.w[i] = 0;
    for (int p; (p = FN(bb_low)(&todo)) >= 0;) {
        FN(bb_clear)(&todo, p);
        const u64 *nb = WNB[p];
        for (int j = 0; j < W; j++) {
            u64 add = nb[j] & own->w[j] & ~g.w[j];
            near.w[j] |= nb[j];
            g.w[j] |= add;
            todo.w[j] |= add;
        }
    }
    return near;
}

/* the points where a stone of the side with stones `own` and edge reaches r would
   complete its path (legality aside) */
static inline BB FN(winning_points)(const BB *own, const BB r[2], int colour) {
    return FN(bb_andnot)(FN(bb_and)(r[0], r[1]), *own);
}

static inline void FN(edge_groups)(const BB *own, int colour, BB r[2]) {
    for (int e = 0; e < 2; e++) {
        BB edge = FN(edge)(colour, e);
        r[e] = FN(bb_or)(edge, FN(flood_reach)(FN(bb_and)(*own, edge), own));
    }
}

/* Can the side with stones `own` (edges of `colour`) still ever connect its edges?
   The points it may still occupy are its stones and the empty points where no role
   without an empty point fits for it: such a role, once it fits, fits for ever (stones
   are never removed), so a placement there stays illegal for that side. If no chain of
   such points joins its two edges, it can never win. (The converse is not claimed: a
   chain is only a possibility.) With roles by colour the extras (minefield_wide.h) are
   left out: each keeps an empty point, so none of them fits for ever, and the shapes
   without an empty point are the same for both colours. */
static int FN(can_connect)(const BB *own, const BB *other, int colour) {
    BB st[2] = {*own, *other};
    BB empty = FN(bb_andnot)(FN(full)(), FN(bb_or)(*own, *other)), closed;
    for (int i = 0; i < W; i++) closed.w[i] = 0;
    for (int k = 0; k < NPERM; k++) {
        int sh = PERM_SHAPE[k];
        BB prod = FN(bb_at)(&st[TSTATE[SHAPE_T[sh][0]]], TOFF[SHAPE_T[sh][0]]);
        for (int j = 1; j < SHAPE_N[sh]; j++) {
            int t = SHAPE_T[sh][j];
            prod = FN(bb_and)(prod, FN(bb_at)(&st[TSTATE[t]], TOFF[t]));
        }
        closed = FN(bb_or)(closed, prod);
    }
    BB open = FN(bb_or)(*own, FN(bb_andnot)(empty, closed));
    BB g = FN(bb_and)(open, FN(edge)(colour, 0));
    BB second = FN(edge)(colour, 1);
    for (;;) {
        if (FN(bb_any)(FN(bb_and)(g, second))) return 1;
        BB grown = FN(bb_and)(FN(neighbours)(g), open);
        if (FN(bb_eq)(grown, g)) return 0;
        g = grown;
    }
}

/* the node after the side to move places at q (q < 0: passes) */
static inline void FN(play)(const NODE *n, int q, NODE *c) {
    int colour = n->black ? 0 : 1;
    c->black = !n->black;
    if (q < 0) {
        c->me = n->op; c->op = n->me;
        c->fme[0] = n->fop[0]; c->fme[1] = n->fop[1];
        c->fop[0] = n->fme[0]; c->fop[1] = n->fme[1];
        memcpy(c->h, n->h, sizeof c->h);
        return;
    }
    BB own = n->me;
    FN(bb_set)(&own, q);
    c->me = n->op;
    c->op = own;
    c->fme[0] = n->fop[0]; c->fme[1] = n->fop[1];
    for (int e = 0; e < 2; e++) {
        BB r = n->fme[e];
        if (FN(bb_test)(&r, q)) {
            /* q joins the edge's stones f (closed: no other stone of ours touches them),
               so they grow by q's group among the other stones */
            BB rest = FN(bb_andnot)(own, FN(bb_and)(r, n->me));
            BB near = FN(bb_load)(WNB[q]), g = FN(bb_and)(near, rest);
            /* q alone (the usual case): its neighbours; else flood its group */
            r = FN(bb_or)(r, FN(bb_single)(&g) ? near : FN(flood_reach)(g, &rest));
        }
        c->fop[e] = r;
    }
    const u64 *z = ZQ[colour][q];
    for (int i = 0; i < 16; i++) c->h[i] = n->h[i] ^ z[i];
}

static void FN(make_root)(const u64 *me, const u64 *op, int black, NODE *n) {
    n->me = FN(bb_load)(me);
    n->op = FN(bb_load)(op);
    n->black = black;
    int colour = black ? 0 : 1;
    FN(edge_groups)(&n->me, colour, n->fme);
    FN(edge_groups)(&n->op, !colour, n->fop);
    for (int i = 0; i < 16; i++) n->h[i] = 0;
    FOR_BITS(n->me, p) {
        for (int i = 0; i < 16; i++) n->h[i] ^= ZQ[colour][p][i];
    }
    FOR_BITS(n->op, p) {
        for (int i = 0; i < 16; i++) n->h[i] ^= ZQ[!colour][p][i];
    }
}

/* ------------------------------------------------------- transpositions */

/* the key of the stones with hashes h (see Node) and colour to move */
static inline WKey FN(canonical_h)(const u64 *h, int colour) {
    WKey best = {h[0] ^ SIDE1[0][colour], h[1] ^ SIDE2[0][colour], 0};
    for (int s = 1; s < 8; s++) {
        u64 k1 = h[2 * s] ^ SIDE1[s][colour];
        if (k1 > best.k1) continue;
        u64 k2 = h[2 * s + 1] ^ SIDE2[s][colour];
        if (k1 < best.k1 || k2 < best.k2) { best.k1 = k1; best.k2 = k2; best.sym = s; }
    }
    return best;
}

static inline WKey FN(canonical)(const NODE *n) { return FN(canonical_h)(n->h, n->black ? 0 : 1); }

/* Does a stone of the side to move (colour 0 Black, 1 White) at q leave the other side
   without any legal winning placement among `threats`? */
static inline int FN(defends)(int q, const BB *me, const BB *op, const BB *threats,
                              int colour) {
    BB me2 = *me;
    FN(bb_set)(&me2, q);
    BB empty = FN(bb_andnot)(FN(full)(), FN(bb_or)(me2, *op)), t = *threats;
    FN(bb_clear)(&t, q);
    FOR_BITS(t, p) {
        if (!FN(forbidden_at)(p, op, &me2, &empty, !colour)) return 0;
    }
    return 1;
}

/* The other side's threats at a node: its winning points (all empty), and for the first
   64 whether it may place there now. */
typedef struct {
    BB threats, empty;
    int16_t tp[64], tr[64], tf[64]; /* point, rank, file */
    uint8_t tlegal[64];
    int nt, overflow;
} FN(Threats);
#define THREATS FN(Threats)

static inline void FN(threats_of)(const NODE *n, THREATS *t) {
    int colour = n->black ? 0 : 1;
    t->threats = FN(bb_andnot)(FN(winning_points)(&n->op, n->fop, !colour), n->me);
    t->empty = FN(bb_andnot)(FN(full)(), FN(bb_or)(n->me, n->op));
    t->nt = t->overflow = 0;
    FOR_BITS(t->threats, p) {
        if (t->nt < 64) {
            int i = t->nt++;
            t->tp[i] = (int16_t)p;
            t->tr[i] = WRANK[p];
            t->tf[i] = WFILE[p];
            t->tlegal[i] = (uint8_t)!FN(forbidden_at)(p, &n->op, &n->me, &t->empty, !colour);
        } else {
            t->overflow = 1;
        }
    }
}

/* Does the legal move q of the side to move leave the other side without any legal
   winning placement among the threats t (there are some)? A stone more than 3 files or
   ranks away from a threat point cannot change whether the other side may place there
   (every role lies within 3 files and ranks of the new stone, an extra role too: its
   points are some of its shape's), so such a move leaves a
   threat that is legal now legal: it does not defend. */
static inline int FN(keeps)(const NODE *n, const THREATS *t, int q) {
    const int colour = n->black ? 0 : 1;
    if (t->overflow) return FN(defends)(q, &n->me, &n->op, &t->threats, colour);
    int qr = WRANK[q], qf = WFILE[q], near[64], nn = 0;
    for (int i = 0; i < t->nt; i++) {
        int dr = t->tr[i] - qr, df = t->tf[i] - qf;
        if (dr > 3 || dr < -3 || df > 3 || df < -3) {
            if (t->tlegal[i]) return 0; /* a far threat: no work */
        } else if (t->tp[i] != q) {
            near[nn++] = t->tp[i];
        }
    }
    if (nn == 0) return 1;
    BB me2 = n->me, empty2 = t->empty;
    FN(bb_set)(&me2, q);
    FN(bb_clear)(&empty2, q);
    for (int i = 0; i < nn; i++)
        if (!FN(forbidden_at)(near[i], &n->op, &me2, &empty2, !colour)) return 0;
    return 1;
}

/* The moves of the side to move that do not let the other side win at once (all legal
   moves if it has no winning point), given its threats t; *all_lose when there are
   threats and none defends. */
static inline BB FN(candidates_t)(const NODE *n, const THREATS *t, const BB *legal,
                                  int *all_lose) {
    *all_lose = 0;
    if (!FN(bb_any)(t->threats)) return *legal;
    /* a move keeps a legal threat p only on p or on a cell of a shape containing p (else
       p stays legal) */
    BB c = *legal;
    if (!t->overflow)
        for (int i = 0; i < t->nt; i++)
            if (t->tlegal[i]) c = FN(bb_and)(c, FN(bb_load)(WREACH[t->tp[i]]));
    BB test = c;
    FOR_BITS(test, q) {
        if (!FN(keeps)(n, t, q)) FN(bb_clear)(&c, q);
    }
    *all_lose = !FN(bb_any)(c);
    return c;
}

/* Is some point of `points` (empty) a legal placement of the side to move that keeps the
   threats t? */
static inline int FN(any_candidate)(const NODE *n, const THREATS *t, const BB *points,
                                    const BB *empty) {
    FOR_BITS(*points, q) {
        if (FN(keeps)(n, t, q) && !FN(forbidden_at)(q, &n->me, &n->op, empty, !n->black)) return 1;
    }
    return 0;
}

/* the lowest legal placement of the side to move, or -1 */
static inline int FN(first_legal)(const NODE *n, const BB *empty) {
    FOR_BITS(*empty, q) {
        if (!FN(forbidden_at)(q, &n->me, &n->op, empty, !n->black)) return q;
    }
    return -1;
}

static inline BB FN(candidates)(const NODE *n, const BB *legal, int *all_lose) {
    THREATS t;
    FN(threats_of)(n, &t);
    return FN(candidates_t)(n, &t, legal, all_lose);
}

/* ---------------------------------------------------------------- search */

static inline WKey FN(child_key)(const NODE *n, int q) {
    int colour = n->black ? 0 : 1;
    if (q < 0) return FN(canonical_h)(n->h, !colour);
    u64 h[16];
    const u64 *z = ZQ[colour][q];
    for (int i = 0; i < 16; i++) h[i] = n->h[i] ^ z[i];
    return FN(canonical_h)(h, !colour);
}


/* fetch the table slot of the child after q (a probe is mostly a cache miss) */
static inline void FN(prefetch_child)(const NODE *n, int q, int rem) {
    uint8_t ctag = horizon_tag(rem - 1);
    WKey ck = FN(child_key)(n, q);
    __builtin_prefetch(&WTT[(ck.k1 ^ (ctag == 255 ? 0 : ctag)) & WTT_MASK & ~(u64)1]);
}

static int FN(negamax)(const NODE *n, int alpha, int beta, int ply, int rem, int *best_out) {
    if ((++nodes & 0xFFFF) == 0 || nodes == node_limit) check_budget();
    if (aborted) return 0;
    if (HORIZON && rem <= 0) { *best_out = NO_MOVE; return 0; }
    NODE child;
    int colour = n->black ? 0 : 1;
    /* the node's table slot is fetched from memory while the immediate win is looked for */
    const uint8_t tag = horizon_tag(rem);
    WKey key = FN(canonical)(n);
    __builtin_prefetch(&WTT[(key.k1 ^ (tag == 255 ? 0 : tag)) & WTT_MASK & ~(u64)1]);
    /* an immediate win: only the winning points need a legality test (no full move list) */
    {
        BB empty = FN(bb_andnot)(FN(full)(), FN(bb_or)(n->me, n->op));
        BB wp = FN(bb_and)(FN(winning_points)(&n->me, n->fme, colour), empty);
        FOR_BITS(wp, p) {
            if (!FN(forbidden_at)(p, &n->me, &n->op, &empty, colour)) {
                *best_out = p;
                return WDIST ? WWIN - 1 : 1;
            }
        }
    }
    /* one ply left and no immediate win: every child is at the horizon */
    if (HORIZON && rem == 1) { *best_out = NO_MOVE; return 0; }

    /* the table before the move list: a cutoff needs no moves (pass and dead nodes are
       never stored, so an entry is for a node with legal moves) */
    WEntry *e = wtt_find(&key, tag);
    int ttbest = NO_MOVE;
    if (e) {
        tt_hits++;
        int b = e->best >= 0 ? WINV[key.sym][e->best] : e->best;
        if (e->lo >= beta) { *best_out = b; return e->lo; }
        if (e->hi <= alpha) { *best_out = b; return e->hi; }
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
        if (e->best >= 0) ttbest = b;
    }
    const int lost = WDIST ? -(WWIN - 2) : -1; /* the other side wins at its next ply */
    const int empties = WCELLS - FN(bb_count)(FN(bb_or)(n->me, n->op));
    const int kp = ply < WMAXPLY ? ply : WMAXPLY - 1;
    const int killers[2] = {wkiller[kp][0], wkiller[kp][1]};
    int best = -WWIN - 1, bestmove = NO_MOVE;

    /* The first move ahead of the move list: the first of the table move and the killers
       that is a candidate (legal, and not leaving the other side a winning placement) is
       the move the list below would put first. Most nodes that get here are cut off by it,
       and then need no list. Only when nothing else of the list can come first: no
       blocked-path bound or enhanced transposition cutoffs, and a window whose lower end
       is at least `lost` (so the bound of the first child does not depend on whether
       some legal moves lose at once). The history is copied first, so that the list made
       after this move's subtree is ordered as before it. */
    THREATS th;
    int have_threats = 0, first = -1;
    if (!BLOCK_BOUND && ply < WMAXPLY && alpha >= lost &&
        !(ETC_MIN_EMPTY && empties >= ETC_MIN_EMPTY)) {
        BB empty = FN(bb_andnot)(FN(full)(), FN(bb_or)(n->me, n->op));
        const int tries[3] = {ttbest, killers[0], killers[1]};
        {
            int q = ttbest >= 0 ? ttbest : killers[0];
            if (q >= 0 && FN(bb_test)(&empty, q)) FN(prefetch_child)(n, q, rem);
        }
        for (int i = 0; i < 3 && first < 0; i++) {
            int q = tries[i];
            if (q < 0 || !FN(bb_test)(&empty, q) || FN(forbidden_at)(q, &n->me, &n->op, &empty, colour))
                continue;
            if (!have_threats) { FN(threats_of)(n, &th); have_threats = 1; }
            if (!FN(bb_any)(th.threats) || FN(keeps)(n, &th, q)) first = q;
        }
    }
    const u64 start_nodes = nodes;
    if (first >= 0) {
        int dummy;
        memcpy(whsnap[ply], whistory[colour], sizeof(int) * (size_t)WBITS);
        FN(play)(n, first, &child);
        int v = wup(FN(negamax)(&child, wdown(beta), wdown(alpha), ply + 1, rem - 1, &dummy));
        if (aborted) return 0;
        best = v;
        bestmove = first;
        if (best >= beta) {
            whistory[colour][first] += empties;
            if (wkiller[kp][0] != first) { wkiller[kp][1] = wkiller[kp][0]; wkiller[kp][0] = first; }
            wtt_store(&key, tag, best, WWIN, first, nodes - start_nodes + 1);
            *best_out = first;
            return best;
        }
    }

    /* A threat that no move defends, found without the move list: the candidates lie
       within reach of every legal threat (see candidates_t()); if no empty point there keeps
       the threats and the mover has a legal placement, every move loses at once. (Not
       with the blocked-path bound, which the move list's order puts first.) */
    if (first < 0 && !BLOCK_BOUND) {
        if (!have_threats) { FN(threats_of)(n, &th); have_threats = 1; }
        if (FN(bb_any)(th.threats) && !th.overflow) {
            BB near = FN(bb_andnot)(FN(full)(), FN(bb_or)(n->me, n->op)), empty = near;
            int bounded = 0;
            for (int i = 0; i < th.nt; i++)
                if (th.tlegal[i]) { near = FN(bb_and)(near, FN(bb_load)(WREACH[th.tp[i]])); bounded = 1; }
            int q;
            if (bounded && !FN(any_candidate)(n, &th, &near, &empty) &&
                (q = FN(first_legal)(n, &empty)) >= 0) {
                threat_cuts++;
                *best_out = q;
                wtt_store(&key, tag, lost, lost, q, nodes - start_nodes + 1);
                return lost;
            }
        }
    }

    BB legal = FN(legal_moves)(&n->me, &n->op, colour);
    if (!FN(bb_any)(legal)) {
        if (!FN(has_legal)(&n->op, &n->me, !colour)) { *best_out = NO_MOVE; return 0; } /* dead */
        int dummy;
        *best_out = PASS_MOVE;
        FN(play)(n, PASS_MOVE, &child);
        return wup(FN(negamax)(&child, wdown(beta), wdown(alpha), ply + 1, rem - 1, &dummy));
    }
    /* the blocked-path bound (option): a side that can never connect can never win, so
       the value is <= 0 if the mover cannot, >= 0 if the other side cannot */
    int cap_hi = WWIN, cap_lo = -WWIN;
    if (BLOCK_BOUND) {
        if (!FN(can_connect)(&n->me, &n->op, colour)) cap_hi = 0;
        if (!FN(can_connect)(&n->op, &n->me, !colour)) cap_lo = 0;
        if (cap_hi == 0 || cap_lo == 0) {
            if (cap_hi == 0 && cap_lo == 0) {
                block_cuts++;
                *best_out = FN(bb_low)(&legal);
                wtt_store(&key, tag, 0, 0, *best_out, 1);
                return 0;
            }
            if (cap_hi <= alpha || cap_lo >= beta) {
                block_cuts++;
                *best_out = FN(bb_low)(&legal);
                wtt_store(&key, tag, cap_lo, cap_hi, NO_MOVE, 1);
                return cap_hi <= alpha ? cap_hi : cap_lo;
            }
            if (cap_hi < beta) beta = cap_hi;
            if (cap_lo > alpha) alpha = cap_lo;
        }
    }
    const int alpha0 = alpha;

    int all_lose;
    if (!have_threats) FN(threats_of)(n, &th);
    BB cand = FN(candidates_t)(n, &th, &legal, &all_lose);
    if (all_lose) { /* (never after a first move: that one was a candidate) */
        threat_cuts++;
        int q = FN(bb_low)(&legal);
        *best_out = q;
        wtt_store(&key, tag, lost, lost, q, nodes - start_nodes + 1);
        return lost;
    }
    int count = FN(bb_count)(cand), total = FN(bb_count)(legal);

    if (ETC_MIN_EMPTY && empties >= ETC_MIN_EMPTY) {
        int need = wdown(beta);
        uint8_t ctag = horizon_tag(rem - 1);
        FOR_BITS(cand, q) {
            WKey ck = FN(child_key)(n, q); /* from the hashes alone */
            WEntry *ce = wtt_find(&ck, ctag);
            if (ce && ce->hi <= need) {
                etc_cuts++;
                int v = wup(ce->hi);
                wtt_store(&key, tag, v, WWIN, q, nodes - start_nodes + 1);
                *best_out = q;
                return v;
            }
        }
    }

    /* move order: table move, killers, then by history (as it was before the first move) */
    const int *hist = first >= 0 ? whsnap[ply] : whistory[colour];
    int16_t moves[count > 0 ? count : 1];
    int m = 0;
    if (ttbest >= 0 && FN(bb_test)(&cand, ttbest)) { moves[m++] = (int16_t)ttbest; FN(bb_clear)(&cand, ttbest); }
    for (int i = 0; i < 2; i++) {
        int k = killers[i];
        if (k >= 0 && FN(bb_test)(&cand, k)) { moves[m++] = (int16_t)k; FN(bb_clear)(&cand, k); }
    }
    int first_sorted = m;
    FOR_BITS(cand, p) {
        int h = hist[p], j = m++;
        while (j > first_sorted && hist[moves[j - 1]] < h) { moves[j] = moves[j - 1]; j--; }
        moves[j] = (int16_t)p;
    }
    int from = 0;
    if (first >= 0) {
#ifdef WIDE_CHECK
        if (moves[0] != first) abort();
#endif
        from = 1; /* moves[0] == first: searched */
        if (count < total && best < lost) best = lost; /* the moves skipped lose at once */
    } else {
        bestmove = moves[0];
        if (count < total) best = lost; /* the moves skipped lose at once */
    }
    /* the table slots of the next children, fetched from memory while the first ones
       are searched (a table probe is mostly a cache miss) */
    for (int i = from; i < m && i < from + WPREFETCH; i++) FN(prefetch_child)(n, moves[i], rem);
    for (int i = from; i < m; i++) {
        int p = moves[i], dummy;
        int a = alpha > best ? alpha : best;
        FN(play)(n, p, &child);
        int v = wup(FN(negamax)(&child, wdown(beta), wdown(a), ply + 1, rem - 1, &dummy));
        if (aborted) return 0;
        if (v > best) {
            best = v;
            bestmove = p;
            if (best >= beta) {
                whistory[colour][p] += empties;
                if (wkiller[kp][0] != p) { wkiller[kp][1] = wkiller[kp][0]; wkiller[kp][0] = p; }
                break;
            }
        }
    }
    int lo = best <= alpha0 ? -WWIN : best, hi = best >= beta ? WWIN : best;
    if (best > alpha0 && best < beta) lo = hi = best;
    if (hi > cap_hi) hi = cap_hi;
    if (lo < cap_lo) lo = cap_lo;
    wtt_store(&key, tag, lo, hi, bestmove, nodes - start_nodes + 1);
    *best_out = bestmove;
    return best;
}

static int FN(solve)(const u64 *me, const u64 *op, int black, int alpha, int beta, int *best) {
    NODE root;
    FN(make_root)(me, op, black, &root);
    return FN(negamax)(&root, alpha, beta, 0, HORIZON, best);
}

/* ------------------------------------------------ proof-number search */

/* 1 attacker wins, 0 it does not, -1 open: then *kids holds the child moves (PASS_MOVE
   for a pass), malloc'ed, *count of them. */
static int FN(pn_expand)(const NODE *n, int attack, int16_t **kids, int *count) {
    int colour = n->black ? 0 : 1;
    BB legal = FN(legal_moves)(&n->me, &n->op, colour);
    *count = 0;
    *kids = NULL;
    if (!FN(bb_any)(legal)) {
        if (!FN(has_legal)(&n->op, &n->me, !colour)) return 0; /* dead: no win for the attacker */
        *kids = malloc(sizeof(int16_t));
        if (*kids == NULL) return -2;
        (*kids)[0] = PASS_MOVE;
        *count = 1;
        return -1;
    }
    if (FN(bb_any)(FN(bb_and)(legal, FN(winning_points)(&n->me, n->fme, colour)))) return attack;
    int all_lose;
    BB cand = FN(candidates)(n, &legal, &all_lose);
    if (all_lose) return !attack;
    *kids = malloc(sizeof(int16_t) * (size_t)FN(bb_count)(cand));
    if (*kids == NULL) return -2;
    FOR_BITS(cand, q) { (*kids)[(*count)++] = (int16_t)q; }
    return -1;
}

static void FN(pn_mid)(const NODE *n, int attack, uint32_t thpn, uint32_t thdn,
                       uint32_t *out_pn, uint32_t *out_dn) {
    if ((++nodes & 0xFFFF) == 0 || nodes == node_limit) check_budget();
    WKey key = FN(canonical)(n);
    if (aborted) { *out_pn = *out_dn = 1; return; }
    const u64 start_nodes = nodes;
    int16_t *kids;
    int count;
    int done = FN(pn_expand)(n, attack, &kids, &count);
    if (done == -2) { aborted = 3; *out_pn = *out_dn = 1; return; }
    if (done >= 0) {
        uint32_t pn = done ? 0 : PN_INF, dn = done ? PN_INF : 0;
        wpt_put(&key, attack, pn, dn, 1);
        *out_pn = pn; *out_dn = dn;
        return;
    }
    WKey *keys = malloc(sizeof(WKey) * (size_t)count);
    if (keys == NULL) { free(kids); aborted = 3; *out_pn = *out_dn = 1; return; }
    for (int i = 0; i < count; i++) keys[i] = FN(child_key)(n, kids[i]);
    const int or_node = attack;
    uint32_t pn = 1, dn = 1;
    for (;;) {
        uint32_t best_x = PN_INF + 1, second_x = PN_INF, sum_y = 0, best_y = 0;
        int best = -1;
        for (int i = 0; i < count; i++) {
            uint32_t cpn = 1, cdn = 1;
            wpt_get(&keys[i], !attack, &cpn, &cdn);
            uint32_t x = or_node ? cpn : cdn, y = or_node ? cdn : cpn;
            sum_y = sat_add(sum_y, y);
            if (x < best_x) { second_x = best_x; best_x = x; best = i; best_y = y; }
            else if (x < second_x) second_x = x;
        }
        if (second_x > PN_INF) second_x = PN_INF;
        pn = or_node ? best_x : sum_y;
        dn = or_node ? sum_y : best_x;
        if (pn >= thpn || dn >= thdn || aborted) break;
        uint32_t thx = or_node ? thpn : thdn, thy = or_node ? thdn : thpn;
        uint32_t grow = second_x >= PN_INF ? PN_INF : second_x + second_x / 4 + 1;
        uint32_t child_x = thx < grow ? thx : grow;
        uint32_t child_y = thy >= PN_INF ? PN_INF : thy - sum_y + best_y;
        if (child_y > PN_INF) child_y = PN_INF;
        uint32_t cpn, cdn;
        NODE child;
        FN(play)(n, kids[best], &child);
        FN(pn_mid)(&child, !attack, or_node ? child_x : child_y, or_node ? child_y : child_x,
                   &cpn, &cdn);
    }
    free(keys);
    free(kids);
    if (!aborted) wpt_put(&key, attack, pn, dn, nodes - start_nodes + 1);
    *out_pn = pn; *out_dn = dn;
}

static int FN(dfpn)(const u64 *me, const u64 *op, int black, int attack, int *best) {
    NODE root;
    FN(make_root)(me, op, black, &root);
    uint32_t pn, dn;
    FN(pn_mid)(&root, attack, PN_INF, PN_INF, &pn, &dn);
    int result = aborted ? -1 : (pn == 0 ? 1 : (dn == 0 ? 0 : -1));
    *best = NO_MOVE;
    if (result == 1 && attack) { /* the child the proof goes through */
        int16_t *kids;
        int count;
        int done = FN(pn_expand)(&root, attack, &kids, &count);
        if (done == 1) {
            BB legal = FN(legal_moves)(&root.me, &root.op, black ? 0 : 1);
            BB wins = FN(bb_and)(legal, FN(winning_points)(&root.me, root.fme, black ? 0 : 1));
            *best = FN(bb_low)(&wins);
        } else if (done == -1) {
            for (int i = 0; i < count && *best == NO_MOVE; i++) {
                WKey k = FN(child_key)(&root, kids[i]);
                uint32_t cpn = 1, cdn = 1;
                if (wpt_get(&k, !attack, &cpn, &cdn) && cpn == 0) *best = kids[i];
            }
            free(kids);
        }
    }
    return result;
}

/* ------------------------------------------------------------ helpers */

static void FN(legal_out)(const u64 *me, const u64 *op, int black, u64 *out) {
    BB a = FN(bb_load)(me), b = FN(bb_load)(op);
    BB r = FN(legal_moves)(&a, &b, black ? 0 : 1);
    memcpy(out, r.w, sizeof r.w);
}

static void FN(winning_out)(const u64 *own, int black, u64 *out) {
    BB a = FN(bb_load)(own), f[2];
    FN(edge_groups)(&a, black ? 0 : 1, f);
    BB r = FN(winning_points)(&a, f, black ? 0 : 1);
    memcpy(out, r.w, sizeof r.w);
}

/* the forbidden empty points of the mover (Black if black) by the search's test (shapes,
   and the extras with roles by colour) and by the model's roles */
static void FN(forbidden_out)(const u64 *me, const u64 *op, int black, u64 *by_shapes,
                              u64 *by_roles) {
    const int colour = black ? 0 : 1;
    BB a = FN(bb_load)(me), b = FN(bb_load)(op);
    BB empty = FN(bb_andnot)(FN(full)(), FN(bb_or)(a, b)), s, r;
    for (int i = 0; i < W; i++) s.w[i] = r.w[i] = 0;
    FOR_BITS(empty, p) {
        if (FN(forbidden_at_any)(p, &a, &b, &empty, colour)) FN(bb_set)(&s, p);
        if (FN(forbidden_at_roles)(p, &a, &b, &empty, colour)) FN(bb_set)(&r, p);
    }
    memcpy(by_shapes, s.w, sizeof s.w);
    memcpy(by_roles, r.w, sizeof r.w);
}

static WKey FN(canonical_of)(const u64 *me, const u64 *op, int black) {
    NODE n;
    FN(make_root)(me, op, black, &n);
    return FN(canonical)(&n);
}

static const WVariant FN(variant) = {W, FN(solve), FN(dfpn), FN(legal_out), FN(winning_out),
                                     FN(canonical_of), FN(forbidden_out)};

#undef FOR_BITS
#undef THREATS
#undef NODE
#undef BB
