"""Minefield perft speed: leaves per second, counting the last ply in bulk.

Runs ``position.perft(depth)`` (the fast bitboard perft: placements of the
last ply are counted with a popcount of the legal-placement bitboard, plus
swap / pass) on empty boards with the pie rule ON (``<n> ... b p``), then on
two mid-game positions (reached by seeded random play, pie rule off) where
the boards are crowded and wins occur. Prints one line per case. Usage::

    .venv/bin/python benchmarks/perft.py [--repeat N] [--win orthodiagonal]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from boardproof.models.minefield import MinefieldGame, MinefieldPosition, make_game
from boardproof.testing.random_play import unfinished_positions

CASES = ((5, 4), (8, 3), (19, 2), (19, 3))  # the issue asks for the first three
#: (n, random plies played from the empty board, depth)
MIDGAME = ((8, 20, 3), (19, 120, 3))


def midgame(game: MinefieldGame, n: int, plies: int, seed: int = 1) -> MinefieldPosition:
    """A position after ``plies`` seeded random moves (re-drawn if the game ends)."""
    return unfinished_positions(lambda: game.start(size=n, pie=False), 1, random.Random(seed),
                                plies=plies)[0]


def measure(pos: MinefieldPosition, depth: int, repeat: int) -> tuple[int, float]:
    best = float("inf")
    leaves = 0
    for _ in range(repeat):
        start = time.perf_counter()
        leaves = pos.perft(depth)
        best = min(best, time.perf_counter() - start)
    return leaves, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    parser.add_argument("--win", default="orthogonal", help="orthogonal or orthodiagonal")
    args = parser.parse_args()
    game = make_game(win=args.win)
    print(f"python {platform.python_version()}, win rule {args.win}, pie rule on, best of "
          f"{args.repeat}")
    for n, depth in CASES:
        leaves, best = measure(game.start(size=n, pie=True), depth, args.repeat)
        print(f"{n}x{n} empty, depth {depth}: {leaves:>10,} leaves in {best:7.3f} s = "
              f"{leaves / best:>12,.0f} leaves/s")
    for n, plies, depth in MIDGAME:
        pos = midgame(game, n, plies)
        leaves, best = measure(pos, depth, args.repeat)
        print(f"{n}x{n} after {plies} plies, depth {depth}: {leaves:>10,} leaves in "
              f"{best:7.3f} s = {leaves / best:>12,.0f} leaves/s   [{pos.fen()}]")

if __name__ == "__main__":
    main()
