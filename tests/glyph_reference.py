"""A brute-force reference of every Minefield glyph, written from the rules' text (tests only).

docs/games/minefield.md: hard corner, 2x3 and 2x4 switches, and the variants' pinwheel
and cartwheel (a 2x2 empty block and its 8 orthogonal neighbours; for the cartwheel, the
points just beyond the board are stones of the edge's owner: Black beyond the top and
bottom, White beyond the sides, both beyond a corner). Plain loops over windows; it
shares no code with ``boardproof``. Boards are tuples of n * n cells (a1 first, rank by
rank): 0 empty, 1 Black, 2 White.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

E, B, W = 0, 1, 2


def colours(board: tuple[int, ...], n: int, f: int, r: int, beyond: bool) -> set[int]:
    """The states a point can count as: its own, or (beyond the board, for the
    cartwheel only) its edges' owners; an empty set when it is off the board."""
    if 0 <= f < n and 0 <= r < n:
        return {board[r * n + f]}
    if not beyond or f < -1 or f > n or r < -1 or r > n:
        return set()
    out = set()
    if r in (-1, n):
        out.add(B)
    if f in (-1, n):
        out.add(W)
    return out


def _windows(n: int) -> Iterator[tuple[str, list[tuple[int, int]], list[tuple[int, int]]]]:
    """(glyph, stone points, empty points) of every window: points as (file, rank);
    the stone points' colours are tested by :func:`matches`."""
    for r in range(n - 1):
        for f in range(n - 1):
            # the full diagonal first: either diagonal
            yield "hard corner", [(f, r), (f + 1, r + 1), (f + 1, r), (f, r + 1)], []
            yield "hard corner", [(f + 1, r), (f, r + 1), (f, r), (f + 1, r + 1)], []
    for k, name in ((3, "2x3 switch"), (4, "2x4 switch")):
        for r in range(n - 1):
            for f in range(n - k + 1):
                corners = [(f, r), (f + k - 1, r + 1), (f + k - 1, r), (f, r + 1)]
                middle = [(f + i, r + j) for i in range(1, k - 1) for j in (0, 1)]
                yield name, corners, middle
        for r in range(n - k + 1):
            for f in range(n - 1):
                corners = [(f, r), (f + 1, r + k - 1), (f + 1, r), (f, r + k - 1)]
                middle = [(f + i, r + j) for i in (0, 1) for j in range(1, k - 1)]
                yield name, corners, middle
    for r in range(n - 1):
        for f in range(n - 1):
            block = [(f, r), (f + 1, r), (f, r + 1), (f + 1, r + 1)]
            ring = [(f, r - 1), (f + 1, r - 1), (f + 2, r), (f + 2, r + 1),
                    (f + 1, r + 2), (f, r + 2), (f - 1, r + 1), (f - 1, r)]
            yield "pinwheel", ring, block
            yield "cartwheel", ring, block


def _colourings(name: str) -> list[list[int]]:
    """The colours the stone points of a window need, X and Y each colour in turn."""
    out = []
    for x, y in ((B, W), (W, B)):
        if name == "hard corner":  # X X on one diagonal, Y on one point of the other
            out += [[x, x, y, E], [x, x, E, y]]
        elif name in ("2x3 switch", "2x4 switch"):  # each colour on opposite corners
            out.append([x, x, y, y])
        elif name == "pinwheel":  # colours alternate round the block
            out.append([x, y, x, y, x, y, x, y])
        else:  # cartwheel: below and above X, right and left Y
            out.append([x, x, y, y, x, x, y, y])
    return out


