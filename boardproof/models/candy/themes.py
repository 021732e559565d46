"""Candy Conquest's puzzle themes (``INFO.themes``), read from a puzzle's position and line.

The winner is the colour with a line at the end of the line of moves. The definitions
(docs/games/candy.md "Puzzle themes"):

>>> for name, text in THEMES.names.items():
...     print(f"{name}: {text}")  # doctest: +NORMALIZE_WHITESPACE
column: the winning line is a column (4 visible shapes of the winner, one above the other)
staircase: the winning line is a staircase (floors f to f+3 along a straight line)
flat-line: the winning line is flat (4 candies on one floor along a straight line)
cover: a move of the winner hides a visible shape of another player (a large bottom
    placed over its small top)
multiplayer: a win among 3 or 4 players (the winner forces a line against all the others)

>>> from boardproof.models.candy.rules import parse_position
>>> pos = parse_position(".,.,.,.,./.,.,.,.,./.,.,.,.,./2oS,2Os,.,.,./1So,1oS,1Os,.,. 1 2")
>>> detect(pos, ["oX@d1"])
['flat-line']
"""

from __future__ import annotations

from collections.abc import Sequence

from boardproof.models.base import Themes
from boardproof.models.candy.rules import PASS_SQUARE, CandyPosition, lines_of, visible_shapes

NAMES = {
    "column": "the winning line is a column (4 visible shapes of the winner, one above "
              "the other)",
    "staircase": "the winning line is a staircase (floors f to f+3 along a straight line)",
    "flat-line": "the winning line is flat (4 candies on one floor along a straight line)",
    "cover": "a move of the winner hides a visible shape of another player (a large bottom "
             "placed over its small top)",
    "multiplayer": "a win among 3 or 4 players (the winner forces a line against all the "
                   "others)",
}  # fmt: skip


def hides(before: CandyPosition, after: CandyPosition, square: int, mover: int) -> bool:
    """Whether the placement on ``square`` hid a visible shape of a colour not ``mover``'s."""

    def others(column: Sequence[int]) -> int:
        return sum(1 for colour in visible_shapes(column) if colour != mover)

    return others(after.cols[square]) < others(before.cols[square])


def detect(pos: CandyPosition, line: Sequence[str]) -> list[str]:
    """The themes of the puzzle at ``pos`` with the solution line ``line``."""
    positions = [pos]
    for text in line:
        positions.append(positions[-1].play(positions[-1].parse_move(text)))
    winners = positions[-1].winners()
    if len(winners) != 1:
        return []
    winner = winners[0]
    found: set[str] = set()
    kinds = {"flat": "flat-line", "staircase": "staircase", "column": "column"}
    for kind, _cells in lines_of(positions[-1].cols, winner):
        found.add(kinds[kind])
    if pos.players >= 3:
        found.add("multiplayer")
    for before, after, text in zip(positions, positions[1:], line, strict=False):
        move = before.parse_move(text)
        if before.to_move == winner and move.square != PASS_SQUARE and hides(
            before, after, move.square, winner
        ):
            found.add("cover")
    return sorted(found)


THEMES = Themes(NAMES, detect)
