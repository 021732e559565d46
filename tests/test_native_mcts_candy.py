"""The native MCTS trees of Candy Conquest (``candy_mcts.h`` on ``mcts_tree.h``): the
two-player tree and the max^n tree of 3 and 4 players, against the rules, the exact
solver and the Python MCTS-Solver; determinism; the engine's hooks."""

from __future__ import annotations

import random

import pytest

from boardproof import models
from boardproof.models.candy.native import mcts as candy_mcts
from boardproof.solvers.analyse import analyse, make_tree
from boardproof.solvers.api import solve
from boardproof.solvers.mcts import MCTS
from boardproof.solvers.native_mcts import EngineSettings, NativeTree, NativeTreeN, native_tree

pytestmark = pytest.mark.skipif(not candy_mcts.available(), reason="C module not built")

GAME = models.get("candy")

#: positions of seeded random games (the answers come from the exact solver at test time):
#: 2 players: a loss in 2 plies, wins in 3; 3 players: a loss in 2, a loss in 3, a win in
#: 4, a draw (nobody forces a line); 4 players: a loss in 2, a draw
POSITIONS = {
    2: [
        ".,2xS,.,.,./1oX,1Ox2Xs,.,1Xs,./.,.,.,.,./2xS,.,.,1Sx,2xO/.,1xS2sX,1Xs,1xS,2So 2 2",
        "1Ox,2oS,2Xs1So,.,1Os/.,2Xo,.,1Xo2Ox,1oS/1Ox,1oS,2So,2xO,./.,1Sx,1xO,.,2sO/"
        "1Sx,2sO,.,2xS,2Sx 1 2",
        "1Ox,.,1Sx,.,./2sX,.,1oS,2Os,2xS/.,.,.,1oX,./.,1Os,2xS,.,./.,2sO,.,.,. 1 2",
        ".,.,2Os,1sX,./2xO,1So,2sO,.,./.,.,.,2oS,./.,1Xs,.,.,./1Ox,2sX,.,1sO,1Ox 2 2",
    ],
    3: [
        "2Ox2Xo,3xS3sO2oX,1Xo,2sO,2Os/1xO,.,1oX3xS,1Ox,3oS2sX1xS2sX/1Os2So3Ox1Xo,2oS,"
        "2So3Os,3xS1sO,3Ox/.,1Os,3oS,3Sx,1xS2sX/1Xs,.,3Xs3So1Ox,1oX,2Os 2 3",
        "1Xo,3oS,2So1Os1Sx2Xs,.,2So/3xO3oS,3Xo,3xO,2Os3Sx3Xs,3oX/2So,2oS1sO,2Xo3Os3Sx,3oX,./"
        "1oS,1Os3Sx2Xs,2oX,1Xo,2xS1sX/3Xs1So,1sX1xO,1Sx2Xo,2xS,2Xo1Ox 1 3",
        "1Ox1Xs,1oS2sX1xO3oX2xO2oS,3Xs1So,2xO3oX1xS1sX,2Os/2oS1sO3oS,3Sx1Xo,1xS2sX,"
        "2Xo2Ox3Xs,1xO3oX/2Ox,3oX3xO,2So3Ox2Xs3So,3xS1sX3xO3oS,3Xs3Sx/1sO2oX,2So2Os3Sx1Xs2Sx,"
        "1sO1oX,1Xo2Os,2oX/1Os,2sO,1Xo3Os,3sX,1Sx2Xo 3 3",
        "1Xs3Sx,.,2Os1Sx,2xS,1So/2sX,2Ox2Xo,3oX2xO,3Os,3xO/2So1Os1So,3sO,1Os2So,1xO,"
        "3Xs2Sx2Xo/3xO,3Ox,.,2Sx,1sX3xO/1Ox2Xo,1sO,1Xs,1sO,3Os3So 3 3",
    ],
    4: [
        "1Os3Sx,1sO4oS,2Xo,3xO3oS,./2sX,1Ox,2xO3oX2xO,3Xs,2xS3sX/1Os2Sx,1xS,4So3Ox1Xs1Sx,3sO,"
        "4Sx/3sX4xS4sX,.,4oS4sX1xO,4Xo,1xO1oX4xO/2Sx2Xs,2xS,1Xo3Os,3oX2xO,4Sx2Xo 4 4",
        "3Sx2Xs4Sx,1sO1oS,1Ox3Xs3So,2xS4sO,3Ox/4oX1xO,1Ox2Xo4Ox3Xs,4xS4sO,1So2Ox3Xo,3sX1xS/"
        "2Ox2Xo,4sX3xS2sX,4Xo,3xS4sX,1So3Os2So/2oS4sO,4Xs2Sx,1oS2sX,3Ox1Xs,4oX2xS/4Xs1Sx,"
        "3oS1sX,3Os,2oX1xO2oX3xS1sO,4So2Os1Sx3Xo 4 4",
    ],
}


