"""The game protocol shared by every game, its outcome type and its errors.

Every game module offers a :class:`Game` (found by name through
:mod:`boardproof.models`) whose positions follow the :class:`Position` protocol.
Solvers only ever use this surface, so a new game never touches a solver.

Players are numbered ``0 .. num_players - 1`` inside the library; each game
writes them the way its notation writes the side to move (``game.symbol(i)``):
``"b"``/``"w"`` for Minefield, ``"c"``/``"p"`` for Carpniches, ``"1"``…``"4"``
for Candy Conquest and ColleXion.

>>> Outcome.win(1).winners
frozenset({1})
>>> Outcome.draw().is_draw
True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

# ---------------------------------------------------------------------------
# Errors. Each is a ValueError; the message is one line that names the field
# and ends with the offending text (python-chess style).
# ---------------------------------------------------------------------------


class BoardproofError(ValueError):
    """Base class of every error caused by bad input."""


class InvalidNotationError(BoardproofError):
    """A position or move string that does not follow the notation.

    >>> str(InvalidNotationError("invalid position: expected 3 fields, got 1: 'x'"))
    "invalid position: expected 3 fields, got 1: 'x'"
    """


class IllegalMoveError(BoardproofError):
    """A well-formed move that the rules do not allow in this position."""


class UnknownGameError(BoardproofError):
    """A game name that the registry does not know."""


class InvalidOptionError(BoardproofError):
    """A game option (player count, variant, seed, win rule…) that is not allowed."""


# ---------------------------------------------------------------------------
# Outcome
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game: the set of winning players.

    An empty set is a draw (or a game that ended without a winner). Several
    winners share the win (ColleXion's equal top scores, team games).
    ``scores`` carries final scores for games that have them.
    """

    winners: frozenset[int]
    scores: tuple[int, ...] | None = None

    @staticmethod
    def win(player: int) -> Outcome:
        return Outcome(frozenset((player,)))

    @staticmethod
    def draw() -> Outcome:
        return Outcome(frozenset())

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def value_for(self, player: int) -> int:
        """+1 if ``player`` is the only winner, -1 if it did not win, 0 otherwise.

        >>> Outcome.win(0).value_for(0), Outcome.win(0).value_for(1)
        (1, -1)
        >>> Outcome.draw().value_for(0)
        0
        """
        if not self.winners:
            return 0
        if player in self.winners:
            return 1 if len(self.winners) == 1 else 0
        return -1


# ---------------------------------------------------------------------------
# Protocols
# ---------------------------------------------------------------------------


@runtime_checkable
class Move(Protocol):
    """A move: hashable, and ``str(move)`` is its canonical notation.

    ``position.parse_move(str(move)) == move`` for every legal move.
    """

    def __hash__(self) -> int: ...

    def __str__(self) -> str: ...


@runtime_checkable
class Position(Protocol):
    """An immutable, hashable game position.

    Required surface (see DESIGN.md): ``fen``, ``legal_moves`` (canonical order),
    ``play`` (returns a new position, never changes ``self``), ``outcome`` (None
    while the game goes on), ``to_move``, ``key`` (transposition key),
    ``transform`` / ``transform_move`` (the game's board symmetries),
    ``parse_move`` and ``status``.
    """

    @property
    def game(self) -> Game: ...

    @property
    def to_move(self) -> int: ...

    def fen(self) -> str: ...

    def legal_moves(self) -> Sequence[Any]: ...

    def play(self, move: Any) -> Position: ...

    def outcome(self) -> Outcome | None: ...

    def key(self) -> Hashable: ...

    def parse_move(self, text: str) -> Any: ...

    def transform(self, symmetry: int) -> Position: ...

    def transform_move(self, move: Any, symmetry: int) -> Any: ...

    def status(self) -> list[str]: ...

    def board_text(self) -> str: ...


