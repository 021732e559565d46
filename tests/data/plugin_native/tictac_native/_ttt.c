/* The native engine of the out-of-tree tic-tac-toe plug-in (tests/test_plugin_native.py).
 *
 * solve(cells, to_move, limit=0) -> (value, best_cell, plies, nodes)
 *   cells: 9 characters 'x', 'o' or '.' (row by row, str or bytes); to_move: 0 (x) or 1 (o);
 *   limit: the most nodes to visit (0: no limit).
 *   value: 1 win, 0 draw, -1 loss for the side to move, 2 unknown (the limit ran out);
 *   best_cell: the best move (the fastest win, the slowest loss), -1 on a finished board;
 *   plies: to the end of the game with best play (0 on a finished board);
 *   nodes: the positions this call visited.
 * counters() -> (calls, nodes): every solve() so far and the nodes they visited, so that a
 * caller can tell that the C search really ran.
 *
 * A negamax with alpha-beta on scores that carry the distance: a win in d plies scores
 * 100 - d, a loss in d plies -(100 - d), a draw 0.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define WIN 100

static const int LINES[8][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
};

static unsigned long long total_calls = 0;
static unsigned long long total_nodes = 0;

typedef struct {
    int board[9]; /* -1 empty, 0 x, 1 o */
    unsigned long long nodes;
    unsigned long long limit;
    int stopped;
} Search;

static int winner(const int *board) {
    for (int i = 0; i < 8; i++) {
        int v = board[LINES[i][0]];
        if (v >= 0 && v == board[LINES[i][1]] && v == board[LINES[i][2]]) return v;
    }
    return -1;
}

static int full(const int *board) {
    for (int i = 0; i < 9; i++)
        if (board[i] < 0) return 0;
    return 1;
}

/* the score for ``player`` (to move) of the board after ``ply`` plies from the root */
static int negamax(Search *s, int player, int ply, int alpha, int beta) {
    s->nodes++;
    if (s->limit && s->nodes > s->limit) {
        s->stopped = 1;
        return 0;
    }
    int w = winner(s->board);
    if (w >= 0) return w == player ? WIN - ply : -(WIN - ply);
    if (full(s->board)) return 0;
    int best = -WIN - 1;
    for (int cell = 0; cell < 9; cell++) {
        if (s->board[cell] >= 0) continue;
        s->board[cell] = player;
        int score = -negamax(s, 1 - player, ply + 1, -beta, -alpha);
        s->board[cell] = -1;
        if (s->stopped) return 0;
        if (score > best) best = score;
        if (score > alpha) alpha = score;
        if (alpha >= beta) break;
    }
    return best;
}

static PyObject *ttt_solve(PyObject *self, PyObject *args) {
    const char *text;
    Py_ssize_t length;
    int to_move;
    unsigned long long limit = 0;
    if (!PyArg_ParseTuple(args, "s#i|K", &text, &length, &to_move, &limit)) return NULL;
    if (length != 9) {
        PyErr_Format(PyExc_ValueError, "expected 9 cells, got %zd", length);
        return NULL;
    }
    if (to_move != 0 && to_move != 1) {
        PyErr_Format(PyExc_ValueError, "expected to_move 0 or 1, got %d", to_move);
        return NULL;
    }
    Search s;
    s.nodes = 0;
    s.limit = limit;
    s.stopped = 0;
    for (int i = 0; i < 9; i++) {
        switch (text[i]) {
        case 'x': s.board[i] = 0; break;
        case 'o': s.board[i] = 1; break;
        case '.': s.board[i] = -1; break;
        default:
            PyErr_Format(PyExc_ValueError, "expected x, o or . in the cells, got %c", text[i]);
            return NULL;
        }
    }
    total_calls++;
    int value, best_cell = -1, plies = 0;
    int w = winner(s.board);
    if (w >= 0 || full(s.board)) { /* a finished board: the root is the only node */
        s.nodes = 1;
        value = w < 0 ? 0 : (w == to_move ? 1 : -1);
    } else {
        /* the root's moves with a full window each below the best so far (exact scores
           for the move kept) */
        int alpha = -WIN - 1, best = -WIN - 1;
        s.nodes = 1;
        for (int cell = 0; cell < 9 && !s.stopped; cell++) {
            if (s.board[cell] >= 0) continue;
            s.board[cell] = to_move;
            int score = -negamax(&s, 1 - to_move, 1, -(WIN + 1), -alpha);
            s.board[cell] = -1;
            if (!s.stopped && score > best) {
                best = score;
                best_cell = cell;
                if (score > alpha) alpha = score;
            }
        }
        if (s.stopped) {
            value = 2;
            best_cell = -1;
        } else if (best > 0) {
            value = 1;
            plies = WIN - best;
        } else if (best < 0) {
            value = -1;
            plies = WIN + best;
        } else {
            value = 0;
            plies = -1; /* a draw: the game's length is not asked for */
        }
    }
    total_nodes += s.nodes;
    return Py_BuildValue("iiiK", value, best_cell, plies, s.nodes);
}

static PyObject *ttt_counters(PyObject *self, PyObject *args) {
    return Py_BuildValue("KK", total_calls, total_nodes);
}

static PyMethodDef methods[] = {
    {"solve", ttt_solve, METH_VARARGS,
     "solve(cells, to_move, limit=0) -> (value, best_cell, plies, nodes)"},
    {"counters", ttt_counters, METH_NOARGS, "counters() -> (calls, nodes) so far"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ttt", "Tic-tac-toe solved in C (a plug-in's native engine).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__ttt(void) { return PyModule_Create(&module); }
