/*
 * Native (C) Candy Conquest: move generation, the line test, a bulk perft and the search
 * behind `solve` and the puzzle generator (boardproof.models.candy.native).
 *
 * The tables come from boardproof.models.candy.rules (setup()): the socket sizes, the
 * shapes of the 12 orientations, which orientations each square state accepts, the 4-square
 * lines through each square and the staircase steps. What is coded here is the part of the
 * rules that reads those tables on a position: the placements and the pass rule of the
 * player to move, the visibility of shapes and the line test after a placement (flat line,
 * staircase, column), and a bulk perft. The tests check all three against the model.
 *
 * On top of them, win_within(): does a given player (the attacker) force a line within d
 * plies, whatever all the other players do (one coalition, as "forced win" means for 3-4
 * players)? A depth-first AND/OR search with immediate wins first and a table of proved
 * and refuted depths (Zobrist keys of 2 x 64 bits over square, floor, candy, mover,
 * attacker and player count; the least key of the board's 8 symmetric images, see
 * "Symmetry" below). A "no" that met no horizon is a "no" at every depth (the search
 * reports it: solve's draws). It is checked against the Python search by the tests.
 * strategy() (candy_strategy.h) builds the puzzle miner's compact proof with it.
 *
 * A position is 25 columns (bytes: candy 12 * colour + orientation, floor 0 first), the
 * player to move and the player count; the reserves are derived from the board.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "table_memory.h"

#include "candy_rules.h"

static uint64_t perft(State *s, int mover, int depth) {
    int16_t sqs[SQ * NCODES];
    int8_t codes[SQ * NCODES];
    int n = placements(s, mover, sqs, codes), next = (mover + 1) % s->players;
    if (n == 0) {
        int others = 0;
        for (int p = 0; p < s->players && !others; p++)
            if (p != mover) others = can_place(s, p);
        if (!others) return 0;
        return depth == 1 ? 1 : perft(s, next, depth - 1);
    }
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        int sq = sqs[i], code = codes[i];
        s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + code);
        s->counts[mover][KIND_OF[code]]++;
        if (!wins_at(s, sq, mover)) total += perft(s, next, depth - 1);
        s->counts[mover][KIND_OF[code]]--;
        s->h[sq]--;
    }
    return total;
}

/* ------------------------------------------------------------ search */

typedef uint64_t u64;
static u64 Z1[SQ][MAXH][4 * NCODES], Z2[SQ][MAXH][4 * NCODES];
static u64 ZM1[4], ZM2[4], ZA1[16], ZA2[16], ZP1[5], ZP2[5];

/* Symmetry. The rules read the board only through (a) the socket size of each square,
 * (b) the 28 straight 4-square segments (ranks, files, diagonals) with the floor steps
 * 0 and +-1 of a line, and (c) each column on its own. A symmetry g of the 5x5 square
 * (the 8 rotations and reflections) maps a column to another square unchanged, so (c) is
 * kept; it maps every segment to a segment (the set of ranks, files and diagonals of a
 * square board is closed under its dihedral group), possibly read in the other direction,
 * which turns a step +1 into -1: (b) is kept because the steps are {0, +1, -1} (checked in
 * setup(): symmetric under negation); (a) holds because the large sockets are the squares
 * with file + rank even, a set each of the 8 maps keeps (checked in setup()). Reserves,
 * the player to move, the attacker and the player count are read off the columns or are
 * not board squares at all, so they are unchanged. Hence g maps the legal moves of a
 * position onto those of its image, lines onto lines and finished games onto finished
 * games: "the attacker forces a line within d plies" has the same answer on a position
 * and on its 8 images, and a table keyed by the least of the 8 images' keys stores only
 * true facts. Colours are never exchanged: the seats move in a fixed order and the
 * attacker is one colour, so a colour permutation is no symmetry of the question. */
#define NSYM 8
static int SYMSQ[NSYM][SQ];    /* SYMSQ[g][sq]: the image of sq under symmetry g */
static int sym_ok = 0;         /* the checks above passed: symmetry may be used */

