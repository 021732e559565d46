/*
 * The puzzle miner's proof of a forced win, built in C (included by candy.c after
 * win_search): the compact strategy (boardproof.solvers.strategy) that the miner's Python
 * path makes with boardproof.puzzles.mining.proof_tree, strategy.from_proof and
 * strategy.check_strategy, with the same tokens, the same count of positions, the same
 * principal line and the same count of searches asked (the rating's ``nodes``).
 *
 * The proof is a DAG of positions keyed exactly (board and player to move: a 128-bit
 * Zobrist key, no symmetry): at the winner's positions one move, the first legal move
 * (canonical order) after which the winner still wins within its distance - 1 (the root:
 * the given first move); at the others every legal move; a finished position ends a line.
 * A position's distance is the exact one (the fastest win, as the miner's Prover.within
 * finds it: a line in 1 by the rules, else win_search deepened over the plies where the
 * winner moves, the only ones where its line can appear). Every question of the Python
 * path is counted as it counts it (a search unless the position is over, no plies are
 * left, or it is a win in 1 of the winner to move); the answers themselves are kept.
 * Then the walk of strategy.from_proof writes the tokens ("=" re-uses a position proved
 * earlier), and counts the positions it meets (check_strategy's ``positions``); the
 * principal line follows the longest defence (ties: the first legal move), as
 * generate.proof_line reads it from the tree.
 */
#ifndef BOARDPROOF_CANDY_STRATEGY_H
#define BOARDPROOF_CANDY_STRATEGY_H

#define S_OK 0
#define S_TOO_LARGE 1    /* more positions than the proof may have */
#define S_INCONSISTENT 2 /* the searches contradict each other (never seen) */
#define S_BUDGET 3       /* a search ran out of nodes or the time ran out */
#define S_MEMORY 4

#define S_PASS (SQ * NCODES)

typedef struct {
    u64 k1, k2;
    uint8_t used, terminal, won, visited;
    int8_t dstar;       /* the exact distance to the winner's line (-1: not known) */
    int8_t none_upto;   /* no win within this many plies (-1: nothing known) */
    int16_t move;       /* winner's positions: the strategy's move (-1: none yet) */
    int16_t height;     /* the proof DAG's height (-1: not built) */
    int16_t proved;     /* the walk's proved height (-1: not proved) */
} SNode;

typedef struct {
    SNode *nodes;
    u64 mask;
    int count;          /* positions in the DAG */
    int max_nodes;
    int winner, plies, status;
    u64 searches, node_limit;
    /* output */
    int *tokens, ntokens, cap_tokens;
    int visited;
} Strat;

/* the exact key of a position (identity image, the player to move) */
static inline void s_key(const Keys *k, int mover, u64 *k1, u64 *k2) {
    *k1 = k->a[0] ^ ZM1[mover];
    *k2 = k->b[0] ^ ZM2[mover];
}

static SNode *s_node(Strat *t, const Keys *k, int mover, int *fresh) {
    u64 k1, k2;
    s_key(k, mover, &k1, &k2);
    u64 i = k1 & t->mask;
    while (t->nodes[i].used) {
        if (t->nodes[i].k1 == k1 && t->nodes[i].k2 == k2) { *fresh = 0; return &t->nodes[i]; }
        i = (i + 1) & t->mask;
    }
    SNode *n = &t->nodes[i];
    n->used = 1; n->k1 = k1; n->k2 = k2;
    n->dstar = -1; n->none_upto = -1; n->move = -1; n->height = -1; n->proved = -1;
    *fresh = 1;
    return n;
}

/* the keys of the position after `candy` goes on top of `sq` (s->h[sq]: its floor) */
static inline void s_child_keys(const State *s, const Keys *k, int sq, int candy, Keys *out) {
    int f = s->h[sq];
    for (int g = 0; g < c_nsym; g++) {
        int img = SYMSQ[g][sq];
        out->a[g] = k->a[g] ^ Z1[img][f][candy];
        out->b[g] = k->b[g] ^ Z2[img][f][candy];
    }
}

