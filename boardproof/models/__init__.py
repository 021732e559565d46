"""The game registry: every game is found by name, and described by its :class:`GameInfo`.

A game is a package ``boardproof.models.<game>`` whose ``INFO`` is its descriptor;
:func:`register` adds any other game (a plug-in) through the same descriptor.

>>> names()
('minefield', 'carpniches', 'candy', 'collexion')
>>> get("candy-conquest").name
'candy'
>>> info("candy").long_name
'Candy Conquest'
>>> try:
...     get("chess")
... except ValueError as error:
...     print(error)
unknown game: expected one of minefield, carpniches, candy, collexion, got 'chess'
"""

from __future__ import annotations

import importlib
from typing import Any

from boardproof.models.base import (
    Game,
    GameInfo,
    InvalidOptionError,
    UnknownGameError,
    set_registry,
)

__all__ = ["GameInfo", "aliases", "canonical_name", "get", "info", "names", "register"]

#: the built-in games (canonical name -> package with ``INFO``), in their listing order
_BUILTIN: dict[str, str] = {
    "minefield": "boardproof.models.minefield",
    "carpniches": "boardproof.models.carpniches",
    "candy": "boardproof.models.candy",
    "collexion": "boardproof.models.collexion",
}
#: aliases of the built-in games (known before their packages are imported)
_BUILTIN_ALIASES: dict[str, str] = {"candy-conquest": "candy"}

#: descriptors loaded so far, and the plug-ins' (in registration order)
_INFOS: dict[str, GameInfo] = {}
_PLUGINS: list[str] = []
_ALIASES: dict[str, str] = dict(_BUILTIN_ALIASES)


def names() -> tuple[str, ...]:
    """The canonical names of the registered games."""
    return (*_BUILTIN, *_PLUGINS)


def aliases(name: str) -> tuple[str, ...]:
    """Other names accepted for the game ``name``.

    >>> aliases("candy")
    ('candy-conquest',)
    """
    return info(name).aliases


def canonical_name(name: str) -> str:
    """Resolve an alias; raises UnknownGameError for an unknown name."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _BUILTIN and key not in _PLUGINS:
        raise UnknownGameError(
            f"unknown game: expected one of {', '.join(names())}, got {name!r}"
        )
    return key


def info(name: str) -> GameInfo:
    """The descriptor of the game called ``name`` (or an alias)."""
    key = canonical_name(name)
    found = _INFOS.get(key)
    if found is None:
        found = importlib.import_module(_BUILTIN[key]).INFO
        assert isinstance(found, GameInfo) and found.name == key
        _INFOS[key] = found
    return found


def get(name: str, /, **options: Any) -> Game:
    """The game called ``name`` (or an alias), built with game options.

    Options a game does not declare raise InvalidOptionError (e.g. ``win=`` is
    Minefield's only), in one wording for every game; so does an option called
    ``name`` (the game's name is positional only), as a proof or a puzzle may carry:

    >>> get("minefield", name="candy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof...InvalidOptionError: invalid option name: minefield does not take it, got 'candy'
    """
    return info(name).make(**options)


def register(descriptor: GameInfo) -> None:
    """Add a game (a plug-in) to the registry; it is then found like the built-in ones.

    Refuses a descriptor with problems (:meth:`GameInfo.problems`) or a taken name.
    """
    problems = descriptor.problems()
    if problems:
        raise InvalidOptionError(f"invalid game descriptor: {problems[0]}: {descriptor.name!r}")
    taken = set(_BUILTIN) | set(_PLUGINS) | set(_ALIASES)
    for word in (descriptor.name, *descriptor.aliases):
        if word in taken:
            raise InvalidOptionError(f"invalid game descriptor: the name is taken: {word!r}")
    _PLUGINS.append(descriptor.name)
    _INFOS[descriptor.name] = descriptor
    for alias in descriptor.aliases:
        _ALIASES[alias] = descriptor.name


def unregister(name: str) -> None:
    """Remove a plug-in registered with :func:`register` (built-in games stay)."""
    key = canonical_name(name)
    if key in _BUILTIN:
        raise InvalidOptionError(f"invalid game: a built-in game cannot be removed: {name!r}")
    _PLUGINS.remove(key)
    del _INFOS[key]
    for alias in [a for a, target in _ALIASES.items() if target == key]:
        del _ALIASES[alias]


set_registry(info)  # a game's ``info`` is its registered descriptor
