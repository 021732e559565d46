"""The native MCTS engine for Carpniches (``solvers/native/mcts_tree.h`` +
``models/carpniches/native/mcts.c``) against the Python rules and the exact search: the
same legal moves, the same immediate wins, the same proved values; repetitions are draw
leaves relative to the path; reproducible with a seed; the subtree kept."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardproof.models.carpniches import native as cp_native
from boardproof.models.carpniches.native import mcts as cp_mcts
from boardproof.models.carpniches.rules import MOVES, SQUARES, START_POSITION, parse_position
from boardproof.solvers.analyse import analyse, make_tree
from boardproof.solvers.common import Budget
from boardproof.solvers.native_mcts import DRAW, EngineSettings, NativeTree

pytestmark = pytest.mark.skipif(not cp_mcts.available(), reason="the C module was not built")


def random_game(rng: random.Random, limit: int = 300) -> list[Any]:
    """The positions of one random game from the start (the last one ends it, or the
    limit does)."""
    pos = START_POSITION
    seen = [pos]
    while pos.outcome() is None and len(seen) < limit:
        pos = pos.play(rng.choice(pos.legal_moves()))
        seen.append(pos)
    return seen


def tree_of(pos: Any, **settings: Any) -> NativeTree:
    return NativeTree(pos, cp_mcts.build(pos, EngineSettings(hash_mb=16, **settings)))


def test_codec_round_trips() -> None:
    codec = cp_mcts.Codec()
    for code in range(cp_mcts.MOVE_CODES):
        assert codec.encode(START_POSITION, codec.decode(START_POSITION, code)) == code
    assert codec.encode(START_POSITION, MOVES[5][10]) == 5 * SQUARES + 10
    with pytest.raises(ValueError, match="invalid move code"):
        codec.decode(START_POSITION, cp_mcts.MOVE_CODES)


def test_legal_moves_equal_the_rules() -> None:
    """The C tree's root moves are the model's, in the model's order, on the positions of
    random games (the first turns' rules included); a finished game has none and its root
    is proved for the winner at once."""
    rng = random.Random(7)
    checked = over = 0
    for _ in range(60):
        for pos in random_game(rng):
            tree = tree_of(pos)
            codes = tree.native.search.moves()
            got = [tree.native.codec.decode(pos, c) for c in codes]
            assert got == list(pos.legal_moves()), pos.fen()
            assert [tree.native.codec.encode(pos, m) for m in got] == codes
            outcome = pos.outcome()
            if outcome is not None:
                assert tree.proved_winner() == min(outcome.winners), pos.fen()
                over += 1
            checked += 1
    assert checked > 1000 and over == 60


def test_immediate_wins_equal_the_rules() -> None:
    """After one iteration the root's children proved a win for the mover are exactly the
    moves that win at once: the mover's line alone, or the opponent blocked."""
    rng = random.Random(3)
    wins = 0
    for _ in range(40):
        for pos in random_game(rng)[-8:-1]:
            tree = tree_of(pos)
            tree.native.search.run(1, 0.0)
            for code, *_rest, proof, _index, _mover in tree.native.search.children():
                move = tree.native.codec.decode(pos, code)
                outcome = pos.play(move).outcome()
                won = outcome is not None and outcome.winners == frozenset((pos.to_move,))
                assert (proof == 1 + pos.to_move) == won, (pos.fen(), str(move))
                wins += won
    assert wins > 30


def _exact(pos: Any) -> str | None:
    """The exact value for the side to move (None: not settled within the budget)."""
    found = cp_native.NativeAlphaBeta(pos, budget=Budget(None, 300_000), tt_bits=16).iterate()
    return found.value if found.proved else None


def test_proved_values_equal_the_exact_search() -> None:
    """MCTS-Solver in C proves the values the native alpha-beta finds, on positions a few
    plies before the end of random games, and so do its root's proved children."""
    rng = random.Random(11)
    proved = children = 0
    for k in range(25):
        game = random_game(rng)
        for back in (2, 3, 5, 7):
            if back >= len(game) or game[-1 - back].outcome() is not None:
                continue
            pos = game[-1 - back]
            tree = tree_of(pos, seed=k)
            tree.run(iterations=20_000)
            value = tree.proved_value()
            if value is None:
                continue
            exact = _exact(pos)
            if exact is None:
                continue
            assert value == exact, pos.fen()
            proved += 1
            for code, _n, _v, _rv, _rval, proof, _i, _m in tree.native.search.children():
                if not proof or proof == DRAW:
                    continue
                after = pos.play(tree.native.codec.decode(pos, code))
                if after.outcome() is not None:
                    continue
                child = _exact(after)
                if child is not None:
                    assert proof == 1 + (after.to_move if child == "win" else pos.to_move)
                    children += 1
            if value == "win":
                after = pos.play(tree.best_move())
                assert after.outcome() is not None or _exact(after) == "loss", pos.fen()
    assert proved >= 40 and children >= 20, (proved, children)


def _children(tree: NativeTree, index: int) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = tree.native.search.children(index)
    return found


def _walk(tree: NativeTree, pos: Any, index: int, path: list[Any], depth: int,
          seen: dict[str, int], advanced: bool = False) -> None:  # fmt: skip
    """Check the visited nodes under ``index`` (``path``: the positions above them, the
    root first): a position repeating one of its path is a draw leaf, nothing else is;
    an end of the game is proved for its winner. ``advanced``: the tree was advanced, so
    a draw leaf not visited since may have lost its proof."""
    for code, visits, value, _rv, _rval, proof, child, mover in _children(tree, index):
        if not visits:
            continue
        after = pos.play(tree.native.codec.decode(pos, code))
        if after in path:
            seen["repeated"] += 1
            # a draw at once (the playout and every later visit); proved at the expansion
            assert value == 0.5 * visits and mover == -1, after.fen()
            assert proof == DRAW or visits == 1 or advanced, after.fen()
            seen["proved"] += proof == DRAW
        elif proof == DRAW:
            assert mover != -1, after.fen()  # a draw proved from its children
        outcome = after.outcome()
        if outcome is not None:
            assert outcome.winners == frozenset((proof - 1,)), after.fen()
        if depth > 1 and mover >= 0:
            _walk(tree, after, child, [*path, after], depth - 1, seen, advanced)


def test_repetitions_are_draw_leaves() -> None:
    """A position that repeats one of its path is a draw leaf of the tree (and only such
    positions are); after ``advance`` the history restarts at the new root and the draw
    proofs relative to the old paths are gone."""
    pos = parse_position("2p2(pc)/1c4/2p3/(cc)5/1p4/p1c2(cp) c -")
    tree = tree_of(pos, seed=4)
    tree.run(iterations=30_000)
    seen = {"repeated": 0, "proved": 0}
    _walk(tree, pos, 0, [pos], 8, seen)
    assert seen["proved"] >= 2, seen
    best = tree.moves(1)[0]
    assert tree.advance(best.move)
    after = pos.play(best.move)
    assert tree.root.visits == best.visits

    def draws(index: int, depth: int) -> int:
        found = 0
        for *_head, proof, child, mover in tree.native.search.children(index):
            found += proof == DRAW
            if depth > 1 and mover >= 0:
                found += draws(child, depth - 1)
        return found

    assert draws(0, 12) == 0
    tree.run(iterations=10_000)
    seen = {"repeated": 0, "proved": 0}
    _walk(tree, after, 0, [after], 8, seen, advanced=True)  # pos is no longer on the path
    assert seen["proved"], seen


def test_seeded_runs_repeat() -> None:
    """One thread, an iteration budget and a seed: the same tree, run for run; another
    seed gives another tree."""

    def stats(seed: int) -> list[tuple[Any, ...]]:
        tree = tree_of(START_POSITION, seed=seed)
        tree.run(iterations=3_000)
        return sorted(tree.native.search.children())

    assert stats(5) == stats(5)
    assert stats(5) != stats(6)


def test_advance_and_reset() -> None:
    tree = tree_of(START_POSITION, seed=1)
    tree.run(iterations=3_000)
    best = tree.moves(1)[0]
    assert tree.advance(best.move)
    assert tree.root_position == START_POSITION.play(best.move)
    codes = tree.native.search.moves()
    assert [tree.native.codec.decode(tree.root_position, c) for c in codes] == list(
        tree.root_position.legal_moves()
    )  # the second player's first move: not onto or over the first one's landing square
    with pytest.raises(ValueError, match="not legal at the root"):
        tree.native.search.advance(cp_mcts.Codec.encode(START_POSITION, best.move))
    tree.reset(START_POSITION)
    assert tree.root.visits == 0 and tree.root_position == START_POSITION
    with pytest.raises(ValueError, match="Carpniches"):
        from boardproof import models

        tree.reset(models.get("candy").start())


def test_bad_boards_are_refused() -> None:
    search = cp_mcts._mcts
    settings = (1 << 20, 0, 1, 0.3, 0.001, 1.0, 2, True)
    with pytest.raises(ValueError, match="do not nest"):
        search.Search((0, 1, 0, 0, 0, 0), 0, -2, *settings)
    with pytest.raises(ValueError, match="off the 6x6"):
        search.Search((1 << 36, 0, 0, 0, 0, 0), 0, -2, *settings)
    with pytest.raises(ValueError, match="opening"):
        search.Search(tuple(START_POSITION[:6]), 0, 36, *settings)


def test_two_threads() -> None:
    tree = tree_of(START_POSITION, threads=2)
    tree.run(iterations=5_000)
    assert tree.root.visits == tree.iterations >= 5_000


def test_analyse_uses_the_native_tree() -> None:
    assert isinstance(make_tree(START_POSITION, "auto"), NativeTree)
    assert not isinstance(make_tree(START_POSITION, "python"), NativeTree)
    found = analyse(START_POSITION, iterations=2_000, seed=3)
    assert found.best_move in START_POSITION.legal_moves()
    assert found.method == "mcts" and found.iterations == 2_000
    again = analyse(START_POSITION, iterations=2_000, seed=3)
    assert [str(m) for m in again.pv] == [str(m) for m in found.pv]
