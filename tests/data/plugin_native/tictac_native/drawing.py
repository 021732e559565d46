"""The plug-in tic-tac-toe's SVG picture: the grid and each mark as a ``<text>``."""

from __future__ import annotations

from typing import Any

from boardproof.models.drawing import SvgDocument

CELL = 40
MARGIN = 10


def render(position: Any) -> str:
    """The picture of ``position`` (``GameInfo.draw``)."""
    size = 3 * CELL + 2 * MARGIN
    doc = SvgDocument(size, size)
    doc.rect(0, 0, size, size, fill="#ffffff")
    for i in (1, 2):
        at = MARGIN + i * CELL
        doc.line(at, MARGIN, at, size - MARGIN, stroke="#333333", stroke_width=2)
        doc.line(MARGIN, at, size - MARGIN, at, stroke="#333333", stroke_width=2)
    for cell, mark in enumerate(position.cells):
        if mark != ".":
            row, col = divmod(cell, 3)
            colour = "#c0392b" if mark == "x" else "#2c3e50"
            doc.text(MARGIN + col * CELL + CELL / 2, MARGIN + row * CELL + CELL * 0.7, mark,
                     size=CELL * 0.7, fill=colour)  # fmt: skip
    return doc.to_string()


def pieces(position: Any) -> int:
    """How many marks the picture shows (one ``<text>`` each)."""
    return 9 - int(position.cells.count("."))
