"""``boardproof site``: the static site of the daily puzzles: found by
:mod:`boardproof.puzzles.daily`, rendered by :mod:`boardproof.reports.site`."""

from __future__ import annotations

import datetime as dt
import os
import sys
import time
from collections.abc import Callable, Sequence

import click

from boardproof.commands.common import check_output_path, echo_json, quoted
from boardproof.jobs.executor import Executor
from boardproof.models.base import InvalidOptionError
from boardproof.puzzles.daily import daily_puzzles
from boardproof.reports.site import puzzle_games, write_site

#: the default checkpoint, in the site's folder (deleted once the site is written)
CHECKPOINT = "site.checkpoint.jsonl"
#: the most days one site holds (a year and a day; each day is a puzzle per game)
MAX_DAYS = 366


@click.command(name="site")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Directory to write the site into.")  # fmt: skip
@click.option("--days", type=int, default=7, show_default=True,
              help=f"How many days, up to the last one (1 to {MAX_DAYS}).")  # fmt: skip
@click.option("--date", "date_text", default=None, metavar="YYYY-MM-DD",
              help="The last day (default: today, UTC).")  # fmt: skip
@click.option("--game", "game_names", multiple=True, metavar="GAME",
              help="Only these games (repeatable; default: all with puzzles).")  # fmt: skip
@click.option("--workers", type=int, default=1, show_default=True,
              help="Local worker processes (one task per game and day).")  # fmt: skip
@click.option("--scheduler", default=None, metavar="ADDR",
              help="Dask: tcp://HOST:PORT of a scheduler, or local:N (boardproof[cluster]).")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help=f"Keep each finished day in FILE (kept; default: OUT/{CHECKPOINT}, "
                   "deleted when the site is written).")  # fmt: skip
@click.option("--fresh", is_flag=True, help="Ignore (delete) an existing checkpoint.")
@click.option("--quiet", is_flag=True, help="No progress display.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def site_command(
    out_dir: str, days: int, date_text: str | None, game_names: tuple[str, ...],
    workers: int, scheduler: str | None, checkpoint: str | None, fresh: bool, quiet: bool,
    as_json: bool,
) -> None:
    """Write a static HTML site: an index and a page per day and game, with SVG boards.

    Each day's puzzles are kept in a checkpoint as they are found: run the same command
    again after an interruption and it resumes (the same files as an uninterrupted run).

    \b
    Example:
      boardproof site --out site --days 7
    """
    from boardproof.puzzles.daily import open_checkpoint, parse_date, today
    from boardproof.puzzles.generate import puzzle_game

    if not 1 <= days <= MAX_DAYS:
        raise InvalidOptionError(
            f"invalid option --days: expected a number from 1 to {MAX_DAYS}, got {days!r}"
        )
    check_output_path(out_dir, "--out", folder=True)
    last = parse_date(date_text) if date_text is not None else today()
    games = [puzzle_game(name) for name in game_names] or None
    start = time.perf_counter()

    def on_page(relative: str) -> None:
        if quiet:
            return
        seconds = time.perf_counter() - start
        print(f"site: wrote {relative} ({seconds:.1f} s)", file=sys.stderr, flush=True)

    path = checkpoint or os.path.join(out_dir, CHECKPOINT)
    if fresh and os.path.exists(path):
        os.remove(path)
    open_checkpoint(path)  # a damaged or foreign checkpoint is refused before any work
    try:
        with Executor(workers, scheduler) as executor:
            written = build_site(out_dir, days, last, games, on_page=on_page,
                                 executor=executor, progress=not quiet,
                                 checkpoint=path)  # fmt: skip
    except OSError as error:
        raise InvalidOptionError(
            f"invalid option --out: cannot write ({error.strerror or error}): {quoted(out_dir)}"
        ) from None
    if checkpoint is None and os.path.exists(path):
        os.remove(path)  # the default checkpoint: the site is written
    pages = sum(1 for path in written if path.endswith(".html"))
    if as_json:
        echo_json({"out": out_dir, "days": days, "last": last.isoformat(), "files": written,
                   "pages": pages, "backend": executor.describe()})  # fmt: skip
        return
    reruns = f"; re-run: {', '.join(sorted(executor.reruns))}" if executor.reruns else ""
    ran = f" ({executor.describe()}{reruns})" if executor.backend != "in-process" else ""
    click.echo(f"wrote {len(written)} files ({pages} pages) to {out_dir}{ran}")


def build_site(
    out: str | os.PathLike[str],
    days: int,
    last: dt.date,
    games: Sequence[str] | None = None,
    on_page: Callable[[str], None] | None = None,
    executor: Executor | None = None,
    progress: bool = False,
    checkpoint: str | os.PathLike[str] | None = None,
) -> list[str]:
    """Find the puzzles of ``days`` days up to ``last`` and write the site; returns the
    written paths relative to ``out``, sorted.

    The day's puzzles are found first, one executor task per (game, day), kept in
    ``checkpoint`` as they finish (see :func:`~boardproof.puzzles.daily.daily_puzzles`),
    then :func:`~boardproof.reports.site.write_site` writes the pages in order (the same
    files whatever ran the tasks).
    """
    chosen = list(games) if games is not None else puzzle_games()
    dates = [(last - dt.timedelta(days=k)).isoformat() for k in range(days)]
    found = daily_puzzles(chosen, dates, executor=executor, progress=progress,
                          checkpoint=checkpoint)  # fmt: skip
    return write_site(out, dates, chosen, found, on_page=on_page)
