"""The game registry: every game is found by name.

>>> names()
('minefield', 'carpniches', 'candy', 'collexion')
>>> get("candy-conquest").name
'candy'
>>> try:
...     get("chess")
... except ValueError as error:
...     print(error)
unknown game: expected one of minefield, carpniches, candy, collexion, got 'chess'
"""

from __future__ import annotations

import importlib
from typing import Any

from boardproof.models.base import Game, UnknownGameError

#: canonical name -> module that defines ``make_game(**options) -> Game``
_MODULES: dict[str, str] = {
    "minefield": "boardproof.models.minefield",
    "carpniches": "boardproof.models.carpniches",
    "candy": "boardproof.models.candy",
    "collexion": "boardproof.models.collexion",
}

_ALIASES: dict[str, str] = {"candy-conquest": "candy"}


def names() -> tuple[str, ...]:
    """The canonical names of the registered games."""
    return tuple(_MODULES)


def aliases(name: str) -> tuple[str, ...]:
    """Other names accepted for the game ``name``.

    >>> aliases("candy")
    ('candy-conquest',)
    """
    key = canonical_name(name)
    return tuple(alias for alias, target in _ALIASES.items() if target == key)


def canonical_name(name: str) -> str:
    """Resolve an alias; raises UnknownGameError for an unknown name."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _MODULES:
        raise UnknownGameError(
            f"unknown game: expected one of {', '.join(_MODULES)}, got {name!r}"
        )
    return key


def get(name: str, **options: Any) -> Game:
    """The game called ``name`` (or an alias), built with game options.

    Options a game does not know raise InvalidOptionError (e.g. ``win=`` is
    Minefield's only).
    """
    module = importlib.import_module(_MODULES[canonical_name(name)])
    game: Game = module.make_game(**options)
    return game
