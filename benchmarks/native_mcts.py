"""Iterations per second of the native MCTS engine (``solvers/native/mcts_tree.h``) on
Minefield: the start and seeded middle-game positions (random legal placements from the
empty board, pie off), one thread per CPU second and two threads per wall second, beside
the Python tree with native playouts (today's ``analyse`` tree before the native engine).

    .venv/bin/python benchmarks/native_mcts.py [--seconds 3] [--sizes 9,13,15,19]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

from boardproof.models.minefield.rules import make_game
from boardproof.solvers.mcts import MCTS
from boardproof.solvers.native_mcts import EngineSettings, native_tree


def middle_game(size: int, stones: int, seed: int) -> Any:
    """``stones`` random legal placements from the empty board (no one has won)."""
    rng = random.Random(seed)
    while True:
        position = make_game().start(size=size, pie=False)
        for _ in range(stones):
            placements = [m for m in position.legal_moves() if m.is_placement]
            position = position.play(rng.choice(placements))
            if position.outcome() is not None:
                break
        if position.outcome() is None and native_tree(position) is not None:
            return position


def rate(tree: Any, seconds: float) -> tuple[int, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    tree.run(seconds=seconds)
    return tree.iterations, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--sizes", default="9,13,15,19")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| position | tree | threads | iterations | CPU s | wall s | per CPU s | per wall s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for size in map(int, args.sizes.split(",")):
        for label, stones in (("start", 0), (f"middle ({size * size // 4} stones)",
                                             size * size // 4)):  # fmt: skip
            position = middle_game(size, stones, seed=size)
            rows = []
            for threads in (1, 2):
                tree = native_tree(position, EngineSettings(threads=threads, seed=1))
                assert tree is not None
                rows.append(("native", threads, *rate(tree, args.seconds)))
            python = MCTS(position, seed=1)
            rows.append(("python (native playouts)", 1, *rate(python, args.seconds)))
            for name, threads, done, cpu, wall in rows:
                print(f"| {size}x{size} {label} | {name} | {threads} | {done} | {cpu:.2f} | "
                      f"{wall:.2f} | {done / cpu:,.0f} | {done / wall:,.0f} |")


if __name__ == "__main__":
    main()
