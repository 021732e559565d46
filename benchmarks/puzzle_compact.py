"""Compact puzzles (issue #31): bytes and check time of the proof tree against the strategy.

Usage: ``.venv/bin/python benchmarks/puzzle_compact.py FILE...`` (puzzle files of version 1
with proof trees, e.g. mined with ``boardproof puzzle generate minefield --from-games``).

For every "win in N" puzzle with a proof tree: the bytes of its JSON line with the tree
and with the compact strategy (``boardproof.puzzles.compact.compact``), the bytes of the
``proof``/``strategy`` field alone, and the seconds of ``puzzle check``'s full check of
each form (best of 3), and of the proof step alone (``check_proof`` against
``check_strategy``). Prints one row per puzzle and the totals; then the bytes of a puzzle
site (:func:`boardproof.reports.site.write_site`) holding these puzzles as consecutive days,
one site with the trees and one compact: its puzzle files, its pages and the rest.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from boardproof import models
from boardproof.puzzles.check import check_puzzle
from boardproof.puzzles.compact import compact
from boardproof.puzzles.store import dumps, read_puzzles
from boardproof.solvers.proof import check_proof
from boardproof.solvers.strategy import check_strategy, unpack


def best(action: Callable[[], Any], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main(paths: list[str]) -> None:
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} load {os.getloadavg()[0]:.2f}")
    print(
        "| puzzle | plies | positions | entries | line bytes tree | line bytes compact | "
        "proof field | strategy field | check s tree | check s compact | proof step s | "
        "strategy step s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    totals = [0.0] * 8
    count = 0
    trees: list[dict[str, Any]] = []
    for path in paths:
        for puzzle in read_puzzles(path):
            if "proof" not in puzzle:
                continue
            trees.append(puzzle)
            small = compact(puzzle)
            game = models.get(puzzle["game"], **(puzzle.get("options") or {}))
            pos = game.parse_position(puzzle["position"])
            tokens = unpack(small["strategy"])
            assert check_puzzle(puzzle).ok and check_puzzle(small).ok
            row = [
                len(dumps(puzzle)) + 1,
                len(dumps(small)) + 1,
                len(dumps(puzzle["proof"])),
                len(dumps(small["strategy"])),
                best(partial(check_puzzle, puzzle)),
                best(partial(check_puzzle, small)),
                best(partial(check_proof, puzzle["proof"], game=game)),
                best(partial(check_strategy, pos, pos.to_move, tokens, puzzle["plies"])),
            ]
            totals = [a + b for a, b in zip(totals, row, strict=True)]
            count += 1
            print(
                f"| {puzzle['id']} | {puzzle['plies']} | {len(puzzle['proof']['nodes'])} | "
                f"{small['strategy']['listed']} | {row[0]} | {row[1]} | {row[2]} | {row[3]} | "
                f"{row[4]:.3f} | {row[5]:.3f} | {row[6]:.3f} | {row[7]:.3f} |",
                flush=True,
            )
    print(
        f"| **all {count}** | | | | {totals[0]:.0f} | {totals[1]:.0f} | {totals[2]:.0f} | "
        f"{totals[3]:.0f} | {totals[4]:.2f} | {totals[5]:.2f} | {totals[6]:.2f} | "
        f"{totals[7]:.2f} |"
    )
    print(f"# load after {os.getloadavg()[0]:.2f}")
    for form, chosen in (("trees", trees), ("compact", [compact(p) for p in trees])):
        sizes = site_bytes(chosen)
        print(
            f"site with {form}: {len(chosen)} days, puzzle files {sizes['jsonl']}, pages "
            f"{sizes['html']}, other {sizes['other']}, total {sum(sizes.values())} bytes"
        )


def site_bytes(puzzles: list[dict[str, Any]]) -> dict[str, int]:
    """The bytes of a site of ``puzzles`` as consecutive days (by kind of file)."""
    from boardproof.reports.site import write_site

    last = dt.date(2026, 12, 31)
    dates = [(last - dt.timedelta(days=k)).isoformat() for k in range(len(puzzles))]
    games = sorted({p["game"] for p in puzzles})
    table = {f"{p['game']} {d}": {**p, "date": d, "id": f"{p['game']}-{d}"}
             for d, p in zip(dates, puzzles, strict=True)}  # fmt: skip
    if len(games) != 1:
        raise SystemExit("site sizes: the puzzles must be of one game")
    sizes = {"jsonl": 0, "html": 0, "other": 0}
    with tempfile.TemporaryDirectory() as out:
        for relative in write_site(out, dates, games, table):
            kind = relative.rsplit(".", 1)[-1]
            size = os.path.getsize(os.path.join(out, relative))
            sizes[kind if kind in sizes else "other"] += size
    return sizes


if __name__ == "__main__":
    main(sys.argv[1:])
