"""``boardproof puzzle daily|generate|check``: thin wrappers over :mod:`boardproof.puzzles`."""

from __future__ import annotations

import functools
import os
from typing import Any

import click

from boardproof import models
from boardproof.commands.common import (
    SECONDS,
    check_output_path,
    check_workers,
    echo_json,
)
from boardproof.models.base import InvalidOptionError
from boardproof.puzzles import PuzzleError


def moves_phrase(plies: int) -> str:
    """How many own moves a win in ``plies`` plies takes.

    >>> moves_phrase(1), moves_phrase(5)
    ('1 move', '3 moves')
    """
    own = (plies + 1) // 2
    return f"{own} move" if own == 1 else f"{own} moves"


def describe_puzzle(puzzle: dict[str, Any]) -> list[str]:
    """The text lines of a puzzle, the solution last, after a ``solution:`` label."""
    game = models.get(puzzle["game"], **puzzle.get("options", {}))
    pos = game.parse_position(puzzle["position"])
    rating = puzzle["rating"]
    title = puzzle.get("date") or puzzle.get("id", "")
    side = puzzle["to_move"]
    plies = puzzle["plies"]
    lines = [f"{puzzle['game']} puzzle {title}  (rating {rating['rating']}, {rating['label']})"]
    lines += pos.board_text().splitlines()
    if puzzle.get("objective") == "score":
        lines += [
            f"position: {puzzle['position']}",
            f"to move: {side}",
            f"task: {side} to play the best turn (the best final score difference against "
            "best play); exactly one turn is best, by at least 1 point",
            "",
            "(spoiler below)",
            f"solution: {puzzle['solution']}",
            f"score: {puzzle['score']:+d} (every other turn at least {puzzle['margin']} less)",
            "line: " + " ".join(puzzle["pv"]),
        ]
        if puzzle.get("decoys"):
            lines.append("close (within 2 points): " + " ".join(puzzle["decoys"]))
        return lines
    lines += [
        f"position: {puzzle['position']}",
        f"to move: {side}",
        f"task: {side} to play and win in {plies} plies ({moves_phrase(plies)} of {side}); "
        "exactly one first move wins",
        "",
        "(spoiler below)",
        f"solution: {puzzle['solution']}",
    ]
    lines.append("line: " + " ".join(puzzle["pv"]))
    if puzzle.get("decoys"):
        lines.append("decoys (win, but too slowly): " + " ".join(puzzle["decoys"]))
    return lines


def show_found(out_file: str | None, puzzle: dict[str, Any]) -> None:
    """Print a puzzle as it is found: its JSON line, or (writing a file) a summary."""
    if out_file is None:
        from boardproof.puzzles.store import dumps

        click.echo(dumps(puzzle))
    else:
        rating = puzzle["rating"]
        if puzzle.get("objective") == "score":
            task = (
                f"{puzzle['to_move']} best turn {puzzle['solution']} "
                f"({puzzle['score']:+d}, by {puzzle['margin']})"
            )
        else:
            task = f"{puzzle['to_move']} wins in {puzzle['plies']} ({puzzle['solution']})"
        click.echo(
            f"{puzzle['id']}: {task}, rating {rating['rating']} {rating['label']}: "
            f"{puzzle['position']}"
        )


def default_checkpoint(out_file: str) -> str:
    """The checkpoint of a run writing ``out_file``: beside it.

    >>> default_checkpoint("runs/puzzles.jsonl")
    'runs/puzzles.checkpoint.jsonl'
    """
    base, _ = os.path.splitext(out_file)
    return base + ".checkpoint.jsonl"


@click.group(name="puzzle")
def puzzle_group() -> None:
    """Proven puzzles: the daily puzzle, generation and re-checking."""

@puzzle_group.command(name="daily")
@click.argument("game")
@click.option("--date", "date_text", default=None, metavar="YYYY-MM-DD",
              help="The day (default: today, UTC).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def daily_command(game: str, date_text: str | None, as_json: bool) -> None:
    """The puzzle of the day for GAME: the same on every machine.

    \b
    Example:
      boardproof puzzle daily minefield --date 2026-11-29
    """
    from boardproof.puzzles.daily import daily_puzzle, parse_date
    from boardproof.puzzles.generate import puzzle_game

    name = puzzle_game(game)
    date = parse_date(date_text) if date_text is not None else None
    from boardproof.puzzles.daily import DAILY_MAX_TASKS

    day = date.isoformat() if date is not None else "today"
    click.echo(f"puzzle daily {name} {day}: searching (at most {DAILY_MAX_TASKS} tasks)",
               err=True)  # fmt: skip
    puzzle = daily_puzzle(name, date, progress=True)  # then a line per task tried
    if as_json:
        echo_json(puzzle)
        return
    for line in describe_puzzle(puzzle):
        click.echo(line)

@puzzle_group.command(name="generate")
@click.argument("game")
@click.option("--count", type=int, required=True, help="How many puzzles (>= 1).")
@click.option("--seed", type=int, default=0, show_default=True, help="Generator seed.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), default=None,
              help="Write the puzzles to FILE (JSON Lines); default: stdout.")  # fmt: skip
@click.option("--workers", type=int, default=1, show_default=True,
              help="Local worker processes.")  # fmt: skip
@click.option("--scheduler", default=None, metavar="ADDR",
              help="Dask: tcp://HOST:PORT of a scheduler, or local:N (boardproof[cluster]).")
@click.option("--min-plies", type=int, default=None, help="Shortest win (default 3).")
@click.option("--max-plies", type=int, default=None,
              help="Longest win (default: 5; Candy Conquest 3).")  # fmt: skip
@click.option("--timeout", type=SECONDS, default=None,
              help="Seconds per candidate, a safety net (default 20).")  # fmt: skip
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="Keep finished tasks in FILE (kept; default with --out: "
                   "OUT.checkpoint.jsonl, deleted when the run ends).")  # fmt: skip
