"""The two sides of a match: boardproof's engine in this process, or any GTP engine.

A player's settings are one text (``boardproof match --a SETTINGS``), read by
:func:`parse_settings`:

- engine settings, ``KEY=VALUE`` pairs separated by commas: ``time`` (seconds a move),
  ``iterations`` (MCTS iterations a move: the same moves on every machine), ``seed``
  (mixed with the match's seed and the game number), ``exact`` (``yes``/``no``: the
  exact search first, as ``analyse`` does), ``playout`` (``auto``, ``native``,
  ``python``), ``engine`` (``auto``, ``native``, ``python``: the tree, as ``analyse
  --engine``) and the native engine's settings (``threads``, ``hash`` in MB, and the
  search's own: ``uct_c``, ``rave_bias``, ``fpu``, ``expand_visits``, ``rave``,
  ``knowledge``: the fields of :class:`~boardproof.solvers.native_mcts.EngineSettings`);
  without ``time`` or ``iterations`` a move takes 1 second, as in ``boardproof gtp``.
  They become an :class:`EngineSpec`, played by :class:`EnginePlayer` with
  :func:`boardproof.solvers.analyse.analyse`, which keeps its tree from move to move (the
  subtree of the moves played, as ``boardproof gtp`` does);
- ``gtp:COMMAND LINE``: an external engine speaking GTP version 2 on its standard input
  and output (:class:`GtpSpec`, played by :class:`GtpPlayer`), e.g.
  ``gtp:boardproof gtp minefield --size 9 --iterations 200``. Its moves are written as
  ``boardproof gtp`` writes them: through the game's GTP part where it has one
  (Minefield's vertices), else in the notation; the colours are the side symbols.

>>> parse_settings("iterations=200,seed=1", "--a")
EngineSpec(seconds=None, iterations=200, seed=1, options={}, tuning={})
>>> parse_settings("gtp:boardproof gtp minefield --size 5", "--b").command[-2:]
('--size', '5')
>>> parse_settings("iterations=200,depth=3", "--a")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardproof.models.base.InvalidOptionError: invalid option --a: unknown setting 'depth' \
(expected time, iterations, seed, exact, playout, engine, a native engine setting \
(hash, threads, uct_c, ...), or gtp:COMMAND), got 'iterations=200,depth=3'
>>> parse_settings("time=1,threads=2,hash=64,uct_c=0.1", "--a").describe()
'time=1,threads=2,hash=64,uct_c=0.1'
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Protocol

from boardproof.models.base import (
    BoardproofError,
    Game,
    GtpBoard,
    InvalidOptionError,
    Position,
    quoted,
)

if TYPE_CHECKING:
    from boardproof.solvers.native_mcts import EngineSettings

#: what a GTP engine answers to ``genmove`` when it gives up the game
RESIGN = "resign"
#: seconds an engine is given to stop (after ``quit``, or after closing its output)
STOP_SECONDS = 5.0
#: seconds an engine may take to answer a command other than ``genmove`` (its start too)
ANSWER_SECONDS = 60.0
#: the move budget of engine settings that name neither ``time`` nor ``iterations``
DEFAULT_SECONDS = 1.0


class MatchError(BoardproofError):
    """A player that cannot play on: a GTP engine that died, refused a command or
    answered a move that is not legal."""


# ---------------------------------------------------------------------------
# settings
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EngineSpec:
    """boardproof's engine: a budget a move (``seconds`` or ``iterations``), a seed, and
    the further keyword arguments of :func:`~boardproof.solvers.analyse.analyse`
    (``options``: ``exact``, ``playout``, ``engine``), and the native engine's settings
    as given (``tuning``: ``threads``, ``hash``, ...)."""

    seconds: float | None = None
    iterations: int | None = None
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    tuning: dict[str, str] = field(default_factory=dict)

    def engine_settings(self) -> EngineSettings:
        """The native engine's settings (its seed is the game's, set by ``analyse``)."""
        from boardproof.solvers.native_mcts import EngineSettings

        return EngineSettings().with_options(self.tuning)

    def describe(self) -> str:
        """The settings as ``--a`` takes them."""
        parts = [f"time={self.seconds:g}"] if self.seconds is not None else []
        if self.iterations is not None:
            parts.append(f"iterations={self.iterations}")
        if self.seed:
            parts.append(f"seed={self.seed}")
        for key, value in self.options.items():
            parts.append(f"{key}={_text(value)}")
        parts.extend(f"{key}={value}" for key, value in self.tuning.items())
        return ",".join(parts) or f"time={DEFAULT_SECONDS:g}"


@dataclass(frozen=True)
class GtpSpec:
    """An external GTP engine: the command line that starts it."""

    command: tuple[str, ...]

    def describe(self) -> str:
        return "gtp:" + shlex.join(self.command)


PlayerSpec = EngineSpec | GtpSpec


def _text(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _seconds(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(text)
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def _yes_no(text: str) -> bool:
    word = text.lower()
    if word in ("yes", "true", "1", "on"):
        return True
    if word in ("no", "false", "0", "off"):
        return False
    raise ValueError(text)


def _playout(text: str) -> str:
    from boardproof.solvers.playouts import MODES

    if text not in MODES:
        raise ValueError(text)
    return text


def _engine(text: str) -> str:
    from boardproof.solvers.analyse import ENGINES

    if text not in ENGINES:
        raise ValueError(text)
    return text


def _tuning_names() -> tuple[str, ...]:
    """The native engine's settings a player may give (``hash`` for ``hash_mb``; the seed
    is the match's)."""
    from boardproof.solvers.native_mcts import EngineSettings

    names = [name for name in EngineSettings.__dataclass_fields__ if name != "seed"]
    return tuple("hash" if name == "hash_mb" else name for name in names)


