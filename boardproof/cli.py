"""The ``boardproof`` command line: the group, the entry point and nothing else.

Every command is a top-level click command in :mod:`boardproof.commands` (one module
per subsystem; what they share is :mod:`boardproof.commands.common`), added here, or one
that a game brings in its package (its descriptor's ``commands``: Minefield's ``verify``,
Carpniches' ``reach``).
Bad input (unknown game, bad notation, illegal move, bad option) exits with status
2 and one line naming the field and the offending text; never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys

import click

from boardproof import models
from boardproof.commands import (
    analyse,
    core,
    gtp,
    importer,
    match,
    openings,
    puzzle,
    review,
    serve,
    site,
    solve,
)
from boardproof.commands.common import (
    check_stdout,
    echo_json,
    load_game,
    load_position,
    quoted,
)
from boardproof.models.base import BoardproofError

__all__ = ["cli", "echo_json", "load_game", "load_position", "main"]


class _Group(click.Group):
    """The command group; a Ctrl-C in a command becomes ``click.Abort`` here, before
    click's own handler, which writes an empty line to stderr before the ``interrupted``
    line of :func:`main`."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise click.exceptions.Abort() from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boardproof")
def cli() -> None:
    """Solve, verify and make puzzles for abstract board games (see 'boardproof games')."""
    check_stdout()  # `> /dev/full` is refused before any work


cli.add_command(core.games)
cli.add_command(core.show)
cli.add_command(core.moves)
cli.add_command(core.new)
cli.add_command(core.play)
cli.add_command(core.perft_command)
cli.add_command(solve.solve_command)
cli.add_command(solve.check_proof_command)
cli.add_command(puzzle.puzzle_group)
cli.add_command(site.site_command)
cli.add_command(openings.openings_command)
cli.add_command(analyse.analyse_command)
cli.add_command(review.review_command)
cli.add_command(importer.import_command)
cli.add_command(serve.serve_command)
cli.add_command(gtp.gtp_command)
cli.add_command(match.match_command)
for _game in models.names():  # the commands a game brings (``verify``, ``reach``…)
    for _game_command in models.info(_game).part("commands") or ():
        cli.add_command(_game_command)


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
        message = cli_names(str(error), _command(sys.argv[1:] if argv is None else argv))
        click.echo(f"error: {cut_quotes(message)}", err=True)
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


def _command(argv: list[str]) -> click.Command:
    """The (sub)command that ``argv`` runs (the group itself if none)."""
    command: click.Command = cli
    for word in argv:
        if word.startswith("-"):
            continue
        if not isinstance(command, click.Group) or word not in command.commands:
            break
        command = command.commands[word]
    return command


def cli_names(message: str, command: click.Command) -> str:
    """A library message's options (``option max_plies``, named as Python parameters)
    written as ``command``'s flags (``option --max-plies``); quoted input is left alone.

    >>> cli_names("invalid option seconds: not together with option iterations (give one)",
    ...           cli.commands["analyse"])
    'invalid option --time: not together with option --iterations (give one)'
    >>> cli_names("invalid option pie: candy does not take it, got 'option x'", cli.commands["new"])
    "invalid option --no-pie: candy does not take it, got 'option x'"
    """
    flags = {
        param.name: max(param.opts, key=len)
        for param in command.params
        if isinstance(param, click.Option) and param.name
    }

    def flag(match: re.Match[str]) -> str:
        name = match.group(1)
        return "option " + flags.get(name, "--" + name.replace("_", "-"))

    parts = re.split(r"('[^'\n]*'|\"[^\"\n]*\")", message)
    for index in range(0, len(parts), 2):  # the even parts are outside quotes
        parts[index] = re.sub(r"(?<![\w-])option ([a-z][a-z0-9_]*)\b", flag, parts[index])
    return "".join(parts)


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
    if status == 130:
        _exit_at_next_interrupt()
    sys.exit(status)


def _exit_at_next_interrupt() -> None:
    """After ``interrupted``: a further Ctrl-C while the interpreter shuts down exits 130
    at once (not a KeyboardInterrupt traceback from its shutdown).

    Also clears CPython's "unhandled Ctrl-C" flag. A KeyboardInterrupt that ended code
    compiled from a string (``exec``/``eval`` of text: the methods a dataclass or a
    namedtuple makes while a module loads) sets it even when it is handled, as here; under
    ``python -m`` the interpreter then ends by killing itself with SIGINT instead of
    exiting 130 (a rare race of the tests, tests/test_cli_interrupt_flag.py). Evaluating
    text that ends normally clears it.
    """
    eval("None")  # noqa: S307 - a constant: run for its side effect on the flag
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    with contextlib.suppress(ValueError):  # not the main thread
        signal.signal(signal.SIGINT, lambda signum, frame: os._exit(130))


if __name__ == "__main__":  # pragma: no cover
    main()
