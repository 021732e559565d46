"""The ``boardproof`` command line: thin click commands over the library.

Every command parses its options, calls the library and prints. Bad input
(unknown game, bad notation, illegal move, bad option) exits with status 2 and
one line naming the field and the offending text; never a traceback.

Commands that belong to one subsystem live in :mod:`boardproof.commands`
(one module each) and are attached here.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import Any

import click

from boardproof import models
from boardproof.models.base import (
    BoardproofError,
    Game,
    InvalidOptionError,
    Position,
    divide,
    perft,
    play_line,
    result_fields,
)

GAME_HELP = "minefield, carpniches, candy (alias candy-conquest) or collexion"

#: modules of boardproof.commands that add commands to the group (each has ``register``)
COMMAND_MODULES = ("solve", "reach", "puzzle", "verify", "site", "openings", "serve")


# ---------------------------------------------------------------------------
# shared option handling
# ---------------------------------------------------------------------------


def win_option(func: Any) -> Any:
    """``--win orthogonal|orthodiagonal``: Minefield's win rule (rulebook by default)."""
    return click.option(
        "--win",
        "win",
        default=None,
        metavar="RULE",
        help="Minefield only: 'orthogonal' (rulebook, default) or 'orthodiagonal'.",
    )(func)


def load_game(name: str, win: str | None = None) -> Game:
    """The game ``name`` with the command-line game options applied."""
    options: dict[str, Any] = {}
    if win is not None:
        if models.canonical_name(name) != "minefield":
            raise InvalidOptionError(f"invalid option --win: only minefield has it, got {win!r}")
        options["win"] = win
    return models.get(name, **options)


def load_position(game_name: str, text: str, win: str | None = None) -> Position:
    """Parse ``text`` as a position of ``game_name``."""
    return load_game(game_name, win).parse_position(text)


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, sort_keys=False))


# ---------------------------------------------------------------------------
# the group and the foundation commands
# ---------------------------------------------------------------------------


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boardproof")
def cli() -> None:
    """Solve, verify and make puzzles for Minefield, Carpniches, Candy Conquest and ColleXion."""


@cli.command()
def games() -> None:
    """List the games and their aliases."""
    for name in models.names():
        game = models.get(name)
        doc = (type(game).__doc__ or "").strip().splitlines()
        alias = ", ".join(models.aliases(name))
        note = f" (alias: {alias})" if alias else ""
        click.echo(f"{name:<11} {doc[0] if doc else ''}{note}")


@cli.command()
@click.argument("game")
@click.argument("position")
@click.option(
    "--svg", "svg_file", type=click.Path(dir_okay=False), help="Also write an SVG picture."
)
@win_option
def show(game: str, position: str, svg_file: str | None, win: str | None) -> None:
    """Draw POSITION as a text board (and optionally an SVG file)."""
    pos = load_position(game, position, win)
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
        from boardproof.reports import svg

        with open(svg_file, "w", encoding="utf-8") as handle:
            handle.write(svg.render(pos))
        click.echo(f"wrote {svg_file}")


@cli.command()
@click.argument("game")
@click.argument("position")
@win_option
def moves(game: str, position: str, win: str | None) -> None:
    """List the legal moves of POSITION, one per line, in canonical order."""
    pos = load_position(game, position, win)
    for move in pos.legal_moves():
        click.echo(str(move))


@cli.command()
@click.argument("game")
@click.option("--size", type=int, default=None, help="Board size (Minefield: n, 2-26).")
@click.option("--players", type=int, default=None, help="Number of players.")
@click.option("--variant", default=None, help="Variant (ColleXion: base, powers, expert, teams).")
@click.option("--seed", type=int, default=None, help="Seed (ColleXion's heap).")
@click.option("--no-pie", is_flag=True, help="Minefield: start without the pie rule.")
def new(
    game: str,
    size: int | None,
    players: int | None,
    variant: str | None,
    seed: int | None,
    no_pie: bool,
) -> None:
    """Print a start position of GAME."""
    pos = load_game(game).start(
        size=size, players=players, variant=variant, seed=seed, pie=not no_pie
    )
    click.echo(pos.fen())


@cli.command()
@click.argument("game")
@click.argument("position")
@click.argument("move", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object.")
@win_option
def play(game: str, position: str, move: tuple[str, ...], as_json: bool, win: str | None) -> None:
    """Play MOVE... from POSITION and print the resulting position."""
    pos = play_line(load_position(game, position, win), move)
    if as_json:
        echo_json({"position": pos.fen(), **result_fields(pos)})
    else:
        click.echo(pos.fen())


@cli.command(name="perft")
@click.argument("game")
@click.argument("position")
@click.argument("depth", type=click.IntRange(min=0))
@click.option("--divide", "show_divide", is_flag=True, help="Print the count below each move.")
@win_option
def perft_command(
    game: str, position: str, depth: int, show_divide: bool, win: str | None
) -> None:
    """Count the leaves of the legal-move tree of DEPTH plies."""
    pos = load_position(game, position, win)
    if show_divide and depth >= 1:
        rows = divide(pos, depth)
        for name, count in rows:
            click.echo(f"{name}: {count}")
        click.echo(str(sum(count for _, count in rows)))
    else:
        click.echo(str(perft(pos, depth)))


def _attach_command_modules() -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"boardproof.commands.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"boardproof.commands.{name}":
                continue
            raise
        module.register(cli)


_attach_command_modules()


# ---------------------------------------------------------------------------
# entry point: one-line errors, exit status 2
# ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns (and exits with) the status."""
    try:
        status = cli.main(args=argv, prog_name="boardproof", standalone_mode=False)
        if isinstance(status, int) and status:  # click returns ctx.exit(N) codes here
            return _exit(status)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.format_message())
        return _exit(0)
    except click.UsageError as error:
        message = error.format_message().replace("\n", " ")
        click.echo(f"error: {message}", err=True)
        return _exit(2)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        return _exit(130)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        return _exit(130)
    except BoardproofError as error:
        click.echo(f"error: {error}", err=True)
        return _exit(2)
    except click.ClickException as error:
        click.echo(f"error: {error.format_message()}", err=True)
        return _exit(error.exit_code)
    except OSError as error:
        click.echo(f"error: {error.strerror or error}: {error.filename!r}", err=True)
        return _exit(2)
    except click.exceptions.Exit as done:
        return _exit(done.exit_code)
    return _exit(0)


def _exit(status: int) -> int:
    if os.environ.get("BOARDPROOF_NO_EXIT"):
        return status
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    main()
