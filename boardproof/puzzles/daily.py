"""The puzzle of the day: the same puzzle for a (game, date) on every machine.

The day's seed is the first 12 hex digits of ``sha256("<game>:<YYYY-MM-DD>")``;
the day's puzzle is the first puzzle that :func:`boardproof.puzzles.generate.generate`
finds from that seed with the game's default settings (node budgets only, no
clock, so nothing depends on the machine's speed). Minefield's is mined instead from
seeded self-play on a board people play, 13x13 or 15x15, the pinwheel variant on
Wednesdays and the cartwheel on Saturdays (:mod:`boardproof.puzzles.played`: iteration
budgets only, the same on every machine); it carries ``size`` and ``variant``. Its
``id`` is ``<game>-<date>`` and it carries ``date``. Every day's puzzle carries its
``difficulty`` measured by search on the reference calibration
(:func:`boardproof.puzzles.difficulty.with_difficulty`: iteration budgets and seeds only,
so a day's rating depends neither on the machine nor on which other days were built).

>>> daily_seed("minefield", parse_date("2026-01-01"))
57237796566284
>>> parse_date("2026-02-30")
Traceback (most recent call last):
...
boardproof.puzzles.PuzzleError: invalid date: expected YYYY-MM-DD, got '2026-02-30'
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from boardproof.jobs.checkpoints import JournalCheckpoint
from boardproof.jobs.executor import Executor, run_tasks
from boardproof.models.base import InvalidOptionError
from boardproof.puzzles import PuzzleError
from boardproof.puzzles.difficulty import with_difficulty
from boardproof.puzzles.generate import generate, puzzle_game, settings_for
from boardproof.puzzles.played import played, played_daily
from boardproof.puzzles.store import FORMAT, VERSION

#: tasks tried before giving up on a day (never reached in practice; an error if it is)
DAILY_MAX_TASKS = 400


def parse_date(text: str) -> dt.date:
    """A ``YYYY-MM-DD`` date; raises PuzzleError naming the text."""
    try:
        if len(text) != 10:
            raise ValueError
        return dt.date.fromisoformat(text)
    except ValueError:
        raise PuzzleError(f"invalid date: expected YYYY-MM-DD, got {text!r}") from None


def today() -> dt.date:
    """Today's date in UTC."""
    return dt.datetime.now(dt.UTC).date()


def daily_seed(game: str, date: dt.date) -> int:
    """The generator seed of ``game``'s puzzle on ``date``."""
    digest = hashlib.sha256(f"{game}:{date.isoformat()}".encode()).hexdigest()
    return int(digest[:12], 16)


def daily_puzzle(
    game: str, date: dt.date | None = None, progress: bool = False
) -> dict[str, Any]:
    """The puzzle of ``game`` on ``date`` (default: today, UTC), with its measured
    ``difficulty``; ``progress``: a line on stderr per task tried."""
    return with_difficulty(found_puzzle(game, date, progress))


def found_puzzle(
    game: str, date: dt.date | None = None, progress: bool = False
) -> dict[str, Any]:
    """The puzzle of ``game`` on ``date`` as found, before its difficulty is measured."""
    name = puzzle_game(game)
    day = date if date is not None else today()
    if played(name) is not None:  # mined from self-play at a size people play
        found_played = played_daily(name, day, daily_seed(name, day), progress=progress)
        return {"id": f"{name}-{day.isoformat()}", "date": day.isoformat(), **found_played}
    settings = replace(settings_for(name), timeout=None)
    found = generate(
        name, 1, daily_seed(name, day), settings, max_tasks=DAILY_MAX_TASKS, progress=progress
    )
    if not found.puzzles:
        raise PuzzleError(f"no puzzle found for {name} on {day.isoformat()}: {game!r}")
    puzzle = dict(found.puzzles[0])
    puzzle["id"] = f"{name}-{day.isoformat()}"
    return {"id": puzzle.pop("id"), "date": day.isoformat(), **puzzle}


