"""The game-agnostic solvers against an independent reference, on artificial games.

The reference is the textbook attractor computation written here from scratch:
player P's forced-win region grows level by level (P's node: some child already
in it; anybody else's node: every child already in it); the level is the
distance with best play (fastest win, longest defence). Positions that only
escape through cycles stay outside: a cycle is a draw.
"""

from __future__ import annotations

import pytest

from boardproof.models.base import Outcome
from boardproof.solvers.api import solve
from boardproof.solvers.enumerate import solve_graph
from boardproof.solvers.pns import DFPN
from boardproof.solvers.search import AlphaBeta, ScoreSearch, TranspositionTable
from boardproof.testing.games import GraphGame, TicTacToe, graph_game, random_graph, subtraction


def attractor(game: GraphGame, player: int) -> dict[int, int]:
    """node -> plies of P's fastest forced win (only nodes P wins)."""
    spec = game.spec
    k = spec.players
    rank: dict[int, int] = {}
    for i, out in enumerate(spec.outcomes):
        if out is not None and player in out.winners and len(out.winners) < k:
            rank[i] = 0
    level = 0
    while True:
        level += 1
        new = {}
        for i, kids in enumerate(spec.edges):
            if i in rank or not kids:
                continue
            inside = [c in rank for c in kids]
            if (spec.movers[i] == player and any(inside)) or (
                spec.movers[i] != player and all(inside)
            ):
                new[i] = level
        if not new:
            return rank
        rank.update(new)


def reference(game: GraphGame, node: int) -> tuple[str, int | None, int | None]:
    """(value for the mover, plies, winner) by the attractor reference."""
    mover = game.spec.movers[node]
    mine = attractor(game, mover)
    if node in mine:
        return "win", mine[node], mover
    for other in range(game.spec.players):
        if other != mover:
            theirs = attractor(game, other)
            if node in theirs:
                return "loss", theirs[node], other
    return "draw", None, None


def nonterminal(game: GraphGame) -> list[int]:
    return [i for i, out in enumerate(game.spec.outcomes) if out is None]


GRAPH_CASES = [
    (seed, players, cyclic)
    for seed in range(12)
    for players, cyclic in ((2, False), (2, True), (3, True), (4, False))
]


@pytest.mark.parametrize(("seed", "players", "cyclic"), GRAPH_CASES)
def test_methods_agree_with_reference_on_random_graphs(
    seed: int, players: int, cyclic: bool
) -> None:
    game = random_graph(seed, size=24, players=players, cyclic=cyclic)
    solved = solve_graph(game.position(0))
    for node in nonterminal(game):
        pos = game.position(node)
        expected = reference(game, node)
        # enumeration: every node of the reachable graph at once
        if pos.key() in solved.graph.index:
            assert solved.value(solved.graph.node(pos)) == expected, (seed, node)
        # alpha-beta: value, winner and exact distance
        got = solve(pos, method="alphabeta")
        assert (got.value, got.plies, got.winner) == expected, (seed, node, "alphabeta")
        # df-pn: value and winner (no distances)
        got = solve(pos, method="pns")
        assert (got.value, got.winner) == expected[::2], (seed, node, "pns")
        got = solve(pos, method="enumerate")
        assert (got.value, got.plies, got.winner) == expected, (seed, node, "enumerate")


@pytest.mark.parametrize("seed", range(40))
def test_cyclic_two_player_graphs_dense(seed: int) -> None:
    """Dense cycles: graph-history interaction is where a careless table goes wrong."""
    game = random_graph(1000 + seed, size=14, players=2, cyclic=True, draws=False)
    search_ab = None
    for node in nonterminal(game):
        pos = game.position(node)
        expected = reference(game, node)
        # one shared alpha-beta / df-pn object per graph would hide nothing: fresh ones
        search_ab = AlphaBeta(pos)
        found = search_ab.iterate()
        winner = {"win": pos.to_move, "loss": 1 - pos.to_move}.get(found.value)
        assert (found.value, found.plies, winner) == expected, (seed, node)
        proved = DFPN(pos).solve().proved
        assert proved == (expected[0] == "win"), (seed, node)


def test_shared_table_across_roots_stays_exact() -> None:
    """Solving every node with ONE alpha-beta table (transpositions from other paths)."""
    for seed in range(30):
        game = random_graph(2000 + seed, size=16, players=2, cyclic=True)
        shared = AlphaBeta(game.position(0))
        for node in nonterminal(game):
            pos = game.position(node)
            shared.root = pos
            shared.player = pos.to_move
            # the table is relative to the side to move, so it can be shared
            found = shared.iterate()
            expected = reference(game, node)
            winner = {"win": pos.to_move, "loss": 1 - pos.to_move}.get(found.value)
            assert (found.value, found.plies, winner) == expected, (seed, node)


def test_cycle_escape_is_a_draw_not_a_win() -> None:
    """A: P0 moves to B or C; B: P1 can go back to A or lose; C: P1 loses or cycles to A.

    P1 always escapes to A, so the cycle A->B->A is a draw for both.
    """
    win0 = Outcome.win(0)
    game = graph_game(
        2,
        [(0, [1, 2]), (1, [0, 3]), (1, [0, 3]), (0, [])],
        {3: win0},
    )
    for method in ("alphabeta", "pns", "enumerate", "auto"):
        result = solve(game.position(0), method=method)
        assert result.value == "draw", method
        assert solve(game.position(1), method=method).value == "draw", method


