"""Native (C) win/draw/loss search for Minefield boards of every size 2..26.

The C module (``_minefield``, built from ``minefield.c`` when the package is
installed; optional) only searches: the rules come from
:mod:`boardproof.models.minefield.board`, which hands it, per board size, the masks
of every glyph "role" (:func:`~boardproof.models.minefield.board.glyph_roles`), the
edges and the 8 symmetries. It is a second, independent implementation of the same
search question as :mod:`boardproof.solvers.search`; the tests check that both agree.

Two searches share this interface: up to 8 x 8 the 64-bit one (compact points
``r*n+f``, exact board keys in its table); from 9 x 9 on, or with ``wide=True`` at any
size, the wide one (``minefield_wide.h``: boards of 2 to 12 words in the model's own
layout with guard bits, 128-bit Zobrist keys). The tests check both against the
Python search, the enumeration, and each other on n <= 8.

What it does: alpha-beta over the values win / draw / loss for the side to move,
with a symmetry-canonical transposition table kept between calls, immediate wins
first, and a threat test (a move that leaves the opponent a winning placement loses
at once). In distance mode the values count plies (fastest win, longest defence);
:func:`principal_line` follows the best moves to the end of the game.

>>> from boardproof.models import get
>>> if available():
...     found = solve(get("minefield").parse_position("3/3/3 b -"))
...     print(found.value, found.best_move)
... else:
...     print("win a2")
win a2
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield.board import (
    BLACK,
    EDGE_GLYPHS,
    GUARD,
    PASS,
    STANDARD,
    VARIANT_GLYPHS,
    WHITE,
    Move,
    glyph_roles,
    symmetry_point,
)
from boardproof.solvers.native import MAX_NODES, check_ranges

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.models.minefield.native import _minefield as _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None

#: the largest board the native search handles
MAX_SIZE = 26
#: the largest board of the 64-bit search (larger ones use the wide search)
SMALL_MAX_SIZE = 8
#: default transposition table: 2**bits entries of 24 bytes (2**24 -> 384 MiB)
DEFAULT_TT_BITS = 22
#: this module's distance scores: a win in d plies is ``WIN_SCORE - d``
WIN_SCORE = 10000
#: the C modules' distance scores: the 64-bit search and the wide one
SMALL_WIN_SCORE, WIDE_WIN_SCORE = 1000, 10000
#: the longest ply horizon of the C search (``solve(..., horizon=...)``)
MAX_HORIZON = 253
#: the tables the C searches take (alpha-beta and df-pn): 2**bits entries
MIN_TT_BITS, MAX_TT_BITS = 4, 30
#: the heuristic's scale of the df-pn pruning rules (``rules(..., scale)``)
MIN_SCALE, MAX_SCALE = 1, 64
# minefield.c refuses another horizon, table size or scale with a ValueError; MAX_NODES
# (the node limit, unsigned 64-bit, 0: none) is that of every C search. All are checked
# here before any search (:func:`check_search`).
#: the ranges of the C module's options
RANGES = {"horizon": (0, MAX_HORIZON), "tt_bits": (MIN_TT_BITS, MAX_TT_BITS),
          "node_limit": (0, MAX_NODES), "scale": (MIN_SCALE, MAX_SCALE)}
#: a wide board handed to C: little-endian bytes of 12 words
WIDE_BYTES = 96
#: the variants (board.VARIANTS) the C searches take: all three. A variant's glyphs are
#: handed over as per-point roles on board points (mover / opponent / empty masks): the
#: pinwheel's fit as they are (28 roles a point at most, under the C modules' MAXROLES 40
#: and MAXSHAPES 64), the same for both colours. The cartwheel's glyph counts the points
#: just beyond the board as stones of the edge's owner (board.EDGE_GLYPHS), so near the
#: edges its roles depend on the mover's colour: each colour gets its own table
#: (:func:`point_roles`: a condition on such a point is resolved by the mover's colour),
#: and the C code reads the table of the colour that places (one table when both are
#: equal: the standard and pinwheel sets, as before). Every saving of the C searches is
#: proved from one colour's roles alone (stones are permanent, a role is a fixed set of
#: points and states): the pruning rules (frozen, blocked, must3, win3), the threat test,
#: the blocked-path bound; the symmetric tables need the 4 edge-keeping symmetries to map
#: each colour's roles onto themselves and the 4 transposes (which exchange the colours)
#: to map Black's onto White's: the tests check both for every set. The one piece of
#: knowledge proved for the standard glyphs only, Theorem O (the ortho-diagonal stop), is
#: not used by these searches themselves; its callers (prover, certify) refuse it for a
#: variant.
VARIANTS = (STANDARD, "pinwheel", "cartwheel")


def available() -> bool:
    """Whether the compiled module was built (a C compiler at install time)."""
    return _native is not None


def check_search(horizon: int | None = None, tt_bits: int | None = None,
                 node_limit: int | None = None, scale: int | None = None) -> None:
    """Raise InvalidOptionError unless the given options are in the C module's ranges
    (``horizon`` 0 to MAX_HORIZON, ``tt_bits`` MIN_TT_BITS to MAX_TT_BITS, ``node_limit``
    0 to MAX_NODES, ``scale`` MIN_SCALE to MAX_SCALE).

    >>> check_search(horizon=254)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    boardproof...InvalidOptionError: invalid option horizon: expected 0 to 253 (...), got 254
    """
    check_ranges(RANGES, horizon=horizon, tt_bits=tt_bits, node_limit=node_limit,
                 scale=scale)


def supports(position: Any) -> bool:
    """Whether :func:`solve` takes ``position``: Minefield, n <= 26, no pending swap."""
    return supports_any(position) and not position.pie


def supports_any(position: Any) -> bool:
    """Whether :func:`solve_any` takes ``position`` (a pending swap is allowed): the
    glyphs of :data:`VARIANTS`."""
    return (available() and position.game.name == "minefield" and position.n <= MAX_SIZE
            and position.game.variant in VARIANTS)  # fmt: skip


def accepts(position: Any) -> bool:
    """What ``solve(method="native")`` accepts (the solve-method table asks this)."""
    return supports_any(position)


def refusal(position: Any) -> str:
    """Why ``solve(method="native")`` does not take ``position`` (one phrase).

    >>> from types import SimpleNamespace as S
    >>> refusal(S(game=S(name="minefield", variant="wheel"), n=4)) if available() else (
    ...     "it knows the standard, pinwheel, cartwheel glyphs only, not the wheel variant")
    'it knows the standard, pinwheel, cartwheel glyphs only, not the wheel variant'
    """
    if not available():
        return "the C module was not built"
    if position.game.name != "minefield":
        return "it solves Minefield positions only"
    if position.game.variant not in VARIANTS:
        return (f"it knows the {', '.join(VARIANTS)} glyphs only, not the "
                f"{position.game.variant} variant")
    return f"it solves Minefield boards up to {MAX_SIZE}x{MAX_SIZE} only"


@dataclass(frozen=True)
class NativeTables:
    """What the C search needs for one board size and win rule (compact points r*n+f):
    ``roles`` Black's (both colours' unless ``white_roles``, White's, is given: the
    cartwheel, whose roles depend on the mover's colour)."""

    n: int
    diagonal: bool
    edges: tuple[int, int, int, int]
    roles: tuple[tuple[tuple[int, int, int], ...], ...]
    perms: tuple[tuple[int, ...], ...]
    white_roles: tuple[tuple[tuple[int, int, int], ...], ...] | None = None


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise InvalidOptionError(f"invalid option variant: the native searches take "
                                 f"{', '.join(VARIANTS)}, got {variant!r}")  # fmt: skip


