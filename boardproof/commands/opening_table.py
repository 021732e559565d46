"""``boardproof opening-table minefield``: the empty-board values and opening tables."""

from __future__ import annotations

import os
import time

import click

from boardproof import models
from boardproof.models.base import InvalidOptionError


def parse_sizes(text: str) -> list[int]:
    """``"2-5"`` or ``"3"`` or ``"2,4"`` as a list of board sizes.

    >>> parse_sizes("2-4"), parse_sizes("3,5")
    ([2, 3, 4], [3, 5])
    """
    sizes: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.partition("-")
            sizes += list(range(int(low), int(high or low) + 1))
    except ValueError:
        raise InvalidOptionError(
            f"invalid option --sizes: expected like 2-5, got {text!r}"
        ) from None
    if not sizes or any(not 2 <= n <= 26 for n in sizes):
        raise InvalidOptionError(f"invalid option --sizes: sizes must be 2 to 26, got {text!r}")
    return sorted(set(sizes))


def register(group: click.Group) -> None:
    from boardproof.cli import win_option

    @group.command(name="opening-table")
    @click.argument("game")
    @click.option("--sizes", default="2-4", show_default=True, help="Board sizes, e.g. 2-5.")
    @click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
                  help="Local worker processes.")  # fmt: skip
    @click.option("--out", "out_dir", default="reports", show_default=True,
                  type=click.Path(file_okay=False), help="Folder for the reports.")  # fmt: skip
    @click.option("--checkpoint", default=None, type=click.Path(dir_okay=False),
                  help="Resume file (default: in OUT, removed when done).")  # fmt: skip
    @click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
                  help="Seconds per entry (unsolved entries are reported so).")  # fmt: skip
    @win_option
    def opening_table(
        game: str,
        sizes: str,
        workers: int,
        out_dir: str,
        checkpoint: str | None,
        timeout: float | None,
        win: str | None,
    ) -> None:
        """Solve GAME (minefield) on small boards: empty-board value and opening table."""
        if models.canonical_name(game) != "minefield":
            raise InvalidOptionError(
                f"invalid game: opening-table supports minefield only, got {game!r}"
            )
        from boardproof.reports.openings import build_report, write_report

        size_list = parse_sizes(sizes)
        cp = checkpoint or os.path.join(out_dir, "minefield-openings.checkpoint.json")
        start = time.perf_counter()
        command = f"boardproof opening-table minefield --sizes {sizes} --workers {workers}"
        if timeout is not None:
            command += f" --timeout {timeout:g}"
        if win is not None:
            command += f" --win {win}"
        command += f" --out {out_dir}"
        report = build_report(
            size_list,
            win=win or "orthogonal",
            workers=workers,
            checkpoint=cp,
            timeout=timeout,
            command=command,
        )
        elapsed = time.perf_counter() - start
        for size in report["sizes"]:
            empty = size["empty"]
            points = ", ".join(size["black_wins"]) or "none"
            if size["unsolved"]:
                points += f" (unsolved: {', '.join(size['unsolved'])})"
            click.echo(
                f"{size['n']}x{size['n']}: empty board won by {empty['winner'] or '?'}"
                + (f" (first move {empty['best_move']})" if empty["winner"] == "b" else "")
                + f"; Black wins after: {points}"
            )
        for path in write_report(report, out_dir):
            click.echo(f"wrote {path}")
        if checkpoint is None and os.path.exists(cp):
            os.remove(cp)
        click.echo(f"seconds: {elapsed:.1f} (workers: {workers})")
