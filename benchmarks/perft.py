"""Minefield perft speed: leaves per second, counting the last ply in bulk.

Runs ``position.perft(depth)`` (the fast bitboard perft: placements of the
last ply are counted with a popcount of the legal-placement bitboard, plus
swap / pass) on empty boards with the pie rule ON (``<n> ... b p``), and
prints one line per case. Usage::

    .venv/bin/python benchmarks/perft.py [--repeat N] [--win orthodiagonal]
"""

from __future__ import annotations

import argparse
import platform
import time

from boardproof.models.minefield import make_game

CASES = ((5, 4), (8, 3), (19, 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    parser.add_argument("--win", default="orthogonal", help="orthogonal or orthodiagonal")
    args = parser.parse_args()
    game = make_game(win=args.win)
    print(f"python {platform.python_version()}, win rule {args.win}, pie rule on, best of "
          f"{args.repeat}")
    for n, depth in CASES:
        pos = game.start(size=n, pie=True)
        best = float("inf")
        leaves = 0
        for _ in range(args.repeat):
            start = time.perf_counter()
            leaves = pos.perft(depth)
            best = min(best, time.perf_counter() - start)
        print(f"{n}x{n} depth {depth}: {leaves:>10,} leaves in {best:7.3f} s = "
              f"{leaves / best:>12,.0f} leaves/s")


if __name__ == "__main__":
    main()