def _tree(position, seed=1, players_tree=None, **settings):
    found = candy_mcts.build(position, EngineSettings(seed=seed, **settings), players_tree)
    return NativeTreeN(position, found) if found.max_n else NativeTree(position, found)


def _random_game(players, seed):
    """The positions of a uniformly random game to its end."""
    rng = random.Random(seed)
    position = GAME.start(players=players)
    line = [position]
    while position.outcome() is None:
        position = position.play(rng.choice(position.legal_moves()))
        line.append(position)
    return line


@pytest.mark.parametrize("players", [2, 3, 4])
def test_moves_and_codes_follow_the_rules(players):
    codec = candy_mcts.Codec()
    for seed in range(3):
        line = _random_game(players, seed)
        tree = _tree(line[0])
        for before, after in zip(line, line[1:], strict=False):
            legal = before.legal_moves()
            codes = tree.native.search.moves()
            assert sorted(codes) == sorted(codec.encode(before, m) for m in legal)
            assert [codec.decode(before, c) for c in codes] == list(legal)
            move = next(m for m in legal if before.play(m) == after)
            tree.advance(move)
        assert tree.native.search.moves() == []
        outcome = line[-1].outcome()
        winners = sorted(outcome.winners)
        proof = tree.native.search.root()[5]
        if winners:
            assert proof == 1 + winners[0]
        tree.run(iterations=5)  # a finished game: proved at once (a draw: no moves)
        assert tree.proved_value() is not None


def test_a_pass_is_a_move_code():
    position = GAME.parse_position(".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. 1 2")
    assert candy_mcts.Codec.decode(position, candy_mcts.PASS_CODE) == candy_mcts.rules.PASS
    with pytest.raises(ValueError, match="invalid move code"):
        candy_mcts.Codec.decode(position, candy_mcts.MOVE_CODES)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_end_with_a_result(players):
    tree = _tree(GAME.start(players=players))
    draw = 2 if players == 2 else 4  # MCTS_DRAW_RESULT: the tree's MCTS_PLAYERS
    results = {tree.native.search.playout(seed) for seed in range(200)}
    assert results <= set(range(players)) | {draw}
    assert len(results & set(range(players))) == players  # every player wins some


def _exact(position):
    found = solve(position, timeout=30)
    assert found.value != "unknown", position.fen()
    return found.value, found.winner


@pytest.mark.parametrize("players", [2, 3, 4])
def test_proved_values_are_the_exact_solvers(players):
    for fen in POSITIONS[players]:
        position = GAME.parse_position(fen)
        tree = _tree(position)
        tree.run(iterations=30_000)
        proved = tree.proved_value()
        assert proved is not None, fen  # each of these is proved within the budget
        assert (proved, tree.proved_winner()) == _exact(position), fen
        best = tree.best_move()
        if proved == "win":  # the move the tree names wins
            assert _exact(position.play(best))[1] == position.to_move


def test_the_max_n_tree_proves_two_player_values_too():
    """The n-player tree on 2-player positions: its coalition proofs are the two-player
    ones (the other player is the whole coalition)."""
    for fen in POSITIONS[2]:
        position = GAME.parse_position(fen)
        tree = _tree(position, players_tree=4)
        assert isinstance(tree, NativeTreeN)
        tree.run(iterations=30_000)
        assert (tree.proved_value(), tree.proved_winner()) == _exact(position), fen


