"""Iterations per second of the native MCTS engine on Candy Conquest (``solvers/native/
mcts_tree.h`` + ``models/candy/native/candy_mcts.h``: the two-player tree, the max^n tree of
3 and 4 players) from the empty board and from a middle game (16 seeded random plies), one
thread, per CPU second and per wall second, beside the Python tree (what ``analyse`` grew
before the native engine: Candy Conquest has no playout kernel) for comparison.

    .venv/bin/python benchmarks/native_mcts_candy.py [--seconds 3] [--python]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

from boardproof import models
from boardproof.solvers.mcts import MCTS
from boardproof.solvers.native_mcts import EngineSettings, native_tree

#: random plies of the middle-game position
MIDDLE_PLIES = 16


def rate(tree: Any, seconds: float) -> tuple[int, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    tree.run(seconds=seconds)
    return tree.iterations, time.process_time() - cpu, time.perf_counter() - wall


def middle(players: int, seed: int = 1) -> Any:
    """A seeded random position after :data:`MIDDLE_PLIES` plies, none ending the game, that
    the native tree does not prove in 5,000 iterations (the first such of seeds 1, 2, ...)."""
    rng = random.Random(f"{seed}:{players}")
    position = models.get("candy").start(players=players)
    for _ in range(MIDDLE_PLIES):
        moves = [m for m in position.legal_moves() if position.play(m).outcome() is None]
        position = position.play(rng.choice(moves))
    tree = native_tree(position, EngineSettings(seed=1))
    assert tree is not None
    if tree.run(iterations=5_000).stopped == "proved":
        return middle(players, seed + 1)
    return position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--python", action="store_true", help="also time the Python tree")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| position | players | tree | iterations | CPU s | wall s | per CPU s | per wall s |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for players in (2, 3, 4):
        for name, position in (("start", models.get("candy").start(players=players)),
                               (f"{MIDDLE_PLIES} plies", middle(players))):  # fmt: skip
            tree = native_tree(position, EngineSettings(seed=1))
            assert tree is not None
            rows = [("native", *rate(tree, args.seconds))]
            if args.python:
                rows.append(("python", *rate(MCTS(position, seed=1), args.seconds)))
            for kind, iterations, cpu, wall in rows:
                per_cpu, per_wall = iterations / max(cpu, 1e-9), iterations / wall
                print(f"| {name} | {players} | {kind} | {iterations} | {cpu:.2f} | {wall:.2f} | "
                      f"{per_cpu:,.0f} | {per_wall:,.0f} |")  # fmt: skip


if __name__ == "__main__":
    main()
