"""The rules and notation of the plug-in's tic-tac-toe (3x3 noughts and crosses).

A position is written as its 9 cells row by row (``x``, ``o`` or ``.``), a space and the
side to move: ``xx.oo.... x``. A move is the number of an empty cell, ``0`` to ``8``. The
8 symmetries of the square are the game's board symmetries.

Only the game protocol of :mod:`boardproof.models.base` is used: nothing of boardproof's
own games, nothing of its test games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardproof.models.base import (
    TWO_PLAYERS,
    IllegalMoveError,
    InvalidNotationError,
    Outcome,
    SymbolsMixin,
    check_options,
)

NAME = "tictac"
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)  # fmt: skip
#: the start option: the player count (always 2)
OPTIONS = (TWO_PLAYERS,)


def map_cell(symmetry: int, cell: int) -> int:
    """Where ``cell`` goes under ``symmetry`` (0-3 quarter turns, +4 a mirror)."""
    row, col = divmod(cell, 3)
    for _ in range(symmetry & 3):
        row, col = col, 2 - row
    if symmetry & 4:
        col = 2 - col
    return row * 3 + col


class TictacGame(SymbolsMixin):
    """Tic-tac-toe: three in a row on 3x3 wins; a full board without one is a draw."""

    name = NAME
    symbols = ("x", "o")
    symmetry_count = 8

    def start(self, **options: Any) -> TictacPosition:
        check_options(NAME, OPTIONS, options)
        return TictacPosition(self, "." * 9, 0)

    def parse_position(self, text: str) -> TictacPosition:
        fields = text.split()
        if len(fields) != 2:
            raise InvalidNotationError(
                f"invalid position: expected 2 fields, got {len(fields)}: {text!r}"
            )
        cells, side = fields
        if len(cells) != 9 or set(cells) - set("xo."):
            raise InvalidNotationError(
                f"invalid position: expected 9 cells of x, o or ., got {cells!r}"
            )
        return TictacPosition(self, cells, self.player_of(side))

    def __reduce__(self) -> str:
        return "GAME"  # one game: a pickled position comes back with it


@dataclass(frozen=True)
class TictacPosition:
    """A position: the cells as text (``x``, ``o``, ``.``) and the side to move."""

    game: TictacGame
    cells: str
    to_move: int

    def fen(self) -> str:
        return f"{self.cells} {self.game.symbol(self.to_move)}"

    def board_text(self) -> str:
        rows = [self.cells[i : i + 3] for i in (0, 3, 6)]
        return "\n".join(rows)

    def outcome(self) -> Outcome | None:
        for a, b, c in LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                return Outcome.win("xo".index(self.cells[a]))
        if "." not in self.cells:
            return Outcome.draw()
        return None

    def legal_moves(self) -> tuple[int, ...]:
        if self.outcome() is not None:
            return ()
        return tuple(i for i, cell in enumerate(self.cells) if cell == ".")

    def play(self, move: Any) -> TictacPosition:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move: cell {move!r} is not free in {self.fen()!r}")
        mark = self.game.symbol(self.to_move)
        cells = self.cells[:move] + mark + self.cells[move + 1 :]
        return TictacPosition(self.game, cells, 1 - self.to_move)

    def key(self) -> tuple[str, int]:
        return (self.cells, self.to_move)

    def parse_move(self, text: str) -> int:
        if text not in [str(i) for i in range(9)]:
            raise InvalidNotationError(f"invalid move: expected a cell 0 to 8, got {text!r}")
        return int(text)

    def transform(self, symmetry: int) -> TictacPosition:
        cells = ["."] * 9
        for cell, mark in enumerate(self.cells):
            cells[map_cell(symmetry, cell)] = mark
        return TictacPosition(self.game, "".join(cells), self.to_move)

    def transform_move(self, move: Any, symmetry: int) -> int:
        return map_cell(symmetry, move)

    def status(self) -> list[str]:
        """What makes the position impossible (x moves first: as many x as o, or one more)."""
        xs, os = self.cells.count("x"), self.cells.count("o")
        if xs - os != self.to_move:
            side = self.game.symbol(self.to_move)
            return [f"{xs} x and {os} o with {side} to move"]
        return []


#: the game (it takes no game options)
GAME = TictacGame()


def make_game(**options: Any) -> TictacGame:
    """``models.get("tictac")``: the game; any game option is refused."""
    check_options(NAME, OPTIONS, options, scope="game")
    return GAME
