/*
 * A game-agnostic MCTS-Solver with RAVE for two-player games, in C: the tree lives in a
 * bounded node pool, selection is UCT blended with AMAF (RAVE), proofs propagate in the
 * tree (MCTS-Solver), the subtree of a played move is kept, and several threads share one
 * tree (a lock around the tree's steps, playouts outside it, virtual loss).
 *
 * The including file (a game's native/<name>.c) defines, before including this header:
 *
 *   GState                       the game state, copied by value at each iteration
 *   MCTS_MOVES                   move codes are 0 .. MCTS_MOVES - 1
 *   int  gs_mover(const GState *)                 side to move, 0 or 1
 *   int  gs_winner(const GState *)                -1, or the colour that has won
 *   int  gs_moves(const GState *, int16_t *out)   the legal moves; 0 = none (a draw)
 *   void gs_play(GState *, int move)
 *   int  gs_wins_now(const GState *, int move)    1 when the legal ``move`` wins at once
 *   int  gs_playout(GState *, u64 *rng, Amaf *)   plays to the end: 0 / 1 winner, 2 draw
 *
 * and optionally MCTS_PRIOR, with (defined after this header, like gs_playout):
 *
 *   int  gs_prior(const GState *, const int16_t *moves, int count, float *wins,
 *                 float *visits)
 *        prior knowledge of a new node's ``count`` legal moves: for each, prior visits (a
 *        whole number >= 0, the "equivalent experience") and the mover's prior wins among
 *        them; they seed the child's AMAF statistics (so they count only with RAVE on).
 *        Returns 0 to leave the children as without a prior (no knowledge switched on).
 *
 * More than two players: define MCTS_PLAYERS (the most players, up to 8) before this
 * header, and
 *
 *   int  gs_players(const GState *)               the number of players n (2 .. MCTS_PLAYERS)
 *
 * then gs_mover is 0 .. n - 1, gs_playout returns the winner or MCTS_DRAW_RESULT (=
 * MCTS_PLAYERS) for a game without one, and the tree is max^n: a result gives the winner
 * 1 and the others 0, or 1 / n each without a winner; each node keeps every player's sum
 * (``share``) and ``value``/``rvalue`` sum the rewards of the node's *chooser* (the mover
 * of its parent; the root's own mover), so that each node's mover maximises its own
 * reward. Proofs are those of the Python MCTS-Solver (boardproof/solvers/mcts.py): a player
 * p "forces" a node when p can force a win against the coalition of all the others (at
 * p's node one forced child is enough, at another player's node every child must be);
 * ``proof`` = 1 + p then (at most one player can), PROOF_DRAW only for a finished game
 * without a winner; ``refuted`` has bit p when p cannot force a win (the dual rule). A node
 * that every player is refuted at (a "draw" against each coalition) is not closed: its
 * max^n value depends on how the others play, so it is searched on. Without MCTS_PLAYERS
 * the tree is the two-player one below, unchanged (MCTS_PLAYERS is 2; MCTS_PRIOR is for
 * the two-player tree only).
 *
 * Invariants:
 * - node 0 of the pool is never used (a child index of 0 means "no children"); a node's
 *   children are contiguous: pool[child .. child + nchild).
 * - ``value`` and ``rvalue`` sum player 0's reward (1 win, 0 loss, 0.5 draw), so the
 *   value of a node reads the same whoever moved into it (a swap or a pass may leave the
 *   same side to move).
 * - ``proof`` is 0 (unknown), 1 + the winning colour, or PROOF_DRAW; a proof is final.
 *   A node is proved a win for its mover m when one child is proved m's win, and proved
 *   otherwise when every child is proved (a draw if one child is a draw).
 * - With one thread, the search is a pure function of the root, the parameters and the
 *   seed: iteration k draws its random numbers from splitmix64(seed + k).
 */
#ifndef BOARDPROOF_MCTS_TREE_H
#define BOARDPROOF_MCTS_TREE_H

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef MCTS_PLAYERS
#define MCTS_PLAYERS 2
#endif
#if MCTS_PLAYERS < 2 || MCTS_PLAYERS > 8
#error "MCTS_PLAYERS must be 2 .. 8"
#endif
#define PROOF_DRAW (MCTS_PLAYERS + 1)  /* 3 for two players */
#define MCTS_DRAW_RESULT MCTS_PLAYERS  /* gs_playout's "no winner": 2 for two players */
#if MCTS_PLAYERS > 2 && defined(MCTS_PRIOR)
#error "MCTS_PRIOR seeds the two-player tree's statistics only"
#endif
#define MCTS_MAX_DEPTH 1024
#define MCTS_MAX_THREADS 8

