"""A file of game records: the games ``puzzle generate --from-games`` mines.

The file (``-``: the standard input; a folder: each of its ``.txt``, ``.json`` and
``.jsonl`` files in name order, as ``match --records FOLDER`` writes them) holds one
record (boardproof's text or JSON form, or an AbstractPlay record:
:func:`~boardproof.review.record.parse_record`), a JSON array of records, or JSON Lines
(one JSON record a line, as ``boardproof match --records FILE.jsonl`` and ``boardproof
puzzle selfplay`` write them). Each game is named by the record's ``id`` when it has
one, else by its place: ``line N`` (JSON Lines), ``record N`` (an array), or ``game``
(one record). A record that cannot be read or replayed raises
:class:`~boardproof.review.record.RecordError`, one line naming the record, the field
and the text.

>>> import pathlib, tempfile
>>> from boardproof import models
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> _ = path.write_text('{"id": "g1", "start": "3/3/3 b -", "moves": ["b2", "a1"]}\\n'
...                     '{"start": "3/3/3 b -", "moves": ["b2", "b2"]}\\n')
>>> try:
...     read_games(str(path), models.get("minefield"))
... except RecordError as error:
...     print(error)
invalid record: line 2: moves[1], ply 2: illegal move b2: the point is occupied: 'b2'
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from boardproof.models.base import Game
from boardproof.review.record import Record, RecordError, parse_record

#: the files of a folder of records that are read (``match --records FOLDER`` writes .txt)
RECORD_SUFFIXES = (".txt", ".json", ".jsonl")


def _ident(data: Any, place: str) -> str:
    ident = data.get("id") if isinstance(data, dict) else None
    return ident if isinstance(ident, str) and ident else place


def _one(game: Game, text: str, place: str) -> tuple[str, Record]:
    """One record's text, read and replayed; an error names ``place``."""
    try:
        record = parse_record(game, text)
    except RecordError as error:
        if not place:  # the file's only record: the error names the field as it is
            raise
        why = str(error).removeprefix("invalid record: ")
        raise RecordError(f"invalid record: {place}: {why}") from None
    ident = place or "game"
    if text.lstrip().startswith("{"):
        ident = _ident(json.loads(text), ident)
    return ident, record


def read_games(path: str | os.PathLike[str], game: Game) -> list[tuple[str, Record]]:
    """The games of the file ``path`` (see the module doc), as (name, record) pairs."""
    from boardproof.inputs import read_text

    name = str(path)
    if name != "-" and os.path.isdir(name):  # a folder: one record a file (match --records)
        files = sorted(f for f in os.listdir(name) if f.endswith(RECORD_SUFFIXES))
        if not files:
            raise RecordError(f"invalid record file: a folder without records "
                              f"({', '.join(RECORD_SUFFIXES)} files): {name!r}")  # fmt: skip
        found: list[tuple[str, Record]] = []
        for file in files:
            try:
                games = read_games(os.path.join(name, file), game)
            except RecordError as error:
                why = str(error).removeprefix("invalid record: ")
                raise RecordError(f"invalid record: {file}: {why}") from None
            found.extend((file if ident == "game" else ident, record) for ident, record in games)
        return found
    try:
        text = sys.stdin.read() if name == "-" else read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        why = getattr(error, "strerror", None) or str(error)
        raise RecordError(f"invalid record file: cannot read ({why}): {name!r}") from None
    stripped = text.strip()
    if not stripped:
        raise RecordError(f"invalid record file: it is empty: {name!r}")
    if stripped.startswith("["):
        try:
            items = json.loads(stripped)
        except (json.JSONDecodeError, RecursionError, ValueError):
            raise RecordError(f"invalid record file: not a JSON array of records: {name!r}"
                              ) from None  # fmt: skip
        return [_one(game, json.dumps(item), _ident(item, f"record {number}"))
                for number, item in enumerate(items, start=1)]  # fmt: skip
    lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1)
             if line.strip()]  # fmt: skip
    if len(lines) > 1 and all(line.lstrip().startswith("{") for _, line in lines):
        try:  # one JSON record spread over lines is not JSON Lines
            json.loads(lines[0][1])
            json_lines = True
        except (json.JSONDecodeError, RecursionError, ValueError):
            json_lines = False
        if json_lines:
            return [_one(game, line, f"line {number}") for number, line in lines]
    return [_one(game, text, "")]
