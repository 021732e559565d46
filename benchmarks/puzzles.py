"""Puzzle generation benchmark: proven puzzles per minute per game (record in RESULTS.md).

Usage: ``.venv/bin/python benchmarks/puzzles.py [--count K] [--seed S] [--workers N ...]
[--game GAME ...]``

For each game and each worker count: generate ``K`` puzzles with the default settings
(as ``boardproof puzzle generate GAME --count K --seed S --workers N``), then re-verify
them all with the independent checker (as ``boardproof puzzle check``). Prints wall and
CPU seconds (the machine is shared: CPU time is the steadier figure; it is shown for
one worker only, the pool's workers are not this process's children to the end), puzzles
per minute of each, the plies and ratings found, the
daily puzzle's time and the load average (1 minute) after the row. The puzzles must be
the same for every worker count (checked).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
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
    parser.add_argument("--workers", type=int, nargs="+", default=[1])
    parser.add_argument("--game", action="append", default=None)
    args = parser.parse_args()
    print(f"# {platform.python_version()} {platform.machine()} {dt.date.today()}", flush=True)
    print(
        f"{'game':<11} {'puzzles':>7} {'wall s':>7} {'cpu s':>7} {'/min wall':>9} "
        f"{'/min cpu':>8} {'check s':>7} {'daily s':>7}  plies  rating (median)  workers load",
        flush=True,
    )
    for game in args.game or GAMES:
        first: list[dict[str, object]] | None = None
        for workers in args.workers:
            found = row(game, args.count, args.seed, workers)
            if first is None:
                first = found
            assert found == first, "the puzzles depend on the worker count"


def row(game: str, count: int, seed: int, workers: int) -> list[dict[str, object]]:
    """One table row: ``count`` puzzles of ``game`` with ``workers`` workers (returned)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = generate(game, count, seed, workers=workers, progress=False)
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
    cpu_text, rate = (f"{cpu:7.1f}", f"{60 * found / cpu:8.1f}") if workers == 1 else ("-", "-")
    print(
        f"{game:<11} {found:>7} {wall:7.1f} {cpu_text:>7} {60 * found / wall:9.1f} "
        f"{rate:>8} {checked:7.2f} {daily:7.2f}  {plies_text:<6} {median:<15.0f}"
        f"  {workers:>7} {os.getloadavg()[0]:4.1f}",
        flush=True,
    )
    return result.puzzles


if __name__ == "__main__":
    main()
