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
>>> from boardproof import models
>>> pos = models.get("minefield").parse_position("3/3/3 b -")
>>> [r[0] for r in hit_regions(pos)][:4]
['a1', 'b1', 'c1', 'a2']
>>> clickable_svg(pos, {"a1"}).count('class="hit"')
1
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import quoteattr

from boardproof import models
from boardproof.models.base import Position, Region, View
from boardproof.reports import svg


def _view(game: str) -> View:
    """The game's view (click paths, hit regions, labels), from its descriptor."""
    found: View | None = models.info(game).part("view")
    return found if found is not None else View()


def click_path(game: str, move: str) -> list[str]:
    """The targets that form ``move`` (its notation) in the order they are clicked."""
    return _view(game).click_path(move)


def hit_regions(pos: Position) -> list[Region]:
    """The clickable targets of ``pos``'s picture (the renderer's own geometry)."""
    return _view(pos.game.name).hit_regions(pos)


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


def choice_labels(game: str, steps: list[dict[str, Any]]) -> dict[str, str]:
    """Button labels for the choice steps that need words (Candy Conquest's codes)."""
    return _view(game).choice_labels(steps)


def puzzle_frames(puzzle: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """The pictures a puzzle page shows and the data its script plays from.

    Frame ``i`` is the position after ``i`` plies of the main line (a ColleXion
    puzzle has two: before and after the best turn). Each *step* is a position where
    the reader moves: its frame, the legal moves with their click paths, the
    accepted answers, and the defence the proof tree gives (the main line's reply).
    """
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
