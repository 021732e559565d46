"""Lemma H (``sat.FULL_BOARD_LEMMA``) by brute force: every full crosscut-free board has a
winner, and the proof's construction (Hex chain -> orthogonal path) works step by step.

Independent of the SAT encoding: boards are enumerated directly, paths found by a plain
breadth-first search here, and cross-checked against the game model's ``winner()``.
Full boards *with* a crosscut and no winner exist, so the check can fail.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from boardproof.models import get
from boardproof.models.minefield.proofs import sat

BLACK, WHITE = sat.BLACK, sat.WHITE
ORTHO = ((-1, 0), (1, 0), (0, -1), (0, 1))
#: the Hex rhombus of the proof: orthogonal steps plus one diagonal direction
HEX = (*ORTHO, (-1, 1), (1, -1))


def full_boards(n: int):
    for mask in range(1 << (n * n)):
        yield tuple(BLACK if mask >> p & 1 else WHITE for p in range(n * n))


def on_edge(n: int, colour: int, r: int, c: int, far: bool) -> bool:
    """Black's edges are ranks 1 and n (r = 0, n-1); White's files a and last."""
    coord = r if colour == BLACK else c
    return coord == (n - 1 if far else 0)


def chain(board, n: int, colour: int, steps) -> list[tuple[int, int]] | None:
    """A shortest chain of ``colour`` cells (using ``steps``) joining its edges, or None."""
    parent: dict[tuple[int, int], tuple[int, int] | None] = {}
    queue: deque[tuple[int, int]] = deque()
    for r in range(n):
        for c in range(n):
            if board[r * n + c] == colour and on_edge(n, colour, r, c, far=False):
                parent[(r, c)] = None
                queue.append((r, c))
    while queue:
        r, c = queue.popleft()
        if on_edge(n, colour, r, c, far=True):
            out = [(r, c)]
            while parent[out[-1]] is not None:
                out.append(parent[out[-1]])  # type: ignore[arg-type]
            return out[::-1]
        for dr, dc in steps:
            q = (r + dr, c + dc)
            if 0 <= q[0] < n and 0 <= q[1] < n and q not in parent \
                    and board[q[0] * n + q[1]] == colour:
                parent[q] = (r, c)
                queue.append(q)
    return None


def orthogonalise(board, n: int, colour: int, cells: list[tuple[int, int]]):
    """The proof's construction: replace each diagonal step by two orthogonal ones.

    Returns the new walk, or None if a diagonal step has neither corner of its 2x2 area
    in ``colour`` (the proof says that area is then a crosscut).
    """
    out = [cells[0]]
    for (r1, c1), (r2, c2) in zip(cells, cells[1:], strict=False):
        if abs(r1 - r2) + abs(c1 - c2) == 2:  # a diagonal step of the rhombus
            corners = [(r1, c2), (r2, c1)]
            via = [q for q in corners if board[q[0] * n + q[1]] == colour]
            if not via:
                return None
            out.append(via[0])
        out.append((r2, c2))
    return out


def is_orthogonal_path(board, n: int, colour: int, walk) -> bool:
    return (all(board[r * n + c] == colour for r, c in walk)
            and all(abs(r1 - r2) + abs(c1 - c2) == 1
                    for (r1, c1), (r2, c2) in zip(walk, walk[1:], strict=False))
            and on_edge(n, colour, *walk[0], far=False)
            and on_edge(n, colour, *walk[-1], far=True))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_lemma_h_on_every_full_board(n) -> None:
    game = get("minefield")
    crosscut_free = no_winner_with_crosscut = 0
    patterns = sat.crosscuts(n)
    for board in full_boards(n):
        hex_winners = [x for x in (BLACK, WHITE) if chain(board, n, x, HEX) is not None]
        assert len(hex_winners) == 1, board  # the Hex theorem on the rhombus (sanity check)
        ortho = [x for x in (BLACK, WHITE) if chain(board, n, x, ORTHO) is not None]
        if sat.has_pattern(board, patterns):
            no_winner_with_crosscut += not ortho
            continue
        crosscut_free += 1
        # Lemma H: a winner, and it is the Hex winner, through the proof's construction
        [x] = hex_winners
        assert ortho == [x], sat.board_picture(board, n)
        walk = orthogonalise(board, n, x, chain(board, n, x, HEX) or [])
        assert walk is not None and is_orthogonal_path(board, n, x, walk)
        # the game model agrees (player 0 is Black)
        pos = game.parse_position(sat.board_fen(board, n) + " b -")
        assert pos.winner() == (0 if x == BLACK else 1)
    assert crosscut_free > 0
    # without the crosscut exclusion the lemma is false: the check can fail
    assert no_winner_with_crosscut > 0


def test_construction_fails_exactly_at_a_crosscut() -> None:
    """``b w / w b`` at n = 2: the Hex chain a1-b2 is Black's, with no corner to use."""
    board = (BLACK, WHITE, WHITE, BLACK)  # a1 b, b1 w, a2 w, b2 b
    assert chain(board, 2, BLACK, ORTHO) is None and chain(board, 2, WHITE, ORTHO) is None
    hex_chain = chain(board, 2, WHITE, HEX)  # the rhombus links b1-a2 (one diagonal)
    assert hex_chain == [(1, 0), (0, 1)] or hex_chain == [(0, 1), (1, 0)]
    assert orthogonalise(board, 2, WHITE, hex_chain) is None


