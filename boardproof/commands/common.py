"""What the commands share: the game options (read from every game's descriptor),
loading a game or a position, JSON output and the common option checks.

The options a game declares (:class:`~boardproof.models.base.OptionInfo`) become
command-line flags here, so a new game's options reach every command without
touching one: ``game_options`` adds the game-scope ones (``--win``), and
``start_options`` the ``start()`` ones of ``boardproof new`` (``--size``,
``--players``…). A game that does not take a given option refuses it, in the
one wording of :func:`boardproof.models.base.check_options`.

>>> [spec.cli_flag for spec in cli_specs("game")]
['--win', '--variant']
>>> [spec.cli_flag for spec in cli_specs("start")]
['--size', '--players', '--no-pie', '--variant', '--seed']
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import click

from boardproof import models
from boardproof.models.base import (
    BoardproofError,
    Game,
    InvalidOptionError,
    OptionInfo,
    Position,
    impossible_message,
    quoted,
)

if TYPE_CHECKING:
    from boardproof.jobs.executor import Executor


def cli_specs(scope: str) -> list[OptionInfo]:
    """The command-line options of ``scope`` over every registered game (first wins)."""
    seen: dict[str, OptionInfo] = {}
    for name in models.names():
        for spec in models.info(name).options:
            if spec.scope == scope and spec.cli and spec.name not in seen:
                seen[spec.name] = spec
    return list(seen.values())


def _help(spec: OptionInfo) -> str:
    """The help of an option: what each game that has it says about it."""
    parts = []
    for name in models.names():
        for other in models.info(name).options:
            if other.name == spec.name and other.scope == spec.scope and other.cli:
                parts.append(f"{name}: {other.help}")
    return "; ".join(parts) + "."


def _click_option(spec: OptionInfo) -> Callable[[Any], Any]:
    if spec.type is bool:
        # a flag that turns the (default True) option off, e.g. --no-pie
        return click.option(spec.cli_flag, spec.name, flag_value=not spec.default, default=None,
                            help=_help(spec))  # fmt: skip
    kind: Any = click.INT if spec.type is int else click.STRING
    metavar = spec.metavar or ("N" if spec.type is int else spec.name.upper())
    return click.option(spec.cli_flag, spec.name, type=kind, default=None, metavar=metavar,
                        help=_help(spec))  # fmt: skip


def _takes(game: Any, name: str, scope: str) -> bool:
    """Whether the game called ``game`` declares the option ``name`` in ``scope``."""
    try:
        specs = models.info(str(game)).options
    except ValueError:  # an unknown game: the command refuses it later
        return False
    return any(spec.name == name and spec.scope == scope for spec in specs)


def _collect(scope: str, into: str = "options") -> Callable[[Any], Any]:
    """A decorator: the ``scope`` options become flags, handed over as ``into``.

    A name that a decorator applied before (below) this one declared already is one flag
    (``--variant``: ColleXion's start option, Minefield's game option): its value is
    handed over here when the command's GAME declares it in ``scope``, else left there.
    """
    specs = cli_specs(scope)

    def decorate(func: Callable[..., Any]) -> Any:
        taken = {param.name for param in getattr(func, "__click_params__", ())}
        mine = [spec for spec in specs if spec.name not in taken]
        shared = [spec.name for spec in specs if spec.name in taken]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            options = {}
            for spec in mine:
                value = kwargs.pop(spec.name, None)
                if value is not None:
                    options[spec.name] = value
            for name in shared:
                if kwargs.get(name) is not None and _takes(kwargs.get("game"), name, scope):
                    options[name] = kwargs.pop(name)
            return func(*args, **{into: options}, **kwargs)

        command: Any = wrapper
        for spec in reversed(mine):
            command = _click_option(spec)(command)
        return command

    return decorate


#: the game-scope options (``--win``…) as flags; the command gets them as ``options``
game_options = _collect("game")
#: the ``start()`` options (``--size``, ``--players``…); the command gets ``options``
start_options = _collect("start")
#: the same, handed over as ``start`` (for a command that takes the game options too)
start_options_apart = _collect("start", into="start")


def load_game(name: str, **options: Any) -> Game:
    """The game ``name`` with the command-line game options applied."""
    game: Game = models.get(name, **options)
    return game


def load_position(
    game_name: str,
    text: str,
    *,
    allow_impossible: bool | None = None,
    **options: Any,
) -> Position:
    """Parse ``text`` as a position of ``game_name``.

    With ``allow_impossible`` given (the commands that analyse a position), a position
    that cannot occur in a game (``status()`` is not empty) is refused, unless it is
    True: then a warning on stderr says that it is analysed anyway.
    """
    pos = load_game(game_name, **options).parse_position(text)
    if allow_impossible is not None:
        check_possible(pos, allow_impossible)
    return pos


class ImpossiblePositionError(BoardproofError):
    """A position that parses but cannot occur in a game, given to an analysing command."""


def check_possible(pos: Position, allow_impossible: bool, where: str = "") -> None:
    """Refuse (exit 2) a position whose ``status()`` has problems, or warn if allowed.

    ``where`` names the position in a longer input (``review``'s record).
    """
    message = impossible_message(pos, where)
    if message is None:
        return
    if not allow_impossible:
        raise ImpossiblePositionError(f"{message} (--allow-impossible analyses it anyway)")
    place = f" {where}:" if where else ""
    click.echo(
        f"warning: impossible position{place} ({'; '.join(pos.status())}); analysed anyway "
        "because of --allow-impossible",
        err=True,
    )


def allow_impossible_option(func: Any) -> Any:
    """``--allow-impossible``: analyse a position that ``show`` flags as impossible."""
    return click.option(
        "--allow-impossible",
        "allow_impossible",
        is_flag=True,
        help="Analyse a position that cannot occur in a game (show lists why); "
        "a warning says so.",
    )(func)


def check_output_path(path: str | None, option: str, *, folder: bool = False) -> None:
    """Refuse, before any work, an output ``path`` that cannot be written (exit 2).

    >>> check_output_path("", "--svg")
    Traceback (most recent call last):
        ...
    boardproof.models.base.InvalidOptionError: invalid option --svg: expected a file name, got ''
    """
    if path is None:
        return
    kind = "folder" if folder else "file"
    if not path.strip():
        raise InvalidOptionError(f"invalid option {option}: expected a {kind} name, got {path!r}")
    target = os.path.abspath(path)
    if folder and os.path.exists(target) and not os.path.isdir(target):
        raise InvalidOptionError(f"invalid option {option}: not a folder: {quoted(path)}")
    if not folder and os.path.isdir(target):
        raise InvalidOptionError(f"invalid option {option}: is a folder: {quoted(path)}")
    existing = target
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not folder and existing != target and existing != os.path.dirname(target):
        missing = os.path.dirname(target)
        raise InvalidOptionError(
            f"invalid option {option}: no such folder {quoted(missing)}: {quoted(path)}"
        )
    if not os.path.isdir(existing) and existing != target:
        raise InvalidOptionError(f"invalid option {option}: not a folder: {quoted(existing)}")
    try:
        if existing == target and not folder:
            _probe_file(target)
        else:
            _probe_folder(existing)
    except OSError as error:
        raise InvalidOptionError(
            f"invalid option {option}: cannot write ({error.strerror or error}): {quoted(path)}"
        ) from None


def _probe_file(target: str) -> None:
    """Raise the OSError a write to the existing file ``target`` would meet, writing
    nothing: opened for appending (never truncated), then a write of zero bytes, which
    fails on ``/dev/full`` (ENOSPC) as a real one would. A pipe is left alone."""
    if stat.S_ISFIFO(os.stat(target).st_mode):
        return
    handle = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
    try:
        os.write(handle, b"")
    finally:
        os.close(handle)


def _probe_folder(folder: str) -> None:
    """Raise the OSError that creating a file in ``folder`` meets: a file is created and
    removed at once (``os.access`` says yes to root on a read-only or virtual folder)."""
    import tempfile

    handle, name = tempfile.mkstemp(prefix=".boardproof-probe-", dir=folder)
    os.close(handle)
    os.unlink(name)


def check_stdout() -> None:
    """Refuse, before any work, a standard output that cannot be written (``> /dev/full``):
    a write of zero bytes meets the error a real one would (exit 2)."""
    try:
        handle = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # no file behind it (a test's capture)
        return
    try:
        os.write(handle, b"")
    except OSError as error:
        raise InvalidOptionError(
            f"invalid output: cannot write the standard output ({error.strerror or error})"
        ) from None


def json_option(func: Any) -> Any:
    """``--json``: print one JSON object instead of text."""
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(func)


def echo_json(data: Any) -> None:
    """Print ``data`` as one JSON object (keys in the given order)."""
    click.echo(json.dumps(data, sort_keys=False))


def check_workers(workers: int, scheduler: str | None = None) -> None:
    """``--workers`` is >= 1, and ``--scheduler`` is not combined with it.

    >>> check_workers(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof...InvalidOptionError: invalid option --workers: expected 1 to 256, got 0
    """
    from boardproof.jobs.executor import MAX_LOCAL_WORKERS

    if not 1 <= workers <= MAX_LOCAL_WORKERS:
        raise InvalidOptionError(
            f"invalid option --workers: expected 1 to {MAX_LOCAL_WORKERS}, got {workers!r}"
        )
    if scheduler is not None and workers != 1:
        raise InvalidOptionError(
            "invalid option --scheduler: give --workers or --scheduler, not both: "
            f"{scheduler!r}"
        )


class Seconds(click.ParamType):
    """A time limit: a finite number of seconds > 0 (``nan`` and ``inf`` are refused)."""

    name = "seconds"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"expected a number of seconds > 0, got {quoted(str(value))}", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"expected a number of seconds > 0, got {quoted(str(value))}", param, ctx)
        return seconds


SECONDS = Seconds()


def per_size(text: str, option: str, sizes: list[int], convert: Callable[[str], Any], *,
             expected: str, check: Callable[[Any], str | None] = lambda value: None,
             ) -> dict[int, Any]:  # fmt: skip
    """``V`` (every size) or ``V,SIZE=W,...`` (SIZE gets W): one value per size of
    ``sizes``, each ``convert``-ed (a ValueError: not such a value) and ``check``-ed (a
    message: out of range).

    >>> per_size("6,7=0", "--depth", [6, 7], int, expected="whole numbers")
    {6: 6, 7: 0}
    >>> per_size("7=0", "--depth", [6, 7], int, expected="whole numbers")
    Traceback (most recent call last):
    ...
    boardproof.models.base.InvalidOptionError: invalid option --depth: no value for 6x6 \
(give N or N,SIZE=M), got '7=0'
    """
    default: Any = None
    given: dict[int, Any] = {}
    for item in text.split(","):
        key, equals, value = (part.strip() for part in item.rpartition("="))
        try:
            number = convert(value)
            size = int(key) if equals else None
        except ValueError:
            raise InvalidOptionError(
                f"invalid option {option}: expected N or N,SIZE=M ({expected}), got {text!r}"
            ) from None
        problem = check(number)
        if problem is not None:
            raise InvalidOptionError(f"invalid option {option}: {problem}, got {text!r}")
        if size is None:
            default = number
        else:
            given[size] = number
    missing = [n for n in sizes if n not in given and default is None]
    if missing:
        raise InvalidOptionError(
            f"invalid option {option}: no value for {missing[0]}x{missing[0]} "
            f"(give N or N,SIZE=M), got {text!r}"
        )
    extra = sorted(set(given) - set(sizes))
    if extra:
        raise InvalidOptionError(
            f"invalid option {option}: size {extra[0]} is not in --sizes, got {text!r}"
        )
    return {n: given.get(n, default) for n in sizes}


@contextlib.contextmanager
def live_search_status() -> Iterator[Callable[[], str]]:
    """While active, a function that says how far the search running now has got: the
    node count the Python searches report, or the native (C) searches' live count and
    depth (their hook, :mod:`boardproof.solvers.native.hook`). For :class:`Heartbeat`.
    """
    from boardproof.solvers.common import LIVE_NODES
    from boardproof.solvers.native.hook import live_nodes

    LIVE_NODES[0] = 0
    native = [0, 0]
    python = [0]

    def hook(nodes: int, depth: int) -> None:
        native[0], native[1] = nodes, depth

    def status() -> str:  # the count that moved last (a solve may use both kinds)
        if LIVE_NODES[0] != python[0]:
            python[0] = LIVE_NODES[0]
            native[0] = 0
        if native[0]:
            depth = f", depth {native[1]}" if native[1] else ""
            return f"{native[0]:,} nodes in the native search{depth}"
        return f"{python[0]:,} nodes searched" if python[0] else ""

    with live_nodes(hook):
        yield status


class Heartbeat:
    """Progress on stderr for a long step that has no finer progress of its own.

    After ``after`` seconds, and every ``every`` seconds then, it writes what is being
    done and the elapsed time: on a terminal on one line that is rewritten, otherwise
    one plain line each time. Use as a context manager around the work.
    """

    def __init__(
        self,
        what: str,
        *,
        after: float = 2.0,
        every: float = 5.0,
        status: Callable[[], str] | None = None,
    ) -> None:
        import threading

        self.what = what
        self.status = status
        self.after = after
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._start = 0.0
        self._shown = False

    def __enter__(self) -> Heartbeat:
        import time

        self._start = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        import sys

        self._stop.set()
        self._thread.join()
        if self._shown and sys.stderr.isatty():
            sys.stderr.write("\n")
            sys.stderr.flush()

    def _run(self) -> None:
        import sys
        import time

        wait = self.after
        while not self._stop.wait(wait):
            elapsed = time.perf_counter() - self._start
            line = f"{self.what}: {elapsed:.0f} s elapsed"
            extra = self.status() if self.status is not None else ""
            if extra:
                line += f", {extra}"
            if sys.stderr.isatty():
                sys.stderr.write("\r" + line + "\x1b[K")  # rewritten, the old tail cleared
            else:
                sys.stderr.write(line + "\n")
            sys.stderr.flush()
            self._shown = True
            wait = self.every


def backend_options(executor: Executor) -> str:
    """How the command line names the back end: `` --workers N`` or `` --scheduler ADDR``."""
    if executor.scheduler is not None:
        return f" --scheduler {executor.scheduler}"
    return f" --workers {executor.workers}"


def run_summary(executor: Executor) -> str:
    """The console's last line about the back end (the default keeps its old form)."""
    if executor.scheduler is None:
        return f"workers: {executor.workers}"
    info = executor.last
    return info.summary() if info is not None else executor.describe()


def engine_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--engine``, ``--threads`` and ``--hash``: which tree the anytime engine grows and
    the native engine's settings, passed to the command as ``engine`` and ``settings``."""
    from boardproof.solvers.analyse import ENGINES
    from boardproof.solvers.native_mcts import EngineSettings

    @functools.wraps(command)
    def wrapper(*args: Any, threads: int, hash_mb: int, **kwargs: Any) -> Any:
        settings = EngineSettings().with_options({"threads": threads, "hash": hash_mb})
        return command(*args, settings=settings, **kwargs)

    default = EngineSettings()
    for option in reversed([
        click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
                     help="The tree: the native (C) engine where the game has one (auto), "
                          "or the Python one."),
        click.option("--threads", type=int, default=default.threads, show_default=True,
                     help="Threads of the native engine (1: the same moves on every machine "
                          "with --iterations)."),
        click.option("--hash", "hash_mb", type=int, default=default.hash_mb,
                     show_default=True, help="Megabytes of the native engine's tree."),
    ]):  # fmt: skip
        wrapper = option(wrapper)
    return wrapper
