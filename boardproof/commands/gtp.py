"""``boardproof gtp GAME``: the engine over the Go Text Protocol (:mod:`boardproof.gtp`)."""

from __future__ import annotations

import sys
from typing import Any

import click

from boardproof.commands.common import (
    SECONDS,
    engine_options,
    game_options,
    load_game,
    start_options_apart,
)
from boardproof.gtp.engine import GtpEngine
from boardproof.models.base import InvalidOptionError


@click.command(name="gtp")
@click.argument("game")
@click.option("--time", "seconds", type=SECONDS, default=None,
              help="Seconds per move when the controller sets no clock [1].")  # fmt: skip
@click.option("--iterations", type=int, default=None,
              help="Iterations per move instead of a time (with --seed: the same moves on "
                   "every machine).")  # fmt: skip
@click.option("--engine-seed", "engine_seed", type=int, default=0, show_default=True,
              help="The engine's seed (--seed is a start option of ColleXion).")
@engine_options
@game_options
@start_options_apart
def gtp_command(game: str, seconds: float | None, iterations: int | None, engine_seed: int,
                options: dict[str, Any], start: dict[str, Any], engine: str,
                settings: Any) -> None:  # fmt: skip
    """Speak GTP version 2 on standard input and output, as GAME's engine.

    Minefield's moves are GTP vertices (columns A-Z without I, rows from the bottom; the
    notation's i5 is J5) plus swap and pass, and GoGui's rules-engine commands let GoGui
    host the game; the other games' moves are their notation. See docs/commands.md.

    \b
    Example:
      boardproof gtp minefield --size 9 --time 2
    """
    if seconds is not None and iterations is not None:
        raise InvalidOptionError(
            "invalid option --time: not together with option --iterations (give one)")
    if iterations is not None and iterations < 1:
        raise InvalidOptionError(f"invalid option --iterations: expected >= 1, got {iterations}")
    load_game(game, **options).start(**start)  # bad options refused before the protocol
    player = GtpEngine(game, options, start, seconds=seconds, iterations=iterations,
                       seed=engine_seed, engine=engine, settings=settings)  # fmt: skip
    for line in sys.stdin:
        answer = player.handle(line)
        if answer:
            sys.stdout.write(answer)
            sys.stdout.flush()
        if player.finished:
            return
