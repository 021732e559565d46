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
import re
import sys
from typing import Any

import click

from boardproof import models
from boardproof.commands import quoted
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
COMMAND_MODULES = ("solve", "reach", "puzzle", "verify", "site", "openings")


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


def load_position(
    game_name: str, text: str, win: str | None = None, *, allow_impossible: bool | None = None
) -> Position:
    """Parse ``text`` as a position of ``game_name``.

    With ``allow_impossible`` given (the commands that analyse a position), a position
    that cannot occur in a game (``status()`` is not empty) is refused, unless it is
    True: then a warning on stderr says that it is analysed anyway.
    """
    pos = load_game(game_name, win).parse_position(text)
    if allow_impossible is not None:
        check_possible(pos, allow_impossible)
    return pos


class ImpossiblePositionError(BoardproofError):
    """A position that parses but cannot occur in a game, given to an analysing command."""


def check_possible(pos: Position, allow_impossible: bool) -> None:
    """Refuse (exit 2) a position whose ``status()`` has problems, or warn if allowed."""
    problems = pos.status()
    if not problems:
        return
    if not allow_impossible:
        raise ImpossiblePositionError(
            f"impossible position: {problems[0]} (--allow-impossible analyses it anyway): "
            f"{quoted(pos.fen())}"
        )
    click.echo(
        f"warning: impossible position ({'; '.join(problems)}); analysed anyway "
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
    if not os.access(existing, os.W_OK):
        raise InvalidOptionError(f"invalid option {option}: cannot write: {quoted(path)}")


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, sort_keys=False))


# ---------------------------------------------------------------------------
# the group and the foundation commands
# ---------------------------------------------------------------------------


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boardproof")
def cli() -> None:
    """Solve, verify and make puzzles for Minefield, Carpniches, Candy Conquest and ColleXion."""


def json_option(func: Any) -> Any:
    """``--json``: print one JSON object instead of text."""
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(func)


@cli.command()
@json_option
def games(as_json: bool) -> None:
    """List the games and their aliases.

    \b
    Example:
      boardproof games --json
    """
    from boardproof.commands.payloads import games_payload

    if as_json:
        echo_json(games_payload())
        return
    for entry in games_payload():
        alias = ", ".join(entry["aliases"])
        note = f" (alias: {alias})" if alias else ""
        click.echo(f"{entry['name']:<11} {entry['description']}{note}")


@cli.command()
@click.argument("game")
@click.argument("position")
@click.option(
    "--svg", "svg_file", type=click.Path(dir_okay=False), help="Also write an SVG picture."
)
@win_option
@json_option
def show(game: str, position: str, svg_file: str | None, win: str | None, as_json: bool) -> None:
    """Draw POSITION as a text board (and optionally an SVG file).

    Positions that parse but cannot occur in a game get a 'status:' line each.

    \b
    Example:
      boardproof show minefield "5/5/2b2/5/5 w p" --svg board.svg
    """
    from boardproof.commands.payloads import show_payload

    check_output_path(svg_file, "--svg")
    pos = load_position(game, position, win)
    if svg_file is not None:
        from boardproof.reports import svg

        try:
            with open(svg_file, "w", encoding="utf-8") as handle:
                handle.write(svg.render(pos))
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


@cli.command()
@click.argument("game")
@click.argument("position")
@win_option
@allow_impossible_option
@json_option
def moves(
    game: str, position: str, win: str | None, allow_impossible: bool, as_json: bool
) -> None:
    """List the legal moves of POSITION, one per line, in canonical order.

    \b
    Example:
      boardproof moves carpniches "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1"
    """
    from boardproof.commands.payloads import moves_payload

    pos = load_position(game, position, win, allow_impossible=allow_impossible)
    if as_json:
        echo_json(moves_payload(pos.game.name, pos))
        return
    for move in pos.legal_moves():
        click.echo(str(move))


@cli.command()
@click.argument("game")
@click.option("--size", type=int, default=None, help="Board size (Minefield: n, 2-26).")
@click.option("--players", type=int, default=None, help="Number of players.")
@click.option("--variant", default=None, help="Variant (ColleXion: base, powers, expert, teams).")
@click.option("--seed", type=int, default=None, help="Seed (ColleXion's heap).")
@click.option("--no-pie", is_flag=True, help="Minefield: start without the pie rule.")
@json_option
def new(
    game: str,
    size: int | None,
    players: int | None,
    variant: str | None,
    seed: int | None,
    no_pie: bool,
    as_json: bool,
) -> None:
    """Print a start position of GAME.

    \b
    Example:
      boardproof new candy --players 3
    """
    from boardproof.commands.payloads import position_payload

    pos = load_game(game).start(
        size=size, players=players, variant=variant, seed=seed, pie=not no_pie
    )
    if as_json:
        echo_json(position_payload(pos.game.name, pos))
    else:
        click.echo(pos.fen())


