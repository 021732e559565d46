"""Game records: a start position and the moves played, in text or JSON.

Text form (``#`` starts a comment, blank lines are skipped)::

    # a Minefield game
    4/4/4/4 b -        # the first line: the start position
    a2 a3              # then the moves, space-separated ...
    d3                 # ... or one per line

JSON form: ``{"game": "minefield", "start": "4/4/4/4 b -", "moves": ["a2", "a3"]}``
(``game`` optional; when given it must be the game being reviewed; ``moves`` may also
be one space-separated string; ``options``, the game options it is played with, e.g.
``{"win": "orthodiagonal"}``; ``players``, the names by player; ``result`` and ``ending``,
how a game the moves do not end ended; ``abstractplay``, the header of the AbstractPlay
record it was read from).

Other programs' records, read and written by a game's ``records`` part
(:class:`~boardproof.models.base.RecordFormat`): an AbstractPlay record (JSON with
``header`` and ``moves``, the game named by ``header.game.name``) is recognised by
:func:`parse_record`; :func:`write_record` writes a record in any of :data:`FORMATS`.

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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from boardproof import models
from boardproof.models.base import (
    BoardproofError,
    ForeignRecord,
    Game,
    InvalidOptionError,
    Outcome,
    Position,
    RecordFormat,
    game_options,
)

#: the record formats :func:`write_record` writes: boardproof's JSON form, AbstractPlay's
FORMATS = ("boardproof", "abstractplay")
#: the words of an ending that the moves do not show (resignation, time, agreement)
ENDINGS = ("resign", "timeout", "draw", "abandoned")


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
    """A replayed record: ``positions[i]`` is the position before ``moves[i]``.

    ``players`` are the players' names by player, when the record gives them; ``result``
    is the result it gives (None: it gives none) and ``ending`` how the game ended when the
    moves do not end it (one of :data:`ENDINGS`, else empty); ``source`` is the format it
    was read from, ``notes`` one-line remarks on the reading, ``header`` the AbstractPlay
    header it came with (kept to write it again).
    """

    game: Game
    start: Position
    moves: list[RecordMove]
    positions: list[Position]
    players: tuple[str, ...] = ()
    result: Outcome | None = None
    ending: str = ""
    source: str = "boardproof"
    notes: tuple[str, ...] = ()
    header: dict[str, Any] = field(default_factory=dict)

    def outcome(self) -> Outcome | None:
        """The result: the moves' when they end the game, else the record's."""
        return self.positions[-1].outcome() or self.result


def _show(value: Any) -> str:
    """``repr(value)``, cut to 60 characters (one line, whatever the record holds)."""
    try:
        text = repr(value)
    except RecursionError:
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _fail(where: str, text: str, error: Exception | str) -> RecordError:
    why = str(error)
    if text and not why.endswith(repr(text)):
        why = f"{why}: {text!r}"
    return RecordError(f"invalid record: {where}: {why}")


def parse_record(game: Game, text: str) -> Record:
    """Read and replay a record (text or JSON form, or an AbstractPlay record) of ``game``."""
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


def _load_json(text: str) -> Any:
    try:
        return json.loads(text)
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


def is_abstractplay(data: Any) -> bool:
    """Whether parsed JSON ``data`` is an AbstractPlay record: an object with a ``header``,
    or with rounds of ``moves`` (lists) and no ``start``.

    >>> is_abstractplay({"header": {}, "moves": []}), is_abstractplay({"moves": [["c3"]]})
    (True, True)
    >>> is_abstractplay({"start": "3/3/3 b -", "moves": ["b2"]})
    False
    """
    if not isinstance(data, dict):
        return False
    if "header" in data:
        return True
    moves = data.get("moves")
    return "start" not in data and isinstance(moves, list) and bool(moves) and all(
        isinstance(item, list) for item in moves
    )


def _formats(kind: str) -> dict[str, RecordFormat]:
    """The games that read records of format ``kind``, by game name."""
    found = {}
    for name in models.names():
        formats = models.info(name).part("records") or {}
        if kind in formats:
            found[name] = formats[kind]
    return found


def _abstractplay_game(data: dict[str, Any]) -> str:
    """The boardproof game of an AbstractPlay record (by ``header.game.name``)."""
    header = data.get("header")
    if header is None:
        raise RecordError("invalid record: header: missing (an AbstractPlay record has a "
                          "header and moves)")  # fmt: skip
    if not isinstance(header, dict):
        raise RecordError(f"invalid record: header: expected an object, got {_show(header)}")
    about = header.get("game")
    if not isinstance(about, dict):
        raise RecordError(f"invalid record: header.game: expected an object with the game's "
                          f"name, got {_show(about)}")  # fmt: skip
    title = about.get("name")
    formats = _formats("abstractplay")
    for name, fmt in formats.items():
        if isinstance(title, str) and title.strip().lower() == fmt.title.lower():
            return name
    known = ", ".join(fmt.title for fmt in formats.values())
    raise RecordError(
        f"invalid record: header.game.name: boardproof reads AbstractPlay records of "
        f"{known}, got {_show(title)}"
    )


def record_game(text: str) -> str | None:
    """The game a record names (an AbstractPlay record's header, the JSON form's ``game``),
    or None when it names none (the text form).

    >>> record_game('{"game": "minefield", "start": "3/3/3 b -"}'), record_game("3/3/3 b -")
    ('minefield', None)
    """
    if not text.lstrip().startswith("{"):
        return None
    data = _load_json(text)
    if is_abstractplay(data):
        return _abstractplay_game(data)
    name = data.get("game") if isinstance(data, dict) else None
    if name is None:
        return None
    try:
        return models.canonical_name(str(name))
    except BoardproofError as error:
        raise _fail("game", "", error) from None


def _parse_abstractplay(game: Game, data: dict[str, Any]) -> Record:
    name = _abstractplay_game(data)
    if name != game.name:
        raise RecordError(f"invalid record: header.game.name: the record is of {name}, "
                          f"not {game.name}")  # fmt: skip
    try:
        found: ForeignRecord = _formats("abstractplay")[name].read(data)
    except BoardproofError as error:
        raise RecordError(f"invalid record: {error}") from None
    _check_options(game, found.game, "the AbstractPlay game")
    items = list(found.moves)
    record = _replay(found.game, found.start.fen(), "header", items)
    record.players, record.result, record.ending = found.players, found.result, found.ending
    record.source, record.notes, record.header = "abstractplay", found.notes, dict(found.header)
    return record


def _check_options(given: Game, played: Game, what: str) -> None:
    """Refuse a game option given (not the default) that the record's game does not have."""
    mine, theirs = game_options(given), game_options(played)
    for name, value in mine.items():
        if theirs.get(name) != value:
            spec = next(s for s in given.info.options if s.name == name)
            raise RecordError(
                f"invalid record: {what} is played with {name} "
                f"{theirs.get(name, spec.default)!r}, got {spec.cli_flag} {value!r}"
            )


