"""AbstractPlay's Minefield game records: read them as boardproof games, write games as them.

`AbstractPlay <https://abstractplay.com>`_ archives every finished game as an
``APGameRecord`` (the JSON schema of AbstractPlay/recranks, written by ``genRecord`` in
AbstractPlay/gameslib; Minefield's rules there are ``src/games/minefield.ts``, version
20260311)::

    {"header": {"game": {"name": "Minefield", "variants": ["15x15 board"]},
                "site": {"name": "Abstract Play", "gameid": "..."},
                "date-start": "...", "date-end": "...", "date-generated": "...",
                "players": [{"name": "Alice", "result": 1}, {"name": "Bob", "result": 0}],
                "pie-invoked": true},
     "moves": [["c3", "d4"], ["e5", "f6"], ["g7"]]}

``moves`` is a list of rounds, each the moves of seat 1 then seat 2. This module is the
descriptor's ``records`` part (:data:`RECORDS`); :mod:`boardproof.review.record` reaches it
by the record's ``header.game.name``.

How AbstractPlay's game maps onto boardproof's (each checked in the gameslib source):

- **Points.** AbstractPlay names a point as boardproof does: files ``a``, ``b``, … from the
  left, ranks from 1 at the bottom (its ``coords2algebraic`` writes the top row, y = 0, as
  rank n), so ``c3`` is ``c3`` in both.
- **Colours.** AbstractPlay's player 1 moves first and connects the top and bottom edges
  (its N and S), player 2 the left and right edges (E and W): player 1 is Black, player 2
  is White.
- **Win.** AbstractPlay's path steps to all 8 neighbours (``RectGrid.adjacencies(x, y,
  true)``), so a game read from it is played with ``win="orthodiagonal"``: the same winner
  as the rulebook's orthogonal path (Theorem O), but a game may end sooner. Writing a game of
  the orthogonal rule refuses one that AbstractPlay would have ended before its last move.
- **Pie rule.** AbstractPlay plays it outside the moves: after player 1's first stone,
  player 2 may take over seat 1 (the two players exchange seats, the stones stay, and seat 2,
  White, moves next); ``header["pie-invoked"]`` says so and ``players`` lists the seats
  after the exchange, so ``players[0]`` always has the Black stones. boardproof plays the
  same rule as White's move ``swap`` after Black's first stone: reading puts ``swap`` at
  ply 2, writing takes it out and sets ``pie-invoked``. AbstractPlay offers the pie rule
  in every game, so a game read from it has it on.
- **Boards.** ``header.game.variants`` holds the variants' display names: ``"NxN board"``
  (8, 9, 13, 15, 17, 19; the challenge dialog preselects 15), or ``"11x11 board"`` when no
  size was chosen (the engine's board without a size variant is 11 x 11); the variant ids
  ``size-N`` and ``#board`` are read too. ``Pinwheel`` and ``Cartwheel`` are the glyph
  variants: read when boardproof's Minefield has a ``variant`` option that takes them.
- **Passes.** AbstractPlay passes when it has no legal move, and a second pass in a row
  ends the game in a draw; boardproof ends such a *dead* position at once (scored as a
  draw): reading drops the passes after a dead position, writing adds two.
- **Endings.** A game that ends by ``resign``, ``timeout``, ``draw`` (agreed) or
  ``abandoned`` has that word as its last move; boardproof has no such move: it becomes
  the record's ``ending`` and ``players[].result`` gives the result.

>>> record = {"header": {"game": {"name": "Minefield", "variants": ["8x8 board"]},
...                      "players": [{"name": "Ann", "result": 0}, {"name": "Bo", "result": 1}],
...                      "pie-invoked": True},
...           "moves": [["d4", "e5"], ["resign"]]}
>>> game = read(record)
>>> game.moves
(('d4', 'moves[0][0]'), ('swap', 'header.pie-invoked'), ('e5', 'moves[0][1]'))
>>> game.start.fen(), game.game.win, game.ending, game.result.winners
('8/8/8/8/8/8/8/8 b p', 'orthodiagonal', 'resign', frozenset({1}))
>>> moves = [game.start.parse_move(text) for text, _ in game.moves]
>>> write(game.start, moves, players=("Ann", "Bo"), ending="resign")["moves"]
[['d4', 'e5'], ['resign']]
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from boardproof.models.base import (
    BoardproofError,
    ForeignRecord,
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    OptionInfo,
    Outcome,
    RecordFormat,
)
from boardproof.models.minefield.board import BLACK, MAX_SIZE, MIN_SIZE, PASS, SWAP, Move
from boardproof.models.minefield.rules import MinefieldGame, MinefieldPosition, make_game

#: the game's name in AbstractPlay's records (``gameinfo.name``)
TITLE = "Minefield"
#: AbstractPlay's boards (its ``size-N`` variants and its default board)
SIZES = (8, 9, 11, 13, 15, 17, 19)
#: the board without a size variant (``getBoardSize`` of minefield.ts; variant ``#board``)
DEFAULT_BOARD = 11
#: AbstractPlay's glyph variants, by the name its records give them
VARIANTS = {"pinwheel": "Pinwheel", "cartwheel": "Cartwheel"}
#: the words that end a game outside the rules (the moves of ``GameBase.eog``)
ENDINGS = ("resign", "timeout", "draw", "abandoned")
#: AbstractPlay's connection: a path steps to all 8 neighbours
WIN = "orthodiagonal"

_SIZE_ID = re.compile(r"size-(\d{1,4})")
_SIZE_NAME = re.compile(r"(\d{1,4})\s*[x×]\s*(\d{1,4})(?:\s+board)?")
_CELL = re.compile(r"([a-z]+)(\d+)")


class AbstractPlayError(InvalidNotationError):
    """An AbstractPlay record that boardproof cannot read; the message names the field."""


def _show(value: Any) -> str:
    """``repr(value)``, cut to 60 characters (one line, whatever the record holds)."""
    try:
        text = repr(value)
    except RecursionError:
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _fail(where: str, why: str) -> NoReturn:
    raise AbstractPlayError(f"{where}: {why}")


# ---------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------


def read(data: Mapping[str, Any]) -> ForeignRecord:
    """The game of an AbstractPlay record (parsed JSON), replayed and checked.

    Raises :class:`AbstractPlayError` (or :class:`IllegalMoveError` for a move the rules
    refuse) whose message starts with the field: ``header.game.variants: unknown variant
    'foo'``, ``moves[3][1]: 'z99' is off the 15x15 board``.
    """
    if not isinstance(data, Mapping):
        _fail("record", f"expected a JSON object, got {type(data).__name__}")
    header = data.get("header")
    if header is None:
        _fail("header", "missing (an AbstractPlay record has a header and moves)")
    if not isinstance(header, Mapping):
        _fail("header", f"expected an object, got {_show(header)}")
    about = header.get("game")
    if not isinstance(about, Mapping):
        _fail("header.game", f"expected an object with the game's name, got {_show(about)}")
    name = about.get("name")
    if not isinstance(name, str) or name.strip().lower() != TITLE.lower():
        _fail("header.game.name", f"expected {TITLE!r}, got {_show(name)}")
    size, variant = _read_variants(about.get("variants", []))
    start = _start(size, variant, "header.game.variants")
    players, claimed = _read_players(header.get("players"))
    pie = header.get("pie-invoked", False)
    if not isinstance(pie, bool):
        _fail("header.pie-invoked", f"expected true or false, got {_show(pie)}")
    rounds = data.get("moves")
    if not isinstance(rounds, list):
        _fail("moves", f"expected a list of rounds, got {_show(rounds)}")
    pos, moves, ending, dropped = _replay(start, rounds, pie)
    outcome = _check_result(pos, claimed, ending)
    notes = [f"AbstractPlay board {size}x{size}" + (f", variant {variant}" if variant else "")]
    if pie:
        notes.append("pie rule invoked: the players exchanged colours after ply 1 (swap)")
    if dropped:
        notes.append(f"{dropped} closing pass{'es' if dropped > 1 else ''} of the dead "
                     "position left out")  # fmt: skip
    return ForeignRecord(
        game=start.game, start=start, moves=tuple(moves), players=players, result=outcome,
        ending=ending, notes=tuple(notes), header=dict(header),
    )  # fmt: skip


def _read_variants(variants: Any) -> tuple[int, str]:
    """The board size and glyph variant ('' for the standard glyphs) of the record."""
    where = "header.game.variants"
    if not isinstance(variants, list):
        _fail(where, f"expected a list of variant names, got {_show(variants)}")
    size: int | None = None
    size_text = ""
    variant = ""
    for item in variants:
        if not isinstance(item, str):
            _fail(where, f"expected a variant name, got {_show(item)}")
        word = item.strip().lower()
        found: int | None = None
        if word in ("#board", "default board"):
            found = DEFAULT_BOARD
        elif match := _SIZE_ID.fullmatch(word):
            found = int(match.group(1))
        elif match := _SIZE_NAME.fullmatch(word):
            if match.group(1) != match.group(2):
                _fail(where, f"expected a square board, got {item!r}")
            found = int(match.group(1))
        elif word in VARIANTS:
            # minefield.ts: cartwheel forbids the pinwheel glyphs too, and wins over it
            if variant != "cartwheel":
                variant = word
            continue
        else:
            _fail(where, f"unknown variant {item!r}")
        if size is not None and found != size:
            _fail(where, f"two board sizes, {size_text!r} and {item!r}")
        if not MIN_SIZE <= found <= MAX_SIZE:
            _fail(where, f"boardproof plays boards of {MIN_SIZE} to {MAX_SIZE}, got {item!r}")
        size, size_text = found, item
    return (DEFAULT_BOARD if size is None else size), variant


def _variant_spec() -> OptionInfo | None:
    """Minefield's ``variant`` option, when the game has one (looked up in its descriptor)."""
    return next((spec for spec in MinefieldGame().info.options if spec.name == "variant"), None)


