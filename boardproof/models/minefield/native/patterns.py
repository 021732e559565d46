"""Learned 3x3 pattern weights of the native Minefield engine (``mcts.c``): the codes, their
symmetries and the shipped table.

A pattern is the 3x3 neighbourhood of an empty point seen by the side to move: the 8
neighbours, each 0 empty, 1 the mover's stone, 2 the opponent's, 3 off the board, read in
the mover's frame (for White the board is transposed, so the mover always joins the
frame's first and last rows), neighbour k = :data:`CELLS` [k] in bits 2k and 2k + 1. The
frame's symmetries that keep the rows as the edges to join (mirror left-right, mirror
up-down, both) give the same weight, so the table is kept by canonical code
(:func:`canonical`).

The weights (``gamma``: how much more often than the average available placement a
placement with the pattern was played by the winner of a game) are learned by
:mod:`boardproof.models.minefield.native.train_patterns` into
:mod:`boardproof.models.minefield.native.pattern_weights`; a pattern not in the table
weighs 1.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from functools import cache

#: the neighbours (dx, dy) of a pattern, in bit order
CELLS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
#: all pattern codes
PATTERNS = 4**8
EMPTY, MINE, THEIRS, OFF = 0, 1, 2, 3


def code_of(cells: Iterable[int]) -> int:
    """The code of the 8 neighbour states in :data:`CELLS` order.

    >>> code_of([0, 0, 0, 0, 0, 0, 0, 0]), code_of([1, 0, 0, 0, 0, 0, 0, 3])
    (0, 49153)
    """
    return sum(state << (2 * k) for k, state in enumerate(cells))


def cells_of(code: int) -> list[int]:
    """The 8 neighbour states of ``code`` (the inverse of :func:`code_of`).

    >>> cells_of(49153)
    [1, 0, 0, 0, 0, 0, 0, 3]
    """
    return [code >> (2 * k) & 3 for k in range(8)]


def _mirrored(code: int, fx: int, fy: int) -> int:
    states = cells_of(code)
    return code_of(states[CELLS.index((dx * fx, dy * fy))] for dx, dy in CELLS)


def variants(code: int) -> set[int]:
    """The codes equal to ``code`` up to the frame's symmetries (1, 2 or 4 of them).

    >>> sorted(variants(code_of([1, 0, 0, 0, 0, 0, 0, 0])))
    [1, 16, 1024, 16384]
    """
    return {_mirrored(code, fx, fy) for fx in (1, -1) for fy in (1, -1)}


def canonical(code: int) -> int:
    """The smallest code among ``code``'s :func:`variants`.

    >>> canonical(code_of([0, 0, 0, 0, 0, 0, 0, 1]))
    1
    """
    return min(variants(code))


def pattern_of(n: int, black: set[int], white: set[int], point: int, mover: int) -> int:
    """The code of the pattern around compact ``point`` (``rank * n + file``) for
    ``mover`` (0 Black, 1 White) on an ``n``-board with these stones (a reference for the
    C code; the engine computes it itself).

    >>> pattern_of(3, {0}, {8}, 4, 0) == code_of([1, 0, 0, 0, 0, 0, 0, 2])
    True
    >>> pattern_of(3, {0}, {8}, 1, 1) == code_of([3, 2, 0, 3, 0, 3, 0, 0])
    True
    """
    file, rank = point % n, point // n
    own, other = (black, white) if mover == 0 else (white, black)
    states = []
    for dx, dy in CELLS:
        x, y = (file + dx, rank + dy) if mover == 0 else (file + dy, rank + dx)
        if not (0 <= x < n and 0 <= y < n):
            states.append(OFF)
            continue
        p = y * n + x
        states.append(MINE if p in own else THEIRS if p in other else EMPTY)
    return code_of(states)


def parse(text: str) -> dict[int, float]:
    """The weights of a table's text: ``code:gamma`` pairs, separated by blanks.

    >>> parse("0:1.5 17:0.25\\n")
    {0: 1.5, 17: 0.25}
    """
    weights = {}
    for item in text.split():
        code, gamma = item.split(":")
        weights[int(code)] = float(gamma)
    return weights


def table(weights: dict[int, float]) -> bytes:
    """The full table of :data:`PATTERNS` float32 weights (native byte order) that the C
    engine takes, from weights by canonical code (1 where none is given).

    >>> full = array("f", table({1: 2.0}))
    >>> [full[code] for code in (1, 16, 1024, 16384, 2)]
    [2.0, 2.0, 2.0, 2.0, 1.0]
    """
    full = array("f", [1.0]) * PATTERNS
    for code, gamma in weights.items():
        for variant in variants(code):
            full[variant] = gamma
    return full.tobytes()


@cache
def shipped() -> bytes:
    """The table of the shipped weights (:mod:`pattern_weights`)."""
    from boardproof.models.minefield.native.pattern_weights import WEIGHTS

    return table(parse(WEIGHTS))
