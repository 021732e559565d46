"""Seeded openings: a few random legal plies from the start, so that the games of a match
differ; each opening is played twice, the players' colours swapped.

Opening ``k`` of a match is drawn from its own generator, seeded by the match's openings
seed and ``k``: the same seed gives the same openings whatever the number of games or
workers. An opening that would end the game is drawn again. The drawing itself is
:mod:`boardproof.solvers.seeding`'s (the daily puzzle's self-play uses it too).

The number of random plies, by game (:data:`OPENING_PLIES`; ``--opening-plies`` sets
another): 2 (one move each) for Minefield, Carpniches and Candy Conquest; 0 for ColleXion,
whose turns are whole collections among thousands of choices (a random one decides the game
rather than opening it) and whose deal is already set by its ``--seed``.

>>> default_plies("minefield"), default_plies("collexion")
(2, 0)
"""

from __future__ import annotations

from boardproof.solvers.seeding import ATTEMPTS, derive_seed, random_opening

__all__ = ["ATTEMPTS", "DEFAULT_PLIES", "OPENING_PLIES", "default_plies", "derive_seed",
           "random_opening"]

#: random plies of an opening, by game (:data:`DEFAULT_PLIES` for a game not named here)
OPENING_PLIES = {"minefield": 2, "carpniches": 2, "candy": 2, "collexion": 0}
DEFAULT_PLIES = 2


def default_plies(game_name: str) -> int:
    """The random plies of an opening of ``game_name``."""
    return OPENING_PLIES.get(game_name, DEFAULT_PLIES)