@cli.command()
@click.argument("game")
@click.argument("position")
@click.argument("move", nargs=-1, required=True)
@json_option
@win_option
@allow_impossible_option
def play(
    game: str,
    position: str,
    move: tuple[str, ...],
    as_json: bool,
    win: str | None,
    allow_impossible: bool,
) -> None:
    """Play MOVE... from POSITION and print the resulting position.

    \b
    Example:
      boardproof play minefield "5/5/5/5/5 b p" c3 swap b2 --json
    """
    start = load_position(game, position, win, allow_impossible=allow_impossible)
    pos = play_line(start, move)
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
@allow_impossible_option
@json_option
def perft_command(
    game: str,
    position: str,
    depth: int,
    show_divide: bool,
    win: str | None,
    allow_impossible: bool,
    as_json: bool,
) -> None:
    """Count the leaves of the legal-move tree of DEPTH plies (0 to 100).

    \b
    Example:
      boardproof perft minefield "5/5/5/5/5 b p" 3 --divide
    """
    from boardproof.commands.payloads import perft_payload

    pos = load_position(game, position, win, allow_impossible=allow_impossible)
    rows = divide(pos, depth) if show_divide and depth >= 1 else None
    if as_json:
        echo_json(perft_payload(pos.game.name, pos, depth, rows))
    elif rows is not None:
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
    except click.BadParameter as error:
        click.echo(f"error: {bad_parameter_text(error)}", err=True)
        return _exit(2)
    except click.NoSuchOption as error:
        click.echo(f"error: {no_such_option_text(error)}", err=True)
        return _exit(2)
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
        click.echo(f"error: {cut_quotes(str(error))}", err=True)
        return _exit(2)
    except click.ClickException as error:
        click.echo(f"error: {error.format_message()}", err=True)
        return _exit(error.exit_code)
    except OSError as error:
        where = f": {quoted(str(error.filename))}" if error.filename is not None else ""
        click.echo(f"error: {error.strerror or error}{where}", err=True)
        return _exit(2)
    except click.exceptions.Exit as done:
        return _exit(done.exit_code)
    return _exit(0)


def bad_parameter_text(error: click.BadParameter) -> str:
    """Click's "Invalid value for ..." in the project's style: ``invalid option --x: ...``.

    Arguments are named by their metavar (``invalid DEPTH: ...``).
    """
    param = error.param
    if isinstance(param, click.Option):
        label = "option " + max(param.opts, key=len)
    elif param is not None:
        label = param.human_readable_name
    else:
        label = str(error.param_hint or "value")
    if isinstance(error, click.MissingParameter):
        return f"missing {label}: it is required"
    return f"invalid {label}: {error.message.rstrip('.')}"


def no_such_option_text(error: click.NoSuchOption) -> str:
    """An unknown option; a negative number (``-1``) is named as the number argument it is."""
    name = error.option_name
    if name[1:].replace(".", "", 1).isdigit():
        command = error.ctx.command if error.ctx is not None else None
        numbers = [
            p.human_readable_name
            for p in (command.params if command is not None else [])
            if isinstance(p, click.Argument)
            and isinstance(p.type, click.types._NumberParamTypeBase)
        ]
        label = numbers[0] if numbers else "value"
        return f"invalid {label}: expected a number >= 0, got {name!r}"
    hint = f" (did you mean {', '.join(error.possibilities)}?)" if error.possibilities else ""
    return f"invalid option {name}: no such option{hint}"


def cut_quotes(message: str, limit: int = 80) -> str:
    """Quoted inputs longer than ``limit`` characters cut, so that a message stays one line.

    >>> cut_quotes("invalid position: too long: '" + "5/" * 100 + "'")[-12:]
    "/5/5/5/5...'"
    """

    def cut(match: re.Match[str]) -> str:
        text = match.group(1)
        return f"'{text[: limit - 3]}...'" if len(text) > limit else match.group(0)

    return re.sub(r"'([^'\n]*)'", cut, message)


def _exit(status: int) -> int:
    if os.environ.get("BOARDPROOF_NO_EXIT"):
        return status
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    main()
