/*
 * The native MCTS engine for 2-player Candy Conquest: candy_mcts.h on the two-player tree
 * of boardproof/solvers/native/mcts_tree.h (mcts_multi.c is the tree for 3 and 4 players).
 */
#define CANDY_MCTS_MODULE_NAME "_mcts"
#define CANDY_MCTS_TYPE_NAME "boardproof.models.candy.native._mcts.Search"
#include "candy_mcts.h"

PyMODINIT_FUNC PyInit__mcts(void) { return candy_mcts_module(); }
