/*
 * The native MCTS engine for Minefield (every size 2..26, both win rules): the game side
 * of boardproof/solvers/native/mcts_tree.h (the tree) and its Python binding.
 *
 * The rules are not written here: the glyphs come from Python as "roles" relative to the
 * new stone (boardproof.models.minefield.board.glyph_roles: the other cells of a forbidden
 * window and the state each needs: mover / opponent / empty), so a variant's glyph set is
 * a different table, not different code.
 *
 * Edge glyphs (issue 30, the cartwheel): the last `edged` roles are those of a glyph that
 * counts the points just beyond the board as stones of the edge's owner (beyond rank 1 and
 * rank n Black's, beyond file a and the last file White's). Those roles read such a point
 * as that stone (Game.beyond), so they fit by the mover's colour through want[c]: a
 * condition there holds for the owner as mover (M) or as opponent (O), never as empty.
 * Every other role sees OFF there, as before (the plain roles come first: the same loop).
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
#define PATTERNS 65536 /* 3x3 patterns: 8 neighbours, 4 states each (see pattern_at) */
#define MCTS_PRIOR

enum { EMPTY = 0, BLACK = 1, WHITE = 2, OFF = 3 };

typedef struct {
    int len;
    int16_t offset[ROLE_MAX];
    uint8_t want[2][ROLE_MAX]; /* per mover colour: the cell value each cell must hold */
} Role;

typedef struct {
    int n, connect8, nroles;
    int nplain;             /* roles[nplain ..] are the edge glyph's (see the top) */
    Role roles[MAX_ROLES];
    uint8_t beyond[PCELLS]; /* what an edge glyph's role sees at an off-board cell: the
                               owner's stone just beyond an edge, else OFF */
    int16_t pad_of[POINTS]; /* compact point -> padded index */
    int16_t nbr[8];         /* padded offsets of the neighbours (orthogonal first) */
    int knowledge;          /* KNOW_* bits: the playout policy's knowledge */
    int nbridges;
    int16_t bridge[16][3];  /* (A, B, r) offsets from an intrusion q: see save_bridge */
    int16_t pat_off[2][8];  /* per mover: padded offsets of the 8 pattern cells */
    int pattern_prior;      /* equivalent experience of the pattern prior (0: off) */
    int distance_prior;     /* equivalent experience of the distance prior (0: off) */
    int two_distance;       /* the distance prior measures two-distances (else one-) */
    float gamma_cap;        /* playouts: a weight at or above it is always taken */
    float gamma[PATTERNS];  /* learned weight of each 3x3 pattern (1: no knowledge) */
} Game;

/* knowledge of the playouts, each on/off (EngineSettings.knowledge, .pattern_playout) */
#define KNOW_BRIDGE 1
#define KNOW_PATTERN_PLAYOUT 2
/* a playout's draws rejected by pattern weight in one turn before it takes any legal
   move, and the weight from which a draw is always taken */
#define PATTERN_TRIES 16
#define PATTERN_CAP 4.0f

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
    for (int r = 0; r < g->nplain; r++) {
        const Role *role = &g->roles[r];
        int k = 0;
        while (k < role->len && s->cell[q + role->offset[k]] == role->want[c][k]) k++;
        if (k == role->len) return 0;
    }
    for (int r = g->nplain; r < g->nroles; r++) { /* an edge glyph's: see the top */
        const Role *role = &g->roles[r];
        int k = 0;
        for (; k < role->len; k++) {
            int x = q + role->offset[k];
            uint8_t v = s->cell[x] == OFF ? g->beyond[x] : s->cell[x];
            if (v != role->want[c][k]) break;
        }
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

/*
 * The 3x3 pattern around padded index q for mover c: the 8 neighbours in the mover's
 * frame (for White the board is read transposed, so that the mover always joins the
 * first and last row of the frame), in the order (dx, dy) = (-1, -1), (0, -1), (1, -1),
 * (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1), each 0 empty, 1 mover, 2 opponent, 3 off the
 * board, the k-th in bits 2k, 2k + 1 (boardproof.models.minefield.native.patterns).
 */
static inline int pattern_at(const GState *s, int q, int c) {
    static const uint8_t REL[2][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}};
    const int16_t *off = s->g->pat_off[c];
    int code = 0;
    for (int k = 0; k < 8; k++) code |= REL[c][s->cell[q + off[k]]] << (2 * k);
    return code;
}

