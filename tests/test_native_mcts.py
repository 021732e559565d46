"""The native MCTS engine (``solvers/native/mcts_tree.h`` + ``models/minefield/native/mcts.c``)
against the Python rules and the exact solvers: the same legal moves, the same immediate
wins, the same proved values; reproducible with a seed; the subtree kept; a full pool."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardproof import models
from boardproof.models.minefield import native as mf_native
from boardproof.models.minefield.native import mcts as mf_mcts
from boardproof.models.minefield.rules import cells_of, from_cells, make_game
from boardproof.solvers.analyse import analyse, make_tree
from boardproof.solvers.mcts import MCTS
from boardproof.solvers.native_mcts import EngineSettings, NativeTree, native_tree

pytestmark = pytest.mark.skipif(mf_mcts._mcts is None, reason="the C module was not built")


def random_position(rng: random.Random, n: int, plies: int, win: str = "orthogonal",
                    pie: bool = True) -> Any:  # fmt: skip
    pos = make_game(win=win).start(size=n, pie=pie)
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def tree_of(pos: Any, **settings: Any) -> NativeTree:
    return NativeTree(pos, mf_mcts.build(pos, EngineSettings(hash_mb=16, **settings)))


def test_legal_moves_equal_the_rules() -> None:
    """The C tree's root moves are the model's, in the model's order, on random positions
    of every size 2..10 (passes, swaps and dead positions included) and both win rules."""
    rng = random.Random(7)
    seen = {"swap": 0, "pass": 0, "dead": 0}
    for k in range(1200):
        n = 2 + k % 9
        win = rng.choice(["orthogonal", "orthodiagonal"])
        if k % 2:  # from a game
            pos = random_position(rng, n, rng.randrange(n * n + 2), win, pie=rng.random() < 0.5)
        else:  # any board: dense ones have passes and dead positions
            fill = rng.random()
            cells = tuple(rng.choice((1, 2)) if rng.random() < fill else 0 for _ in range(n * n))
            pos = from_cells(cells, n, rng.randrange(2), rng.random() < 0.2, win)
        tree = tree_of(pos)
        codes = tree.native.search.moves()
        if pos.winner() is not None:
            continue
        got = [tree.native.codec.decode(pos, c) for c in codes]
        twin = make_game(win="orthodiagonal").parse_position(pos.fen())
        if twin.winner() is not None:  # an ortho-diagonal path: over for a Theorem O tree
            # (on a made-up board both colours may have one; C names one of them), so the
            # tree over this root plays the orthogonal rule as it is: the model's moves
            eight = mf_mcts._new(pos, EngineSettings(hash_mb=1), True)
            assert eight.moves() == [] and eight.root()[5], pos.fen()
            assert got == list(pos.legal_moves()), pos.fen()
            seen["theorem O"] = seen.get("theorem O", 0) + 1
            continue
        assert got == list(pos.legal_moves()), pos.fen()
        seen["swap"] += "swap" in map(str, got)
        seen["pass"] += "pass" in map(str, got)
        seen["dead"] += not got
    assert seen["swap"] and seen["theorem O"], seen
    # passes and dead positions are rare in random boards: pinned ones (made-up boards)
    for fen, expected in [("bb1/w1b/b2 w -", ["pass"]), ("w1b/b1w/2b w -", ["pass"]),
                          ("bwb/w2/bbw b -", []), ("w1b/b1w/w1b w -", []),
                          ("w1bww/b1wbw/bbwww/bbbww/wwbbb w -", [])]:  # fmt: skip
        pos = make_game().parse_position(fen)
        tree = tree_of(pos)
        got = [str(tree.native.codec.decode(pos, c)) for c in tree.native.search.moves()]
        assert got == expected == [str(m) for m in pos.legal_moves()], fen
        if not expected:  # dead: a proved draw at the first iteration
            tree.run(iterations=1)
            assert tree.proved_value() == "draw"


def test_immediate_wins_equal_the_rules() -> None:
    """After one iteration the root's children proved a win for the mover are exactly the
    placements that make an ortho-diagonal path (the C tree's terminal test), or an
    orthogonal one from a root that has an ortho-diagonal path already (the tree over such
    a root plays the orthogonal rule as it is)."""
    rng = random.Random(3)
    checked = 0
    for k in range(300):
        n = 3 + k % 6
        pos = random_position(rng, n, rng.randrange(n * n))
        if pos.outcome() is not None:
            continue
        diagonal = make_game(win="orthodiagonal")
        twin = diagonal.parse_position(pos.fen())
        tree = tree_of(pos)
        tree.native.search.run(1, 0.0)
        for code, *_rest, proof, _index, _mover in tree.native.search.children():
            move = tree.native.codec.decode(pos, code)
            rule = pos if twin.winner() is not None else twin
            wins = rule.play(move).winner() == pos.to_move if move.is_placement else False
            assert (proof == 1 + pos.to_move) == wins, (pos.fen(), str(move))
            checked += wins
    assert checked > 20


def _exact_value(pos: Any) -> str:
    found = mf_native.solve_any(pos, node_limit=5_000_000)
    assert found.value != "unknown"
    return str(found.value)


@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_proved_values_equal_the_exact_search(win: str) -> None:
    """MCTS-Solver in C proves the values the native exact search finds (3x3, 4x4 and late
    5x5 positions, no exact step: the tree alone)."""
    rng = random.Random(11 if win == "orthogonal" else 12)
    proved = both = 0
    for k in range(75):
        n = (3, 4, 5)[k % 3]
        low = 1 if n < 5 else n * n - 12  # 5x5: late positions, which the tree can prove
        pos = random_position(rng, n, rng.randrange(low, n * n - 4), win)
        if pos.outcome() is not None:
            continue
        tree = native_tree(pos, EngineSettings(hash_mb=16, seed=k))
        if tree is None:  # over for the C tree already (Theorem O)
            continue
        tree.run(iterations=40_000)
        value = tree.proved_value()
        if value is None:
            continue
        proved += 1
        assert value == _exact_value(pos), pos.fen()
        if n == 3:  # the Python MCTS-Solver, where it proves too, agrees
            python = MCTS(pos, seed=k)
            python.run(iterations=3_000)
            assert python.proved_value() in (None, value), pos.fen()
            both += python.proved_value() is not None
        if value == "win":
            best = tree.best_move()
            after = pos.play(best)
            assert after.outcome() is not None or _exact_value(after) == "loss", pos.fen()
    assert proved >= 30 and both >= 5


def test_seeded_runs_repeat() -> None:
    """One thread, an iteration budget and a seed: the same tree, run for run; another
    seed gives another tree."""
    pos = make_game().start(size=9)

    def stats(seed: int) -> list[tuple[Any, ...]]:
        tree = tree_of(pos, seed=seed)
        tree.run(iterations=3_000)
        return sorted(tree.native.search.children())

    assert stats(5) == stats(5)
    assert stats(5) != stats(6)


def test_analyse_with_iterations_repeats() -> None:
    pos = make_game().start(size=7)
    first = analyse(pos, iterations=2_000, seed=3).to_json()
    second = analyse(pos, iterations=2_000, seed=3).to_json()
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    assert first["method"] == "mcts" and first["iterations"] == 2_000


def test_advance_keeps_the_subtree() -> None:
    pos = make_game().start(size=7, pie=False)
    tree = tree_of(pos, seed=1)
    tree.run(iterations=5_000)
    best = tree.moves(1)[0]
    kept = tree.advance(best.move)
    assert kept
    assert tree.root.visits == best.visits
    assert tree.root_position == pos.play(best.move)
    # the kept tree reads the same moves as the rules after the move
    codes = tree.native.search.moves()
    assert [tree.native.codec.decode(tree.root_position, c) for c in codes] == \
        list(tree.root_position.legal_moves())
    tree.run(iterations=1_000)
    assert tree.root.visits == best.visits + 1_000
    # a move the tree never expanded: a fresh tree
    fresh = tree_of(pos, seed=1)
    assert not fresh.advance(pos.legal_moves()[0])
    assert fresh.root.visits == 0


def test_a_full_pool_still_answers() -> None:
    pos = make_game().start(size=13)
    tree = tree_of(pos)
    tree.native = mf_mcts.build(pos, EngineSettings(hash_mb=1))
    tree.run(iterations=20_000)
    stats = tree.stats()
    assert stats["full"] == 1 and stats["nodes"] <= stats["capacity"]
    assert tree.best_move() in pos.legal_moves()
    assert tree.root.visits == 20_000


def test_two_threads() -> None:
    """Two threads share one tree: every iteration counted once, proofs still right."""
    pos = make_game().start(size=9)
    tree = tree_of(pos, threads=2)
    tree.run(iterations=10_000)
    assert tree.root.visits == tree.iterations
    assert tree.iterations >= 10_000
    small = make_game().parse_position("1b2/2w1/1bb1/w3 w -")
    solved = tree_of(small, threads=2)
    solved.run(iterations=50_000)
    assert solved.proved_value() == _exact_value(small)


def test_engine_choice() -> None:
    mine = make_game().start(size=5)
    assert isinstance(make_tree(mine, "auto"), NativeTree)
    assert not isinstance(make_tree(mine, "python"), NativeTree)
    assert not isinstance(make_tree(mine, "auto", playout="python"), NativeTree)
    collexion = models.get("collexion").start()  # (no native MCTS engine)
    assert not isinstance(make_tree(collexion, "auto"), NativeTree)
    # an ortho-diagonal path, no orthogonal one: the native tree plays the orthogonal rule
    # there (tests/test_native_orthogonal_root.py)
    theorem_o = make_game().parse_position("b3/1b2/2b1/3b w -")
    assert theorem_o.outcome() is None and isinstance(native_tree(theorem_o), NativeTree)
    assert analyse(theorem_o, iterations=50).best_move in theorem_o.legal_moves()


def test_settings_errors() -> None:
    from boardproof.models.base import InvalidOptionError

    with pytest.raises(InvalidOptionError, match="invalid option threads: expected 1..8, got 9"):
        EngineSettings().with_options({"threads": 9})
    with pytest.raises(InvalidOptionError, match="invalid option engine hash: expected int"):
        EngineSettings().with_options({"hash": "lots"})
    with pytest.raises(InvalidOptionError, match="no such setting"):
        EngineSettings().with_options({"colour": "red"})


def test_a_tree_that_sees_the_game_over_takes_the_root_afresh() -> None:
    """A move that makes an ortho-diagonal path but no orthogonal one: the C tree sees the
    game over (Theorem O), so it takes the new root afresh with the orthogonal links (not
    kept); without a ``load`` it cannot follow (gtp drops it); gtp still answers a move (the
    sequence found by the match tests)."""
    from boardproof.gtp.engine import GtpEngine

    pos = make_game().start(size=3, pie=False)
    tree, bare = tree_of(pos), tree_of(pos)
    bare.native.load = None
    for kept in (tree, bare):
        kept.run(iterations=10)
    for move in ("a1", "a3", "b2", "c1"):
        for kept in (tree, bare):
            kept.advance(pos.parse_move(move))
        pos = pos.play(move)
    assert tree.advance(pos.parse_move("c3")) is False  # a1-b2-c3: ortho-diagonal only
    assert pos.play("c3").outcome() is None and tree.native.search.moves()
    with pytest.raises(ValueError, match="sees the game over"):
        bare.advance(pos.parse_move("c3"))
    # the engine's replies that the script's moves were found against (no pattern prior)
    engine = GtpEngine("minefield", {}, {"size": 4}, iterations=30, seed=2,
                       settings=EngineSettings(pattern_prior=0))  # fmt: skip
    script = ["play b C2", "play w D4", "play b B2", "genmove w", "play b B4", "genmove w",
              "play b A3", "genmove w", "play b C1", "genmove w"]  # fmt: skip
    for line in script:
        answer = engine.handle(line)
        assert answer.startswith("="), (line, answer)


def _bridge_saves(pos: Any, q: int) -> set[int]:
    """The reference: empty points r that join two stones of the mover, a knight's move
    apart, whose two common neighbours are q (the opponent's) and r; r legal for the
    mover, the two stones not yet joined (8-connected, a colour's edge joining the stones
    on it, as the union-find's virtual edge nodes do)."""
    n, c = pos.n, pos.to_move
    cells = cells_of(pos)
    own = 1 + c

    def near(a: int, b: int) -> bool:
        return a != b and abs(a // n - b // n) <= 1 and abs(a % n - b % n) <= 1

    groups: dict[int, int] = {}
    for start in range(n * n):
        if cells[start] == own and start not in groups:
            stack = [start]
            groups[start] = start
            while stack:
                x = stack.pop()
                for y in range(n * n):
                    if cells[y] == own and y not in groups and near(x, y):
                        groups[y] = start
                        stack.append(y)
    def edges(stone: int) -> set[int]:
        line = stone // n if c == 0 else stone % n
        return {e for e, at in ((0, 0), (1, n - 1)) if line == at}

    touching: dict[int, set[int]] = {}
    for stone, group in groups.items():
        touching.setdefault(group, set()).update(edges(stone))

    def joined(a: int, b: int) -> bool:
        return groups[a] == groups[b] or bool(touching[groups[a]] & touching[groups[b]])

    legal = {m.rank * n + m.file for m in pos.legal_moves() if m.is_placement}
    found = set()
    for r in legal:
        for a in range(n * n):
            for b in range(a + 1, n * n):
                if cells[a] != own or cells[b] != own or joined(a, b):
                    continue
                dx, dy = abs(a % n - b % n), abs(a // n - b // n)
                if {dx, dy} != {1, 2}:
                    continue
                if near(a, q) and near(b, q) and near(a, r) and near(b, r) and near(q, r):
                    found.add(r)
    return found


def test_bridge_save_equals_the_reference() -> None:
    """The playouts' bridge save (knowledge) against a brute-force reference, on random
    positions after each opponent's stone."""
    rng = random.Random(5)
    fired = 0
    for k in range(300):
        n = 4 + k % 6
        pos = random_position(rng, n, rng.randrange(4, n * n // 2), pie=False)
        if pos.outcome() is not None:
            continue
        tree = tree_of(pos)
        cells = cells_of(pos)
        for q in range(n * n):
            if cells[q] != 2 - pos.to_move:
                continue
            expected = _bridge_saves(pos, q)
            got = tree.native.search.bridge_reply(q)
            assert (got in expected) if expected else got == -1, (pos.fen(), q, got, expected)
            fired += bool(expected)
    assert fired >= 10


def test_pinwheel_moves_and_values_equal_the_rules() -> None:
    """The pinwheel variant in the C tree: its glyph roles give the model's legal moves,
    and proved values equal the Python alpha-beta's (orthogonal rule: no Theorem O)."""
    from boardproof.solvers.api import solve

    rng = random.Random(21)
    checked = proved = 0
    for k in range(300):
        n = 4 + k % 6
        pos = make_game(variant="pinwheel").start(size=n, pie=k % 3 == 0)
        for _ in range(rng.randrange(n * n)):
            if pos.outcome() is not None:
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.outcome() is not None:
            continue
        tree = native_tree(pos, EngineSettings(hash_mb=16, seed=k))
        assert tree is not None
        codes = tree.native.search.moves()
        assert [tree.native.codec.decode(pos, c) for c in codes] == list(pos.legal_moves())
        checked += 1
        if n == 4 and len(pos.legal_moves()) <= 7:
            tree.run(iterations=20_000)
            value = tree.proved_value()
            if value is not None:
                assert value == solve(pos, method="alphabeta").value, pos.fen()
                proved += 1
    assert checked > 100 and proved >= 5
    # the cartwheel too (issue 30): tests/test_native_cartwheel.py
    assert native_tree(make_game(variant="cartwheel").start(size=5)) is not None


def test_interrupted_keeps_the_best_answer() -> None:
    """A stop (Ctrl-C) ends the run between slices; the answer names the best move so far."""
    pos = make_game().start(size=13)
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    found = analyse(pos, seconds=30, seed=1, should_stop=stop)
    assert found.stopped == "interrupted" and found.seconds < 5
    assert found.best_move in pos.legal_moves() and found.iterations > 0
