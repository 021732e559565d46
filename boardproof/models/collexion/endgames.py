"""Seeded ColleXion endgames: a small heap, with collections and tokens already out.

:func:`endgame` builds a plausible late position without playing a whole game
(the token piles usually run out before the box empties, so played games rarely
reach a small box): the box is the seeded heap of ``box_size`` pieces
(``drop(seed, count=box_size)``); between 4 and 9 sets have been handed in
(their tokens taken from random piles, top first, and shared out between the
players); each player holds 2 to 5 polygons from the rest of the box, never a
complete set. Player 1 is to move. Everything comes from
``random.Random(f"endgame {seed} {box_size} {players}")`` (string seeds are
hashed with SHA-512: the same position on every machine).

>>> pos = endgame(1, 8)
>>> len(pos.box), pos.outcome() is None, pos.status()
(8, True, [])
"""

from __future__ import annotations

import random

from boardproof.models.base import InvalidOptionError
from boardproof.models.collexion.heap import NUM_POLYGONS, all_polygons, drop
from boardproof.models.collexion.rules import (
    START_PILE,
    CollexionPosition,
    complete_sets,
)


def endgame(seed: int, box_size: int, players: int = 2) -> CollexionPosition:
    """A seeded base-variant endgame with ``box_size`` pieces in the box."""
    if not 1 <= box_size <= 40:
        raise InvalidOptionError(f"invalid box size: expected 1 to 40, got {box_size!r}")
    if players not in (2, 3):
        raise InvalidOptionError(
            f"invalid option players: base endgames have 2 or 3, got {players!r}"
        )
    rng = random.Random(f"endgame {seed} {box_size} {players}")
    heap = drop(seed, count=box_size)
    rest = all_polygons()
    for piece in heap:
        rest.remove(piece.polygon)
    rng.shuffle(rest)
    piles = [list(START_PILE) for _ in range(4)]
    tokens: list[list[int]] = [[] for _ in range(players)]
    for _ in range(rng.randrange(4, 10)):
        pile = rng.choice([c for c in range(4) if piles[c]])
        tokens[rng.randrange(players)].append(piles[pile].pop(0))
    colls: list[tuple[int, ...]] = []
    for _ in range(players):
        coll = [0] * NUM_POLYGONS
        for _ in range(rng.randrange(2, 6)):
            poly = rest.pop()
            coll[poly] += 1
            if complete_sets(tuple(coll)):
                coll[poly] -= 1
        colls.append(tuple(coll))
    return CollexionPosition(
        "base",
        tuple((p.id, p.polygon, p.over) for p in heap),
        tuple(colls),
        tuple(tuple(sorted(t)) for t in tokens),
        ("",) * players,
        tuple(tuple(p) for p in piles),
        0,
        False,
    )