/*
 * Shortest paths (Hex's "one-distance"): for colour c, the fewest empty points c must
 * still fill to join its two edges through each point, with c's stones free, the
 * opponent's stones and ``blocked`` points closed; neighbours as the win rule joins
 * stones. through[q] = dist from edge A + dist from edge B - the point's own cost
 * (a large number where no path passes). Returns the shortest path's length.
 */
#define FAR 10000
static int path_lengths(const GState *s, int c, const uint8_t *blocked, int16_t *through) {
    const Game *g = s->g;
    int n = g->n, nn = n * n, links = g->connect8 ? 8 : 4;
    int16_t dist[2][PCELLS];
    int16_t deque[4 * PCELLS];
    for (int side = 0; side < 2; side++) {
        int16_t *d = dist[side];
        for (int q = 0; q < PCELLS; q++) d[q] = FAR;
        /* 0-1 BFS: a deque in one array, the front growing down from the middle */
        int head = 2 * PCELLS, tail = 2 * PCELLS;
        for (int p = 0; p < nn; p++) {
            int line = c == 0 ? p / n : p % n, q = g->pad_of[p];
            if (line != (side == 0 ? 0 : n - 1)) continue;
            if (s->cell[q] == 2 - c || blocked[q]) continue;
            int cost = s->cell[q] == c + 1 ? 0 : 1;
            if (cost < d[q]) {
                d[q] = (int16_t)cost;
                if (cost == 0) deque[--head] = (int16_t)q;
                else deque[tail++] = (int16_t)q;
            }
        }
        while (head < tail) {
            int q = deque[head++];
            for (int k = 0; k < links; k++) {
                int x = q + g->nbr[k];
                if (s->cell[x] == OFF || s->cell[x] == 2 - c || blocked[x]) continue;
                int cost = s->cell[x] == c + 1 ? 0 : 1;
                if (d[q] + cost < d[x]) {
                    d[x] = (int16_t)(d[q] + cost);
                    if (cost == 0) deque[--head] = (int16_t)x;
                    else deque[tail++] = (int16_t)x;
                }
            }
        }
    }
    int best = FAR;
    for (int p = 0; p < nn; p++) {
        int q = g->pad_of[p];
        int own = s->cell[q] == EMPTY ? 1 : 0;
        int len = dist[0][q] >= FAR || dist[1][q] >= FAR ? FAR : dist[0][q] + dist[1][q] - own;
        through[q] = (int16_t)len;
        if (len < best) best = len;
    }
    return best;
}

/*
 * Hex's two-distance (Queenbee's potentials) for colour c: the open points (empty, not
 * ``blocked``) are the nodes; two are neighbours when next to each other or both next to
 * one group of c's stones; a point next to an edge (itself or through a group) is at
 * distance 1 from it, any other at 1 + the second smallest distance among its neighbours
 * (the opponent takes the best one). through[q] = the sum of the distances from both
 * edges at an open point q (FAR where no two-distance path passes or q is not open).
 * Returns the smallest sum, or -1 when the neighbour lists overflow (never on boards up
 * to 26x26 in practice; the caller then uses path_lengths).
 */
