"""What an interactive board needs, computed in Python: click targets and move paths.

The page never knows the rules. For every position where the reader moves, the
generator writes the legal moves, each with its *click path*: the targets to
click, in order, that form it (:func:`click_path`). Board targets are points,
squares or pieces of the library's SVG picture; :func:`hit_regions` gives their
rectangles in the picture's coordinates, and :func:`clickable_svg` lays them over
the picture as focusable, transparent ``<rect class="hit">`` elements carrying
``data-t`` (the target). Steps that are not on the board (``swap``, ``pass``, a
Candy code, a ColleXion power or set choice) are offered as buttons.

>>> click_path("minefield", "c3"), click_path("carpniches", "a1-b2")
(['c3'], ['a1', 'b2'])
>>> click_path("candy", "Os@c3"), click_path("collexion", "r4:12.7/g.3y")
(['c3', 'Os'], [':r4', '12', '7', '/g.3y'])
>>> from boardproof.models.minefield import make_game
>>> pos = make_game().parse_position("3/3/3 b -")
>>> [r[0] for r in hit_regions(pos)][:4]
['a1', 'b1', 'c1', 'a2']
>>> clickable_svg(pos, {"a1"}).count('class="hit"')
1
"""

from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import quoteattr

from boardproof.models.base import Position
from boardproof.reports import svg

#: (target, x, y, width, height) in the SVG's coordinates
Region = tuple[str, float, float, float, float]

_COLLEXION_RE = re.compile(r"^(?:(?P<power>[^:]+):)?(?P<take>pass|\d+(?:\.\d+)*)(?P<rest>.*)$")


def click_path(game: str, move: str) -> list[str]:
    """The targets that form ``move`` (its notation) in the order they are clicked."""
    if game == "carpniches" and "-" in move:
        return move.split("-", 1)
    if game == "candy" and "@" in move:
        code, square = move.split("@", 1)
        return [square, code]
    if game == "collexion":
        match = _COLLEXION_RE.match(move)
        if match is None:
            return [move]
        path = [f":{match['power']}"] if match["power"] else []
        take = match["take"]
        path += ["pass"] if take == "pass" else take.split(".")
        if match["rest"]:
            path.append(match["rest"])
        return path
    return [move]


def hit_regions(pos: Position) -> list[Region]:
    """The clickable targets of ``pos``'s picture (the renderer's own geometry)."""
    name = pos.game.name
    if name == "minefield":
        from boardproof.models.minefield import drawing as mf

        n: int = pos.n  # type: ignore[attr-defined]
        return [
            (
                f"{mf.FILES[f]}{r + 1}",
                mf.MARGIN + f * mf.CELL - mf.CELL / 2,
                mf.MARGIN + (n - 1 - r) * mf.CELL - mf.CELL / 2,
                mf.CELL,
                mf.CELL,
            )
            for r in range(n)
            for f in range(n)
        ]
    if name == "carpniches":
        from boardproof.models.carpniches import drawing as cp

        return [
            (
                f"{cp.FILES[f]}{r + 1}",
                cp.MARGIN + f * cp.CELL,
                cp.MARGIN + (cp.SIZE - 1 - r) * cp.CELL,
                cp.CELL,
                cp.CELL,
            )
            for r in range(cp.SIZE)
            for f in range(cp.SIZE)
        ]
    if name == "candy":
        from boardproof.models.candy import drawing as cc

        tallest = max((len(col) for col in pos.cols), default=0)  # type: ignore[attr-defined]
        cell_h = max(3, tallest + 2) * cc.ROW_H
        return [
            (
                f"{cc.FILES[f]}{r + 1}",
                cc.MARGIN + f * cc.CELL_W,
                cc.MARGIN + (cc.SIZE - 1 - r) * cell_h,
                cc.CELL_W,
                cell_h,
            )
            for r in range(cc.SIZE)
            for f in range(cc.SIZE)
        ]
    if name == "collexion":
        from boardproof.models.collexion import drawing as cx

        regions: list[Region] = []
        for depth, layer in enumerate(pos.layers()):  # type: ignore[attr-defined]
            y = cx.MARGIN + 24 + depth * cx.ROW + cx.ROW / 2
            for k, (pid, _, _) in enumerate(layer):
                x = cx.MARGIN + cx.CELL * k + cx.CELL / 2
                regions.append((str(pid), x - 21, y - 21, 42, 42))
        return regions
    return []


