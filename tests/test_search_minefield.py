"""Alpha-beta, df-pn and enumeration agree on Minefield (3x3 every position, 4x4 samples)."""

from __future__ import annotations

import random

import pytest

from boardproof import models
from boardproof.solvers.api import solve
from boardproof.solvers.enumerate import solve_graph
from boardproof.solvers.search import AlphaBeta


@pytest.fixture(scope="module")
def solved3() -> object:
    return solve_graph(models.get("minefield").parse_position("3/3/3 b -"))


def _check_positions(solved, step: int) -> int:
    checked = 0
    positions = solved.graph.positions
    for i in range(0, len(positions), step):
        pos = positions[i]
        if pos.outcome() is not None:
            continue
        value, plies, winner = solved.value(i)
        ab = solve(pos, method="alphabeta")
        assert (ab.value, ab.plies, ab.winner) == (value, plies, winner), pos.fen()
        pn = solve(pos, method="pns")
        assert (pn.value, pn.winner) == (value, winner), pos.fen()
        checked += 1
    return checked


def test_3x3_sampled_positions_agree(solved3) -> None:
    assert _check_positions(solved3, 4) > 700


@pytest.mark.long
def test_3x3_every_reachable_position_agrees(solved3) -> None:
    assert _check_positions(solved3, 1) == 2980  # every non-terminal position


def test_3x3_with_pie_and_symmetry_folding() -> None:
    game = models.get("minefield")
    for text in ("3/3/3 b p", "3/3/3 b -", "3/1b1/3 w -", "3/3/b2 w p"):
        pos = game.parse_position(text)
        folded = AlphaBeta(pos, symmetry=True).iterate()
        plain = AlphaBeta(pos, symmetry=False).iterate()
        exact = solve(pos, method="enumerate")
        assert (
            (folded.value, folded.plies)
            == (plain.value, plain.plies)
            == (
                exact.value,
                exact.plies,
            )
        ), text


def _random_positions(n: int, count: int, plies: tuple[int, int], seed: int) -> list:
    game = models.get("minefield")
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = game.start(size=n, pie=False)
        for _ in range(rng.randint(*plies)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))
        if pos.outcome() is None:
            out.append(pos)
    return out


def test_4x4_random_positions_agree() -> None:
    for pos in _random_positions(4, 8, (6, 9), seed=1):
        exact = solve(pos, method="enumerate")
        ab = solve(pos, method="alphabeta")
        pn = solve(pos, method="pns")
        assert (ab.value, ab.plies, ab.winner) == (exact.value, exact.plies, exact.winner)
        assert (pn.value, pn.winner) == (exact.value, exact.winner), pos.fen()


@pytest.mark.long
def test_4x4_more_random_positions_agree() -> None:
    for pos in _random_positions(4, 30, (5, 9), seed=2):
        exact = solve(pos, method="enumerate")
        ab = solve(pos, method="alphabeta")
        pn = solve(pos, method="pns")
        assert (ab.value, ab.plies, ab.winner) == (exact.value, exact.plies, exact.winner)
        assert (pn.value, pn.winner) == (exact.value, exact.winner), pos.fen()


def test_winner_hook_agrees_with_outcome() -> None:
    """Alpha-beta's win-first check uses ``winner()`` when a game has it."""
    for pos in _random_positions(5, 40, (6, 20), seed=3):
        for move in pos.legal_moves():
            child = pos.play(move)
            outcome = child.outcome()
            quick = child.winner()
            if quick is not None:
                assert outcome is not None and quick in outcome.winners
            elif outcome is not None:
                assert outcome.is_draw