def variant_roles(variant: str = STANDARD) -> list[tuple[tuple[int, int, str], ...]]:
    """Every glyph role of ``variant`` (:data:`VARIANTS`) relative to the new stone (the
    cartwheel's as if the board had no edge: :func:`point_roles` resolves its points
    beyond the board).

    >>> len(variant_roles()), len(variant_roles("pinwheel")), len(variant_roles("cartwheel"))
    (28, 28, 36)
    >>> variant_roles("wheel")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    boardproof...InvalidOptionError: invalid option variant: the native searches take ...
    """
    return [role for role, _ in _edged_roles(variant)]


def _edged_roles(variant: str) -> list[tuple[tuple[tuple[int, int, str], ...], bool]]:
    """(role, whether its glyph counts the points beyond the board) of ``variant``."""
    _check_variant(variant)
    return [(role, name in EDGE_GLYPHS)
            for name, group in glyph_roles(VARIANT_GLYPHS[variant]).items()
            for role in group]  # fmt: skip


#: the owner of the points just beyond an edge (board.EDGE_GLYPHS): beyond rank 1 and
#: rank n Black's, beyond file a and the last file White's
def _beyond_owner(g: int, q: int, n: int) -> int:
    off_file, off_rank = not 0 <= g < n, not 0 <= q < n
    # only points exactly one step beyond one edge (a role's 2x2 block is on the board,
    # and its other points are that block's orthogonal neighbours): never beyond a corner
    assert off_file != off_rank and -1 <= g <= n and -1 <= q <= n, (g, q, n)
    return WHITE if off_file else BLACK


