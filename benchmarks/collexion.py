"""ColleXion benchmarks: legal turns per second on the opening heap, endgame solve times.

Run: ``.venv/bin/python benchmarks/collexion.py [--repeat N] [--seeds K]``.

- generation: ``legal_moves()`` of the seed-0..2 opening positions (80 pieces),
  with a fresh position each time (no cache), in turns per second; also
  ``successors()`` (turns and the positions after them).
- endgames: ``ScoreSearch`` (boardproof.solvers.search, exact final score
  difference) on ``endgame(seed, n)`` for n = 8, 10, 12 pieces in the box.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from boardproof.models.collexion import make_game
from boardproof.models.collexion.endgames import endgame
from boardproof.solvers.search import ScoreSearch


def generation(repeat: int) -> None:
    game = make_game()
    for seed in (0, 1, 2):
        text = game.start(seed=seed).fen()
        rates, count = [], 0
        for _ in range(repeat):
            pos = game.parse_position(text)
            t0 = time.perf_counter()
            count = len(pos.legal_moves())
            rates.append(count / (time.perf_counter() - t0))
        pos = game.parse_position(text)
        t0 = time.perf_counter()
        pairs = len(pos.successors())
        succ_rate = pairs / (time.perf_counter() - t0)
        print(
            f"opening seed {seed}: {count} turns, legal_moves {statistics.median(rates):,.0f} "
            f"turns/s (median of {repeat}), successors {succ_rate:,.0f} turns/s"
        )


def endgames(seeds: int) -> None:
    for size in (8, 10, 12):
        times = []
        for seed in range(1, seeds + 1):
            pos = endgame(seed, size)
            t0 = time.perf_counter()
            result = ScoreSearch(pos).solve()
            elapsed = time.perf_counter() - t0
            times.append(elapsed)
            print(
                f"endgame n={size} seed={seed}: {result.value} {result.score:+d} for player 1, "
                f"{result.nodes} nodes, {elapsed:.2f} s, first turn {result.best_move}"
            )
        print(f"endgame n={size}: median {statistics.median(times):.2f} s over {seeds} seeds")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {time.strftime('%F')}")
    generation(args.repeat)
    endgames(args.seeds)


if __name__ == "__main__":
    main()
