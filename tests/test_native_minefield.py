"""The native (C) Minefield search agrees with the rules and with the Python solvers."""

from __future__ import annotations

import random

import pytest

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.board import GUARD, tables
from boardproof.solvers.api import solve
from boardproof.solvers.enumerate import solve_graph
from boardproof.testing.random_play import unfinished_positions

GAME = models.get("minefield")
needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")


def test_the_module_is_built_on_this_machine() -> None:
    """The README's set-up builds it (gcc and the Python headers are on the project's
    machines); set BOARDPROOF_NO_NATIVE=1 to accept a machine without a C compiler."""
    import os

    assert native.available() or os.environ.get("BOARDPROOF_NO_NATIVE") == "1"


def compact(n: int, bitboard: int) -> int:
    """Model bitboard (guard bits) -> native points r*n+f."""
    out = 0
    for r in range(n):
        for f in range(n):
            if bitboard >> (r * (n + GUARD) + f) & 1:
                out |= 1 << (r * n + f)
    return out


def random_playout(rng: random.Random, n: int, game=GAME):
    pos = game.start(size=n, pie=False)
    for _ in range(rng.randrange(n * n + 1)):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(rng.choice(moves))
    return pos


@needs_native
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_legal_placements_and_winning_points_match_the_model(n: int, win: str) -> None:
    game = models.get("minefield", win=win)
    search = native.search_for(n, win == "orthodiagonal")
    rng = random.Random(n)
    t = tables(n)
    for _ in range(40):
        pos = random_playout(rng, n, game)
        search._install()
        me, op, black = search.boards(pos)
        own = pos.black if pos.to_move == 0 else pos.white
        opp = pos.white if pos.to_move == 0 else pos.black
        assert native._native.legal(me, op) == compact(n, t.placements(own, opp)), pos.fen()
        expected = 0
        empty = t.full & ~(own | opp)
        for bit in range(n * t.width):
            if empty >> bit & 1 and t.connected(own | 1 << bit, pos.to_move, win != "orthogonal"):
                expected |= 1 << bit
        free = compact(n, empty)
        assert native._native.winning(me, black) & free == compact(n, expected), pos.fen()


@needs_native
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_the_neighbour_filter_of_the_roles_changes_no_legality(n: int) -> None:
    """forbidden_at() tests only the roles that p's orthogonal neighbours allow
    (ROLE_BY_CODE): on random boards of every density, glyphs or not, the legal
    placements are those of the test of every role, and the model's."""
    search = native.search_for(n, False)
    search._install()
    t = tables(n)
    rng = random.Random(1000 + n)
    try:
        for _ in range(300):
            density = rng.uniform(0.1, 0.95)
            own = opp = 0
            for r in range(n):
                for f in range(n):
                    if rng.random() < density:
                        if rng.random() < 0.5:
                            own |= 1 << (r * (n + GUARD) + f)
                        else:
                            opp |= 1 << (r * (n + GUARD) + f)
            me, op = compact(n, own), compact(n, opp)
            native._native.roles_filter(False)
            every_role = native._native.legal(me, op)
            native._native.roles_filter(True)
            assert native._native.legal(me, op) == every_role == compact(
                n, t.placements(own, opp)), (n, me, op)
    finally:
        native._native.roles_filter(True)


@needs_native
def test_canonical_keys_are_equal_for_symmetric_positions() -> None:
    rng = random.Random(5)
    search = native.search_for(5)
    search._install()
    for _ in range(100):
        pos = random_playout(rng, 5)
        keys = set()
        for s in range(8):
            me, op, black = search.boards(pos.transform(s))
            keys.add(native._native.canonical(me, op, black)[:3])
        assert len(keys) == 1, pos.fen()


@pytest.fixture(scope="module")
def solved3() -> object:
    return solve_graph(GAME.parse_position("3/3/3 b -"))


@needs_native
@pytest.mark.parametrize("distance", [True, False])
def test_every_3x3_position_agrees_with_the_enumeration(solved3, distance: bool) -> None:
    native.reset()
    checked = 0
    for i, pos in enumerate(solved3.graph.positions):
        if pos.outcome() is not None:
            continue
        value, plies, _ = solved3.value(i)
        found = native.solve(pos, distance=distance)
        assert found.value == value, pos.fen()
        if distance:
            assert found.plies == plies, pos.fen()
        checked += 1
    assert checked == 2980


@needs_native
def test_orthodiagonal_3x3_agrees_with_the_enumeration() -> None:
    game = models.get("minefield", win="orthodiagonal")
    solved = solve_graph(game.parse_position("3/3/3 b -"))
    for i, pos in enumerate(solved.graph.positions):
        if pos.outcome() is None:
            value, plies, _ = solved.value(i)
            found = native.solve(pos, distance=True)
            assert (found.value, found.plies) == (value, plies), pos.fen()


@needs_native
def test_random_4x4_positions_agree_with_enumeration_and_alphabeta() -> None:
    rng = random.Random(7)
    positions = []
    while len(positions) < 8:
        pos = random_playout(rng, 4)
        if pos.outcome() is None and 5 <= bin(pos.black | pos.white).count("1") <= 9:
            positions.append(pos)
    for pos in positions:
        exact = solve(pos, method="enumerate")
        found = native.solve(pos, distance=True)
        assert (found.value, found.plies) == (exact.value, exact.plies), pos.fen()
        assert native.solve(pos).value == exact.value, pos.fen()