class Game(Protocol):
    """A game: its name, players, start positions and position parser."""

    name: str
    #: number of board symmetries; symmetry 0 is the identity.
    symmetry_count: int

    def symbol(self, player: int) -> str:
        """How the notation writes ``player`` (e.g. ``"b"``)."""
        ...

    def player_of(self, symbol: str) -> int:
        """Inverse of :meth:`symbol`; raises InvalidNotationError."""
        ...

    def start(
        self,
        *,
        size: int | None = None,
        players: int | None = None,
        variant: str | None = None,
        seed: int | None = None,
        pie: bool = True,
    ) -> Position:
        """A start position. Options a game does not have raise InvalidOptionError."""
        ...

    def parse_position(self, text: str) -> Position:
        """Parse notation; raises InvalidNotationError naming the field and text."""
        ...


# ---------------------------------------------------------------------------
# Generic helpers every game can use
# ---------------------------------------------------------------------------


def play_line(position: Position, moves: Iterable[str]) -> Position:
    """Play a sequence of moves given in notation; errors name the move.

    Raises IllegalMoveError or InvalidNotationError at the first bad move.
    """
    for text in moves:
        move = position.parse_move(text)
        position = position.play(move)
    return position


#: the deepest perft: the count is a recursion of that depth, and no deeper count of a real
#: position could finish anyway
MAX_PERFT_DEPTH = 100


def check_depth(depth: int, low: int = 0) -> None:
    """Raise InvalidOptionError unless ``low <= depth <= MAX_PERFT_DEPTH``.

    >>> check_depth(1000000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    boardproof...InvalidOptionError: invalid depth: expected a number from 0 to 100, got 1000000
    """
    if not low <= depth <= MAX_PERFT_DEPTH:
        raise InvalidOptionError(
            f"invalid depth: expected a number from {low} to {MAX_PERFT_DEPTH}, got {depth!r}"
        )


def perft(position: Position, depth: int) -> int:
    """Leaves of the legal-move tree of ``depth`` plies (terminal nodes have no children).

    A game may provide a faster ``perft`` method on its positions (bulk counting
    of the last ply); it is used when present. ``depth`` is at most
    :data:`MAX_PERFT_DEPTH`.
    """
    check_depth(depth)
    fast = getattr(position, "perft", None)
    if fast is not None:
        return int(fast(depth))
    return generic_perft(position, depth)


def generic_perft(position: Position, depth: int) -> int:
    """Perft through the protocol only (the reference the fast versions must match)."""
    if depth == 0:
        return 1
    if position.outcome() is not None:
        return 0
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(generic_perft(position.play(m), depth - 1) for m in moves)


def divide(position: Position, depth: int) -> list[tuple[str, int]]:
    """Per-move breakdown of ``perft(position, depth)`` (``depth >= 1``)."""
    check_depth(depth, 1)
    if position.outcome() is not None:
        return []
    return [(str(m), perft(position.play(m), depth - 1)) for m in position.legal_moves()]


def result_fields(position: Position) -> dict[str, Any]:
    """The ``result``/``winner`` fields of ``play --json`` for a position.

    ``winner`` is the winning side's symbol, a list of symbols when several share
    the win, or None.
    """
    outcome = position.outcome()
    if outcome is None:
        return {"result": "ongoing", "winner": None}
    if outcome.is_draw:
        fields: dict[str, Any] = {"result": "draw", "winner": None}
    else:
        symbols = sorted(position.game.symbol(p) for p in outcome.winners)
        fields = {"result": "win", "winner": symbols[0] if len(symbols) == 1 else symbols}
    if outcome.scores is not None:
        fields["scores"] = list(outcome.scores)
    return fields


def require_text(value: Any, field: str = "position") -> str:
    """``value`` if it is a string; otherwise a TypeError naming the field.

    Positions and moves are given in notation, as strings:

    >>> require_text("3/3/3 b p")
    '3/3/3 b p'
    >>> require_text(None)
    Traceback (most recent call last):
        ...
    TypeError: invalid position: expected a string in the game's notation, got None
    """
    if not isinstance(value, str):
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        raise TypeError(f"invalid {field}: expected a string in the game's notation, got {shown}")
    return value
