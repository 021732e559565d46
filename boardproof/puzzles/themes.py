"""A puzzle's themes, computed from its record: the position and the solution line.

Each game detects its own themes (its ``THEMES`` part,
:class:`~boardproof.models.base.Themes`, e.g. ``boardproof.models.minefield.themes``);
this module knows no game: it reads the puzzle object, replays nothing itself, and adds
the one theme every game shares, the length of a "win in N" puzzle (``win-in-N``).
The generator stores the list in the puzzle's ``themes`` field (see
:func:`with_themes`); the site filters on it.

>>> puzzle = {"game": "minefield", "options": {}, "position": "3/bw1/b2 b -",
...           "plies": 1, "solution": "a3", "pv": ["a3"]}
>>> puzzle_themes(puzzle)
['edge-connection', 'win-in-1']
>>> theme_title("edge-connection")
'edge connection'
"""

from __future__ import annotations

from typing import Any

from boardproof import models
from boardproof.models.base import BoardproofError
from boardproof.puzzles import PuzzleError


def theme_title(name: str) -> str:
    """How pages write a theme's id: its words.

    >>> theme_title("win-in-3")
    'win in 3'
    """
    return name.replace("-", " ")


def catalogue(game: str) -> dict[str, str]:
    """Every theme ``game`` detects: id -> definition (empty for a game without themes).

    >>> sorted(catalogue("collexion"))
    ['denial', 'powers', 'set-completion']
    """
    part = models.info(game).part("themes")
    return {} if part is None else dict(part.names)


def puzzle_themes(puzzle: dict[str, Any]) -> list[str]:
    """The sorted theme ids of ``puzzle`` (a puzzle object of :mod:`boardproof.puzzles.store`).

    Raises :class:`~boardproof.puzzles.PuzzleError` when the record does not replay (an
    unknown game, a bad position or an illegal move in the line).
    """
    try:
        name = models.canonical_name(str(puzzle["game"]))
        game = models.get(name, **dict(puzzle.get("options") or {}))
        position = game.parse_position(str(puzzle["position"]))
        line = [str(m) for m in (puzzle.get("pv") or [puzzle["solution"]])]
        part = models.info(name).part("themes")
        found = set() if part is None else set(part.detect(position, line))
    except KeyError as error:
        raise PuzzleError(f"invalid puzzle: field {error.args[0]} is missing") from None
    except BoardproofError as error:
        raise PuzzleError(f"invalid puzzle {puzzle.get('id', '')!r}: {error}") from None
    if puzzle.get("objective") != "score" and isinstance(puzzle.get("plies"), int):
        found.add(f"win-in-{puzzle['plies']}")
    return sorted(found)


def with_themes(puzzle: dict[str, Any]) -> dict[str, Any]:
    """``puzzle`` with its ``themes`` field (a new dict; the field is computed afresh)."""
    return {**puzzle, "themes": puzzle_themes(puzzle)}
