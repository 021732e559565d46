"""SVG picture of a Minefield position.

Stones sit on the points of an n x n grid. Black's edges (top and bottom) are
drawn as dark bars, White's (left and right) as light bars with a dark
outline; file letters and rank numbers run along the sides; a won position
shows its winning path (found by networkx) as a red line through the stones.

>>> from boardproof.models.minefield.rules import make_game
>>> svg = render(make_game().parse_position("1b1/1b1/1bw w"))
>>> svg.startswith("<svg") and svg.count("<circle") == 4 + 3 and "<polyline" in svg
True
"""

from __future__ import annotations

from typing import Any

from boardproof.models.base import Position, Region, View
from boardproof.models.drawing import SvgDocument

CELL = 36
MARGIN = 50
BAR = 7
STONE_RADIUS = 0.42 * CELL
FILES = "abcdefghijklmnopqrstuvwxyz"
COLOURS = {
    "board": "#e8c27a",
    "line": "#6b4f1d",
    "black": "#111111",
    "white": "#fafafa",
    "white edge": "#f4f4f4",
    "outline": "#222222",
    "path": "#d62728",
    "label": "#333333",
}


def render(position: Position) -> str:
    """The SVG text of ``position`` (a Minefield position)."""
    from boardproof.models.minefield.graphs import winning_path

    n: int = position.n  # type: ignore[attr-defined]
    size = 2 * MARGIN + (n - 1) * CELL
    doc = SvgDocument(size, size)

    def x_of(f: int) -> float:
        return MARGIN + f * CELL

    def y_of(r: int) -> float:
        return MARGIN + (n - 1 - r) * CELL

    low, high = x_of(0), x_of(n - 1)
    pad = CELL / 2
    doc.rect(0, 0, size, size, fill="#ffffff")
    doc.rect(low - pad, low - pad, high - low + 2 * pad, high - low + 2 * pad,
             fill=COLOURS["board"])
    # the edges: Black's top and bottom, White's left and right
    for y in (low - pad - BAR, high + pad):
        doc.rect(low - pad, y, high - low + 2 * pad, BAR, fill=COLOURS["black"])
    for x in (low - pad - BAR, high + pad):
        doc.rect(x, low - pad, BAR, high - low + 2 * pad, fill=COLOURS["white edge"],
                 stroke=COLOURS["outline"], stroke_width=1)
    for i in range(n):
        doc.line(x_of(i), low, x_of(i), high, stroke=COLOURS["line"], stroke_width=1)
        doc.line(low, y_of(i), high, y_of(i), stroke=COLOURS["line"], stroke_width=1)
    label = 11
    gap = pad + BAR + 9  # from the outer grid line to a label's centre
    for i in range(n):
        for y in (low - gap + 4, high + gap + 4):
            doc.text(x_of(i), y, FILES[i], size=label, fill=COLOURS["label"])
        for x in (low - gap, high + gap):
            doc.text(x, y_of(i) + 4, str(i + 1), size=label, fill=COLOURS["label"])
    for r in range(n):
        for f in range(n):
            stone = position.stone_at(f, r)  # type: ignore[attr-defined]
            if stone is None:
                continue
            doc.circle(
                x_of(f), y_of(r), STONE_RADIUS,
                fill=COLOURS["black" if stone == 0 else "white"],
                stroke=COLOURS["outline"], stroke_width=1.5,
            )
    winner = position.winner()  # type: ignore[attr-defined]
    if winner is not None:
        path = winning_path(position, winner) or []
        points = [(x_of(f), y_of(r)) for f, r in path]
        if len(points) == 1:
            points.append(points[0])
        doc.polyline(points, stroke=COLOURS["path"], stroke_width=5,
                     stroke_linecap="round", stroke_linejoin="round", opacity=0.85)
        for x, y in points:
            doc.circle(x, y, 4, fill=COLOURS["path"])
    return doc.to_string()


def hit_regions(pos: Any) -> list[Region]:
    """The clickable points of ``pos``'s picture (this drawing's geometry)."""
    n: int = pos.n
    return [
        (
            f"{FILES[f]}{r + 1}",
            MARGIN + f * CELL - CELL / 2,
            MARGIN + (n - 1 - r) * CELL - CELL / 2,
            CELL,
            CELL,
        )
        for r in range(n)
        for f in range(n)
    ]


#: what the site and the analysis board find through the descriptor (``GameInfo.view``)
VIEW = View(hit_regions=hit_regions)