#: the engine settings: key -> (what it expects, its reader, the EngineSpec field or the
#: keyword of ``analyse`` it becomes); a new keyword of ``analyse`` is one more entry here
SETTINGS: dict[str, tuple[str, Callable[[str], Any], str]] = {
    "time": ("a number of seconds > 0", _seconds, "seconds"),
    "iterations": ("a whole number >= 1", _positive, "iterations"),
    "seed": ("a whole number", int, "seed"),
    "exact": ("yes or no", _yes_no, "exact"),
    "playout": ("auto, native or python", _playout, "playout"),
    "engine": ("auto, native or python", _engine, "engine"),
}
_FIELDS = ("seconds", "iterations", "seed")


def parse_settings(text: str, option: str) -> PlayerSpec:
    """A player's settings (see the module doc); bad ones raise InvalidOptionError
    naming ``option`` (``--a``) and the text."""
    if text.startswith("gtp:"):
        try:
            command = tuple(shlex.split(text[4:]))
        except ValueError as error:
            raise InvalidOptionError(
                f"invalid option {option}: cannot read the command line ({error}): {text!r}"
            ) from None
        if not command:
            raise InvalidOptionError(
                f"invalid option {option}: expected a command line after gtp:, got {text!r}"
            )
        return GtpSpec(command)
    values: dict[str, Any] = {}
    tuning: dict[str, str] = {}
    tunable = _tuning_names()
    for item in text.split(","):
        key, equals, value = (part.strip() for part in item.partition("="))
        if key in tunable:
            _tune(tuning, key, value if equals else "", option, text)
            continue
        if key not in SETTINGS:
            known = ", ".join(SETTINGS) + f", a native engine setting ({', '.join(tunable)})"
            what = (f"unknown setting {key!r} (expected {known}, or gtp:COMMAND)" if key
                    else f"expected KEY=VALUE settings ({known}) or gtp:COMMAND")  # fmt: skip
            raise InvalidOptionError(f"invalid option {option}: {what}, got {text!r}")
        expected, read, name = SETTINGS[key]
        if key in values or name in values:
            raise InvalidOptionError(f"invalid option {option}: {key} given twice, got {text!r}")
        try:
            if not equals:
                raise ValueError(value)
            values[name] = read(value)
        except ValueError:
            raise InvalidOptionError(
                f"invalid option {option}: {key} expects {expected}, got {text!r}"
            ) from None
    if "seconds" in values and "iterations" in values:
        raise InvalidOptionError(
            f"invalid option {option}: time and iterations together (give one), got {text!r}"
        )
    options = {name: value for name, value in values.items() if name not in _FIELDS}
    return EngineSpec(values.get("seconds"), values.get("iterations"), values.get("seed", 0),
                      options, tuning)  # fmt: skip


def _tune(tuning: dict[str, str], key: str, value: str, option: str, text: str) -> None:
    """Add the native engine setting ``key=value`` to ``tuning``, checked."""
    from boardproof.solvers.native_mcts import EngineSettings

    if key in tuning:
        raise InvalidOptionError(f"invalid option {option}: {key} given twice, got {text!r}")
    try:
        EngineSettings().with_options({key: value})
    except InvalidOptionError as error:
        why = str(error).removeprefix("invalid option ").removeprefix("engine ")
        raise InvalidOptionError(f"invalid option {option}: {why} (in {text!r})") from None
    tuning[key] = value


