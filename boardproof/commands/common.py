"""What the commands share: the game options (read from every game's descriptor),
loading a game or a position, JSON output and the common option checks.

The options a game declares (:class:`~boardproof.models.base.OptionInfo`) become
command-line flags here, so a new game's options reach every command without
touching one: ``game_options`` adds the game-scope ones (``--win``), and
``start_options`` the ``start()`` ones of ``boardproof new`` (``--size``,
``--players``…). A game that does not take a given option refuses it, in the
one wording of :func:`boardproof.models.base.check_options`.

>>> [spec.cli_flag for spec in cli_specs("game")]
['--win']
>>> [spec.cli_flag for spec in cli_specs("start")]
['--size', '--players', '--no-pie', '--variant', '--seed']
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import click

from boardproof import models
from boardproof.models.base import Game, InvalidOptionError, OptionInfo, Position


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
    metavar = "N" if spec.type is int else spec.name.upper()
    return click.option(spec.cli_flag, spec.name, type=kind, default=None, metavar=metavar,
                        help=_help(spec))  # fmt: skip


def _collect(scope: str) -> Callable[[Any], Any]:
    """A decorator: the ``scope`` options become flags, handed over as ``options``."""
    specs = cli_specs(scope)

    def decorate(func: Callable[..., Any]) -> Any:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            options = {}
            for spec in specs:
                value = kwargs.pop(spec.name)
                if value is not None:
                    options[spec.name] = value
            return func(*args, options=options, **kwargs)

        command: Any = wrapper
        for spec in reversed(specs):
            command = _click_option(spec)(command)
        return command

    return decorate


#: the game-scope options (``--win``…) as flags; the command gets them as ``options``
game_options = _collect("game")
#: the ``start()`` options (``--size``, ``--players``…); the command gets ``options``
start_options = _collect("start")


def win_option(func: Any) -> Any:
    """``--win RULE`` passed as ``win`` (kept for commands written before ``game_options``)."""
    return click.option("--win", "win", default=None, metavar="RULE",
                        help="Minefield: 'orthogonal' (rulebook, default) or "
                             "'orthodiagonal'.")(func)  # fmt: skip


def load_game(name: str, win: str | None = None, **options: Any) -> Game:
    """The game ``name`` with the command-line game options applied."""
    if win is not None:
        options["win"] = win
    game: Game = models.get(name, **options)
    return game


def load_position(game_name: str, text: str, win: str | None = None, **options: Any) -> Position:
    """Parse ``text`` as a position of ``game_name``."""
    return load_game(game_name, win, **options).parse_position(text)


def echo_json(data: Any) -> None:
    """Print ``data`` as one JSON object (keys in the given order)."""
    click.echo(json.dumps(data, sort_keys=False))


def check_workers(workers: int, scheduler: str | None = None) -> None:
    """``--workers`` is >= 1, and ``--scheduler`` is not combined with it.

    >>> check_workers(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof...InvalidOptionError: invalid option --workers: expected a number >= 1, got 0
    """
    if workers < 1:
        raise InvalidOptionError(
            f"invalid option --workers: expected a number >= 1, got {workers!r}"
        )
    if scheduler is not None and workers != 1:
        raise InvalidOptionError(
            "invalid option --scheduler: give --workers or --scheduler, not both: "
            f"{scheduler!r}"
        )
