"""ColleXion endgames: exact score differences cross-checked, and the bounded best turn."""

from __future__ import annotations

import functools

import naive_collexion as naive
import pytest

from boardproof.models.collexion import make_game
from boardproof.models.collexion.endgames import endgame
from boardproof.solvers.bestturn import best_turn
from boardproof.solvers.search import ScoreSearch


@functools.cache
def naive_value(text: str) -> int:
    """Plain minimax over the naive reference: final score difference for the mover."""
    children = naive.turns(text)
    if not children:
        scores = naive.score(text)
        mover = int(text.split()[-1][0]) - 1
        return scores[mover] - scores[1 - mover]
    return max(-naive_value(child) for _, child in children)


@pytest.mark.parametrize("box_size", [4, 5, 6, 7])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_exact_endgame_matches_naive_minimax(seed: int, box_size: int) -> None:
    pos = endgame(seed, box_size)
    assert pos.status() == [] and len(pos.box) == box_size
    result = ScoreSearch(pos).solve()
    assert result.proved
    assert result.score == naive_value(pos.fen())
    # the principal variation is legal and reaches the end with that difference
    end = pos
    for move in result.pv:
        end = end.play(move)
    outcome = end.outcome()
    assert outcome is not None and outcome.scores is not None
    sign = 1 if end.to_move == pos.to_move else -1
    assert sign * (outcome.scores[end.to_move] - outcome.scores[1 - end.to_move]) == result.score


def test_fresh_small_heap_matches_naive_minimax() -> None:
    pos = make_game().start(seed=4, count=6)
    assert ScoreSearch(pos).solve().score == naive_value(pos.fen())


@pytest.mark.parametrize("seed", [1, 2])
def test_best_turn_is_exact_when_the_tree_fits(seed: int) -> None:
    pos = endgame(seed, 6)
    bounded = best_turn(pos, max_plies=30, timeout=None)
    assert bounded.proved and "exact" in bounded.note
    assert bounded.score == ScoreSearch(pos).solve().score
    assert bounded.best_move in pos.legal_moves()


def test_best_turn_on_the_opening_is_not_a_proof() -> None:
    pos = make_game().start(seed=0)
    result = best_turn(pos, max_plies=2, timeout=None, node_limit=3000)
    assert not result.proved and "not a proof" in result.note
    assert result.best_move in pos.legal_moves()
    # one ply finds four accessible polygons that make a set: +2 at once
    assert result.depth >= 1 and result.score == 2 and result.best_move.sets