def point_roles(n: int, f: int, r: int, variant: str = STANDARD,
                mover: int = BLACK) -> list[tuple[tuple[int, int, str], ...]]:  # fmt: skip
    """The roles of ``variant`` that can forbid a placement of ``mover`` (BLACK / WHITE)
    at (f, r) of the n x n board: their (file, rank, state M / O / E) on board points.

    A role with a point off the board is left out, except the cartwheel's (an edge glyph):
    its points just beyond an edge are stones of that edge's owner, so such a condition
    holds for ever or never, by the mover's colour (M: the owner is the mover, O: the
    other colour, E: never); one that holds is dropped from the role, one that fails
    drops the role. So Black's and White's roles differ near the edges.

    >>> # c1 of 5x5: the pinwheel's 12 roles for both; the cartwheel's differ (Black's
    >>> # stones beyond rank 1 fit White's roles that need the opponent there)
    >>> [len(point_roles(5, 2, 0, "pinwheel", mover)) for mover in (BLACK, WHITE)]
    [12, 12]
    >>> [len(point_roles(5, 2, 0, "cartwheel", mover)) for mover in (BLACK, WHITE)]
    [14, 16]
    """
    return [cells for cells, _ in _resolved_roles(n, f, r, variant, mover)]


def _resolved_roles(n: int, f: int, r: int, variant: str,
                    mover: int) -> list[tuple[tuple[tuple[int, int, str], ...], bool]]:  # fmt: skip
    """:func:`point_roles`, each with whether a condition beyond the board was dropped."""
    found: list[tuple[tuple[tuple[int, int, str], ...], bool]] = []
    for role, edged in _edged_roles(variant):
        cells: list[tuple[int, int, str]] = []
        for dx, dy, state in role:
            g, q = f + dx, r + dy
            if 0 <= g < n and 0 <= q < n:
                cells.append((g, q, state))
            elif not edged or state == "E" or any(
                    s == "E" and not (0 <= f + x < n and 0 <= r + y < n) for x, y, s in role):
                break  # off the board: fails (the cartwheel's block must be on the board)
            elif (state == "M") != (_beyond_owner(g, q, n) == mover):
                break  # a stone of the wrong colour beyond the edge: never fits
        else:
            found.append((tuple(cells), len(cells) < len(role)))
    return found


def native_tables(n: int, diagonal: bool, variant: str = STANDARD) -> NativeTables:
    """Build the tables of size ``n`` from the model's glyph roles (of ``variant``) and
    symmetries.

    >>> t = native_tables(3, False)
    >>> t.edges == (0b000000111, 0b111000000, 0b001001001, 0b100100100)
    True
    >>> len(t.roles[4])  # the centre of 3x3: the 12 hard-corner roles; no switch fits
    12
    >>> len(native_tables(8, False).roles[27])  # d4 of 8x8: every role fits
    28
    >>> # b1 of 4x4: 6 hard-corner, 3 2x3-switch roles, and 2 of the 2x4 switch or 1 pinwheel
    >>> len(native_tables(4, False).roles[1]), len(native_tables(4, False, "pinwheel").roles[1])
    (11, 10)
    >>> t = native_tables(5, False, "cartwheel")  # c1 of 5x5 (see point_roles)
    >>> len(t.roles[2]), t.white_roles is not None and len(t.white_roles[2])
    (14, 16)
    >>> native_tables(4, False, "pinwheel").white_roles is None  # the same for both colours
    True
    """
    if not 2 <= n <= MAX_SIZE:
        raise InvalidOptionError(f"invalid size: expected 2 to {MAX_SIZE}, got {n!r}")
    by_colour: list[tuple[tuple[tuple[int, int, int], ...], ...]] = []
    for mover in (BLACK, WHITE):
        roles_by_point: list[tuple[tuple[int, int, int], ...]] = []
        for r in range(n):
            for f in range(n):
                found: list[tuple[int, int, int]] = []
                for cells in point_roles(n, f, r, variant, mover):
                    masks = {"M": 0, "O": 0, "E": 0}
                    for g, q, state in cells:
                        masks[state] |= 1 << (q * n + g)
                    found.append((masks["M"], masks["O"], masks["E"]))
                roles_by_point.append(tuple(sorted(set(found))))
        by_colour.append(tuple(roles_by_point))
    black_roles, white_roles = by_colour
    row = (1 << n) - 1
    left = sum(1 << (r * n) for r in range(n))
    edges = (row, row << (n * (n - 1)), left, left << (n - 1))
    perms = tuple(
        tuple(
            q * n + g
            for r in range(n)
            for f in range(n)
            for g, q in (symmetry_point(s, f, r, n),)
        )
        for s in range(8)
    )
    return NativeTables(n, diagonal, edges, black_roles, perms,
                        None if white_roles == black_roles else white_roles)


Indices = tuple[int, ...]


