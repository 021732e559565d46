"""``boardproof review``: judge every move of a game record.

The record format is documented in :mod:`boardproof.review.record`.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from boardproof.commands.analyse import ProgressLine
from boardproof.commands.common import (
    SECONDS,
    allow_impossible_option,
    check_output_path,
    check_possible,
    game_options,
    load_game,
)
from boardproof.commands.results import (
    echo_answer,
    exit_if_interrupted,
    interruptible,
    write_file,
)
from boardproof.models.base import InvalidOptionError
from boardproof.review.judge import Review, review_record
from boardproof.review.record import RecordError, parse_record


def describe(review: Review) -> list[str]:
    """The text lines ``review`` prints."""
    game = review.record.game
    lines = [f"start: {review.record.start.fen()}"]
    lines.append(f"  {'ply':>3} {'side':<4} {'move':<14} {'before':<8} {'after':<8} "
                 f"{'best alternative':<24} mark")  # fmt: skip
    for row in review.plies:
        best = "-" if row.best is None else row.best
        if row.best_value is not None:
            best += f" ({row.best_value.label()})"
        mark = row.mark or ""
        if row.ply == review.losing_move:
            mark = "THE LOSING MOVE"
        lines.append(
            f"  {row.ply:>3} {game.symbol(row.player):<4} {row.move:<14} "
            f"{row.before.label():<8} {row.after.label():<8} {best:<24} {mark}".rstrip()
        )
    if review.losing_move is not None:
        row = review.plies[review.losing_move - 1]
        lines.append(f"losing move: ply {row.ply}, {game.symbol(row.player)} played {row.move} "
                     f"({row.where})")  # fmt: skip
    else:
        lines.append("losing move: none proved")
    lines.append("values are for the side that moves: win/loss/draw proved, ~N% estimated")
    return lines


@click.command(name="review")
@click.argument("game")
@click.argument("record")
@click.option("--time-per-move", "seconds", type=SECONDS, default=1.0, show_default=True,
              help="Seconds of analysis per position.")  # fmt: skip
@click.option("--iterations-per-move", "iterations", type=int, default=None,
              help="MCTS iterations per position instead (reproducible).")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False), default=None,
              help="Also write a self-contained HTML page to FILE.")  # fmt: skip
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@game_options
@allow_impossible_option
def review_command(
    game: str,
    record: str,
    seconds: float,
    iterations: int | None,
    seed: int,
    as_json: bool,
    html_file: str | None,
    quiet: bool,
    options: dict[str, Any],
    allow_impossible: bool,
) -> None:
    """Review the game RECORD (a file, or - for stdin): value before and after each
    move, the best alternative, and the losing move.

    The record: the start position on the first line, then the moves (# starts a
    comment), or JSON {"start": ..., "moves": [...]}.

    \b
    Example:
      printf '4/4/4/4 b -\\na2 a1 c2 d2\\n' | boardproof review minefield -
    """
    check_output_path(html_file, "--html")
    game_obj = load_game(game, **options)
    if seconds <= 0:
        raise InvalidOptionError(
            f"invalid option --time-per-move: expected > 0, got {seconds!r}"
        )
    if iterations is not None and iterations < 1:
        raise InvalidOptionError(
            f"invalid option --iterations-per-move: expected >= 1, got {iterations!r}"
        )
    from boardproof.inputs import read_stream, read_text

    try:
        if record == "-":
            text = read_stream(sys.stdin.buffer, "<stdin>").decode("utf-8")
        else:
            text = read_text(record)
    except (OSError, UnicodeDecodeError) as error:
        why = "not a UTF-8 text file" if isinstance(error, UnicodeDecodeError) else (
            getattr(error, "strerror", None) or str(error))  # fmt: skip
        message = f"invalid record: cannot read the file ({why}): {record!r}"
        raise RecordError(message) from None
    rec = parse_record(game_obj, text)
    for index, pos in enumerate(rec.positions):  # the start and every position after it
        if pos.status():  # refused, or one warning for the first impossible position
            where = "the start" if index == 0 else f"{rec.moves[index - 1].where}, ply {index}"
            check_possible(pos, allow_impossible, f"record {where}")
            break
    import time

    from boardproof.jobs.progress import eta_text

    progress = ProgressLine()
    start = time.perf_counter()

    def report(index: int, total: int) -> None:  # called before position index is analysed
        if not quiet:
            elapsed = time.perf_counter() - start
            eta = eta_text(elapsed, index, total - index)
            text = f"review: position {index + 1}/{total}, {elapsed:.1f} s elapsed"
            progress.show(text + (f", {eta}" if eta else ""))

    with interruptible() as stop:
        review = review_record(
            rec, seconds=None if iterations is not None else seconds,
            iterations=iterations, seed=seed, should_stop=stop, progress=report,
        )  # fmt: skip
        interrupted = stop()
    progress.end()
    if html_file is not None:
        from boardproof.reports.review_html import render

        write_file(html_file, render(review), "--html")

    def lines() -> list[str]:
        return describe(review) + ([f"wrote {html_file}"] if html_file is not None else [])

    echo_answer(as_json, review.to_json, lines)
    exit_if_interrupted(interrupted)
