"""The foundation commands of every game: ``games``, ``show``, ``moves``, ``new``,
``play`` and ``perft``."""

from __future__ import annotations

from typing import Any

import click

from boardproof.commands.common import (
    allow_impossible_option,
    check_output_path,
    echo_json,
    game_options,
    json_option,
    load_game,
    load_position,
    quoted,
    start_options_apart,
)
from boardproof.commands.payloads import (
    games_payload,
    moves_payload,
    perft_payload,
    position_payload,
    show_payload,
)
from boardproof.models.base import InvalidOptionError, divide, perft, play_line, result_fields


@click.command(name="games")
@json_option
def games(as_json: bool) -> None:
    """List the games and their aliases.

    \b
    Example:
      boardproof games --json
    """
    if as_json:
        echo_json(games_payload())
        return
    for entry in games_payload():
        alias = ", ".join(entry["aliases"])
        note = f" (alias: {alias})" if alias else ""
        click.echo(f"{entry['name']:<11} {entry['description']}{note}")


@click.command(name="show")
@click.argument("game")
@click.argument("position")
@click.option(
    "--svg", "svg_file", type=click.Path(dir_okay=False), help="Also write an SVG picture."
)
@game_options
@json_option
def show(
    game: str, position: str, svg_file: str | None, options: dict[str, Any], as_json: bool
) -> None:
    """Draw POSITION as a text board (and optionally an SVG file).

    Positions that parse but cannot occur in a game get a 'status:' line each.

    \b
    Example:
      boardproof show minefield "5/5/2b2/5/5 w p" --svg board.svg
    """
    check_output_path(svg_file, "--svg")
    pos = load_position(game, position, **options)
    if svg_file is not None:
        try:
            with open(svg_file, "w", encoding="utf-8") as handle:
                handle.write(pos.game.info.draw(pos))
        except OSError as error:
            raise InvalidOptionError(
                f"invalid option --svg: cannot write ({error.strerror or error}): "
                f"{quoted(svg_file)}"
            ) from None
    if as_json:
        echo_json(show_payload(pos.game.name, pos, svg_file))
        return
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
    if svg_file is not None:
        click.echo(f"wrote {svg_file}")


@click.command(name="moves")
@click.argument("game")
@click.argument("position")
@game_options
@allow_impossible_option
@json_option
def moves(
    game: str, position: str, options: dict[str, Any], allow_impossible: bool, as_json: bool
) -> None:
    """List the legal moves of POSITION, one per line, in canonical order.

    \b
    Example:
      boardproof moves carpniches "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1"
    """
    pos = load_position(game, position, allow_impossible=allow_impossible, **options)
    if as_json:
        echo_json(moves_payload(pos.game.name, pos))
        return
    for move in pos.legal_moves():
        click.echo(str(move))


@click.command(name="new")
@click.argument("game")
@json_option
@game_options
@start_options_apart
def new(game: str, options: dict[str, Any], start: dict[str, Any], as_json: bool) -> None:
    """Print a start position of GAME (options a game does not take are refused; the game
    options, e.g. Minefield's --variant, are checked and shown in --json: the position
    notation does not carry them).

    \b
    Example:
      boardproof new candy --players 3
    """
    pos = load_game(game, **options).start(**start)
    if as_json:
        echo_json(position_payload(pos.game.name, pos))
    else:
        click.echo(pos.fen())


@click.command(name="play")
@click.argument("game")
@click.argument("position")
@click.argument("move", nargs=-1, required=True)
@json_option
@game_options
@allow_impossible_option
def play(
    game: str,
    position: str,
    move: tuple[str, ...],
    as_json: bool,
    options: dict[str, Any],
    allow_impossible: bool,
) -> None:
    """Play MOVE... from POSITION and print the resulting position.

    \b
    Example:
      boardproof play minefield "5/5/5/5/5 b p" c3 swap b2 --json
    """
    start = load_position(game, position, allow_impossible=allow_impossible, **options)
    pos = play_line(start, move)
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
@allow_impossible_option
@json_option
def perft_command(
    game: str,
    position: str,
    depth: int,
    show_divide: bool,
    options: dict[str, Any],
    allow_impossible: bool,
    as_json: bool,
) -> None:
    """Count the leaves of the legal-move tree of DEPTH plies (0 to 100).

    \b
    Example:
      boardproof perft minefield "5/5/5/5/5 b p" 3 --divide
    """
    pos = load_position(game, position, allow_impossible=allow_impossible, **options)
    rows = divide(pos, depth) if show_divide and depth >= 1 else None
    if as_json:
        echo_json(perft_payload(pos.game.name, pos, depth, rows))
    elif rows is not None:
        for name, count in rows:
            click.echo(f"{name}: {count}")
        click.echo(str(sum(count for _, count in rows)))
    else:
        click.echo(str(perft(pos, depth)))
