"""The best turn by a bounded search: for score games too big to solve exactly.

This is **not a proof**. :func:`best_turn` runs iterative-deepening alpha-beta
over whole plies, to at most ``max_plies`` plies and within a time / node
budget, from the point of view of the player to move ("paranoid": the players
that are not on the root player's side minimise its value). A position is worth

- at the end of the game: ``scores[me] - max(scores[q] for q in opponents)``
  from ``Outcome.scores`` (a game without scores: +-1000 for a win/loss, 0 for a
  draw);
- at the horizon: the same difference over ``position.heuristic_scores()`` if the
  game offers that hook (ColleXion: the score as if the game ended now), else 0.

Opponents come from the duck-typed ``position.opponents(player)`` hook (teams),
else every other player. Children come from ``position.successors()`` when the
game offers it (a list of ``(move, position)``), else ``legal_moves`` + ``play``.
Root moves are re-ordered by the previous iteration's values; when the budget
runs out inside an iteration, the moves fully searched in it still count. If an
iteration meets no horizon at all, its value is exact and ``proved`` is set.

>>> from boardproof import models
>>> game = models.get("collexion")
>>> pos = game.parse_position("base 1:g8,2:y3 g3.g4.g5:-:-/-:-:- 234/234/234/234 1")
>>> result = best_turn(pos, max_plies=3)
>>> str(result.best_move), result.score, result.proved
('1/g', 3, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from boardproof.models.base import (
    HEURISTIC_SCORES,
    OPPONENTS,
    SUCCESSORS,
    HeuristicScores,
    Position,
    Successors,
    Teams,
    offers,
)
from boardproof.solvers.common import Budget, SearchTimeout, Stop, num_players, terminal_sign

INF = 10**9
#: the value of a win in a game without scores
WIN_VALUE = 1000


@dataclass
class BestTurn:
    """What the bounded search found: the best move, its value and how deep."""

    best_move: Any
    score: int
    pv: list[Any]
    depth: int
    nodes: int
    proved: bool
    timed_out: bool
    note: str = ""
    root_values: list[tuple[str, int]] = field(default_factory=list)
    #: why it stopped without an exact value (:class:`~boardproof.solvers.common.Stop`)
    stopped: str | None = None


class _Search:
    def __init__(self, root: Position, budget: Budget) -> None:
        self.root = root
        self.me = root.to_move
        self.players = num_players(root)
        others = [q for q in range(self.players) if q != self.me]
        game = root.game
        teams = offers(game, OPPONENTS)
        self.opponents = list(cast(Teams, root).opponents(self.me)) if teams else others
        self.heuristic = offers(game, HEURISTIC_SCORES)
        self.successors = offers(game, SUCCESSORS)
        self.budget = budget
        self.nodes = 0
        self.horizon = 0

    def diff(self, scores: tuple[int, ...]) -> int:
        return int(scores[self.me]) - max(int(scores[q]) for q in self.opponents)

    def leaf(self, pos: Position) -> int:
        if not self.heuristic:
            return 0
        return self.diff(tuple(cast(HeuristicScores, pos).heuristic_scores()))

    def children(self, pos: Position) -> list[tuple[Any, Position]]:
        if self.successors:
            return list(cast(Successors, pos).successors())
        return [(m, pos.play(m)) for m in pos.legal_moves()]

    def value(self, pos: Position, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 255:
            self.budget.check(self.nodes)
        outcome = pos.outcome()
        if outcome is not None:
            if outcome.scores is not None:
                return self.diff(outcome.scores)
            return WIN_VALUE * terminal_sign(outcome, self.me, self.players)
        if depth <= 0:
            self.horizon += 1
            return self.leaf(pos)
        maximise = pos.to_move not in self.opponents
        best = -INF if maximise else INF
        for _, child in self.children(pos):
            value = self.value(child, depth - 1, alpha, beta)
            if maximise:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best


def best_turn(
    root: Position,
    *,
    max_plies: int = 2,
    timeout: float | None = 10.0,
    node_limit: int | None = None,
) -> BestTurn:
    """The best turn for the side to move found within ``max_plies`` plies (not a proof)."""
    search = _Search(root, Budget(timeout, node_limit))
    if root.outcome() is not None:
        return BestTurn(None, search.value(root, 0, -INF, INF), [], 0, 1, True, False, "game over")
    order = search.children(root)
    best_move: Any = None
    best_value = 0
    depth_done = 0
    proved = False
    timed_out = False
    values: list[tuple[Any, int]] = []
    for depth in range(1, max_plies + 1):
        horizon0 = search.horizon
        scored: list[tuple[Any, Position, int]] = []
        alpha = -INF
        try:
            for move, child in order:
                value = search.value(child, depth - 1, alpha, INF)
                scored.append((move, child, value))
                alpha = max(alpha, value)
        except SearchTimeout:
            timed_out = True
        if scored:
            # a partial iteration still counts: its first move is the previous best one
            top = max(scored, key=lambda s: s[2])
            best_move, best_value, depth_done = top[0], top[2], depth
            values = [(m, v) for m, _, v in scored]
        if timed_out:
            break
        if search.horizon == horizon0:
            proved = True
            break
        rank = {id(m): i for i, (m, _, _) in enumerate(sorted(scored, key=lambda s: -s[2]))}
        order = sorted(order, key=lambda mc: rank.get(id(mc[0]), len(rank)))
    exact = f"exact: the whole game tree fits in {depth_done} plies"
    if search.players > 2:
        exact += " (the value against the coalition of the opponents)"
    note = (
        exact
        if proved
        else f"best turn by a bounded search of {depth_done} plies "
        "(heuristic at the horizon); not a proof"
    )
    if timed_out:
        note += " (stopped by the time or node budget)"
    pv = [best_move] if best_move is not None else []
    return BestTurn(
        best_move,
        best_value,
        pv,
        depth_done,
        search.nodes,
        proved,
        timed_out,
        note,
        [(str(m), v) for m, v in values],
        stopped=None if proved else (
            search.budget.stop_reason(search.nodes) if timed_out else Stop.PLIES),
    )  # fmt: skip
