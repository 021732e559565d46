"""Minefield's board: bit layout, moves, glyph tables and per-size masks.

Rules only (no search). The position logic is in
:mod:`boardproof.models.minefield.rules`.

Bit layout
----------
A board of n x n points is one Python int per colour. Each rank uses
``W = n + GUARD`` bits: n bits for the points, then ``GUARD = 3`` guard bits that
are always 0, so that shifting a whole board by up to 3 files (and any number
of ranks) never carries a stone into a point of another rank. ``n = 4``::

    rank 4 | 21 22 23 24 | 25 26 27      bit(file f, rank r) = r * W + f
    rank 3 | 14 15 16 17 | 18 19 20      (f, r 0-based; a1 is bit 0)
    rank 2 |  7  8  9 10 | 11 12 13      guard columns: never set
    rank 1 |  0  1  2  3 |  4  5  6
              a  b  c  d

Shifting left by 1 moves every stone one file east, by W one rank north.
Bit order is the canonical move order (rank 1 first, then by file).

>>> t = tables(4)
>>> t.width, bin(t.full).count("1"), t.bit_of[Move(3, 3)]
(7, 16, 24)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

BLACK, WHITE = 0, 1
SYMBOLS = ("b", "w")
COLOUR_NAMES = ("Black", "White")
MIN_SIZE, MAX_SIZE = 2, 26
#: board size of ``start()`` when none is given (a documented default, not a rule)
DEFAULT_SIZE = 11
#: [choice] rules/minefield.md "Winning": the rulebook's orthogonal path (default) or
#: the designer's program's ortho-diagonal (8-neighbour) path (``--win orthodiagonal``).
WIN_RULES = ("orthogonal", "orthodiagonal")
#: guard bits after each rank (>= the largest file offset of a glyph window, 3)
GUARD = 3
FILES = "abcdefghijklmnopqrstuvwxyz"

SWAP_CODE, PASS_CODE = -1, -2


class Move(NamedTuple):
    """A move: a placement at (file, rank), 0-based, or :data:`SWAP` / :data:`PASS`.

    >>> str(Move(2, 2)), str(SWAP), str(PASS)
    ('c3', 'swap', 'pass')
    """

    file: int
    rank: int

    def __str__(self) -> str:
        if self.file >= 0:
            return f"{FILES[self.file]}{self.rank + 1}"
        return "swap" if self.file == SWAP_CODE else "pass"

    def __repr__(self) -> str:
        """The notation, so that a list of moves reads as moves: ``[b3, c3]``."""
        return str(self)

    @property
    def is_placement(self) -> bool:
        return self.file >= 0


SWAP = Move(SWAP_CODE, SWAP_CODE)
PASS = Move(PASS_CODE, PASS_CODE)


# ---------------------------------------------------------------------------
# Glyphs (rules/minefield.md "Forbidden glyphs")
# ---------------------------------------------------------------------------

Pattern = dict[tuple[int, int], str]  # (dx, dy) -> "X" | "Y" | "E"

#: the glyphs of the rulebook (the ``standard`` variant)
GLYPH_NAMES = ("hard corner", "2x3 switch", "2x4 switch")
#: every glyph of every variant
ALL_GLYPH_NAMES = (*GLYPH_NAMES, "pinwheel", "cartwheel")
#: [choice] docs/games/minefield.md "Variants": AbstractPlay's variants of the glyph set
VARIANTS = ("standard", "pinwheel", "cartwheel")
STANDARD = VARIANTS[0]
#: the forbidden glyphs of each variant (AbstractPlay's ``forbidden`` list)
VARIANT_GLYPHS: dict[str, tuple[str, ...]] = {
    "standard": GLYPH_NAMES,
    "pinwheel": ("hard corner", "2x3 switch", "pinwheel"),
    "cartwheel": ("hard corner", "2x3 switch", "pinwheel", "cartwheel"),
}
#: the glyphs whose points just beyond the board count as stones: beyond rank 1 and
#: rank n as Black's, beyond file a and the last file as White's (the owner of that edge)
EDGE_GLYPHS = ("cartwheel",)

#: a 2x2 block of points (pinwheel, cartwheel) and its 8 orthogonal neighbours, in order
#: round it: two below (left to right), two right (upward), two above, two left::
#:
#:      . 5 4 .
#:      6 E E 3
#:      7 E E 2
#:      . 0 1 .
_BLOCK = ((1, 1), (2, 1), (1, 2), (2, 2))
_RING = ((1, 0), (2, 0), (3, 1), (3, 2), (2, 3), (1, 3), (0, 2), (0, 1))


def glyph_patterns(names: tuple[str, ...] = GLYPH_NAMES) -> dict[str, list[Pattern]]:
    """Every orientation of the glyphs ``names`` (the rulebook's three unless given),
    colours as X / Y, empty as E, up to an exchange of X and Y.

    >>> {name: len(p) for name, p in glyph_patterns().items()}
    {'hard corner': 4, '2x3 switch': 2, '2x4 switch': 2}

    The pinwheel's ring of neighbours alternates X and Y (a quarter turn keeps it, a
    reflection exchanges X and Y); the cartwheel has X on two opposite sides and Y on the
    other two (a quarter turn exchanges X and Y): one orientation each.

    >>> {name: len(p) for name, p in glyph_patterns(("pinwheel", "cartwheel")).items()}
    {'pinwheel': 1, 'cartwheel': 1}
    """
    patterns: dict[str, list[Pattern]] = {name: [] for name in ALL_GLYPH_NAMES}
    diagonals = (((0, 0), (1, 1)), ((1, 0), (0, 1)))
    for full, other in (diagonals, diagonals[::-1]):
        for y_cell, e_cell in (other, other[::-1]):
            patterns["hard corner"].append(
                {full[0]: "X", full[1]: "X", y_cell: "Y", e_cell: "E"}
            )
    for length, name in ((3, "2x3 switch"), (4, "2x4 switch")):
        last = length - 1
        flat: Pattern = {(0, 0): "X", (last, 1): "X", (last, 0): "Y", (0, 1): "Y"}
        for x in range(1, last):
            flat[(x, 0)] = flat[(x, 1)] = "E"
        patterns[name].append(flat)
        patterns[name].append({(y, x): s for (x, y), s in flat.items()})
    block: Pattern = dict.fromkeys(_BLOCK, "E")
    patterns["pinwheel"].append({**block, **{c: "XY"[k % 2] for k, c in enumerate(_RING)}})
    patterns["cartwheel"].append({**block, **{c: "XY"[k // 2 % 2] for k, c in enumerate(_RING)}})
    return {name: patterns[name] for name in names}


Role = tuple[tuple[int, int, str], ...]  # other cells relative to the new stone


def glyph_roles(names: tuple[str, ...] = GLYPH_NAMES) -> dict[str, list[Role]]:
    """For each glyph of ``names`` (the rulebook's three unless given), the ways a new
    stone of the mover (M) can complete it.

    A role lists the other cells of the window relative to the new stone, each
    with the state it needs: M (mover), O (opponent) or E (empty). Colour
    inversions are included (X and Y each played by M and by O).

    >>> {name: len(r) for name, r in glyph_roles().items()}
    {'hard corner': 12, '2x3 switch': 8, '2x4 switch': 8}
    >>> {name: len(r[0]) for name, r in glyph_roles(("pinwheel", "cartwheel")).items()}
    {'pinwheel': 11, 'cartwheel': 11}
    """
    roles: dict[str, list[Role]] = {}
    for name, patterns in glyph_patterns(names).items():
        found: set[Role] = set()
        for pattern in patterns:
            for x_as, y_as in (("M", "O"), ("O", "M")):
                states = {c: {"X": x_as, "Y": y_as, "E": "E"}[s] for c, s in pattern.items()}
                for (cx, cy), state in states.items():
                    if state != "M":
                        continue
                    role = tuple(
                        sorted(
                            (x - cx, y - cy, s)
                            for (x, y), s in states.items()
                            if (x, y) != (cx, cy)
                        )
                    )
                    found.add(role)
        roles[name] = sorted(found)
    return roles


_ROLES = glyph_roles(ALL_GLYPH_NAMES)
assert [len(r) for r in _ROLES.values()] == [12, 8, 8, 8, 8]
# no role reaches further than GUARD files from the new stone (see the layout above)
assert max(abs(dx) for roles in _ROLES.values() for role in roles for dx, _, _ in role) == GUARD

PlacementFunction = Callable[[int, int, int], int]


def compile_role_function(width: int, names: tuple[str, ...]) -> PlacementFunction:
    """Generate ``f(M, O, E) -> bitboard`` of the points where M may not place.

    Straight-line code: one shift per (state, offset) term, one AND per term
    of each role, one OR per role — a fixed number of whole-board operations
    for any board size, no loop over points or windows.
    """
    terms: dict[tuple[str, int], str] = {}
    products: list[str] = []
    for name in names:
        for role in _ROLES[name]:
            factors = []
            for dx, dy, state in role:
                offset = dx + dy * width
                key = (state, offset)
                if key not in terms:
                    sign = "p" if offset >= 0 else "m"
                    terms[key] = f"{state}_{sign}{abs(offset)}"
                factors.append(terms[key])
            products.append("(" + " & ".join(sorted(factors)) + ")")
    lines = ["def forbidden(M, O, E):"]
    for (state, offset), var in sorted(terms.items(), key=lambda kv: kv[1]):
        # a point p is in var when point p + offset holds ``state``
        expr = f"{state} >> {offset}" if offset >= 0 else f"{state} << {-offset}"
        lines.append(f"    {var} = {expr}")
    lines.append("    return (" + "\n        | ".join(products) + ")")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the tables above
    function: PlacementFunction = namespace["forbidden"]
    return function


def compile_window_function(width: int) -> PlacementFunction:
    """The hot-path version of ``forbidden``: windows anchored at their bottom-left point.

    Same result as ``compile_role_function(width, GLYPH_NAMES)`` (the tests check
    it), with fewer operations: for a window anchored at q, ``Xk`` holds q when
    the point q + offset k has state X, shared by every window shape. Each
    glyph is written once per role of the new stone, with common factors named:

    - 2x2 (cells 0=(0,0), 1=(1,0), 2=(0,1), 3=(1,1); diagonals {0,3} and {1,2}):
      new stone at 0 is forbidden if 3 is M and {1,2} hold one O and one empty
      (the new stone completes a full diagonal), or if 3 is empty and 1, 2 are
      both O (the new stone is the lone stone); likewise for 1, 2 and 3.
    - 2xk / kx2 switch (corners c0, c1 (same rank), c2, c3 (opposite c0), inner
      points empty): a new stone at c0 needs c3 M and c1, c2 O; and so on.

    The conditions found at anchor q are shifted to the new stone's point
    (q + offset), grouped by offset. Anchors in guard columns never match,
    because every role tests every other corner against a board set.
    """
    w = width
    lines = ["def forbidden(M, O, E):"]
    made: set[str] = set()

    def term(state: str, offset: int) -> str:
        name = f"{state}{offset}"
        if name not in made:
            made.add(name)
            lines.append(f"    {name} = {state} >> {offset}" if offset else f"    {name} = {state}")
        return name

    by_offset: dict[int, list[str]] = {}

    def forbid(offset: int, expr: str) -> None:
        by_offset.setdefault(offset, []).append(expr)

    # 2x2: hard corners
    c = (0, 1, w, w + 1)
    m = [term("M", k) for k in c]
    o = [term("O", k) for k in c]
    e = [term("E", k) for k in c]
    lines.append(f"    xd2 = ({o[1]} & {e[2]}) | ({e[1]} & {o[2]})")
    lines.append(f"    od2 = {o[1]} & {o[2]}")
    lines.append(f"    xd1 = ({o[0]} & {e[3]}) | ({e[0]} & {o[3]})")
    lines.append(f"    od1 = {o[0]} & {o[3]}")
    forbid(c[0], f"({m[3]} & xd2) | ({e[3]} & od2)")
    forbid(c[3], f"({m[0]} & xd2) | ({e[0]} & od2)")
    forbid(c[1], f"({m[2]} & xd1) | ({e[2]} & od1)")
    forbid(c[2], f"({m[1]} & xd1) | ({e[1]} & od1)")
    # switches: (corner offsets c0, c1, c2, c3), inner points
    lines.append(f"    ih3 = {term('E', 1)} & {term('E', w + 1)}")
    lines.append("    ih4 = ih3 & (ih3 >> 1)")
    lines.append(f"    iv3 = {term('E', w)} & {term('E', w + 1)}")
    lines.append(f"    iv4 = iv3 & (iv3 >> {w})")
    shapes = (
        ("ih3", (0, 2, w, w + 2)),
        ("ih4", (0, 3, w, w + 3)),
        ("iv3", (0, 1, 2 * w, 2 * w + 1)),
        ("iv4", (0, 1, 3 * w, 3 * w + 1)),
    )
    for inner, corners in shapes:
        m = [term("M", k) for k in corners]
        o = [term("O", k) for k in corners]
        lines.append(f"    a_{inner} = {o[1]} & {o[2]} & {inner}")
        lines.append(f"    b_{inner} = {o[0]} & {o[3]} & {inner}")
        forbid(corners[0], f"({m[3]} & a_{inner})")
        forbid(corners[3], f"({m[0]} & a_{inner})")
        forbid(corners[1], f"({m[2]} & b_{inner})")
        forbid(corners[2], f"({m[1]} & b_{inner})")
    parts = []
    for offset in sorted(by_offset):
        group = " | ".join(by_offset[offset])
        parts.append(f"(({group}) << {offset})" if offset else f"({group})")
    lines.append("    return (" + "\n        | ".join(parts) + ")")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the shapes above
    function: PlacementFunction = namespace["forbidden"]
    return function


# ---------------------------------------------------------------------------
# Cell boards: the plain view of a board (SAT encodings, exhaustive walks)
# ---------------------------------------------------------------------------

#: a cell board is a tuple of n * n states, a1 first (cell ``rank * n + file``): the
#: empty state, or the stone of player ``p`` (BLACK / WHITE) as ``CELL_OF[p]``
EMPTY_CELL = 0
CELL_OF = (1, 2)


def cell(n: int, rank: int, file: int) -> int:
    """Cell index of (rank index, file index), both from 0.

    >>> cell(5, 1, 2)
    7
    """
    return rank * n + file


def point_name(n: int, p: int) -> str:
    """Notation of cell ``p``: ``a1`` is 0.

    >>> point_name(5, 7)
    'c2'
    """
    return f"{FILES[p % n]}{p // n + 1}"


def neighbours(n: int, p: int) -> list[int]:
    """Orthogonal neighbours of cell ``p``.

    >>> neighbours(3, 4)
    [1, 3, 5, 7]
    """
    r, f = divmod(p, n)
    out = []
    if r > 0:
        out.append(p - n)
    if f > 0:
        out.append(p - 1)
    if f < n - 1:
        out.append(p + 1)
    if r < n - 1:
        out.append(p + n)
    return out


def cell_glyphs(n: int) -> list[tuple[tuple[int, int], ...]]:
    """Every placed instance of the glyphs (:func:`glyph_patterns`) on the n x n cell
    board, each a sorted tuple of ``(cell, state)``; X and Y are each colour in turn.

    Order: the hard corners area by area (rank, then file), then the 2x3 and the 2x4
    switches (flat, then upright), area by area. Within an area the hard corners with
    the same full diagonal come together, Black's before White's.

    >>> len(cell_glyphs(2))
    8
    >>> len(cell_glyphs(3)) == 4 * 8 + 4 * 2
    True
    """
    patterns = glyph_patterns()
    black, white = CELL_OF
    states = {"E": EMPTY_CELL}
    out: list[tuple[tuple[int, int], ...]] = []

    def place(pattern: Pattern, r: int, f: int, x: int) -> tuple[tuple[int, int], ...]:
        y = white if x == black else black
        colour = {"X": x, "Y": y, **states}
        placed = ((cell(n, r + dy, f + dx), colour[s]) for (dx, dy), s in pattern.items())
        return tuple(sorted(placed))

    corners = patterns["hard corner"]
    groups = (corners[:2], corners[2:])  # the two patterns of each full diagonal
    for r in range(n - 1):
        for f in range(n - 1):
            for group in groups:
                for x in (black, white):
                    out.extend(place(pattern, r, f, x) for pattern in group)
    for name in ("2x3 switch", "2x4 switch"):
        for pattern in patterns[name]:
            width = 1 + max(dx for dx, _ in pattern)
            height = 1 + max(dy for _, dy in pattern)
            for r in range(n - height + 1):
                for f in range(n - width + 1):
                    out.extend(place(pattern, r, f, x) for x in (black, white))
    return out


def glyph_instances(
    n: int, name: str
) -> list[tuple[tuple[int, int], tuple[tuple[int, int], ...]]]:
    """Every placed instance of the glyph ``name`` on the n x n cell board, as ``(origin,
    cells)``: the (file, rank) of the pattern's (0, 0) (:func:`glyph_patterns`) and the
    sorted ``(cell, state)`` of its points on the board, X and Y each colour in turn.

    Every empty point of an instance is on the board. For an edge glyph
    (:data:`EDGE_GLYPHS`) a point just beyond the board is a stone of that edge's owner
    (beyond a corner: of both): an instance needing the other colour there is left out,
    and the points beyond the board are not listed; other glyphs stay on the board.

    >>> len(glyph_instances(4, "pinwheel")), len(glyph_instances(5, "pinwheel"))
    (2, 8)
    >>> [len(cells) for _, cells in glyph_instances(2, "cartwheel")]
    [4]
    """
    black, white = CELL_OF
    edged = name in EDGE_GLYPHS
    out: list[tuple[tuple[int, int], tuple[tuple[int, int], ...]]] = []
    for pattern in glyph_patterns((name,))[name]:
        xs = [dx for dx, _ in pattern]
        ys = [dy for _, dy in pattern]
        margin = 1 if edged else 0
        for r in range(-min(ys) - margin, n - max(ys) + margin):
            for f in range(-min(xs) - margin, n - max(xs) + margin):
                for x in (black, white):
                    colour = {"X": x, "Y": white if x == black else black, "E": EMPTY_CELL}
                    cells = []
                    for (dx, dy), symbol in pattern.items():
                        g, q = f + dx, r + dy
                        state = colour[symbol]
                        if 0 <= g < n and 0 <= q < n:
                            cells.append((cell(n, q, g), state))
                            continue
                        owners = set()
                        if not 0 <= q < n:
                            owners.add(CELL_OF[BLACK])
                        if not 0 <= g < n:
                            owners.add(CELL_OF[WHITE])
                        if not edged or state not in owners or max(-g, g - n + 1) > 1 \
                                or max(-q, q - n + 1) > 1:
                            break
                    else:
                        out.append(((f, r), tuple(sorted(cells))))
    return out


# ---------------------------------------------------------------------------
# Per-size tables, built once per size and cached
# ---------------------------------------------------------------------------


def symmetry_point(s: int, f: int, r: int, n: int) -> tuple[int, int]:
    """Image of point (f, r) under symmetry s; s >= 4 are the transposes.

    0 identity, 1 rotation 180, 2 left-right mirror, 3 top-bottom mirror (these
    keep each colour's edges); 4 transpose, 5 anti-transpose, 6 rotation 90,
    7 rotation 270 (these exchange Black's and White's edges).
    """
    m = n - 1
    return (
        (f, r),
        (m - f, m - r),
        (m - f, r),
        (f, m - r),
        (r, f),
        (m - r, m - f),
        (r, m - f),
        (m - r, f),
    )[s]


class Tables:
    """Masks, move tables and generated glyph functions for one board size."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.width = width = n + GUARD
        row = (1 << n) - 1
        self.full = sum(row << (r * width) for r in range(n))
        bottom, top = row, row << ((n - 1) * width)
        left = sum(1 << (r * width) for r in range(n))
        right = left << (n - 1)
        #: per colour: its two edges (Black: rank 1 and rank n; White: files a and last)
        self.edges = ((bottom, top), (left, right))
        self.moves: list[Move | None] = [None] * (n * width)
        self.bit_of: dict[Move, int] = {}
        for r in range(n):
            for f in range(n):
                move = Move(f, r)
                self.moves[r * width + f] = move
                self.bit_of[move] = r * width + f
        assert len(self.bit_of) == n * n and self.full.bit_count() == n * n
        self.nbytes = (n * width + 7) // 8
        #: byte k of a bitboard with value v -> the moves of its set bits (built lazily)
        self._byte_moves: list[list[tuple[Move, ...] | None]] = [
            [None] * 256 for _ in range(self.nbytes)
        ]
        self.forbidden = compile_window_function(width)
        self.forbidden_by = {name: compile_role_function(width, (name,)) for name in GLYPH_NAMES}
        #: (glyph names, mover) -> their ``forbidden`` (built on first use)
        self._forbidden_of: dict[tuple[tuple[str, ...], int], PlacementFunction] = {}
        #: per symmetry: source bit index -> the single-bit mask of its image
        self.image_masks: list[list[int]] = []
        for s in range(8):
            masks = [0] * (n * width)
            for r in range(n):
                for f in range(n):
                    g, q = symmetry_point(s, f, r, n)
                    masks[r * width + f] = 1 << (q * width + g)
            self.image_masks.append(masks)
        self._canonical: CanonicalFunction | None = None

    def map_bits(self, bitboard: int, symmetry: int) -> int:
        """Image of a bitboard under a symmetry (a loop over its set bits only)."""
        masks = self.image_masks[symmetry]
        image = 0
        while bitboard:
            low = bitboard & -bitboard
            image |= masks[low.bit_length() - 1]
            bitboard ^= low
        return image

    @property
    def canonicalise(self) -> CanonicalFunction:
        """The generated ``f(black, white, to_move)`` of this size (built on first use).

        See :func:`compile_canonical_function`.
        """
        function = self._canonical
        if function is None:
            if self.n <= CANON_TABLE_MAX_SIZE:
                function = compile_canonical_function(self)
            else:
                function = self._canonical_by_transforms
            self._canonical = function
        return function

    def _canonical_by_transforms(
        self, black: int, white: int, to_move: int
    ) -> tuple[int, int, int, int]:
        """The same as the generated canonicaliser, one image at a time (large boards)."""
        best = (black, white, to_move)
        best_sym = 0
        for s in range(1, 8):
            b, w = self.map_bits(black, s), self.map_bits(white, s)
            image = (w, b, 1 - to_move) if s >= 4 else (b, w, to_move)
            if image < best:
                best, best_sym = image, s
        return best[0], best[1], best[2], best_sym

    def placements(self, own: int, opp: int) -> int:
        """Bitboard of the legal placements of the colour whose stones are ``own``."""
        empty = self.full & ~(own | opp)
        return empty & ~self.forbidden(own, opp, empty)

    def variant_placements(self, variant: str, mover: int, own: int, opp: int) -> int:
        """:meth:`placements` of ``mover`` (BLACK / WHITE, whose stones are ``own``) in a
        variant (:data:`VARIANTS`)."""
        empty = self.full & ~(own | opp)
        return empty & ~self.forbidden_for(variant, mover)(own, opp, empty)

    def forbidden_for(self, variant: str, mover: int) -> PlacementFunction:
        """``f(M, O, E)``: the points where ``mover`` (the colour of M) may not place in
        ``variant`` (:data:`VARIANTS`); the standard one is :attr:`forbidden` itself.

        >>> t = tables(4)
        >>> t.forbidden_for("standard", 0) is t.forbidden
        True
        """
        if variant == STANDARD:
            return self.forbidden
        if variant not in VARIANT_GLYPHS:
            raise ValueError(f"unknown variant: expected one of {', '.join(VARIANTS)}, "
                             f"got {variant!r}")  # fmt: skip
        return self.glyph_forbidden(VARIANT_GLYPHS[variant], mover)

    def glyph_forbidden(self, names: tuple[str, ...], mover: int) -> PlacementFunction:
        """``f(M, O, E)``: the points where ``mover`` (the colour of M) would form one of
        the glyphs ``names`` (:data:`ALL_GLYPH_NAMES`), built on first use.

        The cartwheel's points just beyond the board are stones of the edge's owner
        (:data:`EDGE_GLYPHS`): its roles are evaluated one rank up (bit + W), where the
        points beyond every edge have bits: beyond rank 1 the frame's rank 0, beyond rank
        n its rank n + 1, beyond the last file guard column 0, beyond file a guard column
        2 of the rank below (:attr:`edge_stones`). Every cartwheel role asks its 4 block
        points to be empty points of the board, and no role reaches more than GUARD files,
        so a role only matches where the block is on the board, and then its other points
        are board points or points just beyond one edge (never beyond a corner).
        """
        key = (names, mover)
        function = self._forbidden_of.get(key)
        if function is None:
            unknown = [name for name in names if name not in ALL_GLYPH_NAMES]
            if unknown or not names:
                raise ValueError(f"unknown glyph: expected some of {', '.join(ALL_GLYPH_NAMES)}, "
                                 f"got {names!r}")  # fmt: skip
            function = self._forbidden_of[key] = self._compile_forbidden(names, mover)
        return function

    def _compile_forbidden(self, names: tuple[str, ...], mover: int) -> PlacementFunction:
        width, full = self.width, self.full
        plain_names = tuple(name for name in names if name not in EDGE_GLYPHS)
        edge_names = tuple(name for name in names if name in EDGE_GLYPHS)
        plain = compile_role_function(width, plain_names) if plain_names else None
        if not edge_names:
            assert plain is not None
            return plain
        edged = compile_role_function(width, edge_names)
        black_edges, white_edges = self.edge_stones
        mine, theirs = (black_edges, white_edges) if mover == BLACK else (white_edges, black_edges)

        def forbidden(own: int, opp: int, empty: int) -> int:
            found = edged((own << width) | mine, (opp << width) | theirs, empty << width)
            found >>= width
            if plain is not None:
                found |= plain(own, opp, empty)
            return found & full

        return forbidden

    @property
    def edge_stones(self) -> tuple[int, int]:
        """(Black's, White's) points just beyond the board, one rank up (bit + W): what
        the cartwheel counts as stones. The points beyond a corner are left out (no 2x2
        block of the board has one as a neighbour).

        >>> t = tables(2)  # W = 5: frame ranks 0 (beyond rank 1) to 3 (beyond rank 2)
        >>> bin(t.edge_stones[0]), bin(t.edge_stones[1])
        ('0b11000000000000011', '0b1001010010000')
        """
        n, width = self.n, self.width
        row = (1 << n) - 1
        black = row | row << ((n + 1) * width)
        white = 0
        for r in range(1, n + 1):
            white |= 1 << (r * width + n) | 1 << (r * width - 1)
        return black, white

    def connected(self, own: int, colour: int, diagonal: bool) -> int:
        """The stones of ``own`` connected to the first edge of ``colour`` that reach the second.

        Returns 0 when there is no winning path.
        """
        first, second = self.edges[colour]
        group = own & first
        if not group or not own & second:
            return 0
        return flood(group, own, self.width, diagonal) & second

    def moves_of(self, bitboard: int) -> list[Move]:
        """The moves of the set bits of ``bitboard``, in bit (canonical) order."""
        out: list[Move] = []
        table = self._byte_moves
        for k, byte in enumerate(bitboard.to_bytes(self.nbytes, "little")):
            if byte:
                chunk = table[k][byte]
                if chunk is None:
                    chunk = table[k][byte] = tuple(
                        move
                        for j in range(8)
                        if byte >> j & 1
                        for move in (self.moves[8 * k + j],)
                        if move is not None
                    )
                out.extend(chunk)
        return out

    def point_name(self, bit: int) -> str:
        move = self.moves[bit]
        assert move is not None
        return str(move)


# ---------------------------------------------------------------------------
# Symmetry-canonical keys
# ---------------------------------------------------------------------------

#: ``f(black, white, to_move) -> (black', white', to_move', s)``
CanonicalFunction = Callable[[int, int, int], tuple[int, int, int, int]]

#: boards up to this size get lookup tables (a few MB at most); larger ones map bit by bit
CANON_TABLE_MAX_SIZE = 12
#: largest chunk of a bitboard looked up in one table (2**bits entries per table)
CANON_CHUNK_BITS = 13
#: from this size on, smaller chunks keep the tables small (memory grows with n**2)
CANON_SMALL_CHUNKS_FROM = 6
CANON_SMALL_CHUNK_BITS = 8


def canonical_chunks(t: Tables) -> list[tuple[int, int]]:
    """(shift, bits) of the chunks a bitboard is cut into: each starts and ends at a point.

    >>> canonical_chunks(tables(4)), canonical_chunks(tables(5))
    ([(0, 11), (14, 11)], [(0, 13), (16, 13), (32, 5)])
    """
    limit = CANON_CHUNK_BITS if t.n < CANON_SMALL_CHUNKS_FROM else CANON_SMALL_CHUNK_BITS
    points = [bit for bit, move in enumerate(t.moves) if move is not None]
    chunks: list[tuple[int, int]] = []
    i = 0
    while i < len(points):
        start = points[i]
        j = i
        while j + 1 < len(points) and points[j + 1] < start + limit:
            j += 1
        chunks.append((start, points[j] - start + 1))
        i = j + 1
    return chunks


def compile_canonical_function(t: Tables) -> CanonicalFunction:
    """Generate the symmetry canonicaliser of one board size: all 8 images at once.

    For a symmetry ``s`` the image of a position is packed into one number
    ``V_s = black' << (F + 1) | white' << 1 | to_move'`` (``F`` = bits of a
    bitboard; the transposes ``s >= 4`` exchange the colours and the side to
    move). The eight ``V_s`` sit side by side in one big int, in slots of
    ``2F + 1`` bits, and that int is an OR of table lookups: one per chunk of
    each colour (tables built per size from :attr:`Tables.image_masks`) plus
    the side-to-move bits. The smallest ``V_s`` is the lexicographically
    smallest ``(black', white', to_move')`` over the images, i.e. the image
    with the smallest :meth:`key`, and ``s`` the symmetry that gives it.

    >>> f = tables(3).canonicalise
    >>> f(1 << 2, 0, 1)  # a black stone on c1, White to move: a white one on a1, Black to move
    (0, 1, 0, 6)
    """
    n, width = t.n, t.width
    bits = n * width
    slot = 2 * bits + 1
    chunks = canonical_chunks(t)
    # the packed images of each single point, as the first colour and as the second
    as_black = [0] * bits
    as_white = [0] * bits
    for source in range(bits):
        if t.moves[source] is None:
            continue
        for s in range(8):
            image = t.image_masks[s][source]
            hi, lo = s * slot + bits + 1, s * slot + 1
            as_black[source] |= image << (hi if s < 4 else lo)
            as_white[source] |= image << (lo if s < 4 else hi)

    def table(single: list[int], shift: int, size: int) -> tuple[int, ...]:
        entries = [0] * (1 << size)
        for value in range(1, 1 << size):
            low = value & -value
            entries[value] = entries[value ^ low] | single[shift + low.bit_length() - 1]
        return tuple(entries)

    sides = tuple(
        sum(((side if s < 4 else 1 - side) << (s * slot)) for s in range(8)) for side in (0, 1)
    )
    namespace: dict[str, Any] = {"SIDES": sides}
    terms = []
    for k, (shift, size) in enumerate(chunks):
        # guard bits inside a chunk are always 0: a table over all 2**size values is simple
        namespace[f"B{k}"] = table(as_black, shift, size)
        namespace[f"W{k}"] = table(as_white, shift, size)
        mask = (1 << size) - 1
        picked_b = f"(b >> {shift}) & {mask}" if shift else f"b & {mask}"
        picked_w = f"(w >> {shift}) & {mask}" if shift else f"w & {mask}"
        terms.append(f"B{k}[{picked_b}] | W{k}[{picked_w}]")
    field_mask = (1 << slot) - 1
    slots = ", ".join(
        f"(p >> {s * slot}) & {field_mask}" if s else f"p & {field_mask}" for s in range(8)
    )
    lines = [
        "def canonicalise(b, w, side):",
        "    p = (SIDES[side] | " + "\n        | ".join(terms) + ")",
        f"    images = ({slots})",
        "    best = min(images)",
        f"    return best >> {bits + 1}, (best >> 1) & {(1 << bits) - 1}, best & 1, "
        "images.index(best)",
    ]
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the tables above
    function: CanonicalFunction = namespace["canonicalise"]
    return function


def flood(group: int, own: int, width: int, diagonal: bool) -> int:
    """Grow ``group`` inside ``own`` (4- or 8-neighbour steps) until it stops."""
    while True:
        if diagonal:
            grown = group | (group << 1) | (group >> 1)
            grown = (grown | (grown << width) | (grown >> width)) & own
        else:
            grown = (
                group | (group << 1) | (group >> 1) | (group << width) | (group >> width)
            ) & own
        if grown == group:
            return group
        group = grown


def wins_with(
    bit: int, own: int, first: int, second: int, width: int, diagonal: bool
) -> bool:
    """Does the group of the new stone ``bit`` (in ``own``) touch both edges?"""
    if not (own & first and own & second):
        return False
    group = bit
    while True:
        if diagonal:
            grown = group | (group << 1) | (group >> 1)
            grown = (grown | (grown << width) | (grown >> width)) & own
        else:
            grown = (
                group | (group << 1) | (group >> 1) | (group << width) | (group >> width)
            ) & own
        if grown & first and grown & second:
            return True
        if grown == group:
            return False
        group = grown


_TABLES: dict[int, Tables] = {}


def tables(n: int) -> Tables:
    """The cached tables of the n x n board."""
    table = _TABLES.get(n)
    if table is None:
        table = _TABLES[n] = Tables(n)
    return table