def _start(size: int, variant: str, where: str, pie: bool = True) -> MinefieldPosition:
    """The empty board of AbstractPlay's game: the orthodiagonal win (the pie rule is on
    in every AbstractPlay game)."""
    if not variant:
        return make_game(win=WIN).start(size=size, pie=pie)
    spec = _variant_spec()
    if spec is None:
        _fail(where, f"variant {variant!r} is not supported yet")
    try:
        value = spec.check(variant)
        if spec.scope == "game":
            return make_game(win=WIN, variant=value).start(size=size, pie=pie)
        return make_game(win=WIN).start(size=size, pie=pie, variant=value)
    except InvalidOptionError as error:
        _fail(where, f"variant {variant!r} is not supported ({error})")


def _read_players(players: Any) -> tuple[tuple[str, ...], Outcome]:
    """The players' names by colour and the result their ``result`` fields give."""
    if not isinstance(players, list) or len(players) != 2:
        count = len(players) if isinstance(players, list) else players
        _fail("header.players", f"expected the 2 players, got {_show(count)}")
    names = []
    results = []
    for seat, player in enumerate(players):
        where = f"header.players[{seat}]"
        if not isinstance(player, Mapping):
            _fail(where, f"expected an object with name and result, got {_show(player)}")
        name = player.get("name", "")
        if not isinstance(name, str):
            _fail(f"{where}.name", f"expected a name, got {_show(name)}")
        result = player.get("result")
        if (
            isinstance(result, bool)
            or not isinstance(result, (int, float))
            or not math.isfinite(result)
        ):
            _fail(f"{where}.result", f"expected a number (1 won, 0 lost), got {_show(result)}")
        names.append(name)
        results.append(result)
    if results[0] == results[1]:
        return tuple(names), Outcome.draw()
    return tuple(names), Outcome.win(BLACK if results[0] > results[1] else 1 - BLACK)


