"""Seeds, random openings and iteration budgets shared by matches, self-play and the daily
puzzle: pure functions of their seeds, the same on every machine and Python (no game known).

Opening ``k`` of a seed is drawn from its own generator, seeded by the seed and ``k``: the
same seed gives the same openings whatever the number of games or workers. An opening that
would end the game is drawn again (:data:`ATTEMPTS` times at most).

>>> from boardproof import models
>>> start = models.get("minefield").start(size=4)
>>> [str(m) for m in random_opening(start, 2, seed=1, index=0)]
['c2', 'a3']
>>> random_opening(start, 2, seed=1, index=0) == random_opening(start, 2, seed=1, index=0)
True
"""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any

from boardproof.models.base import InvalidOptionError, Position

#: draws of an opening that ends the game before it is refused
ATTEMPTS = 100


def derive_seed(*parts: Any) -> int:
    """A seed (0 to 2**31 - 1) from ``parts``, the same on every machine and Python.

    >>> derive_seed(1, "opening", 0) == derive_seed(1, "opening", 0) != derive_seed(2, "opening", 0)
    True
    """
    digest = hashlib.sha256(":".join(str(part) for part in parts).encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def random_opening(start: Position, plies: int, *, seed: int, index: int) -> list[Any]:
    """Opening ``index`` of the seed ``seed``: ``plies`` random legal moves from ``start``
    after which the game goes on."""
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


def draw_iterations(rng: random.Random, low: int, high: int) -> int:
    """A budget from ``low`` to ``high``, log-uniform (as many budgets 50-100 as 400-800).

    >>> rng = random.Random(0)
    >>> budgets = [draw_iterations(rng, 50, 800) for _ in range(1000)]
    >>> min(budgets) >= 50 and max(budgets) <= 800
    True
    """
    if low == high:
        return low
    value = math.exp(rng.uniform(math.log(low), math.log(high)))
    return min(high, max(low, int(round(value))))
