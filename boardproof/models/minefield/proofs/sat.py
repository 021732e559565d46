"""SAT encoding of a Minefield "dead draw": the static check behind the no-draw claim.

For a board size ``n`` the formula's models, projected on the board variables, are
exactly the n x n boards that

1. **glyph-free** — hold none of the three forbidden glyphs (rules/minefield.md);
2. **stuck** — neither colour can place anywhere (every empty point would create a
   glyph for Black and for White);
3. **no path** — Black has no orthogonal path joining ranks 1 and n, and White none
   joining files a and the last file;

plus the **proved lemmas** (:data:`LEMMAS`), each a property every reachable position
has. UNSAT therefore proves that no reachable dead position without a winner exists on
the n x n board. A model is only a *candidate*: :mod:`boardproof.models.minefield.research.claims`
then
searches for a legal game reaching it.

Variables (cell index ``p = rank_index * n + file_index``, ``a1`` is 0)::

    B(p) = 1 + p            black stone on p
    W(p) = 1 + n*n + p      white stone on p
    then auxiliaries: glyph-match witnesses, reachability sets, symmetry chains

"No path" for Black is a closed set ``R`` of black stones: every black stone of rank 1
is in ``R``; a black stone next to a member is a member; no member lies on rank n.
Such a set exists exactly when the black stones reachable from rank 1 miss rank n,
i.e. when Black has no path (sound and complete). White's is the same with files.

>>> enc = encode(3)
>>> enc.n, enc.nvars > 18, len(enc.clauses) > 0
(3, True, True)
>>> solve(enc).result
'unsat'
>>> weak = encode(3, Options(lemmas=()))
>>> r = solve(weak); r.result
'sat'
>>> has_pattern(r.board, crosscuts(3))  # a static "draw" that breaks the lemma
True
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield.board import (
    CELL_OF,
    EMPTY_CELL,
    cell,
    cell_glyphs,
    neighbours,
    symmetry_point,
)
from boardproof.models.minefield.proofs.glyph_sets import check_set, set_glyphs, set_label
from boardproof.models.minefield.rules import from_cells, parse_cells
from boardproof.solvers.sat.child import open_solver
from boardproof.solvers.sat.solving import (
    check_solver,
    run_solver,
    save_proof,
)

#: the cell states of the game's cell boards (one colour convention)
EMPTY = EMPTY_CELL
BLACK, WHITE = CELL_OF
#: a board: one state per cell, index ``rank_index * n + file_index``
Board = tuple[int, ...]
#: a glyph instance: the (cell, state) pairs that make it, cells sorted
Glyph = tuple[tuple[int, int], ...]

#: the parts of the formula (see the module docstring)
PARTS = ("glyph", "stuck", "nopath")
FILLS = ("", "some_empty", "full")

#: lemmas that may be added: each is a property of every reachable position, proved in
#: :data:`LEMMA_PROOFS` and checked on every reachable position of small boards.
LEMMAS = ("crosscut",)

LEMMA_PROOFS = {
    "crosscut": (
        "No 2x2 crosscut (b w / w b, all four points filled) occurs in a reachable "
        "position. Proof: every position of a legal game is glyph-free (the start is "
        "empty; a placement can only create glyphs containing the placed stone, and the "
        "rules forbid those). Consider the move that placed the last of the four stones "
        "of a crosscut. Just before it the 2x2 area held two stones of one colour on one "
        "diagonal, one stone of the other colour on the other diagonal, and one empty "
        "point: a hard corner, in a position of a legal game, a contradiction."
    ),
}

#: Lemma H, the general (every n) replacement for the SAT *full* step, used by the
#: ``fill`` method (:data:`METHODS`); checked by brute force in
#: ``tests/test_lemma_hex.py`` (every full board, n <= 4; n = 5 as a long test).
FULL_BOARD_LEMMA_NAME = "Lemma H (full boards)"
FULL_BOARD_LEMMA = (
    "On a full board (every point holds a stone) with no 2x2 crosscut, one colour has an "
    "orthogonal path joining its two edges. Proof. Index points (r, c), rank index r and "
    "file index c from 0 to n-1, and view the n x n board as an n x n Hex rhombus: (r, c) is "
    "adjacent to its (at most) 4 orthogonal neighbours and to the two diagonal points "
    "(r-1, c+1) and (r+1, c-1) (one diagonal direction only). Every point then has at most "
    "6 neighbours and the cells form the usual Hex board. Give Black the Hex sides r = 0 and "
    "r = n-1 (ranks 1 and n) and White the sides c = 0 and c = n-1 (files a and the last "
    "file); each player owns two opposite sides. By the Hex theorem (D. Gale, 'The Game of "
    "Hex and the Brouwer Fixed-Point Theorem', Amer. Math. Monthly 86 (1979) 818-827; "
    "Gale's board uses the other diagonal, and the mirror image c -> n-1-c maps one board "
    "onto the other and keeps each player's pair of sides), every colouring of all the "
    "cells in two colours contains a black chain of Hex-adjacent black cells joining "
    "Black's sides or a white chain of Hex-adjacent white cells joining White's sides; let "
    "X be that colour and Y the other. Each step of the chain is "
    "orthogonal or diagonal. Take a diagonal step between X stones at (r, c) and "
    "(r+1, c-1) (the step from (r, c) to (r-1, c+1) is the same step read backwards). Its "
    "2x2 area (ranks r, r+1; files c-1, c) has two other points, (r, c-1) and (r+1, c). "
    "If (r, c-1) holds X, replace the step by (r, c) -> (r, c-1) -> (r+1, c-1); if (r+1, c) "
    "holds X, by (r, c) -> (r+1, c) -> (r+1, c-1): two orthogonal steps between X stones. "
    "Otherwise both points hold Y (the board is full), so the area is X on one diagonal and "
    "Y on the other with all four points filled: a crosscut, excluded. Replacing every "
    "diagonal step this way keeps the chain's first and last points, so the result is an "
    "orthogonally connected sequence of X stones from one of X's edges to the other: an "
    "orthogonal path, i.e. X has won. (The inserted points lie inside the board, in the "
    "step's own 2x2 area.) Use in the no-draw proof: a reachable dead position without a "
    "winner would be glyph-free and stuck, hence full by the SAT *fill* step; crosscut-free "
    "by the crosscut lemma; hence won by Lemma H: a contradiction. So for every n on which "
    "the fill step is UNSAT, the claim holds, and the SAT *full* step is not needed."
)



@dataclass(frozen=True)
class Options:
    """How the formula is built. ``Options()`` is the *plain* baseline encoding.

    - ``lemmas``: proved lemmas to add (names from :data:`LEMMAS`);
    - ``symmetry``: lex-leader symmetry breaking over the 8 symmetries of the claim,
      comparing the states of the first ``symmetry`` cells (centre outwards; 0 = off);
    - ``diagonal``: the closed sets are also closed under diagonal steps between stones
      of their colour. Only with ``fill="full"`` and the crosscut lemma: on a full
      crosscut-free board two diagonal stones of one colour always share an orthogonal
      neighbour of that colour, so 8-components are 4-components (the clauses are implied);
    - ``fill``: ``"some_empty"`` adds "some point is empty", ``"full"`` adds "every
      point is filled" (the two steps of the fast method, see :func:`fast_steps`);
    - ``equiv``: glyph-match witnesses are equivalences, not just implications;
    - ``closed_in_stones``: a reachable-set member must be a stone of its colour;
    - ``both_sides``: each colour's no-path part also uses a closed set grown from its
      far edge (redundant, helps propagation);
    - ``glyph_set``: the forbidden glyphs (:mod:`~boardproof.models.minefield.proofs.
      glyph_sets`: a variant's set, or one less a glyph); empty: the rulebook's three.
      The crosscut lemma rests on the hard corner: it needs that glyph in the set.
    """

    lemmas: tuple[str, ...] = ("crosscut",)
    symmetry: int = 0
    equiv: bool = False
    closed_in_stones: bool = False
    both_sides: bool = False
    parts: tuple[str, ...] = PARTS
    fill: str = ""
    diagonal: bool = False
    glyph_set: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.glyph_set:
            object.__setattr__(self, "glyph_set", check_set(self.glyph_set))
            if "crosscut" in self.lemmas and "hard corner" not in self.glyph_set:
                raise InvalidOptionError(
                    "invalid lemma: crosscut rests on the hard corner, not in the glyph "
                    f"set {set_label(self.glyph_set)!r}")
        for lemma in self.lemmas:
            if lemma not in LEMMAS:
                raise InvalidOptionError(
                    f"invalid lemma: expected one of {', '.join(LEMMAS)}, got {lemma!r}"
                )
        if self.fill not in FILLS:
            raise InvalidOptionError(
                f"invalid fill: expected one of {', '.join(FILLS)}, got {self.fill!r}"
            )
        for part in self.parts:
            if part not in PARTS:
                raise InvalidOptionError(
                    f"invalid part: expected one of {', '.join(PARTS)}, got {part!r}"
                )
        if self.diagonal and (self.fill != "full" or "crosscut" not in self.lemmas):
            raise InvalidOptionError(
                "invalid option diagonal: needs fill='full' and the crosscut lemma, got "
                f"fill={self.fill!r}, lemmas={self.lemmas!r}"
            )

    def label(self) -> str:
        """A short description, e.g. ``'plain'``."""
        if self == PLAIN:
            return "plain"
        if self == FAST:
            return "fast"
        bits = [f"lemmas={'+'.join(self.lemmas) or 'none'}"]
        if self.symmetry:
            bits.append(f"sym={self.symmetry}")
        if self.equiv:
            bits.append("equiv")
        if self.closed_in_stones:
            bits.append("closed")
        if self.both_sides:
            bits.append("both")
        if self.diagonal:
            bits.append("diagonal")
        if self.parts != PARTS:
            bits.append("parts=" + "+".join(self.parts))
        if self.glyph_set:
            bits.append("glyphs=" + set_label(self.glyph_set))
        if self.fill:
            bits.append(self.fill)
        return ",".join(bits)


#: the baseline of the issue: the three parts plus the crosscut lemma
PLAIN = Options()
#: the single-formula encoding with the cheap improvements (closed sets of stones)
FAST = Options(closed_in_stones=True)


def fast_steps(n: int) -> list[tuple[str, Options]]:
    """The two formulas of the fast ("split") method for size ``n``.

    ``fill``: glyph-free, stuck and *some point empty* (UNSAT: a stuck glyph-free
    board is full). ``full``: every point filled, no crosscut, neither path (UNSAT:
    a full crosscut-free board has a winner); its closed sets are also closed under
    diagonal steps (implied there, see :class:`Options`). Together they refute the plain formula:
    a model of it is full by the first and then a model of the second. Both break the
    claim's 8 symmetries (lex-leader on the n central points).

    >>> [name for name, _ in fast_steps(4)]
    ['fill', 'full']
    """
    return [
        ("fill", Options(lemmas=(), parts=("glyph", "stuck"), fill="some_empty", symmetry=n)),
        (
            "full",
            Options(
                parts=("nopath",), fill="full", closed_in_stones=True, diagonal=True, symmetry=n
            ),
        ),
    ]


#: encodings selectable by name: "split" is the two-step method of :func:`fast_steps`
ENCODINGS = {"plain": PLAIN, "fast": FAST}
#: "fill" runs only the split method's fill step and proves the full step by
#: :data:`FULL_BOARD_LEMMA` (Lemma H) instead of SAT
METHODS = ("split", "plain", "fast", "fill")
#: how each method settles the full-board step (the ``full_step`` field of a report row)
FULL_STEP = {"split": "sat", "plain": "sat", "fast": "sat", "fill": "lemma-hex"}


# ---------------------------------------------------------------------------
# geometry and glyphs
# ---------------------------------------------------------------------------


def _other(colour: int) -> int:
    return WHITE if colour == BLACK else BLACK


def glyphs(n: int) -> list[Glyph]:
    """Every instance of the three forbidden glyphs on the n x n board (the rules'
    patterns, :func:`boardproof.models.minefield.board.cell_glyphs`).

    Hard corner: in a 2x2 area two stones of one colour on a diagonal, one of the other
    colour on the other diagonal, the fourth point empty (8 per area). 2x3 and 2x4
    switches: corners hold two stones of each colour, each colour on opposite corners,
    the non-corner points empty (2 per area, both orientations).

    >>> len(glyphs(2))
    8
    >>> len(glyphs(3)) == 4 * 8 + 4 * 2
    True
    """
    return cell_glyphs(n)


def crosscuts(n: int) -> list[Glyph]:
    """The 2x2 crosscut patterns (both colourings of every 2x2 area).

    >>> len(crosscuts(3))
    8
    """
    out: list[Glyph] = []
    for r in range(n - 1):
        for f in range(n - 1):
            d1 = (cell(n, r, f), cell(n, r + 1, f + 1))
            d2 = (cell(n, r, f + 1), cell(n, r + 1, f))
            for x in (BLACK, WHITE):
                g = [(d1[0], x), (d1[1], x), (d2[0], _other(x)), (d2[1], _other(x))]
                out.append(tuple(sorted(g)))
    return out


#: The symmetries of the claim: (transpose?, flip ranks?, flip files?). A transform that
#: exchanges ranks and files also exchanges the colours (Black's edges become White's).
SYMMETRIES = tuple(
    (t, fr, ff) for t in (False, True) for fr in (False, True) for ff in (False, True)
)


#: each of :data:`SYMMETRIES` as the game's symmetry number
#: (:func:`boardproof.models.minefield.board.symmetry_point`)
GAME_SYMMETRY = {
    (False, False, False): 0, (False, False, True): 2, (False, True, False): 3,
    (False, True, True): 1, (True, False, False): 4, (True, False, True): 7,
    (True, True, False): 6, (True, True, True): 5,
}  # fmt: skip


def transform_cell(n: int, p: int, sym: tuple[bool, bool, bool]) -> int:
    """Image of cell ``p`` under symmetry ``sym`` (see :data:`SYMMETRIES`).

    >>> transform_cell(3, 1, (True, False, False))
    3
    """
    r, f = divmod(p, n)
    f2, r2 = symmetry_point(GAME_SYMMETRY[sym], f, r, n)
    return r2 * n + f2


def transform_board(n: int, board: Board, sym: tuple[bool, bool, bool]) -> Board:
    """Image of a board: cells moved, colours exchanged when ``sym`` transposes.

    >>> transform_board(2, (1, 0, 0, 2), (True, False, False))
    (2, 0, 0, 1)
    """
    out = [EMPTY] * (n * n)
    for p, state in enumerate(board):
        if state and sym[0]:
            state = _other(state)
        out[transform_cell(n, p, sym)] = state
    return tuple(out)


# ---------------------------------------------------------------------------
# the encoding
# ---------------------------------------------------------------------------


@dataclass
class Encoding:
    """A CNF over the board variables and auxiliaries, with its meta-data."""

    n: int
    options: Options
    clauses: list[list[int]] = field(default_factory=list)
    nvars: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def black(self, p: int) -> int:
        return 1 + p

    def white(self, p: int) -> int:
        return 1 + self.n * self.n + p

    @property
    def board_vars(self) -> int:
        return 2 * self.n * self.n

    def new_var(self) -> int:
        self.nvars += 1
        return self.nvars

    def match(self, p: int, state: int) -> list[int]:
        """Literals that together say cell ``p`` is in ``state``."""
        if state == BLACK:
            return [self.black(p)]
        if state == WHITE:
            return [self.white(p)]
        return [-self.black(p), -self.white(p)]

    def stone(self, p: int, colour: int) -> int:
        return self.black(p) if colour == BLACK else self.white(p)

    def decode(self, model: Sequence[int]) -> Board:
        """The board of a solver model."""
        true = {lit for lit in model if lit > 0}
        return tuple(
            BLACK if self.black(p) in true else WHITE if self.white(p) in true else EMPTY
            for p in range(self.n * self.n)
        )

    def assumptions(self, board: Board) -> list[int]:
        """Literals fixing every board variable to ``board``."""
        out: list[int] = []
        for p, state in enumerate(board):
            out.append(self.black(p) if state == BLACK else -self.black(p))
            out.append(self.white(p) if state == WHITE else -self.white(p))
        return out

    def blocking_clause(self, board: Board) -> list[int]:
        return [-lit for lit in self.assumptions(board)]

    def dimacs(self) -> str:
        """The formula in DIMACS CNF."""
        lines = [f"p cnf {self.nvars} {len(self.clauses)}"]
        lines += [" ".join(map(str, c)) + " 0" for c in self.clauses]
        return "\n".join(lines) + "\n"


def encode(n: int, options: Options = PLAIN) -> Encoding:
    """The dead-draw formula for the n x n board (see the module docstring).

    >>> encode(2).counts["glyph"]
    8
    """
    if not 1 <= n <= 26:
        raise InvalidOptionError(f"invalid size: expected 1 to 26, got {n!r}")
    enc = Encoding(n, options)
    enc.nvars = enc.board_vars
    start = 0

    def mark(name: str) -> None:
        nonlocal start
        enc.counts[name] = enc.counts.get(name, 0) + len(enc.clauses) - start
        start = len(enc.clauses)

    for p in range(n * n):
        enc.clauses.append([-enc.black(p), -enc.white(p)])
    mark("cells")
    all_glyphs = set_glyphs(n, options.glyph_set) if options.glyph_set else glyphs(n)
    if "glyph" in options.parts:
        for g in all_glyphs:
            enc.clauses.append([-lit for p, s in g for lit in enc.match(p, s)])
        mark("glyph")
    if "crosscut" in options.lemmas:
        for g in crosscuts(n):
            enc.clauses.append([-lit for p, s in g for lit in enc.match(p, s)])
        mark("lemma_crosscut")
    if "stuck" in options.parts:
        _encode_stuck(enc, all_glyphs)
        mark("stuck")
    if "nopath" in options.parts:
        for colour in (BLACK, WHITE):
            _encode_no_path(enc, colour, from_far_edge=False)
            if options.both_sides:
                _encode_no_path(enc, colour, from_far_edge=True)
        mark("nopath")
    if options.fill == "full":
        for p in range(n * n):
            enc.clauses.append([enc.black(p), enc.white(p)])
        mark("full")
    elif options.fill == "some_empty":
        some = []
        for p in range(n * n):
            var = enc.new_var()
            some.append(var)
            enc.clauses += [[-var, -enc.black(p)], [-var, -enc.white(p)]]
        enc.clauses.append(some)
        mark("some_empty")
    if options.symmetry:
        _encode_symmetry(enc, options.symmetry)
        mark("symmetry")
    return enc


def _encode_stuck(enc: Encoding, all_glyphs: list[Glyph]) -> None:
    """Every (empty point, colour) has a glyph that placing there would complete."""
    n = enc.n
    witnesses: dict[tuple[tuple[int, int], ...], int] = {}
    by_placement: dict[tuple[int, int], list[int]] = {}
    for g in all_glyphs:
        for p, s in g:
            if s == EMPTY:
                continue
            rest = tuple(item for item in g if item[0] != p)
            var = witnesses.get(rest)
            if var is None:
                var = enc.new_var()
                witnesses[rest] = var
                lits = [lit for q, t in rest for lit in enc.match(q, t)]
                for lit in lits:
                    enc.clauses.append([-var, lit])
                if enc.options.equiv:
                    enc.clauses.append([var] + [-lit for lit in lits])
            by_placement.setdefault((p, s), []).append(var)
    for p in range(n * n):
        for colour in (BLACK, WHITE):
            enc.clauses.append(
                [enc.black(p), enc.white(p)] + sorted(set(by_placement.get((p, colour), [])))
            )


def _encode_no_path(enc: Encoding, colour: int, *, from_far_edge: bool) -> None:
    """A closed set of ``colour`` stones grown from one edge that misses the other."""
    n = enc.n
    reach = [enc.new_var() for _ in range(n * n)]

    def on_edge(p: int, first: bool) -> bool:
        r, f = divmod(p, n)
        coord = r if colour == BLACK else f
        return coord == (0 if first else n - 1)

    start_first = not from_far_edge
    for p in range(n * n):
        stone = enc.stone(p, colour)
        if on_edge(p, start_first):
            enc.clauses.append([-stone, reach[p]])
        if on_edge(p, not start_first):
            enc.clauses.append([-reach[p]])
        near = neighbours(n, p)
        if enc.options.diagonal:
            r, f = divmod(p, n)
            near += [
                (r + dr) * n + f + df
                for dr in (-1, 1)
                for df in (-1, 1)
                if 0 <= r + dr < n and 0 <= f + df < n
            ]
        for q in near:
            enc.clauses.append([-reach[p], -enc.stone(q, colour), reach[q]])
        if enc.options.closed_in_stones:
            enc.clauses.append([-reach[p], stone])


def _encode_symmetry(enc: Encoding, prefix: int) -> None:
    """Lex-leader constraints ``x <= sigma(x)`` on the first ``prefix`` board variables.

    The claim's formula is invariant under the 8 symmetries (as a set of boards), so the
    lexicographically least board of each orbit satisfies every constraint: sound.
    """
    n = enc.n
    order: list[int] = []
    centre = (n - 1) / 2
    cells = sorted(range(n * n), key=lambda p: (abs(p // n - centre) + abs(p % n - centre), p))
    for p in cells:
        order += [enc.black(p), enc.white(p)]
    order = order[: 2 * prefix]
    for sym in SYMMETRIES[1:]:
        image: dict[int, int] = {}
        for p in range(n * n):
            q = transform_cell(n, p, sym)
            if sym[0]:
                image[enc.black(p)] = enc.white(q)
                image[enc.white(p)] = enc.black(q)
            else:
                image[enc.black(p)] = enc.black(q)
                image[enc.white(p)] = enc.white(q)
        xs = order
        ys = [image[x] for x in xs]
        equal_so_far: int | None = None
        for x, y in zip(xs, ys, strict=True):
            if x == y:
                continue
            guard = [] if equal_so_far is None else [-equal_so_far]
            enc.clauses.append(guard + [-x, y])
            nxt = enc.new_var()
            enc.clauses.append(guard + [-x, -y, nxt])
            enc.clauses.append(guard + [x, y, nxt])
            equal_so_far = nxt


# ---------------------------------------------------------------------------
# solving
# ---------------------------------------------------------------------------


@dataclass
class SolveResult:
    """The outcome of one solver call."""

    n: int
    result: str  # "unsat" | "sat"
    seconds: float
    variables: int
    clauses: int
    solver: str
    encoding: str
    board: Board | None = None
    proof_lines: int | None = None
    proof_file: str | None = None
    cubes: int = 1

    def as_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "result": self.result,
            "seconds": round(self.seconds, 3),
            "variables": self.variables,
            "clauses": self.clauses,
            "solver": self.solver,
            "encoding": self.encoding,
            "board": board_fen(self.board, self.n) if self.board is not None else None,
            "proof_lines": self.proof_lines,
            "proof_file": self.proof_file,
            "cubes": self.cubes,
        }


def solve(
    enc: Encoding,
    solver: str = "cadical195",
    *,
    proof_file: str | Path | None = None,
    assumptions: Sequence[int] = (),
) -> SolveResult:
    """Solve the formula; with ``proof_file`` write its DRUP proof there (``.gz``: gzip)."""
    check_solver(solver, proof=proof_file is not None)
    began = time.perf_counter()
    with open_solver(solver, enc.clauses, with_proof=proof_file is not None) as s:
        sat = run_solver(s, assumptions)
        seconds = time.perf_counter() - began
        board = enc.decode(s.get_model() or []) if sat else None
        lines = None
        written = None
        if proof_file is not None and not sat:
            lines = s.call(save_proof, str(proof_file))
            written = str(Path(proof_file))
    return SolveResult(
        n=enc.n,
        result="sat" if sat else "unsat",
        seconds=seconds,
        variables=enc.nvars,
        clauses=len(enc.clauses),
        solver=solver,
        encoding=enc.options.label(),
        board=board,
        proof_lines=lines,
        proof_file=written,
    )


def cubes(n: int, depth: int) -> list[list[tuple[int, int]]]:
    """Split the search space: every (cell, state) assignment of ``depth`` central cells.

    The cubes cover all boards, so the formula is UNSAT iff every cube is.

    >>> len(cubes(5, 2))
    9
    """
    centre = (n - 1) / 2
    cells = sorted(range(n * n), key=lambda p: (abs(p // n - centre) + abs(p % n - centre), p))
    chosen = cells[:depth]
    out: list[list[tuple[int, int]]] = [[]]
    for p in chosen:
        out = [c + [(p, s)] for c in out for s in (EMPTY, BLACK, WHITE)]
    return out


def cube_assumptions(enc: Encoding, cube: Sequence[tuple[int, int]]) -> list[int]:
    """Literals fixing the cells of a cube."""
    out: list[int] = []
    for p, state in cube:
        out.append(enc.black(p) if state == BLACK else -enc.black(p))
        out.append(enc.white(p) if state == WHITE else -enc.white(p))
    return out


def iter_boards(
    enc: Encoding, solver: str = "cadical195", limit: int | None = None
) -> Iterator[Board]:
    """Every model projected on the board (blocking clauses), at most ``limit``."""
    count = 0
    with open_solver(solver, enc.clauses) as s:
        while (limit is None or count < limit) and run_solver(s):
            board = enc.decode(s.get_model() or [])
            yield board
            count += 1
            s.add_clause(enc.blocking_clause(board))


def count_boards(enc: Encoding, solver: str = "cadical195") -> int:
    """The number of distinct boards among the models."""
    return sum(1 for _ in iter_boards(enc, solver))


def has_pattern(board: Board, patterns: Sequence[Glyph]) -> bool:
    """Whether ``board`` matches one of ``patterns`` (e.g. :func:`glyphs`).

    >>> has_pattern((1, 2, 2, 1), crosscuts(2)), has_pattern((1, 2, 2, 0), crosscuts(2))
    (True, False)
    """
    return any(all(board[p] == s for p, s in g) for g in patterns)


# ---------------------------------------------------------------------------
# boards as text
# ---------------------------------------------------------------------------


def board_fen(board: Board, n: int, to_move: str = "b") -> str:
    """Minefield notation of a board (rows of the top rank first), without the side.

    >>> board_fen((1, 0, 0, 2), 2)
    '1w/b1'
    """
    return from_cells(board, n).fen().split()[0]


def parse_board(text: str) -> tuple[Board, int]:
    """Inverse of :func:`board_fen` (the first field of a position is enough): the
    game's own notation parser.

    >>> parse_board("1w/b1 b -")
    ((1, 0, 0, 2), 2)
    """
    return parse_cells(text)


def board_picture(board: Board, n: int) -> str:
    """A text picture (rank n on top), ``x`` black, ``o`` white, ``.`` empty.

    >>> print(board_picture((1, 0, 0, 2), 2))
    2 . o
    1 x .
      a b
    """
    lines = []
    for r in range(n - 1, -1, -1):
        marks = " ".join(".xo"[board[r * n + f]] for f in range(n))
        lines.append(f"{r + 1:>{len(str(n))}} {marks}")
    lines.append(" " * (len(str(n)) + 1) + " ".join(chr(ord("a") + f) for f in range(n)))
    return "\n".join(lines)


def with_options(base: Options, **changes: object) -> Options:
    """A copy of ``base`` with fields changed (validated)."""
    return replace(base, **changes)  # type: ignore[arg-type]