typedef struct {
    uint32_t child;   /* first child (0: not expanded) */
    uint32_t visits;
    float value;      /* sum of player 0's rewards */
    uint32_t rvisits; /* AMAF visits */
    float rvalue;     /* AMAF: sum of player 0's rewards */
    int16_t move;     /* the move that led here (-1 at the root) */
    uint16_t nchild;
    uint8_t proof;    /* 0, 1 + winner, PROOF_DRAW */
    uint8_t mover;    /* side to move here (set at expansion) */
    uint16_t vloss;   /* threads inside this node's subtree right now */
#if MCTS_PLAYERS > 2
    uint8_t refuted;  /* bit p: p cannot force a win (set from the children) */
    float share[MCTS_PLAYERS]; /* each player's sum of rewards */
#endif
} MNode;

/* who first played each move code in one simulation, and at which ply (AMAF) */
typedef struct {
    uint8_t owner[MCTS_MOVES]; /* 0: not played; else 1 + colour */
    int16_t ply[MCTS_MOVES];
    int plies;                 /* plies played so far in this simulation */
} Amaf;

/* the game's playout (defined after this header: it records its moves with amaf_record) */
static int gs_playout(GState *state, u64 *rng, Amaf *amaf);
#ifdef MCTS_PRIOR
static int gs_prior(const GState *state, const int16_t *moves, int count, float *wins,
                    float *visits);
#endif

static inline void amaf_record(Amaf *a, int move, int colour) {
    if (move >= 0 && move < MCTS_MOVES && !a->owner[move]) {
        a->owner[move] = (uint8_t)(colour + 1);
        a->ply[move] = (int16_t)a->plies;
    }
    a->plies++;
}

typedef struct {
    double uct_c;        /* exploration constant */
    double rave_bias;    /* beta = rv / (rv + n + rave_bias * rv * n) */
    double fpu;          /* value of a child with no visit and no AMAF visit */
    int expand_visits;   /* a leaf is expanded at this many visits */
    int threads;
    int rave;            /* 0: plain UCT */
} MParams;

typedef struct {
    MNode *pool;
    uint32_t cap, used; /* nodes allocated, nodes in use */
    uint32_t max_cap;   /* the --hash bound: the pool grows by doubling up to it */
    uint32_t root;
    GState root_state;
    MParams params;
    u64 seed;
    u64 started;         /* iterations begun since the tree was made (the RNG stream) */
    u64 done;            /* iterations finished */
    int full;            /* the pool ran out at least once */
    pthread_mutex_t lock;
    /* one run */
    volatile int stop;
    u64 run_limit;       /* finish when ``started`` reaches it (0: no limit) */
    double deadline;     /* CLOCK_MONOTONIC seconds (0: none) */
} MTree;

static double mcts_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define MCTS_FIRST_NODES (1u << 16)

/* a run of ``count`` fresh nodes, or 0 when the pool is full; the pool may move (callers
   hold indices, not pointers, across this call) */
static uint32_t mcts_alloc(MTree *t, uint32_t count) {
    if (t->used + count > t->cap) {
        uint64_t want = t->cap;
        while (want < (uint64_t)t->used + count) want *= 2;
        if (want > t->max_cap) want = t->max_cap;
        MNode *grown = want > t->cap ? realloc(t->pool, sizeof(MNode) * want) : NULL;
        if (!grown || t->used + count > want) {
            if (grown) t->pool = grown, t->cap = (uint32_t)want;
            t->full = 1;
            return 0;
        }
        t->pool = grown;
        t->cap = (uint32_t)want;
    }
    uint32_t first = t->used;
    t->used += count;
    memset(&t->pool[first], 0, sizeof(MNode) * count);
    return first;
}

static void mcts_reset(MTree *t, const GState *state) {
    t->root_state = *state;
    t->used = 1; /* node 0 is never used */
    t->full = 0;
    t->root = mcts_alloc(t, 1);
    t->pool[t->root].move = -1;
    t->pool[t->root].mover = (uint8_t)gs_mover(state);
    int won = gs_winner(state);
    if (won >= 0) t->pool[t->root].proof = (uint8_t)(1 + won);
}

