"""The native Minefield tree over a root with an ortho-diagonal path but no orthogonal one
(the standard glyphs, orthogonal win rule): the game goes on, and the C tree, which stops
at the first ortho-diagonal path elsewhere (Theorem O), plays the orthogonal rule as it is
there (``connect8`` false). Pinned positions (random 5x5/6x6 games stopped at the first
such path, 0-2 plies later; found with ``random.Random(5)``): the tree gives the model's
legal moves and proves the value the exact Python alpha-beta finds, for either side to
move. The old refusal (``search`` returning None there, the Python tree instead) fails
every test here."""

from __future__ import annotations

import pytest

from boardproof.models.minefield.native import mcts as mf_mcts
from boardproof.models.minefield.rules import make_game
from boardproof.solvers.analyse import analyse, make_tree
from boardproof.solvers.api import solve
from boardproof.solvers.native_mcts import EngineSettings, NativeTree, native_tree

pytestmark = pytest.mark.skipif(mf_mcts._mcts is None, reason="the C module was not built")

#: (position, the side to move's value by the exact alpha-beta: computed in the test too)
PINNED = [
    "b2ww/b4/b3w/1b3/w1b2 w -",  # 5x5, White to move, 12 moves
    "wbb1w/w2b1/1w2b/b1ww1/b1b1w b -",  # 5x5, Black to move, 5 moves
    "w3b/3b1/w1wbw/w1bb1/2bbw w -",  # 5x5, White to move
    "1wbb1/b4/b1www/ww3/1bb1b w -",  # 5x5, White to move, a win
    "2bbb1/1b1wb1/bbww1b/1b1www/w1bwwb/wwbw2 b -",  # 6x6, Black to move, a win
    "bbwbb1/bb1bww/b1b1ww/1w1w1w/w1ww2/bbw1b1 b -",  # 6x6, Black to move
    "1wwwww/w2w1b/1bb1wb/bbbw2/2bww1/bbbwb1 b -",  # 6x6, Black to move
]


def _diagonal_only(pos: object) -> bool:
    twin = make_game(win="orthodiagonal").parse_position(pos.fen())  # type: ignore[attr-defined]
    return pos.outcome() is None and twin.winner() is not None  # type: ignore[attr-defined]


@pytest.mark.parametrize("fen", PINNED)
def test_the_native_tree_takes_the_root_and_proves_the_exact_value(fen: str) -> None:
    pos = make_game().parse_position(fen)
    assert _diagonal_only(pos), fen  # the case: over for a Theorem O tree, not for the rules
    tree = native_tree(pos, EngineSettings(hash_mb=16, seed=3))
    assert isinstance(tree, NativeTree)
    codes = tree.native.search.moves()
    assert [tree.native.codec.decode(pos, c) for c in codes] == list(pos.legal_moves())
    tree.run(iterations=100_000)
    exact = solve(pos, method="alphabeta").value
    assert tree.proved_value() == exact, fen
    if exact == "win":  # the recommended move keeps the win
        assert solve(pos.play(tree.best_move()), method="alphabeta").value == "loss", fen


def test_the_engine_and_a_followed_tree_stay_native() -> None:
    """``analyse`` and the difficulty measure's ``make_tree`` use the native tree there; a
    tree that follows a move into such a root takes it afresh (it no longer raises)."""
    pos = make_game().parse_position(PINNED[0])
    assert isinstance(make_tree(pos, "auto", "auto", 0, exact=False), NativeTree)
    found = analyse(pos, iterations=200, seed=1, proof=False)
    assert isinstance(found.tree, NativeTree) and found.best_move in pos.legal_moves()
    # a1-b2-c3 on 3x3: an ortho-diagonal path, no orthogonal one, after the last move
    start = make_game().start(size=3, pie=False)
    tree = native_tree(start, EngineSettings(hash_mb=16))
    assert tree is not None
    tree.run(iterations=10)
    here = start
    for move in ("a1", "a3", "b2", "c1", "c3"):
        tree.advance(here.parse_move(move))
        here = here.play(move)
    assert _diagonal_only(here) and tree.root_position == here
    assert [tree.native.codec.decode(here, c) for c in tree.native.search.moves()] == list(
        here.legal_moves())
    tree.run(iterations=20_000)
    assert tree.proved_value() == solve(here, method="alphabeta").value