@dataclass(frozen=True)
class WideTables:
    """What the wide C search needs: the model's layout (bit ``r*(n+3)+f``)."""

    n: int
    diagonal: bool
    edges: tuple[int, int, int, int]
    #: per point r*n+f, the roles that fit: bit indices needing (mover, opponent, empty)
    roles: tuple[tuple[tuple[Indices, Indices, Indices], ...], ...]
    #: the same roles relative to the new stone: (dx, dy, state 0 mover / 1 opponent / 2 empty)
    shapes: tuple[tuple[tuple[int, int, int], ...], ...]
    perms: tuple[tuple[int, ...], ...]
    #: roles by the mover's colour (the cartwheel; None: ``roles`` are both colours'):
    #: White's roles (``roles`` are then Black's), and per colour the roles of each point
    #: that the shapes miss: those with a condition beyond the board, resolved
    #: (:func:`point_roles`); the search tests the shapes and these
    white_roles: tuple[tuple[tuple[Indices, Indices, Indices], ...], ...] | None = None
    extras: tuple[tuple[tuple[tuple[Indices, Indices, Indices], ...], ...], ...] | None = None


def wide_tables(n: int, diagonal: bool, variant: str = STANDARD) -> WideTables:
    """The tables of size ``n`` for the wide search, from the model's roles and symmetries.

    >>> t = wide_tables(3, False)
    >>> [bin(e) for e in t.edges]
    ['0b111', '0b111000000000000', '0b1000001000001', '0b100000100000100']
    >>> len(t.roles[4]), len(wide_tables(19, False).roles[19 * 9 + 9])
    (12, 28)
    >>> t.roles[4][0]  # at b2: an opponent's stone on a1's neighbours b1, a2 and a1 empty
    ((), (1, 6), (0,))
    >>> # c1 of 5x5: White has 2 cartwheel roles through the points beyond the board
    >>> # (Black's beyond rank 1, White's beyond the side edge), Black none
    >>> t = wide_tables(5, False, "cartwheel")
    >>> t.extras is not None and [len(t.extras[mover][2]) for mover in (0, 1)]
    [0, 2]
    """
    if not 2 <= n <= MAX_SIZE:
        raise InvalidOptionError(f"invalid size: expected 2 to {MAX_SIZE}, got {n!r}")
    width = n + GUARD
    all_roles = variant_roles(variant)
    by_colour = []
    extra_by_colour = []
    for mover in (BLACK, WHITE):
        roles_by_point: list[tuple[tuple[Indices, Indices, Indices], ...]] = []
        extras: list[tuple[tuple[Indices, Indices, Indices], ...]] = []
        for r in range(n):
            for f in range(n):
                found: set[tuple[Indices, Indices, Indices]] = set()
                extra: set[tuple[Indices, Indices, Indices]] = set()
                for cells, resolved in _resolved_roles(n, f, r, variant, mover):
                    parts: dict[str, list[int]] = {"M": [], "O": [], "E": []}
                    for g, q, state in cells:
                        parts[state].append(q * width + g)
                    m, o, e = (tuple(sorted(parts[k])) for k in "MOE")
                    found.add((m, o, e))
                    if resolved:  # a shape does not fit there (a point beyond the board)
                        assert e, "a resolved role keeps its empty points (the block)"
                        extra.add((m, o, e))
                roles_by_point.append(tuple(sorted(found)))
                extras.append(tuple(sorted(extra)))
        by_colour.append(tuple(roles_by_point))
        extra_by_colour.append(tuple(extras))
    coloured = by_colour[0] != by_colour[1]
    small = native_tables(n, diagonal, variant) if n <= SMALL_MAX_SIZE else None
    row = (1 << n) - 1
    left = sum(1 << (r * width) for r in range(n))
    edges = (row, row << (width * (n - 1)), left, left << (n - 1))
    perms = small.perms if small is not None else tuple(
        tuple(
            q * n + g
            for r in range(n)
            for f in range(n)
            for g, q in (symmetry_point(s, f, r, n),)
        )
        for s in range(8)
    )  # fmt: skip
    code = {"M": 0, "O": 1, "E": 2}
    shapes = tuple(tuple((dx, dy, code[state]) for dx, dy, state in role) for role in all_roles)
    return WideTables(n, diagonal, edges, by_colour[0], shapes, perms,
                      by_colour[1] if coloured else None,
                      tuple(extra_by_colour) if coloured else None)


def _wide(board: int) -> bytes:
    return board.to_bytes(WIDE_BYTES, "little")


@dataclass
class NativeResult:
    """The value of a position for its side to move, and how it was found."""

    value: str  # win, draw, loss or unknown (budget spent)
    best_move: Move | None
    nodes: int
    #: plies to the end with best play (distance mode only), else None
    plies: int | None = None


#: the df-pn table's replacement schemes (``NativeSearch.proof(table=...)``)
DFPN_TABLES = ("pairs", "quad", "two")