/* NULL when out of memory */
static MTree *mcts_new(size_t bytes, const GState *state, MParams params, u64 seed) {
    MTree *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    uint64_t most = bytes / sizeof(MNode);
    if (most < 64) most = 64;
    if (most > 0xFFFFFFF0u) most = 0xFFFFFFF0u;
    uint64_t cap = most < MCTS_FIRST_NODES ? most : MCTS_FIRST_NODES;
    t->pool = malloc(sizeof(MNode) * cap);
    if (!t->pool) {
        free(t);
        return NULL;
    }
    t->cap = (uint32_t)cap;
    t->max_cap = (uint32_t)most;
    t->params = params;
    t->seed = seed;
    pthread_mutex_init(&t->lock, NULL);
    mcts_reset(t, state);
    return t;
}

static void mcts_free(MTree *t) {
    if (!t) return;
    pthread_mutex_destroy(&t->lock);
    free(t->pool);
    free(t);
}

/* the node's children made from ``state`` (the node's position); proofs of immediate
   wins and of a position without moves (a draw) set at once */
static void mcts_expand(MTree *t, uint32_t at, const GState *state) {
    MNode *node = &t->pool[at];
    int16_t moves[MCTS_MOVES];
    int count = gs_moves(state, moves);
    node->mover = (uint8_t)gs_mover(state);
    if (count == 0) {
        node->proof = PROOF_DRAW;
        return;
    }
    uint32_t first = mcts_alloc(t, (uint32_t)count);
    if (!first) return;
    node = &t->pool[at]; /* (the pool does not move, but keep the habit) */
    for (int k = 0; k < count; k++) {
        MNode *c = &t->pool[first + k];
        c->move = moves[k];
        if (gs_wins_now(state, moves[k])) c->proof = (uint8_t)(1 + node->mover);
    }
#ifdef MCTS_PRIOR
    {
        /* prior knowledge seeds the AMAF statistics (rvalue counts player 0's rewards) */
        float wins[MCTS_MOVES], visits[MCTS_MOVES];
        if (gs_prior(state, moves, count, wins, visits)) {
            for (int k = 0; k < count; k++) {
                if (!(visits[k] >= 1.0f)) continue;
                MNode *c = &t->pool[first + k];
                c->rvisits = (uint32_t)visits[k];
                float won = wins[k] * (float)c->rvisits / visits[k];
                c->rvalue = node->mover == 0 ? won : (float)c->rvisits - won;
            }
        }
    }
#endif
    node->child = first;
    node->nchild = (uint16_t)count;
}

#if MCTS_PLAYERS > 2
/* the chooser's mean reward in a node (``mover``: the parent's mover, the chooser),
   counting ``vloss`` virtual losses */
static inline double mcts_mean(const MNode *c, int mover) {
    (void)mover;
    return c->value / ((double)c->visits + c->vloss);
}

static inline double mcts_amaf_mean(const MNode *c, int mover) {
    (void)mover;
    return c->rvalue / c->rvisits;
}
#else
/* the mover's mean reward in a node, counting ``vloss`` virtual losses */
static inline double mcts_mean(const MNode *c, int mover) {
    double n = (double)c->visits + c->vloss;
    double black = c->value;
    return mover == 0 ? black / n : ((double)c->visits - black) / n;
}

static inline double mcts_amaf_mean(const MNode *c, int mover) {
    double black = c->rvalue / c->rvisits;
    return mover == 0 ? black : 1.0 - black;
}
#endif

#if MCTS_PLAYERS > 2
/* the players who cannot force a win at a node: derived for a proved one */
static inline int mcts_refuted(const MNode *c, int full) {
    if (c->proof == PROOF_DRAW) return full;
    if (c->proof) return full & ~(1 << (c->proof - 1));
    return c->refuted;
}

/* the child to descend into (index): a child forced for the mover at once; never one
   forced for another player (the mover's reward there is 0) unless every child is (then
   the most visited); a finished game without a winner is worth 1 / n exactly */
