"""SVG picture of a Carpniches position: each stack drawn as discs, bottom to top.

>>> from boardproof.models.carpniches.rules import START_POSITION
>>> text = render(START_POSITION)
>>> text.startswith("<svg") and text.count("<circle") == 12
True
"""

from __future__ import annotations

from typing import Any

from boardproof.models.base import Region, View
from boardproof.models.carpniches.rules import FILES, SIZE, SYMBOLS, opening_text
from boardproof.models.drawing import SvgDocument

CELL = 60
MARGIN = 24
COLOURS = {"c": "#a0663a", "p": "#f4f1ea"}
LABEL_COLOURS = {"c": "#ffffff", "p": "#333333"}
RADIUS = 14
#: vertical distance between the discs of a stack
STEP = 9


def stack_centres(top: float, height: int) -> list[float]:
    """The centres (y) of a stack's discs, bottom first, in the square starting at ``top``.

    The stack is centred in its square, so a lone piece sits in the middle and every
    disc stays inside the square:

    >>> stack_centres(0, 1), stack_centres(0, 3)
    ([30.0], [39.0, 30.0, 21.0])
    """
    middle = top + CELL / 2
    return [middle + ((height - 1) / 2 - level) * STEP for level in range(height)]


def render(position: Any) -> str:
    """Draw ``position`` (a CarpnichesPosition) as an SVG document."""
    width = 2 * MARGIN + SIZE * CELL
    height = width + 24
    doc = SvgDocument(width, height)
    doc.rect(0, 0, width, height, fill="#ffffff")
    for rank in range(SIZE):
        for file in range(SIZE):
            x = MARGIN + file * CELL
            y = MARGIN + (SIZE - 1 - rank) * CELL
            shade = "#d9e6c3" if (rank + file) % 2 else "#c2d6a4"
            doc.rect(x, y, CELL, CELL, fill=shade, stroke="#7a8f5c", stroke_width=1)
            stack = position.stack(rank * SIZE + file)
            centres = stack_centres(y, len(stack))
            for piece, cy in zip(stack, centres, strict=True):
                doc.circle(
                    x + CELL / 2, cy, RADIUS, fill=COLOURS[piece], stroke="#333333",
                    stroke_width=1.5,
                )  # fmt: skip
            if stack:
                top = stack[-1]
                label = f"{top}{len(stack)}"
                doc.text(x + CELL / 2, centres[-1] + 4, label, size=11, fill=LABEL_COLOURS[top])
    for i in range(SIZE):
        doc.text(MARGIN + i * CELL + CELL / 2, MARGIN + SIZE * CELL + 14, FILES[i], size=11)
        doc.text(MARGIN / 2, MARGIN + (SIZE - 1 - i) * CELL + CELL / 2 + 4, str(i + 1), size=11)
    caption = f"{SYMBOLS[position.to_move]} to move, opening {opening_text(position.opening)}"
    doc.text(width / 2, height - 6, caption, size=12)
    return doc.to_string()


def click_path(move: str) -> list[str]:
    """The squares that form ``move``: from, then to.

    >>> click_path("a1-b2")
    ['a1', 'b2']
    """
    return move.split("-", 1) if "-" in move else [move]


def hit_regions(pos: Any) -> list[Region]:
    """The clickable squares of ``pos``'s picture (this drawing's geometry)."""
    return [
        (
            f"{FILES[f]}{r + 1}",
            MARGIN + f * CELL,
            MARGIN + (SIZE - 1 - r) * CELL,
            CELL,
            CELL,
        )
        for r in range(SIZE)
        for f in range(SIZE)
    ]


#: what the site and the analysis board find through the descriptor (``GameInfo.view``)
VIEW = View(click_path=click_path, hit_regions=hit_regions)
