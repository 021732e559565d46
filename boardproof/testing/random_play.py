"""Seeded random play: the positions that tests and benchmarks sample.

>>> import random
>>> from boardproof import models
>>> start = models.get("minefield").start(size=4, pie=False)
>>> pos = play_randomly(start, random.Random(1), plies=3)
>>> bin(pos.black | pos.white).count("1")
3
>>> play_randomly(start, random.Random(1), plies=3).fen() == pos.fen()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


def play_randomly(position: Any, rng: random.Random, plies: int | None = None,
                  until: Callable[[Any], bool] | None = None) -> Any:
    """Play uniformly random legal moves from ``position``: at most ``plies`` of them, or
    until ``until(position)`` holds; always stops when the game is over."""
    done = 0
    while position.outcome() is None and (plies is None or done < plies):
        if until is not None and until(position):
            break
        position = position.play(rng.choice(position.legal_moves()))
        done += 1
    return position


def unfinished_positions(start: Callable[[], Any], count: int, rng: random.Random,
                         plies: Callable[[random.Random], int] | int | None = None,
                         until: Callable[[Any], bool] | None = None) -> list[Any]:
    """``count`` positions of seeded random games from ``start()`` that are not over.

    ``plies`` is a number of moves, or a function of ``rng`` drawing one per game; games
    that end first are drawn again.

    >>> from boardproof import models
    >>> game = models.get("minefield")
    >>> found = unfinished_positions(lambda: game.start(size=3, pie=False), 4,
    ...                              random.Random(2), plies=lambda r: r.randrange(6))
    >>> len(found), all(p.outcome() is None for p in found)
    (4, True)
    """
    found: list[Any] = []
    while len(found) < count:
        length = plies(rng) if callable(plies) else plies
        pos = play_randomly(start(), rng, plies=length, until=until)
        if pos.outcome() is None:
            found.append(pos)
    return found
