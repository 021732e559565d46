"""The ring lemma: on a glyph-free stuck board the outer ring is full, for every n >= 5.

A step towards "no draw for every n" (the no-draw fill step is proved per n only). The
proof is local: let p be the leftmost empty point of the bottom row of a glyph-free
board on which neither colour can place. Everything left of p on that row is filled.
Look only at a window of ``rows`` x (2 * ``half`` + 1) points around p (rows 1 up, files
p-half..p+half), cut by the board's left or right edge when p is that close to it:
p's distance to each side edge is 0, 1, ..., ``half`` - 1 exactly, or at least ``half``
(the board may go on or not: both are allowed). The formula of a case is a
*relaxation* of the real board restricted to the window:

- glyph-free: every glyph lying inside the window is absent;
- stuck: every window point is occupied, or for each colour some glyph through it
  would be completed by that colour; a glyph reaching outside the window only has to
  match inside it (the points outside are unknown);
- p is empty; the bottom-row points of the window left of p are occupied.

Every real board gives a model of its case, so UNSAT of every case proves the lemma
for the bottom row, and by the claim's symmetries (rotations and reflections, with the
colours exchanged for the transposes; glyph-freeness and stuckness are invariant) for
every side: the outer ring is full. ``n >= 5`` makes the side cases exclusive (a p
cannot be close to both side edges) and the window's rows exist.

>>> [c.result for c in check_ring()]
['unsat', 'unsat', 'unsat', 'unsat', 'unsat']
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from boardproof.models.minefield.proofs import sat
from boardproof.solvers.sat import backward, solving
from boardproof.solvers.sat.child import open_solver

#: the pad around the window in the auxiliary board: a glyph spans at most 4 points
_PAD = 4
#: a point as (rank offset, file offset) from p
Cell = tuple[int, int]


@dataclass(frozen=True)
class RingCase:
    """One edge case: p's distance to the left and the right edge (None: >= half)."""

    left: int | None
    right: int | None
    rows: int
    half: int
    result: str = ""
    variables: int = 0
    clauses: int = 0
    #: the UNSAT answer's DRUP proof was accepted by the backward checker
    certified: bool = False

    def label(self) -> str:
        def side(d: int | None) -> str:
            return f">= {self.half}" if d is None else str(d)
        return f"left {side(self.left)}, right {side(self.right)}"


def cases(half: int = 2) -> list[tuple[int | None, int | None]]:
    """The side cases for n >= 2 * half + 1: at most one side edge is near p.

    >>> cases(2)
    [(0, None), (1, None), (None, None), (None, 1), (None, 0)]
    """
    near = list(range(half))
    return ([(d, None) for d in near] + [(None, None)]
            + [(None, d) for d in reversed(near)])


def window_cells(left: int | None, right: int | None, rows: int = 3,
                 half: int = 2, depth: int = 0) -> list[tuple[int, int]]:
    """The window's points as (rank offset from p, file offset from p), sorted.

    ``rows`` ranks from p's up, and the ``depth`` ranks below p (down to the edge).

    >>> window_cells(0, None, 1, 2)
    [(0, 0), (0, 1), (0, 2)]
    """
    lo = -(left if left is not None else half)
    hi = right if right is not None else half
    return sorted((r, f) for r in range(-depth, rows) for f in range(lo, hi + 1))