/* legal moves in canonical order (codes; S_PASS); 0: nobody can place (game over) */
static int s_moves(const State *s, int mover, int16_t *out) {
    int16_t sqs[SQ * NCODES];
    int8_t codes[SQ * NCODES];
    int n = placements(s, mover, sqs, codes);
    for (int i = 0; i < n; i++) out[i] = (int16_t)(sqs[i] * NCODES + codes[i]);
    if (n == 0) {
        for (int p = 0; p < s->players; p++)
            if (p != mover && can_place(s, p)) { out[0] = S_PASS; return 1; }
    }
    return n;
}

/* play `move` of `mover`: returns 1 when it completes the mover's line */
static int s_play(State *s, int mover, int move, const Keys *k, Keys *child) {
    if (move == S_PASS) { *child = *k; return 0; }
    int sq = move / NCODES, code = move % NCODES, candy = NCODES * mover + code;
    s_child_keys(s, k, sq, candy, child);
    s->c[sq][s->h[sq]++] = (uint8_t)candy;
    s->counts[mover][KIND_OF[code]]++;
    return wins_at(s, sq, mover);
}

static void s_undo(State *s, int mover, int move) {
    if (move == S_PASS) return;
    int sq = move / NCODES, code = move % NCODES;
    s->h[sq]--;
    s->counts[mover][KIND_OF[code]]--;
}

/* one search as win_within() makes it (its own node budget): 1, 0, -1 out of budget */
static int s_search(Strat *t, State *s, int mover, const Keys *k, int depth) {
    int empty = 0, in_hand = 24 * s->players;
    for (int sq = 0; sq < SQ; sq++) { empty += s->h[sq] == 0; in_hand -= s->h[sq]; }
    c_exact = empty <= depth || in_hand <= depth;
    c_plies = depth;
    c_nodes = 0;
    c_base = 0;
    c_horizon = 0;
    c_limit = t->node_limit;
    c_aborted = 0;
    int r = win_search(s, mover, depth, k, NULL, NULL);
    if (c_aborted) return -1;
    return r;
}

/* Prover.within of the Python path on the position after a move (`terminal`, `won`: the
   game is over, by the winner's line): the winner's fastest win if within `k` plies (else
   -1), counting the searches as it does; -2 when a search ran out (t->status set).
   `node`: the position's entry, where its answers are kept (NULL: none) */
static int s_within(Strat *t, State *s, int mover, const Keys *keys, SNode *node, int terminal,
                    int won, int k) {
    if (terminal) return won ? 0 : -1;
    if (k <= 0) return -1;
    int w = t->winner;
    if (k == 1 && mover == w) {  /* a line in 1, by the rules (no search) */
        if (node && node->dstar == 1) return 1;
        if (node && node->none_upto >= 1) return -1;
        int16_t moves[SQ * NCODES + 1];
        int n = s_moves(s, mover, moves), found = 0;
        for (int i = 0; i < n && !found; i++) {
            if (moves[i] == S_PASS) continue;
            int sq = moves[i] / NCODES;
            s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + moves[i] % NCODES);
            found = wins_at(s, sq, mover);
            s->h[sq]--;
        }
        if (node) { if (found) node->dstar = 1; else node->none_upto = 1; }
        return found ? 1 : -1;
    }
    t->searches++;
    if (node && node->dstar >= 0) return node->dstar <= k ? node->dstar : -1;
    if (node && node->none_upto >= k) return -1;
    /* the winner's line can appear only at a ply where it moves */
    int from = node && node->none_upto > 0 ? node->none_upto + 1 : 1;
    for (int d = from; d <= k; d++) {
        if ((mover + d - 1) % s->players != w) continue;
        int r = s_search(t, s, mover, keys, d);
        if (r < 0) { t->status = S_BUDGET; return -2; }
        if (r) { if (node) node->dstar = (int8_t)d; return d; }
    }
    if (node) node->none_upto = (int8_t)k;
    return -1;
}

