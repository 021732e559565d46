"""Carpniches: capybaras against poodles, moving and stacking on a 6 x 6 board.

The rules are ``rules/carpniches.md`` (shared docs); every **[choice]** of that file is
kept in one named constant or function below, with a comment citing it.

Board layout: square index ``sq = 6 * rank + file`` (``a1`` = 0, ``f1`` = 5, ``f6`` = 35)::

    rank 6 | 30 31 32 33 34 35
    rank 5 | 24 25 26 27 28 29
    rank 4 | 18 19 20 21 22 23
    rank 3 | 12 13 14 15 16 17
    rank 2 |  6  7  8  9 10 11
    rank 1 |  0  1  2  3  4  5
             a  b  c  d  e  f

A position is six 36-bit boards (Python ints): ``o1``, ``o2``, ``o3`` hold the squares
whose stack is at least 1, 2 and 3 high; ``l0``, ``l1``, ``l2`` hold the squares whose
piece at level 0 (bottom), 1 and 2 is a poodle (``lk`` is always inside ``o(k+1)``).
Players: 0 = capybaras (``c``, moves first), 1 = poodles (``p``).

>>> game = make_game()
>>> start = game.start()
>>> start.fen()
'(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1'
>>> [str(m) for m in start.legal_moves()][:4]
['f1-c1', 'f1-d1', 'f1-e1', 'f1-e2']
>>> pos = start.play(start.parse_move("f1-e2"))
>>> pos.fen()
'(cpc)4(pcp)/6/6/6/4c1/(pcp)4(cp) p e2'
>>> start.perft(2)
438

Repetition **[choice]** (rules: "Repetition"): a :class:`CarpnichesPosition` carries no
history, so it never ends by repetition; :func:`play_record` plays a game record and
declares the draw when a position occurs for the third time (:data:`REPETITION_LIMIT`).
The game-agnostic solvers treat a cycle as a draw (they never prove a win through one).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from boardproof.models.base import (
    TWO_PLAYERS,
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    Outcome,
    SymbolsMixin,
    check_options,
    require_text,
)

# ---------------------------------------------------------------------------
# Board geometry: tables built once at import.
# ---------------------------------------------------------------------------

SIZE = 6
SQUARES = SIZE * SIZE
FILES = "abcdef"
FULL = (1 << SQUARES) - 1
MAX_HEIGHT = 3  # a stack holds at most 3 pieces (rules: "Material and board")
CAPYBARA, POODLE = 0, 1
SYMBOLS = ("c", "p")
PIECES_PER_SIDE = 6  # rules: 6 capybaras and 6 poodles

#: the opening field: ``1`` (first player's first move to play), a landing square 0..35
#: (the second player's first move to play), or ``-`` (the first turns are over).
OPENING_FIRST = -1
OPENING_OVER = -2

#: first moves go 1, 2 or 3 squares (rules: "First turns")
FIRST_MOVE_DISTANCES = (1, 2, 3)

#: [choice] rules "Repetition": a game record is drawn when a position occurs this often
REPETITION_LIMIT = 3

#: [choice] rules "Material and board": only the four corners are used at the start.
#: Stacks are written bottom to top.
START_STACKS = {"a1": "pcp", "f6": "pcp", "a6": "cpc", "f1": "cpc"}

#: (rank step, file step) of the 8 directions
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def square_name(sq: int) -> str:
    """``square_name(0) == 'a1'``, ``square_name(35) == 'f6'``.

    >>> square_name(8)
    'c2'
    """
    return FILES[sq % SIZE] + str(sq // SIZE + 1)


SQUARE_NAMES = tuple(square_name(sq) for sq in range(SQUARES))
SQUARE_INDEX = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def _build_rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for sq in range(SQUARES):
        rank, file = divmod(sq, SIZE)
        per_dir = []
        for dr, df in DIRECTIONS:
            ray = []
            r, f = rank + dr, file + df
            while 0 <= r < SIZE and 0 <= f < SIZE:
                ray.append(r * SIZE + f)
                r, f = r + dr, f + df
            per_dir.append(tuple(ray))
        rays.append(tuple(per_dir))
    return tuple(rays)


#: RAYS[sq][d]: the squares from ``sq`` (exclusive) to the edge in direction d
RAYS = _build_rays()

#: A move step: (mask of the squares strictly between, bit of the landing square, landing)
Step = tuple[int, int, int]


def _steps(sq: int, distances: Iterable[int]) -> tuple[Step, ...]:
    steps = []
    for ray in RAYS[sq]:
        for d in distances:
            if d <= len(ray):
                between = 0
                for s in ray[: d - 1]:
                    between |= 1 << s
                steps.append((between, 1 << ray[d - 1], ray[d - 1]))
    steps.sort(key=lambda step: step[2])  # canonical order: by landing square
    return tuple(steps)


#: EXACT[h][sq]: the steps of exactly h squares (the top of an h-high stack), by landing
EXACT: tuple[tuple[tuple[Step, ...], ...], ...] = tuple(
    tuple(_steps(sq, (h,)) for sq in range(SQUARES)) if h else () for h in range(4)
)
#: FIRST_STEPS[sq]: the first-turn steps of 1, 2 or 3 squares, by landing square
FIRST_STEPS: tuple[tuple[Step, ...], ...] = tuple(
    _steps(sq, FIRST_MOVE_DISTANCES) for sq in range(SQUARES)
)


def _build_between() -> dict[tuple[int, int], tuple[int, int]]:
    table = {}
    for sq in range(SQUARES):
        for ray in RAYS[sq]:
            between = 0
            for d, target in enumerate(ray, start=1):
                table[(sq, target)] = (d, between)
                between |= 1 << target
    return table


#: BETWEEN[(from, to)] = (distance, mask of the squares strictly between) for aligned squares
BETWEEN = _build_between()


def _mask(predicate: Any) -> int:
    return sum(1 << sq for sq in range(SQUARES) if predicate(sq // SIZE, sq % SIZE))


#: squares where a line of 3 can start going right (also up-right): files a-d
_START_RIGHT = _mask(lambda r, f: f <= SIZE - 3)
#: squares where a line of 3 can start going up-left: files c-f
_START_LEFT = _mask(lambda r, f: f >= 2)

assert len(RAYS) == SQUARES and all(len(r) == 8 for r in RAYS)
assert len(BETWEEN) == sum(len(ray) for rays in RAYS for ray in rays)


def has_line_plain(tops: int) -> bool:
    """Whether the board ``tops`` holds 3 consecutive squares in a row, column or diagonal.

    A line of 4 or more contains one of 3, so this finds every line of 3 or more.

    >>> has_line_plain(0b111), has_line_plain(0b1011), has_line_plain(1 | 1 << 7 | 1 << 14)
    (True, False, True)
    """
    return bool(
        (tops & (tops >> 1) & (tops >> 2) & _START_RIGHT)
        | (tops & (tops >> SIZE) & (tops >> 2 * SIZE))
        | (tops & (tops >> (SIZE + 1)) & (tops >> 2 * (SIZE + 1)) & _START_RIGHT)
        | (tops & (tops >> (SIZE - 1)) & (tops >> 2 * (SIZE - 1)) & _START_LEFT)
    )


#: has_line's memo: a search asks about the same top boards many times per node
_LINE_MEMO: dict[int, bool] = {}
#: the memo is emptied when it holds this many boards (about 20 MB)
_LINE_MEMO_SIZE = 1 << 17


def has_line(tops: int) -> bool:
    """:func:`has_line_plain`, memoised (the search's hot path).

    >>> has_line(0b111), has_line(0b1011), has_line((1 << 0) | (1 << 7) | (1 << 14))
    (True, False, True)
    """
    found = _LINE_MEMO.get(tops)
    if found is None:
        if len(_LINE_MEMO) >= _LINE_MEMO_SIZE:
            _LINE_MEMO.clear()
        found = _LINE_MEMO[tops] = has_line_plain(tops)
    return found


def _line_triples() -> tuple[tuple[int, int, int], ...]:
    triples = []
    for sq in range(SQUARES):
        for d in (0, 1, 2, 3):  # right, up-right, up, up-left: each line once
            ray = RAYS[sq][d]
            if len(ray) >= 2:
                triples.append((sq, ray[0], ray[1]))
    return tuple(triples)


#: every run of 3 consecutive squares (rows 24, columns 24, diagonals 32)
LINE_TRIPLES = _line_triples()
assert len(LINE_TRIPLES) == 80


def _symmetry_tables() -> tuple[tuple[int, ...], ...]:
    n = SIZE - 1
    maps = (
        lambda r, f: (r, f),  # 0 identity
        lambda r, f: (f, n - r),  # 1 quarter turn
        lambda r, f: (n - r, n - f),  # 2 half turn
        lambda r, f: (n - f, r),  # 3 three-quarter turn
        lambda r, f: (r, n - f),  # 4 mirror a<->f
        lambda r, f: (n - r, f),  # 5 mirror 1<->6
        lambda r, f: (f, r),  # 6 transpose (a1-f6 diagonal)
        lambda r, f: (n - f, n - r),  # 7 anti-transpose (a6-f1 diagonal)
    )
    tables = []
    for fn in maps:
        row = []
        for sq in range(SQUARES):
            r, f = fn(*divmod(sq, SIZE))
            row.append(r * SIZE + f)
        tables.append(tuple(row))
    return tuple(tables)


#: SYMMETRY[s][sq]: the image of square sq under board symmetry s (0 = identity)
SYMMETRY = _symmetry_tables()
assert all(sorted(t) == list(range(SQUARES)) for t in SYMMETRY)


def _row_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """ROW_IMAGE[s][rank][row bits]: the image board of one rank's 6 bits under symmetry s."""
    out = []
    for table in SYMMETRY:
        per_rank = []
        for rank in range(SIZE):
            images = []
            for row in range(1 << SIZE):
                image = 0
                for file in range(SIZE):
                    if row >> file & 1:
                        image |= 1 << table[rank * SIZE + file]
                images.append(image)
            per_rank.append(tuple(images))
        out.append(tuple(per_rank))
    return tuple(out)


ROW_IMAGE = _row_tables()


def _map_bits(bits: int, rows: tuple[tuple[int, ...], ...]) -> int:
    """The image of a board under a symmetry, given its ROW_IMAGE[s] (6 table lookups)."""
    return (
        rows[0][bits & 63]
        | rows[1][bits >> 6 & 63]
        | rows[2][bits >> 12 & 63]
        | rows[3][bits >> 18 & 63]
        | rows[4][bits >> 24 & 63]
        | rows[5][bits >> 30 & 63]
    )


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------


class CarpnichesMove(NamedTuple):
    """A move ``<from>-<to>`` (square indices).

    >>> str(CarpnichesMove(0, 7))
    'a1-b2'
    """

    frm: int
    to: int

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.frm]}-{SQUARE_NAMES[self.to]}"

    def __repr__(self) -> str:
        """The notation, so that a list of moves reads as moves: ``[b3, c3]``."""
        return str(self)