static uint32_t mcts_select(const MTree *t, const MNode *node) {
    const MParams *p = &t->params;
    int m = node->mover;
    double log_n = log((double)node->visits + node->vloss + 1.0);
    double share = 1.0 / gs_players(&t->root_state);
    double best = -1e300;
    uint32_t chosen = 0, busiest = 0;
    for (uint32_t k = 0; k < node->nchild; k++) {
        uint32_t at = node->child + k;
        const MNode *c = &t->pool[at];
        double score;
        if (c->proof) {
            if (c->proof == 1 + m) return at;
            if (c->proof != PROOF_DRAW) {
                if (!busiest || c->visits > t->pool[busiest].visits) busiest = at;
                continue;
            }
            score = share;
        } else {
            double n = (double)c->visits + c->vloss;
            double q;
            if (p->rave && c->rvisits) {
                double rv = c->rvisits;
                double beta = rv / (rv + n + p->rave_bias * rv * n);
                double mean = n > 0 ? mcts_mean(c, m) : 0.0;
                q = (1.0 - beta) * mean + beta * mcts_amaf_mean(c, m);
            } else {
                q = n > 0 ? mcts_mean(c, m) : p->fpu;
            }
            score = q + p->uct_c * sqrt(log_n / (n + 1.0));
        }
        if (score > best) {
            best = score;
            chosen = at;
        }
    }
    return chosen ? chosen : busiest;
}

/* ``node``'s forced player and refuted players from its children (the rules of the
   header comment) */
static void mcts_prove(MTree *t, MNode *node) {
    if (node->proof || !node->nchild) return;
    int full = (1 << gs_players(&t->root_state)) - 1, bit = 1 << node->mover;
    int any_f = 0, all_f = full, any_r = 0, all_r = full;
    for (uint32_t k = 0; k < node->nchild; k++) {
        const MNode *c = &t->pool[node->child + k];
        int forced = c->proof && c->proof != PROOF_DRAW ? 1 << (c->proof - 1) : 0;
        int refuted = mcts_refuted(c, full);
        any_f |= forced;
        all_f &= forced;
        any_r |= refuted;
        all_r &= refuted;
    }
    int forced = (any_f & bit) | (all_f & full & ~bit);
    node->refuted = (uint8_t)((all_r & bit) | (any_r & full & ~bit));
    for (int q = 0; forced; q++)
        if (forced >> q & 1) {
            node->proof = (uint8_t)(1 + q);
            break;
        }
}

/* every player's reward of a result (a winner, or MCTS_DRAW_RESULT) */
static inline void mcts_rewards(const MTree *t, int result, float *out) {
    int n = gs_players(&t->root_state);
    for (int q = 0; q < MCTS_PLAYERS; q++)
        out[q] = result == MCTS_DRAW_RESULT ? (q < n ? 1.0f / n : 0.0f) : (float)(q == result);
}
#else
/* the child to descend into (index), or 0 when every child is proved */
static uint32_t mcts_select(const MTree *t, const MNode *node) {
    const MParams *p = &t->params;
    int m = node->mover;
    double log_n = log((double)node->visits + node->vloss + 1.0);
    double best = -1e300;
    uint32_t chosen = 0;
    for (uint32_t k = 0; k < node->nchild; k++) {
        uint32_t at = node->child + k;
        const MNode *c = &t->pool[at];
        double score;
        if (c->proof) {
            if (c->proof == 1 + m) return at; /* a proved win (the parent is proved too) */
            if (c->proof != PROOF_DRAW) continue; /* a proved loss is never chosen */
            score = 0.5;
        } else {
            double n = (double)c->visits + c->vloss;
            double q;
            if (p->rave && c->rvisits) {
                double rv = c->rvisits;
                double beta = rv / (rv + n + p->rave_bias * rv * n);
                double mean = n > 0 ? mcts_mean(c, m) : 0.0;
                q = (1.0 - beta) * mean + beta * mcts_amaf_mean(c, m);
            } else {
                q = n > 0 ? mcts_mean(c, m) : p->fpu;
            }
            score = q + p->uct_c * sqrt(log_n / (n + 1.0));
        }
        if (score > best) {
            best = score;
            chosen = at;
        }
    }
    return chosen;
}

/* after a child of ``node`` was proved: is ``node`` proved now? */
static void mcts_prove(MTree *t, MNode *node) {
    if (node->proof || !node->nchild) return;
    int m = node->mover, all = 1, draw = 0;
    for (uint32_t k = 0; k < node->nchild; k++) {
        int proof = t->pool[node->child + k].proof;
        if (proof == 1 + m) {
            node->proof = (uint8_t)(1 + m);
            return;
        }
        if (!proof) all = 0;
        if (proof == PROOF_DRAW) draw = 1;
    }
    if (all) node->proof = draw ? PROOF_DRAW : (uint8_t)(2 - m);
}

