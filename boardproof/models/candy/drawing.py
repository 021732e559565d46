"""SVG picture of a Candy Conquest position.

Each square is drawn as a cell showing its socket size and its column, floor 0 at the
bottom: one row per candy, its bottom shape on the left and its top shape on the right,
at their size (large or small), filled with the player's colour. A hidden shape (in the
board, inside a large shape, or covered) is drawn hollow and dashed, and every shape has
a ``<title>`` tooltip saying what it is.

>>> from boardproof.models.candy.rules import GAME
>>> pos = GAME.parse_position(".,.,.,.,./.,.,.,.,./.,.,1Os2Sx,.,./.,.,.,.,./.,.,.,.,. 1 2")
>>> text = render(pos)
>>> text.startswith("<svg") and text.count("<title>") == 4
True
>>> "player 1 large round (bottom, hidden)" in text
True
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from boardproof.models.candy.rules import (
    CODES,
    FILES,
    LARGE_SOCKET,
    SIZE,
    CandyPosition,
    shape_visibility,
)
from boardproof.models.drawing import SvgDocument, _fmt

#: fill colour of each player's candies
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
TYPE_NAMES = {"o": "round", "s": "square", "x": "star"}
CELL_W = 120
ROW_H = 24
MARGIN = 24


def _shape(kind: str, cx: float, cy: float, r: float, style: dict[str, str]) -> str:
    attrs = " ".join(f"{k.replace('_', '-')}={quoteattr(v)}" for k, v in style.items())
    if kind == "o":
        return f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(r)}" {attrs}/>'
    if kind == "s":
        return (
            f'<rect x="{_fmt(cx - r)}" y="{_fmt(cy - r)}" width="{_fmt(2 * r)}" '
            f'height="{_fmt(2 * r)}" {attrs}/>'
        )
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        px, py = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
        points.append(f"{_fmt(px)},{_fmt(py)}")
    return f'<polygon points="{" ".join(points)}" {attrs}/>'


def _glyph(letter: str, colour: int, role: str, hidden: bool, cx: float, cy: float) -> str:
    large = letter.isupper()
    r = 9.0 if large else 5.0
    fill = PLAYER_COLOURS[colour]
    if hidden:
        style = {"fill": "white", "stroke": fill, "stroke_width": "1.5",
                 "stroke_dasharray": "2,2", "class": "hidden"}
    else:
        style = {"fill": fill, "stroke": "black", "stroke_width": "1"}
    title = (
        f"player {colour + 1} {'large' if large else 'small'} {TYPE_NAMES[letter.lower()]} "
        f"({role}{', hidden' if hidden else ''})"
    )
    return f"<g><title>{escape(title)}</title>{_shape(letter.lower(), cx, cy, r, style)}</g>"


def render(position: CandyPosition) -> str:
    """The SVG text of ``position``."""
    tallest = max((len(col) for col in position.cols), default=0)
    cell_h = max(3, tallest + 2) * ROW_H
    width = MARGIN * 2 + CELL_W * SIZE
    height = MARGIN * 2 + cell_h * SIZE + 20
    doc = SvgDocument(width, height)
    doc.rect(0, 0, width, height, fill="#fbf7ef")
    for rank in range(SIZE):
        for file in range(SIZE):
            sq = rank * SIZE + file
            x = MARGIN + file * CELL_W
            y = MARGIN + (SIZE - 1 - rank) * cell_h
            large = LARGE_SOCKET[sq]
            doc.rect(x, y, CELL_W, cell_h, fill="#f1e3c8" if large else "#fffaf0",
                     stroke="#8a7a5a", stroke_width=1)
            doc.text(x + 12, y + 14, f"{FILES[file]}{rank + 1}", size=10, fill="#555")
            doc.text(x + CELL_W - 22, y + 14, "large" if large else "small", size=9,
                     fill="#777")
            col = position.cols[sq]
            base = y + cell_h - ROW_H / 2 - 4
            # the socket: a groove of its size under the column
            doc.rect(x + 30, y + cell_h - 6, 60 if large else 30, 3, fill="#8a7a5a")
            for floor, candy in enumerate(col):
                cy = base - floor * ROW_H
                colour, text = candy // 12, CODES[candy % 12]
                bottom_visible, top_visible = shape_visibility(col, floor)
                doc.text(x + 14, cy + 4, f"f{floor}", size=9, fill="#555")
                doc.raw(_glyph(text[0], colour, "bottom", not bottom_visible, x + 45, cy))
                doc.line(x + 56, cy, x + 68, cy, stroke="#999", stroke_width=1)
                doc.raw(_glyph(text[1], colour, "top", not top_visible, x + 80, cy))
                doc.text(x + 106, cy + 4, f"{colour + 1}", size=10,
                         fill=PLAYER_COLOURS[colour])
    outcome = position.outcome()
    if outcome is None:
        caption = f"player {position.to_move + 1} to move; hollow dashed = hidden shape"
    elif outcome.winners:
        caption = "won by player " + ", ".join(str(p + 1) for p in sorted(outcome.winners))
    else:
        caption = "game over: no winner"
    doc.text(width / 2, height - 10, caption, size=12)
    return doc.to_string()