@pytest.mark.parametrize("fen", [POSITIONS[2][0], POSITIONS[3][0]])
def test_proved_values_are_the_python_trees(fen):
    position = GAME.parse_position(fen)
    python = MCTS(position, seed=1)
    python.run(iterations=3_000)
    tree = _tree(position)
    tree.run(iterations=3_000)
    assert python.proved_value() is not None
    assert (tree.proved_value(), tree.proved_winner()) == (
        python.proved_value(), python.proved_winner())  # fmt: skip
    # the proved children agree too (both trees expand every child of the root)
    c_moves = {str(s.move): s.proved for s in tree.moves()}
    py_moves = {str(s.move): s.proved for s in python.moves()}
    assert c_moves == py_moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seed_and_one_thread_give_the_same_tree(players):
    position = GAME.start(players=players)
    first, second, other = _tree(position, 7), _tree(position, 7), _tree(position, 8)
    for tree in (first, second, other):
        tree.run(iterations=3_000)
    children = first.native.search.children()
    assert children == second.native.search.children()
    assert children != other.native.search.children()
    assert first.principal_line() == second.principal_line()


def test_three_players_read_as_the_python_tree():
    position = GAME.start(players=3)
    tree = _tree(position)
    tree.run(iterations=2_000)
    root = tree.root
    assert root.visits == 2_000 and len(root.reward) == 3
    assert sum(root.reward) == pytest.approx(2_000, rel=1e-4)
    stats = tree.moves()
    assert sum(s.visits for s in stats) == 2_000  # (the root is expanded at once)
    assert all(0.0 <= s.value <= 1.0 for s in stats)
    assert stats[0].visits == max(s.visits for s in stats)
    assert tree.root_value() == pytest.approx(root.reward[0] / 2_000)


@pytest.mark.parametrize("players", [2, 3])
def test_advance_keeps_the_subtree(players):
    position = GAME.start(players=players)
    tree = _tree(position)
    tree.run(iterations=2_000)
    best = tree.best_move()
    visits = next(s.visits for s in tree.moves() if s.move == best)
    assert tree.advance(best)
    assert tree.root.visits == visits
    assert tree.root_position == position.play(best)
    tree.reset(GAME.start(players=players))
    assert tree.root.visits == 0
    with pytest.raises(ValueError, match="-player Candy position"):
        tree.reset(GAME.start(players=2 if players == 3 else 3))  # its own player count


def test_the_engine_grows_the_native_trees():
    for players, kind in ((2, NativeTree), (3, NativeTreeN), (4, NativeTreeN)):
        position = GAME.start(players=players)
        assert type(make_tree(position, "auto")) is kind
        assert type(native_tree(position)) is kind
        found = analyse(position, iterations=400, seed=3, proof=False)
        again = analyse(position, iterations=400, seed=3, proof=False)
        assert isinstance(found.tree, kind) and found.iterations >= 400
        assert str(found.best_move) == str(again.best_move)
        assert len(found.values) == players
    assert type(make_tree(GAME.start(), "python")) is MCTS


@pytest.mark.parametrize("players", [2, 3])
def test_two_threads(players):
    """Two threads share one tree (virtual losses): every iteration counted once, proofs
    still the exact solver's."""
    tree = _tree(GAME.start(players=players), threads=2)
    tree.run(iterations=5_000)
    assert tree.root.visits == tree.iterations >= 5_000
    position = GAME.parse_position(POSITIONS[players][0])
    solved = _tree(position, threads=2)
    solved.run(iterations=30_000)
    assert (solved.proved_value(), solved.proved_winner()) == _exact(position)


def test_playout_knowledge_completes_a_line():
    """With ``knowledge`` a playout completes a line when the player to move can; without
    it the random playouts from the same position sometimes let the line go."""
    line = _random_game(2, 11)
    position = next(
        p
        for p in line[:-1]
        if p.outcome() is None and any(p.play(m).outcome() is not None for m in p.legal_moves())
    )
    mover = position.to_move
    wise = _tree(position, knowledge=True).native.search
    plain = _tree(position).native.search
    assert {wise.playout(seed) for seed in range(50)} == {mover}
    assert {plain.playout(seed) for seed in range(50)} != {mover}
