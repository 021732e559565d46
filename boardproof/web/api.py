"""The analysis board's answers as plain functions (the server only routes to them).

Every function takes the request's JSON object and returns a JSON object, or raises
:class:`BoardproofError` whose message is the CLI's one-line error (the server
answers it with HTTP 400 and ``{"error": "error: <message>"}``).

- :func:`describe`: a position (canonical notation, result, side to move), its legal
  moves with their click paths and its clickable SVG picture;
- :func:`play`: ``play --json`` of a line of moves, plus :func:`describe` of the end;
- :func:`solve_request`: ``solve --json`` of a position, searched in a child process
  with a time limit (at most ``MAX_SECONDS``) and a memory limit (``MEMORY_BYTES`` of
  address space beyond what the forked child starts with); the child is killed if it
  overruns;
- :func:`analyse_request`: ``analyse --json`` (best moves, visits, win rates, line), in
  a child process bounded the same way; the request's ``timeout`` is its thinking time;
- :func:`engine_move_request`: the engine's move (the best move of ``analyse``, within
  ``seconds`` or ``iterations``), played, with the position after it described: what the
  board's "Play the engine" asks on the engine's turn;
- :func:`review_request`: ``review --json`` of a game record (the text that ``boardproof
  review GAME FILE`` reads, as the board's "Download record" writes it), every position
  analysed within ``seconds`` or ``iterations``, the whole review within the server's
  longest search (a review cut short says ``"complete": false``).

Every request may carry its game's game options as fields (Minefield's ``variant``:
standard, pinwheel or cartwheel, and ``win``; :func:`rule_choices` lists them): they make
the game its position is played in, as ``--variant`` and ``--win`` do on the command line.

>>> answer = describe({"game": "minefield", "position": "3/3/3 b -"})
>>> answer["position"], answer["to_move"], len(answer["moves"]), answer["moves"][0]
('3/3/3 b -', 'b', 9, ['a1', ['a1']])
>>> play({"game": "minefield", "position": "3/3/3 b -", "moves": ["b2"]})["position"]
'3/1b1/3 w -'
>>> describe({"game": "chess", "position": "x"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardproof.models.base.UnknownGameError: unknown game: expected one of ...
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import time
from typing import Any

from boardproof import models
from boardproof.models.base import (
    BoardproofError,
    Game,
    GameInfo,
    InvalidOptionError,
    Position,
    game_options,
    impossible_message,
    play_line,
    result_fields,
)
from boardproof.reports.play import board_targets, clickable_svg, move_table
from boardproof.review.record import Record, parse_record
from boardproof.solvers.common import num_players

#: the longest search a request may ask for (seconds)
MAX_SECONDS = 30.0
#: the default search time (seconds)
DEFAULT_SECONDS = 5.0
#: what a search child may allocate beyond the address space it starts with (forked)
MEMORY_BYTES = 2 * 1024**3
#: the longest position text accepted
MAX_TEXT = 4000
#: the most moves in one play request
MAX_MOVES = 400
#: the most best moves an analysis lists (its ``multipv``)
MAX_MULTIPV = 20
#: an analysis lists this many best moves unless the request says otherwise
DEFAULT_MULTIPV = 5
#: the most iterations the engine may be given (a move, or a reviewed position); the
#: search stops at the server's longest search time anyway
MAX_ITERATIONS = 1_000_000
#: the engine's time per move, and a review's per position, unless the request says
ENGINE_SECONDS = 1.0
REVIEW_SECONDS = 0.2
#: the longest game record a review accepts (characters)
MAX_RECORD = 32 * 1024


class SearchFailed(BoardproofError):
    """The search child died (memory limit) or overran its time: HTTP 503."""


def _text(request: dict[str, Any], name: str, default: str | None = None,
          limit: int = MAX_TEXT) -> str:  # fmt: skip
    value = request.get(name, default)
    if not isinstance(value, str):
        raise InvalidOptionError(f"invalid field {name}: expected a string, got {value!r}")
    if len(value) > limit:
        raise InvalidOptionError(
            f"invalid field {name}: longer than {limit} characters: {value[:40]!r}..."
        )
    return value


def _game_scope_names(info: GameInfo | None = None) -> set[str]:
    """The names of the game-scope options of ``info``'s game, or of every game."""
    infos = [info] if info is not None else [models.info(name) for name in models.names()]
    return {spec.name for one in infos for spec in one.options if spec.scope == "game"}


