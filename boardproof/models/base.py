"""The game protocol shared by every game, its descriptor, its outcome type and errors.

Every game package offers a :class:`Game` (found by name through
:mod:`boardproof.models`) whose positions follow the :class:`Position` protocol, and
one :class:`GameInfo` that describes it (options, sides, hooks, puzzles, drawing).
The optional position hooks are declared here (:data:`HOOKS`); a game lists the ones
it offers in ``GameInfo.hooks`` and solvers ask :func:`offers`. Solvers only ever use
this surface, so a new game never touches a solver.

Players are numbered ``0 .. num_players - 1`` inside the library; each game
writes them the way its notation writes the side to move (``game.symbol(i)``,
from ``GameInfo.symbols``): ``"b"``/``"w"`` for Minefield, ``"c"``/``"p"`` for
Carpniches, ``"1"``…``"4"`` for Candy Conquest and ColleXion.

>>> Outcome.win(1).winners
frozenset({1})
>>> Outcome.draw().is_draw
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, runtime_checkable

# ---------------------------------------------------------------------------
# Errors. Each is a ValueError; the message is one line that names the field
# and ends with the offending text (python-chess style).
# ---------------------------------------------------------------------------


class BoardproofError(ValueError):
    """Base class of every error caused by bad input."""


class InvalidNotationError(BoardproofError):
    """A position or move string that does not follow the notation.

    >>> str(InvalidNotationError("invalid position: expected 3 fields, got 1: 'x'"))
    "invalid position: expected 3 fields, got 1: 'x'"
    """


class IllegalMoveError(BoardproofError):
    """A well-formed move that the rules do not allow in this position."""


class UnknownGameError(BoardproofError):
    """A game name that the registry does not know."""


class InvalidOptionError(BoardproofError):
    """A game option (player count, variant, seed, win rule…) that is not allowed."""


def check_range(name: str, value: Any, low: int, high: int, why: str = "") -> int:
    """``value`` if it is a whole number from ``low`` to ``high``, else InvalidOptionError
    naming option ``name`` (the Python parameter: the command line writes its flag);
    ``why`` says where the range comes from (e.g. the native module that takes it).

    >>> check_range("plies", 999, 0, 250, "the C search")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    boardproof...InvalidOptionError: invalid option plies: expected 0 to 250 (the C search), got 999
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidOptionError(f"invalid option {name}: expected a number, got {value!r}")
    if not low <= value <= high:
        because = f" ({why})" if why else ""
        raise InvalidOptionError(
            f"invalid option {name}: expected {low} to {high}{because}, got {value!r}"
        )
    return value


