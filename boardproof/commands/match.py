"""``boardproof match GAME``: two engine settings, or two GTP engines, play each other
(:mod:`boardproof.match`)."""

from __future__ import annotations

from typing import Any

import click

from boardproof.commands.common import (
    check_output_path,
    check_workers,
    echo_json,
    game_options,
    json_option,
    start_options_apart,
)
from boardproof.commands.results import exit_if_interrupted
from boardproof.match.openings import default_plies
from boardproof.match.players import parse_settings
from boardproof.match.records import is_jsonl, write_records
from boardproof.match.runner import MatchSettings, run_match
from boardproof.models import canonical_name


@click.command(name="match")
@click.argument("game")
@click.option("--a", "a_text", required=True, metavar="SETTINGS",
              help="Player A: engine settings (iterations=200,seed=1 or time=0.5; also "
                   "exact=no, playout=python) or gtp:COMMAND LINE of a GTP engine.")  # fmt: skip
@click.option("--b", "b_text", required=True, metavar="SETTINGS",
              help="Player B, as --a.")  # fmt: skip
@click.option("--games", type=int, default=10, show_default=True,
              help="Games to play: each opening twice, colours swapped.")  # fmt: skip
@click.option("--openings-seed", "openings_seed", type=int, default=0, show_default=True,
              help="The match seed: the random openings and the engines' seeds of each "
                   "game.")  # fmt: skip
@click.option("--opening-plies", "opening_plies", type=int, default=None,
              help="Random plies of each opening [2; ColleXion 0].")  # fmt: skip
@click.option("--max-plies", "max_plies", type=int, default=None,
              help="Stop a game drawn after N plies [no limit].")  # fmt: skip
@click.option("--workers", type=int, default=1, show_default=True,
              help="Games played at once, in worker processes.")  # fmt: skip
@click.option("--records", "records", default=None, metavar="PATH",
              help="Write the game records: FILE.jsonl (one JSON record a line) or a FOLDER "
                   "(one text record a game), both readable by 'boardproof review'.")  # fmt: skip
@json_option
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@game_options
@start_options_apart
def match_command(game: str, a_text: str, b_text: str, games: int, openings_seed: int,
                  opening_plies: int | None, max_plies: int | None, workers: int,
                  records: str | None, as_json: bool, quiet: bool, options: dict[str, Any],
                  start: dict[str, Any]) -> None:  # fmt: skip
    """Play a match of A against B at GAME: seeded openings, colours alternated, games in
    parallel; prints A's wins, draws and losses, its score and Elo difference with 95 %
    intervals (two-player games: a 3 or 4 player game is refused).

    \b
    Example:
      boardproof match minefield --size 5 --a iterations=400 --b iterations=50 \\
          --games 20 --workers 4 --records games.jsonl
      boardproof match minefield --size 5 --a iterations=200 \\
          --b "gtp:boardproof gtp minefield --size 5 --iterations 200" --games 4
    """
    check_workers(workers)
    check_output_path(records, "--records", folder=records is not None and not is_jsonl(records))
    name = canonical_name(game)
    settings = MatchSettings(
        name, options, start, parse_settings(a_text, "--a"), parse_settings(b_text, "--b"),
        games=games, seed=openings_seed,
        opening_plies=default_plies(name) if opening_plies is None else opening_plies,
        max_plies=max_plies,
    )  # fmt: skip
    result = run_match(settings, workers=workers, progress=not quiet)
    wrote = None
    if records is not None:
        wrote = write_records(records, result.records, games)
    if as_json:
        data = result.to_json()
        data["records"] = records
        echo_json(data)
    else:
        for line in result.lines():
            click.echo(line)
        if wrote is not None:
            click.echo(f"records: wrote {wrote}")
    exit_if_interrupted(result.interrupted)