/* the entry of a position if the table has it */
static SNode *s_find(Strat *t, const Keys *k, int mover) {
    u64 k1, k2;
    s_key(k, mover, &k1, &k2);
    for (u64 i = k1 & t->mask; t->nodes[i].used; i = (i + 1) & t->mask)
        if (t->nodes[i].k1 == k1 && t->nodes[i].k2 == k2) return &t->nodes[i];
    return NULL;
}

/* the proof DAG from a position (its entry `node`, distance `dist`): its height, or -1
   with t->status set. `first`: the winner's move here (the root), else -1. */
static int s_build(Strat *t, State *s, int mover, const Keys *keys, SNode *node, int dist, int first) {
    if (node->height >= 0) return node->height;
    if (node->terminal) { node->height = 0; return 0; }
    int16_t moves[SQ * NCODES + 1];
    int n = s_moves(s, mover, moves), next = (mover + 1) % s->players, height = 0;
    Keys ck;
    if (mover == t->winner) {
        int move = first;
        for (int i = 0; move < 0 && i < n; i++) {  /* Prover.best: the first that wins in time */
            int line = s_play(s, mover, moves[i], keys, &ck);
            int over = line || (dist > 1 && game_over(s));
            int r = s_within(t, s, next, &ck, dist > 1 ? s_find(t, &ck, next) : NULL, over, line,
                             dist - 1);
            s_undo(s, mover, moves[i]);
            if (r == -2) return -1;
            if (r >= 0) move = moves[i];
        }
        if (move < 0) { t->status = S_INCONSISTENT; return -1; }
        node->move = (int16_t)move;
        n = 1;
        moves[0] = (int16_t)move;
    }
    for (int i = 0; i < n; i++) {  /* proof_tree's child_node: the child's own distance */
        int line = s_play(s, mover, moves[i], keys, &ck);
        int fresh;
        SNode *c = s_node(t, &ck, next, &fresh);
        if (fresh) {
            c->won = (uint8_t)(line && mover == t->winner);
            c->terminal = (uint8_t)(line || game_over(s));
        }
        if (c->height < 0 && c->visited == 0) {  /* a new node of the DAG */
            c->visited = 2;                      /* (counted: 2 marks "in the DAG") */
            if (++t->count > t->max_nodes) { s_undo(s, mover, moves[i]); t->status = S_TOO_LARGE; return -1; }
        }
        int d = s_within(t, s, next, &ck, c, c->terminal, c->won, dist - 1);
        int h = -1;
        if (d == -1) t->status = S_INCONSISTENT;
        else if (d >= 0) h = s_build(t, s, next, &ck, c, d, -1);
        s_undo(s, mover, moves[i]);
        if (h < 0) return -1;
        if (1 + h > height) height = 1 + h;
    }
    node->height = (int16_t)height;
    return height;
}

static int s_emit(Strat *t, int token) {
    if (t->ntokens == t->cap_tokens) {
        int cap = t->cap_tokens ? 2 * t->cap_tokens : 256;
        int *grown = realloc(t->tokens, sizeof(int) * (size_t)cap);
        if (!grown) { t->status = S_MEMORY; return -1; }
        t->tokens = grown;
        t->cap_tokens = cap;
    }
    t->tokens[t->ntokens++] = token;
    return 0;
}

#define S_SAME_AFTER (1 << 12)  /* token flag: "move=" */
#define S_SAME_ONLY (1 << 13)   /* token: "=" */

static void s_visit(Strat *t, SNode *n) {
    if (n->visited != 1) { n->visited = 1; t->visited++; }
}