def instances(board: tuple[int, ...], n: int, names: tuple[str, ...]
              ) -> Iterator[list[tuple[int, int]]]:
    """The points (file, rank) on the board of every glyph instance of ``names``."""
    for name, stones, empties in _windows(n):
        if name not in names:
            continue
        beyond = name == "cartwheel"
        if any(not (0 <= f < n and 0 <= r < n) for f, r in empties):
            continue
        if any(board[r * n + f] != E for f, r in empties):
            continue
        if not beyond and any(not (0 <= f < n and 0 <= r < n) for f, r in stones):
            continue
        for need in _colourings(name):
            if name == "hard corner":  # the empty point of the other diagonal
                pts = stones
                if all(colours(board, n, f, r, False) == {c} for (f, r), c in zip(pts, need,
                                                                                  strict=True)):
                    yield list(pts)
                continue
            if all(c in colours(board, n, f, r, beyond) for (f, r), c in zip(stones, need,
                                                                             strict=True)):
                yield [(f, r) for f, r in stones + empties if 0 <= f < n and 0 <= r < n]


def has_glyph(board: tuple[int, ...], n: int, names: tuple[str, ...]) -> bool:
    """Whether the board holds an instance of ``names`` with a stone on the board."""
    return any(any(board[r * n + f] != E for f, r in pts)
               for pts in instances(board, n, names))


def can_place(board: tuple[int, ...], n: int, p: int, colour: int,
              names: tuple[str, ...]) -> bool:
    """The rules: an empty point, and no glyph instance holding the new stone."""
    if board[p] != E:
        return False
    trial = list(board)
    trial[p] = colour
    point = (p % n, p // n)
    return not any(point in pts for pts in instances(tuple(trial), n, names))


def stuck(board: tuple[int, ...], n: int, names: tuple[str, ...]) -> bool:
    return not any(can_place(board, n, p, c, names) for p in range(n * n) for c in (B, W))


def has_path(board: tuple[int, ...], n: int, colour: int) -> bool:
    """An orthogonal path of ``colour`` between its edges (Black: ranks, White: files)."""
    def first(p: int) -> bool:
        return p // n == 0 if colour == B else p % n == 0

    def last(p: int) -> bool:
        return p // n == n - 1 if colour == B else p % n == n - 1

    todo = [p for p in range(n * n) if board[p] == colour and first(p)]
    seen = set(todo)
    while todo:
        p = todo.pop()
        if last(p):
            return True
        r, f = divmod(p, n)
        for rr, ff in ((r + 1, f), (r - 1, f), (r, f + 1), (r, f - 1)):
            q = rr * n + ff
            if 0 <= rr < n and 0 <= ff < n and board[q] == colour and q not in seen:
                seen.add(q)
                todo.append(q)
    return False


def has_crosscut(board: tuple[int, ...], n: int) -> bool:
    for r in range(n - 1):
        for f in range(n - 1):
            a, b = board[r * n + f], board[r * n + f + 1]
            c, d = board[(r + 1) * n + f], board[(r + 1) * n + f + 1]
            if a == d != E and b == c != E and a != b:
                return True
    return False


def all_boards(n: int) -> Iterator[tuple[int, ...]]:
    return itertools.product((E, B, W), repeat=n * n)


def point(n: int, name: str) -> int:
    return (int(name[1:]) - 1) * n + "abcdefghijklmnopqrstuvwxyz".index(name[0])


def replay(line: list[str], n: int, names: tuple[str, ...]) -> tuple[int, ...]:
    """Play a game line (Black first) by the rules; AssertionError on a rule broken."""
    board = [E] * (n * n)
    mover = B
    for k, move in enumerate(line):
        last = W if mover == B else B
        assert k == 0 or not has_path(tuple(board), n, last), f"won before move {k + 1}"
        options = [p for p in range(n * n) if can_place(tuple(board), n, p, mover, names)]
        if move == "pass":
            other = W if mover == B else B
            assert not options, f"move {k + 1}: pass with a placement"
            assert any(can_place(tuple(board), n, p, other, names) for p in range(n * n))
        else:
            assert point(n, move) in options, f"move {k + 1}: {move} is illegal"
            board[point(n, move)] = mover
        mover = W if mover == B else B
    return tuple(board)