def game_fields(info: GameInfo, request: dict[str, Any]) -> dict[str, Any]:
    """The request's fields that are game options of ``info``'s game (Minefield's ``win``):
    a game option of another game is refused, naming the games that have it."""
    mine = {spec.name for spec in info.options if spec.scope == "game"}
    found: dict[str, Any] = {}
    for field_name in sorted(_game_scope_names()):
        if request.get(field_name) is None:
            continue
        if field_name not in mine:
            owners = [name for name in models.names()
                      if field_name in _game_scope_names(models.info(name))]
            raise InvalidOptionError(f"invalid option --{field_name}: only "
                                     f"{' and '.join(owners)} has it, "
                                     f"got {request[field_name]!r}")  # fmt: skip
        found[field_name] = _text(request, field_name)
    return found


def rule_choices(info: GameInfo) -> list[dict[str, Any]]:
    """The game options of ``info``'s game that the board offers a choice of (game scope,
    on the command line, with ``choices``): name, label, choices, default, help.

    >>> [(o["label"], o["choices"]) for o in rule_choices(models.info("minefield"))]
    [('Win', ['orthogonal', 'orthodiagonal']), ('Glyphs', ['standard', 'pinwheel', 'cartwheel'])]
    >>> rule_choices(models.info("carpniches"))
    []
    """
    return [{"name": spec.name, "label": spec.page_label, "choices": list(spec.choices),
             "default": spec.default, "help": spec.help}
            for spec in info.options
            if spec.scope == "game" and spec.cli and spec.choices is not None]  # fmt: skip


def load_game(request: dict[str, Any]) -> Game:
    """The request's ``game`` made with its game options (``win`` for Minefield's rule)."""
    if not isinstance(request, dict):
        raise InvalidOptionError(f"invalid request: expected a JSON object, got {request!r}")
    name = _text(request, "game")
    return models.get(name, **game_fields(models.info(name), request))


def load(request: dict[str, Any]) -> Position:
    """The request's ``game`` and ``position`` (``win`` for Minefield's rule), parsed."""
    return load_game(request).parse_position(_text(request, "position"))


def load_possible(request: dict[str, Any]) -> Position:
    """:func:`load`, refusing a position that cannot occur in a game (as the CLI's
    analysing commands do: ``status()`` not empty)."""
    pos = load(request)
    message = impossible_message(pos)
    if message is not None:
        raise InvalidOptionError(message)
    return pos


def describe_position(pos: Position) -> dict[str, Any]:
    """The board's view of ``pos``: notation, result, moves with click paths, picture,
    and ``options``: the game options it is played with that differ from their defaults
    (``{"variant": "cartwheel"}``; what a record carries)."""
    fields = result_fields(pos)
    table = move_table(pos) if fields["result"] == "ongoing" else []
    return {
        "game": pos.game.name,
        "options": game_options(pos.game),
        "position": pos.fen(),
        **fields,
        "to_move": pos.game.symbol(pos.to_move),
        "moves": table,
        "svg": clickable_svg(pos, board_targets(table)),
        "status": list(pos.status()),
        "players": [{"symbol": pos.game.symbol(p), "name": pos.game.info.side_name(
            pos.game.symbol(p))} for p in range(num_players(pos))],
    }


def describe(request: dict[str, Any]) -> dict[str, Any]:
    """:func:`describe_position` of the request's position."""
    return describe_position(load(request))


def start(request: dict[str, Any]) -> dict[str, Any]:
    """The start position of ``game`` made with its game options (``variant``, ``win``),
    described: ``boardproof new GAME``.

    >>> start({"game": "minefield", "variant": "cartwheel"})["options"]
    {'variant': 'cartwheel'}
    """
    return describe_position(load_game(request).start())


def play(request: dict[str, Any]) -> dict[str, Any]:
    """``play --json`` of ``moves`` from the position, with the end position described."""
    pos = load_possible(request)
    moves = request.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InvalidOptionError(f"invalid field moves: expected a list of moves, got {moves!r}")
    if len(moves) > MAX_MOVES:
        raise InvalidOptionError(f"invalid field moves: more than {MAX_MOVES} moves")
    end = play_line(pos, moves)
    return {"position": end.fen(), **result_fields(end), "board": describe_position(end)}


def search_seconds(request: dict[str, Any], limit: float = MAX_SECONDS) -> float:
    """The request's ``timeout`` (seconds), checked against ``limit``."""
    value = request.get("timeout", min(DEFAULT_SECONDS, limit))
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
        0 < value <= limit
    ):
        raise InvalidOptionError(
            f"invalid option --timeout: expected a number > 0 and <= {limit:g}, "
            f"got {value!r}"
        )
    return float(value)