def daily_from_set(
    game: str, puzzles: Sequence[dict[str, Any]], date: dt.date | None = None
) -> dict[str, Any]:
    """The puzzle of ``game`` on ``date`` taken from a set of puzzles (e.g. mined from
    games at the sizes people play: ``puzzle generate --from-games``): among the set's
    puzzles of ``game``, in file order, the one at ``daily_seed(game, date) % count``.
    The same set gives the same day's puzzle on every machine.

    >>> pool = [{"id": f"p{k}", "game": "minefield", "rating": {}} for k in range(3)]
    >>> daily_from_set("minefield", pool, parse_date("2026-01-01"))["source_id"]
    'p2'
    """
    name = puzzle_game(game)
    day = date if date is not None else today()
    mine = [p for p in puzzles if isinstance(p, dict) and p.get("game") == name]
    if not mine:
        raise PuzzleError(f"invalid puzzle set: no {name} puzzle in it: {game!r}")
    chosen = dict(mine[daily_seed(name, day) % len(mine)])
    ident = chosen.pop("id", None)
    return {"id": f"{name}-{day.isoformat()}", "date": day.isoformat(),
            **({"source_id": ident} if ident is not None else {}), **chosen}  # fmt: skip


def daily_task(arg: tuple[str, str]) -> dict[str, Any]:
    """The puzzle of one (game, ISO date): a self-contained executor task."""
    game, date = arg
    return daily_puzzle(game, dt.date.fromisoformat(date))


#: what a checkpoint of daily puzzles must have been written by (any games and days)
#: (``daily`` 2: Minefield's days from self-play at 13x13 and 15x15, with variant days;
#: 3: every day with its measured ``difficulty``)
CHECKPOINT_RUN = {"job": "daily puzzles", "format": FORMAT, "version": VERSION, "daily": 3}


def daily_puzzles(
    games: Sequence[str],
    dates: Sequence[str],
    executor: Executor | None = None,
    progress: bool = False,
    checkpoint: str | os.PathLike[str] | None = None,
    sets: Mapping[str, Sequence[dict[str, Any]]] | None = None,
) -> dict[str, dict[str, Any]]:
    """The daily puzzle of every (game, ISO date), keyed ``"GAME DATE"``.

    One executor task per (game, day); the result does not depend on what ran them.
    With ``checkpoint`` (a JSON Lines file) each finished day is kept there at once, and
    a later run (of any games and days) takes the days it holds from it. A game with a
    set of puzzles in ``sets`` (by canonical name, e.g. mined from games at the sizes
    people play) takes its days from it (:func:`daily_from_set`: no task, no search).
    """
    chosen = dict(sets or {})
    tasks = [(f"{game} {date}", (game, date)) for game in games for date in dates
             if game not in chosen]  # fmt: skip
    store = open_checkpoint(checkpoint)
    found = run_tasks(daily_task, tasks, executor=executor, progress=progress,
                      description="site puzzles", checkpoint=store) if tasks else {}  # fmt: skip
    for game in games:
        for date in dates if game in chosen else ():
            found[f"{game} {date}"] = daily_from_set(game, chosen[game],
                                                     dt.date.fromisoformat(date))  # fmt: skip
    return found


def open_checkpoint(path: str | os.PathLike[str] | None) -> JournalCheckpoint | None:
    """The checkpoint of daily puzzles at ``path``; a one-line error if it is damaged."""
    if path is None:
        return None
    store = JournalCheckpoint(path, CHECKPOINT_RUN)
    for key, puzzle in store.done.items():
        if not (isinstance(puzzle, dict) and puzzle.get("id") == key.replace(" ", "-")
                and isinstance(puzzle.get("rating"), dict)
                and isinstance(puzzle.get("difficulty"), dict)):  # fmt: skip
            raise InvalidOptionError(
                f"invalid checkpoint: task {key} is not that day's puzzle (delete it or "
                f"pass --fresh to start again): {str(path)!r}"
            )
    return store
