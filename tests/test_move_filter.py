"""The searches' move-filter hook (``moves=``, boardproof.solvers.search.MoveFilter) on a
game that knows nothing of it: a sound filter keeps every value and distance with fewer
nodes, and an unsound one is followed (so the hook is really used)."""

from __future__ import annotations

from typing import Any

from boardproof.solvers.pns import DFPN
from boardproof.solvers.search import AlphaBeta
from boardproof.testing.games import subtraction

K = 3


def winning_only(pos: Any) -> tuple[int, ...]:
    """Subtraction game: the one winning move (leave a multiple of K + 1), else every move."""
    moves = pos.legal_moves()
    take = pos.pile % (K + 1)
    return (take,) if take else moves


def first_only(pos: Any) -> tuple[int, ...]:
    """An unsound filter: take 1 whatever the pile."""
    return pos.legal_moves()[:1]


def test_a_sound_filter_keeps_values_and_distances_with_fewer_nodes() -> None:
    plain_nodes = pruned_nodes = 0
    for pile in range(1, 30):
        pos = subtraction(pile, K)
        plain = AlphaBeta(pos, symmetry=False).iterate()
        pruned = AlphaBeta(pos, symmetry=False, moves=winning_only).iterate()
        assert (pruned.value, pruned.plies) == (plain.value, plain.plies), pile
        assert DFPN(pos, moves=winning_only).solve().proved == (plain.value == "win")
        plain_nodes += plain.nodes
        pruned_nodes += pruned.nodes
    assert pruned_nodes < plain_nodes


def test_an_unsound_filter_is_followed() -> None:
    pos = subtraction(2, K)  # a win: take 2
    assert AlphaBeta(pos).iterate().value == "win"
    assert AlphaBeta(pos, moves=first_only).iterate().value == "loss"
    assert DFPN(pos, moves=first_only).solve().proved is False
