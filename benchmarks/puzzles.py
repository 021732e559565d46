"""Puzzle generation benchmark: proven puzzles per minute per game (record in RESULTS.md).

Usage: ``.venv/bin/python benchmarks/puzzles.py [--count K] [--seed S] [--workers N]
[--game GAME ...]``

For each game: generate ``K`` puzzles with the default settings (as
``boardproof puzzle generate GAME --count K --seed S``), then re-verify them all
with the independent checker (as ``boardproof puzzle check``). Prints wall and
CPU seconds (the machine is shared: CPU time is the steadier figure), puzzles
per minute of each, the plies and ratings found, and the daily puzzle's time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import statistics
import time

from boardproof.puzzles.check import check_puzzle
from boardproof.puzzles.daily import daily_puzzle
from boardproof.puzzles.generate import generate

GAMES = ("minefield", "carpniches", "candy", "collexion")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--game", action="append", default=None)
    args = parser.parse_args()
    print(f"# {platform.python_version()} {platform.machine()} {dt.date.today()}", flush=True)
    print(
        f"{'game':<11} {'puzzles':>7} {'wall s':>7} {'cpu s':>7} {'/min wall':>9} "
        f"{'/min cpu':>8} {'check s':>7} {'daily s':>7}  plies  rating (median)",
        flush=True,
    )
    for game in args.game or GAMES:
        wall, cpu = time.perf_counter(), time.process_time()
        result = generate(game, args.count, args.seed, workers=args.workers, progress=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        start = time.perf_counter()
        assert all(check_puzzle(p).ok for p in result.puzzles)
        checked = time.perf_counter() - start
        start = time.perf_counter()
        daily_puzzle(game, dt.date(2026, 1, 1))
        daily = time.perf_counter() - start
        found = len(result.puzzles)
        plies = {n: sum(p["plies"] == n for p in result.puzzles) for n in (3, 5, 7)}
        plies_text = "/".join(str(plies[n]) for n in (3, 5, 7))
        if game == "collexion":  # best-turn puzzles: the plies are the line to the end
            plies_text = "-"
        median = statistics.median(p["rating"]["rating"] for p in result.puzzles)
        cpu_rate = f"{60 * found / cpu:8.1f}" if args.workers == 1 else "       -"
        print(
            f"{game:<11} {found:>7} {wall:7.1f} {cpu:7.1f} {60 * found / wall:9.1f} "
            f"{cpu_rate} {checked:7.2f} {daily:7.2f}  {plies_text:<6} {median:.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