class NativeSearch:
    """One board size's native search; its transposition table lives across calls.

    Only one ``NativeSearch`` is active per process (the C module has one table):
    creating another one, or solving a position of another size, resets it.
    ``wide`` picks the wide search (default: for n > 8 only); ``variant`` the glyphs
    (:data:`VARIANTS`).
    """

    _active: NativeSearch | None = None

    def __init__(
        self,
        n: int,
        diagonal: bool = False,
        tt_bits: int = DEFAULT_TT_BITS,
        distance: bool = False,
        wide: bool | None = None,
        variant: str = STANDARD,
    ) -> None:
        if _native is None:
            raise InvalidOptionError(
                "invalid option method native: the C module was not built (no compiler?)"
            )
        check_search(tt_bits=tt_bits)
        self.wide = n > SMALL_MAX_SIZE if wide is None else wide
        if not self.wide and n > SMALL_MAX_SIZE:
            raise InvalidOptionError(
                f"invalid size for the 64-bit search: expected 2 to {SMALL_MAX_SIZE}, got {n!r}"
            )
        self.tables: NativeTables | WideTables = (
            wide_tables(n, diagonal, variant) if self.wide else native_tables(n, diagonal, variant)
        )
        self.variant = variant
        self.n = n
        self.diagonal = diagonal
        self.tt_bits = tt_bits
        self.distance = distance
        self.win_score = WIDE_WIN_SCORE if self.wide else SMALL_WIN_SCORE
        #: option of the wide search (alpha-beta): the blocked-path bound. A side whose
        #: stones and the empty points it may still occupy (those where no glyph role
        #: without an empty point fits for it: such a role fits for ever, stones being
        #: permanent) join no chain between its edges can never win, so the value is
        #: <= 0 for it; both blocked: a draw. Values and distances are unchanged (tested
        #: against the plain search); it costs two floods per node.
        self.block_bound = False
        self._install()

    def _install(self) -> None:
        t = self.tables
        assert _native is not None
        if isinstance(t, WideTables):
            edges = tuple(_wide(e) for e in t.edges)
            coloured = None if t.white_roles is None else (t.white_roles, t.extras)
            _native.wide_setup(t.n, t.diagonal, edges, t.roles, t.shapes, t.perms,
                               self.tt_bits, self.distance, coloured)  # fmt: skip
        else:
            _native.setup(t.n, t.diagonal, t.edges, t.roles, t.perms, self.tt_bits,
                          self.distance, t.white_roles)  # fmt: skip
        NativeSearch._active = self

    def activate(self) -> None:
        """Install this search's tables in the C module if another search's are in."""
        if NativeSearch._active is not self:
            self._install()

    def boards(self, position: Any) -> tuple[int, int, bool]:
        """(mover's stones, other stones, mover is Black): compact points ``r*n+f`` for
        the 64-bit search, the model's own bits for the wide one."""
        if self.wide:
            if position.to_move == 0:
                return position.black, position.white, True
            return position.white, position.black, False
        n = self.n
        width = n + GUARD
        black = white = 0
        for r in range(n):
            for f in range(n):
                source = 1 << (r * width + f)
                if position.black & source:
                    black |= 1 << (r * n + f)
                elif position.white & source:
                    white |= 1 << (r * n + f)
        if position.to_move == 0:
            return black, white, True
        return white, black, False

    def proves(
        self,
        position: Any,
        attacker: int,
        *,
        tt_bits: int | None = None,
        node_limit: int = 0,
        timeout: float | None = None,
    ) -> tuple[bool | None, int]:
        """Does ``attacker`` have a forced win? The native df-pn, independent of alpha-beta.

        Returns (True: proved, False: disproved, None: budget spent; nodes). Its table
        (``2**tt_bits`` entries of 32 bytes, by default the size's alpha-beta table) is
        cleared at each call.
        """
        proved, nodes, _ = self.proof(position, attacker, tt_bits=tt_bits,
                                      node_limit=node_limit, timeout=timeout)  # fmt: skip
        return proved, nodes

    def proof(
        self,
        position: Any,
        attacker: int,
        *,
        tt_bits: int | None = None,
        node_limit: int = 0,
        timeout: float | None = None,
        keep: bool = False,
        table: str = "pairs",
    ) -> tuple[bool | None, int, Move | None]:
        """:meth:`proves`, and when the attacker is to move and wins, a winning move
        (the child the proof goes through), else None.

        ``keep`` (64-bit search): the df-pn table of the last call survives if it has the
        same size (its proof and disproof numbers stay true; they only save work).
        ``table`` (64-bit search): the table's replacement scheme, ``pairs`` (session 4),
        ``quad`` (buckets of 4 that keep solved and big entries; see ``PT_QUAD`` in
        ``minefield.c``) or ``two`` (``quad`` and a second level, a quarter its size, for
        the solved entries it pushes out; ``PT_TWO``): only the nodes differ, never the
        result.
        """
        if table not in DFPN_TABLES:
            raise InvalidOptionError(
                f"invalid option table: expected one of {', '.join(DFPN_TABLES)}, got {table!r}"
            )
        bits = tt_bits or self.tt_bits
        check_search(tt_bits=bits, node_limit=node_limit)
        self._check(position)
        if NativeSearch._active is not self:
            self._install()
        me, op, black = self.boards(position)
        assert _native is not None
        attacks = position.to_move == attacker
        if self.wide:
            result, nodes, point = _native.wide_dfpn(_wide(me), _wide(op), black, attacks,
                                                     bits, node_limit, timeout or 0.0)  # fmt: skip
        else:
            result, nodes, point = _native.dfpn(me, op, black, attacks, bits, node_limit,
                                                timeout or 0.0, keep,
                                                DFPN_TABLES.index(table))  # fmt: skip
        return (None if result < 0 else bool(result)), nodes, self.move(point)

    def table_numbers(self, position: Any, attacker: int) -> tuple[int, int] | None:
        """(proof, disproof) numbers of ``position`` for ``attacker`` in the df-pn table of
        the last :meth:`proof` call (64-bit search), None if it holds none: e.g. how
        close each child of a root came to a proof when the budget ran out."""
        if self.wide:
            return None
        assert _native is not None
        me, op, black = self.boards(position)
        found = _native.dfpn_entry(me, op, black, position.to_move == attacker)
        return None if found is None else (int(found[0]), int(found[1]))

    def _check(self, position: Any) -> None:
        if position.n != self.n or position.pie:
            raise InvalidOptionError(
                f"invalid position for this search: expected {self.n}x{self.n} without a "
                f"pending swap, got {position.fen()!r}"
            )
        if position.game.win != ("orthodiagonal" if self.diagonal else "orthogonal"):
            raise InvalidOptionError(f"invalid win rule for this search: {position.game.win!r}")
        if position.game.variant != self.variant:
            raise InvalidOptionError(f"invalid option variant: this search knows the "
                                     f"{self.variant} glyphs, got {position.game.variant!r}")
        if position.outcome() is not None:
            raise InvalidOptionError(f"invalid position: the game is over, got {position.fen()!r}")

    def stats(self) -> dict[str, int]:
        """Counters of the C search and the table's fill (a scan of the whole table)."""
        assert _native is not None
        return dict(_native.wide_stats() if self.wide else _native.stats())

    def legal(self, me: int, op: int, black: bool = True) -> int:
        """The mover's legal placements, in the points of :meth:`boards` (the mover Black
        unless ``black`` is False: the cartwheel's roles depend on the colour)."""
        assert _native is not None
        if self.wide:
            return int.from_bytes(_native.wide_legal(_wide(me), _wide(op), black), "little")
        return int(_native.legal(me, op, black))

    def winning(self, own: int, black: bool) -> int:
        """The points that would complete ``own``'s path (legality aside)."""
        assert _native is not None
        if self.wide:
            return int.from_bytes(_native.wide_winning(_wide(own), black), "little")
        return int(_native.winning(own, black))

    def canonical(self, me: int, op: int, black: bool) -> tuple[int, ...]:
        """The table key of a node (equal for symmetric nodes) and the symmetry used."""
        assert _native is not None
        if self.wide:
            return tuple(_native.wide_canonical(_wide(me), _wide(op), black))
        return tuple(_native.canonical(me, op, black))

    def move(self, point: int) -> Move | None:
        if point == -2:
            return PASS
        if point < 0:
            return None
        width = self.n + GUARD if self.wide else self.n
        return Move(point % width, point // width)

    def solve(
        self,
        position: Any,
        *,
        node_limit: int = 0,
        timeout: float | None = None,
        progress: Callable[[int], object] | None = None,
        every: int = 1 << 24,
        horizon: int = 0,
        hint: int | None = None,
    ) -> NativeResult:
        """The value of a non-terminal ``position`` (``unknown`` when the budget runs out).

        In distance mode ``plies`` is the number of plies to the end with best play
        (fastest win, longest defence). ``horizon`` (1..253, 0 none) cuts the game after
        that many plies: a win or loss is then one within the horizon, and ``draw`` means
        that neither side forces a win within it. ``hint`` (a player, 64-bit search): at
        that player's nodes, first the move whose child the last df-pn table holds as won
        for them (move ordering only: the value is the plain search's).
        """
        self._check(position)
        check_search(horizon=horizon, node_limit=node_limit)
        if NativeSearch._active is not self:
            self._install()
        me, op, black = self.boards(position)
        assert _native is not None
        bound = self.win_score if self.distance else 1
        if self.wide:
            _native.wide_tune(self.block_bound)
            value, point, nodes, status = _native.wide_solve(
                _wide(me), _wide(op), black, -bound, bound, node_limit, timeout or 0.0,
                progress, every, horizon,
            )  # fmt: skip
        else:
            _native.hint(-1 if hint is None else int(hint == 0))
            try:
                value, point, nodes, status = _native.solve(
                    me, op, black, -bound, bound, node_limit, timeout or 0.0, progress, every,
                    horizon,
                )  # fmt: skip
            finally:
                _native.hint(-1)
        if status != 0:
            return NativeResult("unknown", None, nodes)
        plies = self.win_score - abs(value) if self.distance and value else None
        word = "win" if value > 0 else "loss" if value < 0 else "draw"
        return NativeResult(word, self.move(point), nodes, plies)


    def set_hints(self, positions: Iterable[tuple[int, int, bool]]) -> int:
        """The hint set of :meth:`solve` (``hint=``): positions ``(me, op, black)`` (this
        size's 64-bit boards, ``me`` to move) taken as lost for their side to move, e.g.
        a certificate's (:func:`boardproof.models.minefield.proofs.certificate.certificate_hints`);
        a
        move into one is searched first. Replaces the last set (an empty one clears it);
        returns how many classes it holds. Move ordering only, as ``hint``."""
        if self.wide:
            raise InvalidOptionError("invalid option hints: only the 64-bit search takes them")
        if NativeSearch._active is not self:
            self._install()  # the hint keys are taken under this size's symmetries
        assert _native is not None
        _native.hint_clear()
        return sum(_native.hint_add(me, op, black) for me, op, black in positions)


_SEARCHES: dict[tuple[int, bool, bool, bool, str], NativeSearch] = {}


def reset() -> None:
    """Forget every cached search (and so its transposition table)."""
    _SEARCHES.clear()
    NativeSearch._active = None


def default_tt_bits(n: int) -> int:
    """A table that suits the size: small boards need (and clear) far fewer entries.

    >>> [default_tt_bits(n) for n in (2, 3, 4, 5, 8, 19)]
    [12, 12, 18, 22, 22, 22]
    """
    return {2: 12, 3: 12, 4: 18}.get(n, DEFAULT_TT_BITS)


def search_for(
    n: int,
    diagonal: bool = False,
    tt_bits: int | None = None,
    distance: bool = False,
    wide: bool | None = None,
    *,
    variant: str = STANDARD,
) -> NativeSearch:
    """The cached search of one size, win rule, mode and variant (its table survives
    between calls)."""
    if tt_bits is None:
        tt_bits = default_tt_bits(n)
    wide = n > SMALL_MAX_SIZE if wide is None else wide
    key = (n, diagonal, distance, wide, variant)
    found = _SEARCHES.get(key)
    if found is None or found.tt_bits != tt_bits:
        found = _SEARCHES[key] = NativeSearch(n, diagonal, tt_bits, distance, wide, variant)
    return found


def solve(
    position: Any, *, distance: bool = False, wide: bool | None = None, **kwargs: Any
) -> NativeResult:
    """Solve a Minefield position with the cached native search of its size."""
    diagonal = position.game.win == "orthodiagonal"
    search = search_for(position.n, diagonal, distance=distance, wide=wide,
                        variant=position.game.variant)  # fmt: skip
    return search.solve(position, **kwargs)


def _score(found: NativeResult, distance: bool) -> int:
    sign = {"win": 1, "loss": -1, "draw": 0}[found.value]
    if not distance or not sign:
        return sign
    assert found.plies is not None
    return sign * (WIN_SCORE - found.plies)


def solve_any(
    position: Any,
    *,
    distance: bool = False,
    node_limit: int = 0,
    timeout: float | None = None,
    progress: Callable[[int], object] | None = None,
    horizon: int = 0,
) -> NativeResult:
    """:func:`solve`, also for a position whose swap is still pending.

    The C search knows no pie rule: the (at most two) plies where a swap is possible
    are searched here, each child without a pending swap by the C search.
    ``horizon`` as in :meth:`NativeSearch.solve` (0: none).

    >>> from boardproof.models import get
    >>> if available():
    ...     found = solve_any(get("minefield").parse_position("2/2 b p"), distance=True)
    ...     print(found.value, found.plies)
    ... else:
    ...     print("loss 4")
    loss 4
    """
    if not position.pie:
        return solve(position, distance=distance, node_limit=node_limit, timeout=timeout,
                     progress=progress, horizon=horizon)  # fmt: skip
    import time

    deadline = None if timeout is None else time.perf_counter() + timeout
    best: tuple[int, Move | None] | None = None
    nodes = 0
    for move in position.legal_moves():
        child = position.play(move)
        outcome = child.outcome()
        if outcome is not None:
            won = position.to_move in outcome.winners
            value = (WIN_SCORE - 1 if distance else 1) if won else 0
        elif horizon == 1:
            value = 0  # the child is at the horizon: nothing proved there
        else:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                return NativeResult("unknown", None, nodes)
            found = solve_any(child, distance=distance, node_limit=node_limit, timeout=left,
                              progress=progress, horizon=max(horizon - 1, 0))  # fmt: skip
            nodes += found.nodes
            if found.value == "unknown":
                return NativeResult("unknown", None, nodes)
            value = _score(found, distance)
            if child.to_move != position.to_move:  # a swap keeps the colour to move
                value = -value
            if distance and value:
                value -= 1 if value > 0 else -1
        if best is None or value > best[0]:
            best = (value, move)
    assert best is not None
    value, move = best
    word = "win" if value > 0 else "loss" if value < 0 else "draw"
    plies = WIN_SCORE - abs(value) if distance and value else None
    return NativeResult(word, move, nodes, plies)


#: from this size on, ``solve`` asks the native df-pn who wins before the alpha-beta
#: (on big late positions it often proves in milliseconds what alpha-beta cannot)
DFPN_FIRST_SIZE = SMALL_MAX_SIZE + 1
#: the df-pn table of :func:`settle` and :func:`winning_line` (2**bits entries of 32 bytes)
SETTLE_TT_BITS = 20


def settle(position: Any, *, timeout: float | None = None, node_limit: int = 0) -> NativeResult:
    """Who wins, by the native df-pn: does the side to move win, else does the other side?

    ``win`` / ``loss``: a forced win proved (best_move: a winning move, for ``win``);
    ``draw``: both disproved (nobody can force a win, so the game is a draw: Minefield
    always ends); ``unknown``: a budget ran out. Each question gets half of the budget.
    """
    search = search_for(position.n, position.game.win == "orthodiagonal",
                        variant=position.game.variant)  # fmt: skip
    half_time = None if timeout is None else timeout / 2
    half_nodes = node_limit // 2
    mover = position.to_move
    first, nodes, move = search.proof(position, mover, tt_bits=SETTLE_TT_BITS,
                                      node_limit=half_nodes, timeout=half_time)  # fmt: skip
    if first:
        return NativeResult("win", move, nodes)
    second, more, _ = search.proof(position, 1 - mover, tt_bits=SETTLE_TT_BITS,
                                   node_limit=half_nodes, timeout=half_time)  # fmt: skip
    nodes += more
    if second:
        return NativeResult("loss", None, nodes)
    if first is False and second is False:
        return NativeResult("draw", None, nodes)
    return NativeResult("unknown", None, nodes)


def winning_line(
    position: Any, winner: int, *, timeout: float | None = None, limit: int = 1400
) -> list[Move]:
    """A line in which ``winner`` wins: its moves from the native df-pn (each a move its
    proof goes through), the other side's the first legal ones; cut short if a proof
    runs out of time (not the shortest win)."""
    import time

    deadline = None if timeout is None else time.perf_counter() + timeout
    search = search_for(position.n, position.game.win == "orthodiagonal",
                        variant=position.game.variant)  # fmt: skip
    line: list[Move] = []
    while position.outcome() is None and len(line) < limit:
        if position.to_move == winner:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                break
            proved, _, move = search.proof(position, winner, tt_bits=SETTLE_TT_BITS,
                                           timeout=left)  # fmt: skip
            if not proved or move is None:
                break
        else:
            move = position.legal_moves()[0]
        line.append(move)
        position = position.play(move)
    return line


def principal_line(
    position: Any, *, distance: bool = True, limit: int = 1400, horizon: int = 0
) -> list[Move]:
    """Best moves from ``position`` to the end of the game (both sides' choices).

    With a ``horizon`` (a win or loss proved within that many plies), each position of
    the line is searched within the plies left, so the line costs no more than the proof.
    """
    line: list[Move] = []
    while position.outcome() is None and len(line) < limit:
        left = horizon - len(line) if horizon else 0
        if horizon and left <= 0:
            break
        found = solve_any(position, distance=distance, horizon=left)
        if found.best_move is None:
            break
        line.append(found.best_move)
        position = position.play(found.best_move)
    return line


def win_oracle(player: int) -> Callable[[Any], int | None]:
    """``f(position)``: plies of ``player``'s fastest forced win, or None (no forced win).

    For :func:`boardproof.solvers.proof.build_proof`; the proof it builds is checked by
    the rules-only checker, which never calls this search.
    """

    def plies(position: Any) -> int | None:
        outcome = position.outcome()
        if outcome is not None:
            return 0 if player in outcome.winners and len(outcome.winners) == 1 else None
        found = solve_any(position, distance=True)
        wins = found.value == ("win" if position.to_move == player else "loss")
        return found.plies if wins else None

    return plies