@needs_native
def test_pie_positions_agree_with_alphabeta() -> None:
    for text in ("2/2 b p", "3/3/3 b p", "3/1b1/3 w p", "3/3/b2 w p"):
        pos = GAME.parse_position(text)
        ab = solve(pos, method="alphabeta")
        nat = solve(pos, method="native")
        assert (nat.value, nat.plies, nat.winner) == (ab.value, ab.plies, ab.winner), text


@needs_native
def test_the_principal_line_is_legal_and_ends_as_announced() -> None:
    pos = GAME.parse_position("4/4/4/4 b -")
    result = solve(pos, method="native")
    assert (result.value, result.plies, str(result.best_move)) == ("win", 13, "a2")
    end = pos
    for move in result.pv:
        end = end.play(move)
    outcome = end.outcome()
    assert len(result.pv) == 13 and outcome is not None and outcome.winners == {0}


@needs_native
def test_a_spent_budget_answers_unknown_and_leaves_the_table_sound() -> None:
    native.reset()
    pos = GAME.parse_position("4/4/4/4 b -")
    assert native.solve(pos, node_limit=3000).value == "unknown"
    assert native.solve(pos, distance=True, node_limit=3000).value == "unknown"
    found = native.solve(pos, distance=True)
    assert (found.value, found.plies) == ("win", 13)


@needs_native
def test_bad_requests_are_clear_errors() -> None:
    from boardproof.models.base import InvalidOptionError

    with pytest.raises(InvalidOptionError, match="size"):
        native.NativeSearch(9, wide=False)
    with pytest.raises(InvalidOptionError, match="size"):
        native.NativeSearch(27)
    with pytest.raises(InvalidOptionError, match="game is over"):
        native.solve(GAME.parse_position("b1/b1 w -"))
    with pytest.raises(InvalidOptionError, match="horizon"):
        native.solve(GAME.parse_position("3/3/3 b -"), horizon=254)
    with pytest.raises(InvalidOptionError, match="native"):
        solve(models.get("collexion").start(), method="native")  # Carpniches, Candy too


def _midgame(n: int, stones: int, count: int, seed: int) -> list:
    return unfinished_positions(lambda: GAME.start(size=n, pie=False), count,
                                random.Random(seed),
                                until=lambda p: bin(p.black | p.white).count("1") >= stones)


@needs_native
@pytest.mark.parametrize("n, stones, count", [(5, 8, 6), (6, 18, 3)])
def test_5x5_and_6x6_middlegames_agree_with_python_alphabeta(
    n: int, stones: int, count: int
) -> None:
    """The boards the opening table needs, checked where the Python search still finishes."""
    for pos in _midgame(n, stones, count, seed=n):
        ab = solve(pos, method="alphabeta")
        found = native.solve(pos, distance=True)
        assert (found.value, found.plies) == (ab.value, ab.plies), pos.fen()
        assert native.solve(pos).value == ab.value, pos.fen()


@needs_native
@pytest.mark.long
def test_more_5x5_middlegames_agree_with_python_alphabeta() -> None:
    for pos in _midgame(5, 6, 12, seed=11):
        ab = solve(pos, method="alphabeta")
        found = native.solve(pos, distance=True)
        assert (found.value, found.plies) == (ab.value, ab.plies), pos.fen()


@needs_native
def test_proofs_built_with_the_native_oracle_pass_the_rules_only_checker() -> None:
    from boardproof.solvers.proof import build_proof, check_proof

    for text in ("4/4/4/4 b -", "4/1b2/4/4 w -", "3/3/3 b p"):
        pos = GAME.parse_position(text)
        winner = solve(pos).winner
        assert winner is not None
        proof = build_proof(pos, winner=winner, oracle=native.win_oracle(winner))
        report = check_proof(proof, load_game=lambda name, options: models.get(name, **options))
        assert report.nodes == len(proof["nodes"]) and report.winner == GAME.symbol(winner)


@needs_native
def test_native_dfpn_agrees_with_the_enumeration_on_every_3x3_position(solved3) -> None:
    """The second native method (proof numbers, not alpha-beta) on every position."""
    search = native.search_for(3)
    for i, pos in enumerate(solved3.graph.positions):
        if pos.outcome() is None:
            _, _, winner = solved3.value(i)
            for attacker in (0, 1):
                proved, _ = search.proves(pos, attacker)
                assert proved == (winner == attacker), (pos.fen(), attacker)


@needs_native
def test_native_dfpn_agrees_with_alphabeta_on_4x4_and_5x5() -> None:
    positions = [GAME.parse_position("4/4/4/4 b -")] + _midgame(4, 4, 4, seed=3)
    positions += _midgame(5, 9, 4, seed=4)
    for pos in positions:
        value = native.solve(pos).value
        search = native.search_for(pos.n)
        assert search.proves(pos, pos.to_move)[0] == (value == "win"), pos.fen()
        assert search.proves(pos, 1 - pos.to_move)[0] == (value == "loss"), pos.fen()


@needs_native
def test_native_dfpn_budget_answers_none() -> None:
    search = native.search_for(4)
    assert search.proves(GAME.parse_position("4/4/4/4 b -"), 0, node_limit=500)[0] is None
