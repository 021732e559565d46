/*
 * The native MCTS engine for Candy Conquest with 3 or 4 players (2 accepted too, for the
 * tests): candy_mcts.h on the max^n tree of boardproof/solvers/native/mcts_tree.h
 * (MCTS_PLAYERS 4: a reward per player, the coalition proofs of the Python MCTS-Solver).
 */
#define MCTS_PLAYERS 4
#define CANDY_MCTS_MODULE_NAME "_mcts_multi"
#define CANDY_MCTS_TYPE_NAME "boardproof.models.candy.native._mcts_multi.Search"
#include "candy_mcts.h"

PyMODINIT_FUNC PyInit__mcts_multi(void) { return candy_mcts_module(); }