def lemma_counts_numpy(n: int, chunk: int = 1 << 22) -> tuple[int, int, int]:
    """Vectorised count over all 2^(n*n) full boards (bit p set = black stone on p).

    Returns (crosscut-free boards, crosscut-free boards without a winner,
    boards with a crosscut and without a winner).
    """
    cells = n * n
    full = np.uint32((1 << cells) - 1)
    rank0 = sum(1 << c for c in range(n))
    rank_last = rank0 << (n * (n - 1))
    file0 = sum(1 << (r * n) for r in range(n))
    file_last = file0 << (n - 1)
    blocks = sum(1 << (r * n + c) for r in range(n - 1) for c in range(n - 1))
    u = np.uint32

    def connected(stones: np.ndarray, first: int, last: int) -> np.ndarray:
        reach = stones & u(first)
        while True:
            grow = (reach | (reach << u(n)) | (reach >> u(n))
                    | ((reach << u(1)) & u(~file0 & int(full)))
                    | ((reach >> u(1)) & u(~file_last & int(full))))
            nxt = stones & grow & full
            if np.array_equal(nxt, reach):
                return (reach & u(last)) != 0
            reach = nxt

    free = free_no_winner = cut_no_winner = 0
    for start in range(0, 1 << cells, chunk):
        m = np.arange(start, min(start + chunk, 1 << cells), dtype=np.uint32)
        # crosscut at block a: A != B, A == D, B == C (A=a, B=a+1, C=a+n, D=a+n+1)
        ab = m ^ (m >> u(1))
        ad = m ^ (m >> u(n + 1))
        bc = (m >> u(1)) ^ (m >> u(n))
        cut = (ab & ~ad & ~bc & u(blocks)) != 0
        white = ~m & full
        winner = connected(m, rank0, rank_last) | connected(white, file0, file_last)
        free += int(np.count_nonzero(~cut))
        free_no_winner += int(np.count_nonzero(~cut & ~winner))
        cut_no_winner += int(np.count_nonzero(cut & ~winner))
    return free, free_no_winner, cut_no_winner


def _counts_python(n: int) -> tuple[int, int, int]:
    free = free_no = cut_no = 0
    patterns = sat.crosscuts(n)
    for board in full_boards(n):
        win = any(chain(board, n, x, ORTHO) is not None for x in (BLACK, WHITE))
        if sat.has_pattern(board, patterns):
            cut_no += not win
        else:
            free += 1
            free_no += not win
    return free, free_no, cut_no


@pytest.mark.parametrize("n", [2, 3, 4])
def test_numpy_count_matches_the_direct_one(n) -> None:
    counts = lemma_counts_numpy(n)
    assert counts == _counts_python(n)
    assert counts[0] > 0 and counts[1] == 0 and counts[2] > 0


@pytest.mark.long
def test_lemma_h_on_every_full_5x5_board() -> None:
    free, free_no_winner, cut_no_winner = lemma_counts_numpy(5)
    assert free > 0 and cut_no_winner > 0
    assert free_no_winner == 0
