"""``boardproof site``: the static site of the daily puzzles (:mod:`boardproof.reports.site`)."""

from __future__ import annotations

import click

from boardproof.models.base import InvalidOptionError


@click.command(name="site")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Directory to write the site into.")  # fmt: skip
@click.option("--days", type=int, default=7, show_default=True,
              help="How many days, up to the last one.")  # fmt: skip
@click.option("--date", "date_text", default=None, metavar="YYYY-MM-DD",
              help="The last day (default: today, UTC).")  # fmt: skip
@click.option("--game", "game_names", multiple=True, metavar="GAME",
              help="Only these games (repeatable; default: all with puzzles).")  # fmt: skip
@click.option("--workers", type=int, default=1, show_default=True,
              help="Local worker processes (one task per game and day).")  # fmt: skip
@click.option("--scheduler", default=None, metavar="ADDR",
              help="Dask: tcp://HOST:PORT of a scheduler, or local:N (boardproof[cluster]).")
@click.option("--quiet", is_flag=True, help="No progress display.")
def site_command(
    out_dir: str, days: int, date_text: str | None, game_names: tuple[str, ...],
    workers: int, scheduler: str | None, quiet: bool,
) -> None:
    """Write a static HTML site: an index and a page per day and game, with SVG boards."""
    from boardproof.puzzles.daily import parse_date, today
    from boardproof.puzzles.generate import puzzle_game
    from boardproof.reports.site import build_site

    if days < 1:
        raise InvalidOptionError(f"invalid option --days: expected a number >= 1, got {days!r}")
    last = parse_date(date_text) if date_text is not None else today()
    games = [puzzle_game(name) for name in game_names] or None
    from boardproof.solvers.executor import Executor

    with Executor(workers, scheduler) as executor:
        written = build_site(out_dir, days, last, games, executor=executor,
                             progress=not quiet)  # fmt: skip
    pages = sum(1 for path in written if path.endswith(".html"))
    ran = f" ({executor.describe()})" if executor.backend != "in-process" else ""
    click.echo(f"wrote {len(written)} files ({pages} pages) to {out_dir}{ran}")