def _move_text(entry: Any, where: str) -> str:
    if isinstance(entry, Mapping):  # the schema's {"move": ..., "result": ...} form
        entry = entry.get("move")
    if not isinstance(entry, str):
        _fail(where, f"expected a move, got {_show(entry)}")
    return "".join(entry.split()).lower()  # as minefield.ts reads a move


def _point(pos: MinefieldPosition, text: str, where: str) -> Move:
    """The point ``text`` names (AbstractPlay's ``algebraic2coords``), on the board."""
    match = _CELL.fullmatch(text)
    if match is None:
        _fail(where, f"expected a point like c3 or pass, got {_show(text)}")
    letters, digits = match.groups()
    column = 0
    for letter in letters:  # a..z, then aa, ab, ... (AbstractPlay's columnLabelToIndex)
        column = column * 26 + ord(letter) - ord("a") + 1
    column -= 1
    rank = int(digits[:9])
    n = pos.n
    if not (column < n and 1 <= rank <= n):
        _fail(where, f"{text!r} is off the {n}x{n} board")
    return Move(column, rank - 1)


def _replay(
    start: MinefieldPosition, rounds: list[Any], pie: bool
) -> tuple[MinefieldPosition, list[tuple[str, str]], str, int]:
    """Play the rounds: the last position, the moves in boardproof's notation with where
    each is, the ending word ('' if none) and how many closing passes were left out."""
    pos = start
    moves: list[tuple[str, str]] = []
    ending = ""
    dropped = 0
    for number, round_ in enumerate(rounds):
        if not isinstance(round_, list) or not 1 <= len(round_) <= 2:
            _fail(f"moves[{number}]", f"expected a round of 1 or 2 moves, got {_show(round_)}")
        if len(round_) < 2 and number < len(rounds) - 1:
            _fail(f"moves[{number}]", "only the last round may have fewer than 2 moves")
        for seat, entry in enumerate(round_):
            where = f"moves[{number}][{seat}]"
            text = _move_text(entry, where)
            if ending:
                _fail(where, f"the game ended with {ending!r}, got {_show(text)}")
            if text in ENDINGS:
                ending = text
                continue
            if pos.outcome() is not None:
                if text == "pass" and pos.is_dead() and dropped < 2:
                    dropped += 1  # AbstractPlay's two passes that end a dead position
                    continue
                raise IllegalMoveError(f"{where}: the game is already over: {_show(text)}")
            move = PASS if text == "pass" else _point(pos, text, where)
            try:
                pos = pos.play(move)
            except BoardproofError as error:
                raise IllegalMoveError(f"{where}: {error}") from None
            moves.append((str(move), where))
            if pie and len(moves) == 1:
                moves.append((str(SWAP), "header.pie-invoked"))
                pos = pos.play(SWAP)
    if pie and not moves:
        _fail("header.pie-invoked", "the pie rule needs Black's first stone, the record has "
              "no moves")  # fmt: skip
    return pos, moves, ending, dropped


