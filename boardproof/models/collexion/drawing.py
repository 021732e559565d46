"""SVG picture of a ColleXion position: the heap as layers, players and piles.

Layer 0 (the top row) holds the accessible pieces, drawn with a thick outline;
each piece below is drawn in the row of its depth, dimmed, with a thin line up
to every piece lying on it. Each piece is its shape (triangle, square, pentagon,
octagon) in its colour, labelled with its id.

>>> from boardproof.models.collexion import make_game
>>> svg = render(make_game().parse_position("base 1:g3<2,2:p8 -:-:-/-:-:- 234/234/234/234 1"))
>>> svg.startswith("<svg") and svg.count("<polygon") == 2
True
"""

from __future__ import annotations

import math
import re
from typing import Any

from boardproof.models.base import Region, View
from boardproof.models.collexion.heap import COLOURS, polygon_name
from boardproof.models.collexion.rules import CollexionPosition
from boardproof.models.drawing import SvgDocument

FILL = {"g": "#4caf50", "y": "#fdd835", "b": "#1e88e5", "p": "#ec407a"}
SIDES = {"3": 3, "4": 4, "5": 5, "8": 8}
CELL = 46
ROW = 62
MARGIN = 24


def _shape(cx: float, cy: float, sides: int, radius: float) -> list[tuple[float, float]]:
    start = -math.pi / 2 + (math.pi / sides if sides % 2 == 0 else 0.0)
    return [
        (
            cx + radius * math.cos(start + 2 * math.pi * k / sides),
            cy + radius * math.sin(start + 2 * math.pi * k / sides),
        )
        for k in range(sides)
    ]


def render(position: CollexionPosition) -> str:
    """The SVG text of ``position``."""
    layers = position.layers()
    widest = max((len(layer) for layer in layers), default=1)
    players = position.num_players
    width = max(2 * MARGIN + widest * CELL, 420)
    height = 2 * MARGIN + 24 + len(layers) * ROW + (players + 2) * 20
    doc = SvgDocument(width, height)
    doc.rect(0, 0, width, height, fill="#fbf8f0")
    title = (
        f"ColleXion ({position.variant}): {len(position.box)} pieces, "
        f"{len(position.accessible())} accessible"
    )
    doc.text(width / 2, MARGIN, title, size=14)
    where: dict[int, tuple[float, float]] = {}
    for depth, layer in enumerate(layers):
        y = MARGIN + 24 + depth * ROW + ROW / 2
        doc.text(MARGIN / 2 + 4, y + 4, str(depth), size=10, fill="#888")
        for k, (pid, _, _) in enumerate(layer):
            where[pid] = (MARGIN + CELL * k + CELL / 2, y)
    for pid, _, over in position.box:
        x1, y1 = where[pid]
        for other in over:
            x2, y2 = where[other]
            doc.line(x1, y1, x2, y2, stroke="#bbb", stroke_width=1)
    for pid, poly, over in position.box:
        x, y = where[pid]
        name = polygon_name(poly)
        free = not over
        doc.polygon(
            _shape(x, y, SIDES[name[1]], 19),
            fill=FILL[name[0]],
            fill_opacity=1.0 if free else 0.45,
            stroke="#000" if free else "#777",
            stroke_width=3 if free else 1,
        )
        doc.text(x, y + 4, str(pid), size=11, font_weight="bold" if free else None)
    y = MARGIN + 24 + len(layers) * ROW + 14
    scores = position.player_scores()
    for p in range(players):
        toks = ".".join(map(str, position.tokens[p])) or "-"
        coll = [polygon_name(t) for t in range(16) for _ in range(position.collections[p][t])]
        mark = "> " if p == position.to_move and not position.ended() else ""
        line = (
            f"{mark}player {p + 1}: {'.'.join(coll) or '-'}  tokens {toks}  "
            f"powers {position.powers[p] or '-'}  score {scores[p]}"
        )
        doc.text(MARGIN, y, line, size=12, text_anchor="start")
        y += 20
    piles = "  ".join(
        f"{COLOURS[c]}: {''.join(map(str, position.piles[c])) or '-'}" for c in range(4)
    )
    doc.text(
        MARGIN,
        y,
        "piles  " + piles + ("  (final round)" if position.final else ""),
        size=12,
        text_anchor="start",
    )
    return doc.to_string()


_MOVE_RE = re.compile(r"^(?:(?P<power>[^:]+):)?(?P<take>pass|\d+(?:\.\d+)*)(?P<rest>.*)$")


def click_path(move: str) -> list[str]:
    """The steps that form a turn: the power, each piece taken, then the rest.

    >>> click_path("r4:12.7/g.3y")
    [':r4', '12', '7', '/g.3y']
    """
    match = _MOVE_RE.match(move)
    if match is None:
        return [move]
    path = [f":{match['power']}"] if match["power"] else []
    take = match["take"]
    path += ["pass"] if take == "pass" else take.split(".")
    if match["rest"]:
        path.append(match["rest"])
    return path


def hit_regions(pos: Any) -> list[Region]:
    """The clickable pieces of ``pos``'s picture (this drawing's geometry)."""
    regions: list[Region] = []
    for depth, layer in enumerate(pos.layers()):
        y = MARGIN + 24 + depth * ROW + ROW / 2
        for k, (pid, _, _) in enumerate(layer):
            x = MARGIN + CELL * k + CELL / 2
            regions.append((str(pid), x - 21, y - 21, 42, 42))
    return regions


#: what the site and the analysis board find through the descriptor (``GameInfo.view``)
VIEW = View(click_path=click_path, hit_regions=hit_regions)
