"""``python -m boardproof.puzzles.calibration_command``: the command line of
:mod:`boardproof.puzzles.calibration` (see its doc)."""

from __future__ import annotations

import json
import os
import sys

from boardproof.puzzles import PuzzleError
from boardproof.puzzles.calibration import GAMES, render, run, summary


def _fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module doc)."""
    import argparse

    from boardproof.puzzles.daily import parse_date

    parser = argparse.ArgumentParser(description="The difficulty calibration on the daily "
                                     "puzzles (boardproof.puzzles.calibration).")
    parser.add_argument("--days", default="365", help="how many days, ending on --date")
    parser.add_argument("--date", default="2026-12-31", help="the last day (YYYY-MM-DD)")
    parser.add_argument("--game", action="append", default=None,
                        help="a game (repeat; default: all four)")  # fmt: skip
    parser.add_argument("--out", required=True, help="the lines (JSON Lines; resumed)")
    parser.add_argument("--from", dest="site", default=None,
                        help="take the daily puzzles from a site built by 'boardproof site' "
                             "(DIR/DATE/GAME.jsonl) instead of computing them")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--progress", action="store_true", help="a line a day on stderr")
    args = parser.parse_args(argv)
    try:
        days = int(args.days)
        if not 1 <= days <= 3660:
            raise ValueError
    except ValueError:
        _fail(f"invalid option --days: expected a number 1..3660, got {args.days!r}")
    try:
        last = parse_date(args.date)
    except PuzzleError as error:
        _fail(f"invalid option --date: {error}")
    games = tuple(args.game or GAMES)
    for game in games:
        if game not in GAMES:
            _fail(f"invalid option --game: expected one of {', '.join(GAMES)}, got {game!r}")
    if args.site is not None and not os.path.isdir(args.site):
        _fail(f"invalid option --from: not a folder: {args.site!r}")
    try:
        found = summary(run(days, last, games, args.out, args.progress, args.site))
    except PuzzleError as error:  # (a missing puzzle file of --from: its option named)
        _fail(str(error).replace("invalid site:", "invalid option --from:"))
    if args.json:
        print(json.dumps(found, sort_keys=True))
        return
    print("\n".join(render(found)))


if __name__ == "__main__":
    main()
