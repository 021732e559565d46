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
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from boardproof.models.base import Region, View
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
#: the layout is compact and the symbols large, so the board stays readable when a phone
#: shows it 390 px wide (a scale of about 0.8)
CELL_W = 92
ROW_H = 28
HEADER_H = 20
MARGIN = 12


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
    r = 11.0 if large else 6.5
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
    cell_h = HEADER_H + max(2, tallest) * ROW_H + 6
    width = MARGIN * 2 + CELL_W * SIZE
    height = MARGIN * 2 + cell_h * SIZE + 24
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
            doc.text(x + 5, y + 15, f"{FILES[file]}{rank + 1}", size=13, fill="#444",
                     text_anchor="start")
            doc.text(x + CELL_W - 5, y + 15, "L" if large else "s", size=12, fill="#777",
                     text_anchor="end")
            col = position.cols[sq]
            base = y + cell_h - ROW_H / 2 - 5
            # the socket: a groove of its size under the column
            doc.rect(x + 16, y + cell_h - 5, 52 if large else 26, 3, fill="#8a7a5a")
            for floor, candy in enumerate(col):
                cy = base - floor * ROW_H
                colour, text = candy // 12, CODES[candy % 12]
                bottom_visible, top_visible = shape_visibility(col, floor)
                doc.raw(_glyph(text[0], colour, "bottom", not bottom_visible, x + 22, cy))
                doc.line(x + 34, cy, x + 44, cy, stroke="#999", stroke_width=1.5)
                doc.raw(_glyph(text[1], colour, "top", not top_visible, x + 56, cy))
                doc.text(x + 80, cy + 5, f"{colour + 1}", size=14,
                         fill=PLAYER_COLOURS[colour])
    outcome = position.outcome()
    if outcome is None:
        caption = f"player {position.to_move + 1} to move"
    elif outcome.winners:
        caption = "won by player " + ", ".join(str(p + 1) for p in sorted(outcome.winners))
    else:
        caption = "game over: no winner"
    caption += "; L/s = large/small socket; dashed = hidden shape"
    doc.text(width / 2, height - 12, caption, size=13)
    return doc.to_string()


def click_path(move: str) -> list[str]:
    """The targets that form ``move``: the square, then the candy's code.

    >>> click_path("Os@c3")
    ['c3', 'Os']
    """
    if "@" not in move:
        return [move]
    code, square = move.split("@", 1)
    return [square, code]


def hit_regions(pos: Any) -> list[Region]:
    """The clickable squares of ``pos``'s picture (this drawing's geometry)."""
    tallest = max((len(col) for col in pos.cols), default=0)
    cell_h = max(3, tallest + 2) * ROW_H
    return [
        (
            f"{FILES[f]}{r + 1}",
            MARGIN + f * CELL_W,
            MARGIN + (SIZE - 1 - r) * cell_h,
            CELL_W,
            cell_h,
        )
        for r in range(SIZE)
        for f in range(SIZE)
    ]


_SIZES = {True: "large", False: "small"}
_KINDS = {"o": "round", "s": "square", "x": "star"}


def candy_label(code: str) -> str:
    """A Candy Conquest code in words.

    >>> candy_label("Os")
    'Os: large round below, small square on top'
    """
    bottom, top = code[0], code[1]
    return (
        f"{code}: {_SIZES[bottom.isupper()]} {_KINDS[bottom.lower()]} below, "
        f"{_SIZES[top.isupper()]} {_KINDS[top.lower()]} on top"
    )


def choice_labels(steps: list[dict[str, Any]]) -> dict[str, str]:
    """Button labels for the candy codes of the steps' moves."""
    codes = {path[1] for step in steps for _, path in step["moves"] if len(path) == 2}
    return {code: candy_label(code) for code in sorted(codes)}


#: what the site and the analysis board find through the descriptor (``GameInfo.view``)
VIEW = View(click_path=click_path, hit_regions=hit_regions, choice_labels=choice_labels)
