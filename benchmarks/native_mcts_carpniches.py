"""Iterations per second of the native MCTS engine on Carpniches (``solvers/native/
mcts_tree.h`` + ``models/carpniches/native/mcts.c``) from the start position, one thread,
per CPU second and per wall second, beside the Python tree with native playouts (what
``analyse`` grew before the native engine) for comparison.

    .venv/bin/python benchmarks/native_mcts_carpniches.py [--seconds 3] [--python]
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from boardproof.models.carpniches.rules import START_POSITION
from boardproof.solvers.mcts import MCTS
from boardproof.solvers.native_mcts import EngineSettings, native_tree


def rate(tree: Any, seconds: float) -> tuple[int, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    tree.run(seconds=seconds)
    return tree.iterations, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--python", action="store_true", help="also time the Python tree")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| position | tree | iterations | CPU s | wall s | per CPU s | per wall s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    tree = native_tree(START_POSITION, EngineSettings(seed=1))
    assert tree is not None
    rows = [("native", *rate(tree, args.seconds))]
    if args.python:
        rows.append(("python (native playouts)", *rate(MCTS(START_POSITION, seed=1),
                                                        args.seconds)))  # fmt: skip
    for name, iterations, cpu, wall in rows:
        print(f"| start | {name} | {iterations} | {cpu:.2f} | {wall:.2f} | "
              f"{iterations / max(cpu, 1e-9):,.0f} | {iterations / wall:,.0f} |")  # fmt: skip
    stats = tree.stats()
    print(f"native tree: {stats['nodes']} nodes, best move {tree.best_move()}")


if __name__ == "__main__":
    main()
