"""Carpniches' puzzle themes (``INFO.themes``), read from a puzzle's position and line.

The winner is the animal that wins at the end of the line; the defender the other one.
The definitions (docs/games/carpniches.md "Puzzle themes"):

>>> for name, text in THEMES.names.items():
...     print(f"{name}: {text}")  # doctest: +NORMALIZE_WHITESPACE
line-of-three: the line ends with a line of 3 or more top pieces of the winner
blockade: the line ends with the defender to move and no legal move (no line on the board)
both-lines: at a turn of the defender on the line, one of its moves would give both animals
    a line: by the rule "both win, the mover loses", that defence loses at once
tall-stack-jump: a move of the winner takes the top of a 3-high stack (it travels 3 squares)

>>> from boardproof.models.carpniches.rules import parse_position
>>> detect(parse_position("6/6/6/6/6/(cpc)3cc c -"), ["a1-d1"])
['line-of-three', 'tall-stack-jump']
"""

from __future__ import annotations

from collections.abc import Sequence

from boardproof.models.base import Themes
from boardproof.models.carpniches.rules import OPENING_OVER, CarpnichesPosition

NAMES = {
    "line-of-three": "the line ends with a line of 3 or more top pieces of the winner",
    "blockade": "the line ends with the defender to move and no legal move (no line on the "
                "board)",
    "both-lines": "at a turn of the defender on the line, one of its moves would give both "
                  "animals a line: by the rule \"both win, the mover loses\", that defence "
                  "loses at once",
    "tall-stack-jump": "a move of the winner takes the top of a 3-high stack (it travels 3 "
                       "squares)",
}  # fmt: skip


def detect(pos: CarpnichesPosition, line: Sequence[str]) -> list[str]:
    """The themes of the puzzle at ``pos`` with the solution line ``line``."""
    positions = [pos]
    for text in line:
        positions.append(positions[-1].play(positions[-1].parse_move(text)))
    final = positions[-1]
    outcome = final.outcome()
    if outcome is None or len(outcome.winners) != 1:
        return []
    (winner,) = outcome.winners
    found: set[str] = set()
    lines = final.lines()
    if lines[winner] and not lines[1 - winner]:
        found.add("line-of-three")
    if not any(lines) and final.to_move != winner:
        found.add("blockade")
    for here, text in zip(positions, line, strict=False):
        move = here.parse_move(text)
        if here.to_move == winner:
            if here.opening == OPENING_OVER and here.height(move.frm) == 3:
                found.add("tall-stack-jump")
        elif any(all(here.play(other).lines()) for other in here.legal_moves()):
            found.add("both-lines")
    return sorted(found)


THEMES = Themes(NAMES, detect)