typedef struct { u64 a[NSYM], b[NSYM]; } Keys;  /* the board's key under each symmetry */

#define LOST_ALL 255  /* `lost` of a position that has no win at any depth */

typedef struct {
    u64 k1, k2;
    uint8_t won;    /* the attacker wins within this many plies (255: not proved) */
    uint8_t lost;   /* no win within this many plies (0: nothing known; LOST_ALL: none ever) */
    uint8_t used;   /* the generation that wrote it (c_gen; 0: never): older ones are empty */
} CEntry;

static CEntry *CT = NULL;
/* clearing the table is a new generation (a memset once every 255 of them) */
static uint8_t c_gen = 1;
static u64 CT_MASK = 0;
static int CT_BITS = 0;
static u64 c_nodes = 0, c_limit = 0, c_horizon = 0;
static double c_deadline = 0.0;
static int c_aborted = 0, c_side = 0, c_nsym = 1, c_plies = 0;  /* c_side: attackers' mask */
/* c_exact: the game can end without a line within the plies of the search (as few empty
   squares, or candies in hand, as plies): a horizon met or not is then told apart exactly */
static int c_exact = 0;
static u64 c_extra1 = 0, c_extra2 = 0;  /* the attackers' and the player count's keys */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static u64 splitmix(u64 *x) {  /* a fixed sequence, the same on every machine */
    u64 z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void zobrist_init(void) {
    u64 x = 0x9E3779B97F4A7C15ULL;
    for (int sq = 0; sq < SQ; sq++)
        for (int f = 0; f < MAXH; f++)
            for (int c = 0; c < 4 * NCODES; c++) {
                Z1[sq][f][c] = splitmix(&x);
                Z2[sq][f][c] = splitmix(&x);
            }
    for (int m = 0; m < 4; m++) { ZM1[m] = splitmix(&x); ZM2[m] = splitmix(&x); }
    for (int a = 0; a < 16; a++) { ZA1[a] = splitmix(&x); ZA2[a] = splitmix(&x); }
    for (int p = 0; p < 5; p++) { ZP1[p] = splitmix(&x); ZP2[p] = splitmix(&x); }
}

/* the 8 maps of the 5x5 square on (file, rank), as in the model's SYMMETRIES */
static void symmetry_init(void) {
    for (int sq = 0; sq < SQ; sq++) {
        int f = sq % 5, r = sq / 5, img[NSYM][2] = {
            {f, r}, {4 - r, f}, {4 - f, 4 - r}, {r, 4 - f},
            {4 - f, r}, {f, 4 - r}, {r, f}, {4 - r, 4 - f}};
        for (int g = 0; g < NSYM; g++) SYMSQ[g][sq] = 5 * img[g][1] + img[g][0];
    }
}

/* the rule checks of the symmetry comment (after setup() has the model's tables) */
static int symmetry_checks(void) {
    for (int g = 0; g < NSYM; g++)
        for (int sq = 0; sq < SQ; sq++)
            if (LARGE_SOCKET[SYMSQ[g][sq]] != LARGE_SOCKET[sq]) return 0;
    for (int t = 0; t < NSTEPS; t++) {
        int found = 0;
        for (int u = 0; u < NSTEPS; u++) found |= STEPS[u] == -STEPS[t];
        if (!found) return 0;
    }
    return 1;
}

static inline CEntry *ct_slot(u64 k1, u64 k2) {
    CEntry *e = &CT[k1 & CT_MASK];
    if (e->used == c_gen && (e->k1 != k1 || e->k2 != k2)) return NULL;
    return e;
}

/* the table key of a position: the least of its images' keys, with the mover's */
static inline void table_key(const Keys *k, int mover, u64 *k1, u64 *k2) {
    u64 a = k->a[0], b = k->b[0];
    for (int g = 1; g < c_nsym; g++)
        if (k->a[g] < a || (k->a[g] == a && k->b[g] < b)) { a = k->a[g]; b = k->b[g]; }
    *k1 = a ^ ZM1[mover] ^ c_extra1;
    *k2 = b ^ ZM2[mover] ^ c_extra2;
}

/* set_hook(f): f(nodes, depth) every 2**20 nodes (progress displays); depth: the plies */
#include "progress_hook.h" /* hook_cb and set_hook(f) */

/* the nodes of the caller's earlier calls (one solve): the hook sees their sum */
static u64 c_base = 0;

static void check_budget(void) {  /* every 2**14 nodes */
    if (c_deadline > 0 && now_seconds() > c_deadline) c_aborted = 1;
    if (!(c_nodes & 0xFFFF) && PyErr_CheckSignals() < 0) c_aborted = 2;
    u64 total = c_base + c_nodes;
    if (hook_cb != NULL && !c_aborted && (total >> 20) != ((total - 0x4000) >> 20)) {
        PyObject *r = PyObject_CallFunction(hook_cb, "Ki", (unsigned long long)(total >> 20 << 20), c_plies);
        if (r == NULL) c_aborted = 2;
        else Py_DECREF(r);
    }
}

/* nobody can place: the game is over (no line on the board) */
static int game_over(const State *s) {
    for (int p = 0; p < s->players; p++)
        if (can_place(s, p)) return 0;
    return 1;
}

/* whether the game ends at the next ply whatever happens: the mover can complete a line,
   or nobody can place after each of its placements (or now) */
static int ends_at_once(State *s, int mover) {
    int16_t sqs[SQ * NCODES];
    int8_t codes[SQ * NCODES];
    int n = placements(s, mover, sqs, codes), open = 0;
    if (n == 0) return game_over(s);  /* a pass leads to a position that goes on */
    for (int i = 0; i < n; i++) {
        int sq = sqs[i], code = codes[i];
        s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + code);
        if (wins_at(s, sq, mover)) { s->h[sq]--; return 1; }
        if (!open) {
            s->counts[mover][KIND_OF[code]]++;
            open = !game_over(s);
            s->counts[mover][KIND_OF[code]]--;
        }
        s->h[sq]--;
    }
    return !open;
}

