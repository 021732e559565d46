"""Alpha-beta with the Carpniches CP-SAT bound as a pruning hook (for measurements).

:class:`PrunedAlphaBeta` is the game-agnostic :class:`~boardproof.solvers.search.AlphaBeta`
with one extra step at a node with ``depth`` plies left (``depth`` in ``prune_depths``).
Scores are for the side to move: > 0 a win, < 0 a loss, 0 no result within the horizon.

- If ``beta <= 0`` and :func:`~boardproof.solvers.cp.carpniches.prune` proves that the
  *opponent* cannot win within ``depth`` plies (not even with help), the true value is
  >= 0 >= beta: the node fails high with the bound 0.
- If ``alpha >= 0`` and it proves that the *side to move* cannot win, the true value is
  <= 0 <= alpha: the node fails low with the bound 0.

Either way the subtree is skipped, the node counts as reaching the horizon (so nothing
built on it is marked complete), and the bound is exactly one the full search could
return. Answers are cached by (position, depth, player).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from boardproof.models.base import Position
from boardproof.solvers.cp.carpniches import prune
from boardproof.solvers.search import AlphaBeta


class PrunedAlphaBeta(AlphaBeta):
    """AlphaBeta whose null-window cuts come from the CP-SAT cooperative win bound."""

    def __init__(
        self, root: Position, *, prune_depths: Iterable[int] = (3, 4), **options: Any
    ) -> None:
        super().__init__(root, **options)
        self.prune_depths = frozenset(prune_depths)
        self.pruned = 0
        self.cp_calls = 0
        self._cache: dict[tuple[Any, int, int], bool] = {}

    def _cannot_win(self, pos: Position, depth: int, player: int) -> bool:
        key = (pos.key(), depth, player)
        cut = self._cache.get(key)
        if cut is None:
            self.cp_calls += 1
            cut = prune(pos, depth, player)  # type: ignore[arg-type]
            self._cache[key] = cut
        return cut

    def search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        if depth in self.prune_depths and (beta <= 0 or alpha >= 0) and pos.outcome() is None:
            mover = pos.to_move
            if (beta <= 0 and self._cannot_win(pos, depth, 1 - mover)) or (
                alpha >= 0 and self._cannot_win(pos, depth, mover)
            ):
                self.nodes += 1
                self.horizon += 1
                self.pruned += 1
                return 0
        return super().search(pos, depth, alpha, beta, ply)
