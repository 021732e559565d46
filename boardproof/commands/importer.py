"""``boardproof import``: convert a game record between boardproof's and AbstractPlay's formats.

The formats are documented in :mod:`boardproof.review.record`; the conversion is the
game's ``records`` part (for Minefield, :mod:`boardproof.models.minefield.abstractplay`).
"""

from __future__ import annotations

from typing import Any

import click

from boardproof.commands.common import check_output_path, game_options
from boardproof.commands.results import write_file
from boardproof.commands.review import load_record, read_record_file, result_text
from boardproof.review.record import FORMATS, Record, write_record


def summary(record: Record) -> list[str]:
    """The lines ``import --out`` prints about the record it read."""
    game = record.game
    options = ", ".join(f"{spec.name} {getattr(game, spec.name)}" for spec in game.info.options
                        if spec.scope == "game" and hasattr(game, spec.name))  # fmt: skip
    lines = [f"read: {record.source} record of {game.name}" + (f" ({options})" if options
                                                                 else "")]  # fmt: skip
    lines.append(f"start: {record.start.fen()}")
    if record.players:
        lines.append("players: " + ", ".join(
            f"{game.symbol(p)} {name}" for p, name in enumerate(record.players)))  # fmt: skip
    lines.append(f"moves: {len(record.moves)} plies")
    lines += [f"note: {note}" for note in record.notes]
    lines.append(f"result: {result_text(record)}")
    return lines


@click.command(name="import")
@click.argument("record")
@click.option("--game", "game_name", default=None, metavar="GAME",
              help="The game of a record that does not name it (boardproof's text form).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="boardproof",
              show_default=True, help="The format to write: boardproof's JSON form or "
              "AbstractPlay's record.")  # fmt: skip
@click.option("--out", "out_file", type=click.Path(dir_okay=False), default=None,
              help="Write the record to FILE and print a summary (else print the record).")
@game_options
def import_command(
    record: str, game_name: str | None, fmt: str, out_file: str | None, options: dict[str, Any]
) -> None:
    """Read the game RECORD (a file, or - for stdin: an AbstractPlay record, or one of
    boardproof's) and write it in boardproof's JSON form or, with --format abstractplay,
    as an AbstractPlay record. The moves are replayed: a record that cannot be read exits
    with status 2, naming the field.

    \b
    Example:
      boardproof import game.json --out game-boardproof.json
    """
    check_output_path(out_file, "--out")
    rec = load_record(game_name, read_record_file(record), options)
    text = write_record(rec, fmt)
    if out_file is None:
        click.echo(text, nl=False)
        return
    write_file(out_file, text, "--out")
    for line in summary(rec):
        click.echo(line)
    click.echo(f"wrote {out_file} ({fmt})")

