"""``boardproof reach carpniches FROM TO --max-plies K``: bounded reachability (CP-SAT)."""

from __future__ import annotations

import click

from boardproof import models
from boardproof.commands.common import SECONDS, check_possible
from boardproof.models.base import InvalidOptionError


@click.command(name="reach")
@click.argument("game")
@click.argument("source", metavar="FROM")
@click.argument("target", metavar="TO")
@click.option(
    "--max-plies",
    "max_plies",
    type=click.IntRange(min=0),
    required=True,
    help="The bound K on the number of plies.",
)
@click.option(
    "--timeout",
    "timeout",
    type=SECONDS,
    default=None,
    help="CP-SAT time limit in seconds (no limit by default).",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object.")
@click.option(
    "--allow-impossible",
    "allow_impossible",
    is_flag=True,
    help="Analyse positions that cannot occur in a game (show lists why); a warning says so.",
)
def reach_command(
    game: str,
    source: str,
    target: str,
    max_plies: int,
    timeout: float | None,
    as_json: bool,
    allow_impossible: bool,
) -> None:
    """Is TO reachable from FROM in at most K plies of legal play? (Carpniches only.)

    Prints the move sequence, or 'unreachable within K plies' with the proof method
    (the bounded CP-SAT model is infeasible).

    \b
    Example:
      boardproof reach carpniches "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1" \\
        "(cp)4(pcp)/1c4/6/6/1p4/(pc)4(cpc) c -" --max-plies 4
    """
    name = models.canonical_name(game)
    if name != "carpniches":
        raise InvalidOptionError(f"invalid game: reach supports carpniches only, got {game!r}")
    # OR-Tools (and pandas with it) loads only when reach runs: every command line starts
    # with this module, and a plain `boardproof show` should not wait for them
    from boardproof.models.carpniches.proofs.cp import reach

    carp = models.get(name)
    start = carp.parse_position(source)
    goal = carp.parse_position(target)


    check_possible(start, allow_impossible)
    check_possible(goal, allow_impossible)
    result = reach(start, goal, max_plies, seconds=timeout)  # type: ignore[arg-type]
    moves = [str(m) for m in result.moves] if result.moves is not None else None
    if as_json:
        import json

        click.echo(
            json.dumps(
                {
                    "game": name,
                    "from": start.fen(),
                    "to": goal.fen(),
                    "max_plies": max_plies,
                    "reachable": result.reachable,
                    "plies": None if moves is None else len(moves),
                    "moves": moves,
                    "method": result.method,
                }
            )
        )
    elif moves is not None:
        click.echo(f"reachable in {len(moves)} plies: {' '.join(moves) or '(no move)'}")
        click.echo(f"method: {result.method}")
    elif result.reachable is None:
        click.echo(f"unknown within {max_plies} plies ({result.method})")
    else:
        click.echo(f"unreachable within {max_plies} plies ({result.method})")


#: the commands Carpniches adds to the command line (``GameInfo.commands``)
COMMANDS = [reach_command]