/* Does the attacker force a line within `rem` plies from here (mover to move, no line on
   the board yet)? 1 yes, 0 no. With `best` (the root): when the attacker moves and wins,
   its first move of a proof; when another player moves and the answer is no, the move
   that refutes (square -1: pass). A search that stops at a non-final position with plies
   left 0 meets the horizon (c_horizon counts it); a "no" that met none holds at every
   depth (stored as LOST_ALL). */
static int win_search(State *s, int mover, int rem, const Keys *keys, int *best_sq, int *best_code) {
    if ((++c_nodes & 0x3FFF) == 0) check_budget();
    if (c_limit && c_nodes >= c_limit) c_aborted = 1;
    if (c_aborted) return 0;
    int attack = c_side >> mover & 1;
    if (rem <= 0 || (!attack && rem < 2)) {  /* the attacker cannot move before the horizon */
        /* rem 1: its own line, or a game over after each placement, meets no horizon; told
           apart only where a search can meet none at all (c_exact): it costs a move
           generation per leaf */
        if (rem > 0 && c_exact) {
            if (!ends_at_once(s, mover)) c_horizon++;
        } else if (!game_over(s)) {
            c_horizon++;
        }
        return 0;
    }
    u64 k1, k2;
    table_key(keys, mover, &k1, &k2);
    CEntry *e = ct_slot(k1, k2);
    if (e && e->used == c_gen && !best_sq) {
        if (e->won <= rem) return 1;
        if (e->lost >= rem) { if (e->lost != LOST_ALL) c_horizon++; return 0; }
    }
    u64 horizon0 = c_horizon;
    int16_t sqs[SQ * NCODES];
    int8_t codes[SQ * NCODES];
    int n = placements(s, mover, sqs, codes), next = (mover + 1) % s->players;
    int result;
    if (n == 0) {
        int others = 0;
        for (int p = 0; p < s->players && !others; p++)
            if (p != mover) others = can_place(s, p);
        if (!others) return 0;  /* nobody can place: the game ends without a winner */
        result = win_search(s, next, rem - 1, keys, NULL, NULL);
        if (best_sq && result == attack) { *best_sq = -1; *best_code = -1; }
    } else {
        /* a line at once: the attacker's ends the search, another player's refutes it */
        for (int i = 0; i < n; i++) {
            int sq = sqs[i], code = codes[i];
            s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + code);
            int line = wins_at(s, sq, mover);
            s->h[sq]--;
            if (line) {
                if (best_sq) { *best_sq = sq; *best_code = code; }
                result = attack;
                goto store;
            }
        }
        if (attack && rem == 1) {  /* no line at once: every placement meets the horizon */
            for (int i = 0; i < n; i++) {  /* (unless the game is over after it) */
                int sq = sqs[i], code = codes[i];
                s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + code);
                s->counts[mover][KIND_OF[code]]++;
                int over = game_over(s);
                s->counts[mover][KIND_OF[code]]--;
                s->h[sq]--;
                if (!over) { c_horizon++; break; }
            }
            result = 0;
            goto store;
        }
        result = attack ? 0 : 1;
        Keys child;
        for (int i = 0; i < n; i++) {
            int sq = sqs[i], code = codes[i], f = s->h[sq], candy = NCODES * mover + code;
            for (int g = 0; g < c_nsym; g++) {
                int img = SYMSQ[g][sq];
                child.a[g] = keys->a[g] ^ Z1[img][f][candy];
                child.b[g] = keys->b[g] ^ Z2[img][f][candy];
            }
            s->c[sq][s->h[sq]++] = (uint8_t)candy;
            s->counts[mover][KIND_OF[code]]++;
            int r = win_search(s, next, rem - 1, &child, NULL, NULL);
            s->counts[mover][KIND_OF[code]]--;
            s->h[sq]--;
            if (c_aborted) return 0;
            if (attack && r) { result = 1; if (best_sq) { *best_sq = sq; *best_code = code; } break; }
            if (!attack && !r) { result = 0; if (best_sq) { *best_sq = sq; *best_code = code; } break; }
        }
    }
