"""Minefield in GTP: vertices as GTP and GoGui write them, and GoGui's view of the board.

GTP's columns are letters without ``I`` (``A``…``H``, ``J``…``Z``: 25 of them) and its rows
count from the bottom, from 1; the notation's files run ``a``–``z`` *with* ``i``. So the
notation's ``i5`` is GTP's ``J5``, its ``j5`` GTP's ``K5``, and boards up to 25x25 can be
played over GTP. ``swap`` and ``pass`` are moves in both.

>>> from boardproof.models.minefield.rules import make_game
>>> pos = make_game().start(size=11)
>>> vertex(pos, "i5"), vertex(pos, "h5"), vertex(pos, "swap")
('J5', 'H5', 'swap')
>>> move(pos, "j5"), move(pos, "PASS")
('i5', 'pass')
>>> move(pos, "I5")
Traceback (most recent call last):
...
boardproof.models.base.InvalidNotationError: invalid vertex: GTP has no column I, got 'I5'
"""

from __future__ import annotations

from typing import Any

from boardproof.models.base import GtpBoard, InvalidNotationError
from boardproof.models.minefield.board import FILES, SYMBOLS

#: GTP's column letters: no I
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
#: the boards GTP can name (25 columns)
MIN_GTP_SIZE, MAX_GTP_SIZE = 2, len(GTP_COLUMNS)
#: moves that are words in both
WORDS = ("swap", "pass")


def vertex(position: Any, text: str) -> str:
    """The GTP vertex of the move ``text`` (the notation)."""
    if text in WORDS:
        return text
    return GTP_COLUMNS[FILES.index(text[0])] + text[1:]


def move(position: Any, text: str) -> str:
    """The notation of the GTP vertex ``text`` (any case)."""
    word = text.strip().lower()
    if word in WORDS:
        return word
    column = text.strip()[:1].upper()
    if column == "I":
        raise InvalidNotationError(f"invalid vertex: GTP has no column I, got {text!r}")
    if not column or column not in GTP_COLUMNS or not text.strip()[1:].isdigit():
        raise InvalidNotationError(
            f"invalid vertex: expected a letter (no I) and a row, pass or swap, got {text!r}"
        )
    return FILES[GTP_COLUMNS.index(column)] + str(int(text.strip()[1:]))


def _size(position: Any) -> int:
    return int(position.n)


def cells(position: Any) -> list[str]:
    """The board, top row first: ``X`` Black, ``O`` White, ``.`` empty."""
    marks = {SYMBOLS.index("b"): "X", SYMBOLS.index("w"): "O"}
    return ["".join(marks.get(position.stone_at(f, r), ".") for f in range(position.n))
            for r in range(position.n - 1, -1, -1)]  # fmt: skip


#: what ``boardproof gtp minefield`` finds through the descriptor
GTP = GtpBoard(game_id="Minefield", vertex=vertex, move=move,
               sizes=(MIN_GTP_SIZE, MAX_GTP_SIZE), size=_size, cells=cells)
