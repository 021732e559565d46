"""Game records: a start position and the moves played, in text or JSON.

Text form (``#`` starts a comment, blank lines are skipped)::

    # a Minefield game
    4/4/4/4 b -        # the first line: the start position
    a2 a3              # then the moves, space-separated ...
    d3                 # ... or one per line

JSON form: ``{"game": "minefield", "start": "4/4/4/4 b -", "moves": ["a2", "a3"]}``
(``game`` optional; when given it must be the game being reviewed; ``moves`` may also
be one space-separated string).

A bad record raises :class:`RecordError` naming the line (or JSON field) and the text:

>>> from boardproof import models
>>> game = models.get("minefield")
>>> record = parse_record(game, "3/3/3 b -\\nb2 a1  # opening\\nc3\\n")
>>> [m.text for m in record.moves], record.positions[-1].fen()
(['b2', 'a1', 'c3'], '2b/1b1/w2 w -')
>>> try:
...     parse_record(game, "3/3/3 b -\\nb2 b2\\n")
... except RecordError as error:
...     print(error)
invalid record: line 2, ply 2: illegal move b2: the point is occupied: 'b2'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from boardproof import models
from boardproof.models.base import BoardproofError, Game, Position


class RecordError(BoardproofError):
    """A game record that cannot be read or replayed."""


@dataclass(frozen=True)
class RecordMove:
    """One move of a record: its text, where it was written, and the move itself."""

    text: str
    where: str  # "line 3" or "moves[2]"
    move: Any


@dataclass
class Record:
    """A replayed record: ``positions[i]`` is the position before ``moves[i]``."""

    game: Game
    start: Position
    moves: list[RecordMove]
    positions: list[Position]


def _fail(where: str, text: str, error: Exception | str) -> RecordError:
    why = str(error)
    if text and not why.endswith(repr(text)):
        why = f"{why}: {text!r}"
    return RecordError(f"invalid record: {where}: {why}")


def parse_record(game: Game, text: str) -> Record:
    """Read and replay a record (text or JSON form) of ``game``."""
    if text.lstrip().startswith("{"):
        return _parse_json(game, text)
    start_text: str | None = None
    start_where = ""
    items: list[tuple[str, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if start_text is None:
            start_text, start_where = line, f"line {number}"
            continue
        items.extend((word, f"line {number}") for word in line.split())
    if start_text is None:
        raise RecordError("invalid record: no start position (the record is empty)")
    return _replay(game, start_text, start_where, items)


def _parse_json(game: Game, text: str) -> Record:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(
            f"invalid record: line {error.lineno}: not valid JSON ({error.msg})"
        ) from None
    except (RecursionError, ValueError) as error:  # ValueError: a number of over 4300 digits
        why = ("nested too deeply" if isinstance(error, RecursionError)
               else "a number with too many digits")  # fmt: skip
        raise RecordError(
            f"invalid record: not valid JSON ({why}): {text.lstrip()[:40]!r}"
        ) from None
    if not isinstance(data, dict):
        raise RecordError(f"invalid record: expected a JSON object, got {text[:40]!r}")
    name = data.get("game")
    if name is not None:
        try:
            known = models.canonical_name(str(name))
        except BoardproofError as error:
            raise _fail("game", "", error) from None
        if known != game.name:
            raise RecordError(
                f"invalid record: game: the record is of {known}, not {game.name}: {name!r}"
            )
    start = data.get("start")
    if not isinstance(start, str):
        raise RecordError(f"invalid record: start: expected a position string, got {start!r}")
    moves = data.get("moves", [])
    if isinstance(moves, str):
        moves = moves.split()
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(f"invalid record: moves: expected a list of strings, got {moves!r}")
    return _replay(game, start, "start", [(m, f"moves[{i}]") for i, m in enumerate(moves)])


def _replay(game: Game, start_text: str, start_where: str, items: list[tuple[str, str]]) -> Record:
    try:
        start = game.parse_position(start_text)
    except BoardproofError as error:
        raise _fail(start_where, start_text, error) from None
    pos = start
    positions = [start]
    moves: list[RecordMove] = []
    for ply, (text, where) in enumerate(items, start=1):
        place = f"{where}, ply {ply}"
        if pos.outcome() is not None:
            raise _fail(place, text, "the game is already over")
        try:
            move = pos.parse_move(text)
            pos = pos.play(move)
        except BoardproofError as error:
            raise _fail(place, text, error) from None
        moves.append(RecordMove(text, where, move))
        positions.append(pos)
    return Record(game, start, moves, positions)


def record_to_json(record: Record) -> dict[str, Any]:
    """The JSON form of a record (moves in canonical notation)."""
    return {
        "game": record.game.name,
        "start": record.start.fen(),
        "moves": [str(m.move) for m in record.moves],
    }