def encode_region(window: Sequence[Cell], possible: Callable[[Cell], bool],
                  filled: Iterable[Cell] = (), empty: Iterable[Cell] = (),
                  colours: tuple[int, ...] = (sat.BLACK, sat.WHITE),
                  glyph_kinds: tuple[int, ...] = (2, 3, 4)) -> tuple[list[list[int]], int]:
    """"Glyph-free and stuck" restricted to ``window`` (a sound relaxation), plus facts.

    Points are (rank, file) offsets. ``possible(point)`` says whether a point may lie on
    the board (False: beyond an edge known to be there); a glyph with such a point is
    dropped. Glyph-free: every glyph inside the window is absent. Stuck (for each of
    ``colours``): every window point is occupied or some glyph through it would be
    completed by that colour, a glyph reaching outside the window matching inside it.
    ``filled`` and ``empty`` points (in the window) are facts of the case. Variables:
    ``B = 1 + i`` and ``W = 1 + len(window) + i`` for the ``i``-th window point.
    """
    cells_sorted = sorted(window)
    index = {rf: i for i, rf in enumerate(cells_sorted)}
    nw = len(index)
    r0 = min(r for r, _ in cells_sorted) - _PAD
    f0 = min(f for _, f in cells_sorted) - _PAD
    size = max(max(r for r, _ in cells_sorted) - r0, max(f for _, f in cells_sorted) - f0)
    size += _PAD + 1

    def coords(cell: int) -> Cell:
        r, f = divmod(cell, size)
        return r + r0, f + f0

    def black(rf: Cell) -> int:
        return 1 + index[rf]

    def white(rf: Cell) -> int:
        return 1 + nw + index[rf]

    def match(rf: Cell, state: int) -> list[int]:
        if state == sat.BLACK:
            return [black(rf)]
        if state == sat.WHITE:
            return [white(rf)]
        return [-black(rf), -white(rf)]

    def kind(cells: list[Cell]) -> int:
        return max(len({r for r, _ in cells}), len({f for _, f in cells}))

    clauses: list[list[int]] = [[-black(rf), -white(rf)] for rf in cells_sorted]
    nvars = 2 * nw
    witnesses: dict[tuple[tuple[Cell, int], ...], int] = {}
    by_placement: dict[tuple[Cell, int], list[int]] = {}
    for g in sat.glyphs(size):
        cells = [(coords(c), s) for c, s in g]
        if kind([rf for rf, _ in cells]) not in glyph_kinds:
            continue
        if not all(possible(rf) for rf, _ in cells):
            continue  # the glyph leaves the board at an edge known to be there
        inside = [(rf, s) for rf, s in cells if rf in index]
        if not inside:
            continue
        if len(inside) == len(cells):
            clauses.append([-lit for rf, s in inside for lit in match(rf, s)])
        for rf, s in inside:
            if s == sat.EMPTY:
                continue
            rest = tuple(sorted(item for item in inside if item[0] != rf))
            var = witnesses.get(rest)
            if var is None:
                nvars += 1
                var = witnesses[rest] = nvars
                clauses += [[-var, lit] for q, t in rest for lit in match(q, t)]
            by_placement.setdefault((rf, s), []).append(var)
    for rf in cells_sorted:
        for colour in colours:
            clauses.append([black(rf), white(rf)]
                           + sorted(set(by_placement.get((rf, colour), []))))
    for rf in empty:
        clauses += [[-black(rf)], [-white(rf)]]
    for rf in filled:
        clauses.append([black(rf), white(rf)])
    return clauses, nvars


def encode_case(left: int | None, right: int | None, rows: int = 3, half: int = 2,
                glyph_kinds: tuple[int, ...] = (2, 3, 4),
                left_filled: bool = True, colours: tuple[int, ...] = (sat.BLACK, sat.WHITE),
                top_exact: bool = False, depth: int = 0) -> tuple[list[list[int]], int]:
    """The clauses of one ring case (see the module docstring) and the number of variables.

    Variables as in :func:`encode_region` over :func:`window_cells`. ``glyph_kinds``,
    ``left_filled`` and ``colours`` (the colours that must be stuck) weaken the formula
    for the tests (glyphs of 2 = hard corners, 3 = 2x3 switches, 4 = 2x4 switches);
    with exact ``left``, ``right`` and ``top_exact`` the window is a whole board and
    the formula is exactly "glyph-free, stuck, p empty, left of p filled".
    ``depth``: p lies that many ranks above the bottom edge, every point below its rank
    is filled (p is the lowest, then leftmost, empty point).
    """
    cells = window_cells(left, right, rows, half, depth)
    lo = -(left if left is not None else half)

    def possible(rf: Cell) -> bool:
        r, f = rf
        if r < -depth or (top_exact and r >= rows):
            return False
        if left is not None and f < -left:
            return False
        return not (right is not None and f > right)

    filled = [rf for rf in cells if rf[0] < 0]
    if left_filled:
        filled += [(0, f) for f in range(lo, 0)]
    return encode_region(cells, possible, filled, [(0, 0)], colours, glyph_kinds)