#define TD_ADJ 65536
static int two_distances(const GState *s, int c, const uint8_t *blocked, int16_t *through) {
    const Game *g = s->g;
    int n = g->n, nn = n * n, links = g->connect8 ? 8 : 4;
#define OPEN_AT(y) (s->cell[y] == EMPTY && !blocked[y])
    /* c's groups (stones joined by stones alone, not through an edge: the union-find of
       the state joins the edges too), their edges, and the open points next to each */
    int16_t group[PCELLS], todo[POINTS], head[POINTS], gcell[8 * POINTS], gnext[8 * POINTS];
    uint8_t gedges[POINTS];
    int groups = 0, gn = 0;
    for (int p = 0; p < nn; p++) group[g->pad_of[p]] = -1;
    for (int p = 0; p < nn; p++) {
        int q0 = g->pad_of[p];
        if (s->cell[q0] != c + 1 || group[q0] >= 0) continue;
        int id = groups++, top = 0;
        head[id] = -1;
        gedges[id] = 0;
        group[q0] = (int16_t)id;
        todo[top++] = (int16_t)q0;
        while (top) {
            int q = todo[--top];
            int pq = (q / W - PAD) * n + q % W - PAD;
            gedges[id] |= (uint8_t)edges_of(g, pq, c);
            for (int k = 0; k < links; k++) {
                int y = q + g->nbr[k];
                if (s->cell[y] == c + 1 && group[y] < 0) {
                    group[y] = (int16_t)id;
                    todo[top++] = (int16_t)y;
                }
            }
        }
    }
    for (int p = 0; p < nn; p++) {
        int q = g->pad_of[p];
        if (s->cell[q] != c + 1) continue;
        int r = group[q];
        for (int k = 0; k < links; k++) {
            int y = q + g->nbr[k];
            if (!OPEN_AT(y)) continue;
            gcell[gn] = (int16_t)y;
            gnext[gn] = head[r];
            head[r] = (int16_t)gn++;
        }
    }
    /* each open point's neighbours (adj[start[i] .. start[i + 1])) and edges */
    int16_t open[POINTS], start[POINTS + 1], adj[TD_ADJ];
    uint8_t edges[POINTS];
    uint16_t stamp[PCELLS], gstamp[POINTS];
    int16_t index[PCELLS];
    memset(stamp, 0, sizeof stamp);
    memset(gstamp, 0, sizeof gstamp);
    int count = 0, used = 0;
    uint16_t epoch = 0;
    for (int p = 0; p < nn; p++) {
        int q = g->pad_of[p];
        index[q] = -1;
        if (OPEN_AT(q)) index[q] = (int16_t)count, open[count++] = (int16_t)q;
    }
    for (int i = 0; i < count; i++) {
        int x = open[i], p = (x / W - PAD) * n + x % W - PAD;
        int line = c == 0 ? p / n : p % n;
        uint8_t e = (uint8_t)((line == 0) | (line == n - 1) << 1);
        epoch++;
        stamp[x] = epoch;
        start[i] = (int16_t)used;
        for (int k = 0; k < links; k++) {
            int y = x + g->nbr[k];
            if (OPEN_AT(y)) {
                if (stamp[y] != epoch) {
                    if (used >= TD_ADJ) return -1;
                    stamp[y] = epoch;
                    adj[used++] = index[y];
                }
            } else if (s->cell[y] == c + 1) {
                int r = group[y];
                e |= gedges[r];
                if (gstamp[r] == epoch) continue;
                gstamp[r] = epoch;
                for (int at = head[r]; at >= 0; at = gnext[at]) {
                    int z = gcell[at];
                    if (stamp[z] == epoch) continue;
                    if (used >= TD_ADJ) return -1;
                    stamp[z] = epoch;
                    adj[used++] = index[z];
                }
            }
        }
        edges[i] = e;
    }
    start[count] = (int16_t)used;
#undef OPEN_AT
    int16_t dist[2][POINTS];
    for (int side = 0; side < 2; side++) {
        int16_t *d = dist[side];
        for (int i = 0; i < count; i++) d[i] = edges[i] >> side & 1 ? 1 : FAR;
        for (int changed = 1; changed;) {
            changed = 0;
            for (int i = 0; i < count; i++) {
                if (d[i] == 1) continue;
                int m1 = FAR, m2 = FAR;
                for (int a = start[i]; a < start[i + 1]; a++) {
                    int v = d[adj[a]];
                    if (v < m1) m2 = m1, m1 = v;
                    else if (v < m2) m2 = v;
                }
                if (m2 < FAR && m2 + 1 < d[i]) {
                    d[i] = (int16_t)(m2 + 1);
                    changed = 1;
                }
            }
        }
    }
    for (int p = 0; p < nn; p++) through[g->pad_of[p]] = FAR;
    int best = FAR;
    for (int i = 0; i < count; i++) {
        int sum = dist[0][i] >= FAR || dist[1][i] >= FAR ? FAR : dist[0][i] + dist[1][i];
        through[open[i]] = (int16_t)sum;
        if (sum < best) best = sum;
    }
    return best;
}

/*
 * The priors of a new node's moves (MCTS_PRIOR): the sum of those switched on, each
 * with its equivalent experience E, the mover's prior wins E * v per move:
 * - patterns: v = gamma / (gamma + mean gamma of the node's placements);
 * - distance: v = 0.3 + 0.35 * (2^-e + 2^-f), e (f) how many points longer than the
 *   mover's (the opponent's) shortest path the shortest path through the point is (at
 *   most 20; 20 where no path passes); with two_distance, by how much the sum of the
 *   point's two-distances exceeds the smallest such sum.
 * The swap and the pass get v = 0.5.
 */