def _parse_json(game: Game, text: str) -> Record:
    data = _load_json(text)
    if is_abstractplay(data):
        return _parse_abstractplay(game, data)
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
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"invalid record: options: expected an object, got {_show(options)}")
    if options:
        try:
            played = models.get(game.name, **options)
        except BoardproofError as error:
            raise _fail("options", "", error) from None
        _check_options(game, played, "the record")
        game = played
    record = _replay(game, start, "start", [(m, f"moves[{i}]") for i, m in enumerate(moves)])
    _read_details(record, data)
    return record


def _read_details(record: Record, data: dict[str, Any]) -> None:
    """The JSON form's ``players``, ``result``, ``ending`` and ``abstractplay`` fields."""
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(f"invalid record: players: expected a list of names, got "
                          f"{_show(players)}")  # fmt: skip
    record.players = tuple(players)
    ending = data.get("ending", "")
    if ending not in ("", *ENDINGS):
        raise RecordError(f"invalid record: ending: expected one of {', '.join(ENDINGS)}, "
                          f"got {_show(ending)}")  # fmt: skip
    record.ending = ending
    result = data.get("result")
    if result is not None:
        game = record.game
        if result == "draw":
            record.result = Outcome.draw()
        else:
            try:
                record.result = Outcome.win(game.player_of(str(result)))
            except BoardproofError:
                raise RecordError(
                    f"invalid record: result: expected draw or one of "
                    f"{', '.join(game.symbol(p) for p in range(len(game.info.symbols)))}, "
                    f"got {_show(result)}"
                ) from None
    header = data.get("abstractplay", {})
    if not isinstance(header, dict):
        raise RecordError(f"invalid record: abstractplay: expected the header object, got "
                          f"{_show(header)}")  # fmt: skip
    record.header = header


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
    """The JSON form of a record (moves in canonical notation); the optional fields only
    when the record has them."""
    data: dict[str, Any] = {"game": record.game.name}
    options = game_options(record.game)
    if options:
        data["options"] = options
    data["start"] = record.start.fen()
    data["moves"] = [str(m.move) for m in record.moves]
    if record.players:
        data["players"] = list(record.players)
    if record.positions[-1].outcome() is None and record.result is not None:
        winners = sorted(record.game.symbol(p) for p in record.result.winners)
        data["result"] = "draw" if not winners else winners[0]
    if record.ending:
        data["ending"] = record.ending
    if record.header:
        data["abstractplay"] = record.header
    return data