def _address_space() -> int:
    """This process's address space in bytes (Linux; 0 where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[0]) * resource.getpagesize()
    except OSError:
        return 0


def analysis_settings(request: dict[str, Any]) -> dict[str, int]:
    """The request's ``multipv`` (1..MAX_MULTIPV) and ``seed`` (>= 0) for ``analyse``."""
    found = {}
    for name, default, low, high in (
        ("multipv", DEFAULT_MULTIPV, 1, MAX_MULTIPV),
        ("seed", 0, 0, 2**63 - 1),
    ):
        value = request.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            wanted = f"from {low} to {high}" if name == "multipv" else f">= {low}"
            raise InvalidOptionError(
                f"invalid option --{name}: expected a whole number {wanted}, got {value!r}"
            )
        found[name] = value
    return found


def engine_budget(request: dict[str, Any], limit: float,
                  default: float) -> tuple[float | None, int | None]:  # fmt: skip
    """The engine's budget for one move (or one reviewed position): the request's
    ``seconds`` (> 0 and <= ``limit``; ``default`` when neither is given) or its
    ``iterations`` (1..MAX_ITERATIONS, reproducible with the same ``seed``), not both.

    >>> engine_budget({"iterations": 50}, 30.0, 1.0), engine_budget({}, 30.0, 1.0)
    ((None, 50), (1.0, None))
    >>> engine_budget({"seconds": 40}, 30.0, 1.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof...InvalidOptionError: invalid field seconds: expected a number > 0 and <= 30, got 40
    """
    seconds = request.get("seconds")
    iterations = request.get("iterations")
    if iterations is not None:
        if seconds is not None:
            raise InvalidOptionError(f"invalid field iterations: not together with seconds "
                                     f"(give one), got {iterations!r}")  # fmt: skip
        if isinstance(iterations, bool) or not isinstance(iterations, int) or not (
            1 <= iterations <= MAX_ITERATIONS
        ):
            raise InvalidOptionError(f"invalid field iterations: expected a whole number from "
                                     f"1 to {MAX_ITERATIONS}, got {iterations!r}")  # fmt: skip
        return None, iterations
    if seconds is None:
        seconds = min(default, limit)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not (
        0 < seconds <= limit
    ):
        raise InvalidOptionError(
            f"invalid field seconds: expected a number > 0 and <= {limit:g}, got {seconds!r}"
        )
    return float(seconds), None


def seed_of(request: dict[str, Any]) -> int:
    """The request's ``seed`` (a whole number >= 0; 0 when absent)."""
    return analysis_settings({"seed": request.get("seed", 0)})["seed"]


def load_record(request: dict[str, Any]) -> Record:
    """The request's ``record`` (the text ``boardproof review`` reads) of its ``game``,
    replayed; a position along it that cannot occur in a game is refused, as the CLI
    refuses it."""
    record = parse_record(load_game(request), _text(request, "record", limit=MAX_RECORD))
    for index, pos in enumerate(record.positions):
        where = "record: the start" if index == 0 else (
            f"record: {record.moves[index - 1].where}, ply {index}")  # fmt: skip
        message = impossible_message(pos, where)
        if message is not None:
            raise InvalidOptionError(message)
    return record


def _search(kind: str, request: dict[str, Any], limit: float) -> dict[str, Any]:
    """The work of a search process: ``solve --json``, ``analyse --json``, the engine's
    analysis for its move, or ``review --json``; ``limit``: its time in seconds."""
    deadline = time.monotonic() + limit

    def stop() -> bool:
        return time.monotonic() > deadline

    seconds = request.get("seconds")
    iterations = request.get("iterations")
    if kind == "review":
        from boardproof.review.judge import review_record

        record = load_record(request)
        review = review_record(record, seconds=seconds, iterations=iterations,
                               seed=seed_of(request), should_stop=stop)  # fmt: skip
        data = review.to_json()
        data["complete"] = len(review.plies) == len(record.moves)
        return data
    pos = load(request)
    name = pos.game.name
    if kind in ("analyse", "engine"):
        from boardproof.solvers.analyse import analyse

        options = game_options(pos.game)
        if kind == "engine":
            found = analyse(pos, seconds=seconds, iterations=iterations, game_name=name,
                            options=options, proof=False, multipv=1, seed=seed_of(request),
                            should_stop=stop)  # fmt: skip
            return found.to_json(name)
        chosen = analysis_settings(request)
        # proof=False: the JSON has no proof (the CLI builds one only for --proof)
        found = analyse(pos, seconds=limit, game_name=name, options=options, proof=False,
                        multipv=chosen["multipv"], seed=chosen["seed"])  # fmt: skip
        return found.to_json(name)
    from boardproof.solvers.api import solve

    started = time.perf_counter()
    data = solve(pos, timeout=limit).to_json(name)
    data["seconds"] = round(time.perf_counter() - started, 3)
    return data


