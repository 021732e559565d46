"""ColleXion's box: the polygons and the seeded, versioned drop simulation.

Polygons are coded as ints ``0..15``: ``colour * 4 + shape`` with colours
``g y b p`` and shapes ``3 4 5 8`` (rules/collexion.md, "Material").

The heap of a new game comes from a physical drop simulation (rules **[choice]**,
"The box and accessibility"): the polygons are dropped one by one, in an order
shuffled by ``random.Random(seed)``, at integer positions drawn uniformly in the
box rectangle; each occupies a disc of radius ``radius``. A later piece lies on
an earlier one when their discs overlap (squared distance of the centres below
``(2 * radius) ** 2``, pure integer arithmetic). Piece ids are the drop order,
``1`` first (bottom). Everything is integer arithmetic on Python's Mersenne
Twister, whose seeding from an int, ``shuffle`` and ``randrange`` are stable
across platforms and Python versions since 3.2, so a seed gives the same heap on
every machine. A new generator gets a new entry in :data:`HEAP_SPECS`; old
versions are kept so that old seeds keep their heaps.

Version 1: a 300 x 200 box and discs of radius 18; on average 22 % of the 80
pieces (17.4; min 10, max 23 over seeds 0-299) are accessible at the start.

>>> heap = drop(0)
>>> len(heap), heap[0].id, polygon_name(heap[0].polygon)
(80, 1, 'b8')
>>> sum(1 for piece in heap if piece.accessible)
17
>>> [polygon_name(p) for p in range(4)]
['g3', 'g4', 'g5', 'g8']
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

COLOURS = "gybp"
SHAPES = "3458"
#: copies of each polygon in the box (rules: "4 colours x 4 shapes x 5 copies")
COPIES = 5
NUM_POLYGONS = len(COLOURS) * len(SHAPES)
assert NUM_POLYGONS == 16

#: the current generator version (``new`` uses it)
HEAP_VERSION = 1


@dataclass(frozen=True)
class HeapSpec:
    """The box rectangle and the disc radius of one generator version (80 pieces)."""

    width: int
    height: int
    radius: int


#: every generator version ever published: never change an entry, add a new one.
HEAP_SPECS: dict[int, HeapSpec] = {1: HeapSpec(width=300, height=200, radius=18)}


@dataclass(frozen=True)
class HeapPiece:
    """One dropped piece: id (drop order), polygon code, centre, ids lying on it."""

    id: int
    polygon: int
    x: int
    y: int
    over: tuple[int, ...]

    @property
    def accessible(self) -> bool:
        return not self.over


def polygon_name(code: int) -> str:
    """``'g3'`` for 0, ``'p8'`` for 15.

    >>> polygon_name(15)
    'p8'
    """
    return COLOURS[code // 4] + SHAPES[code % 4]


def polygon_code(name: str) -> int:
    """Inverse of :func:`polygon_name`; ValueError for anything else.

    >>> polygon_code("y5")
    6
    """
    if len(name) != 2 or name[0] not in COLOURS or name[1] not in SHAPES:
        raise ValueError(f"invalid polygon: expected a colour gybp and a shape 3458, got {name!r}")
    return COLOURS.index(name[0]) * 4 + SHAPES.index(name[1])


def all_polygons() -> list[int]:
    """The 80 polygons of the box, in code order."""
    return [code for code in range(NUM_POLYGONS) for _ in range(COPIES)]


def drop(seed: int, version: int = HEAP_VERSION, count: int = 80) -> tuple[HeapPiece, ...]:
    """The heap of ``seed`` with generator ``version``.

    ``count < 80`` drops only the first ``count`` pieces of the shuffled box into a
    rectangle shrunk to keep the same density (small heaps for tests and
    benchmarks).

    >>> [len(p.over) for p in drop(3, count=6)]
    [4, 0, 3, 2, 1, 0]
    """
    if version not in HEAP_SPECS:
        raise ValueError(
            f"invalid heap version: expected one of {sorted(HEAP_SPECS)}, got {version!r}"
        )
    if not 1 <= count <= COPIES * NUM_POLYGONS:
        raise ValueError(f"invalid piece count: expected 1 to 80, got {count!r}")
    spec = HEAP_SPECS[version]
    total = COPIES * NUM_POLYGONS
    width = max(1, math.isqrt(spec.width * spec.width * count // total))
    height = max(1, math.isqrt(spec.height * spec.height * count // total))
    rng = random.Random(seed)
    polygons = all_polygons()
    rng.shuffle(polygons)
    centres = [(rng.randrange(width), rng.randrange(height)) for _ in range(count)]
    reach = (2 * spec.radius) ** 2
    pieces = []
    for i in range(count):
        x, y = centres[i]
        over = tuple(
            j + 1
            for j in range(i + 1, count)
            if (centres[j][0] - x) ** 2 + (centres[j][1] - y) ** 2 < reach
        )
        pieces.append(HeapPiece(i + 1, polygons[i], x, y, over))
    return tuple(pieces)


def accessible_share(seeds: range, version: int = HEAP_VERSION) -> float:
    """Mean share of accessible pieces at the start over ``seeds``."""
    total = 0
    for seed in seeds:
        total += sum(1 for piece in drop(seed, version) if piece.accessible)
    return total / (80 * len(seeds))
