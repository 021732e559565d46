"""ColleXion's puzzle themes (``INFO.themes``), read from a puzzle's position and best turn.

A ColleXion puzzle is "find the best turn": the themes describe that turn (the first
move of the line). The definitions (docs/games/collexion.md "Puzzle themes"):

>>> for name, text in THEMES.names.items():
...     print(f"{name}: {text}")  # doctest: +NORMALIZE_WHITESPACE
set-completion: the best turn hands in a set
denial: the best turn takes (or removes) a polygon that an opponent needs to complete a set
    (the opponent holds the other three)
powers: the best turn uses a power (a power token, or the expert variant's free power)

>>> from boardproof.models.collexion.rules import GAME
>>> pos = GAME.parse_position("base 1:g3,2:y3,3:g8 g4.g5:-:-/y8.p8.b8:-:- 234/234/234/234 1")
>>> detect(pos, ["1"])
[]
>>> detect(pos, ["3"])
['denial']
"""

from __future__ import annotations

from collections.abc import Sequence

from boardproof.models.base import Themes
from boardproof.models.collexion.rules import CollexionPosition, parse_turn

NAMES = {
    "set-completion": "the best turn hands in a set",
    "denial": "the best turn takes (or removes) a polygon that an opponent needs to complete "
              "a set (the opponent holds the other three)",
    "powers": "the best turn uses a power (a power token, or the expert variant's free power)",
}  # fmt: skip

#: the polygons (colour * 4 + shape) of each set: the 4 colour sets, then the 4 shape sets
SETS = tuple(tuple(c * 4 + s for s in range(4)) for c in range(4)) + tuple(
    tuple(c * 4 + s for c in range(4)) for s in range(4)
)


def needed(collection: Sequence[int]) -> set[int]:
    """The polygons that would complete a set of ``collection`` (three of its four held).

    >>> sorted(needed([1, 1, 1] + [0] * 13))  # g3 g4 g5: the green set needs g8
    [3]
    """
    found = set()
    for members in SETS:
        missing = [p for p in members if not collection[p]]
        if len(missing) == 1:
            found.add(missing[0])
    return found


def detect(pos: CollexionPosition, line: Sequence[str]) -> list[str]:
    """The themes of the puzzle at ``pos`` whose best turn is ``line[0]``."""
    if not line:
        return []
    turn = parse_turn(line[0])
    found: set[str] = set()
    if turn.sets:
        found.add("set-completion")
    if turn.power or turn.bonus:
        found.add("powers")
    polygon = {pid: poly for pid, poly, _over in pos.box}
    gone = {polygon[pid] for pid in turn.take if pid in polygon}
    for power in (turn.power, turn.bonus):
        if power.startswith("r") and int(power[1:]) in polygon:
            gone.add(polygon[int(power[1:])])
    for player in pos.opponents(pos.to_move):
        if gone & needed(pos.collections[player]):
            found.add("denial")
    return sorted(found)


THEMES = Themes(NAMES, detect)
