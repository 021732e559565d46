"""The difficulty rating of a puzzle: one documented formula.

::

    rating = 600
           + 300 * (plies - 1) / 2            # each extra own move of the solution
           + 120 * log2(legal moves)          # how many first moves there are to consider
           + 80  * min(decoys, 5)             # tempting first moves that win, but too slowly
           + 40  * log10(solver nodes)        # how much search the proof needed

rounded to an integer. ``decoys`` are the first moves other than the solution
after which the side to move still has a forced win, but only in ``plies + 1``
or ``plies + 2`` more plies (a player who finds them "wins", just not in ``N``);
``solver nodes`` counts the alpha-beta nodes spent proving the value and the
uniqueness (deterministic: the solvers run on node budgets, not clocks).

Labels: ``easy`` below 1400, ``medium`` below 1700, ``hard`` below 2000,
``expert`` from 2000.

>>> rate(plies=3, legal_moves=16, decoys=1, nodes=1000)
{'rating': 1580, 'label': 'medium', 'plies': 3, 'legal_moves': 16, 'decoys': 1, 'nodes': 1000}
>>> rate(plies=5, legal_moves=30, decoys=0, nodes=100000)["label"]
'hard'
"""

from __future__ import annotations

import math
from typing import Any

BASE = 600
PER_MOVE = 300
PER_DOUBLING = 120
PER_DECOY = 80
MAX_DECOYS = 5
PER_DECADE = 40
#: (upper bound, label), checked in order; the last label has no bound
LABELS = ((1400, "easy"), (1700, "medium"), (2000, "hard"))
TOP_LABEL = "expert"


def score(plies: int, legal_moves: int, decoys: int, nodes: int) -> int:
    """The rating number of the formula above.

    >>> score(1, 1, 0, 1)
    600
    """
    value = (
        BASE
        + PER_MOVE * (plies - 1) / 2
        + PER_DOUBLING * math.log2(max(legal_moves, 1))
        + PER_DECOY * min(decoys, MAX_DECOYS)
        + PER_DECADE * math.log10(max(nodes, 1))
    )
    return int(round(value))


def label(rating: int) -> str:
    """``easy``, ``medium``, ``hard`` or ``expert``.

    >>> label(1399), label(1400), label(2500)
    ('easy', 'medium', 'expert')
    """
    for bound, name in LABELS:
        if rating < bound:
            return name
    return TOP_LABEL


def rate(plies: int, legal_moves: int, decoys: int, nodes: int) -> dict[str, Any]:
    """The ``rating`` object stored with a puzzle: the number, its label and its inputs."""
    value = score(plies, legal_moves, decoys, nodes)
    return {
        "rating": value,
        "label": label(value),
        "plies": plies,
        "legal_moves": legal_moves,
        "decoys": decoys,
        "nodes": nodes,
    }