def make_record(
    start: Position,
    moves: Sequence[Any],
    *,
    players: Sequence[str] = (),
    result: Outcome | None = None,
    ending: str = "",
) -> Record:
    """The record of a game played from ``start`` with ``moves`` (moves or their notation),
    for writing it (:func:`write_record`); ``result``/``ending`` for a game the moves do
    not end (a resignation, a loss on time).

    >>> from boardproof import models
    >>> pos = models.get("minefield").start(size=8)
    >>> record = make_record(pos, ["d4", "swap", "e5"], players=("Ann", "Bo"), ending="resign")
    >>> write_record(record, "abstractplay").splitlines()[-5:]
    ['  "moves": [', '    ["d4", "e5"],', '    ["resign"]', '  ]', '}']
    """
    if ending not in ("", *ENDINGS):
        raise InvalidOptionError(
            f"invalid ending: expected one of {', '.join(ENDINGS)}, got {ending!r}"
        )
    if result is None and ending in ("draw", "abandoned"):
        result = Outcome.draw()  # an agreed draw, or no result
    items = [(str(move), f"moves[{i}]") for i, move in enumerate(moves)]
    record = _replay(start.game, start.fen(), "start", items)
    record.players, record.result, record.ending = tuple(players), result, ending
    return record


def record_to_abstractplay(record: Record) -> dict[str, Any]:
    """The AbstractPlay record (a JSON-ready dict) of ``record``; raises RecordError when the
    game has no AbstractPlay records or AbstractPlay cannot hold this one."""
    fmt = (record.game.info.part("records") or {}).get("abstractplay")
    if fmt is None:
        raise RecordError(f"invalid record: {record.game.name} has no AbstractPlay records")
    result = record.result if record.positions[-1].outcome() is None else None
    try:
        data: dict[str, Any] = fmt.write(
            record.start, [m.move for m in record.moves], players=record.players,
            result=result, ending=record.ending, header=record.header,
        )  # fmt: skip
    except BoardproofError as error:
        raise RecordError(f"cannot write an AbstractPlay record: {error}") from None
    return data


def _dump(data: dict[str, Any]) -> str:
    """JSON with one top-level field a line (a round of AbstractPlay moves a line)."""
    lines = []
    for key, value in data.items():
        if key == "moves" and value and all(isinstance(item, list) for item in value):
            rounds = ",\n".join("    " + json.dumps(item, ensure_ascii=False) for item in value)
            text = f"[\n{rounds}\n  ]"
        else:
            text = json.dumps(value, ensure_ascii=False)
        lines.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_record(record: Record, fmt: str = "boardproof") -> str:
    """``record`` as the text of a file in format ``fmt`` (one of :data:`FORMATS`):
    boardproof's JSON form or AbstractPlay's record.

    >>> from boardproof import models
    >>> record = parse_record(models.get("minefield"), "3/3/3 b -\\nb2 a1")
    >>> print(write_record(record), end="")
    {
      "game": "minefield",
      "start": "3/3/3 b -",
      "moves": ["b2", "a1"]
    }
    """
    if fmt == "boardproof":
        return _dump(record_to_json(record))
    if fmt == "abstractplay":
        return _dump(record_to_abstractplay(record))
    raise InvalidOptionError(
        f"invalid option fmt: expected one of {', '.join(FORMATS)}, got {fmt!r}"
    )