def test_win_never_relies_on_a_repetition() -> None:
    """P0's 'win' through returning to the start would be a cycle: only the real exit wins.

    0 (P0) -> 1 | 4;  1 (P1) -> 0 | 2;  2 (P0) -> 3 (P0 wins);  4 (P0) -> 5 (P0 wins after
    three plies via 6). From 1, P1 escapes to 0 (a repetition on the path from 0), so
    0's value must come from the long exit 4.
    """
    game = graph_game(
        2,
        [(0, [1, 4]), (1, [0, 2]), (0, [3]), (0, []), (0, [6]), (0, []), (1, [5])],
        {3: Outcome.win(0), 5: Outcome.win(0)},
    )
    for method in ("alphabeta", "enumerate"):
        result = solve(game.position(0), method=method)
        assert (result.value, result.plies, str(result.best_move)) == ("win", 3, "4"), method
    assert solve(game.position(0), method="pns").best_move == 4


def test_subtraction_game_values() -> None:
    for pile in range(0, 14):
        result = solve(subtraction(pile, 3))
        if pile % 4 == 0:
            assert result.value == "loss" and result.winner == 1
        else:
            assert result.value == "win" and result.winner == 0
            assert str(result.best_move) == str(pile % 4)
        # fastest win / longest defence: one ply per counter group of 4 plus the last take
        assert result.plies == 2 * (pile // 4) + (pile % 4 != 0)


def test_win_in_n_single_winning_move_and_max_plies_below() -> None:
    pos = subtraction(9, 3)  # win in 5 plies, only by taking 1
    assert [m for m in pos.legal_moves() if solve(pos.play(m)).value == "loss"] == [1]
    for method in ("alphabeta", "pns", "enumerate", "auto"):
        assert solve(pos, method=method, max_plies=5).value == "win", method
        below = solve(pos, method=method, max_plies=4)
        assert below.value == "unknown", method
        assert "within 4 plies" in below.note, method
        assert below.winner is None and below.best_move is None


def test_tictactoe_is_a_draw_with_and_without_symmetry() -> None:
    start = TicTacToe().start()
    plain = AlphaBeta(start, symmetry=False).iterate()
    folded = AlphaBeta(start, symmetry=True).iterate()
    assert plain.value == folded.value == "draw"
    assert folded.nodes < plain.nodes
    assert solve(start, method="pns").value == "draw"
    assert solve(start, method="enumerate").value == "draw"


def test_tictactoe_positions_all_methods_agree() -> None:
    solved = solve_graph(TicTacToe().start())
    positions = solved.graph.positions
    for i in range(0, len(positions), 23):  # a deterministic sample of ~240 positions
        pos = positions[i]
        if pos.outcome() is not None:
            continue
        value, plies, winner = solved.value(i)
        ab = solve(pos, method="alphabeta")
        assert (ab.value, ab.winner) == (value, winner), pos.fen()
        if value != "draw":
            assert ab.plies == plies, pos.fen()
        assert solve(pos, method="pns").value == value, pos.fen()


def test_three_player_coalition() -> None:
    """P0 wins only if both others cannot stop it: one of P1's replies escapes."""
    w0, w1 = Outcome.win(0), Outcome.win(1)
    game = graph_game(
        3,
        [
            (0, [1, 2]),  # P0 chooses
            (1, [3, 4]),  # P1 can let P0 win (3) or go to 4 where P2 decides
            (2, [3]),  # P2 must let P0 win
            (0, []),
            (2, [3, 5]),  # P2 can let P1 win
            (0, []),
        ],
        {3: w0, 5: w1},
    )
    result = solve(game.position(0))
    assert (result.value, result.winner, result.plies, str(result.best_move)) == ("win", 0, 2, "2")
    # from 1 nobody can force a win: P1 needs P2's help (4 -> 5), P0 needs P1's (1 -> 3)
    assert solve(game.position(1)).value == "draw"
    for method in ("alphabeta", "pns", "enumerate"):
        assert solve(game.position(0), method=method).value == "win", method


def test_timeout_answers_unknown() -> None:
    from boardproof import models
    from boardproof.models.minefield import native

    native.reset()  # a warm native table could know the answer already
    big = models.get("minefield").start(size=4, pie=False)  # needs ~350,000 nodes
    methods = ("alphabeta", "pns", "auto") + (("native",) if native.available() else ())
    for method in methods:
        result = solve(big, method=method, node_limit=2000)
        assert result.value == "unknown" and result.winner is None, method
        assert result.best_move is None and result.pv == [], method
    assert solve(TicTacToe().start(), method="enumerate", node_limit=50).value == "unknown"


def score_reference(game: GraphGame, node: int) -> int:
    spec = game.spec

    def value(i: int) -> int:
        out = spec.outcomes[i]
        mover = spec.movers[i]
        if out is not None:
            assert out.scores is not None
            return out.scores[mover] - out.scores[1 - mover]
        best = None
        for c in spec.edges[i]:
            v = value(c) if spec.movers[c] == mover else -value(c)
            best = v if best is None else max(best, v)
        assert best is not None
        return best

    return value(node)


@pytest.mark.parametrize("seed", range(20))
def test_score_search_matches_plain_minimax(seed: int) -> None:
    game = random_graph(3000 + seed, size=22, players=2, cyclic=False, scores=True)
    for node in nonterminal(game):
        pos = game.position(node)
        found = ScoreSearch(pos).solve()
        assert found.proved and found.score == score_reference(game, node)
        via_api = solve(pos, objective="score")
        assert via_api.score == found.score
        assert via_api.value == (
            "win" if found.score > 0 else "loss" if found.score < 0 else "draw"
        )


def test_transposition_table_is_bounded() -> None:
    table = TranspositionTable(100)
    for i in range(1000):
        table.put(i, i)
    assert len(table) <= 200
    small = AlphaBeta(TicTacToe().start(), tt_capacity=16)
    assert small.iterate().value == "draw"
    assert len(small.tt) <= 32
