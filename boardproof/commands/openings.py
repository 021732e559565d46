"""``boardproof openings carpniches``: search every first move, write the opening report."""

from __future__ import annotations

import click

from boardproof import models
from boardproof.models.base import InvalidOptionError


def register(group: click.Group) -> None:
    group.add_command(openings_command)


@click.command(name="openings")
@click.argument("game")
@click.option(
    "--max-plies",
    "max_plies",
    type=click.IntRange(min=1),
    default=9,
    show_default=True,
    help="Search depth after each first move.",
)
@click.option(
    "--timeout",
    "timeout",
    type=float,
    default=None,
    help="Time limit per first move in seconds (none by default).",
)
@click.option(
    "--out",
    "out_dir",
    default="reports",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder for the .md and .json files.",
)
def openings_command(game: str, max_plies: int, timeout: float | None, out_dir: str) -> None:
    """Analyse every first move of GAME (carpniches only) and write the opening report."""
    if models.canonical_name(game) != "carpniches":
        raise InvalidOptionError(f"invalid game: openings supports carpniches only, got {game!r}")
    from boardproof.reports.carpniches_openings import analyse_openings, write_report

    report = analyse_openings(max_plies=max_plies, timeout=timeout)
    for row in report["moves"]:
        if row["winner"] is not None:
            text = f"{row['winner']} wins in {row['plies']} plies"
        else:
            text = f"no forced win within {row['no_forced_win_within']} plies"
        click.echo(f"{row['move']:<6} {text}  ({row['nodes']} nodes, {row['seconds']} s)")
    md, js = write_report(report, out_dir)
    click.echo(f"wrote {md} and {js}")