#: interned moves, MOVES[from][to]
MOVES = tuple(tuple(CarpnichesMove(f, t) for t in range(SQUARES)) for f in range(SQUARES))


def parse_square(text: str, field: str = "square") -> int:
    """The index of a square name; raises InvalidNotationError.

    >>> parse_square("f6")
    35
    """
    sq = SQUARE_INDEX.get(text)
    if sq is None:
        raise InvalidNotationError(f"invalid {field}: expected a square a1-f6, got {text!r}")
    return sq


def parse_move_text(text: str) -> CarpnichesMove:
    """Parse ``<from>-<to>`` (syntax only; legality is checked by ``play``).

    >>> tuple(parse_move_text("a1-b2"))
    (0, 7)
    """
    parts = require_text(text, "move").strip().lower().split("-")
    if len(parts) != 2 or parts[0] not in SQUARE_INDEX or parts[1] not in SQUARE_INDEX:
        raise InvalidNotationError(f"invalid move: expected <from>-<to> like a1-b2, got {text!r}")
    return MOVES[SQUARE_INDEX[parts[0]]][SQUARE_INDEX[parts[1]]]


# ---------------------------------------------------------------------------
# Raw-state helpers (the hot path works on plain ints)
# ---------------------------------------------------------------------------


def poodle_tops(o2: int, o3: int, l0: int, l1: int, l2: int) -> int:
    """Squares whose top piece is a poodle (capybara tops: ``o1 & ~poodle_tops``)."""
    return (l0 & ~o2) | (l1 & ~o3) | l2


