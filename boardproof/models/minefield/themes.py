"""Minefield's puzzle themes (``INFO.themes``), read from a puzzle's position and line.

The winner is the colour whose path ends the line; a *threat* of a colour is an empty
point where a stone of that colour, placed now, completes its path (whoever is to move).
The definitions (docs/games/minefield.md "Puzzle themes"):

>>> for name, text in THEMES.names.items():
...     print(f"{name}: {text}")  # doctest: +NORMALIZE_WHITESPACE
edge-connection: the winning stone is placed on one of the winner's own edges
double-threat: after a move of the winner, it has two or more threats: one stone cannot
    block them all
glyph-trap: a move of the winner makes one of its threats a point where the defender may
    no longer place (the blocking stone would now form a forbidden glyph)
forced-pass: the line holds a pass (a player with no legal placement)
swap-decision: the pie rule is pending at the puzzle's position (swapping is a legal
    first move)

>>> from boardproof.models.minefield.rules import make_game
>>> pos = make_game().parse_position("3/bw1/b2 b -")
>>> detect(pos, ["a3"])
['edge-connection']
"""

from __future__ import annotations

from collections.abc import Sequence

from boardproof.models.base import Themes
from boardproof.models.minefield.board import PASS, SWAP, Move, tables
from boardproof.models.minefield.rules import MinefieldPosition

NAMES = {
    "edge-connection": "the winning stone is placed on one of the winner's own edges",
    "double-threat": "after a move of the winner, it has two or more threats: one stone "
                     "cannot block them all",
    "glyph-trap": "a move of the winner makes one of its threats a point where the defender "
                  "may no longer place (the blocking stone would now form a forbidden glyph)",
    "forced-pass": "the line holds a pass (a player with no legal placement)",
    "swap-decision": "the pie rule is pending at the puzzle's position (swapping is a legal "
                     "first move)",
}  # fmt: skip


def line_positions(pos: MinefieldPosition, line: Sequence[str]) -> list[MinefieldPosition]:
    """``pos`` and the position after each move of ``line``."""
    out = [pos]
    for text in line:
        out.append(out[-1].play(out[-1].parse_move(text)))
    return out


def threats(pos: MinefieldPosition, colour: int) -> list[Move]:
    """The empty points where a stone of ``colour`` completes its path now (legal for it).

    >>> from boardproof.models.minefield.rules import make_game
    >>> threats(make_game().parse_position("3/bw1/b2 w -"), 0)
    [a3]
    """
    if pos.winner() is not None:
        return []
    mover = MinefieldPosition(pos.game, pos.n, pos.black, pos.white, colour, False)
    found = []
    for move in tables(pos.n).moves_of(mover.legal_placements()):
        if mover.play(move).winner() == colour:
            found.append(move)
    return found


def placements(pos: MinefieldPosition, colour: int) -> int:
    """The points where ``colour`` may place in ``pos`` (whoever is to move), a bitboard."""
    mover = MinefieldPosition(pos.game, pos.n, pos.black, pos.white, colour, False)
    return mover.legal_placements()


def detect(pos: MinefieldPosition, line: Sequence[str]) -> list[str]:
    """The themes of the puzzle at ``pos`` with the solution line ``line``."""
    positions = line_positions(pos, line)
    final = positions[-1]
    winner = final.winner()
    found: set[str] = set()
    if pos.swap_available():
        found.add("swap-decision")
    if any(pos.parse_move(text) == PASS for text in line):
        found.add("forced-pass")
    if winner is None or not line:
        return sorted(found)
    last = positions[-2].parse_move(line[-1])
    t = tables(pos.n)
    edges = t.edges[winner][0] | t.edges[winner][1]
    if last not in (PASS, SWAP) and (1 << t.bit_of[last]) & edges:
        found.add("edge-connection")
    for before, after in zip(positions[:-2], positions[1:-1], strict=True):
        if before.to_move != winner or after.to_move == winner or after.outcome() is not None:
            continue  # not a move of the winner that hands the turn to the defender
        points = threats(after, winner)
        if len(points) >= 2:
            found.add("double-threat")
        legal = after.legal_placements()
        was_legal = placements(before, after.to_move)
        if any((1 << t.bit_of[p]) & was_legal & ~legal for p in points):
            found.add("glyph-trap")
    return sorted(found)


THEMES = Themes(NAMES, detect)