static inline float mcts_reward(int result) { return result == 0 ? 1.0f : result == 1 ? 0.0f : 0.5f; }
#endif

/* one iteration; returns 0 when the budget or a proof stopped the run before it began */
static int mcts_iterate(MTree *t, GState *state, Amaf *amaf, int virtual_loss) {
    uint32_t path[MCTS_MAX_DEPTH];
    int colour[MCTS_MAX_DEPTH]; /* the side to move at each node of the path */
    int depth = 0;
    pthread_mutex_lock(&t->lock);
    MNode *root = &t->pool[t->root];
    if (t->stop || root->proof || (t->run_limit && t->started >= t->run_limit) ||
        (t->deadline > 0 && mcts_now() >= t->deadline)) {
        pthread_mutex_unlock(&t->lock);
        return 0;
    }
    u64 stream = t->seed + t->started++;
    u64 rng = splitmix64(&stream);
    *state = t->root_state;
    memset(amaf->owner, 0, sizeof amaf->owner);
    amaf->plies = 0;
    uint32_t at = t->root;
    path[0] = at;
    colour[0] = gs_mover(state);
    int result = -1;
    for (;;) {
        MNode *node = &t->pool[at];
        if (node->proof) {
            result = node->proof == PROOF_DRAW ? MCTS_DRAW_RESULT : node->proof - 1;
            break;
        }
        if (!node->nchild) {
            if (at == t->root || node->visits + 1 >= (uint32_t)t->params.expand_visits)
                mcts_expand(t, at, state);
            node = &t->pool[at];
            if (node->proof) {
                result = node->proof == PROOF_DRAW ? MCTS_DRAW_RESULT : node->proof - 1;
                break;
            }
            if (!node->nchild || depth + 1 >= MCTS_MAX_DEPTH) break;
        }
        uint32_t next = mcts_select(t, node);
        if (!next) break; /* cannot happen: a node whose children are all proved is */
        MNode *child = &t->pool[next];
        if (virtual_loss) child->vloss++;
        amaf_record(amaf, child->move, gs_mover(state));
        gs_play(state, child->move);
        path[++depth] = next;
        colour[depth] = gs_mover(state);
        at = next;
        if (!child->proof) {
            int won = gs_winner(state);
            if (won >= 0) child->proof = (uint8_t)(1 + won);
        }
    }
    if (virtual_loss) t->pool[path[0]].vloss++;
    pthread_mutex_unlock(&t->lock);
    if (result < 0) result = gs_playout(state, &rng, amaf);
#if MCTS_PLAYERS > 2
    float rewards[MCTS_PLAYERS];
    mcts_rewards(t, result, rewards);
    pthread_mutex_lock(&t->lock);
    for (int i = depth; i >= 0; i--) {
        MNode *node = &t->pool[path[i]];
        float reward = rewards[colour[i > 0 ? i - 1 : 0]]; /* the chooser's */
        node->visits++;
        node->value += reward;
        for (int q = 0; q < MCTS_PLAYERS; q++) node->share[q] += rewards[q];
        if (virtual_loss) node->vloss--;
        if (i < depth) {
            const MNode *below = &t->pool[path[i + 1]];
            if (below->proof || below->refuted) mcts_prove(t, node);
        }
        if (t->params.rave && node->nchild) {
            /* AMAF: a child's move played later in this simulation by this node's mover,
               worth the mover's reward */
            int m = colour[i] + 1;
            float mine = rewards[colour[i]];
            for (uint32_t k = 0; k < node->nchild; k++) {
                MNode *c = &t->pool[node->child + k];
                int move = c->move;
                if (move >= 0 && amaf->owner[move] == m && amaf->ply[move] >= i) {
                    c->rvisits++;
                    c->rvalue += mine;
                }
            }
        }
    }
    t->done++;
    pthread_mutex_unlock(&t->lock);
    return 1;
#else
    float reward = mcts_reward(result);
    pthread_mutex_lock(&t->lock);
    for (int i = depth; i >= 0; i--) {
        MNode *node = &t->pool[path[i]];
        node->visits++;
        node->value += reward;
        if (virtual_loss) node->vloss--;
        if (i < depth && t->pool[path[i + 1]].proof) mcts_prove(t, node);
        if (t->params.rave && node->nchild) {
            /* AMAF: a child's move played later in this simulation by this node's mover */
            int m = colour[i] + 1;
            for (uint32_t k = 0; k < node->nchild; k++) {
                MNode *c = &t->pool[node->child + k];
                int move = c->move;
                if (move >= 0 && amaf->owner[move] == m && amaf->ply[move] >= i) {
                    c->rvisits++;
                    c->rvalue += reward;
                }
            }
        }
    }
    t->done++;
    pthread_mutex_unlock(&t->lock);
    return 1;
#endif
}