def _gen_moves(o1: int, o3: int, tops: int, o2: int, opening: int) -> list[CarpnichesMove]:
    moves: list[CarpnichesMove] = []
    append = moves.append
    b = tops
    if opening == OPENING_OVER:
        while b:
            low = b & -b
            b ^= low
            f = low.bit_length() - 1
            row = MOVES[f]
            h = 3 if o3 & low else 2 if o2 & low else 1
            for between, tbit, t in EXACT[h][f]:
                if not (o1 & between) and not (o3 & tbit):
                    append(row[t])
    else:
        # rules "First turns": 1-3 squares; the second player's first move may not land
        # on, or pass over, the first player's landing square
        forbid = 0 if opening == OPENING_FIRST else 1 << opening
        while b:
            low = b & -b
            b ^= low
            f = low.bit_length() - 1
            row = MOVES[f]
            for between, tbit, t in FIRST_STEPS[f]:
                if not (o1 & between) and not (o3 & tbit) and not ((between | tbit) & forbid):
                    append(row[t])
    return moves


def _count_moves(o1: int, o2: int, o3: int, tops: int, opening: int) -> int:
    n = 0
    b = tops
    if opening == OPENING_OVER:
        while b:
            low = b & -b
            b ^= low
            f = low.bit_length() - 1
            h = 3 if o3 & low else 2 if o2 & low else 1
            for between, tbit, _ in EXACT[h][f]:
                if not (o1 & between) and not (o3 & tbit):
                    n += 1
        return n
    return len(_gen_moves(o1, o3, tops, o2, opening))


