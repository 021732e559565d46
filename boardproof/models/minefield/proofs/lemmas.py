"""Brute-force checks of the Minefield lemmas behind the ortho-diagonal theorem.

Every board of a size is enumerated (vectorised with numpy: a board is a pair of bit
masks, Black and White, bit ``p`` = cell ``p = rank_index * n + file_index``), and
each lemma's statement is counted: the number of boards that break it must be 0.
Each check takes ``variant``, a deliberately broken version of the lemma's
hypotheses, to show that the check can fail (the tests require a non-zero count).

- :func:`gap_violations` (Lemma G): on a glyph-free crosscut-free board, an X
  diagonal step with no X stone on the other diagonal of its 2x2 area has both of
  those points empty, and Y placing on either would make a hard corner.
- :func:`crossing_violations` (Lemma K): on a crosscut-free board, X with an
  8-connected path between X's edges and Y with an orthogonal path between Y's.
- :func:`full_fill_violations` (Lemma F): a full crosscut-free board where a
  colour has an 8-path but no orthogonal path.

>>> gap_violations(3), crossing_violations(3), full_fill_violations(3)
(0, 0, 0)
>>> crossing_violations(3, variant="y 8-path") > 0
True
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from boardproof.models.minefield.proofs import sat

BLACK, WHITE = sat.BLACK, sat.WHITE
Masks = np.ndarray  # uint32 arrays of bit masks


def _edges(n: int) -> dict[str, int]:
    row = (1 << n) - 1
    col = sum(1 << (r * n) for r in range(n))
    return {"bottom": row, "top": row << (n * (n - 1)), "left": col,
            "right": col << (n - 1), "all": (1 << (n * n)) - 1}


def spread(m: Masks, n: int, eight: bool) -> Masks:
    """Cells orthogonally (``eight``: or diagonally) adjacent to a cell of ``m``, or in it.

    >>> int(spread(np.array([1 << 4], dtype=np.uint32), 3, False)[0]) == 0b010111010
    True
    """
    e = _edges(n)
    not_left = np.uint32(e["all"] & ~e["left"])
    not_right = np.uint32(e["all"] & ~e["right"])
    full = np.uint32(e["all"])
    sideways = m | ((m << 1) & not_left) | ((m >> 1) & not_right)
    vertical = m | ((m << n) & full) | (m >> n)
    out = sideways | vertical
    if eight:
        out |= ((sideways << n) & full) | (sideways >> n)
    return out & full


def has_path(stones: Masks, colour: int, n: int, eight: bool) -> Masks:
    """Whether ``stones`` of ``colour`` join its two edges (Black: ranks; White: files)."""
    e = _edges(n)
    first, last = ("bottom", "top") if colour == BLACK else ("left", "right")
    reach = stones & np.uint32(e[first])
    while True:
        grown = spread(reach, n, eight) & stones
        if np.array_equal(grown, reach):
            break
        reach = grown
    return (reach & np.uint32(e[last])) != 0


def boards(n: int, full: bool = False, chunk_cells: int = 8) -> Iterator[tuple[Masks, Masks]]:
    """Every board (``full``: every full board), in chunks of (black, white) masks."""
    cells = n * n
    low = min(cells, chunk_cells)
    states = 2 if full else 3
    digits = np.indices((states,) * low).reshape(low, -1)
    weights = (1 << np.arange(low, dtype=np.uint32)).astype(np.uint32)
    black_low = ((digits == 1).T.astype(np.uint32) * weights).sum(axis=1).astype(np.uint32)
    state_white = 0 if full else 2
    white_low = ((digits == state_white).T.astype(np.uint32) * weights).sum(
        axis=1).astype(np.uint32)
    high = cells - low
    for code in range(states ** high):
        b_hi = w_hi = 0
        for k in range(high):
            code, d = divmod(code, states)
            if d == 1:
                b_hi |= 1 << (low + k)
            elif d == state_white:
                w_hi |= 1 << (low + k)
        yield black_low | np.uint32(b_hi), white_low | np.uint32(w_hi)


def _areas(n: int) -> list[tuple[int, int, int, int]]:
    """Every 2x2 area as (lower-left, lower-right, upper-left, upper-right) cells."""
    return [(r * n + f, r * n + f + 1, (r + 1) * n + f, (r + 1) * n + f + 1)
            for r in range(n - 1) for f in range(n - 1)]


def _bit(m: Masks, p: int) -> Masks:
    return ((m >> np.uint32(p)) & np.uint32(1)).astype(bool)


def crosscut(black: Masks, white: Masks, n: int) -> Masks:
    """Whether each board holds a 2x2 crosscut."""
    out = np.zeros(black.shape, dtype=bool)
    for a, b, c, d in _areas(n):
        diag = _bit(black, a) & _bit(black, d) & _bit(white, b) & _bit(white, c)
        anti = _bit(white, a) & _bit(white, d) & _bit(black, b) & _bit(black, c)
        out |= diag | anti
    return out


def glyph_any(black: Masks, white: Masks, glyph_list: list[sat.Glyph]) -> Masks:
    """Whether each board holds one of the glyphs of ``glyph_list``."""
    out = np.zeros(black.shape, dtype=bool)
    occupied = black | white
    for g in glyph_list:
        need_b = sum(1 << p for p, s in g if s == BLACK)
        need_w = sum(1 << p for p, s in g if s == WHITE)
        need_e = sum(1 << p for p, s in g if s == sat.EMPTY)
        out |= (((black & np.uint32(need_b)) == need_b) & ((white & np.uint32(need_w)) == need_w)
                & ((occupied & np.uint32(need_e)) == 0))
    return out


def _hard_corners(n: int) -> list[sat.Glyph]:
    return [g for g in sat.glyphs(n) if len(g) == 4
            and sorted(s for _, s in g).count(sat.EMPTY) == 1]


def gap_violations(n: int, variant: str = "") -> int:
    """Boards breaking Lemma G (see the module docstring); 0 when the lemma holds.

    ``variant="no hard corners"`` drops the hard corners from the glyph-free
    hypothesis (a broken lemma: the count is then positive).
    """
    glyph_list = sat.glyphs(n)
    if variant == "no hard corners":
        corners = set(_hard_corners(n))
        glyph_list = [g for g in glyph_list if g not in corners]
    corners_all = set(_hard_corners(n))
    bad = 0
    steps = []
    for a, b, c, d in _areas(n):
        for (s, t), (g, h) in (((a, d), (b, c)), ((b, c), (a, d))):
            steps.append((s, t, g, h))
            for x, y in ((BLACK, WHITE), (WHITE, BLACK)):
                for cell, other in ((g, h), (h, g)):  # Y placed on a gap point
                    placed = tuple(sorted([(s, x), (t, x), (cell, y), (other, sat.EMPTY)]))
                    if placed not in corners_all:  # no hard corner: Y could place there
                        bad += 1
    for black, white in boards(n):
        ok = ~glyph_any(black, white, glyph_list) & ~crosscut(black, white, n)
        if not ok.any():
            continue
        black, white = black[ok], white[ok]
        empty = ~(black | white) & np.uint32(_edges(n)["all"])
        wrong = np.zeros(black.shape, dtype=bool)
        for x in (black, white):
            for s, t, g, h in steps:
                step = _bit(x, s) & _bit(x, t) & ~_bit(x, g) & ~_bit(x, h)
                wrong |= step & ~(_bit(empty, g) & _bit(empty, h))
        bad += int(wrong.sum())
    return bad


def crossing_violations(n: int, variant: str = "") -> int:
    """Boards breaking Lemma K.

    ``variant="crosscuts allowed"`` drops crosscut-freeness (the lemma's proof needs
    it; the count stays 0 up to 4x4 all the same: a 4-path cannot cross an 8-path);
    ``variant="y 8-path"`` lets Y use diagonal steps too, with crosscuts allowed
    (a broken lemma: two 8-paths cross at a crosscut, so the count is positive).
    """
    y_eight = variant == "y 8-path"
    bad = 0
    for black, white in boards(n):
        both = ((has_path(black, BLACK, n, True) & has_path(white, WHITE, n, y_eight))
                | (has_path(white, WHITE, n, True) & has_path(black, BLACK, n, y_eight)))
        if not variant:
            both &= ~crosscut(black, white, n)
        bad += int(both.sum())
    return bad


def full_fill_violations(n: int, variant: str = "") -> int:
    """Full boards breaking Lemma F; ``variant="crosscuts allowed"`` drops crosscut-freeness."""
    bad = 0
    for black, white in boards(n, full=True, chunk_cells=min(n * n, 16)):
        wrong = np.zeros(black.shape, dtype=bool)
        for stones, colour in ((black, BLACK), (white, WHITE)):
            wrong |= has_path(stones, colour, n, True) & ~has_path(stones, colour, n, False)
        if variant != "crosscuts allowed":
            wrong &= ~crosscut(black, white, n)
        bad += int(wrong.sum())
    return bad


# ---------------------------------------------------------------------------
# the statements and proofs (the reports print them)
# ---------------------------------------------------------------------------

#: the designer's claim 3, stated precisely
ORTHODIAGONAL_STATEMENT = (
    "Let P be a position of a legal game on the n x n board (any colour to move, the pie "
    "rule pending or not) in which nobody has won yet and one colour X has an "
    "ortho-diagonal path: a sequence of X stones from one of X's edges to the other, "
    "each 8-adjacent (orthogonally or diagonally) to the next. Then every legal "
    "continuation of the game from P - whatever either player places, wherever, with "
    "every forced pass (and the swap, where it is still legal) - ends with X completing "
    "an orthogonal path, i.e. with a win by X. So X can always force the orthogonal win "
    "(in the strongest sense: X cannot even avoid it), and a program that stops the game "
    "at the first ortho-diagonal path names the winner the rulebook would."
)

LEMMA_G = (
    "Lemma G (gaps). Call a diagonal step between X stones at the two ends of one "
    "diagonal of a 2x2 area open if neither point of the other diagonal (its gap) holds "
    "X. In a glyph-free crosscut-free position both gap points of an open step are "
    "empty, and Y cannot place on either. Proof: each gap point is empty or Y. Both Y "
    "would be a crosscut. One Y and one empty would be a hard corner (two X on one "
    "diagonal, one Y and one empty point on the other). So both are empty, and Y on one "
    "of them would make exactly that hard corner, which the rules forbid. (So the "
    "opponent can never block a gap: only X fills it.)"
)

LEMMA_K = (
    "Lemma K (crossing). In a crosscut-free position, if X has an ortho-diagonal path "
    "between X's edges, Y has no orthogonal path between Y's edges. Proof. Suppose Y "
    "has one, Q. Colour every point of the board: the points of Q in Y's colour, all "
    "the others in X's. View the board as the Hex rhombus of Lemma H (orthogonal "
    "neighbours plus the diagonal (r, c) - (r+1, c-1)), with the same sides. Q is a "
    "Hex chain of Y between Y's sides. Take X's path and replace each diagonal step "
    "(r, c) - (r+1, c+1) of the other diagonal direction by two orthogonal steps "
    "through a gap point, (r, c+1) or (r+1, c): not both lie on Q, since both would "
    "then be Y stones and the 2x2 area a crosscut; the one not on Q is coloured X. "
    "Every point of the new chain is off Q (X's stones are not Y's), hence coloured X: "
    "a Hex chain of X between X's sides. A Hex board cannot hold winning chains of "
    "both players (Gale 1979, as in Lemma H): a contradiction."
)

LEMMA_F = (
    "Lemma F (full boards fill). On a full crosscut-free board, an ortho-diagonal path "
    "of X becomes an orthogonal path of X: for each diagonal step, one of its two gap "
    "points holds X (the board is full, and two Y stones there would make a crosscut); "
    "insert it between the step's ends."
)

THEOREM_O = (
    "Theorem O (ortho-diagonal = win), for every n on which the no-draw fill step is "
    "UNSAT (every glyph-free board on which neither colour can place is full). Proof of "
    "the statement above. (1) Stones are never removed, so X's ortho-diagonal path stays "
    "in every later position, and every position of a legal game is glyph-free and "
    "crosscut-free (crosscut lemma). (2) By Lemma K, Y never has an orthogonal path, so "
    "Y never wins. (3) Each turn places a stone, or is a forced pass, which the rules "
    "allow only while the opponent can place; so after at most n^2 placements (and one "
    "swap) the game stops in a win or in a dead position. (4) A dead position is "
    "glyph-free and stuck, hence full by the fill step; it is crosscut-free, so by "
    "Lemma F X has an orthogonal path in it, so it is a win, not dead. By (3) and (4) "
    "the game ends with a win, by (2) X's. (The swap cannot occur at P: it needs a "
    "single stone on the board, and a path needs n >= 2 stones.) The per-n part is the "
    "fill step only, the same SAT formula as the no-draw report's (with its "
    "certificates); Lemmas G, K and F and the crosscut lemma hold for every n. Lemma G "
    "is not needed for the proof; it says why the opponent cannot interfere locally."
)
