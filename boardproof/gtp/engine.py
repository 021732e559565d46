"""The Go Text Protocol (version 2) over boardproof's engine, for every game.

:class:`GtpEngine` answers one command line at a time (:meth:`GtpEngine.handle`): a
success is ``= answer``, a failure ``? message`` (the command's id, when given, follows
the sign), each ended by an empty line; nothing a controller sends can crash it.

Moves are written in the game's notation, except where its descriptor brings a GTP part
(``GameInfo.gtp``: Minefield's vertices as GTP and GoGui write them, columns without
``I``; ``boardsize``; GoGui's rules-engine commands). Colours are the game's side
symbols (Minefield: ``b``/``w``, also ``black``/``white``). ``genmove`` asks the anytime
engine (:func:`boardproof.solvers.analyse.analyse`) for its best move, within the time
the controller's clock allows (``time_settings``, ``time_left``) or the engine's own
per-move budget; it plays it and answers it.

>>> engine = GtpEngine("minefield", iterations=50)
>>> engine.handle("1 boardsize 5")
'=1\\n\\n'
>>> engine.handle("play b C3")
'=\\n\\n'
>>> print(engine.handle("play w I3"), end="")
? invalid vertex: GTP has no column I, got 'I3'
<BLANKLINE>
>>> engine.handle("gogui-rules_side_to_move")
'= white\\n\\n'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from boardproof import __version__, models
from boardproof.models.base import BoardproofError, GtpBoard, Position, result_fields

if TYPE_CHECKING:
    from boardproof.solvers.native_mcts import EngineSettings

#: GTP's required commands and the ones this engine adds, as ``list_commands`` lists them
COMMANDS = (
    "protocol_version", "name", "version", "known_command", "list_commands", "quit",
    "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard",
    "final_score", "time_settings", "time_left",
    "gogui-rules_game_id", "gogui-rules_board_size", "gogui-rules_legal_moves",
    "gogui-rules_side_to_move", "gogui-rules_board", "gogui-rules_final_result",
)  # fmt: skip
#: colour words GTP controllers send, by the side symbol they mean
COLOUR_WORDS = {"black": "b", "white": "w"}
#: with a controller's clock: the share of the time left one move may take
TIME_SHARE = 1 / 20
#: the least time a move is given (seconds)
MIN_MOVE_SECONDS = 0.05


class GtpError(Exception):
    """A command that fails: its message is the ``?`` answer."""


def clean(line: str) -> str:
    """A command line as GTP's preprocessing leaves it: control characters removed
    (tabs become spaces), the comment after ``#`` dropped, spaces trimmed.

    >>> clean("  1 play\\tb c3 # a comment\\r")
    '1 play b c3'
    """
    kept = "".join(" " if c == "\t" else c for c in line if c >= " " or c in "\t")
    return kept.split("#", 1)[0].strip()


class GtpEngine:
    """One game played over GTP: the position, the moves played (for ``undo``), the
    engine's settings and the controller's clock."""

    def __init__(self, game: str, options: dict[str, Any] | None = None,
                 start_options: dict[str, Any] | None = None, *, seconds: float | None = None,
                 iterations: int | None = None, seed: int = 0, engine: str = "auto",
                 settings: EngineSettings | None = None) -> None:  # fmt: skip
        self.game = models.get(game, **(options or {}))
        self.start_options = dict(start_options or {})
        self.board: GtpBoard | None = self.game.info.part("gtp")
        self.seconds = seconds if seconds is not None or iterations is not None else 1.0
        self.iterations = iterations
        self.seed = seed
        self.engine = engine
        self.settings = settings
        self.position: Position = self.game.start(**self.start_options)
        self.history: list[Position] = []
        #: the native tree, moved along with the game (None: the next genmove starts one)
        self.tree: Any = None
        self.main_time: float | None = None
        self.time_left: dict[str, float] = {}
        self.finished = False
        self.handlers: dict[str, Callable[[list[str]], str]] = {
            name: getattr(self, "_" + name.replace("-", "_")) for name in COMMANDS
        }

    # -- the protocol ------------------------------------------------------------------

    def handle(self, line: str) -> str:
        """The answer to one command line ('' for an empty line or a comment)."""
        text = clean(line)
        if not text:
            return ""
        words = text.split()
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
        if not words:
            return f"?{ident} no command\n\n"
        command, args = words[0], words[1:]
        handler = self.handlers.get(command)
        try:
            if handler is None:
                raise GtpError(f"unknown command: {command!r}")
            answer = handler(args)
        except GtpError as error:
            return f"?{ident} {error}\n\n"
        except BoardproofError as error:
            return f"?{ident} {str(error).splitlines()[0]}\n\n"
        except Exception as error:  # noqa: BLE001 - a controller must get an answer
            return f"?{ident} internal error: {type(error).__name__}: {error}\n\n"
        if not answer:
            return f"={ident}\n\n"
        space = "" if answer.startswith("\n") else " "  # a board starts on its own line
        return f"={ident}{space}{answer}\n\n"

    # -- moves -------------------------------------------------------------------------

    def _colour(self, word: str) -> int:
        symbol = COLOUR_WORDS.get(word.lower(), word.lower())
        try:
            return self.game.player_of(symbol)
        except BoardproofError:
            raise GtpError(f"invalid colour: {word!r}") from None

    def _vertex(self, move: Any) -> str:
        text = str(move)
        return self.board.vertex(self.position, text) if self.board is not None else text

    def _move(self, text: str) -> Any:
        if self.board is not None:
            text = self.board.move(self.position, text)
        return self.position.parse_move(text)

    def _needs(self, args: list[str], count: int, usage: str) -> None:
        if len(args) != count:
            raise GtpError(f"syntax error: expected {usage}, got {' '.join(args)!r}")

    # -- the commands ------------------------------------------------------------------

    def _protocol_version(self, args: list[str]) -> str:
        return "2"

    def _name(self, args: list[str]) -> str:
        return "boardproof"

    def _version(self, args: list[str]) -> str:
        return __version__

    def _known_command(self, args: list[str]) -> str:
        self._needs(args, 1, "a command name")
        return "true" if args[0] in self.handlers else "false"

    def _list_commands(self, args: list[str]) -> str:
        return "\n".join(COMMANDS)

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def _boardsize(self, args: list[str]) -> str:
        self._needs(args, 1, "a board size")
        if self.board is None or not args[0].isdigit():
            raise GtpError("unacceptable size")
        size = int(args[0])
        low, high = self.board.sizes
        if not low <= size <= high:
            raise GtpError("unacceptable size")
        self.start_options["size"] = size
        return self._clear_board([])

    def _clear_board(self, args: list[str]) -> str:
        self.position = self.game.start(**self.start_options)
        self.history.clear()
        self.tree = None
        return ""

    def _komi(self, args: list[str]) -> str:
        return ""  # these games have no komi: accepted and ignored, as GoGui sends it

    def _play(self, args: list[str]) -> str:
        self._needs(args, 2, "a colour and a move")
        player = self._colour(args[0])
        if self.position.outcome() is not None:
            raise GtpError("illegal move: the game is over")
        if player != self.position.to_move:
            raise GtpError(f"illegal move: {args[0]} is not to move")
        move = self._move(args[1])
        after = self.position.play(move)
        self._follow(move)
        self.history.append(self.position)
        self.position = after
        return ""

    def _follow(self, move: Any) -> None:
        """Move the kept tree along with ``move`` (its subtree stays when it has one)."""
        if self.tree is not None:
            try:
                self.tree.advance(move)
            except ValueError:
                self.tree = None

    def _genmove(self, args: list[str]) -> str:
        from boardproof.solvers.analyse import analyse  # loaded when the engine first plays

        self._needs(args, 1, "a colour")
        player = self._colour(args[0])
        if self.position.outcome() is not None:
            raise GtpError("the game is over")
        if player != self.position.to_move:
            raise GtpError(f"{args[0]} is not to move")
        seconds, iterations = self._budget(args[0])
        began = time.perf_counter()
        kept = self.tree if self.tree is not None and self.tree.root_position == self.position \
            else None  # fmt: skip
        found = analyse(self.position, seconds=seconds, iterations=iterations, seed=self.seed,
                        multipv=1, proof=False, engine=self.engine, settings=self.settings,
                        tree=kept)  # fmt: skip
        self._spend(args[0], time.perf_counter() - began)
        move = found.best_move
        self.tree = found.tree if hasattr(found.tree, "advance") else None
        self._follow(move)
        answer = self._vertex(move)
        self.history.append(self.position)
        self.position = self.position.play(move)
        return answer

    def _budget(self, colour: str) -> tuple[float | None, int | None]:
        """The seconds (or iterations) of the next move: the engine's own budget, or a
        share of the controller's clock."""
        symbol = COLOUR_WORDS.get(colour.lower(), colour.lower())
        if symbol in self.time_left:
            return max(self.time_left[symbol] * TIME_SHARE, MIN_MOVE_SECONDS), None
        if self.iterations is not None:
            return None, self.iterations
        return self.seconds, None

    def _spend(self, colour: str, seconds: float) -> None:
        symbol = COLOUR_WORDS.get(colour.lower(), colour.lower())
        if symbol in self.time_left:
            self.time_left[symbol] = max(self.time_left[symbol] - seconds, 0.0)

    def _undo(self, args: list[str]) -> str:
        if not self.history:
            raise GtpError("cannot undo")
        self.position = self.history.pop()
        self.tree = None
        return ""

    def _showboard(self, args: list[str]) -> str:
        return "\n" + self.position.board_text() + "\n" + self.position.fen()

    def _final_score(self, args: list[str]) -> str:
        outcome = self.position.outcome()
        if outcome is None:
            raise GtpError("the game is not over")
        fields = result_fields(self.position)
        if fields["result"] == "draw":
            return "0"
        winner = fields["winner"]
        return f"{str(winner).upper()}+" if isinstance(winner, str) else "0"

    def _time_settings(self, args: list[str]) -> str:
        self._needs(args, 3, "main time, byo-yomi time and byo-yomi stones")
        try:
            main, byo, stones = float(args[0]), float(args[1]), int(args[2])
        except ValueError:
            raise GtpError(f"syntax error: expected numbers, got {' '.join(args)!r}") from None
        if main < 0 or byo < 0 or stones < 0:
            raise GtpError("syntax error: negative time")
        self.main_time = main
        # the same main time for every side (no clock when both times are 0)
        symbols = [self.game.symbol(p) for p in range(self.game.info.players[1])]
        self.time_left = {} if main == 0 and byo == 0 else {s: main + byo for s in symbols}
        return ""

    def _time_left(self, args: list[str]) -> str:
        self._needs(args, 3, "a colour, a time and a stone count")
        self._colour(args[0])
        try:
            left = float(args[1])
        except ValueError:
            raise GtpError(f"syntax error: expected a time, got {args[1]!r}") from None
        if left < 0:
            raise GtpError("syntax error: negative time")
        self.time_left[COLOUR_WORDS.get(args[0].lower(), args[0].lower())] = left
        return ""

    # -- GoGui's rules-engine commands ---------------------------------------------------

    def _gogui_board(self) -> GtpBoard:
        if self.board is None:
            raise GtpError(f"{self.game.name} has no GoGui board")
        return self.board

    def _gogui_rules_game_id(self, args: list[str]) -> str:
        return self._gogui_board().game_id

    def _gogui_rules_board_size(self, args: list[str]) -> str:
        return str(self._gogui_board().size(self.position))

    def _gogui_rules_legal_moves(self, args: list[str]) -> str:
        if self.position.outcome() is not None:
            return ""
        return " ".join(self._vertex(m) for m in self.position.legal_moves())

    def _gogui_rules_side_to_move(self, args: list[str]) -> str:
        symbol = self.game.symbol(self.position.to_move)
        return {"b": "black", "w": "white"}.get(symbol, symbol)

    def _gogui_rules_board(self, args: list[str]) -> str:
        return "\n" + "\n".join(self._gogui_board().cells(self.position))

    def _gogui_rules_final_result(self, args: list[str]) -> str:
        fields = result_fields(self.position)
        if fields["result"] == "ongoing":
            return "unknown"
        if fields["result"] == "draw":
            return "draw"
        winner = fields["winner"]
        name = {"b": "Black", "w": "White"}.get(str(winner), str(winner))
        return f"{name} wins"
