"""Candy Conquest: four in a row in three dimensions with nesting two-shape candies.

Rules and notation: ``/work/shared/rules/candy-conquest.md`` (a reconstruction; every
**[choice]** of that file lives in one named constant or function below, marked
``[choice]``).

Layout of the board (square index = 5 * rank + file, ``a1`` = 0)::

    rank 5 | 20 21 22 23 24        L s L s L      (L = large socket,
    rank 4 | 15 16 17 18 19        s L s L s       s = small socket)
    rank 3 | 10 11 12 13 14        L s L s L
    rank 2 |  5  6  7  8  9        s L s L s
    rank 1 |  0  1  2  3  4        L s L s L
             a  b  c  d  e

A column is a tuple of candies, floor 0 first. A candy is the int
``12 * colour + code`` where ``code`` indexes :data:`CODES` (the twelve
``<bottom><top>`` orientations in ASCII order, which is also the canonical move order).

>>> game = make_game()
>>> pos = game.start()
>>> len(pos.legal_moves())
150
>>> pos = pos.play(pos.parse_move("Os@c3")).play(pos.parse_move("Sx@c3"))
>>> pos.fen()
'.,.,.,.,./.,.,.,.,./.,.,1Os2Sx,.,./.,.,.,.,./.,.,.,.,. 1 2'
>>> [str(m) for m in pos.legal_moves() if str(m).endswith("c3")]
['Xo@c3', 'Xs@c3']
>>> print(pos.board_text().splitlines()[-4])
  c3: f0 1(O)(s)  f1 2Sx   visible 22
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from boardproof.models.base import (
    IllegalMoveError,
    InvalidNotationError,
    OptionInfo,
    Outcome,
    SymbolsMixin,
    check_options,
    require_text,
)

# ---------------------------------------------------------------------------
# The board and its tables (built once at import)
# ---------------------------------------------------------------------------

SIZE = 5
SQUARE_COUNT = SIZE * SIZE
FILES = "abcde"
SQUARE_NAMES = tuple(f"{FILES[sq % SIZE]}{sq // SIZE + 1}" for sq in range(SQUARE_COUNT))
SQUARE_OF = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
PLAYER_COUNTS = (2, 3, 4)
DEFAULT_PLAYERS = 2
#: rules, "Material": each player holds 4 candies of each of the 6 kinds.
COPIES_PER_KIND = 4


def socket_is_large(square: int) -> bool:
    """[choice] (rules, "Material"): a socket is large where file index + rank index is even.

    >>> [SQUARE_NAMES[sq] for sq in range(SQUARE_COUNT) if socket_is_large(sq)][:4]
    ['a1', 'c1', 'e1', 'b2']
    """
    return (square % SIZE + square // SIZE) % 2 == 0


LARGE_SOCKET = tuple(socket_is_large(sq) for sq in range(SQUARE_COUNT))
assert sum(LARGE_SOCKET) == 13

#: shape types, in notation order: round, square, star (uppercase letter = large size)
TYPES = "osx"

#: [choice] (rules, "Material"): a candy joins one large and one small shape of two
#: different types; its kind is written large type first. 6 kinds.
KINDS = ("Os", "Ox", "So", "Sx", "Xo", "Xs")

#: the 12 orientations ``<bottom><top>``: each kind with its large or its small shape down.
#: Sorted in ASCII order, which is the canonical move order within a square.
CODES = tuple(sorted(KINDS + tuple(k[1].lower() + k[0].upper() for k in KINDS)))
CODE_OF = {text: code for code, text in enumerate(CODES)}
assert len(CODES) == 12 and CODES[0] == "Os" and CODES[6] == "oS"

BOTTOM_LARGE = tuple(text[0].isupper() for text in CODES)
BOTTOM_TYPE = tuple(TYPES.index(text[0].lower()) for text in CODES)
TOP_LARGE = tuple(text[1].isupper() for text in CODES)
TOP_TYPE = tuple(TYPES.index(text[1].lower()) for text in CODES)
KIND_OF = tuple(
    KINDS.index(text if text[0].isupper() else text[1] + text[0]) for text in CODES
)


def _square_state(column: Sequence[int], square: int) -> int:
    """What a square accepts: 0/1 empty large/small socket, else 2 + 2 * type + large of its top."""
    if not column:
        return 0 if LARGE_SOCKET[square] else 1
    code = column[-1] % 12
    return 2 + 2 * TOP_TYPE[code] + TOP_LARGE[code]


def _accepts(state: int, code: int) -> bool:
    """Placing rule (rules, "Placing a candy").

    On an empty socket the bottom has the socket's size (any type). On a candy whose top
    shape is T, the bottom has T's type and the other size: a small bottom goes into a
    large T, a large bottom goes over a small T. Types must match (no star into a square).
    """
    if state == 0:
        return BOTTOM_LARGE[code]
    if state == 1:
        return not BOTTOM_LARGE[code]
    top_type, top_large = divmod(state - 2, 2)
    return BOTTOM_TYPE[code] == top_type and BOTTOM_LARGE[code] != bool(top_large)


#: state -> codes accepted, in canonical order
ACCEPTED = tuple(tuple(c for c in range(12) if _accepts(s, c)) for s in range(8))
assert [len(a) for a in ACCEPTED] == [6, 6, 2, 2, 2, 2, 2, 2]

#: (state, mask of kinds still in reserve) -> codes that can be placed
_PLACEABLE = tuple(
    tuple(tuple(c for c in ACCEPTED[s] if mask >> KIND_OF[c] & 1) for mask in range(64))
    for s in range(8)
)


def _segments() -> tuple[tuple[int, int, int, int], ...]:
    """The 28 runs of 4 consecutive squares along a rank, a file or a diagonal."""
    found = []
    for file in range(SIZE):
        for rank in range(SIZE):
            for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(file + i * df, rank + i * dr) for i in range(4)]
                if all(0 <= f < SIZE and 0 <= r < SIZE for f, r in cells):
                    found.append(tuple(r * SIZE + f for f, r in cells))
    return tuple(found)  # type: ignore[arg-type]


SEGMENTS = _segments()
assert len(SEGMENTS) == 28

#: square -> ((segment, index of the square in it), ...)
SEGMENTS_AT = tuple(
    tuple((seg, seg.index(sq)) for seg in SEGMENTS if sq in seg) for sq in range(SQUARE_COUNT)
)

#: [choice] (rules, "Lines" 2): a staircase rises one floor per square *in order along
#: the line*. A line read in the other direction is the same line, so a staircase that
#: descends along our stored order counts as well (floors f+3, f+2, f+1, f). Anything
#: else would break the board's 8 symmetries.
STAIRCASE_STEPS = (1, -1)


def _symmetry_table() -> tuple[tuple[int, ...], ...]:
    maps = (
        lambda f, r: (f, r),
        lambda f, r: (SIZE - 1 - r, f),  # rotate 90
        lambda f, r: (SIZE - 1 - f, SIZE - 1 - r),  # rotate 180
        lambda f, r: (r, SIZE - 1 - f),  # rotate 270
        lambda f, r: (SIZE - 1 - f, r),  # mirror files
        lambda f, r: (f, SIZE - 1 - r),  # mirror ranks
        lambda f, r: (r, f),  # transpose
        lambda f, r: (SIZE - 1 - r, SIZE - 1 - f),  # anti-transpose
    )
    table = []
    for fn in maps:
        row = []
        for sq in range(SQUARE_COUNT):
            f, r = fn(sq % SIZE, sq // SIZE)
            row.append(r * SIZE + f)
        table.append(tuple(row))
    return tuple(table)


SYMMETRIES = _symmetry_table()
#: SOURCES[s][j]: the square whose column lands on j under symmetry s
SOURCES = tuple(tuple(t.index(j) for j in range(SQUARE_COUNT)) for t in SYMMETRIES)
#: _IMAGE[s](cols): the columns' image under symmetry s, as a tuple (one C call)
_IMAGE = tuple(operator.itemgetter(*source) for source in SOURCES)
assert all(sorted(t) == list(range(SQUARE_COUNT)) for t in SYMMETRIES)
assert all(LARGE_SOCKET[t[sq]] == LARGE_SOCKET[sq] for t in SYMMETRIES for sq in range(25))


# ---------------------------------------------------------------------------
# Visibility and lines (rules, "Visible shapes" and "Lines")
# ---------------------------------------------------------------------------


def shape_visibility(column: Sequence[int], floor: int) -> tuple[bool, bool]:
    """(bottom visible, top visible) of the candy on ``floor`` of ``column``.

    The bottom of the lowest candy is inserted into the board: hidden. Where a candy sits
    on another, of the two shapes that meet the small one is hidden (inserted into the
    large one, or covered by it) and the large one stays visible.

    >>> shape_visibility((CODE_OF["Os"],), 0)      # floor 0: bottom in the board
    (False, True)
    >>> col = (CODE_OF["Os"], 12 + CODE_OF["Sx"])  # a large square covers the small square
    >>> shape_visibility(col, 0), shape_visibility(col, 1)
    ((False, False), (True, True))
    """
    code = column[floor] % 12
    bottom = floor > 0 and BOTTOM_LARGE[code]
    top = TOP_LARGE[code] or floor == len(column) - 1
    return bottom, top


def visible_shapes(column: Sequence[int]) -> list[int]:
    """The colours of the column's visible shapes, bottom to top (hidden shapes skipped).

    A candy whose two shapes are visible appears twice (rules, "Lines" 3).
    """
    out: list[int] = []
    for floor, candy in enumerate(column):
        bottom, top = shape_visibility(column, floor)
        out.extend([candy // 12] * (bottom + top))
    return out


def _counts_for(cols: Sequence[Sequence[int]], square: int, floor: int, colour: int) -> bool:
    """Whether (square, floor) holds a candy of ``colour`` with at least one visible shape.

    Fully hidden is only possible on floor 0: a large bottom in the board and a small top
    covered by the candy above.
    """
    col = cols[square]
    if floor < 0 or floor >= len(col):
        return False
    candy = col[floor]
    if candy // 12 != colour:
        return False
    return not (floor == 0 and BOTTOM_LARGE[candy % 12] and len(col) > 1)


def _trailing_run(column: Sequence[int], colour: int) -> int:
    """Length of the run of ``colour`` at the end of the column's visible-shape list."""
    run = 0
    for c in reversed(visible_shapes(column)):
        if c != colour:
            break
        run += 1
    return run


