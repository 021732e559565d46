/*
 * Candy Conquest's threat-aware move policy, in C: the cheap self-play of the puzzle miner
 * for 3 and 4 players (boardproof.models.candy.native.mcts.policy_game; included by
 * candy_mcts.h, so both MCTS modules have it). A move of the policy, for the player P to
 * move:
 *
 *   1. no placement: pass if another player can place, else the game is over;
 *   2. a placement that completes P's line: the first one in canonical order (what the
 *      MCTS-Solver plays at any iteration count: it proves a win in 1 at expansion);
 *   3. with probability ``care`` (the game's strength): a placement chosen uniformly among
 *      the *safe* ones, after which no other player can complete a line at once (it
 *      blocks the others' open lines where there are some); among all of them when none
 *      is safe;
 *   4. otherwise (probability 1 - care): a placement chosen uniformly among all of them.
 *
 * Random numbers: splitmix64 from the game's seed; step 3 or 4 draws one number for the
 * choice between them (care 1: always 3, care 0: always 4, no draw either way), then one
 * for the placement. The Python reference (boardproof.models.candy.policy) makes the same
 * moves; the tests compare the two.
 */
#ifndef BOARDPROOF_CANDY_POLICY_H
#define BOARDPROOF_CANDY_POLICY_H

#include "candy_rules.h"
#include "playout_common.h"

/* does `player` complete a line by placing `code` on `sq` (the state is left as it was) */
static int policy_wins_with(State *s, int sq, int code, int player) {
    s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * player + code);
    int won = wins_at(s, sq, player);
    s->h[sq]--;
    return won;
}

/* can a player other than `mover` place */
static int policy_others_place(const State *s, int mover) {
    for (int p = 0; p < s->players; p++)
        if (p != mover && can_place(s, p)) return 1;
    return 0;
}

/* Is the placement (sq, code) of `mover` safe from player `next`: no line at once of
   `next` after it? `open`/`nopen`: next's winning placements before it (one elsewhere than sq is re-tested:
   the new candy may hide a shape of its line; on sq, next's candy would go on top of the
   new one: its placements there are tested). */
static int policy_safe(State *s, int sq, int code, int mover, int next,
                       const int16_t *qsq, const int8_t *qcode, const int *open, int nopen) {
    s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + code);
    s->counts[mover][KIND_OF[code]]++;
    int bad = 0;
    int mask = reserve_mask(s, next);
    for (int k = 0; k < nopen && !bad; k++) {
        int j = open[k];
        if (qsq[j] != sq) bad = policy_wins_with(s, qsq[j], qcode[j], next);
    }
    if (!bad) {
        int st = square_state(s, sq);
        for (int a = 0; a < NACC[st] && !bad; a++) {
            int c = ACC[st][a];
            if (mask >> KIND_OF[c] & 1) bad = policy_wins_with(s, sq, c, next);
        }
    }
    s->counts[mover][KIND_OF[code]]--;
    s->h[sq]--;
    return !bad;
}

#define POLICY_PASS (-1)
#define POLICY_OVER (-2)

/* The policy's move for the player to move (square * NCODES + code, POLICY_PASS, or
   POLICY_OVER when nobody can place); the state is left as it was. */
static int policy_move(State *s, int mover, double care, u64 *rng) {
    int16_t sqs[SQ * NCODES], qsq[3][SQ * NCODES];
    int8_t codes[SQ * NCODES], qcode[3][SQ * NCODES];
    int pick[SQ * NCODES], open[3][SQ * NCODES], nopen[3];
    int n = placements(s, mover, sqs, codes);
    if (n == 0) return policy_others_place(s, mover) ? POLICY_PASS : POLICY_OVER;
    for (int i = 0; i < n; i++)
        if (policy_wins_with(s, sqs[i], codes[i], mover)) return sqs[i] * NCODES + codes[i];
    int careful = care >= 1.0 || (care > 0.0 && (double)(splitmix64(rng) >> 11) * 0x1.0p-53 < care);
    if (careful) {
        int guard = s->players - 1;  /* every other player, in turn order */
        for (int g = 0; g < guard; g++) {
            int q = (mover + 1 + g) % s->players, m = placements(s, q, qsq[g], qcode[g]);
            nopen[g] = 0;
            for (int j = 0; j < m; j++)
                if (policy_wins_with(s, qsq[g][j], qcode[g][j], q)) open[g][nopen[g]++] = j;
        }
        int safe = 0;
        for (int i = 0; i < n; i++) {
            int ok = 1;
            for (int g = 0; g < guard && ok; g++)
                ok = policy_safe(s, sqs[i], codes[i], mover, (mover + 1 + g) % s->players, qsq[g],
                                 qcode[g], open[g], nopen[g]);
            if (ok) pick[safe++] = i;
        }
        if (safe) {
            int i = pick[splitmix64(rng) % (u64)safe];
            return sqs[i] * NCODES + codes[i];
        }
    }
    int i = (int)(splitmix64(rng) % (u64)n);
    return sqs[i] * NCODES + codes[i];
}

/* policy_game(columns, mover, players, seed, care, limit) -> [move codes]: the policy's
   game from a position with no line on the board, until a line, nobody can place, or
   `limit` plies (pass: the code NCODES * SQ) */
static PyObject *py_policy_game(PyObject *self, PyObject *args) {
    PyObject *cols;
    int mover, players, limit;
    unsigned long long seed;
    double care;
    if (!PyArg_ParseTuple(args, "OiiKdi", &cols, &mover, &players, &seed, &care, &limit)) return NULL;
    State *s = malloc(sizeof *s);
    if (!s) return PyErr_NoMemory();
    if (load_state(cols, players, s) < 0) { free(s); return NULL; }
    if (mover < 0 || mover >= players || !(care >= 0.0 && care <= 1.0) || limit < 0) {
        free(s);
        PyErr_SetString(PyExc_ValueError, "mover 0..players-1, care 0..1, limit >= 0");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (!out) { free(s); return NULL; }
    u64 rng = (u64)seed;
    for (int ply = 0; ply < limit; ply++) {
        int move = policy_move(s, mover, care, &rng), code = SQ * NCODES, won = 0;
        if (move == POLICY_OVER) break;
        if (move != POLICY_PASS) {
            int sq = move / NCODES;
            s->c[sq][s->h[sq]++] = (uint8_t)(NCODES * mover + move % NCODES);
            s->counts[mover][KIND_OF[move % NCODES]]++;
            won = wins_at(s, sq, mover);
            code = move;
        }
        PyObject *item = PyLong_FromLong(code);
        if (!item || PyList_Append(out, item) < 0) { Py_XDECREF(item); Py_DECREF(out); free(s); return NULL; }
        Py_DECREF(item);
        if (won) break;
        mover = (mover + 1) % players;
    }
    free(s);
    return out;
}

#endif