def _child(conn: Any, kind: str, request: dict[str, Any], limit: float, memory: int) -> None:
    """The search process: limits itself, searches, sends the JSON (or the error line)."""
    try:
        space = _address_space() + memory
        resource.setrlimit(resource.RLIMIT_AS, (space, space))
        conn.send(("ok", _search(kind, request, limit)))
    except MemoryError:
        conn.send(("failed", "the search ran out of its memory limit"))
    except BoardproofError as error:
        conn.send(("error", str(error)))
    except Exception as error:  # noqa: BLE001 - reported as one line to the client
        conn.send(("failed", f"the search failed: {type(error).__name__}: {error}"))
    finally:
        conn.close()


def analyse_request(request: dict[str, Any], memory: int = MEMORY_BYTES,
                    max_seconds: float = MAX_SECONDS) -> dict[str, Any]:  # fmt: skip
    """``analyse --json`` of the request's position, bounded in time and memory."""
    return _bounded("analyse", request, memory, max_seconds)


def solve_request(request: dict[str, Any], memory: int = MEMORY_BYTES,
                  max_seconds: float = MAX_SECONDS) -> dict[str, Any]:  # fmt: skip
    """``solve --json`` of the request's position, bounded in time and memory."""
    return _bounded("solve", request, memory, max_seconds)


def engine_move_request(request: dict[str, Any], memory: int = MEMORY_BYTES,
                        max_seconds: float = MAX_SECONDS) -> dict[str, Any]:  # fmt: skip
    """The engine's move in the request's position (the best move of ``analyse`` within
    ``seconds`` or ``iterations``), played: ``move``, ``side`` (who played it), the
    ``position`` after it with its ``result``/``winner``, ``board`` (that position
    described) and ``analysis`` (the ``analyse --json`` object it came from)."""
    pos = load_possible(request)
    if pos.outcome() is not None:
        raise InvalidOptionError(f"invalid field position: the game is over: {pos.fen()!r}")
    seconds, iterations = engine_budget(request, max_seconds, ENGINE_SECONDS)
    asked = {**request, "position": pos.fen(), "seconds": seconds, "iterations": iterations,
             "seed": seed_of(request)}  # fmt: skip
    data = _in_child("engine", asked, max_seconds if seconds is None else seconds, memory)
    move = data.get("best_move")
    if not isinstance(move, str):
        raise SearchFailed("the engine found no move")
    after = play_line(pos, [move])
    return {"move": move, "side": pos.game.symbol(pos.to_move), "position": after.fen(),
            **result_fields(after), "board": describe_position(after),
            "analysis": data}  # fmt: skip


def review_request(request: dict[str, Any], memory: int = MEMORY_BYTES,
                   max_seconds: float = MAX_SECONDS) -> dict[str, Any]:  # fmt: skip
    """``review --json`` of the request's ``record``: each position analysed within
    ``seconds`` (0.2 by default) or ``iterations``, the whole review within
    ``max_seconds`` (cut short there: ``"complete": false``, the plies reviewed so far)."""
    load_record(request)  # bad input is answered here, before any process starts
    seconds, iterations = engine_budget(request, max_seconds, REVIEW_SECONDS)
    asked = {**request, "seconds": seconds, "iterations": iterations,
             "seed": seed_of(request)}  # fmt: skip
    return _in_child("review", asked, max_seconds, memory)


def _bounded(kind: str, request: dict[str, Any], memory: int,
             max_seconds: float = MAX_SECONDS) -> dict[str, Any]:  # fmt: skip
    """The ``kind`` search ("solve" or "analyse") of the request, in a child process."""
    pos = load_possible(request)  # bad input is answered here, before any process starts
    seconds = search_seconds(request, max_seconds)
    if kind == "analyse":
        analysis_settings(request)
    return _in_child(kind, {**request, "position": pos.fen()}, seconds, memory)


def _in_child(kind: str, request: dict[str, Any], limit: float, memory: int) -> dict[str, Any]:
    """:func:`_search` of the (checked) request in a child process limited to ``memory``
    bytes beyond its start and ``limit`` seconds (it is killed 10 s after)."""
    context: Any = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(sender, kind, request, limit, memory))
    child.start()
    sender.close()
    try:
        if not receiver.poll(limit + 10.0):
            raise SearchFailed(f"the search overran its time limit of {limit:g} s")
        try:
            answer, payload = receiver.recv()
        except EOFError:
            raise SearchFailed("the search stopped (memory limit)") from None
    finally:
        receiver.close()
        if child.is_alive():
            child.kill()
        child.join(5)
    if answer == "error":
        raise InvalidOptionError(str(payload))
    if answer == "failed":
        raise SearchFailed(str(payload))
    data: dict[str, Any] = payload
    return data