def wins_at_plain(cols: Sequence[Sequence[int]], square: int, colour: int) -> bool:
    """:func:`wins_at` written plainly from the rules' helpers (the reference of its tests)."""
    column = cols[square]
    floor = len(column) - 1
    if _trailing_run(column, colour) >= 4:
        return True
    for seg, j in SEGMENTS_AT[square]:
        for step in (0, *STAIRCASE_STEPS):
            for i in range(4):
                if i != j and not _counts_for(cols, seg[i], floor + step * (i - j), colour):
                    break
            else:
                return True
    return False


Cell = tuple[int, int]
#: a line check tree: (first cell, ((second cell, (third cells, ...)), ...)), ...
CheckTree = tuple[tuple[Cell, tuple[tuple[Cell, tuple[Cell, ...]], ...]], ...]


def _line_checks(square: int) -> CheckTree:
    """The lines through ``square`` as a tree of the other three cells, each a (square,
    floor offset from the new candy's floor), nearest first: lines that share their
    first cells (the same direction and step) share the branch, so a failed cell rules
    them out together."""

    def distance(cell: Cell) -> int:
        other = cell[0]
        return max(abs(other % SIZE - square % SIZE), abs(other // SIZE - square // SIZE))

    lines = sorted(
        tuple(sorted(((seg[i], step * (i - j)) for i in range(4) if i != j), key=distance))
        for seg, j in SEGMENTS_AT[square]
        for step in (0, *STAIRCASE_STEPS)
    )
    tree: dict[Cell, dict[Cell, list[Cell]]] = {}
    for first, second, third in lines:
        tree.setdefault(first, {}).setdefault(second, []).append(third)
    return tuple(
        (first, tuple((second, tuple(thirds)) for second, thirds in below.items()))
        for first, below in tree.items()
    )


#: LINE_CHECKS[square]: what :func:`wins_at` looks at (flat and staircase lines)
LINE_CHECKS = tuple(_line_checks(sq) for sq in range(SQUARE_COUNT))
assert all(
    sum(len(thirds) for _, below in tree for _, thirds in below) == 3 * len(SEGMENTS_AT[sq])
    for sq, tree in enumerate(LINE_CHECKS)
)


def wins_at(cols: Sequence[Sequence[int]], square: int, colour: int) -> bool:
    """Whether the candy just placed on top of ``square`` completes a line of ``colour``.

    Only lines through the new candy can be new (a placement never uncovers anything and
    only the mover's shapes are added), so only those are looked at. The same answer as
    :func:`wins_at_plain`, with its ``_counts_for`` inlined at each level of the
    :data:`LINE_CHECKS` tree (the search's hot path).

    >>> cols = [()] * SQUARE_COUNT
    >>> cols[12] = (CODE_OF["Os"], CODE_OF["Sx"], CODE_OF["Xo"], CODE_OF["Os"])
    >>> wins_at(cols, 12, 0), wins_at(cols, 12, 1), wins_at_plain(cols, 12, 0)
    (True, False, True)
    """
    column = cols[square]
    top = len(column) - 1
    low, high = 12 * colour, 12 * colour + 12
    large = BOTTOM_LARGE
    if top >= 2:  # a column line needs 3 candies (floor 0 shows at most one shape)
        run = 0
        for floor in range(top, -1, -1):
            candy = column[floor]
            code = candy % 12
            shown = (TOP_LARGE[code] or floor == top) + (floor > 0 and large[code])
            if not shown:
                continue
            if not low <= candy < high:
                break
            run += shown
            if run >= 4:
                return True
    # a cell counts: a candy of the colour on that floor, not fully hidden (floor 0,
    # large bottom, covered)
    for (sq, offset), below in LINE_CHECKS[square]:
        floor = top + offset
        col = cols[sq]
        if not 0 <= floor < len(col):
            continue
        candy = col[floor]
        if not low <= candy < high or (floor == 0 and large[candy % 12] and len(col) > 1):
            continue
        for (sq, offset), thirds in below:
            floor = top + offset
            col = cols[sq]
            if not 0 <= floor < len(col):
                continue
            candy = col[floor]
            if not low <= candy < high or (floor == 0 and large[candy % 12] and len(col) > 1):
                continue
            for sq, offset in thirds:
                floor = top + offset
                col = cols[sq]
                if not 0 <= floor < len(col):
                    continue
                candy = col[floor]
                if low <= candy < high and not (
                    floor == 0 and large[candy % 12] and len(col) > 1
                ):
                    return True
    return False


LineCells = tuple[tuple[int, int], ...]


def lines_of(cols: Sequence[Sequence[int]], colour: int) -> list[tuple[str, LineCells]]:
    """Every line of ``colour``: ``(kind, ((square, floor), ...))``, kind ``flat``,
    ``staircase`` or ``column`` (a column line lists the floors of its candies).

    >>> cols = [()] * SQUARE_COUNT
    >>> cols[12] = (CODE_OF["Os"], CODE_OF["Sx"], CODE_OF["Xo"], CODE_OF["Os"])
    >>> lines_of(cols, 0)
    [('column', ((12, 1), (12, 2), (12, 3)))]
    """
    found: list[tuple[str, LineCells]] = []
    for sq, col in enumerate(cols):
        owners: list[tuple[int, int]] = []  # (colour, floor) per visible shape
        for floor, candy in enumerate(col):
            bottom, top = shape_visibility(col, floor)
            owners.extend([(candy // 12, floor)] * (bottom + top))
        for start in range(len(owners) - 3):
            if all(owners[start + i][0] == colour for i in range(4)):
                floors = sorted({owners[start + i][1] for i in range(4)})
                found.append(("column", tuple((sq, f) for f in floors)))
    highest = max(len(c) for c in cols)
    for seg in SEGMENTS:
        for base in range(highest):
            for step in (0, *STAIRCASE_STEPS):
                cells = tuple((seg[i], base + step * i) for i in range(4))
                if all(_counts_for(cols, s, f, colour) for s, f in cells):
                    found.append(("flat" if step == 0 else "staircase", cells))
    return found


def line_colours(cols: Sequence[Sequence[int]], players: int) -> list[int]:
    """Every colour that has a line (flat, staircase or column) anywhere on the board."""
    return [colour for colour in range(players) if lines_of(cols, colour)]


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------

PASS_SQUARE = -1


class CandyMove(NamedTuple):
    """A placement ``<bottom><top>@<square>`` (``code`` indexes CODES), or ``pass``."""

    square: int
    code: int

    def __str__(self) -> str:
        if self.square == PASS_SQUARE:
            return "pass"
        return f"{CODES[self.code]}@{SQUARE_NAMES[self.square]}"

    def __repr__(self) -> str:
        """The notation, so that a list of moves reads as moves: ``[b3, c3]``."""
        return str(self)

    @staticmethod
    def parse(text: str) -> CandyMove:
        """Same as :func:`parse_move_text`."""
        return parse_move_text(text)


PASS = CandyMove(PASS_SQUARE, 0)
_MOVE_TABLE = tuple(tuple(CandyMove(sq, c) for c in range(12)) for sq in range(SQUARE_COUNT))


def parse_move_text(text: str) -> CandyMove:
    """Parse ``Os@c3`` or ``pass`` (syntax only).

    >>> tuple(parse_move_text("sX@e5"))
    (24, 9)
    >>> parse_move_text("Oo@a1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof.models.base.InvalidNotationError: invalid move: ... got 'Oo@a1'
    """
    raw = require_text(text, "move").strip()
    if raw.lower() == "pass":
        return PASS
    shapes, at, square = raw.partition("@")
    square = square.lower()  # square names ignore case, as in every game; shapes do not
    if not at or shapes not in CODE_OF or square not in SQUARE_OF:
        raise InvalidNotationError(
            "invalid move: expected <bottom><top>@<square> with one large and one small "
            f"shape of two types, got {text!r}"
        )
    return _MOVE_TABLE[SQUARE_OF[square]][CODE_OF[shapes]]


# ---------------------------------------------------------------------------
# Fast move generation on raw state (shared by Position and the bulk perft)
# ---------------------------------------------------------------------------


def _reserve_mask(counts: Sequence[int]) -> int:
    mask = 0
    for kind, n in enumerate(counts):
        if n < COPIES_PER_KIND:
            mask |= 1 << kind
    return mask


#: _reserve_mask of a position's (tuple) kind counts, filled as they are met
_MASKS: dict[tuple[int, ...], int] = {}


def _mask_of(counts: tuple[int, ...]) -> int:
    """:func:`_reserve_mask` of a tuple of counts, memoised (at most 5**6 of them)."""
    mask = _MASKS.get(counts)
    if mask is None:
        mask = _MASKS[counts] = _reserve_mask(counts)
    return mask


def _placements(cols: Sequence[Sequence[int]], mask: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    if not mask:
        return out
    for sq in range(SQUARE_COUNT):
        col = cols[sq]
        if col:
            code = col[-1] % 12
            state = 2 + 2 * TOP_TYPE[code] + TOP_LARGE[code]
        else:
            state = 0 if LARGE_SOCKET[sq] else 1
        for code in _PLACEABLE[state][mask]:
            out.append((sq, code))
    return out


#: _TOP_STATE[candy]: the _square_state of a square whose top candy is ``candy`` (any colour)
_TOP_STATE = tuple(2 + 2 * TOP_TYPE[c % 12] + TOP_LARGE[c % 12] for c in range(12 * 4))
#: _MOVES_AT[sq][state][mask]: the placements on ``sq`` (CandyMoves, canonical order) for a
#: top state (0..7; 8 for the empty socket of ``sq``) and a reserve mask
_MOVES_AT = tuple(
    tuple(
        tuple(
            tuple(
                _MOVE_TABLE[sq][code]
                for code in _PLACEABLE[
                    state if state < 8 else (0 if LARGE_SOCKET[sq] else 1)
                ][mask]
            )
            for mask in range(64)
        )
        for state in range(9)
    )
    for sq in range(SQUARE_COUNT)
)


def _can_place(cols: Sequence[Sequence[int]], mask: int) -> bool:
    if not mask:
        return False
    for sq in range(SQUARE_COUNT):
        col = cols[sq]
        if not col:
            return True  # any kind fits an empty socket: every kind has both sizes
        code = col[-1] % 12
        if _PLACEABLE[2 + 2 * TOP_TYPE[code] + TOP_LARGE[code]][mask]:
            return True
    return False


def pass_is_legal(mover_can_place: bool, other_can_place: bool) -> bool:
    """[choice] (rules, "Placing a candy"): ``pass`` is legal exactly when the player to
    move cannot place and some other player can. When nobody can place the game ends
    with no winner (rules, "End without a winner")."""
    return not mover_can_place and other_can_place


def _perft(cols: list[list[int]], counts: list[list[int]], mover: int, k: int, depth: int) -> int:
    """Bulk perft of a non-terminal node on mutable state (restored on return)."""
    mine = counts[mover]
    moves = _placements(cols, _reserve_mask(mine))
    nxt = (mover + 1) % k
    if not moves:
        others = any(_can_place(cols, _reserve_mask(counts[p])) for p in range(k) if p != mover)
        if not pass_is_legal(False, others):
            return 0
        return 1 if depth == 1 else _perft(cols, counts, nxt, k, depth - 1)
    if depth == 1:
        return len(moves)
    total = 0
    colour_base = 12 * mover
    for sq, code in moves:
        col = cols[sq]
        col.append(colour_base + code)
        kind = KIND_OF[code]
        mine[kind] += 1
        if not wins_at(cols, sq, mover):
            total += _perft(cols, counts, nxt, k, depth - 1)
        mine[kind] -= 1
        col.pop()
    return total


# ---------------------------------------------------------------------------
# Position
# ---------------------------------------------------------------------------

Columns = tuple[tuple[int, ...], ...]


def _kind_counts(cols: Columns, players: int) -> tuple[tuple[int, ...], ...]:
    counts = [[0] * 6 for _ in range(players)]
    for col in cols:
        for candy in col:
            counts[candy // 12][KIND_OF[candy % 12]] += 1
    return tuple(tuple(row) for row in counts)


@dataclass(frozen=True)
class CandyPosition:
    """A Candy Conquest position: 25 columns (floor 0 first), the player to move, the count.

    Reserves are derived: 4 of each kind minus the candies of that colour on the board.
    """

    cols: Columns
    to_move: int
    players: int
    _counts: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)
    #: set by ``play``: the mover's colour if the placement completed a line, -1 if not
    _last_win: int | None = field(default=None, compare=False, repr=False)

    @property
    def num_players(self) -> int:
        """The player count (the ``num_players`` hook)."""
        return self.players

    def __post_init__(self) -> None:
        if not self._counts:
            object.__setattr__(self, "_counts", _kind_counts(self.cols, self.players))

    # -- protocol --------------------------------------------------------------------------

    @staticmethod
    def from_fen(text: str) -> CandyPosition:
        """Same as :func:`parse_position`."""
        return parse_position(text)

    @property
    def game(self) -> CandyGame:
        return GAME

    def fen(self) -> str:
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            squares = []
            for file in range(SIZE):
                col = self.cols[rank * SIZE + file]
                squares.append(
                    "".join(f"{c // 12 + 1}{CODES[c % 12]}" for c in col) if col else "."
                )
            rows.append(",".join(squares))
        return f"{'/'.join(rows)} {self.to_move + 1} {self.players}"

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"CandyPosition({self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The SVG picture, so that Jupyter shows the position as a board."""
        return self.game.info.draw(self)

    def key(self) -> tuple[Columns, int, int]:
        return (self.cols, self.to_move, self.players)

    def reserve(self, player: int) -> tuple[int, ...]:
        """Candies of each kind (in KINDS order) that ``player`` still holds."""
        return tuple(COPIES_PER_KIND - n for n in self._counts[player])

    def can_place(self, player: int) -> bool:
        """Whether ``player`` has a candy and a square that accepts it."""
        return _can_place(self.cols, _mask_of(self._counts[player]))

    def placements(self, player: int) -> list[CandyMove]:
        """The placements ``player`` could make here, in canonical order (the moves of
        :func:`_placements`, read from a table per square, top state and reserve)."""
        mask = _mask_of(self._counts[player])
        out: list[CandyMove] = []
        if not mask:
            return out
        for moves_at, col in zip(_MOVES_AT, self.cols, strict=True):
            out.extend(moves_at[_TOP_STATE[col[-1]] if col else 8][mask])
        return out

    def winners(self) -> list[int]:
        """Colours with a line on the board."""
        if self._last_win is not None:
            return [] if self._last_win < 0 else [self._last_win]
        return line_colours(self.cols, self.players)

    def outcome(self) -> Outcome | None:
        cached = self.__dict__.get("_outcome_cache", False)
        if cached is not False:
            return cached  # type: ignore[no-any-return]
        winners = self.winners()
        result: Outcome | None
        if winners:
            result = Outcome(frozenset(winners))
        else:  # rules, "End without a winner": nobody can place; no tie-break
            cols = self.cols
            for row in self._counts:  # CandyPosition.can_place of every player, inlined
                mask = _mask_of(row)
                if mask and (() in cols or _can_place(cols, mask)):
                    result = None
                    break
            else:
                result = Outcome.draw()
        object.__setattr__(self, "_outcome_cache", result)
        return result

    def legal_moves(self) -> tuple[CandyMove, ...]:
        cached = self.__dict__.get("_moves_cache")
        if cached is not None:
            return cached  # type: ignore[no-any-return]
        moves: tuple[CandyMove, ...]
        if self.outcome() is not None:
            moves = ()
        else:
            own = tuple(self.placements(self.to_move))
            if own:
                moves = own
            else:
                others = any(self.can_place(p) for p in range(self.players) if p != self.to_move)
                moves = (PASS,) if pass_is_legal(False, others) else ()
        object.__setattr__(self, "_moves_cache", moves)
        return moves

    def parse_move(self, text: str) -> CandyMove:
        return parse_move_text(text)

    def play(self, move: Any) -> CandyPosition:
        if isinstance(move, str):
            move = parse_move_text(move)
        legal = self.__dict__.get("_moves_set")
        if legal is None:
            legal = frozenset(self.legal_moves())
            object.__setattr__(self, "_moves_set", legal)
        if move not in legal:
            raise IllegalMoveError(f"illegal move {move}: {self._why_illegal(move)}")
        mover = self.to_move
        nxt = (mover + 1) % self.players
        if move.square == PASS_SQUARE:
            return CandyPosition(self.cols, nxt, self.players, self._counts, -1)
        cols = list(self.cols)
        cols[move.square] = (*cols[move.square], 12 * mover + move.code)
        new_cols = tuple(cols)
        counts = list(self._counts)
        row = list(counts[mover])
        row[KIND_OF[move.code]] += 1
        counts[mover] = tuple(row)
        won = mover if wins_at(new_cols, move.square, mover) else -1
        # the dataclass's frozen __init__, without its per-field checks (the hot path)
        child: CandyPosition = object.__new__(CandyPosition)
        child.__dict__.update(
            cols=new_cols, to_move=nxt, players=self.players, _counts=tuple(counts), _last_win=won
        )
        return child

    def _why_illegal(self, move: CandyMove) -> str:
        if self.outcome() is not None:
            return "the game is over"
        if move.square == PASS_SQUARE:
            return "pass is only legal when the player cannot place and another player can"
        col = self.cols[move.square]
        code = move.code
        if not col:
            size = "large" if LARGE_SOCKET[move.square] else "small"
            if BOTTOM_LARGE[code] != LARGE_SOCKET[move.square]:
                return f"the bottom must fit the {size} socket of {SQUARE_NAMES[move.square]}"
        else:
            top = CODES[col[-1] % 12][1]
            if BOTTOM_TYPE[code] != TOP_TYPE[col[-1] % 12]:
                return f"the bottom must have the type of the top shape {top!r}"
            if BOTTOM_LARGE[code] == TOP_LARGE[col[-1] % 12]:
                return f"the bottom must have the other size than the top shape {top!r}"
        if self.reserve(self.to_move)[KIND_OF[code]] == 0:
            return f"player {self.to_move + 1} has no {KINDS[KIND_OF[code]]} candy left"
        return "not a legal move here"

    def perft(self, depth: int) -> int:
        """Leaves of the legal-move tree (bulk counting; equals ``generic_perft``)."""
        if depth == 0:
            return 1
        if self.outcome() is not None:
            return 0
        cols = [list(c) for c in self.cols]
        counts = [list(r) for r in self._counts]
        return _perft(cols, counts, self.to_move, self.players, depth)

    def transform(self, symmetry: int) -> CandyPosition:
        table = SYMMETRIES[symmetry]
        cols: list[tuple[int, ...]] = [()] * SQUARE_COUNT
        for sq in range(SQUARE_COUNT):
            cols[table[sq]] = self.cols[sq]
        return CandyPosition(tuple(cols), self.to_move, self.players, self._counts, self._last_win)

    def canonical(self) -> tuple[tuple[Columns, int, int], int]:
        """Solver hook: the smallest key over the 8 symmetries and the symmetry giving it.

        >>> pos = GAME.start().play(parse_move_text("Os@a1"))
        >>> key, s = pos.canonical()
        >>> pos.transform(s).key() == key, s, SQUARE_NAMES[key[0].index((0,))]
        (True, 2, 'e5')
        """
        cols = self.cols
        best = cols
        best_sym = 0
        for sym in range(1, 8):
            image = _IMAGE[sym](cols)
            if image < best:
                best, best_sym = image, sym
        return (best, self.to_move, self.players), best_sym

    def transform_move(self, move: Any, symmetry: int) -> CandyMove:
        if move.square == PASS_SQUARE:
            return move  # type: ignore[no-any-return]
        return _MOVE_TABLE[SYMMETRIES[symmetry][move.square]][move.code]

    # -- plausibility ----------------------------------------------------------------------

    def status(self) -> list[str]:
        """Problems of a position that parses but cannot arise in play ([] if plausible).

        >>> GAME.parse_position(".,.,.,.,./.,.,.,.,./.,.,1Os,.,./.,.,.,.,./.,.,.,.,. 1 2").status()
        ['turn: player 2 should move after 1 placements, got 1']
        """
        problems: list[str] = []
        k = self.players
        placed = [sum(row) for row in self._counts]
        total = sum(placed)
        full = all(self.cols)
        # Before the board is full nobody can be stuck with candies in hand, and a player
        # whose reserve is empty has placed their 24th candy only after everyone before them
        # did, so no pass happened: the turn order fixes every count and the side to move.
        if not full:
            expected = [(total - p + k - 1) // k for p in range(k)]
            if placed != expected:
                problems.append(
                    "candy counts: expected "
                    + ", ".join(map(str, expected))
                    + " for "
                    + str(total)
                    + " placements in turn order, got "
                    + ", ".join(map(str, placed))
                )
            elif total % k != self.to_move:
                problems.append(
                    f"turn: player {total % k + 1} should move after {total} placements, "
                    f"got {self.to_move + 1}"
                )
        lines = line_colours(self.cols, k)
        if len(lines) > 1:
            problems.append(
                "lines: more than one player has a line: " + ", ".join(str(c + 1) for c in lines)
            )
        for colour in lines:
            mover = (self.to_move - 1) % k
            if colour != mover:
                problems.append(
                    f"lines: player {colour + 1} has a line but player {mover + 1} moved last"
                )
            elif not self._last_placement_can_complete(colour):
                problems.append(
                    f"lines: player {colour + 1} has a line that no single last placement "
                    "completed"
                )
        return problems

    def _last_placement_can_complete(self, colour: int) -> bool:
        """Whether removing some top candy of ``colour`` leaves a board without lines."""
        for sq in range(SQUARE_COUNT):
            col = self.cols[sq]
            if col and col[-1] // 12 == colour:
                cols = list(self.cols)
                cols[sq] = col[:-1]
                if not line_colours(tuple(cols), self.players):
                    return True
        return False

    # -- drawing ---------------------------------------------------------------------------

    def board_text(self) -> str:
        return board_text(self)


# ---------------------------------------------------------------------------
# Text drawing
# ---------------------------------------------------------------------------


def candy_text(column: Sequence[int], floor: int) -> str:
    """One candy as ``<colour><bottom><top>`` with hidden shapes in parentheses.

    >>> col = (CODE_OF["Os"], 12 + CODE_OF["Sx"])
    >>> candy_text(col, 0), candy_text(col, 1)
    ('1(O)(s)', '2Sx')
    """
    candy = column[floor]
    bottom, top = shape_visibility(column, floor)
    text = CODES[candy % 12]
    b = text[0] if bottom else f"({text[0]})"
    t = text[1] if top else f"({text[1]})"
    return f"{candy // 12 + 1}{b}{t}"


def board_text(pos: CandyPosition) -> str:
    """A top view (height and top candy of each square) and every column floor by floor.

    Empty sockets show their size (``L`` large, ``s`` small). A shape in parentheses is
    hidden (in the board, inside a large shape, or covered).
    """
    width = 9
    lines = ["top view: <height>:<top candy>, empty sockets L (large) / s (small)"]
    header = "    " + "".join(f"{f:^{width}}" for f in FILES)
    lines.append(header)
    for rank in range(SIZE - 1, -1, -1):
        cells = []
        for file in range(SIZE):
            sq = rank * SIZE + file
            col = pos.cols[sq]
            if col:
                cell = f"{len(col)}:{col[-1] // 12 + 1}{CODES[col[-1] % 12]}"
            else:
                cell = "L" if LARGE_SOCKET[sq] else "s"
            cells.append(f"{cell:^{width}}")
        lines.append(f" {rank + 1}  " + "".join(cells) + f"  {rank + 1}")
    lines.append(header)
    occupied = [sq for sq in range(SQUARE_COUNT) if pos.cols[sq]]
    if occupied:
        lines.append("columns, floor 0 first; (X) = hidden shape; visible = colours counted:")
        for sq in occupied:
            col = pos.cols[sq]
            floors = "  ".join(f"f{i} {candy_text(col, i)}" for i in range(len(col)))
            seen = "".join(str(c + 1) for c in visible_shapes(col))
            lines.append(f"  {SQUARE_NAMES[sq]}: {floors}   visible {seen or '-'}")
    for colour in range(pos.players):
        for kind, line_cells in lines_of(pos.cols, colour):
            where = " ".join(f"{SQUARE_NAMES[sq]}/f{floor}" for sq, floor in line_cells)
            lines.append(f"line of player {colour + 1}: {kind} {where}")
    reserves = []
    for p in range(pos.players):
        left = pos.reserve(p)
        reserves.append(
            f"  {p + 1}: " + " ".join(f"{KINDS[i]}{left[i]}" for i in range(6)) + f" ({sum(left)})"
        )
    lines.append("reserves:")
    lines.extend(reserves)
    return "\n".join(line.rstrip() for line in lines)


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


#: how the notation writes the players (to move, a candy's colour): one ASCII digit, never
#: ``²`` or ``١`` (which ``isdigit`` takes) nor ``01``
PLAYER_SYMBOLS = ("1", "2", "3", "4")


def _parse_column(text: str, square: int, players: int) -> tuple[int, ...]:
    name = SQUARE_NAMES[square]
    if text == ".":
        return ()
    if len(text) % 3 != 0 or not text:
        raise InvalidNotationError(
            f"invalid square {name}: expected '.' or candies <colour><bottom><top>, got {text!r}"
        )
    column: list[int] = []
    for i in range(0, len(text), 3):
        token = text[i : i + 3]
        colour_text, b, t = token[0], token[1], token[2]
        if colour_text not in PLAYER_SYMBOLS[:players]:
            raise InvalidNotationError(
                f"invalid candy colour at {name}: expected 1..{players}, got {token!r}"
            )
        for letter in (b, t):
            if letter.lower() not in TYPES:
                raise InvalidNotationError(
                    f"invalid shape at {name}: unknown shape letter {letter!r} in {token!r}"
                )
        if b.isupper() == t.isupper():
            raise InvalidNotationError(
                f"invalid candy at {name}: two shapes of the same size in {token!r}"
            )
        if b.lower() == t.lower():
            raise InvalidNotationError(
                f"invalid candy at {name}: two shapes of the same type in {token!r}"
            )
        code = CODE_OF[b + t]
        state = _square_state(column, square)
        if not _accepts(state, code):
            if not column:
                size = "large" if LARGE_SOCKET[square] else "small"
                why = f"the bottom does not fit the {size} socket"
            else:
                why = f"the bottom cannot nest with the top shape {CODES[column[-1] % 12][1]!r}"
            raise InvalidNotationError(f"invalid nesting at {name}: {why}: {token!r}")
        column.append(12 * (int(colour_text) - 1) + code)
    return tuple(column)


def parse_position(text: str) -> CandyPosition:
    """Parse ``<rows> <to-move> <players>`` (rules, "Position notation").

    >>> parse_position("x 1 2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof.models.base.InvalidNotationError: invalid rows: expected 5 rows ... got 'x'
    """
    fields = require_text(text).split()
    if len(fields) != 3:
        raise InvalidNotationError(
            f"invalid position: expected 3 fields '<rows> <to-move> <players>', got {text!r}"
        )
    rows_text, move_text, players_text = fields
    if players_text not in {str(n) for n in PLAYER_COUNTS}:
        raise InvalidNotationError(f"invalid players: expected 2, 3 or 4, got {players_text!r}")
    players = int(players_text)
    if move_text not in PLAYER_SYMBOLS[:players]:
        raise InvalidNotationError(f"invalid to-move: expected 1..{players}, got {move_text!r}")
    rows = rows_text.split("/")
    if len(rows) != SIZE:
        raise InvalidNotationError(
            f"invalid rows: expected 5 rows separated by '/', got {rows_text!r}"
        )
    cols: list[tuple[int, ...]] = [()] * SQUARE_COUNT
    for i, row in enumerate(rows):
        rank = SIZE - 1 - i
        squares = row.split(",")
        if len(squares) != SIZE:
            raise InvalidNotationError(
                f"invalid rank {rank + 1}: expected 5 squares separated by ',', got {row!r}"
            )
        for file, square_text in enumerate(squares):
            sq = rank * SIZE + file
            cols[sq] = _parse_column(square_text, sq, players)
    counts = _kind_counts(tuple(cols), players)
    for colour, kind_counts in enumerate(counts):
        for kind, n in enumerate(kind_counts):
            if n > COPIES_PER_KIND:
                raise InvalidNotationError(
                    f"invalid material: player {colour + 1} has {n} candies of kind "
                    f"{KINDS[kind]} (at most {COPIES_PER_KIND}), got {rows_text!r}"
                )
    return CandyPosition(tuple(cols), int(move_text) - 1, players, counts)


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


#: the options of ``start()`` (Candy Conquest has no game options)
OPTIONS = (
    OptionInfo("players", int, "number of players (2-4)", default=DEFAULT_PLAYERS,
               choices=PLAYER_COUNTS),
)  # fmt: skip


class CandyGame(SymbolsMixin):
    """Candy Conquest: 5x5 four-in-a-row in 3D with nesting two-shape candies, 2-4 players."""

    name = "candy"
    symmetry_count = 8
    symbols = PLAYER_SYMBOLS

    def start(self, **options: Any) -> CandyPosition:
        """The empty board with player 1 to move (``players`` 2, 3 or 4; default 2)."""
        count = check_options(self.name, OPTIONS, options)["players"]
        return CandyPosition(((),) * SQUARE_COUNT, 0, count)

    def parse_position(self, text: str) -> CandyPosition:
        return parse_position(text)


GAME = CandyGame()


def make_game(**options: Any) -> CandyGame:
    """The Candy Conquest game (it has no options)."""
    check_options("candy", OPTIONS, options, scope="game")
    return GAME
