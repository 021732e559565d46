"""Seeded openings: a few random legal plies from the start, so that the games of a match
differ; each opening is played twice, the players' colours swapped.

Opening ``k`` of a match is drawn from its own generator, seeded by the match's openings
seed and ``k``: the same seed gives the same openings whatever the number of games or
workers. An opening that would end the game is drawn again.

The number of random plies, by game (:data:`OPENING_PLIES`; ``--opening-plies`` sets
another): 2 (one move each) for Minefield, Carpniches and Candy Conquest; 0 for ColleXion,
whose turns are whole collections among thousands of choices (a random one decides the game
rather than opening it) and whose deal is already set by its ``--seed``.

>>> from boardproof import models
>>> start = models.get("minefield").start(size=4)
>>> [str(m) for m in random_opening(start, 2, seed=1, index=0)]
['c2', 'a3']
>>> random_opening(start, 2, seed=1, index=0) == random_opening(start, 2, seed=1, index=0)
True
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from boardproof.models.base import InvalidOptionError, Position

#: random plies of an opening, by game (:data:`DEFAULT_PLIES` for a game not named here)
OPENING_PLIES = {"minefield": 2, "carpniches": 2, "candy": 2, "collexion": 0}
DEFAULT_PLIES = 2
#: draws of an opening that ends the game before it is refused
ATTEMPTS = 100


def default_plies(game_name: str) -> int:
    """The random plies of an opening of ``game_name``."""
    return OPENING_PLIES.get(game_name, DEFAULT_PLIES)


def derive_seed(*parts: Any) -> int:
    """A seed (0 to 2**31 - 1) from ``parts``, the same on every machine and Python.

    >>> derive_seed(1, "opening", 0) == derive_seed(1, "opening", 0) != derive_seed(2, "opening", 0)
    True
    """
    digest = hashlib.sha256(":".join(str(part) for part in parts).encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def random_opening(start: Position, plies: int, *, seed: int, index: int) -> list[Any]:
    """Opening ``index`` of the match seeded ``seed``: ``plies`` random legal moves from
    ``start`` after which the game goes on."""
    rng = random.Random(derive_seed(seed, "opening", index))
    for _ in range(ATTEMPTS):
        pos, moves = start, []
        for _ in range(plies):
            if pos.outcome() is not None:
                break
            move = rng.choice(list(pos.legal_moves()))
            moves.append(move)
            pos = pos.play(move)
        if pos.outcome() is None:
            return moves
    raise InvalidOptionError(
        f"invalid option opening_plies: {plies} random plies end the game from "
        f"{start.fen()!r} (give fewer), got {plies}"
    )