store:
    if (c_aborted) return 0;
    e = ct_slot(k1, k2);
    if (e == NULL) { /* replace: the newest result wins the slot */
        e = &CT[k1 & CT_MASK];
        e->used = 0;
    }
    if (e->used != c_gen) { e->k1 = k1; e->k2 = k2; e->won = 255; e->lost = 0; e->used = c_gen; }
    if (result) { if (rem < e->won) e->won = (uint8_t)rem; }
    else if (c_horizon == horizon0) e->lost = LOST_ALL;
    else if (rem > e->lost) e->lost = (uint8_t)rem;
    return result;
}

#include "candy_strategy.h" /* the miner's proofs: strategy() */

/* ------------------------------------------------------- Python glue */

PyDoc_STRVAR(setup_doc,
"setup(large_socket, bottom_large, top_large, top_type, kind_of, accepted, segments_at, steps)\n\n"
"The model's tables: 25 socket sizes; per orientation (12) its bottom size, top size, top\n"
"type and kind; per square state (8) the orientations it accepts; per square its lines as\n"
"(4 squares, index of the square); the floor steps of a line (0 flat, +-1 staircases).");

static PyObject *py_setup(PyObject *self, PyObject *args) {
    if (rules_setup(args) < 0) return NULL;
    ready = 0;
    symmetry_init();
    sym_ok = symmetry_checks();
    ready = 1;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(moves_doc,
"moves(columns, mover, players) -> [(square, orientation), ...]\n\n"
"The legal moves of a position that is not over, in canonical order: the mover's\n"
"placements; else [(-1, -1)] (pass) if another player can place; else [] (no one can).");

static PyObject *py_moves(PyObject *self, PyObject *args) {
    PyObject *cols;
    int mover, players;
    if (!PyArg_ParseTuple(args, "Oii", &cols, &mover, &players)) return NULL;
    State s;
    if (load_state(cols, players, &s) < 0) return NULL;
    if (mover < 0 || mover >= players) { PyErr_SetString(PyExc_ValueError, "mover"); return NULL; }
    int16_t sqs[SQ * NCODES];
    int8_t codes[SQ * NCODES];
    int n = placements(&s, mover, sqs, codes);
    if (n == 0) {
        for (int p = 0; p < players; p++)
            if (p != mover && can_place(&s, p)) return Py_BuildValue("[(ii)]", -1, -1);
        return PyList_New(0);
    }
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *pair = Py_BuildValue("(ii)", sqs[i], codes[i]);
        if (pair == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, pair);
    }
    return out;
}

