"""Minefield graph checks with networkx, independent of the bitboard code (off the hot path).

Rules-level analysis (paths, glyph audit), so it lives with the model; it is imported
lazily, keeping networkx out of the solvers' hot path.

The grid graph of a Minefield position has one node per point ``(file, rank)``
(0-based) with a ``stone`` attribute (``"b"``, ``"w"`` or None), and edges
between orthogonal neighbours. The checks that read it:

- :func:`winning_path` / :func:`won_path`: a shortest path of one colour's
  stones joining its two edges (orthogonal steps, or 8-neighbour steps under
  the ortho-diagonal win rule), as a list of points — shown by
  ``boardproof show`` and usable as a path certificate;
- :func:`disjoint_winning_paths`: node connectivity between a colour's edges
  (more than 1 in a won position means it cannot have been reached);
- :func:`glyph_audit`: every glyph or 2x2 crosscut on the board, found by
  walking the windows of the grid graph.

``MinefieldPosition.status()`` uses winning_path, disjoint_winning_paths and glyph_audit.

>>> from boardproof.models.minefield import make_game
>>> pos = make_game().parse_position("1b1/1b1/1bw w")
>>> winning_path(pos, 0)
[(1, 0), (1, 1), (1, 2)]
>>> winning_path(pos, 1) is None
True
>>> glyph_audit(make_game().parse_position("3/bw1/wb1 b"))
['a 2x2 crosscut at a1-b2']
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import networkx as nx

SYMBOLS = ("b", "w")
FILES = "abcdefghijklmnopqrstuvwxyz"

Point = tuple[int, int]


def _point_name(point: Point) -> str:
    return f"{FILES[point[0]]}{point[1] + 1}"


def grid_graph(position: Any) -> nx.Graph:
    """The n x n grid graph with each node's ``stone`` attribute."""
    n = position.n
    graph = nx.grid_2d_graph(n, n)
    for f, r in graph.nodes:
        stone = position.stone_at(f, r)
        graph.nodes[f, r]["stone"] = None if stone is None else SYMBOLS[stone]
    return graph


def stone_graph(
    position: Any, colour: int, diagonal: bool | None = None, grid: nx.Graph | None = None
) -> nx.Graph:
    """The graph of ``colour``'s stones: orthogonal edges, plus diagonal ones if asked.

    ``diagonal`` defaults to the position's win rule; ``grid`` reuses a grid graph.
    """
    if diagonal is None:
        diagonal = bool(position.game.diagonal)
    if grid is None:
        grid = grid_graph(position)
    symbol = SYMBOLS[colour]
    stones = [p for p, data in grid.nodes(data=True) if data["stone"] == symbol]
    graph = nx.Graph(grid.subgraph(stones))
    if diagonal:
        own = set(stones)
        for f, r in stones:
            for step in ((1, 1), (1, -1)):
                other = (f + step[0], r + step[1])
                if other in own:
                    graph.add_edge((f, r), other)
    return graph


def edge_graph(
    position: Any, colour: int, diagonal: bool | None = None, grid: nx.Graph | None = None
) -> tuple[nx.Graph, Point, Point]:
    """The stone graph of ``colour`` plus two virtual nodes, one per edge of that colour.

    Black's edges are rank 1 and rank n; White's are file a and the last file.
    Returns (graph, first-edge node, second-edge node).
    """
    n = position.n
    graph = stone_graph(position, colour, diagonal, grid)
    source, sink = (-1, -1), (n, n)
    stones = list(graph.nodes)
    graph.add_nodes_from((source, sink))
    for f, r in stones:
        along = r if colour == 0 else f
        if along == 0:
            graph.add_edge(source, (f, r))
        if along == n - 1:
            graph.add_edge((f, r), sink)
    return graph, source, sink


