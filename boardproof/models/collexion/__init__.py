"""ColleXion: a set-collection game played in the box itself.

``make_game()`` returns the game; the heap simulation is in
:mod:`boardproof.models.collexion.heap`, the rules, notation and move syntax in
:mod:`boardproof.models.collexion.rules`.

>>> game = make_game()
>>> game.name, game.symmetry_count, game.symbol(0)
('collexion', 1, '1')
"""

from __future__ import annotations

from typing import Any

from boardproof.models.base import InvalidOptionError
from boardproof.models.collexion.rules import (
    GAME,
    CollexionGame,
    CollexionPosition,
    Turn,
    parse_position,
    parse_turn,
)

__all__ = [
    "CollexionGame",
    "CollexionPosition",
    "Turn",
    "make_game",
    "parse_position",
    "parse_turn",
]


def make_game(**options: Any) -> CollexionGame:
    """The ColleXion game; it has no game options (variants are per position)."""
    if options:
        name = sorted(options)[0]
        raise InvalidOptionError(
            f"invalid option {name}: collexion has no game options, got {options[name]!r}"
        )
    return GAME