def _has_move(o1: int, o2: int, o3: int, tops: int, opening: int) -> bool:
    """Whether the side with these top pieces has a legal move (stops at the first)."""
    if opening != OPENING_OVER:
        return bool(_gen_moves(o1, o3, tops, o2, opening))
    b = tops
    while b:
        low = b & -b
        b ^= low
        f = low.bit_length() - 1
        h = 3 if o3 & low else 2 if o2 & low else 1
        for between, tbit, _ in EXACT[h][f]:
            if not (o1 & between) and not (o3 & tbit):
                return True
    return False


def _perft(
    o1: int, o2: int, o3: int, l0: int, l1: int, l2: int, side: int, opening: int, depth: int
) -> int:
    tp = (l0 & ~o2) | (l1 & ~o3) | l2
    tc = o1 & ~tp
    if has_line(tp) or has_line(tc):
        return 0
    tops = tp if side else tc
    if depth == 1:
        return _count_moves(o1, o2, o3, tops, opening)
    total = 0
    other = 1 - side
    for move in _gen_moves(o1, o3, tops, o2, opening):
        f, t = move
        total += _perft(
            *_apply(o1, o2, o3, l0, l1, l2, side, f, t),
            other,
            OPENING_OVER if opening != OPENING_FIRST else t,
            depth - 1,
        )
    return total


def _apply(
    o1: int, o2: int, o3: int, l0: int, l1: int, l2: int, side: int, f: int, t: int
) -> tuple[int, int, int, int, int, int]:
    fb = 1 << f
    tb = 1 << t
    if o3 & fb:
        o3 ^= fb
        l2 &= ~fb
    elif o2 & fb:
        o2 ^= fb
        l1 &= ~fb
    else:
        o1 ^= fb
        l0 &= ~fb
    if o2 & tb:
        o3 |= tb
        if side:
            l2 |= tb
    elif o1 & tb:
        o2 |= tb
        if side:
            l1 |= tb
    else:
        o1 |= tb
        if side:
            l0 |= tb
    return o1, o2, o3, l0, l1, l2


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


