"""SVG picture of a Carpniches position: each stack drawn as discs, bottom to top.

>>> from boardproof.models.carpniches.rules import START_POSITION
>>> text = render(START_POSITION)
>>> text.startswith("<svg") and text.count("<circle") == 12
True
"""

from __future__ import annotations

from typing import Any

from boardproof.models.carpniches.rules import FILES, SIZE, SYMBOLS, opening_text
from boardproof.models.drawing import SvgDocument

CELL = 60
MARGIN = 24
COLOURS = {"c": "#a0663a", "p": "#f4f1ea"}
LABEL_COLOURS = {"c": "#ffffff", "p": "#333333"}


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
            for level, piece in enumerate(stack):
                cy = y + CELL - 14 - level * 12
                doc.circle(
                    x + CELL / 2, cy, 16, fill=COLOURS[piece], stroke="#333333", stroke_width=1.5
                )
            if stack:
                top = stack[-1]
                cy = y + CELL - 14 - (len(stack) - 1) * 12
                label = f"{top}{len(stack)}"
                doc.text(x + CELL / 2, cy + 4, label, size=11, fill=LABEL_COLOURS[top])
    for i in range(SIZE):
        doc.text(MARGIN + i * CELL + CELL / 2, MARGIN + SIZE * CELL + 14, FILES[i], size=11)
        doc.text(MARGIN / 2, MARGIN + (SIZE - 1 - i) * CELL + CELL / 2 + 4, str(i + 1), size=11)
    caption = f"{SYMBOLS[position.to_move]} to move, opening {opening_text(position.opening)}"
    doc.text(width / 2, height - 6, caption, size=12)
    return doc.to_string()
