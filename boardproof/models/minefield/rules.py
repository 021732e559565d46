"""Minefield positions and the game object: notation, rules, perft, status.

The bitboards, glyph tables and masks are in :mod:`boardproof.models.minefield.board`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boardproof.models.base import (
    TWO_PLAYERS,
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    OptionInfo,
    Outcome,
    SymbolsMixin,
    check_options,
    require_text,
)
from boardproof.models.minefield.board import (
    _TABLES,
    BLACK,
    CELL_OF,
    DEFAULT_SIZE,
    EMPTY_CELL,
    FILES,
    GUARD,
    MAX_SIZE,
    MIN_SIZE,
    PASS,
    STANDARD,
    SWAP,
    SYMBOLS,
    VARIANT_GLYPHS,
    VARIANTS,
    WHITE,
    WIN_RULES,
    CanonicalFunction,
    Move,
    PlacementFunction,
    Tables,
    glyph_instances,
    symmetry_point,
    tables,
    wins_with,
)

# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


#: the options of ``models.get("minefield", ...)`` and of ``start()``
OPTIONS = (
    OptionInfo("win", str, "the win rule: orthogonal (rulebook, default) or orthodiagonal",
               default=WIN_RULES[0], choices=WIN_RULES, scope="game", metavar="RULE",
               label="Win"),
    OptionInfo("variant", str, "the forbidden glyphs: standard (rulebook, default), "
               "pinwheel or cartwheel (AbstractPlay's variants)", default=STANDARD,
               choices=VARIANTS, scope="game", metavar="NAME", label="Glyphs"),
    OptionInfo("size", int, f"board size n ({MIN_SIZE}-{MAX_SIZE})", default=DEFAULT_SIZE,
               bounds=(MIN_SIZE, MAX_SIZE)),
    TWO_PLAYERS,
    OptionInfo("pie", bool, "start without the pie rule (on by default: White may swap "
               "after the first move)", default=True, flag="--no-pie"),
)  # fmt: skip


class MinefieldGame(SymbolsMixin):
    """Minefield (Steere 2024): connect your edges, never form a hard corner or switch.

    ``variant`` picks the forbidden glyphs (:data:`~boardproof.models.minefield.board.
    VARIANT_GLYPHS`): ``standard`` (the rulebook's), or AbstractPlay's ``pinwheel`` and
    ``cartwheel`` (docs/games/minefield.md "Variants"). Like the win rule it belongs to
    the game, not to the position notation.

    >>> MinefieldGame(variant="pinwheel")
    MinefieldGame(win='orthogonal', variant='pinwheel')
    """

    __slots__ = ("win", "diagonal", "variant", "standard", "glyphs")
    name = "minefield"
    symmetry_count = 8
    symbols = SYMBOLS

    def __init__(self, win: str = "orthogonal", variant: str = STANDARD) -> None:
        win = OPTIONS[0].check(win)  # "ORTHOGONAL" is the rule orthogonal
        self.win = win
        self.diagonal = win == "orthodiagonal"
        self._set_variant(OPTIONS[1].check(variant))

    def _set_variant(self, variant: str) -> None:
        self.variant = variant
        #: the rulebook's glyphs (the generated fast path of ``Tables.forbidden``)
        self.standard = variant == STANDARD
        #: the names of the forbidden glyphs
        self.glyphs = VARIANT_GLYPHS[variant]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, MinefieldGame) and other.win == self.win
                and other.variant == self.variant)  # fmt: skip

    def __hash__(self) -> int:
        return hash(self.win) if self.standard else hash((self.win, self.variant))

    def __repr__(self) -> str:
        if self.standard:
            return f"MinefieldGame(win={self.win!r})"
        return f"MinefieldGame(win={self.win!r}, variant={self.variant!r})"

    def __getstate__(self) -> str | tuple[str, str]:
        # the standard game pickles as before (the win rule alone)
        return self.win if self.standard else (self.win, self.variant)

    def __setstate__(self, state: str | tuple[str, str]) -> None:
        win, variant = (state, STANDARD) if isinstance(state, str) else state
        self.win = win
        self.diagonal = win == "orthodiagonal"
        self._set_variant(variant)

    def start(self, **options: Any) -> MinefieldPosition:
        """The empty n x n board, Black to move (n defaults to :data:`DEFAULT_SIZE`, 11).

        >>> make_game().start(size=3, pie=False).fen()
        '3/3/3 b -'
        >>> make_game().start().fen()
        '11/11/11/11/11/11/11/11/11/11/11 b p'
        """
        given = check_options(self.name, OPTIONS, options)
        n, pie = given["size"], given["pie"]
        return MinefieldPosition(self, n, 0, 0, BLACK, bool(pie))

    def parse_position(self, text: str) -> MinefieldPosition:
        """Parse ``<rows> <side> [<pie>]`` (rules/minefield.md "Position notation").

        >>> make_game().parse_position("3/1b1/3 w").fen()
        '3/1b1/3 w -'
        >>> make_game().parse_position("3/1b/3 w")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        boardproof...InvalidNotationError: invalid position: row 2 has 2 points, expected 3: '1b'
        """
        return _parse_position(self, text)


def make_game(**options: Any) -> MinefieldGame:
    """The Minefield game with the given win rule (``orthogonal``, the default, or
    ``orthodiagonal``) and variant (``standard``, the default, ``pinwheel`` or
    ``cartwheel``); any other option raises InvalidOptionError.

    >>> make_game(win="orthodiagonal").win
    'orthodiagonal'
    >>> make_game(variant="cartwheel").glyphs
    ('hard corner', '2x3 switch', 'pinwheel', 'cartwheel')
    >>> make_game(variant="wheel")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof...InvalidOptionError: invalid option variant: expected one of standard, ...
    >>> make_game(win="diagonal")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof...InvalidOptionError: invalid option win: expected one of ... got 'diagonal'
    """
    return MinefieldGame(**check_options("minefield", OPTIONS, options, scope="game"))


_DIGITS = "0123456789"


def _parse_row(text: str, number: int, n: int) -> tuple[list[int], list[int]]:
    """Files of the black and white stones of one row of the notation."""
    blacks: list[int] = []
    whites: list[int] = []
    count = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char == "b" or char == "w":
            (blacks if char == "b" else whites).append(count)
            count += 1
            i += 1
        elif char in _DIGITS:
            j = i
            while j < len(text) and text[j] in _DIGITS:
                j += 1
            digits = text[i:j]
            if digits[0] == "0":
                raise InvalidNotationError(
                    f"invalid position: row {number} has a run starting with 0, "
                    f"expected a number from 1: {text!r}"
                )
            count += int(digits) if len(digits) <= 3 else 10**3
            i = j
        else:
            raise InvalidNotationError(
                f"invalid position: row {number} has an unexpected character {char!r}, "
                f"expected b, w or a number: {text!r}"
            )
        if count > MAX_SIZE:
            break
    if count != n:
        shown = str(count) if count <= MAX_SIZE else f"more than {MAX_SIZE}"
        raise InvalidNotationError(
            f"invalid position: row {number} has {shown} points, expected {n}: {text!r}"
        )
    return blacks, whites


def _parse_position(game: MinefieldGame, text: str) -> MinefieldPosition:
    fields = require_text(text).split()
    if len(fields) not in (2, 3):
        raise InvalidNotationError(
            f"invalid position: expected 2 or 3 fields '<rows> <side> [<pie>]', "
            f"got {len(fields)}: {text!r}"
        )
    rows = fields[0].split("/")
    n = len(rows)
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise InvalidNotationError(
            f"invalid position: expected {MIN_SIZE} to {MAX_SIZE} rows, got {n}: {fields[0]!r}"
        )
    width = n + GUARD
    black = white = 0
    for index, row in enumerate(rows):
        rank = n - 1 - index
        blacks, whites = _parse_row(row, index + 1, n)
        for f in blacks:
            black |= 1 << (rank * width + f)
        for f in whites:
            white |= 1 << (rank * width + f)
    side = fields[1]
    if side not in SYMBOLS:
        raise InvalidNotationError(f"invalid position: expected side to move b or w, got {side!r}")
    pie_text = fields[2] if len(fields) == 3 else "-"
    if pie_text not in ("p", "-"):
        raise InvalidNotationError(f"invalid position: expected pie field p or -, got {pie_text!r}")
    return MinefieldPosition(game, n, black, white, SYMBOLS.index(side), pie_text == "p")


def parse_cells(text: str) -> tuple[tuple[int, ...], int]:
    """The cell board (:data:`~boardproof.models.minefield.board.CELL_OF`) of a position's
    rows; the first field of a position is enough (the one Minefield board parser).

    >>> parse_cells("1w/b1 b -")
    ((1, 0, 0, 2), 2)
    """
    rows = text.split()[0] if text.split() else text
    pos = _parse_position(make_game(), f"{rows} b")
    return cells_of(pos), pos.n


def cells_of(pos: MinefieldPosition) -> tuple[int, ...]:
    """The cell board of ``pos`` (a1 first).

    >>> cells_of(make_game().parse_position("1w/b1 b"))
    (1, 0, 0, 2)
    """
    n, width = pos.n, pos.n + GUARD
    black, white = CELL_OF
    out = []
    for r in range(n):
        for f in range(n):
            bit = 1 << (r * width + f)
            out.append(black if pos.black & bit else white if pos.white & bit else EMPTY_CELL)
    return tuple(out)


def from_cells(
    cells: tuple[int, ...], n: int, to_move: int = BLACK, pie: bool = False,
    win: str = "orthogonal", variant: str = STANDARD,
) -> MinefieldPosition:
    """The position with the stones of a cell board (inverse of :func:`cells_of`).

    >>> from_cells((1, 0, 0, 2), 2).fen()
    '1w/b1 b -'
    """  # fmt: skip
    width = n + GUARD
    black = white = 0
    for p, state in enumerate(cells):
        r, f = divmod(p, n)
        if state == CELL_OF[BLACK]:
            black |= 1 << (r * width + f)
        elif state == CELL_OF[WHITE]:
            white |= 1 << (r * width + f)
    return MinefieldPosition(make_game(win=win, variant=variant), n, black, white, to_move, pie)


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


def pie_after_placement(pie: bool, occupied_before: int) -> bool:
    """Is the pie rule still pending after a placement?

    [choice] rules/minefield.md "Pie rule": it is pending on White's first turn
    only, so it survives the first placement on an empty board and ends with
    any other move (a later placement, ``swap``, or ``pass``).

    >>> pie_after_placement(True, 0), pie_after_placement(True, 1 << 5)
    (True, False)
    """
    return pie and not occupied_before

_UNKNOWN, _NOBODY = -1, 2  # cached winner codes besides BLACK / WHITE
_ONGOING, _DEAD = 2, 3  # cached result codes besides BLACK / WHITE
_OUTCOMES: tuple[Outcome | None, ...] = (
    Outcome.win(BLACK),
    Outcome.win(WHITE),
    None,
    Outcome.draw(),
)


#: board size -> its generated canonicaliser (see ``MinefieldPosition.canonical``)
_CANONICALISERS: dict[int, CanonicalFunction] = {}


@dataclass(frozen=True, slots=True, repr=False)
class MinefieldPosition:
    """An immutable Minefield position: stones as bitboards, side to move, pie flag.

    ``black`` / ``white`` follow the bit layout drawn in
    :mod:`boardproof.models.minefield.board` (bit ``r * (n + 3) + f`` for file f, rank r).
    The cached fields (``_winner``, ``_result``, ``_legal``, ``_canon``) take no part in
    equality or hashing.
    """

    game: MinefieldGame
    n: int
    black: int
    white: int
    to_move: int
    pie: bool
    #: cache: BLACK / WHITE if that colour has a winning path, _NOBODY, or _UNKNOWN
    _winner: int = field(default=_UNKNOWN, compare=False)
    #: cache: result code (BLACK / WHITE won, _ONGOING, _DEAD) or _UNKNOWN
    _result: int = field(default=_UNKNOWN, compare=False)
    #: cache: legal placements of the side to move, or -1
    _legal: int = field(default=-1, compare=False)
    #: cache: ``canonical()`` (the solver asks for a child's key twice: cutoff probe, search)
    _canon: Any = field(default=None, compare=False)

    # -- construction and notation ---------------------------------------

    @classmethod
    def from_fen(cls, text: str, game: MinefieldGame | None = None) -> MinefieldPosition:
        """Parse a position (with the rulebook win rule unless ``game`` says otherwise)."""
        return _parse_position(game or MinefieldGame(), text)

    def __repr__(self) -> str:
        if self.game.standard:
            return f"MinefieldPosition({self.fen()!r}, win={self.game.win!r})"
        return (f"MinefieldPosition({self.fen()!r}, win={self.game.win!r}, "
                f"variant={self.game.variant!r})")  # fmt: skip

    def _repr_svg_(self) -> str:
        """The SVG picture, so that Jupyter shows the position as a board."""
        return self.game.info.draw(self)

    @property
    def tables(self) -> Tables:
        return tables(self.n)

    def stone_at(self, f: int, r: int) -> int | None:
        """BLACK, WHITE or None for the point (file f, rank r), 0-based."""
        bit = 1 << (r * (self.n + GUARD) + f)
        if self.black & bit:
            return BLACK
        if self.white & bit:
            return WHITE
        return None

    def fen(self) -> str:
        """Canonical notation: all three fields, shortest runs.

        >>> make_game().parse_position("1b1/3/3 w p").fen()
        '1b1/3/3 w p'
        """
        rows = []
        for r in range(self.n - 1, -1, -1):
            parts: list[str] = []
            run = 0
            for f in range(self.n):
                stone = self.stone_at(f, r)
                if stone is None:
                    run += 1
                    continue
                if run:
                    parts.append(str(run))
                    run = 0
                parts.append(SYMBOLS[stone])
            if run:
                parts.append(str(run))
            rows.append("".join(parts))
        return f"{'/'.join(rows)} {SYMBOLS[self.to_move]} {'p' if self.pie else '-'}"

    def __str__(self) -> str:
        return self.fen()

    def key(self) -> tuple[int, int, int, int, bool]:
        """Transposition key (the win rule is a property of the game)."""
        return (self.n, self.black, self.white, self.to_move, self.pie)

    def parse_move(self, text: str) -> Move:
        """A move in notation: a point like ``c3``, ``swap`` or ``pass``.

        >>> pos = make_game().start(size=5)
        >>> pos.parse_move("e5"), pos.parse_move("swap")
        (e5, swap)
        >>> pos.parse_move("f1")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        boardproof...InvalidNotationError: invalid move: expected a point from a1 to e5, ...'f1'
        """
        word = require_text(text, "move").strip().lower()
        if word == "swap":
            return SWAP
        if word == "pass":
            return PASS
        n = self.n
        if (
            2 <= len(word) <= 3
            and word[0] in FILES
            and word[1] in "123456789"
            and (len(word) == 2 or word[2] in _DIGITS)
        ):
            f, r = FILES.index(word[0]), int(word[1:]) - 1
            if f < n and r < n:
                return tables(n).moves[r * (n + GUARD) + f] or Move(f, r)
            raise InvalidNotationError(
                f"invalid move: expected a point from a1 to {FILES[n - 1]}{n}, "
                f"swap or pass, got {text!r}"
            )
        raise InvalidNotationError(
            f"invalid move: expected a point like c3, swap or pass, got {text!r}"
        )

    # -- rules ----------------------------------------------------------

    def _own_opp(self) -> tuple[int, int]:
        return (self.black, self.white) if self.to_move == BLACK else (self.white, self.black)

    def legal_placements(self) -> int:
        """Bitboard of the points where the side to move may place (cached)."""
        legal = self._legal
        if legal < 0:
            own, opp = self._own_opp()
            t = _TABLES.get(self.n) or tables(self.n)
            game = self.game
            if game.standard:
                legal = t.placements(own, opp)
            else:
                legal = t.variant_placements(game.variant, self.to_move, own, opp)
            object.__setattr__(self, "_legal", legal)
        return legal

    def opponent_placements(self) -> int:
        """Bitboard of the points where the other colour could place."""
        own, opp = self._own_opp()
        if self.game.standard:
            return tables(self.n).placements(opp, own)
        return tables(self.n).variant_placements(self.game.variant, 1 - self.to_move, opp, own)

    def swap_available(self) -> bool:
        """The pie rule: pending flag, one stone of the opponent, none of the mover.

        [choice] rules/minefield.md "Pie rule" (White's first turn) written
        colour-symmetrically so the transposes (which exchange the
        colours) map swap to swap; only the rulebook case (one black stone,
        White to move) passes ``status()``.
        """
        if not self.pie:
            return False
        own, opp = self._own_opp()
        return own == 0 and opp != 0 and opp & (opp - 1) == 0

    def winner(self) -> int | None:
        """The colour that has a winning path, or None (cached).

        The player who just moved is looked at first: only they can have
        completed a path. (Both colours connected is impossible; ``status()``
        reports it.)

        >>> make_game().parse_position("1b1/1b1/1bw w").winner()
        0
        """
        code = self._winner
        if code == _UNKNOWN:
            t = tables(self.n)
            diagonal = self.game.diagonal
            # the player who just moved is the one who can have completed a path
            last = 1 - self.to_move
            stones = (self.black, self.white)
            if t.connected(stones[last], last, diagonal):
                code = last
            elif t.connected(stones[self.to_move], self.to_move, diagonal):
                code = self.to_move
            else:
                code = _NOBODY
            object.__setattr__(self, "_winner", code)
        return None if code == _NOBODY else code

    def _result_code(self) -> int:
        code = self._result
        if code == _UNKNOWN:
            won = self.winner()
            if won is not None:
                code = won
            elif self.legal_placements() or self.swap_available() or self.opponent_placements():
                code = _ONGOING
            else:
                code = _DEAD  # rules: dead position, terminal, scored as a draw
            object.__setattr__(self, "_result", code)
        return code

    def outcome(self) -> Outcome | None:
        """None while the game goes on; a win, or a draw for a dead position."""
        return _OUTCOMES[self._result_code()]

    def is_dead(self) -> bool:
        """Neither colour can place and nobody has won."""
        return self._result_code() == _DEAD

    def legal_moves(self) -> tuple[Move, ...]:
        """Placements by rank from 1 upward then by file, then ``swap``; or ``pass`` alone."""
        if self._result_code() != _ONGOING:
            return ()
        out = tables(self.n).moves_of(self.legal_placements())
        if self.swap_available():
            out.append(SWAP)
        if not out:
            out.append(PASS)
        return tuple(out)

    def play(self, move: Move | str) -> MinefieldPosition:
        """The position after ``move``; raises IllegalMoveError naming the move."""
        if move.__class__ is Move and move.file >= 0:
            # fast path (the solvers' hot loop): a legal placement while nobody has won;
            # anything else falls through to the checks below
            winner = self._winner
            if winner == _UNKNOWN:
                self.winner()
                winner = self._winner
            file, rank = move
            n = self.n
            if winner == _NOBODY and file < n and 0 <= rank < n:
                width = n + GUARD
                bit = 1 << (rank * width + file)
                legal = self._legal
                if legal < 0:
                    legal = self.legal_placements()
                if bit & legal:
                    mover = self.to_move
                    black, white = self.black, self.white
                    if mover == BLACK:
                        own = black = black | bit
                    else:
                        own = white = white | bit
                    first, second = (_TABLES.get(n) or tables(n)).edges[mover]
                    won = (
                        own & first
                        and own & second
                        and wins_with(bit, own, first, second, width, self.game.diagonal)
                    )
                    pie = self.pie and pie_after_placement(True, self.black | self.white)
                    if won:
                        return MinefieldPosition(
                            self.game, n, black, white, 1 - mover, pie, mover, mover
                        )
                    return MinefieldPosition(self.game, n, black, white, 1 - mover, pie, _NOBODY)
        if isinstance(move, str):
            move = self.parse_move(move)
        if self.winner() is not None:
            raise IllegalMoveError(f"illegal move {move}: the game is over")
        t = tables(self.n)
        if move.file >= 0:
            if not (move.file < self.n and 0 <= move.rank < self.n):
                raise IllegalMoveError(f"illegal move {move}: the point is off the board")
            bit = 1 << t.bit_of[move]
            if not bit & self.legal_placements():
                raise IllegalMoveError(f"illegal move {move}: {self._why_illegal(bit)}")
            mover = self.to_move
            black, white = self.black, self.white
            if mover == BLACK:
                own = black = black | bit
            else:
                own = white = white | bit
            first, second = t.edges[mover]
            won = wins_with(bit, own, first, second, t.width, self.game.diagonal)
            pie = pie_after_placement(self.pie, self.black | self.white)
            return MinefieldPosition(
                self.game, self.n, black, white, 1 - mover, pie,
                mover if won else _NOBODY, mover if won else _UNKNOWN,
            )
        if move == SWAP:
            if not self.swap_available():
                raise IllegalMoveError(
                    "illegal move swap: only on White's first turn "
                    "(one black stone, pie rule pending)"
                )
            # rules: stones stay, the players exchange colours, White moves again
            return MinefieldPosition(
                self.game, self.n, self.black, self.white, self.to_move, False, _NOBODY
            )
        if move == PASS:
            if self.legal_placements() or self.swap_available():
                raise IllegalMoveError(
                    f"illegal move pass: {SYMBOLS[self.to_move]} has a legal move"
                )
            if not self.opponent_placements():
                raise IllegalMoveError("illegal move pass: the game is over (dead position)")
            return MinefieldPosition(
                self.game, self.n, self.black, self.white, 1 - self.to_move, False, _NOBODY
            )
        raise IllegalMoveError(f"illegal move {move}: not a minefield move")

    def _why_illegal(self, bit: int) -> str:
        if bit & (self.black | self.white):
            return "the point is occupied"
        own, opp = self._own_opp()
        t = tables(self.n)
        empty = t.full & ~(own | opp)
        for name in self.game.glyphs:
            if t.glyph_forbidden((name,), self.to_move)(own, opp, empty) & bit:
                return f"it forms a {name}"
        return "not allowed"  # pragma: no cover - legal_placements says otherwise

    # -- perft ------------------------------------------------------------

    def perft(self, depth: int) -> int:
        """Leaves of the legal-move tree, counting the last ply in bulk.

        >>> make_game().start(size=3).perft(3)
        544
        """
        if depth < 0:
            raise InvalidOptionError(f"invalid depth: expected a number >= 0, got {depth!r}")
        if depth == 0:
            return 1
        if self.outcome() is not None:
            return 0
        t = tables(self.n)
        forbid = (t.forbidden_for(self.game.variant, BLACK),
                  t.forbidden_for(self.game.variant, WHITE))  # fmt: skip
        return _perft(t, forbid, self.game.diagonal, self.black, self.white, self.to_move,
                      self.pie, depth)  # fmt: skip

    # -- symmetries -------------------------------------------------------

    def transform(self, symmetry: int) -> MinefieldPosition:
        """Image under one of the 8 symmetries; 4..7 (transposes) swap the colours.

        >>> pos = make_game().parse_position("3/3/b2 w p")
        >>> pos.transform(4).fen()
        '3/3/w2 b p'
        >>> pos.transform(1).fen()
        '2b/3/3 w p'
        """
        if not 0 <= symmetry < 8:
            raise InvalidOptionError(f"invalid symmetry: expected 0 to 7, got {symmetry!r}")
        if symmetry == 0:
            return self
        t = tables(self.n)
        black, white = t.map_bits(self.black, symmetry), t.map_bits(self.white, symmetry)
        to_move = self.to_move
        if symmetry >= 4:
            black, white, to_move = white, black, 1 - to_move
        return MinefieldPosition(self.game, self.n, black, white, to_move, self.pie)

    def canonical(self) -> tuple[tuple[int, int, int, int, bool], int]:
        """The symmetry-canonical key and the symmetry ``s`` that gives it (solver hook).

        The key is ``self.transform(s).key()`` for the image with the smallest
        key over the 8 symmetries, computed from per-size lookup tables without
        building any image (see ``board.compile_canonical_function``).
        Symmetric positions get the same key; the transposes exchange the colours
        and the side to move, so the value for the side to move is the same for all.

        >>> pos = make_game().parse_position("3/3/2b w -")
        >>> pos.canonical()
        ((3, 0, 1, 0, False), 6)
        >>> pos.transform(6).fen(), pos.transform(6).key() == pos.canonical()[0]
        ('3/3/w2 b -', True)
        """
        found = self._canon
        if found is None:
            n = self.n
            canonicalise = _CANONICALISERS.get(n)
            if canonicalise is None:
                canonicalise = _CANONICALISERS[n] = tables(n).canonicalise
            black, white, to_move, symmetry = canonicalise(self.black, self.white, self.to_move)
            found = ((n, black, white, to_move, self.pie), symmetry)
            object.__setattr__(self, "_canon", found)
        return found  # type: ignore[no-any-return]

    def transform_move(self, move: Move, symmetry: int) -> Move:
        """Image of ``move`` under symmetry ``symmetry`` (swap and pass are fixed)."""
        if move.file < 0:
            return move
        return Move(*symmetry_point(symmetry, move.file, move.rank, self.n))

    # -- checks and display -------------------------------------------------

    def status(self) -> list[str]:
        """Problems of a position that parses but cannot occur in a game ([] if none).

        >>> for problem in make_game().parse_position("3/3/b2 b p").status():
        ...     print(problem)
        the pie rule cannot be pending with 1 b and 0 w stones and b to move
        1 b and 0 w stones with b to move: no sequence of turns and skips gives these counts
        >>> make_game().parse_position("3/3/b2 w p").status()
        []
        """
        return _status(self)

    def board_text(self) -> str:
        """A text board with coordinates; the winning path (if any) in capitals.

        >>> print(make_game().parse_position("1b1/1b1/1bw w").board_text())
          3  .  B  .
          2  .  B  .
          1  .  B  w
             a  b  c
        winning path (b): b1 b2 b3
        """
        path: list[tuple[int, int]] = []
        won = self.winner()
        if won is not None:
            from boardproof.models.minefield.graphs import winning_path

            path = winning_path(self, won) or []
        on_path = set(path)
        rank_width = len(str(self.n))
        lines = []
        for r in range(self.n - 1, -1, -1):
            cells = []
            for f in range(self.n):
                stone = self.stone_at(f, r)
                mark = "." if stone is None else SYMBOLS[stone]
                cells.append(mark.upper() if (f, r) in on_path else mark)
            lines.append(f"{r + 1:>{rank_width + 2}}  " + "  ".join(cells))
        lines.append(" " * (rank_width + 4) + "  ".join(FILES[: self.n]))
        if won is not None:
            names = " ".join(str(Move(f, r)) for f, r in path)
            lines.append(f"winning path ({SYMBOLS[won]}): {names}")
        return "\n".join(lines)


def _perft(
    t: Tables, forbid: tuple[PlacementFunction, PlacementFunction], diagonal: bool,
    black: int, white: int, mover: int, pie: bool, depth: int,
) -> int:
    """Perft below a position nobody has won (ints only, no Position objects); ``forbid``
    holds Black's and White's ``forbidden`` (the same function in the standard game)."""
    if mover == BLACK:
        own, opp = black, white
    else:
        own, opp = white, black
    full = t.full
    empty = full & ~(own | opp)
    legal = empty & ~forbid[mover](own, opp, empty)
    swap = pie and own == 0 and opp != 0 and opp & (opp - 1) == 0
    if depth == 1:
        count = legal.bit_count() + swap
        if count:
            return count
        # pass is legal iff the opponent can place; otherwise dead (no moves)
        return 1 if empty & ~forbid[1 - mover](opp, own, empty) else 0
    if not legal and not swap:
        if empty & ~forbid[1 - mover](opp, own, empty):
            return _perft(t, forbid, diagonal, black, white, 1 - mover, False, depth - 1)
        return 0
    total = 0
    first, second = t.edges[mover]
    width = t.width
    child_pie = pie_after_placement(pie, own | opp)
    other = 1 - mover
    depth -= 1
    while legal:
        bit = legal & -legal
        legal ^= bit
        new_own = own | bit
        if new_own & first and new_own & second and wins_with(
            bit, new_own, first, second, width, diagonal
        ):
            continue  # a won child is a terminal node: no leaves below it
        if mover == BLACK:
            total += _perft(t, forbid, diagonal, new_own, opp, other, child_pie, depth)
        else:
            total += _perft(t, forbid, diagonal, opp, new_own, other, child_pie, depth)
    if swap:
        total += _perft(t, forbid, diagonal, black, white, mover, False, depth)
    return total


def pass_free_bound(n: int, variant: str = STANDARD) -> int:
    """Fewest stones on an n x n board at which a colour can have no legal placement
    (a lower bound of it), in the game with the glyphs of ``variant``.

    Proof: with t stones and e = n*n - t empty points, if a colour cannot place,
    every empty point p completes a glyph: a hard corner (2 other stones in the
    3x3 box around p) or a switch (3 other stones among the 28 corner offsets of
    the 2x3/2x4 windows at p). Give each p one unit, shared equally by the other
    stones of one such glyph (1/2 or 1/3 each). A stone then receives at most
    1/2 from each of its 8 neighbours and 1/3 from each of the other 24 switch
    offsets: 12 in all. So e <= 12 t, i.e. 13 t >= n*n. Below that no skip (pass)
    can have happened, so Black and White have alternated.

    The variants (docs/games/minefield.md "Variants") add the pinwheel (7 other stones)
    and the cartwheel (at least 3 other stones on the board: its block in a corner,
    the points beyond the board are no stones that receive), whose points lie in a 4 x 4
    box without its corners: the offsets between two of their points are those of the
    7 x 7 box around a point but (+-3, +-2), (+-2, +-3) and (+-3, +-3). A stone then
    receives at most 1/2 from each of its 8 neighbours and 1/3 from each of 28 other
    offsets: 40/3, so 43 t >= 3 n*n.

    >>> pass_free_bound(5), pass_free_bound(19), pass_free_bound(19, "pinwheel")
    (2, 28, 26)
    """
    if variant == STANDARD:
        return -(-n * n // 13)
    return -(-3 * n * n // 43)


def _status(pos: MinefieldPosition) -> list[str]:
    from boardproof.models.minefield import graphs

    grid = graphs.grid_graph(pos)
    problems = graphs.glyph_audit(pos, grid)
    if not pos.game.standard:
        problems = _variant_audit(pos, problems)
    b, w = pos.black.bit_count(), pos.white.bit_count()
    mover, last = SYMBOLS[pos.to_move], SYMBOLS[1 - pos.to_move]
    paths = [graphs.winning_path(pos, c, grid=grid) is not None for c in (BLACK, WHITE)]
    if all(paths):
        problems.append("both b and w have a winning path")
    elif paths[pos.to_move]:
        problems.append(
            f"{mover} to move already has a winning path: only {last}, who just moved, "
            "could have completed one"
        )
    elif paths[1 - pos.to_move] and (
        graphs.disjoint_winning_paths(pos, 1 - pos.to_move, grid=grid) > 1
    ):
        problems.append(
            f"{last} has two winning paths without a common stone: the first one "
            "would have ended the game"
        )
    if pos.pie and (b, w, pos.to_move) not in ((0, 0, BLACK), (1, 0, WHITE)):
        problems.append(
            f"the pie rule cannot be pending with {b} b and {w} w stones and {mover} to move"
        )
    if b + w < pass_free_bound(pos.n, pos.game.variant):
        expected = 0 if pos.to_move == BLACK else 1
        if b - w != expected:
            problems.append(
                f"{b} b and {w} w stones with {mover} to move: with so few stones no "
                f"turn can have been skipped, so b - w must be {expected}"
            )
    elif not skips_possible(pos):
        problems.append(
            f"{b} b and {w} w stones with {mover} to move: no sequence of turns and skips "
            "gives these counts"
        )
    return problems


def _variant_audit(pos: MinefieldPosition, standard: list[str]) -> list[str]:
    """The standard audit's problems (``graphs.glyph_audit``) for the glyphs of ``pos``'s
    variant: without the 2x4 switch when the variant allows it, with every pinwheel and
    cartwheel that holds at least one stone of the board (the stone placed last among
    them would have formed it; the cartwheel of the empty 2x2 board, all of its stones
    beyond the board, is no problem).

    >>> pos = make_game(variant="pinwheel").parse_position("5/1wb2/b2w1/w2b1/1bw2 b -")
    >>> pos.status(), make_game().parse_position(pos.fen()).status()
    (['a pinwheel at b2-c3'], ['a 2x4 switch at a2-d3', 'a 2x4 switch at b1-c4'])
    """
    glyphs = pos.game.glyphs
    problems = [p for p in standard if "2x4 switch" in glyphs or not p.startswith("a 2x4 ")]
    cells = cells_of(pos)
    for name in glyphs:
        if name not in ("pinwheel", "cartwheel"):
            continue
        found = set()
        for (f, r), instance in glyph_instances(pos.n, name):
            if any(state != EMPTY_CELL for _, state in instance) and all(
                cells[c] == state for c, state in instance
            ):
                found.add(f"a {name} at {Move(f + 1, r + 1)}-{Move(f + 2, r + 2)}")
        problems.extend(sorted(found, key=lambda text: (len(text), text)))
    return problems


def skips_possible(pos: MinefieldPosition) -> bool:
    """Can some numbers of skipped turns (``pass``) explain the stone counts of ``pos``?

    Colour turns alternate from Black (a swap changes no colour's turn), so
    ``(b + skips_b) - (w + skips_w)`` is 0 with Black to move, 1 with White to move.
    A colour is only skipped on a board of at least ``t = pass_free_bound(n)`` stones,
    and the other colour's next turn is a placement (``pass`` needs the opponent to
    be able to place, and it changes nothing). So every skip of Black is answered by a
    distinct white stone placed on a board of >= t stones: at most ``w - t // 2`` of
    them (the first t placements alternate), plus one if Black's skip was the last
    move (White to move, Black unable to place now); likewise for White with
    ``b - (t + 1) // 2``.

    >>> skips_possible(make_game().parse_position("ww3/ww3/5/5/5 b -"))
    False
    >>> skips_possible(make_game().parse_position("wb3/bw3/5/5/5 b -"))
    True
    """
    b, w = pos.black.bit_count(), pos.white.bit_count()
    t = pass_free_bound(pos.n, pos.game.variant)
    if b + w < t:
        return b - w == (0 if pos.to_move == BLACK else 1)
    white_to_move = pos.to_move == WHITE
    last_skip_b = white_to_move and not pos.opponent_placements()
    last_skip_w = not white_to_move and not pos.opponent_placements()
    max_b = w - t // 2 + (1 if last_skip_b else 0)
    max_w = b - (t + 1) // 2 + (1 if last_skip_w else 0)
    difference = (1 if white_to_move else 0) - b + w  # skips_b - skips_w
    low = max(0, -difference)
    return low <= min(max_w, max_b - difference)