/* strategy.from_proof's walk over the DAG: the height, or -1 (status set) */
static int s_walk(Strat *t, State *s, int mover, const Keys *keys, SNode *node, int depth) {
    if (node->terminal) { s_visit(t, node); return 0; }
    int next = (mover + 1) % s->players, height = 0;
    Keys ck;
    if (mover == t->winner) {
        if (node->proved >= 0 && depth + node->proved <= t->plies) {
            if (s_emit(t, S_SAME_ONLY) < 0) return -1;
            return node->proved;
        }
        int move = node->move, fresh;
        int line = s_play(s, mover, move, keys, &ck);
        SNode *c = s_node(t, &ck, next, &fresh);
        if (fresh) { s_undo(s, mover, move); t->status = S_INCONSISTENT; return -1; }
        (void)line;
        if (!c->terminal && c->proved >= 0 && depth + 1 + c->proved <= t->plies) {
            if (s_emit(t, move | S_SAME_AFTER) < 0) { s_undo(s, mover, move); return -1; }
            height = 1 + c->proved;
        } else {
            if (s_emit(t, move) < 0) { s_undo(s, mover, move); return -1; }
            int h = s_walk(t, s, next, &ck, c, depth + 1);
            if (h < 0) { s_undo(s, mover, move); return -1; }
            height = 1 + h;
        }
        s_undo(s, mover, move);
    } else {
        int16_t moves[SQ * NCODES + 1];
        int n = s_moves(s, mover, moves);
        for (int i = 0; i < n; i++) {
            int fresh;
            s_play(s, mover, moves[i], keys, &ck);
            SNode *c = s_node(t, &ck, next, &fresh);
            int h = fresh ? -1 : s_walk(t, s, next, &ck, c, depth + 1);
            s_undo(s, mover, moves[i]);
            if (fresh) t->status = S_INCONSISTENT;
            if (h < 0) return -1;
            if (1 + h > height) height = 1 + h;
        }
    }
    s_visit(t, node);
    if (node->proved < 0 || height < node->proved) node->proved = (int16_t)height;
    return height;
}

PyDoc_STRVAR(strategy_doc,
"strategy(columns, mover, players, plies, first, node_limit, tt_bits, max_positions, seconds)\n"
"    -> (status, tokens, positions, line, searches)\n\n"
"The compact proof that the player to move (the winner) wins within `plies` plies, first\n"
"move `first` (square * 12 + orientation), as the puzzle miner's Python path builds it\n"
"(candy_strategy.h). status 0: built; 1: more than max_positions positions; 2: the\n"
"searches disagree; 3: a search ran out of node_limit nodes or the seconds ran out.\n"
"tokens: move codes (300: pass), 4096 + code for \"move=\", 8192 for \"=\"; positions:\n"
"those the strategy's walk meets; line: the principal line (codes); searches: the\n"
"questions the Python path counts.");

