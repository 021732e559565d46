"""Exhaustive retrograde analysis of the reachable state graph (small state spaces).

:func:`build_graph` enumerates every position reachable from a root (breadth
first, through the protocol only); :func:`retrograde` labels every node, for a
given player P, with "P can force a win" and the distance of the fastest such
win (the losers' longest defence), working backwards from the terminal
positions. The fixpoint handles cycles exactly: a position from which P cannot
force the game to end in a P win within a finite number of plies is *not* a win,
so positions that only reach the end through cycles stay draws.

For two players, a node is won by the side to move, lost (the opponent wins)
or drawn; with more players, "loss" means another player can force a win
against everybody else.

>>> from boardproof.testing.games import subtraction
>>> graph = build_graph(subtraction(6, 3))
>>> len(graph.positions), retrograde(graph, 0).dist[0]
(12, 3)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from boardproof.models.base import Position
from boardproof.solvers.common import Budget, SearchTimeout, num_players, wins

#: the distance of a node P cannot win
NO_WIN = -1


class TooManyStates(Exception):  # noqa: N818 - a control-flow signal
    """The reachable state space is larger than the enumeration limit."""


@dataclass
class StateGraph:
    """The reachable positions, their moves and edges (by index)."""

    positions: list[Position] = field(default_factory=list)
    index: dict[Hashable, int] = field(default_factory=dict)
    moves: list[tuple[Any, ...]] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    players: int = 2

    def node(self, position: Position) -> int:
        return self.index[position.key()]


def build_graph(
    root: Position, max_states: int = 500_000, budget: Budget | None = None
) -> StateGraph:
    """Every position reachable from ``root``; raises TooManyStates past ``max_states``."""
    graph = StateGraph(players=num_players(root))
    graph.index[root.key()] = 0
    graph.positions.append(root)
    queue = deque([0])
    while queue:
        i = queue.popleft()
        if budget is not None and not i & 1023:
            budget.check(len(graph.positions))
        pos = graph.positions[i]
        if pos.outcome() is not None:
            graph.moves.append(())
            graph.children.append([])
            continue
        moves = tuple(pos.legal_moves())
        kids = []
        for move in moves:
            child = pos.play(move)
            key = child.key()
            j = graph.index.get(key)
            if j is None:
                j = len(graph.positions)
                if j >= max_states:
                    raise TooManyStates
                graph.index[key] = j
                graph.positions.append(child)
                queue.append(j)
            kids.append(j)
        graph.moves.append(moves)
        graph.children.append(kids)
    return graph


@dataclass
class Labels:
    """For one player P: ``dist[i]`` is the plies of P's fastest forced win, or NO_WIN."""

    player: int
    dist: list[int]

    def wins(self, i: int) -> bool:
        return self.dist[i] != NO_WIN


def retrograde(graph: StateGraph, player: int) -> Labels:
    """Label every node with P's forced win (fastest win, longest defence)."""
    n = len(graph.positions)
    players = graph.players
    parents: list[list[int]] = [[] for _ in range(n)]
    for i, kids in enumerate(graph.children):
        for j in kids:
            parents[j].append(i)
    dist = [NO_WIN] * n
    remaining = [len(kids) for kids in graph.children]
    queue: deque[int] = deque()
    for i, pos in enumerate(graph.positions):
        outcome = pos.outcome()
        if outcome is not None and wins(outcome, player, players):
            dist[i] = 0
            queue.append(i)
    while queue:
        j = queue.popleft()
        d = dist[j] + 1
        for i in parents[j]:
            if dist[i] != NO_WIN:
                continue
            if graph.positions[i].to_move == player:
                dist[i] = d
                queue.append(i)
            else:
                remaining[i] -= 1
                if remaining[i] == 0:
                    dist[i] = d
                    queue.append(i)
    return Labels(player, dist)


@dataclass
class Solved:
    """The value of every node for its side to move."""

    graph: StateGraph
    labels: dict[int, Labels]

    def value(self, i: int) -> tuple[str, int | None, int | None]:
        """(``win``/``loss``/``draw``, plies, winner) for node ``i``'s side to move."""
        mover = self.graph.positions[i].to_move
        own = self.labels[mover]
        if own.wins(i):
            return "win", own.dist[i], mover
        for player, labels in sorted(self.labels.items()):
            if player != mover and labels.wins(i):
                return "loss", labels.dist[i], player
        return "draw", None, None

    def best_move(self, i: int) -> Any:
        """A move that keeps the value: fastest win, longest defence, else a drawing move."""
        kids = self.graph.children[i]
        if not kids:
            return None
        label, plies, winner = self.value(i)
        moves = self.graph.moves[i]
        if label == "draw":
            mover = self.graph.positions[i].to_move
            for move, j in zip(moves, kids, strict=True):
                if not any(lab.wins(j) for p, lab in self.labels.items() if p != mover):
                    return move
            return moves[0]
        assert winner is not None and plies is not None
        dist = self.labels[winner].dist
        if label == "win":
            for move, j in zip(moves, kids, strict=True):
                if dist[j] == plies - 1:
                    return move
        best = max(range(len(kids)), key=lambda k: dist[kids[k]])
        return moves[best]

    def pv(self, i: int, limit: int = 200) -> list[Any]:
        line: list[Any] = []
        seen = {i}
        while len(line) < limit:
            move = self.best_move(i)
            if move is None:
                break
            line.append(move)
            i = self.graph.children[i][self.graph.moves[i].index(move)]
            if i in seen:
                break
            seen.add(i)
        return line


def solve_graph(root: Position, max_states: int = 500_000, budget: Budget | None = None) -> Solved:
    """Enumerate and label the whole reachable graph for every player."""
    graph = build_graph(root, max_states, budget)
    return Solved(graph, {p: retrograde(graph, p) for p in range(graph.players)})


__all__ = [
    "NO_WIN",
    "Labels",
    "SearchTimeout",
    "Solved",
    "StateGraph",
    "TooManyStates",
    "build_graph",
    "retrograde",
    "solve_graph",
]