static int gs_prior(const GState *s, const int16_t *moves, int count, float *wins,
                    float *visits) {
    const Game *g = s->g;
    if (!g->pattern_prior && !g->distance_prior) return 0;
    int c = s->mover;
    for (int k = 0; k < count; k++) wins[k] = visits[k] = 0.0f;
    if (g->pattern_prior) {
        float gam[MCTS_MOVES], sum = 0.0f;
        int placements = 0;
        for (int k = 0; k < count; k++) {
            gam[k] = 0.0f;
            if (moves[k] >= POINTS) continue;
            gam[k] = g->gamma[pattern_at(s, g->pad_of[moves[k]], c)];
            sum += gam[k];
            placements++;
        }
        float mean = placements ? sum / placements : 1.0f;
        float e = (float)g->pattern_prior;
        for (int k = 0; k < count; k++) {
            float v = moves[k] >= POINTS || gam[k] + mean <= 0.0f ? 0.5f : gam[k] / (gam[k] + mean);
            wins[k] += e * v;
            visits[k] += e;
        }
    }
    if (g->distance_prior) {
        uint8_t blocked[PCELLS]; /* for the mover: the empty points it may not take now */
        memset(blocked, 0, sizeof blocked);
        for (int p = 0; p < g->n * g->n; p++)
            if (s->cell[g->pad_of[p]] == EMPTY) blocked[g->pad_of[p]] = 1;
        for (int k = 0; k < count; k++)
            if (moves[k] < POINTS) blocked[g->pad_of[moves[k]]] = 0;
        static const uint8_t OPEN[PCELLS];
        int16_t mine[PCELLS], theirs[PCELLS];
        int best_mine = -1, best_theirs = -1;
        if (g->two_distance) {
            best_mine = two_distances(s, c, blocked, mine);
            best_theirs = two_distances(s, 1 - c, OPEN, theirs);
        }
        if (best_mine < 0 || best_theirs < 0) {
            best_mine = path_lengths(s, c, blocked, mine);
            best_theirs = path_lengths(s, 1 - c, OPEN, theirs);
        }
        float e = (float)g->distance_prior;
        for (int k = 0; k < count; k++) {
            float v = 0.5f;
            if (moves[k] < POINTS) {
                int q = g->pad_of[moves[k]];
                int a = mine[q] >= FAR ? 20 : mine[q] - best_mine;
                int b = theirs[q] >= FAR ? 20 : theirs[q] - best_theirs;
                v = 0.3f + 0.35f * (ldexpf(1.0f, -(a < 20 ? a : 20)) +
                                    ldexpf(1.0f, -(b < 20 ? b : 20)));
            }
            wins[k] += e * v;
            visits[k] += e;
        }
    }
    return 1;
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
        int tries = g->knowledge & KNOW_PATTERN_PLAYOUT ? PATTERN_TRIES : 0;
        while (chosen < 0 && left > 0) {
            int i = (int)(splitmix64(rng) % (u64)left);
            if (tries > 0) {
                /* take the draw with probability min(1, gamma / gamma_cap), for a few
                   tries: bad shapes are mostly skipped, good ones always taken */
                float gam = g->gamma[pattern_at(s, g->pad_of[cand[i]], c)];
                float u = (float)(splitmix64(rng) >> 40) * (1.0f / 16777216.0f);
                if (u * g->gamma_cap > gam) {
                    tries--;
                    continue;
                }
            }
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
          uct_c, rave_bias, fpu, expand_visits, rave, knowledge
          [, pattern_prior, distance_prior, gammas, two_distance, edged])
   roles: a list of roles, each a list of (dx, dy, state) with state 0 empty, 1 mover,
   2 opponent; gammas: None or the 65536 pattern weights as float32 bytes (native order);
   edged: how many of the last roles are an edge glyph's (the cartwheel's, see the top) */