# ---------------------------------------------------------------------------
# Outcome
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game: the set of winning players.

    An empty set is a draw (or a game that ended without a winner). Several
    winners share the win (ColleXion's equal top scores, team games).
    ``scores`` carries final scores for games that have them.
    """

    winners: frozenset[int]
    scores: tuple[int, ...] | None = None

    @staticmethod
    def win(player: int) -> Outcome:
        return Outcome(frozenset((player,)))

    @staticmethod
    def draw() -> Outcome:
        return Outcome(frozenset())

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def value_for(self, player: int) -> int:
        """+1 if ``player`` is the only winner, -1 if it did not win, 0 otherwise.

        >>> Outcome.win(0).value_for(0), Outcome.win(0).value_for(1)
        (1, -1)
        >>> Outcome.draw().value_for(0)
        0
        """
        if not self.winners:
            return 0
        if player in self.winners:
            return 1 if len(self.winners) == 1 else 0
        return -1


# ---------------------------------------------------------------------------
# Protocols
# ---------------------------------------------------------------------------


@runtime_checkable
class Move(Protocol):
    """A move: hashable, and ``str(move)`` is its canonical notation.

    ``position.parse_move(str(move)) == move`` for every legal move.
    """

    def __hash__(self) -> int: ...

    def __str__(self) -> str: ...


@runtime_checkable
class Position(Protocol):
    """An immutable, hashable game position.

    Required surface (see DESIGN.md): ``fen``, ``legal_moves`` (canonical order),
    ``play`` (returns a new position, never changes ``self``), ``outcome`` (None
    while the game goes on), ``to_move``, ``key`` (transposition key),
    ``transform`` / ``transform_move`` (the game's board symmetries),
    ``parse_move`` and ``status``.
    """

    @property
    def game(self) -> Game: ...

    @property
    def to_move(self) -> int: ...

    def fen(self) -> str: ...

    def legal_moves(self) -> Sequence[Any]: ...

    def play(self, move: Any) -> Position: ...

    def outcome(self) -> Outcome | None: ...

    def key(self) -> Hashable: ...

    def parse_move(self, text: str) -> Any: ...

    def transform(self, symmetry: int) -> Position: ...

    def transform_move(self, move: Any, symmetry: int) -> Any: ...

    def status(self) -> list[str]: ...

    def board_text(self) -> str: ...


class Game(Protocol):
    """A game: its name, players, start positions and position parser."""

    name: str
    #: number of board symmetries; symmetry 0 is the identity.
    symmetry_count: int

    def symbol(self, player: int) -> str:
        """How the notation writes ``player`` (e.g. ``"b"``)."""
        ...

    def player_of(self, symbol: str) -> int:
        """Inverse of :meth:`symbol`; raises InvalidNotationError."""
        ...

    @property
    def info(self) -> GameInfo:
        """The game's descriptor (:class:`GameInfo`)."""
        ...

    def start(self, **options: Any) -> Position:
        """A start position; the options are the game's ``start`` options (see
        :func:`check_options`); others raise InvalidOptionError."""
        ...

    def parse_position(self, text: str) -> Position:
        """Parse notation; raises InvalidNotationError naming the field and text."""
        ...


# ---------------------------------------------------------------------------
# Optional hooks: a game declares the ones it offers in ``GameInfo.hooks``;
# a solver asks :func:`offers` and never probes attributes.
# ---------------------------------------------------------------------------

#: ``position.canonical() -> (key, s)``: a symmetry-canonical transposition key and the
#: symmetry ``s`` that maps the position onto it (value for the side to move invariant)
CANONICAL = "canonical"
#: ``position.winner() -> int | None``: a cheap "has the last move won?" before ``outcome()``
#: (None: nobody has won yet, so ``outcome()`` can only be a draw or None)
WINNER = "winner"
#: ``position.perft(depth) -> int``: a fast perft (bulk counting of the last ply)
PERFT = "perft"
#: ``position.num_players -> int``: the player count, for games where it varies
NUM_PLAYERS = "num_players"
#: ``position.opponents(player) -> list[int]``: whom ``player`` scores against (teams)
OPPONENTS = "opponents"
#: ``position.heuristic_scores() -> tuple[int, ...]``: a score estimate for a search horizon
HEURISTIC_SCORES = "heuristic_scores"
#: ``position.successors() -> list[(move, child)]``: the children, cheaper than ``play``
SUCCESSORS = "successors"

#: every optional hook a game may declare
HOOKS = frozenset(
    {CANONICAL, WINNER, PERFT, NUM_PLAYERS, OPPONENTS, HEURISTIC_SCORES, SUCCESSORS}
)


class Canonical(Protocol):
    def canonical(self) -> tuple[Hashable, int]: ...


class QuickWinner(Protocol):
    def winner(self) -> int | None: ...


class FastPerft(Protocol):
    def perft(self, depth: int) -> int: ...


class PlayerCount(Protocol):
    @property
    def num_players(self) -> int: ...


class Teams(Protocol):
    def opponents(self, player: int) -> Sequence[int]: ...


class HeuristicScores(Protocol):
    def heuristic_scores(self) -> tuple[int, ...]: ...


class Successors(Protocol):
    def successors(self) -> Sequence[tuple[Any, Position]]: ...


def offers(game: Game, hook: str) -> bool:
    """Whether ``game``'s positions offer the optional ``hook`` (one of :data:`HOOKS`).

    >>> from boardproof import models
    >>> offers(models.get("minefield"), CANONICAL), offers(models.get("collexion"), CANONICAL)
    (True, False)
    """
    return hook in game.info.hooks


# ---------------------------------------------------------------------------
# The game descriptor
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionInfo:
    """One option of a game: of ``models.get`` (``scope="game"``) or of ``start()``.

    ``flag`` is how the command line writes it (``metavar`` its value); ``bounds``
    (inclusive) apply to integers, ``choices`` to anything; ``cli=False`` keeps a
    library-only option off the command line; ``label`` names it on a page (the analysis
    board's rules choice: "Glyphs" for Minefield's ``variant``).
    """

    name: str
    type: type
    help: str
    default: Any = None
    choices: tuple[Any, ...] | None = None
    bounds: tuple[int, int] | None = None
    scope: str = "start"
    flag: str = ""
    cli: bool = True
    metavar: str = ""
    label: str = ""

    @property
    def page_label(self) -> str:
        """``label``, else the name in words (``"Win"``, ``"Max plies"``).

        >>> OptionInfo("max_plies", int, "a cap").page_label
        'Max plies'
        """
        return self.label or self.name.replace("_", " ").capitalize()

    @property
    def cli_flag(self) -> str:
        """``--size``, ``--win``… (or the declared ``flag``, e.g. ``--no-pie``).

        Library errors name the option as the Python parameter (``invalid option size``);
        the command line writes its flag instead.
        """
        return self.flag or "--" + self.name.replace("_", "-")

    def check(self, value: Any) -> Any:
        """``value`` if allowed, else InvalidOptionError (one wording for every game).

        >>> OptionInfo("size", int, "board size", bounds=(2, 26)).check(99)
        Traceback (most recent call last):
        ...
        boardproof.models.base.InvalidOptionError: invalid option size: expected 2 to 26, got 99
        >>> OptionInfo("win", str, "rule", choices=("orthogonal",)).check("Orthogonal")
        'orthogonal'
        """
        flag = self.name  # the Python name (the CLI maps it to cli_flag)
        if self.type is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise InvalidOptionError(f"invalid option {flag}: expected a number, got {value!r}")
        if self.type is str and not isinstance(value, str):
            raise InvalidOptionError(f"invalid option {flag}: expected a word, got {value!r}")
        if self.type is str and self.choices is not None and value not in self.choices:
            # upper case as in game names (MINEFIELD): the choice written in lower case
            value = next((c for c in self.choices if c == value.lower()), value)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise InvalidOptionError(
                f"invalid option {flag}: expected one of {allowed}, got {value!r}"
            )
        if self.bounds is not None and not self.bounds[0] <= value <= self.bounds[1]:
            low, high = self.bounds
            raise InvalidOptionError(
                f"invalid option {flag}: expected {low} to {high}, got {value!r}"
            )
        return value


#: the ``players`` option of a two-player game (``start(players=2)`` is accepted)
TWO_PLAYERS = OptionInfo("players", int, "number of players (2)", default=2, choices=(2,))


def refuse_option(game: str, name: str, value: Any) -> InvalidOptionError:
    """The error for an option ``game`` does not have (the one wording).

    A flag (a bool, like ``pie``, which the CLI turns off with ``--no-pie``) is named
    with the reason instead of its value:

    >>> print(refuse_option("candy", "size", 4))
    invalid option size: candy does not take it, got 4
    >>> print(refuse_option("candy", "pie", False))
    invalid option pie: candy does not take it (candy has no pie rule)

    A name that is no Python name (read from a file: a proof's options) is quoted, so that
    the message stays one line:

    >>> print(refuse_option("candy", "\\n", 1))
    invalid option '\\n': candy does not take it, got 1
    """
    if not name.isidentifier():
        name = repr(name)
    if isinstance(value, bool):
        return InvalidOptionError(
            f"invalid option {name}: {game} does not take it ({game} has no {name} rule)"
        )
    return InvalidOptionError(f"invalid option {name}: {game} does not take it, got {value!r}")


def check_options(
    game: str, specs: Sequence[OptionInfo], given: Mapping[str, Any], scope: str = "start"
) -> dict[str, Any]:
    """The options of ``scope`` with defaults filled in; a None value counts as not given.

    Raises InvalidOptionError for an option the game does not declare or a bad value.

    >>> size = OptionInfo("size", int, "board size", default=11, bounds=(2, 26))
    >>> check_options("minefield", [size], {"size": None})
    {'size': 11}
    >>> check_options("minefield", [size], {"seed": 3})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof...InvalidOptionError: invalid option seed: minefield does not take it, got 3
    """
    mine = {spec.name: spec for spec in specs if spec.scope == scope}
    for name, value in given.items():
        if name not in mine and value is not None:
            raise refuse_option(game, name, value)
    result: dict[str, Any] = {}
    for name, spec in mine.items():
        value = given.get(name)
        result[name] = spec.default if value is None else spec.check(value)
    return result


def game_options(game: Game) -> dict[str, Any]:
    """The game-scope options ``game`` was made with that differ from their defaults
    (what a proof or a record carries to make the same game again).

    >>> from boardproof import models
    >>> game_options(models.get("minefield", win="orthodiagonal"))
    {'win': 'orthodiagonal'}
    >>> game_options(models.get("minefield"))
    {}
    """
    found = {}
    for spec in game.info.options:
        if spec.scope == "game":
            value = getattr(game, spec.name, spec.default)
            if value != spec.default:
                found[spec.name] = value
    return found


@dataclass(frozen=True)
class PuzzleInfo:
    """How the puzzle generator makes puzzles of a game.

    ``settings`` overrides the defaults of the puzzle generator's ``Settings``;
    ``start`` are the ``start()`` options of a playout; ``sizes``, when given, are the
    board sizes a playout draws from (with the task's generator).
    """

    settings: Mapping[str, Any] = field(default_factory=dict)
    start: Mapping[str, Any] = field(default_factory=dict)
    sizes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Engine:
    """What a game's native engine brings to the generic layers (``GameInfo.engine``).

    ``accepts(position)``: whether ``solve(method="native")`` takes the position, and
    ``solve(position, request, method)`` the :class:`~boardproof.solvers.api.SolveResult`
    it gives (``request`` is the :class:`~boardproof.solvers.api.Request`); ``refusal``
    says in one phrase why a position is not taken; ``scope`` names what the engine
    solves (empty: nothing natively; the refusal of a game without one lists every
    game's). Optional:
    ``win_oracle(position, winner, plies=None)`` -> ``f(position)``, plies of ``winner``'s
    fastest forced win or None, for building proof trees (None: the proof builder
    searches; ``plies``, when known, is the length of the win being proved);
    ``playouts(mode)`` -> the playout kernel of ``MCTS(playout=mode)`` or None;
    ``hooks()`` -> the compiled modules with a ``set_hook`` for live node counts;
    ``leaf(position, nodes)`` -> ``win``/``loss``/``draw`` for the side to move, or None
    when ``nodes`` do not settle it: the anytime engine's exact leaf search (and its exact
    first step gets the native budget on the positions the engine accepts);
    ``win_within(position, player, plies, node_limit, tt_bits)`` -> plies of ``player``'s
    fastest forced win if at most ``plies``, else None, raising
    :class:`~boardproof.solvers.common.SearchTimeout` when ``node_limit`` runs out (the
    puzzle generator's native filter), and ``max_plies`` the most plies it takes (the
    native module's range: the generator refuses a longer ``max_plies`` before any work);
    ``mcts(position, settings)`` -> a :class:`~boardproof.solvers.native_mcts.NativeSearch`
    (the native MCTS engine over ``position`` with those
    :class:`~boardproof.solvers.native_mcts.EngineSettings`), or None when it does not
    take the position; ``tree(position, seed)`` -> a game-specific search tree that
    :func:`~boardproof.solvers.analyse.analyse` grows instead of the generic Python MCTS
    (engine ``auto``), with the reading interface of :class:`~boardproof.solvers.mcts.MCTS`
    (``run``, ``moves``, ``best_move``, ``principal_line``, ``proved_value``,
    ``proved_winner``, ``root_value``, ``root_score``, ``root``, ``iterations``,
    ``leaf_solver``, ``proof``), or None when it does not take the position;
    ``policy_game(position, seed, care, limit)`` -> the moves of a cheap self-play game
    from ``position`` by the engine's threat-aware policy at strength ``care`` (0 to 1),
    at most ``limit`` plies (None: to the end), seeded (self-play's ``policy``);
    ``strategy(position, first, plies, node_limit, tt_bits, max_positions, seconds)`` ->
    the compact proof (``tokens``, ``positions``, ``line``, ``searches``) of the forced win
    of the player to move with the first move ``first`` that ``win_within`` found, built
    natively as the puzzle miner's Python proof tree and strategy would be.
    """

    scope: str
    accepts: Callable[[Any], bool]
    solve: Callable[[Any, Any, str], Any]
    refusal: Callable[[Any], str] = lambda position: "the C module was not built"
    win_oracle: Callable[..., Callable[[Any], int | None] | None] | None = None
    playouts: Callable[[str], Any] | None = None
    hooks: Callable[[], list[Any]] = lambda: []
    leaf: Callable[[Any, int], str | None] | None = None
    win_within: Callable[[Any, int, int, int, int], int | None] | None = None
    max_plies: int | None = None
    mcts: Callable[[Any, Any], Any] | None = None
    tree: Callable[[Any, int], Any] | None = None
    policy_game: Callable[[Any, int, float, int | None], list[Any]] | None = None
    strategy: Callable[..., Any] | None = None


@dataclass(frozen=True)
class CertificateFormat:
    """A game's compact certificate format in the command line (``GameInfo.certificates``).

    ``wants(position, proof_format)``: whether ``solve --proof FILE`` writes a certificate
    (``proof_format`` is ``auto`` or ``certificate``; refuses a position a certificate
    cannot prove); ``write(position, winner, path, timeout)`` makes and writes it and
    says what happened in one line; ``is_file(path)`` recognises one and
    ``check_command(path, as_json)`` is ``check-proof`` on it.
    """

    wants: Callable[[Any, str], bool]
    write: Callable[..., str]
    is_file: Callable[[str], bool]
    check_command: Callable[[str, bool], None]


#: a clickable target of a position's picture: (target, x, y, width, height) in the SVG's
#: coordinates
Region = tuple[str, float, float, float, float]


def _one_step(move: str) -> list[str]:
    return [move]


def _no_regions(position: Any) -> list[Region]:
    return []


def _no_labels(steps: list[dict[str, Any]]) -> dict[str, str]:
    return {}


@dataclass(frozen=True)
class View:
    """How the site and the analysis board let a reader play a game (``GameInfo.view``).

    ``click_path(move)``: the targets that form ``move`` (its notation) in the order they
    are clicked; ``hit_regions(position)``: the clickable targets of the position's picture
    (its drawing's own geometry); ``choice_labels(steps)``: words for the choice buttons
    that need them (the steps' move tables as :func:`boardproof.reports.play.move_table`
    makes them).
    """

    click_path: Callable[[str], list[str]] = _one_step
    hit_regions: Callable[[Any], list[Region]] = _no_regions
    choice_labels: Callable[[list[dict[str, Any]]], dict[str, str]] = _no_labels


@dataclass(frozen=True)
class Openings:
    """A game's opening analysis in ``boardproof openings`` (``GameInfo.openings``): its
    own options (click parameters, which the command adds to the common ones) and
    ``run(executor, given, *, out_dir, timeout, as_json)``, which computes, writes and
    prints the report (``given``: every option's value by its Python name)."""

    params: tuple[Any, ...]
    run: Callable[..., None]


@dataclass(frozen=True)
class GtpBoard:
    """How a game speaks GTP (``GameInfo.gtp``): ``boardproof gtp`` and GoGui.

    ``game_id`` is GoGui's name of the game; ``vertex(position, move_text)`` writes a
    move as GTP writes it and ``move(position, text)`` reads one back into the notation
    (raising :class:`InvalidNotationError`); ``sizes`` are the ``boardsize`` values it
    takes and ``start(game, size)`` makes the empty board of one; ``size(position)`` is a
    position's board size; ``cells(position)`` lists the board, top row first, as GoGui's
    ``gogui-rules_board`` wants it (a row of ``X``, ``O`` and ``.``).
    """

    game_id: str
    vertex: Callable[[Any, str], str]
    move: Callable[[Any, str], str]
    sizes: tuple[int, int]
    size: Callable[[Any], int]
    cells: Callable[[Any], list[str]]


@dataclass(frozen=True)
class ForeignRecord:
    """A game read from another program's record (what :attr:`RecordFormat.read` gives).

    ``moves`` are in boardproof's notation, each with where the record has it (``moves[3][1]``;
    a move the format plays outside its move list, like a pie swap, names that field);
    ``players`` are the names by player; ``result`` is what the record says (None: it says
    nothing) and ``ending`` how the game ended when the moves do not end it (``resign``,
    ``timeout``, ``draw``, ``abandoned``; empty otherwise); ``notes`` are one-line remarks
    for a summary; ``header`` is the record's header as read.
    """

    game: Any
    start: Any
    moves: tuple[tuple[str, str], ...]
    players: tuple[str, ...] = ()
    result: Outcome | None = None
    ending: str = ""
    notes: tuple[str, ...] = ()
    header: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RecordFormat:
    """Another program's game records, read and written by a game (``GameInfo.records``).

    ``title`` is the game's name in that format; ``read(data)`` turns a record (parsed
    JSON) into a :class:`ForeignRecord`, raising a :class:`BoardproofError` whose message
    starts with the record's field (``moves[3][1]: ...``); ``write(start, moves, *,
    players, result, ending, header)`` is the record (a JSON-ready dict) of the game played
    from position ``start`` with ``moves`` (moves of the game), ``players`` the names by
    player, ``result``/``ending`` as in :class:`ForeignRecord` for a game the moves do not
    end, and ``header`` fields to keep (dates, site) from a record read before.
    """

    title: str
    read: Callable[[Mapping[str, Any]], ForeignRecord]
    write: Callable[..., dict[str, Any]]


@dataclass(frozen=True)
class Themes:
    """A game's puzzle themes (``GameInfo.themes``).

    ``names`` maps each theme's id (lower case, words joined by ``-``) to its one-line
    definition; ``detect(position, line)`` lists the ids that apply to a puzzle at
    ``position`` whose solution line is ``line`` (the moves in notation: the solution,
    the defence, ... to the end of the main line).
    """

    names: Mapping[str, str]
    detect: Callable[[Any, Sequence[str]], list[str]]


#: the parts a game may bring beyond its rules, each named in ``GameInfo`` by the module
#: that holds it (imported on first use, never with the rules): the module's attribute
PARTS = {"engine": "ENGINE", "view": "VIEW", "commands": "COMMANDS",
         "certificates": "CERTIFICATES", "puzzle_maker": "MAKE_PUZZLE",
         "openings": "OPENINGS", "gtp": "GTP", "records": "RECORDS", "themes": "THEMES"}


@dataclass(frozen=True)
class GameInfo:
    """Everything the library, the command line and the site know about a game.

    ``symbols`` are the notation's side symbols (player ``i`` is ``symbols[i]``),
    ``sides`` the names the pages give them; ``players`` is the (inclusive) range of
    player counts; ``objective`` is ``"win"`` or ``"score"`` (final scores decide);
    ``puzzles`` is None for a game without puzzles, ``no_puzzles`` says why;
    ``draw(position) -> str`` is its SVG picture; ``make(**game_options)`` builds it;
    ``options`` are its options (of ``models.get`` and of ``start()``), ``hooks`` the
    optional position hooks it offers (:data:`HOOKS`).
    """

    name: str
    long_name: str
    summary: str
    symbols: tuple[str, ...]
    sides: tuple[str, ...]
    players: tuple[int, int]
    make: Callable[..., Game]
    draw: Callable[[Any], str]
    objective: str = "win"
    aliases: tuple[str, ...] = ()
    options: tuple[OptionInfo, ...] = ()
    hooks: frozenset[str] = frozenset()
    puzzles: PuzzleInfo | None = None
    no_puzzles: str = ""
    #: how many pieces a position shows, and the SVG element each is drawn as (at least
    #: one each): what the conformance check "every piece drawn" counts
    pieces: Callable[[Any], int] | None = None
    piece_tag: str = ""
    #: what the game brings beyond its rules, each the module that holds it, loaded by
    #: :meth:`part` on first use: ``engine`` (its ``ENGINE``, an :class:`Engine`),
    #: ``view`` (its ``VIEW``, a :class:`View`), ``commands`` (its ``COMMANDS``: click
    #: commands added to the command line), ``certificates`` (its ``CERTIFICATES``, a
    #: :class:`CertificateFormat`), ``puzzle_maker`` (its ``MAKE_PUZZLE(seed, index,
    #: settings)``: one puzzle task of a game that makes its own puzzles), ``openings``
    #: (its ``OPENINGS``, an :class:`Openings`: ``boardproof openings GAME``), ``gtp``
    #: (its ``GTP``, a :class:`GtpBoard`: GTP vertices and GoGui's board), ``records``
    #: (its ``RECORDS``: a dict of :class:`RecordFormat` by format name, the game records
    #: of other programs it reads and writes, e.g. ``abstractplay``), ``themes`` (its
    #: ``THEMES``, a :class:`Themes`: the puzzle themes it detects)
    engine: str = ""
    view: str = ""
    commands: str = ""
    certificates: str = ""
    puzzle_maker: str = ""
    openings: str = ""
    gtp: str = ""
    records: str = ""
    themes: str = ""

    def part(self, name: str) -> Any:
        """The part ``name`` (a key of :data:`PARTS`) the game brings, or None.

        >>> from boardproof import models
        >>> models.info("collexion").part("records") is None
        True
        >>> models.info("minefield").part("records")["abstractplay"].title
        'Minefield'
        """
        module = getattr(self, name)
        if not module:
            return None
        return getattr(importlib.import_module(module), PARTS[name])

    def side_name(self, symbol: str) -> str:
        """How pages name the side written ``symbol``."""
        return self.sides[self.symbols.index(symbol)]

    def problems(self) -> list[str]:
        """What is inconsistent in this descriptor (empty when all is well)."""
        found = []
        if len(self.symbols) != len(self.sides) or len(self.symbols) < self.players[1]:
            found.append("symbols and sides must name every player")
        if not 1 <= self.players[0] <= self.players[1]:
            found.append(f"bad player range {self.players}")
        if self.objective not in ("win", "score"):
            found.append(f"objective must be win or score, got {self.objective!r}")
        if not self.hooks <= HOOKS:
            found.append(f"unknown hooks: {sorted(self.hooks - HOOKS)}")
        if self.players[0] != self.players[1] and NUM_PLAYERS not in self.hooks:
            found.append("a varying player count needs the num_players hook")
        if (self.puzzles is None) == (not self.no_puzzles):
            found.append("give puzzle settings or the reason there are none, not both")
        if (self.pieces is None) != (not self.piece_tag):
            found.append("give both pieces and piece_tag, or neither")
        for spec in self.options:
            if spec.scope not in ("game", "start"):
                found.append(f"option {spec.name}: scope must be game or start")
        return found


class SymbolsMixin:
    """``symbol`` / ``player_of`` from a game's :attr:`symbols` (shared by every game)."""

    name: str
    symbols: tuple[str, ...]

    def symbol(self, player: int) -> str:
        """How the notation writes ``player``."""
        return self.symbols[player]

    def player_of(self, symbol: str) -> int:
        """Inverse of :meth:`symbol`; raises InvalidNotationError."""
        if symbol not in self.symbols:
            raise InvalidNotationError(
                f"invalid side: expected one of {', '.join(self.symbols)}, got {symbol!r}"
            )
        return self.symbols.index(symbol)

    @property
    def info(self) -> GameInfo:
        """The game's descriptor, from the registry."""
        assert _describe is not None, "boardproof.models (the registry) is not imported"
        return _describe(self.name)


#: the registry's lookup of a descriptor by game name: :mod:`boardproof.models` sets it
#: when it is imported, which is before any game package (they are its subpackages)
_describe: Callable[[str], GameInfo] | None = None


def set_registry(describe: Callable[[str], GameInfo]) -> None:
    """Called once by :mod:`boardproof.models`: how :attr:`SymbolsMixin.info` finds a
    game's descriptor (the registry is above this module, which never imports it)."""
    global _describe
    _describe = describe


# ---------------------------------------------------------------------------
# Generic helpers every game can use
# ---------------------------------------------------------------------------


def play_line(position: Position, moves: Iterable[str]) -> Position:
    """Play a sequence of moves given in notation; errors name the move.

    Raises IllegalMoveError or InvalidNotationError at the first bad move.
    """
    for text in moves:
        move = position.parse_move(text)
        position = position.play(move)
    return position


#: the deepest perft: the count is a recursion of that depth, and no deeper count of a real
#: position could finish anyway
MAX_PERFT_DEPTH = 100


def check_depth(depth: int, low: int = 0) -> None:
    """Raise InvalidOptionError unless ``low <= depth <= MAX_PERFT_DEPTH``.

    >>> check_depth(1000000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    boardproof...InvalidOptionError: invalid depth: expected a number from 0 to 100, got 1000000
    """
    if not low <= depth <= MAX_PERFT_DEPTH:
        raise InvalidOptionError(
            f"invalid depth: expected a number from {low} to {MAX_PERFT_DEPTH}, got {depth!r}"
        )


def perft(position: Position, depth: int) -> int:
    """Leaves of the legal-move tree of ``depth`` plies (terminal nodes have no children).

    A game may provide a faster ``perft`` method on its positions (bulk counting
    of the last ply); it is used when present. ``depth`` is at most
    :data:`MAX_PERFT_DEPTH`.
    """
    check_depth(depth)
    if offers(position.game, PERFT):
        return int(cast(FastPerft, position).perft(depth))
    return generic_perft(position, depth)


def generic_perft(position: Position, depth: int) -> int:
    """Perft through the protocol only (the reference the fast versions must match)."""
    if depth == 0:
        return 1
    if position.outcome() is not None:
        return 0
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(generic_perft(position.play(m), depth - 1) for m in moves)


def divide(position: Position, depth: int) -> list[tuple[str, int]]:
    """Per-move breakdown of ``perft(position, depth)`` (``depth >= 1``)."""
    check_depth(depth, 1)
    if position.outcome() is not None:
        return []
    return [(str(m), perft(position.play(m), depth - 1)) for m in position.legal_moves()]


def result_fields(position: Position) -> dict[str, Any]:
    """The ``result``/``winner`` fields of ``play --json`` for a position.

    ``winner`` is the winning side's symbol, a list of symbols when several share
    the win, or None.
    """
    outcome = position.outcome()
    if outcome is None:
        return {"result": "ongoing", "winner": None}
    if outcome.is_draw:
        fields: dict[str, Any] = {"result": "draw", "winner": None}
    else:
        symbols = sorted(position.game.symbol(p) for p in outcome.winners)
        fields = {"result": "win", "winner": symbols[0] if len(symbols) == 1 else symbols}
    if outcome.scores is not None:
        fields["scores"] = list(outcome.scores)
    return fields


def quoted(text: str, limit: int = 80) -> str:
    """``repr(text)`` cut to about ``limit`` characters (long inputs stay readable).

    >>> quoted("x" * 200)[-6:], len(quoted("x" * 200)) <= 83
    ("xx...'", True)
    """
    if len(text) <= limit:
        return repr(text)
    return repr(text[: limit - 3] + "...")


def impossible_message(pos: Position, where: str = "") -> str | None:
    """Why ``pos`` cannot occur in a game (its first ``status()`` problem), or None.

    The line without the CLI's option, as the analysis board (``serve``) says it too:

    >>> from boardproof import models
    >>> game = models.get("minefield")
    >>> impossible_message(game.parse_position("3/3/3 b -")) is None
    True
    >>> impossible_message(game.parse_position("ww1/3/3 b -"), "line 1")  # doctest: +ELLIPSIS
    "impossible position (line 1): 0 b and 2 w stones with b to move: ...: 'ww1/3/3 b -'"
    """
    problems = pos.status()
    if not problems:
        return None
    place = f" ({where})" if where else ""
    return f"impossible position{place}: {problems[0]}: {quoted(pos.fen())}"


def require_text(value: Any, field: str = "position") -> str:
    """``value`` if it is a string; otherwise a TypeError naming the field.

    Positions and moves are given in notation, as strings:

    >>> require_text("3/3/3 b p")
    '3/3/3 b p'
    >>> require_text(None)
    Traceback (most recent call last):
        ...
    TypeError: invalid position: expected a string in the game's notation, got None
    """
    if not isinstance(value, str):
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        raise TypeError(f"invalid {field}: expected a string in the game's notation, got {shown}")
    return value