def check_command(spec: PlayerSpec, option: str) -> None:
    """Refuse, before any game, a GTP command whose program cannot be found."""
    if isinstance(spec, GtpSpec) and shutil.which(spec.command[0]) is None:
        raise InvalidOptionError(
            f"invalid option {option}: no such program {spec.command[0]!r}: "
            f"{quoted(spec.describe())}"
        )


# ---------------------------------------------------------------------------
# players
# ---------------------------------------------------------------------------


class Player(Protocol):
    """One side of a game. ``new_game`` sets the start, ``play`` makes a move of the
    other side (or of the opening), ``genmove`` chooses this side's move and makes it;
    ``close`` frees what the player holds (a process)."""

    def new_game(self, position: Position) -> None: ...

    def play(self, move: Any) -> None: ...

    def genmove(self) -> Any:
        """This side's move (made), or None when it resigns."""
        ...

    def close(self) -> None: ...


class EnginePlayer:
    """boardproof's anytime engine (:func:`~boardproof.solvers.analyse.analyse`) in this
    process, with a fixed seed for the game; a native tree is kept from move to move and
    follows the moves played (as ``boardproof gtp`` keeps it)."""

    def __init__(self, spec: EngineSpec, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self.settings = spec.engine_settings()
        self.position: Position | None = None
        self.tree: Any = None

    def new_game(self, position: Position) -> None:
        self.position = position
        self.tree = None

    def play(self, move: Any) -> None:
        assert self.position is not None
        self._follow(move)
        self.position = self.position.play(move)

    def _follow(self, move: Any) -> None:
        """Move the kept tree along with ``move``; a tree that cannot follow is dropped."""
        if self.tree is not None:
            try:
                self.tree.advance(move)
            except ValueError:
                self.tree = None

    def genmove(self) -> Any:
        from boardproof.solvers.analyse import analyse

        assert self.position is not None
        seconds = self.spec.seconds
        if seconds is None and self.spec.iterations is None:
            seconds = DEFAULT_SECONDS
        kept = self.tree if self.tree is not None and self.tree.root_position == self.position \
            else None  # fmt: skip
        found = analyse(self.position, seconds=seconds, iterations=self.spec.iterations,
                        seed=self.seed, multipv=1, proof=False, settings=self.settings,
                        tree=kept, **self.spec.options)  # fmt: skip
        self.tree = found.tree if hasattr(found.tree, "advance") else None
        self._follow(found.best_move)
        self.position = self.position.play(found.best_move)
        return found.best_move

    def close(self) -> None:
        self.position = None
        self.tree = None


class GtpPlayer:
    """An engine in another process, spoken to in GTP version 2 over its pipes.

    ``new_game`` sends ``boardsize`` (for a game with a GTP board) and ``clear_board``;
    the engine must start from the match's start position (give it the same game
    options). A ``?`` answer, a closed output, or a move that is not legal here raises
    :class:`MatchError` naming ``label``, the command and the answer.
    """

    def __init__(self, spec: GtpSpec, game: Game, label: str) -> None:
        self.spec = spec
        self.label = label
        self.board: GtpBoard | None = game.info.part("gtp")
        self.position: Position | None = None
        self.next_id = 1
        self.pending = b""  # what the engine wrote after the last line read
        # the engine's standard error, read back for the last line when it fails
        self.errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        try:
            self.process = subprocess.Popen(
                list(spec.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self.errors, bufsize=0,
            )  # fmt: skip
        except OSError as error:
            self.errors.close()
            raise MatchError(
                f"invalid option {label}: cannot start the GTP engine "
                f"({error.strerror or error}): {quoted(spec.describe())}"
            ) from None

    def _fail(self, why: str) -> MatchError:
        return MatchError(f"invalid option {self.label}: the GTP engine {why}: "
                          f"{quoted(self.spec.describe())}")  # fmt: skip

    def _readline(self, command: str, timeout: float | None) -> str:
        """The engine's next line (without its end); ``timeout`` seconds at most."""
        stdout = self.process.stdout
        assert stdout is not None
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            ready, _, _ = select.select([stdout], [], [], left)
            if not ready:
                raise self._fail(f"gave no answer to {command!r} within {timeout:g} s")
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                raise self._fail(f"stopped at {command!r}{self._last_error()}")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")

    def send(self, command: str) -> str:
        """The answer to ``command`` (its text after ``=``); a failure raises MatchError.
        Only ``genmove`` may take longer than :data:`ANSWER_SECONDS`."""
        stdin = self.process.stdin
        assert stdin is not None
        ident = self.next_id
        self.next_id += 1
        try:
            stdin.write(f"{ident} {command}\n".encode())
            stdin.flush()
        except OSError:
            raise self._fail(f"stopped at {command!r}{self._last_error()}") from None
        timeout = None if command.startswith("genmove") else ANSWER_SECONDS
        lines: list[str] = []
        while True:
            line = self._readline(command, timeout)
            if not line and lines:
                break
            if line:
                lines.append(line)
        head, _, rest = lines[0].partition(" ")
        if head[:1] not in ("=", "?") or head[1:] not in ("", str(ident)):
            raise self._fail(f"answered {lines[0]!r} to {command!r}, not a GTP answer")
        text = "\n".join([rest.strip(), *lines[1:]]).strip()
        if head[0] == "?":
            raise self._fail(f"answered '? {text}' to {command!r}")
        return text

    def _last_error(self) -> str:
        """`` (LINE)``: the last line the engine wrote on its standard error, or ''."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=STOP_SECONDS)
        self.errors.seek(0)
        lines = [x.strip() for x in self.errors.read().decode("utf-8", "replace").splitlines()]
        lines = [x for x in lines if x]
        return f" ({lines[-1][:200]})" if lines else ""

    def _colour(self) -> str:
        assert self.position is not None
        return self.position.game.symbol(self.position.to_move)

    def new_game(self, position: Position) -> None:
        self.position = position
        if self.board is not None:
            self.send(f"boardsize {self.board.size(position)}")
        self.send("clear_board")

    def play(self, move: Any) -> None:
        assert self.position is not None
        text = str(move)
        vertex = self.board.vertex(self.position, text) if self.board is not None else text
        self.send(f"play {self._colour()} {vertex}")
        self.position = self.position.play(move)

    def genmove(self) -> Any:
        assert self.position is not None
        command = f"genmove {self._colour()}"
        answer = self.send(command)
        if answer.lower() == RESIGN:
            return None
        try:
            text = self.board.move(self.position, answer) if self.board is not None else answer
            move = self.position.parse_move(text)
            self.position = self.position.play(move)
        except BoardproofError as error:
            why = str(error).splitlines()[0]
            raise self._fail(
                f"answered {answer!r} to {command!r}, not a legal move ({why})"
            ) from None
        return move

    def close(self) -> None:
        """Send ``quit`` and wait a moment; an engine that does not stop is killed."""
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(f"{self.next_id} quit\n".encode())
                self.process.stdin.close()
                self.process.wait(timeout=STOP_SECONDS)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None and not stream.closed:
                with contextlib.suppress(OSError):
                    stream.close()
        self.errors.close()


def make_player(spec: PlayerSpec, game: Game, label: str, seed: int) -> Player:
    """The player of ``spec`` for one game (``seed``: an engine's seed for the game)."""
    if isinstance(spec, GtpSpec):
        return GtpPlayer(spec, game, label)
    return EnginePlayer(spec, seed)


def check_engine(spec: PlayerSpec, start: Position, label: str) -> None:
    """Try a player once, before the match: engine settings the game refuses (native
    playouts where it has none) raise InvalidOptionError; a GTP engine is started and set
    up at the start position, and a command line that does not start a GTP engine of this
    game raises MatchError."""
    if isinstance(spec, EngineSpec):
        from boardproof.solvers.analyse import analyse

        try:  # one iteration, no exact search: only the settings are checked
            analyse(start, iterations=1, multipv=1, proof=False, settings=spec.engine_settings(),
                    **{**spec.options, "exact": False})  # fmt: skip
        except InvalidOptionError as error:
            why = str(error).removeprefix("invalid option ")
            raise InvalidOptionError(
                f"invalid option {label}: {why}: {spec.describe()!r}"
            ) from None
        return
    player = GtpPlayer(spec, start.game, label)
    try:
        player.send("protocol_version")
        player.new_game(start)
    finally:
        player.close()


__all__ = [
    "RESIGN", "EnginePlayer", "EngineSpec", "GtpPlayer", "GtpSpec", "MatchError", "Player",
    "PlayerSpec", "check_command", "check_engine", "make_player", "parse_settings",
]  # fmt: skip