static PyObject *py_strategy(PyObject *self, PyObject *args) {
    PyObject *cols;
    int mover, players, plies, first, bits, max_positions;
    unsigned long long limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "OiiiiKiid", &cols, &mover, &players, &plies, &first, &limit,
                          &bits, &max_positions, &seconds))
        return NULL;
    State s;
    if (load_state(cols, players, &s) < 0) return NULL;
    if (mover < 0 || mover >= players || plies < 1 || plies > 100 || first < 0 || first >= S_PASS + 1
        || max_positions < 1 || bits < 4 || bits > 28) {
        PyErr_SetString(PyExc_ValueError, "mover, plies 1..100, first, max_positions >= 1 or tt_bits");
        return NULL;
    }
    static int zobrist_ready = 0;
    if (!zobrist_ready) { zobrist_init(); zobrist_ready = 1; }
    if (CT == NULL || CT_BITS != bits) {
        free(CT);
        CT = table_calloc((size_t)1 << bits, sizeof(CEntry));
        if (CT == NULL) { CT_BITS = 0; return PyErr_NoMemory(); }
        CT_BITS = bits;
        CT_MASK = ((u64)1 << bits) - 1;
        c_gen = 1;
    } else if (++c_gen == 0) {
        memset(CT, 0, sizeof(CEntry) << bits);
        c_gen = 1;
    }
    c_nsym = sym_ok ? NSYM : 1;
    int side = 1 << mover;
    c_side = side;
    c_extra1 = ZA1[side] ^ ZP1[players];
    c_extra2 = ZA2[side] ^ ZP2[players];
    c_deadline = seconds > 0 ? now_seconds() + seconds : 0.0;
    Keys keys;
    memset(&keys, 0, sizeof keys);
    for (int sq = 0; sq < SQ; sq++)
        for (int f = 0; f < s.h[sq]; f++)
            for (int g = 0; g < NSYM; g++) {
                keys.a[g] ^= Z1[SYMSQ[g][sq]][f][s.c[sq][f]];
                keys.b[g] ^= Z2[SYMSQ[g][sq]][f][s.c[sq][f]];
            }
    Strat t;
    memset(&t, 0, sizeof t);
    u64 cap = 1024;
    while (cap < 4 * (u64)max_positions + 64) cap <<= 1;
    t.nodes = calloc(cap, sizeof(SNode));
    if (!t.nodes) return PyErr_NoMemory();
    t.mask = cap - 1;
    t.max_nodes = max_positions;
    t.winner = mover;
    t.plies = plies;
    t.node_limit = limit;
    int fresh;
    SNode *root = s_node(&t, &keys, mover, &fresh);
    root->terminal = 0;
    root->visited = 2;
    t.count = 1;
    int16_t legal[SQ * NCODES + 1];
    int n = s_moves(&s, mover, legal), ok = 0;
    for (int i = 0; i < n; i++) ok |= legal[i] == first;
    if (!ok) { free(t.nodes); PyErr_SetString(PyExc_ValueError, "first: not a legal move"); return NULL; }
    int height = s_build(&t, &s, mover, &keys, root, plies, first);
    if (c_aborted == 2 || PyErr_Occurred()) {  /* Ctrl-C, or the progress hook's exception */
        free(t.nodes);
        free(t.tokens);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyboardInterrupt, "");
        return NULL;
    }
    PyObject *tokens = NULL, *line = NULL;
    if (height >= 0) {
        for (u64 i = 0; i <= t.mask; i++) if (t.nodes[i].visited == 1) t.nodes[i].visited = 0;
        t.visited = 0;
        if (s_walk(&t, &s, mover, &keys, root, 0) < 0 && t.status == S_OK) t.status = S_INCONSISTENT;
    }
    if (t.status == S_MEMORY) { free(t.nodes); free(t.tokens); return PyErr_NoMemory(); }
    if (t.status == S_OK) {
        /* the principal line: the winner's moves, the longest defence (first of equals) */
        line = PyList_New(0);
        State w = s;
        Keys k = keys, ck;
        int who = mover;
        SNode *at = root;
        while (line && !at->terminal) {
            int16_t moves[SQ * NCODES + 1];
            int m = who == mover ? 1 : s_moves(&w, who, moves), best = -1, best_h = -1;
            if (who == mover) moves[0] = at->move;
            for (int i = 0; i < m; i++) {
                s_play(&w, who, moves[i], &k, &ck);
                SNode *c = s_node(&t, &ck, (who + 1) % players, &fresh);
                s_undo(&w, who, moves[i]);
                if (!fresh && c->height > best_h) { best_h = c->height; best = moves[i]; }
            }
            if (best < 0) break;
            PyObject *item = PyLong_FromLong(best);
            if (!item || PyList_Append(line, item) < 0) { Py_XDECREF(item); Py_CLEAR(line); break; }
            Py_DECREF(item);
            s_play(&w, who, best, &k, &ck);
            k = ck;
            who = (who + 1) % players;
            at = s_node(&t, &k, who, &fresh);
        }
        tokens = PyList_New(t.ntokens);
        for (int i = 0; tokens && i < t.ntokens; i++) PyList_SET_ITEM(tokens, i, PyLong_FromLong(t.tokens[i]));
    }
    free(t.nodes);
    free(t.tokens);
    if (t.status == S_OK && (!tokens || !line)) { Py_XDECREF(tokens); Py_XDECREF(line); return NULL; }
    if (t.status != S_OK) return Py_BuildValue("(i[]i[]K)", t.status, 0, (unsigned long long)t.searches);
    return Py_BuildValue("(iNiNK)", S_OK, tokens, t.visited, line, (unsigned long long)t.searches);
}

#endif
