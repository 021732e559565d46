"""The foundation commands of every game: ``games``, ``show``, ``moves``, ``new``,
``play`` and ``perft``."""

from __future__ import annotations

from typing import Any

import click

from boardproof import models
from boardproof.commands.common import (
    echo_json,
    game_options,
    load_game,
    load_position,
    start_options,
)
from boardproof.models.base import divide, perft, play_line, result_fields


@click.command(name="games")
def games() -> None:
    """List the games and their aliases."""
    for name in models.names():
        info = models.info(name)
        alias = ", ".join(info.aliases)
        note = f" (alias: {alias})" if alias else ""
        click.echo(f"{name:<11} {info.summary}{note}")


@click.command(name="show")
@click.argument("game")
@click.argument("position")
@click.option(
    "--svg", "svg_file", type=click.Path(dir_okay=False), help="Also write an SVG picture."
)
@game_options
def show(game: str, position: str, svg_file: str | None, options: dict[str, Any]) -> None:
    """Draw POSITION as a text board (and optionally an SVG file)."""
    pos = load_position(game, position, **options)
    click.echo(pos.board_text())
    click.echo(f"position: {pos.fen()}")
    fields = result_fields(pos)
    if fields["result"] == "ongoing":
        click.echo(f"to move: {pos.game.symbol(pos.to_move)}")
    elif fields["result"] == "win":
        click.echo(f"result: won by {fields['winner']}")
    else:
        click.echo("result: draw")
    for problem in pos.status():
        click.echo(f"status: {problem}")
    if svg_file:
        with open(svg_file, "w", encoding="utf-8") as handle:
            handle.write(pos.game.info.draw(pos))
        click.echo(f"wrote {svg_file}")


@click.command(name="moves")
@click.argument("game")
@click.argument("position")
@game_options
def moves(game: str, position: str, options: dict[str, Any]) -> None:
    """List the legal moves of POSITION, one per line, in canonical order."""
    pos = load_position(game, position, **options)
    for move in pos.legal_moves():
        click.echo(str(move))


@click.command(name="new")
@click.argument("game")
@start_options
def new(game: str, options: dict[str, Any]) -> None:
    """Print a start position of GAME (options a game does not take are refused)."""
    click.echo(load_game(game).start(**options).fen())


@click.command(name="play")
@click.argument("game")
@click.argument("position")
@click.argument("move", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object.")
@game_options
def play(
    game: str, position: str, move: tuple[str, ...], as_json: bool, options: dict[str, Any]
) -> None:
    """Play MOVE... from POSITION and print the resulting position."""
    pos = play_line(load_position(game, position, **options), move)
    if as_json:
        echo_json({"position": pos.fen(), **result_fields(pos)})
    else:
        click.echo(pos.fen())


@click.command(name="perft")
@click.argument("game")
@click.argument("position")
@click.argument("depth", type=click.IntRange(min=0))
@click.option("--divide", "show_divide", is_flag=True, help="Print the count below each move.")
@game_options
def perft_command(
    game: str, position: str, depth: int, show_divide: bool, options: dict[str, Any]
) -> None:
    """Count the leaves of the legal-move tree of DEPTH plies."""
    pos = load_position(game, position, **options)
    if show_divide and depth >= 1:
        rows = divide(pos, depth)
        for name, count in rows:
            click.echo(f"{name}: {count}")
        click.echo(str(sum(count for _, count in rows)))
    else:
        click.echo(str(perft(pos, depth)))