def solve_certified(clauses: list[list[int]]) -> tuple[str, bool]:
    """``"sat"`` or ``"unsat"``, and whether an UNSAT answer is certified: CaDiCaL's DRUP
    proof accepted by the project's backward checker (False when it is not built).

    >>> solve_certified([[1, 2], [-1, 2], [1, -2], [-1, -2]])
    ('unsat', True)
    >>> solve_certified([[1, 2]])
    ('sat', False)
    """
    proof = backward.available()
    with open_solver("cadical195", clauses, with_proof=proof) as s:
        if solving.run_solver(s):
            return "sat", False
        return "unsat", proof and backward.check(clauses, s.get_proof() or []).ok


def check_ring(rows: int = 3, half: int = 2, depth: int = 0,
               **weaken: object) -> list[RingCase]:
    """Solve every case; the lemma holds (for n >= 2 * half + 1) when all are UNSAT."""
    out = []
    for left, right in cases(half):
        clauses, nvars = encode_case(left, right, rows, half, depth=depth,
                                     **weaken)  # type: ignore[arg-type]
        result, certified = solve_certified(clauses)
        out.append(RingCase(left, right, rows, half, result, nvars, len(clauses), certified))
    return out


#: the lemma as the published no-draw report states it (it names this module by its name
#: then, ``boardproof.solvers.sat.ring``: the report made again is byte for byte the same)
RING_LEMMA = (
    "Ring lemma (every n >= 5). On a glyph-free board of any size n >= 5 on which neither "
    "colour can place, every point of the outer ring (ranks 1 and n, files a and the last "
    "file) is occupied. Proof: let p be the leftmost empty point of the bottom row; the "
    "points left of it on that row are filled. In a window of 3 ranks x 5 files around p "
    "(cut by a side edge when p is at distance 0 or 1 from it: 5 cases for n >= 5), the "
    "window's part of 'glyph-free, stuck, p empty, the row left of p filled' is a formula "
    "that every real board satisfies (glyphs reaching outside the window only have to "
    "match inside it); SAT finds each of the 5 formulas UNSAT "
    "(boardproof.solvers.sat.ring; a 3 x 3 window works too: 3 cases, every n >= 3). So "
    "the bottom row is full; by the symmetries of the board (colours exchanged for the "
    "transposes), so is every side."
)

STRIP_LEMMA = (
    "Strip lemma (width w, every n). On a glyph-free board on which neither colour can "
    "place, the empty points (if any) never all lie in w consecutive ranks (nor, by "
    "symmetry, files). Proof, for n >= 2h + 1 with a window of w + 2 ranks x (2h + 1) "
    "files: let p be the leftmost, then lowest, empty point, at rank k of the strip; "
    "everything left of p's file, below p in its file, and in the rank just below and "
    "just above the strip (where the board has them) is filled. For each k, each of "
    "bottom/top edge at the strip or a filled rank beyond it, and p's distance to the "
    "left or right edge (0 .. h-1 exactly, or >= h), the window's relaxation (as in the "
    "ring lemma, plus these filled points) is UNSAT. Smaller n are covered by the SAT "
    "fill step (every n <= 26 in the table)."
)


def strip_half(width: int) -> int:
    """The window half-width used for a strip width (found by trying: narrower fail).

    >>> [strip_half(w) for w in (1, 5, 6, 8)]
    [2, 2, 3, 5]
    """
    return max(2, width - 3)