def winning_path(
    position: Any, colour: int, diagonal: bool | None = None, grid: nx.Graph | None = None
) -> list[Point] | None:
    """A shortest chain of ``colour``'s stones joining its two edges, or None.

    Black joins rank 1 to rank n; White joins file a to the last file.
    """
    graph, source, sink = edge_graph(position, colour, diagonal, grid)
    try:
        path = nx.shortest_path(graph, source, sink)
    except nx.NetworkXNoPath:
        return None
    return [p for p in path[1:-1]]


def won_path(position: Any) -> tuple[int, list[Point]] | None:
    """(winner, winning path) of a won position, or None if nobody has won.

    >>> from boardproof.models.minefield import make_game
    >>> won_path(make_game().parse_position("1b1/1b1/1bw w"))
    (0, [(1, 0), (1, 1), (1, 2)])
    """
    winner = position.winner()
    if winner is None:
        return None
    path = winning_path(position, winner)
    if path is None:  # pragma: no cover - the bitboard and networkx checks disagree
        raise AssertionError(f"no networkx path for the winner of {position.fen()}")
    return winner, path


def disjoint_winning_paths(
    position: Any, colour: int, diagonal: bool | None = None, grid: nx.Graph | None = None
) -> int:
    """How many winning paths of ``colour`` exist that share no stone (node connectivity).

    In a position reached by play this is at most 1: every winning path goes
    through the stone that completed the first one, which ended the game.

    >>> from boardproof.models.minefield import make_game
    >>> disjoint_winning_paths(make_game().parse_position("b1b/b1b/b1b w"), 0)
    2
    """
    graph, source, sink = edge_graph(position, colour, diagonal, grid)
    if not nx.has_path(graph, source, sink):
        return 0
    return int(nx.node_connectivity(graph, source, sink))


Window = tuple[str, tuple[Point, ...], tuple[Point, ...]]


@lru_cache(maxsize=32)
def _windows(n: int) -> tuple[Window, ...]:
    """Every window of the glyph shapes: (kind, its 4 corners, its inner points).

    Corners are listed as two diagonals: ``(c0, c1, c2, c3)`` where (c0, c1) and
    (c2, c3) are diagonally opposite.
    """
    found = []
    for f, r in sorted(nx.grid_2d_graph(n, n).nodes):
        for width, height in ((2, 2), (3, 2), (2, 3), (4, 2), (2, 4)):
            if f + width > n or r + height > n:
                continue
            right, top = f + width - 1, r + height - 1
            corners = ((f, r), (right, top), (right, r), (f, top))
            inner = tuple(
                (x, y)
                for x in range(f, right + 1)
                for y in range(r, top + 1)
                if (x, y) not in corners
            )
            kind = "2x2" if width == height else f"2x{max(width, height)}"
            found.append((kind, corners, inner))
    return tuple(found)


def glyph_audit(position: Any, grid: nx.Graph | None = None) -> list[str]:
    """Every hard corner, 2x3 / 2x4 switch and 2x2 crosscut on the board, as text."""
    if grid is None:
        grid = grid_graph(position)
    stone = nx.get_node_attributes(grid, "stone")
    problems = []
    for kind, corners, inner in _windows(position.n):
        c = [stone[p] for p in corners]
        if c.count(None) > (1 if kind == "2x2" else 0):
            continue
        where = f"{_point_name(corners[0])}-{_point_name(corners[1])}"
        diagonal_a = c[0] is not None and c[0] == c[1]
        diagonal_b = c[2] is not None and c[2] == c[3]
        if kind == "2x2":
            if diagonal_a and diagonal_b and c[0] != c[2]:
                problems.append(f"a 2x2 crosscut at {where}")
                continue
            for full, other in ((c[:2], c[2:]), (c[2:], c[:2])):
                first = full[0]
                if first is not None and full[1] == first and set(other) == {None, _other(first)}:
                    problems.append(f"a hard corner at {where}")
                    break
        elif (
            diagonal_a
            and diagonal_b
            and c[0] != c[2]
            and all(stone[p] is None for p in inner)
        ):
            problems.append(f"a {kind} switch at {where}")
    return problems


def _other(symbol: str | None) -> str | None:
    return {"b": "w", "w": "b"}.get(symbol or "")