def _describe(outcome: Outcome) -> str:
    if outcome.is_draw:
        return "a draw"
    return f"a win for {'bw'[min(outcome.winners)]}"


def _check_result(pos: MinefieldPosition, claimed: Outcome, ending: str) -> Outcome:
    """The result: the moves' when they end the game (the record must agree), else the
    record's, which its ending word must explain."""
    where = "header.players[].result"
    board = pos.outcome()
    if board is not None:
        if board != claimed:
            _fail(where, f"the results give {_describe(claimed)}, the moves {_describe(board)}")
        return board
    if not ending:
        _fail("moves", "the game is not over and the record gives no ending (resign, "
              "timeout, draw or abandoned)")  # fmt: skip
    if (ending in ("resign", "timeout")) == claimed.is_draw:
        _fail(where, f"the results give {_describe(claimed)} after {ending!r}")
    return claimed


# ---------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------


def _now() -> str:
    """The time as JavaScript's ``toISOString`` writes it."""
    now = datetime.datetime.now(datetime.UTC)
    return now.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _variant_of(start: MinefieldPosition) -> str:
    """The glyph variant of a position ('' for the standard glyphs)."""
    for owner in (start, start.game):
        value = getattr(owner, "variant", None)
        if isinstance(value, str) and value in VARIANTS:
            return value
    return ""


