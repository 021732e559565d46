"""``boardproof review``: judge every move of a game record.

The record formats are documented in :mod:`boardproof.review.record` (boardproof's text
and JSON forms, AbstractPlay's records).
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
from boardproof.models.base import BoardproofError, Game, InvalidOptionError
from boardproof.review.judge import Review, review_record
from boardproof.review.record import Record, RecordError, parse_record, record_game


def read_record_file(record: str) -> str:
    """The text of the record file ``record`` (``-``: stdin); RecordError if unreadable."""
    from boardproof.inputs import read_stream, read_text

    try:
        if record == "-":
            return read_stream(sys.stdin.buffer, "<stdin>").decode("utf-8")
        return read_text(record)
    except (OSError, UnicodeDecodeError) as error:
        why = "not a UTF-8 text file" if isinstance(error, UnicodeDecodeError) else (
            getattr(error, "strerror", None) or str(error))  # fmt: skip
        message = f"invalid record: cannot read the file ({why}): {record!r}"
        raise RecordError(message) from None


def load_record(game: str | None, text: str, options: dict[str, Any]) -> Record:
    """Read the record ``text`` of ``game`` (None: the game the record names)."""
    game_obj: Game
    if game is None:
        name = record_game(text)
        if name is None:
            raise RecordError("invalid record: the record does not name its game (give GAME "
                              "before RECORD)")  # fmt: skip
        game_obj = load_game(name, **options)
    else:
        game_obj = load_game(game, **options)
    return parse_record(game_obj, text)


#: how the result line names the endings the moves do not show (the loser did it)
_ENDED = {"resign": "resigned", "timeout": "lost on time"}


def result_text(record: Record) -> str:
    """The result of ``record`` in words, and how the game ended.

    >>> from boardproof import models
    >>> from boardproof.models.base import Outcome
    >>> from boardproof.review.record import make_record
    >>> pos = models.get("minefield").start(size=3, pie=False)
    >>> result_text(make_record(pos, ["b2"], result=Outcome.win(0), ending="resign"))
    'b wins (w resigned)'
    >>> result_text(make_record(pos, ["b2"]))
    'none (the game is not over)'
    """
    game = record.game
    outcome = record.positions[-1].outcome()
    if outcome is not None:
        how = "the moves end the game" if outcome.winners else "dead position"
    elif record.result is not None and record.ending:
        outcome = record.result
        how = record.ending
        if record.ending in _ENDED and len(outcome.winners) == 1 and game.info.players == (2, 2):
            loser = 1 - min(outcome.winners)
            how = f"{game.symbol(loser)} {_ENDED[record.ending]}"
        elif record.ending == "draw":
            how = "agreed"
    else:
        return "none (the game is not over)"
    if outcome.is_draw:
        return f"{'none' if record.ending == 'abandoned' else 'draw'} ({how})"
    winners = " and ".join(sorted(game.symbol(p) for p in outcome.winners))
    return f"{winners} wins ({how})"


def _names_a_game(word: str) -> bool:
    """Whether ``word`` is a game's name and no file (``review minefield`` lacks RECORD)."""
    import os

    from boardproof import models

    try:
        models.canonical_name(word)
    except BoardproofError:
        return False
    return not os.path.exists(word)


def record_line(record: Record) -> str | None:
    """The line that says where an imported record comes from (None for boardproof's)."""
    if record.source == "boardproof":
        return None
    game = record.game
    names = ", ".join(f"{game.symbol(p)} {name}" for p, name in enumerate(record.players))
    return (f"record: {record.source}" + (f" ({names})" if names else "")
            + f", result: {result_text(record)}")  # fmt: skip


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
@click.argument("game", required=False, metavar="[GAME]")
@click.argument("record", required=False, metavar="RECORD")
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
    game: str | None,
    record: str | None,
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
    comment), or JSON {"start": ..., "moves": [...]}, or an AbstractPlay record. GAME
    may be left out when the record names it (AbstractPlay's, JSON with "game").

    \b
    Example:
      printf '4/4/4/4 b -\\na2 a1 c2 d2\\n' | boardproof review minefield -
    """
    if game is None or (record is None and _names_a_game(game)):
        raise click.MissingParameter(param_hint="RECORD", param_type="argument")
    check_output_path(html_file, "--html")
    given: str | None = game
    if record is None:  # one argument: the record, which names its game
        given, record = None, game
    else:
        load_game(game, **options)  # an unknown game is refused before the file is read
    if seconds <= 0:
        raise InvalidOptionError(
            f"invalid option --time-per-move: expected > 0, got {seconds!r}"
        )
    if iterations is not None and iterations < 1:
        raise InvalidOptionError(
            f"invalid option --iterations-per-move: expected >= 1, got {iterations!r}"
        )
    rec = load_record(given, read_record_file(record), options)
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
        source = record_line(rec)
        return (([source] if source else []) + describe(review)
                + ([f"wrote {html_file}"] if html_file is not None else []))  # fmt: skip

    echo_answer(as_json, review.to_json, lines)
    exit_if_interrupted(interrupted)