static PyObject *search_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    int n, connect8, to_move, pie, threads, expand_visits, rave, knowledge;
    int pattern_prior = 0, distance_prior = 0, two_distance = 0, edged = 0;
    PyObject *roles, *black, *white, *gammas = Py_None;
    unsigned long long hash_bytes, seed;
    double uct_c, rave_bias, fpu;
    if (!PyArg_ParseTuple(args, "ipOOOipKKidddipi|iiOpi", &n, &connect8, &roles, &black, &white,
                          &to_move, &pie, &hash_bytes, &seed, &threads, &uct_c, &rave_bias,
                          &fpu, &expand_visits, &rave, &knowledge, &pattern_prior,
                          &distance_prior, &gammas, &two_distance, &edged))
        return NULL;
    if (pattern_prior < 0 || distance_prior < 0)
        return PyErr_Format(PyExc_ValueError, "a prior's weight must be >= 0");
    if (gammas != Py_None &&
        (!PyBytes_Check(gammas) || PyBytes_GET_SIZE(gammas) != PATTERNS * sizeof(float)))
        return PyErr_Format(PyExc_ValueError, "gammas must be %d float32 as bytes", PATTERNS);
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
    g->pattern_prior = pattern_prior;
    g->distance_prior = distance_prior;
    g->two_distance = two_distance;
    static const int PX[8] = {-1, 0, 1, -1, 1, -1, 0, 1}, PY[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    for (int k = 0; k < 8; k++) {
        g->pat_off[0][k] = (int16_t)(PY[k] * W + PX[k]);
        g->pat_off[1][k] = (int16_t)(PX[k] * W + PY[k]); /* White: transposed */
    }
    float most = 1.0f;
    if (gammas == Py_None) {
        for (int k = 0; k < PATTERNS; k++) g->gamma[k] = 1.0f;
    } else {
        memcpy(g->gamma, PyBytes_AS_STRING(gammas), sizeof g->gamma);
        most = 0.0f;
        for (int k = 0; k < PATTERNS; k++) {
            if (!(g->gamma[k] >= 0.0f)) g->gamma[k] = 0.0f; /* NaN or negative */
            if (g->gamma[k] > most) most = g->gamma[k];
        }
        if (most <= 0.0f) most = 1.0f;
    }
    g->gamma_cap = most < PATTERN_CAP ? most : PATTERN_CAP;
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
    if (edged < 0 || edged > count) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "edged must be 0 to the number of roles");
        goto fail;
    }
    g->nplain = (int)count - edged;
    /* the points just beyond each edge (not beyond a corner): the owner's stones */
    memset(g->beyond, OFF, sizeof g->beyond);
    for (int i = 0; i < n; i++) {
        g->beyond[(PAD - 1) * W + PAD + i] = BLACK;     /* beyond rank 1 */
        g->beyond[(PAD + n) * W + PAD + i] = BLACK;     /* beyond rank n */
        g->beyond[(PAD + i) * W + PAD - 1] = WHITE;     /* beyond file a */
        g->beyond[(PAD + i) * W + PAD + n] = WHITE;     /* beyond the last file */
    }
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

/* patterns() -> [(move code, 3x3 pattern code)] of the root's legal placements, for the
   side to move (for the training of the weights and the tests) */
static PyObject *search_patterns(SearchObject *self, PyObject *unused) {
    const GState *s = &self->tree->root_state;
    int16_t moves[MCTS_MOVES];
    int count = s->winner >= 0 ? 0 : gs_moves(s, moves);
    PyObject *out = PyList_New(0);
    for (int k = 0; out && k < count; k++) {
        if (moves[k] >= POINTS) continue;
        PyObject *item = Py_BuildValue("ii", moves[k], pattern_at(s, self->game.pad_of[moves[k]], s->mover));
        if (!item || PyList_Append(out, item) < 0) Py_CLEAR(out);
        Py_XDECREF(item);
    }
    return out;
}

/* prior() -> [(move code, prior wins, prior visits)] at the root for its side to move, or
   None when no prior is switched on (for the tests) */
static PyObject *search_prior(SearchObject *self, PyObject *unused) {
    const GState *s = &self->tree->root_state;
    int16_t moves[MCTS_MOVES] = {0};
    float wins[MCTS_MOVES], visits[MCTS_MOVES];
    int count = s->winner >= 0 ? 0 : gs_moves(s, moves);
    if (!gs_prior(s, moves, count, wins, visits)) Py_RETURN_NONE;
    PyObject *out = PyList_New(count);
    for (int k = 0; out && k < count; k++) {
        PyObject *item = Py_BuildValue("idd", moves[k], (double)wins[k], (double)visits[k]);
        if (!item) Py_CLEAR(out);
        else PyList_SET_ITEM(out, k, item);
    }
    return out;
}

static PyMethodDef SEARCH_METHODS[] = {
    {"bridge_reply", (PyCFunction)search_bridge_reply, METH_VARARGS, "The bridge save."},
    {"patterns", (PyCFunction)search_patterns, METH_NOARGS, "The root moves' 3x3 patterns."},
    {"prior", (PyCFunction)search_prior, METH_NOARGS, "The root moves' priors."},
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

PyMODINIT_FUNC PyInit__mcts(void) { return mcts_module(&MODULE, &SEARCH_TYPE); }