PyDoc_STRVAR(wins_at_doc,
"wins_at(columns, square, colour) -> bool\n\n"
"Whether the candy on top of square completes a line of colour (players: 4 allowed).");

static PyObject *py_wins_at(PyObject *self, PyObject *args) {
    PyObject *cols;
    int sq, colour;
    if (!PyArg_ParseTuple(args, "Oii", &cols, &sq, &colour)) return NULL;
    State s;
    if (load_state(cols, 4, &s) < 0) return NULL;
    if (sq < 0 || sq >= SQ || s.h[sq] == 0) { PyErr_SetString(PyExc_ValueError, "square: an occupied one"); return NULL; }
    return PyBool_FromLong(wins_at(&s, sq, colour));
}

PyDoc_STRVAR(perft_doc,
"perft(columns, mover, players, depth) -> int\n\n"
"Leaves of the legal-move tree of depth >= 1 of a position that is not over.");

static PyObject *py_perft(PyObject *self, PyObject *args) {
    PyObject *cols;
    int mover, players, depth;
    if (!PyArg_ParseTuple(args, "Oiii", &cols, &mover, &players, &depth)) return NULL;
    State s;
    if (load_state(cols, players, &s) < 0) return NULL;
    if (mover < 0 || mover >= players || depth < 1) { PyErr_SetString(PyExc_ValueError, "mover or depth"); return NULL; }
    uint64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = perft(&s, mover, depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong(n);
}

PyDoc_STRVAR(win_within_doc,
"win_within(columns, mover, players, attacker, plies, tt_bits, node_limit, seconds, keep,\n"
"           symmetry=True, node_base=0) -> (result, nodes, square, orientation, complete)\n\n"
"Does `attacker` force a line within `plies` plies against all the others (a position with\n"
"no line yet)? attacker -1 - p: the side of all players but p (a line of any of them)\n"
"against p. result 1 yes, 0 no, -1 budget spent (node_limit / seconds, 0: none). At the\n"
"root, when the answer is decided by the player to move (1 and an attacker moves: its\n"
"first winning move; 0 and another player moves: its refuting move): that move (square\n"
"-1: pass; -2: none). `complete`: the answer 0 met no horizon, so it holds at every depth.\n"
"The table (2**tt_bits entries, keyed by attacker, player count, mover and board; with\n"
"`symmetry`, the least key of the board's 8 images) is cleared unless `keep` and the last\n"
"call had the same tt_bits: its entries are facts about positions, true at any depth.\n"
"Ctrl-C and an exception of the progress hook (set_hook) stop the search and are raised;\n"
"the hook sees node_base + the nodes of this call (the nodes of a solve's earlier calls).");

static PyObject *py_win_within(PyObject *self, PyObject *args) {
    PyObject *cols;
    int mover, players, attacker, plies, bits, keep, symmetry = 1;
    unsigned long long limit, base = 0;
    double seconds;
    if (!PyArg_ParseTuple(args, "OiiiiiKdp|pK", &cols, &mover, &players, &attacker, &plies, &bits,
                          &limit, &seconds, &keep, &symmetry, &base))
        return NULL;
    State s;
    if (load_state(cols, players, &s) < 0) return NULL;
    if (mover < 0 || mover >= players || attacker < -players || attacker >= players) { PyErr_SetString(PyExc_ValueError, "mover or attacker"); return NULL; }
    int side = attacker >= 0 ? 1 << attacker : ((1 << players) - 1) & ~(1 << (-1 - attacker));
    if (plies < 0 || plies > 250) { PyErr_SetString(PyExc_ValueError, "plies: 0 to 250"); return NULL; }
    if (bits < 4 || bits > 28) { PyErr_SetString(PyExc_ValueError, "tt_bits: 4 to 28"); return NULL; }
    if (CT == NULL || CT_BITS != bits) {
        free(CT);
        CT = table_calloc((size_t)1 << bits, sizeof(CEntry));
        if (CT == NULL) { CT_BITS = 0; return PyErr_NoMemory(); }
        CT_BITS = bits;
        CT_MASK = ((u64)1 << bits) - 1;
        c_gen = 1;
    } else if (!keep && ++c_gen == 0) {
        memset(CT, 0, sizeof(CEntry) << bits);
        c_gen = 1;
    }
    static int zobrist_ready = 0;
    if (!zobrist_ready) { zobrist_init(); zobrist_ready = 1; }
    c_nsym = symmetry && sym_ok ? NSYM : 1;
    Keys keys;
    memset(&keys, 0, sizeof keys);
    for (int sq = 0; sq < SQ; sq++)
        for (int f = 0; f < s.h[sq]; f++)
            for (int g = 0; g < c_nsym; g++) {
                keys.a[g] ^= Z1[SYMSQ[g][sq]][f][s.c[sq][f]];
                keys.b[g] ^= Z2[SYMSQ[g][sq]][f][s.c[sq][f]];
            }
    c_extra1 = ZA1[side] ^ ZP1[players];
    c_extra2 = ZA2[side] ^ ZP2[players];
    c_nodes = 0;
    c_base = base;
    c_horizon = 0;
    c_limit = limit;
    c_aborted = 0;
    c_side = side;
    int empty = 0, in_hand = 24 * players;
    for (int sq = 0; sq < SQ; sq++) { empty += s.h[sq] == 0; in_hand -= s.h[sq]; }
    c_exact = empty <= plies || in_hand <= plies;
    c_plies = plies;
    c_deadline = seconds > 0 ? now_seconds() + seconds : 0.0;
    int best_sq = -2, best_code = -1, result;
    /* the GIL is kept: the search checks for Ctrl-C and calls the progress hook */
    result = win_search(&s, mover, plies, &keys, &best_sq, &best_code);
    if (c_aborted == 2) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyboardInterrupt, "");
        return NULL;
    }
    int complete = !c_aborted && result == 0 && c_horizon == 0;
    if (c_aborted) result = -1;
    if (result < 0 || (result == 1) != (side >> mover & 1)) best_sq = -2, best_code = -1;
    return Py_BuildValue("(iKiii)", result, (unsigned long long)c_nodes, best_sq, best_code, complete);
}

PyDoc_STRVAR(set_hook_doc,
"set_hook(f): call f(nodes, depth) every 2**20 nodes of win_within() (depth: its plies);\n"
"None removes it. An exception raised by f stops the search and is raised by it.");

static PyMethodDef methods[] = {
    {"setup", py_setup, METH_VARARGS, setup_doc},
    {"moves", py_moves, METH_VARARGS, moves_doc},
    {"wins_at", py_wins_at, METH_VARARGS, wins_at_doc},
    {"perft", py_perft, METH_VARARGS, perft_doc},
    {"win_within", py_win_within, METH_VARARGS, win_within_doc},
    {"set_hook", py_set_hook, METH_O, set_hook_doc},
    {"strategy", py_strategy, METH_VARARGS, strategy_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_candy",
    "Native Candy Conquest move generation, line test and perft (see candy.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__candy(void) { return PyModule_Create(&module); }