def write(
    start: MinefieldPosition,
    moves: Sequence[Any],
    *,
    players: Sequence[str] = (),
    result: Outcome | None = None,
    ending: str = "",
    header: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The AbstractPlay record of the game played from ``start`` with ``moves``.

    ``start`` must be an empty board of one of AbstractPlay's :data:`SIZES`, Black to move.
    A game that the moves do not end needs its ``ending`` (:data:`ENDINGS`): ``resign``
    and ``timeout`` by the side to move unless ``result`` names the winner; ``draw`` and
    ``abandoned`` with no winner. ``header`` gives fields to keep (dates, site, players'
    ids) from a record read before; ``players`` the names by colour.
    """
    if not isinstance(start, MinefieldPosition):
        raise InvalidOptionError(f"start: expected a Minefield position, got {_show(start)}")
    if start.black or start.white or start.to_move != BLACK:
        _fail("start", f"AbstractPlay games begin on the empty board with b to move, "
              f"got {start.fen()!r}")  # fmt: skip
    n = start.n
    if n not in SIZES:
        sizes = ", ".join(map(str, SIZES[:-1])) + f" and {SIZES[-1]}"
        _fail("start", f"AbstractPlay's Minefield boards are {sizes} points wide, got {n}")
    variant = _variant_of(start)
    pos = _start(n, variant, "start", pie=start.pie)
    flat: list[str] = []
    pie = False
    for ply, move in enumerate(moves, start=1):
        text = str(move)
        if pos.outcome() is not None:
            _fail("moves", f"ply {ply}: AbstractPlay's game is over after ply {ply - 1} (its "
                  f"path may step diagonally), so it cannot record {text!r}")  # fmt: skip
        try:
            parsed = pos.parse_move(text)
            pos = pos.play(parsed)
        except BoardproofError as error:
            raise IllegalMoveError(f"moves: ply {ply}: {error}") from None
        if parsed == SWAP:
            pie = True  # played outside the moves: the header says so
        else:
            flat.append(str(parsed))
    outcome = pos.outcome()
    if outcome is not None:
        if ending:
            _fail("ending", f"the moves end the game, got {ending!r}")
        if outcome.is_draw:
            flat += ["pass", "pass"]  # AbstractPlay ends a dead position by two passes
        results = [1 if p in outcome.winners or outcome.is_draw else 0 for p in (0, 1)]
    else:
        if ending not in ENDINGS:
            _fail("ending", "the game is not over: say how it ended (resign, timeout, draw "
                  f"or abandoned), got {ending!r}")  # fmt: skip
        flat.append(ending)
        if ending in ("resign", "timeout"):
            winner = 1 - pos.to_move
            if result is not None and len(result.winners) == 1:
                winner = min(result.winners)
            results = [1 if p == winner else 0 for p in (0, 1)]
        else:
            results = [1, 1] if ending == "draw" else [0, 0]
    kept = dict(header or {})
    names = list(players) or ["Black", "White"]
    old_players = kept.get("players")
    seats = []
    for colour in (0, 1):
        entry: dict[str, Any] = {}
        if isinstance(old_players, list) and len(old_players) == 2:
            old = old_players[colour]
            entry.update(old if isinstance(old, Mapping) else {})
        entry["name"] = names[colour] if colour < len(names) else entry.get("name", "")
        entry["result"] = results[colour]
        seats.append(entry)
    names_of_variants = [VARIANTS[variant]] if variant else []
    board = f"{n}x{n} board"
    # genRecord lists the chosen variants, then the default of each group left unchosen
    names_of_variants = (names_of_variants + [board] if n == DEFAULT_BOARD
                         else [board] + names_of_variants)  # fmt: skip
    now = _now()
    out: dict[str, Any] = {"game": {"name": TITLE, "variants": names_of_variants}}
    for key in ("event", "round"):
        if key in kept:
            out[key] = kept[key]
    out["site"] = kept.get("site", {"name": "boardproof"})
    out["date-start"] = kept.get("date-start", now)
    out["date-end"] = kept.get("date-end", now)
    out["date-generated"] = now
    if kept.get("unrated"):
        out["unrated"] = True
    out["players"] = seats
    if pie:
        out["pie-invoked"] = True
    rounds = [flat[i : i + 2] for i in range(0, len(flat), 2)]
    return {"header": out, "moves": rounds}


#: the descriptor's ``records`` part: the record formats of other programs
RECORDS = {"abstractplay": RecordFormat(title=TITLE, read=read, write=write)}