typedef struct {
    MTree *tree;
    int virtual_loss;
    GState state;
    Amaf amaf;
} MWorker;

static void *mcts_work(void *arg) {
    MWorker *w = arg;
    while (mcts_iterate(w->tree, &w->state, &w->amaf, w->virtual_loss)) {
    }
    return NULL;
}

/* run until ``limit`` more iterations have begun (0: no limit), ``seconds`` have passed
   (<= 0: no limit), the root is proved or ``stop`` is set; returns the iterations done */
static u64 mcts_run(MTree *t, u64 limit, double seconds) {
    u64 before = t->done;
    t->stop = 0;
    t->run_limit = limit ? t->started + limit : 0;
    t->deadline = seconds > 0 ? mcts_now() + seconds : 0;
    int threads = t->params.threads < 1 ? 1 : t->params.threads;
    if (threads > MCTS_MAX_THREADS) threads = MCTS_MAX_THREADS;
    MWorker *workers = malloc(sizeof(MWorker) * threads);
    pthread_t ids[MCTS_MAX_THREADS];
    if (!workers) return 0;
    int started = 0;
    for (int k = 0; k < threads; k++) {
        workers[k].tree = t;
        workers[k].virtual_loss = threads > 1;
    }
    for (int k = 1; k < threads; k++)
        if (pthread_create(&ids[k], NULL, mcts_work, &workers[k]) == 0) started |= 1 << k;
    mcts_work(&workers[0]);
    for (int k = 1; k < threads; k++)
        if (started >> k & 1) pthread_join(ids[k], NULL);
    free(workers);
    return t->done - before;
}

/* copy the subtree under ``from`` of ``src`` into ``dst`` (breadth first, so that the
   children of each node stay contiguous); returns the new root's index or 0 when it
   does not fit (then ``dst`` holds a partial copy: the caller resets) */
static uint32_t mcts_copy(MNode *dst, uint32_t cap, uint32_t *used, const MNode *src,
                          uint32_t from) {
    /* queue of (source index, destination index) pairs, kept in dst's own order: the
       nodes copied so far are exactly dst[1 .. *used), visited in order */
    uint32_t *origin = malloc(sizeof(uint32_t) * cap);
    if (!origin) return 0;
    *used = 1;
    dst[1] = src[from];
    dst[1].vloss = 0;
    origin[1] = from;
    *used = 2;
    for (uint32_t next = 1; next < *used; next++) {
        const MNode *s = &src[origin[next]];
        if (!s->nchild) continue;
        if (*used + s->nchild > cap) {
            free(origin);
            return 0;
        }
        dst[next].child = *used;
        for (uint32_t k = 0; k < s->nchild; k++) {
            dst[*used] = src[s->child + k];
            dst[*used].vloss = 0;
            origin[*used] = s->child + k;
            (*used)++;
        }
    }
    free(origin);
    return 1;
}

/* play ``move`` at the root, keeping its subtree when the root has that child (the
   pool is compacted); returns 1 when a subtree was kept, 0 when the tree restarted,
   -1 when out of memory (the tree restarted) */
static int mcts_advance(MTree *t, int move) {
    GState state = t->root_state;
    gs_play(&state, move);
    MNode *root = &t->pool[t->root];
    uint32_t keep = 0;
    for (uint32_t k = 0; k < root->nchild; k++)
        if (t->pool[root->child + k].move == move) keep = root->child + k;
    if (!keep) {
        mcts_reset(t, &state);
        return 0;
    }
    MNode *fresh = malloc(sizeof(MNode) * t->cap);
    uint32_t used = 0;
    if (!fresh || !mcts_copy(fresh, t->cap, &used, t->pool, keep)) {
        free(fresh);
        mcts_reset(t, &state);
        return fresh ? 0 : -1;
    }
    free(t->pool);
    t->pool = fresh;
    t->used = used;
    t->root = 1;
    t->root_state = state;
    t->full = 0;
    t->pool[1].move = -1;
    if (!t->pool[1].nchild) t->pool[1].mover = (uint8_t)gs_mover(&state);
    return 1;
}

#endif