class CarpnichesPosition(NamedTuple):
    """A Carpniches position: six bitboards, the side to move and the opening field.

    ``opening`` is :data:`OPENING_FIRST`, a landing square (0..35) or :data:`OPENING_OVER`.
    """

    o1: int
    o2: int
    o3: int
    l0: int
    l1: int
    l2: int
    to_move: int
    opening: int

    # -- protocol -----------------------------------------------------------

    @property
    def game(self) -> CarpnichesGame:
        return GAME

    def key(self) -> CarpnichesPosition:
        """The transposition key: the position itself (it is a tuple of ints)."""
        return self

    def tops(self, player: int) -> int:
        """The squares whose top piece belongs to ``player``."""
        tp = poodle_tops(self.o2, self.o3, self.l0, self.l1, self.l2)
        return tp if player == POODLE else self.o1 & ~tp

    def height(self, sq: int) -> int:
        """The height of the stack on ``sq`` (0 = empty)."""
        return (self.o1 >> sq & 1) + (self.o2 >> sq & 1) + (self.o3 >> sq & 1)

    def stack(self, sq: int) -> str:
        """The stack on ``sq`` bottom to top, e.g. ``'pcp'`` ('' when empty)."""
        layers = (self.l0, self.l1, self.l2)
        return "".join(SYMBOLS[layers[k] >> sq & 1] for k in range(self.height(sq)))

    def lines(self) -> tuple[bool, bool]:
        """Whether (capybaras, poodles) have a line of 3 or more top pieces."""
        tp = poodle_tops(self.o2, self.o3, self.l0, self.l1, self.l2)
        return has_line(self.o1 & ~tp), has_line(tp)

    def legal_moves(self) -> tuple[CarpnichesMove, ...]:
        """The legal moves in canonical order (by from-square, then to-square)."""
        tp = poodle_tops(self.o2, self.o3, self.l0, self.l1, self.l2)
        tc = self.o1 & ~tp
        if has_line(tp) or has_line(tc):
            return ()
        tops = tp if self.to_move else tc
        return tuple(_gen_moves(self.o1, self.o3, tops, self.o2, self.opening))

    def outcome(self) -> Outcome | None:
        """The result, or None while the game goes on (rules: "End of the game").

        The lines on the board are those the last move made (the game stops at the first
        line), so the rules' checks depend on the position only: both sides have a line
        -> the mover (the side not to move) loses; one side has a line -> it wins;
        otherwise the side to move, if it has no legal move, loses (blocking).
        """
        tp = poodle_tops(self.o2, self.o3, self.l0, self.l1, self.l2)
        line_c, line_p = has_line(self.o1 & ~tp), has_line(tp)
        mover = 1 - self.to_move
        if line_c or line_p:
            return _line_outcome(line_c, line_p, mover)
        tops = tp if self.to_move else self.o1 & ~tp
        if not _has_move(self.o1, self.o2, self.o3, tops, self.opening):
            return Outcome.win(mover)  # blocking: the opponent has no legal move
        return None

    def play(self, move: CarpnichesMove) -> CarpnichesPosition:
        """The position after ``move``; raises IllegalMoveError naming the reason.

        The usual case (a legal move after the first turns) is checked inline; anything
        else goes to :meth:`illegality` for its reason (the same rules, tested equal).
        """
        o1, o2, o3, l0, l1, l2, side, opening = self
        f, t = move
        fb = 1 << f
        if opening == OPENING_OVER and o1 & fb and not o3 >> t & 1:
            tp = (l0 & ~o2) | (l1 & ~o3) | l2
            if (tp if side else o1 & ~tp) & fb:
                aligned = BETWEEN.get((f, t))
                h = 3 if o3 & fb else 2 if o2 & fb else 1
                if (
                    aligned is not None
                    and aligned[0] == h
                    and not aligned[1] & o1
                    and not has_line(tp)
                    and not has_line(o1 & ~tp)
                ):
                    return CarpnichesPosition(
                        *_apply(o1, o2, o3, l0, l1, l2, side, f, t), 1 - side, OPENING_OVER
                    )
        reason = self.illegality(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {move}: {reason}")
        return self._play_unchecked(move.frm, move.to)

    def _play_unchecked(self, f: int, t: int) -> CarpnichesPosition:
        o1, o2, o3, l0, l1, l2, side, opening = self
        o1, o2, o3, l0, l1, l2 = _apply(o1, o2, o3, l0, l1, l2, side, f, t)
        return CarpnichesPosition(
            o1,
            o2,
            o3,
            l0,
            l1,
            l2,
            1 - side,
            OPENING_OVER if opening != OPENING_FIRST else t,
        )

    def illegality(self, move: CarpnichesMove) -> str | None:
        """Why ``move`` is illegal here (one phrase), or None when it is legal."""
        f, t = move
        if any(self.lines()):
            return "the game is over (a line is on the board)"
        if not (self.o1 >> f & 1):
            return f"{SQUARE_NAMES[f]} is empty"
        if not (self.tops(self.to_move) >> f & 1):
            mover = "capybara" if self.to_move == CAPYBARA else "poodle"
            other = "poodle" if self.to_move == CAPYBARA else "capybara"
            return f"the top piece on {SQUARE_NAMES[f]} is a {other}, not a {mover}"
        if f == t:
            return "the piece must leave its square"
        aligned = BETWEEN.get((f, t))
        if aligned is None:
            return f"{SQUARE_NAMES[f]} and {SQUARE_NAMES[t]} are not on a straight line"
        distance, between = aligned
        h = self.height(f)
        if self.opening == OPENING_OVER:
            if distance != h:
                return (
                    f"the top of a {h}-high stack moves exactly {h} "
                    f"square{'s' if h > 1 else ''}, not {distance}"
                )
        else:
            if distance not in FIRST_MOVE_DISTANCES:
                return f"a first move goes 1, 2 or 3 squares, not {distance}"
            if self.opening >= 0:
                forbidden = self.opening
                if t == forbidden:
                    return (
                        f"the second player's first move may not land on {SQUARE_NAMES[t]}, "
                        "the first player's landing square"
                    )
                if between >> forbidden & 1:
                    return (
                        f"the second player's first move may not pass over "
                        f"{SQUARE_NAMES[forbidden]}, the first player's landing square"
                    )
        blocked = between & self.o1
        if blocked:
            first = (blocked & -blocked).bit_length() - 1
            return f"it jumps over the stack on {SQUARE_NAMES[first]}"
        if self.o3 >> t & 1:
            return f"{SQUARE_NAMES[t]} already holds {MAX_HEIGHT} pieces"
        return None

    def parse_move(self, text: str) -> CarpnichesMove:
        return parse_move_text(text)

    def perft(self, depth: int) -> int:
        """Leaves of the legal-move tree of ``depth`` plies (bulk-counts the last ply)."""
        if depth < 0:
            raise InvalidOptionError(f"invalid depth: expected a number >= 0, got {depth!r}")
        if depth == 0:
            return 1
        return _perft(*self[:6], self.to_move, self.opening, depth)

    # -- symmetries ---------------------------------------------------------

    def transform(self, symmetry: int) -> CarpnichesPosition:
        """The image under board symmetry ``symmetry`` (0..7; 0 is the identity)."""
        rows = ROW_IMAGE[symmetry]
        o1, o2, o3, l0, l1, l2 = (_map_bits(b, rows) for b in self[:6])
        opening = self.opening if self.opening < 0 else SYMMETRY[symmetry][self.opening]
        return CarpnichesPosition(o1, o2, o3, l0, l1, l2, self.to_move, opening)

    def canonical(self) -> tuple[CarpnichesPosition, int]:
        """The smallest image over the 8 symmetries and the symmetry giving it (solver hook).

        >>> START_POSITION.canonical()[0] == min(START_POSITION.transform(s) for s in range(8))
        True
        """
        return _canonical(self)

    def transform_move(self, move: CarpnichesMove, symmetry: int) -> CarpnichesMove:
        table = SYMMETRY[symmetry]
        return MOVES[table[move.frm]][table[move.to]]

    # -- text -----------------------------------------------------------------

    def fen(self) -> str:
        """The canonical notation ``<rows> <side> <opening>``."""
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            text = ""
            empty = 0
            for file in range(SIZE):
                stack = self.stack(rank * SIZE + file)
                if not stack:
                    empty += 1
                    continue
                if empty:
                    text += str(empty)
                    empty = 0
                text += stack if len(stack) == 1 else f"({stack})"
            if empty:
                text += str(empty)
            rows.append(text)
        return f"{'/'.join(rows)} {SYMBOLS[self.to_move]} {opening_text(self.opening)}"

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"CarpnichesPosition({self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The SVG picture, so that Jupyter shows the position as a board."""
        return self.game.info.draw(self)

    def board_text(self) -> str:
        """A text board: stacks bottom to top, ``.`` for an empty square.

        >>> print(make_game().start().board_text())
            a    b    c    d    e    f
        6   cpc  .    .    .    .    pcp  6
        5   .    .    .    .    .    .    5
        4   .    .    .    .    .    .    4
        3   .    .    .    .    .    .    3
        2   .    .    .    .    .    .    2
        1   pcp  .    .    .    .    cpc  1
            a    b    c    d    e    f
        """
        header = "    " + "".join(f"{f:<5}" for f in FILES).rstrip()
        lines = [header]
        for rank in range(SIZE - 1, -1, -1):
            cells = "".join(f"{self.stack(rank * SIZE + f) or '.':<5}" for f in range(SIZE))
            lines.append(f"{rank + 1}   {cells}{rank + 1}")
        lines.append(header)
        return "\n".join(lines)

    def status(self) -> list[str]:
        """Problems of a position that parses but cannot occur ([] if plausible)."""
        problems = []
        poodles = sum(bin(b).count("1") for b in (self.l0, self.l1, self.l2))
        pieces = sum(bin(b).count("1") for b in (self.o1, self.o2, self.o3))
        capybaras = pieces - poodles
        for name, count in (("capybaras", capybaras), ("poodles", poodles)):
            if count != PIECES_PER_SIDE:
                problems.append(f"{count} {name} on the board, expected {PIECES_PER_SIDE}")
        start = START_POSITION
        board = self[:6]
        if self.opening == OPENING_FIRST:
            if self.to_move != CAPYBARA:
                problems.append("opening field 1 but poodles to move: capybaras move first")
            if board != start[:6]:
                problems.append("opening field 1 but the board is not the start position")
        elif self.opening >= 0:
            if self.to_move != POODLE:
                problems.append(
                    f"opening field {opening_text(self.opening)} but capybaras to move: "
                    "it is the second player's first move"
                )
            if not any(
                m.to == self.opening and start.play(m)[:6] == board for m in start.legal_moves()
            ):
                problems.append(
                    f"opening field {opening_text(self.opening)} but the board is not the start "
                    "position after a capybara first move to that square"
                )
        return problems


def _line_outcome(line_c: bool, line_p: bool, mover: int) -> Outcome:
    """rules "End of the game" step 1: lines to both -> the mover loses; else the owner wins."""
    if line_c and line_p:
        return Outcome.win(1 - mover)
    return Outcome.win(CAPYBARA if line_c else POODLE)


def opening_text(opening: int) -> str:
    """How the notation writes the opening field.

    >>> opening_text(OPENING_FIRST), opening_text(7), opening_text(OPENING_OVER)
    ('1', 'b2', '-')
    """
    if opening == OPENING_FIRST:
        return "1"
    if opening == OPENING_OVER:
        return "-"
    return SQUARE_NAMES[opening]


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def _parse_row(text: str, rank: int) -> list[str]:
    """The stacks of one row (bottom-to-top strings, '' for empty), checked for 6 squares."""
    squares: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "123456":
            squares.extend([""] * int(ch))
            i += 1
        elif ch in "cp":
            squares.append(ch)
            i += 1
        elif ch == "(":
            end = text.find(")", i)
            if end < 0:
                raise InvalidNotationError(
                    f"invalid stack on rank {rank}: expected ')' to close the stack, got {text!r}"
                )
            stack = text[i + 1 : end]
            if not stack:
                raise InvalidNotationError(
                    f"invalid stack on rank {rank}: expected 1 to 3 pieces, got '()' in {text!r}"
                )
            bad = [c for c in stack if c not in "cp"]
            if bad:
                raise InvalidNotationError(
                    f"invalid piece on rank {rank}: expected 'c' or 'p', got {bad[0]!r} in {text!r}"
                )
            if len(stack) > MAX_HEIGHT:
                raise InvalidNotationError(
                    f"invalid stack on rank {rank}: a stack holds at most {MAX_HEIGHT} pieces, "
                    f"got {len(stack)}: {'(' + stack + ')'!r}"
                )
            squares.append(stack)
            i = end + 1
        else:
            raise InvalidNotationError(
                f"invalid piece on rank {rank}: expected 'c', 'p', a digit 1-6 or a stack like "
                f"(pcp), got {ch!r} in {text!r}"
            )
        if len(squares) > SIZE:
            break
    if len(squares) != SIZE:
        raise InvalidNotationError(
            f"invalid row for rank {rank}: expected {SIZE} squares, "
            f"got {len(squares) if len(squares) <= SIZE else 'more'}: {text!r}"
        )
    return squares


def parse_position(text: str) -> CarpnichesPosition:
    """Parse ``<rows> <side> <opening>``; raises InvalidNotationError naming the field.

    >>> parse_position("6/6/6/6/6/6 p -").fen()
    '6/6/6/6/6/6 p -'
    >>> try:
    ...     parse_position("(cpcp)5/6/6/6/6/6 c -")
    ... except InvalidNotationError as error:
    ...     print(error)
    invalid stack on rank 6: a stack holds at most 3 pieces, got 4: '(cpcp)'
    """
    fields = require_text(text).split()
    if len(fields) != 3:
        raise InvalidNotationError(
            f"invalid position: expected 3 fields '<rows> <side> <opening>', "
            f"got {len(fields)}: {text!r}"
        )
    rows_text, side_text, opening_field = fields
    rows = rows_text.split("/")
    if len(rows) != SIZE:
        raise InvalidNotationError(
            f"invalid rows: expected {SIZE} rows separated by '/', got {len(rows)}: {rows_text!r}"
        )
    bits = [0] * 6
    for i, row in enumerate(rows):
        rank = SIZE - 1 - i
        for file, stack in enumerate(_parse_row(row, rank + 1)):
            sq = rank * SIZE + file
            for k, piece in enumerate(stack):
                bits[k] |= 1 << sq
                if piece == "p":
                    bits[3 + k] |= 1 << sq
    if side_text not in SYMBOLS:
        raise InvalidNotationError(f"invalid side: expected 'c' or 'p', got {side_text!r}")
    if opening_field == "1":
        opening = OPENING_FIRST
    elif opening_field == "-":
        opening = OPENING_OVER
    elif opening_field in SQUARE_INDEX:
        opening = SQUARE_INDEX[opening_field]
    else:
        raise InvalidNotationError(
            f"invalid opening: expected '1', '-' or a square a1-f6, got {opening_field!r}"
        )
    o1, o2, o3, l0, l1, l2 = bits
    return CarpnichesPosition(o1, o2, o3, l0, l1, l2, SYMBOLS.index(side_text), opening)


START_FEN = "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1"
START_POSITION = parse_position(START_FEN)
assert all(START_POSITION.stack(SQUARE_INDEX[s]) == st for s, st in START_STACKS.items())


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


#: the options of ``start()``: none but the player count (Carpniches has no game options)
OPTIONS = (TWO_PLAYERS,)


class CarpnichesGame(SymbolsMixin):
    """Carpniches (6x6): move your top piece exactly its stack height; make a line of 3 or block."""

    name = "carpniches"
    symmetry_count = 8
    symbols = SYMBOLS

    def start(self, **options: Any) -> CarpnichesPosition:
        """The start position; Carpniches has no options (6x6, 2 players, no pie rule)."""
        check_options(self.name, OPTIONS, options)
        return START_POSITION

    def parse_position(self, text: str) -> CarpnichesPosition:
        return parse_position(text)


GAME = CarpnichesGame()


def make_game(**options: Any) -> CarpnichesGame:
    """The Carpniches game; it takes no options."""
    check_options("carpniches", OPTIONS, options, scope="game")
    return GAME


# ---------------------------------------------------------------------------
# Game records and the repetition draw
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordResult:
    """The end of a played game record."""

    position: CarpnichesPosition
    outcome: Outcome | None
    #: True when the record ended in a draw by the third repetition
    repetition: bool
    plies: int


def play_record(position: CarpnichesPosition, moves: Iterable[str]) -> RecordResult:
    """Play a game record; the third occurrence of a position draws it (rules "Repetition").

    Moves after the end of the game (a line, blocking or the repetition draw) are illegal.

    >>> r = play_record(START_POSITION, ["a6-b5", "a1-b2"])
    >>> r.position.fen(), r.outcome, r.repetition
    ('(cp)4(pcp)/1c4/6/6/1p4/(pc)4(cpc) c -', None, False)
    """
    seen = {position: 1}
    plies = 0
    for text in moves:
        if seen[position] >= REPETITION_LIMIT:
            raise IllegalMoveError(
                f"illegal move {text}: the game is over (third repetition of the position)"
            )
        position = position.play(position.parse_move(text))
        plies += 1
        seen[position] = seen.get(position, 0) + 1
    outcome = position.outcome()
    if outcome is None and seen[position] >= REPETITION_LIMIT:
        return RecordResult(position, Outcome.draw(), True, plies)
    return RecordResult(position, outcome, False, plies)


@functools.lru_cache(maxsize=1 << 18)
def _canonical(pos: CarpnichesPosition) -> tuple[CarpnichesPosition, int]:
    """``pos.canonical()``: the images compared as plain tuples, the winner built once
    (memoised: the searches ask again for the same positions at every iteration).

    An image is built board by board and dropped at the first board that makes it
    larger than the best so far (the same minimum as comparing whole images).
    """
    bits = pos[:6]
    best: tuple[int, ...] = (*bits, pos.opening)
    best_sym = 0
    for s in range(1, 8):
        rows = ROW_IMAGE[s]
        image: list[int] = []
        for k, b in enumerate(bits):
            mapped = _map_bits(b, rows)
            if mapped != best[k]:
                if mapped < best[k]:
                    image.append(mapped)
                    image.extend(_map_bits(c, rows) for c in bits[k + 1 :])
                    image.append(pos.opening if pos.opening < 0 else SYMMETRY[s][pos.opening])
                    best, best_sym = tuple(image), s
                break
            image.append(mapped)
        else:  # the same boards: the opening decides
            opening = pos.opening if pos.opening < 0 else SYMMETRY[s][pos.opening]
            if opening < best[6]:
                best, best_sym = (*image, opening), s
    if best_sym == 0:
        return pos, 0
    o1, o2, o3, l0, l1, l2, opening = best
    return CarpnichesPosition(o1, o2, o3, l0, l1, l2, pos.to_move, opening), best_sym


def canonical_plain(pos: CarpnichesPosition) -> tuple[CarpnichesPosition, int]:
    """The smallest of the 8 images and its symmetry, by building all of them (the
    reference of :meth:`CarpnichesPosition.canonical`'s test)."""
    images = [(pos.transform(s), s) for s in range(8)]
    return min(images, key=lambda pair: (tuple(pair[0][:6]) + (pair[0].opening,), pair[1]))