def clickable_svg(pos: Position, targets: set[str] | None = None) -> str:
    """The picture of ``pos`` with a transparent, focusable rectangle over each target.

    Only targets in ``targets`` get one (None: all of them).
    """
    picture = svg.render(pos)
    if picture.startswith("<?xml"):
        picture = picture.split("?>", 1)[1].lstrip()
    hits = [
        f'<rect class="hit" data-t={quoteattr(t)} x="{x:g}" y="{y:g}" width="{w:g}" '
        f'height="{h:g}" tabindex="0" role="button" aria-label={quoteattr(t)}/>'
        for t, x, y, w, h in hit_regions(pos)
        if targets is None or t in targets
    ]
    if not hits:
        return picture
    body, end = picture.rsplit("</svg>", 1)
    return body + '<g class="hits">\n' + "\n".join(hits) + "\n</g>\n</svg>" + end


def move_table(pos: Position) -> list[list[Any]]:
    """``[[notation, click path], …]`` for every legal move of ``pos``, canonical order."""
    name = pos.game.name
    return [[str(m), click_path(name, str(m))] for m in pos.legal_moves()]


def board_targets(table: list[list[Any]]) -> set[str]:
    """The targets of a move table (every step of every path)."""
    return {step for _, path in table for step in path}


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


def choice_labels(game: str, steps: list[dict[str, Any]]) -> dict[str, str]:
    """Button labels for the choice steps that need words (Candy Conquest's codes)."""
    if game != "candy":
        return {}
    codes = {path[1] for step in steps for _, path in step["moves"] if len(path) == 2}
    return {code: candy_label(code) for code in sorted(codes)}


def puzzle_frames(puzzle: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """The pictures a puzzle page shows and the data its script plays from.

    Frame ``i`` is the position after ``i`` plies of the main line (a ColleXion
    puzzle has two: before and after the best turn). Each *step* is a position where
    the reader moves: its frame, the legal moves with their click paths, the
    accepted answers, and the defence the proof tree gives (the main line's reply).
    """
    from boardproof import models

    game = models.get(puzzle["game"], **(puzzle.get("options") or {}))
    pos = game.parse_position(puzzle["position"])
    pv = [str(m) for m in puzzle["pv"]]
    score = puzzle.get("objective") == "score"
    line_length = 1 if score else len(pv)
    positions = [pos]
    for text in pv[:line_length]:
        positions.append(positions[-1].play(positions[-1].parse_move(text)))
    steps: list[dict[str, Any]] = []
    frames: list[str] = []
    for index, here in enumerate(positions):
        if index < line_length and index % 2 == 0:
            table = move_table(here)
            answers = list(puzzle.get("solutions") or [pv[0]]) if index == 0 else [pv[index]]
            steps.append(
                {
                    "frame": index,
                    "moves": table,
                    "answers": answers,
                    "reply": pv[index + 1] if index + 1 < line_length else None,
                }
            )
            frames.append(clickable_svg(here, board_targets(table)))
        else:
            frames.append(clickable_svg(here, set()))
    data: dict[str, Any] = {
        "id": str(puzzle.get("id", "")),
        "date": str(puzzle.get("date", "")),
        "game": pos.game.name,
        "objective": "score" if score else "win",
        "steps": steps,
        "line": pv,
    }
    labels = choice_labels(pos.game.name, steps)
    if labels:
        data["labels"] = labels
    if score:
        data["values"] = {str(k): int(v) for k, v in (puzzle.get("values") or {}).items()}
        data["score"] = int(puzzle.get("score", 0))
    return frames, data
