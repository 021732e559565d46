"""The ``boardproof`` command line: the group, the entry point and nothing else.

Every command is a top-level click command in :mod:`boardproof.commands` (one module
per subsystem; what they share is :mod:`boardproof.commands.common`), added here.
Bad input (unknown game, bad notation, illegal move, bad option) exits with status
2 and one line naming the field and the offending text; never a traceback.
"""

from __future__ import annotations

import os
import sys

import click

from boardproof.commands import (
    analyse,
    core,
    openings,
    puzzle,
    reach,
    review,
    site,
    solve,
    verify,
)
from boardproof.commands.common import echo_json, load_game, load_position, win_option
from boardproof.models.base import BoardproofError

__all__ = ["cli", "echo_json", "load_game", "load_position", "main", "win_option"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boardproof")
def cli() -> None:
    """Solve, verify and make puzzles for abstract board games (see ``boardproof games``)."""


cli.add_command(core.games)
cli.add_command(core.show)
cli.add_command(core.moves)
cli.add_command(core.new)
cli.add_command(core.play)
cli.add_command(core.perft_command)
cli.add_command(solve.solve_command)
cli.add_command(solve.check_proof_command)
cli.add_command(reach.reach_command)
cli.add_command(puzzle.puzzle_group)
cli.add_command(verify.verify_command)
cli.add_command(site.site_command)
cli.add_command(openings.openings_command)
cli.add_command(analyse.analyse_command)
cli.add_command(review.review_command)


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