@click.option("--fresh", is_flag=True, help="Ignore (delete) an existing checkpoint.")
def generate_command(
    game: str,
    count: int,
    seed: int,
    out_file: str | None,
    workers: int,
    scheduler: str | None,
    min_plies: int | None,
    max_plies: int | None,
    timeout: float | None,
    checkpoint: str | None,
    fresh: bool,
) -> None:
    """Generate COUNT proven puzzles of GAME from seeded random playouts.

    \b
    With --out (or --checkpoint) every finished task is kept in a checkpoint: run the
    same command again after an interruption and it resumes (the same puzzles as an
    uninterrupted run).

    \b
    Example:
      boardproof puzzle generate carpniches --count 3 --seed 1 --out puzzles.jsonl
    """
    from boardproof.puzzles.generate import MAX_COUNT, generate, settings_for
    from boardproof.puzzles.store import write_puzzles

    if not 1 <= count <= MAX_COUNT:
        raise PuzzleError(
            f"invalid option --count: expected a number from 1 to {MAX_COUNT}, got {count!r}"
        )
    check_workers(workers, scheduler)
    if timeout is not None and timeout <= 0:
        raise InvalidOptionError(f"invalid option --timeout: expected > 0, got {timeout!r}")
    settings = settings_for(game, min_plies=min_plies, max_plies=max_plies, timeout=timeout)
    check_output_path(out_file, "--out")  # fail now, not after the search
    path = checkpoint or (default_checkpoint(out_file) if out_file is not None else None)
    if fresh and path is not None and os.path.exists(path):
        os.remove(path)

    from boardproof.jobs.executor import Executor

    with Executor(workers, scheduler) as executor:
        result = generate(game, count, seed, settings, executor=executor,
                          progress=out_file is not None, checkpoint=path,
                          on_puzzle=functools.partial(show_found, out_file))  # fmt: skip
    if out_file is not None:
        write_puzzles(out_file, result.puzzles)
    if checkpoint is None and path is not None and os.path.exists(path):
        os.remove(path)  # the default checkpoint: the run is over
    tried = ", ".join(f"{k} {v}" for k, v in sorted(result.counts.items()))
    summary = (
        f"{len(result.puzzles)} puzzles from {result.tasks} tasks in {result.seconds:.1f} s "
        f"(candidates: {tried})"
    )
    if scheduler is not None:
        summary += f"; {executor.describe()}"
        if executor.reruns:
            summary += f", re-run: {', '.join(sorted(executor.reruns))}"
    if out_file is not None:
        summary += f"; wrote {out_file}"
    click.echo(summary, err=out_file is None)
    if len(result.puzzles) < count:
        click.echo(f"error: found only {len(result.puzzles)} of {count} puzzles", err=True)
        raise click.exceptions.Exit(1)

@puzzle_group.command(name="check")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def check_command(file: str, as_json: bool) -> None:
    """Re-verify every puzzle in FILE: proof, uniqueness, notation (exit 1 on a failure).

    \b
    Example:
      boardproof puzzle generate minefield --count 2 --out puzzles.jsonl
      boardproof puzzle check puzzles.jsonl
    """
    from boardproof.commands.payloads import puzzle_check_payload
    from boardproof.puzzles.check import check_puzzle
    from boardproof.puzzles.store import read_puzzles

    puzzles = read_puzzles(file)
    if as_json:
        verdicts = [check_puzzle(p, k) for k, p in enumerate(puzzles, start=1)]
        data = puzzle_check_payload(file, verdicts)
        echo_json(data)
        if data["failed"]:
            raise click.exceptions.Exit(1)
        return
    failed = 0
    for number, puzzle in enumerate(puzzles, start=1):
        verdict = check_puzzle(puzzle, number)
        if verdict.ok:
            click.echo(f"ok    {verdict.ident}: {verdict.message}")
        else:
            failed += 1
            click.echo(f"FAIL  {verdict.ident}: {verdict.message}")
    click.echo(f"{len(puzzles)} puzzles checked: {len(puzzles) - failed} ok, {failed} failed")
    if failed:
        raise click.exceptions.Exit(1)