def summary(strip_max: int = 0) -> dict[str, object]:
    """The ring-lemma checks of the report: each window, its cases and their answers.

    The proof uses the 3 x 5 window (n >= 5); the 3 x 3 window (n >= 3) works too. The
    same method one rank higher (``depth=1``: p on rank 2, rank 1 filled) fails: the
    case far from the side edges is SAT (also in 8 x 15 and 10 x 19 windows, measured),
    so the second ring needs a global argument.
    """
    began = time.perf_counter()
    windows = []
    for rows, half, depth in ((3, 2, 0), (3, 1, 0), (3, 2, 1)):
        found = check_ring(rows, half, depth=depth)
        windows.append({
            "rows": rows + depth, "files": 2 * half + 1, "depth": depth,
            "n_min": 2 * half + 1 if half > 1 else 3,
            "cases": [{"case": c.label(), "result": c.result, "variables": c.variables,
                       "clauses": c.clauses, "certified": c.certified} for c in found],
        })
    strips = [check_strip(w, strip_half(w)) for w in range(1, strip_max + 1)]
    return {"windows": windows, "strips": strips,
            "seconds": round(time.perf_counter() - began, 3)}


def strip_cases(width: int, half: int) -> list[tuple[int, bool, bool, int | None, int | None]]:
    """The cases of :func:`check_strip`: (p's rank in the strip, bottom edge?, top edge?,
    left distance, right distance), for boards larger than the strip and the window.

    >>> len(strip_cases(1, 1))
    9
    """
    sides = [*range(half), None]
    out = []
    for k in range(width):
        for bottom in (True, False):
            for top in (True, False):
                if bottom and top:
                    continue  # the board would be the strip itself
                for left in sides:
                    for right in sides:
                        if left is not None and right is not None:
                            continue
                        out.append((k, bottom, top, left, right))
    return out


def encode_strip(width: int, half: int, k: int, bottom: bool, top: bool, left: int | None,
                 right: int | None,
                 colours: tuple[int, ...] = (sat.BLACK, sat.WHITE)) -> tuple[list[list[int]], int]:
    """One strip case: every empty point lies in ``width`` consecutive ranks, p the
    leftmost (then lowest) of them, at rank ``k`` of the strip."""
    lo_r = -k - (0 if bottom else 1)
    hi_r = width - 1 - k + (0 if top else 1)
    lo_f = -(left if left is not None else half)
    hi_f = right if right is not None else half
    cells = [(r, f) for r in range(lo_r, hi_r + 1) for f in range(lo_f, hi_f + 1)]

    def possible(rf: Cell) -> bool:
        r, f = rf
        if (bottom and r < -k) or (top and r > width - 1 - k):
            return False
        if left is not None and f < -left:
            return False
        return not (right is not None and f > right)

    in_strip = range(-k, width - k)
    filled = [(r, f) for r, f in cells
              if r not in in_strip or f < 0 or (f == 0 and r < 0)]
    return encode_region(cells, possible, filled, [(0, 0)], colours)


def check_strip(width: int, half: int, **weaken: object) -> dict[str, object]:
    """Solve every strip case; the strip lemma holds for ``width`` when all are UNSAT.

    ``certified``: the UNSAT cases whose DRUP proof the backward checker accepted.
    """
    began = time.perf_counter()
    found = {"unsat": 0, "sat": 0}
    first_sat = None
    certified = 0
    for case in strip_cases(width, half):
        clauses, _ = encode_strip(width, half, *case, **weaken)  # type: ignore[arg-type]
        result, ok = solve_certified(clauses)
        found[result] += 1
        certified += ok
        if result == "sat" and first_sat is None:
            first_sat = case
    return {"width": width, "window_files": 2 * half + 1, "cases": sum(found.values()),
            **found, "certified": certified, "first_sat_case": first_sat,
            "seconds": round(time.perf_counter() - began, 3)}
